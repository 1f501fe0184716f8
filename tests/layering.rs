//! The architecture's rules, checked on the source: no two modules of a crate import
//! each other, directly or round a circle (a module is a file; `crate::a::b` and
//! `super::x` paths are its imports; a module using its own ancestors does not
//! count), and the pure crates never depend on Bevy or on a crate above them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src` is: `a::b` for `a/b.rs` or `a/b/mod.rs`; the crate
/// root (`lib.rs`, `main.rs`) is the empty path.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts.join("::")
}

/// The paths after `prefix` (`crate::` or `super::`) in `text`, as lists of names.
fn paths_after<'a>(text: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut names = Vec::new();
        let mut s = rest;
        loop {
            let end = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            if end == 0 {
                break;
            }
            names.push(&s[..end]);
            if s[end..].starts_with("::") {
                s = &s[end + 2..];
            } else {
                break;
            }
        }
        if !names.is_empty() {
            out.push(names);
        }
    }
    out
}

/// The longest prefix of `parts` that is a module of `modules`.
fn resolve(parts: &[&str], modules: &BTreeSet<String>) -> Option<String> {
    (1..=parts.len())
        .rev()
        .map(|k| parts[..k].join("::"))
        .find(|m| modules.contains(m))
}

/// Each module of the crate in `src` and the other modules it imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|f| (module_of(src, f), fs::read_to_string(f).unwrap()))
        .collect();
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (m, text) in &texts {
        let own: Vec<&str> = if m.is_empty() {
            Vec::new()
        } else {
            m.split("::").collect()
        };
        let mut to = BTreeSet::new();
        for parts in paths_after(text, "crate::") {
            to.extend(resolve(&parts, &modules));
        }
        for parts in paths_after(text, "super::") {
            let base = &own[..own.len().saturating_sub(1)];
            let full: Vec<&str> = base.iter().copied().chain(parts).collect();
            to.extend(resolve(&full, &modules));
        }
        // A module using itself or its own ancestors is not an edge.
        to.retain(|t| t != m && !(t.is_empty() || m.starts_with(&format!("{t}::"))));
        graph.insert(m.clone(), to);
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The source folders of every crate of the workspace.
fn crate_sources() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    dirs.push(root().join("src"));
    dirs.sort();
    dirs
}

#[test]
fn no_crate_has_a_cycle_between_modules() {
    let mut found = Vec::new();
    for src in crate_sources() {
        for comp in cycles(&imports(&src)) {
            found.push(format!("{}: {}", src.display(), comp.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The checker finds a cycle when there is one, and ignores a module using its
/// ancestors.
#[test]
fn the_cycle_check_sees_cycles() {
    let dir = std::env::temp_dir().join(format!("terravox-layering-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("lib.rs"), "mod a; mod b; mod c;").unwrap();
    fs::write(dir.join("a/mod.rs"), "mod inner; use crate::b::Thing;").unwrap();
    // Its ancestors (super, crate::a) are not edges; crate::b is.
    fs::write(
        dir.join("a/inner.rs"),
        "use super::Parent; use crate::a::X; use crate::b::Y;",
    )
    .unwrap();
    fs::write(dir.join("b.rs"), "use crate::c::f; // a comment").unwrap();
    fs::write(dir.join("c.rs"), "fn g() { crate::a::inner::h() }").unwrap();
    let found = cycles(&imports(&dir));
    assert_eq!(found, [vec!["a::inner", "b", "c"]]);
    fs::write(dir.join("c.rs"), "fn g() {}").unwrap();
    assert!(cycles(&imports(&dir)).is_empty());
    let _ = fs::remove_dir_all(&dir);
}

/// The `[dependencies]` section of a crate's manifest.
fn dependencies(krate: &str) -> String {
    let text = fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml")).unwrap();
    let start = text.find("[dependencies]").map_or(text.len(), |i| i + 14);
    let rest = &text[start..];
    rest[..rest.find("\n[").unwrap_or(rest.len())].to_owned()
}

#[test]
fn pure_crates_never_depend_on_bevy_or_a_crate_above_them() {
    // Lowest first; each may use only those before it.
    let order = ["voxel", "worldgen", "mesher", "edits"];
    for (i, krate) in order.iter().enumerate() {
        let deps = dependencies(krate);
        for banned in ["bevy", "wgpu", "terravox-game"] {
            assert!(!deps.contains(banned), "{krate} depends on {banned}");
        }
        for above in &order[i + 1..] {
            assert!(
                !deps.contains(&format!("terravox-{above}")),
                "{krate} depends on {above}, above it"
            );
        }
    }
}
