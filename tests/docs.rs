//! Docs that stay true: a module doc or the design that names a generator version
//! range not ending at the current version (and not one of the historical ranges
//! listed here; headings too, whatever their case), or a `Type::member` of ours
//! that its type no longer has (named in backticks or anywhere in a diagram), fails
//! here, so the drift is caught in the change that makes it.

use std::path::{Path, PathBuf};

/// Version ranges that describe the past on purpose (what some versions did and
/// later ones do not): `(file, the range as written)`.
const HISTORICAL: [(&str, &str); 3] = [
    // Straight and winding steps: how versions 5 to 7 lay a river.
    (
        "crates/worldgen/src/hydrology/channel/segment.rs",
        "versions 5 to 7",
    ),
    (
        "crates/worldgen/src/hydrology/network.rs",
        "versions 6 and 7",
    ),
    // Version 8's streams, against what versions 5 to 7 laid.
    ("docs/design.md", "versions 5 to 7"),
];

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The sources of the workspace: every crate's `src` and the command line's.
fn sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    for c in std::fs::read_dir("crates").unwrap().flatten() {
        rust_files(&c.path().join("src"), &mut files);
    }
    files.sort();
    files
}

/// The doc lines of a Rust file (`//!` and `///`), or every line of a Markdown file.
fn doc_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|x| x == "md") {
        return text.lines().map(str::to_owned).collect();
    }
    text.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("//!") || l.starts_with("///"))
        .map(str::to_owned)
        .collect()
}

/// The version ranges a line names: "versions N to M", "versions N and M",
/// "versions N-M", as written, with their last version.
fn version_ranges(line: &str) -> Vec<(String, u32)> {
    let mut found = Vec::new();
    // Whatever the case ("Versions 5 to 9" in a heading): ASCII lower case keeps the
    // byte offsets.
    let line = line.to_ascii_lowercase();
    for (at, _) in line.match_indices("versions ") {
        let rest = &line[at + "versions ".len()..];
        let first: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if first.is_empty() {
            continue;
        }
        let after = &rest[first.len()..];
        let sep = [" to ", " and ", "-"]
            .into_iter()
            .find(|s| after.starts_with(s));
        let Some(sep) = sep else { continue };
        let last: String = after[sep.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(n) = last.parse() {
            found.push((format!("versions {first}{sep}{last}"), n));
        }
    }
    found
}

#[test]
fn docs_name_no_stale_version_range() {
    let current = terravox_worldgen::GENERATOR_VERSION;
    let mut files = sources();
    files.push(PathBuf::from("docs/design.md"));
    let mut stale = Vec::new();
    for f in &files {
        let name = f.to_string_lossy().replace('\\', "/");
        for line in doc_lines(f) {
            for (range, last) in version_ranges(&line) {
                let historical = HISTORICAL.contains(&(name.as_str(), range.as_str()));
                if last != current && !historical {
                    stale.push(format!("{name}: `{range}` in: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "version ranges that end before version {current} (say `version N on`, or \
         list a range that describes the past in HISTORICAL):\n{}",
        stale.join("\n")
    );
}

/// Whether the sources define a type named `name` (struct, enum, trait, type alias).
fn defines_type(texts: &[String], name: &str) -> bool {
    ["struct ", "enum ", "trait ", "type "].iter().any(|k| {
        let decl = format!("{k}{name}");
        texts.iter().any(|t| {
            t.match_indices(&decl).any(|(i, _)| {
                let next = t[i + decl.len()..].chars().next();
                next.is_none_or(|c| !c.is_alphanumeric() && c != '_')
            })
        })
    })
}

/// The spans of the sources that belong to type `ty`: the bodies of its `struct` or
/// `enum` and of every `impl` block for it (`impl Ty`, `impl<T> Ty<T>`,
/// `impl Trait for Ty`), braces matched (those in strings and comments aside, which
/// the sources keep balanced).
fn bodies_of(texts: &[String], ty: &str) -> Vec<String> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for t in texts {
        for (i, _) in t.match_indices(ty) {
            let before = t[..i].chars().next_back();
            let after = t[i + ty.len()..].chars().next();
            if before.is_some_and(is_word) || after.is_some_and(is_word) {
                continue;
            }
            // The declaration's start: the line holding it, or the `impl` line.
            let line_start = t[..i].rfind('\n').map_or(0, |n| n + 1);
            let head = t[line_start..i]
                .trim_start()
                .trim_start_matches("pub(crate) ");
            let head = head.trim_start_matches("pub ");
            let declares = ["struct ", "enum "].contains(&head)
                || (head.starts_with("impl")
                    && (head == "impl " || head.ends_with(" for ") || head.starts_with("impl<")));
            if !declares {
                continue;
            }
            let Some(open) = t[i..].find(['{', ';']).map(|o| i + o) else {
                continue;
            };
            if t.as_bytes()[open] == b';' {
                continue;
            }
            let mut depth = 0usize;
            for (j, c) in t[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            out.push(t[open..open + j].to_owned());
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Whether the sources define a member named `name`: a function, a constant, an
/// enum variant or a field (a line that starts with it).
fn defines_member(texts: &[String], name: &str) -> bool {
    let word_ends = |t: &str, i: usize| {
        t[i..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_')
    };
    texts.iter().any(|t| {
        [format!("fn {name}"), format!("const {name}")]
            .iter()
            .any(|d| {
                t.match_indices(d.as_str())
                    .any(|(i, _)| word_ends(t, i + d.len()))
            })
            || t.lines().any(|l| {
                let l = l.trim_start().trim_start_matches("pub ");
                l.starts_with(name) && word_ends(l, name.len())
            })
    })
}

/// The `Type::member` pairs a Markdown text names: in backticks, and anywhere in its
/// fenced diagrams.
fn paths_named(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut pair = |path: &str| {
        let parts: Vec<&str> = path.trim_end_matches(':').split("::").collect();
        if let [ty, member] = parts[..]
            && ty.starts_with(|c: char| c.is_ascii_uppercase())
            && !member.is_empty()
        {
            found.push((ty.to_owned(), member.to_owned()));
        }
    };
    let not_path = |c: char| !(c.is_alphanumeric() || c == '_' || c == ':');
    let (mut prose, mut fenced) = (String::new(), false);
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            line.split(not_path).for_each(&mut pair);
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    for span in prose.split('`').skip(1).step_by(2) {
        if let Some(path) = span.split(not_path).next() {
            pair(path);
        }
    }
    found
}

#[test]
fn the_design_names_only_members_that_exist() {
    let texts: Vec<String> = sources()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let design = std::fs::read_to_string("docs/design.md").unwrap();
    let mut checked = 0;
    let mut missing = Vec::new();
    for (ty, member) in paths_named(&design) {
        // Names of other crates' types (Bevy's, the standard library's) are theirs
        // to keep.
        if !defines_type(&texts, &ty) {
            continue;
        }
        checked += 1;
        // The member of that type: in its body or one of its `impl` blocks.
        if !defines_member(&bodies_of(&texts, &ty), &member) {
            missing.push(format!("{ty}::{member}"));
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "docs/design.md names what the code no longer has: {missing:?}"
    );
    assert!(
        checked > 30,
        "only {checked} names checked: the scan lost its way"
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    assert_eq!(
        version_ranges("water (versions 5-8's water) and versions 6 to 9, versions 2"),
        vec![
            ("versions 5-8".to_owned(), 8),
            ("versions 6 to 9".to_owned(), 9)
        ]
    );
    assert_eq!(
        paths_named("see `Generator::spawn` and `Laying::Straight`'s `x`"),
        vec![
            ("Generator".to_owned(), "spawn".to_owned()),
            ("Laying".to_owned(), "Straight".to_owned())
        ]
    );
    assert_eq!(
        paths_named("# Versions\n```text\nlay WorldAuthority::for_chunk(pos) ─▶ `A::b`\n```\n"),
        vec![
            ("WorldAuthority".to_owned(), "for_chunk".to_owned()),
            ("A".to_owned(), "b".to_owned())
        ]
    );
    assert_eq!(version_ranges("### Versions 5 to 8: water")[0].1, 8);
    let code = vec![
        "pub enum Laying {\n    Straight,\n}\nimpl G { pub fn spawn() {} }\n\
         impl<T> Display for Laying<T> { fn fmt() {} }\nstruct Other { spawn: u8 }"
            .to_owned(),
    ];
    assert!(defines_type(&code, "Laying") && !defines_type(&code, "Lay"));
    assert!(defines_member(&code, "Straight") && defines_member(&code, "spawn"));
    assert!(!defines_member(&code, "winding") && !defines_member(&code, "spaw"));
    // A member of that type, not of any other.
    let laying = bodies_of(&code, "Laying");
    assert!(defines_member(&laying, "Straight") && defines_member(&laying, "fmt"));
    assert!(!defines_member(&laying, "spawn"));
    assert!(defines_member(&bodies_of(&code, "G"), "spawn"));
}
