//! The server's console: one command a line.

/// A console command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Who is playing.
    List,
    /// Disconnects a player.
    Kick(String),
    /// A line to every player.
    Say(String),
    /// Saves and stops.
    Stop,
}

impl Command {
    /// Reads a line: the command, or what to say about it.
    pub fn parse(line: &str) -> Result<Self, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "list" if rest.is_empty() => Ok(Command::List),
            "kick" if !rest.is_empty() => Ok(Command::Kick(rest.to_owned())),
            "say" if !rest.is_empty() => Ok(Command::Say(rest.to_owned())),
            "stop" if rest.is_empty() => Ok(Command::Stop),
            _ => Err(format!(
                "unknown command {line:?}: list, kick NAME, say TEXT, stop"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_and_others_explained() {
        assert_eq!(Command::parse(" list "), Ok(Command::List));
        assert_eq!(Command::parse("kick ada"), Ok(Command::Kick("ada".into())));
        assert_eq!(
            Command::parse("say the dam breaks at noon"),
            Ok(Command::Say("the dam breaks at noon".into()))
        );
        assert_eq!(Command::parse("stop"), Ok(Command::Stop));
        assert!(Command::parse("kick").unwrap_err().contains("kick NAME"));
        assert!(Command::parse("op ada").is_err());
    }
}
