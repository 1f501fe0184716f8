//! Docs that stay true: a module doc or the design that names a generator version
//! range not ending at the current version (and not one of the historical ranges
//! listed here), or a `Type::member` of ours that no longer exists, fails here, so
//! the drift is caught in the change that makes it.

use std::path::{Path, PathBuf};

/// Version ranges that describe the past on purpose (what some versions did and
/// later ones do not): `(file, the range as written)`.
const HISTORICAL: [(&str, &str); 2] = [
    // Straight and winding steps: how versions 5 to 7 lay a river.
    (
        "crates/worldgen/src/hydrology/channel/segment.rs",
        "versions 5 to 7",
    ),
    (
        "crates/worldgen/src/hydrology/network.rs",
        "versions 6 and 7",
    ),
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

/// The `Type::member` pairs a Markdown text names in backticks.
fn paths_named(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for span in text.split('`').skip(1).step_by(2) {
        let head = span.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
        let Some(path) = head.into_iter().next() else {
            continue;
        };
        let parts: Vec<&str> = path.split("::").collect();
        if let [ty, member] = parts[..]
            && ty.starts_with(|c: char| c.is_ascii_uppercase())
            && !member.is_empty()
        {
            found.push((ty.to_owned(), member.to_owned()));
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
        if !defines_member(&texts, &member) {
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
    let code = vec!["pub enum Laying {\n    Straight,\n}\nimpl G { pub fn spawn() {} }".to_owned()];
    assert!(defines_type(&code, "Laying") && !defines_type(&code, "Lay"));
    assert!(defines_member(&code, "Straight") && defines_member(&code, "spawn"));
    assert!(!defines_member(&code, "winding") && !defines_member(&code, "spaw"));
}
