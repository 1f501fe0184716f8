//! The server's commands: one a line, from its console or from an operator's chat
//! (`/kick bo`).

/// A command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Who is playing.
    List,
    /// Disconnects a player, with a reason.
    Kick(String, String),
    /// A line to every player.
    Say(String),
    /// Saves and stops (the console's alone).
    Stop,
    /// Bans a name (and the key it is bound to), a key or an address, with a reason.
    Ban(String, String),
    /// Lifts the bans of a name (and its key), a key or an address.
    Pardon(String),
    /// Makes a player an operator.
    Op(String),
    /// Makes an operator a player again.
    Deop(String),
    /// Puts a name, key or address on the allowlist.
    Allow(String),
    /// Takes one off it.
    Disallow(String),
    /// Turns the allowlist on or off.
    Allowlist(bool),
}

/// The commands, as the console's help and an unknown command's answer list them.
pub const COMMANDS: &str = "list, kick NAME [REASON], say TEXT, ban WHO [REASON], pardon WHO, \
     op NAME, deop NAME, allow WHO, disallow WHO, allowlist on|off, stop (WHO: a name, a key \
     or an address)";

impl Command {
    /// Reads a line: the command, or what to say about it.
    pub fn parse(line: &str) -> Result<Self, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let (first, after) = rest.split_once(' ').unwrap_or((rest, ""));
        let (one, reason) = (first.to_owned(), after.trim().to_owned());
        let some = !rest.is_empty();
        let single = some && reason.is_empty();
        match word {
            "list" if rest.is_empty() => Ok(Command::List),
            "kick" if some => Ok(Command::Kick(one, reason)),
            "say" if some => Ok(Command::Say(rest.to_owned())),
            "stop" if rest.is_empty() => Ok(Command::Stop),
            "ban" if some => Ok(Command::Ban(one, reason)),
            "pardon" if single => Ok(Command::Pardon(one)),
            "op" if single => Ok(Command::Op(one)),
            "deop" if single => Ok(Command::Deop(one)),
            "allow" if single => Ok(Command::Allow(one)),
            "disallow" if single => Ok(Command::Disallow(one)),
            "allowlist" if rest == "on" => Ok(Command::Allowlist(true)),
            "allowlist" if rest == "off" => Ok(Command::Allowlist(false)),
            _ => Err(format!("unknown command {line:?}: {COMMANDS}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_and_others_explained() {
        assert_eq!(Command::parse(" list "), Ok(Command::List));
        assert_eq!(
            Command::parse("kick ada"),
            Ok(Command::Kick("ada".into(), String::new()))
        );
        assert_eq!(
            Command::parse("kick ada  be kind"),
            Ok(Command::Kick("ada".into(), "be kind".into()))
        );
        assert_eq!(
            Command::parse("say the dam breaks at noon"),
            Ok(Command::Say("the dam breaks at noon".into()))
        );
        assert_eq!(Command::parse("stop"), Ok(Command::Stop));
        assert_eq!(
            Command::parse("ban eve griefed the spawn"),
            Ok(Command::Ban("eve".into(), "griefed the spawn".into()))
        );
        assert_eq!(
            Command::parse("pardon eve"),
            Ok(Command::Pardon("eve".into()))
        );
        assert_eq!(Command::parse("op ada"), Ok(Command::Op("ada".into())));
        assert_eq!(Command::parse("deop ada"), Ok(Command::Deop("ada".into())));
        assert_eq!(Command::parse("allow bo"), Ok(Command::Allow("bo".into())));
        assert_eq!(
            Command::parse("disallow bo"),
            Ok(Command::Disallow("bo".into()))
        );
        assert_eq!(Command::parse("allowlist on"), Ok(Command::Allowlist(true)));
        assert_eq!(
            Command::parse("allowlist off"),
            Ok(Command::Allowlist(false))
        );
        assert!(Command::parse("kick").unwrap_err().contains("kick NAME"));
        assert!(Command::parse("op ada bo").is_err());
        assert!(Command::parse("allowlist maybe").is_err());
        assert!(Command::parse("teleport ada").is_err());
    }
}
