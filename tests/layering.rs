//! The architecture's rules, checked on the source (std only, no build needed):
//!
//! - **No module cycles**, in any crate of the workspace. A module is a file
//!   (`a/b.rs` or `a/b/mod.rs` is `a::b`); its imports are the `crate::`, `self::`
//!   and `super::` paths it writes, in `use` trees (`use crate::{a, b::c}`) or in code,
//!   resolved to the longest module they name (comments, strings and `mod` items are
//!   not imports; `super::` inside an inline `mod tests { .. }` is the file itself).
//!   A folder stands for everything in it: for every module, its child modules form
//!   a graph where `a -> b` when any file under `a` imports any file under `b`, and
//!   no strongly connected component of that graph may hold two children. So a
//!   parent importing its own children is fine (they are inside it), a child
//!   importing its parent counts towards the folders above them (a file under
//!   `streaming/` importing `player` while `player` imports `streaming` is a cycle),
//!   and two siblings importing each other, directly or round a circle, are a cycle.
//!   A path through a re-export (`pub use kind::SkyChoice` in `sky`, `pub use
//!   sky::SkyChoice` in the crate root) counts as an import of the module that
//!   defines the name, so a re-export cannot hide a cycle.
//! - **Crate roots are façades**: in a library crate no module imports a name through
//!   the crate root's re-exports, or a name the root itself defines; children name
//!   the module that defines a thing.
//! - **Layering of crates**: the pure crates (`voxel`, `worldgen`, `mesher`, `edits`,
//!   `authority`, `net`, `export`) never depend on Bevy (or its renderer), and no
//!   crate depends on a crate above it in `docs/design.md`'s order (voxel, worldgen,
//!   mesher, edits, authority, net, export, game).
//!
//! Runs with `cargo test --test layering` or, with no build of the workspace, from
//! the workspace root: `rustc --edition 2024 --test tests/layering.rs -o
//! /tmp/layering && /tmp/layering`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace root: the root package's folder, or (built by hand with `rustc`)
/// the current directory.
fn root() -> PathBuf {
    option_env!("CARGO_MANIFEST_DIR").map_or_else(
        || std::env::current_dir().expect("a current directory"),
        PathBuf::from,
    )
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

/// A module path: `["a", "b"]` for `a::b`, empty for the crate root.
type Module = Vec<String>;

/// The module `a::b` a file under `src` is (`a/b.rs` or `a/b/mod.rs`); the crate root
/// (`lib.rs`, `main.rs`) is the empty path.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// How a module is written in messages.
fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// `text` with comments, string literals and character literals blanked out (each of
/// their characters a space, lines kept), so only code is left to read.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, s: &[char]| {
        out.extend(s.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < c.len() {
        let rest = &c[i..];
        let ident_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        if rest.starts_with(&['/', '/']) {
            let end = rest.iter().position(|&ch| ch == '\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(&['/', '*']) {
            // Block comments nest.
            let (mut depth, mut k) = (0, 0);
            while k < rest.len() {
                if rest[k..].starts_with(&['/', '*']) {
                    depth += 1;
                    k += 2;
                } else if rest[k..].starts_with(&['*', '/']) {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            blank(&mut out, &rest[..k]);
            i += k;
        } else if !ident_before
            && (rest.starts_with(&['r', '#'])
                || rest.starts_with(&['r', '"'])
                || rest.starts_with(&['b', 'r']))
            && {
                let k = if rest[0] == 'b' { 2 } else { 1 };
                let hashes = rest[k..].iter().take_while(|&&ch| ch == '#').count();
                rest.get(k + hashes) == Some(&'"')
            }
        {
            // Raw strings: r"..", r#".."#, br#".."#.
            let k = if rest[0] == 'b' { 2 } else { 1 };
            let hashes = rest[k..].iter().take_while(|&&ch| ch == '#').count();
            let body = k + hashes + 1;
            let mut end = body;
            while end < rest.len()
                && !(rest[end] == '"'
                    && rest[end + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&ch| ch == '#')
                        .count()
                        == hashes)
            {
                end += 1;
            }
            let end = (end + 1 + hashes).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == '"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != '"' {
                k += if rest[k] == '\\' { 2 } else { 1 };
            }
            let end = (k + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == '\'' && rest.get(1) == Some(&'\\') {
            // An escaped character: '\n', '\'', '\u{..}'.
            let k = 2 + rest[2..].iter().position(|&ch| ch == '\'').unwrap_or(0);
            blank(&mut out, &rest[..=k.min(rest.len() - 1)]);
            i += k + 1;
        } else if rest[0] == '\'' && rest.get(2) == Some(&'\'') {
            // A character ('{'); a lifetime ('a) has no closing quote.
            blank(&mut out, &rest[..3]);
            i += 3;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    out
}

/// A token of code: an identifier (keywords included), `::`, or one other character.
fn tokens(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(ch) = rest.chars().next() {
        if ch.is_whitespace() {
            rest = &rest[ch.len_utf8()..];
        } else if ch.is_alphanumeric() || ch == '_' {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            out.push(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with("::") {
            out.push("::");
            rest = &rest[2..];
        } else {
            out.push(&rest[..ch.len_utf8()]);
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}

/// Whether `t` is an identifier.
fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The paths of the path or `use` tree at `tokens[i..]`, each after `prefix`: `a::b`
/// gives `prefix::a::b`, `a::{b, c::*}` gives `prefix::a::b` and `prefix::a::c`.
/// Returns them and the index after the tree.
fn tree(tokens: &[&str], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(i).copied() {
            Some("{") => {
                i += 1;
                while let Some(&t) = tokens.get(i) {
                    match t {
                        "}" => return i + 1,
                        "," => i += 1,
                        _ => i = tree(tokens, i, &path, out),
                    }
                }
                return i;
            }
            Some(t) if is_ident(t) => {
                path.push(t.to_owned());
                i += 1;
                if tokens.get(i) == Some(&"::") {
                    i += 1;
                    continue;
                }
                out.push(path);
                return i;
            }
            // `*`, or the end of a path (`crate::a::` at the end of a macro).
            _ => {
                out.push(path);
                return i.max(1);
            }
        }
    }
}

/// The paths a file imports, as written from `module` (the file's module): each is
/// absolute (from the crate root), with `self` and `super` resolved.
fn imported_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let code = code_only(text);
    let t = tokens(&code);
    let mut out = Vec::new();
    // Inline modules (`mod tests { .. }`) open: their names and the brace depth inside.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last().is_some_and(|&(_, d)| d > depth) {
                    inline.pop();
                }
            }
            "mod" if t.get(i + 2) == Some(&"{") && t.get(i + 1).is_some_and(|n| is_ident(n)) => {
                inline.push((t[i + 1].to_owned(), depth + 1));
            }
            "crate" | "self" | "super"
                if t.get(i + 1) == Some(&"::") && (i == 0 || t[i - 1] != "::") =>
            {
                // Where the path starts: the crate root, or this (inline) module or
                // one of its ancestors.
                let mut here: Vec<String> = module.to_vec();
                here.extend(inline.iter().map(|(n, _)| n.clone()));
                let mut base = if t[i] == "crate" { Vec::new() } else { here };
                let mut k = i;
                if t[k] == "super" || t[k] == "self" {
                    while t.get(k) == Some(&"super") || t.get(k) == Some(&"self") {
                        if t[k] == "super" {
                            base.pop();
                        }
                        if t.get(k + 1) != Some(&"::") {
                            break;
                        }
                        k += 2;
                    }
                } else {
                    k += 2;
                }
                let mut paths = Vec::new();
                let end = tree(&t, k, &base, &mut paths);
                // `use crate::a::{self, b}`: `self` is `a`.
                for p in &mut paths {
                    p.retain(|s| s != "self");
                }
                out.extend(paths);
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Every module (file) of the crate in `src` and its text.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .iter()
        .map(|f| (module_of(src, f), fs::read_to_string(f).unwrap()))
        .collect()
}

/// The longest module of `texts` that `path` starts with (the crate root if none).
fn longest_module(texts: &BTreeMap<Module, String>, path: &[String]) -> Module {
    (0..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|p| texts.contains_key(p))
        .unwrap_or_default()
}

/// The re-exports of the crate: `(module, name)` to the absolute path the module's
/// `pub use` (any `pub(..)` too) names by `name`. Paths may start with `crate`,
/// `self`, `super` or a child module (`pub use kind::SkyChoice;`, `pub use {a::X,
/// b::Y};`); those naming other crates are left out.
fn reexports(texts: &BTreeMap<Module, String>) -> BTreeMap<(Module, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for (m, text) in texts {
        let code = code_only(text);
        let t = tokens(&code);
        for i in 0..t.len() {
            if t[i] != "use" {
                continue;
            }
            let public = i >= 1 && t[i - 1] == "pub"
                || i >= 4 && t[i - 1] == ")" && t[i - 3] == "(" && t[i - 4] == "pub";
            if !public {
                continue;
            }
            let mut k = i + 1;
            let mut base = m.clone();
            // `crate::`, `self::` or `super::`: surely this crate.
            let explicit = matches!(t.get(k), Some(&"crate") | Some(&"self") | Some(&"super"));
            if t.get(k) == Some(&"crate") {
                base.clear();
                k += 2;
            }
            while matches!(t.get(k), Some(&"self") | Some(&"super")) {
                if t[k] == "super" {
                    base.pop();
                }
                k += 2;
            }
            let mut paths = Vec::new();
            tree(&t, k, &base, &mut paths);
            for path in paths {
                // Relative paths into this crate start with a child module of `base`.
                if path.len() > base.len()
                    && (explicit || longest_module(texts, &path).len() > base.len())
                {
                    let name = path.last().unwrap().clone();
                    out.insert((m.clone(), name), path);
                }
            }
        }
    }
    out
}

/// `path` with every re-export on it followed to the module that defines the name.
fn resolve(
    texts: &BTreeMap<Module, String>,
    re: &BTreeMap<(Module, String), Vec<String>>,
    mut path: Vec<String>,
) -> Vec<String> {
    for _ in 0..32 {
        let module = longest_module(texts, &path);
        let Some(name) = path.get(module.len()) else {
            break;
        };
        match re.get(&(module.clone(), name.clone())) {
            Some(to) if *to != path[..=module.len()] => {
                let mut next = to.clone();
                next.extend_from_slice(&path[module.len() + 1..]);
                path = next;
            }
            _ => break,
        }
    }
    path
}

/// Each module (file) of the crate in `src` and the modules it imports, re-exports
/// followed to the modules that define the names.
fn imports(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let texts = modules(src);
    let re = reexports(&texts);
    let mut graph = BTreeMap::new();
    for (m, text) in &texts {
        let mut to = BTreeSet::new();
        for path in imported_paths(m, text) {
            let target = longest_module(&texts, &resolve(&texts, &re, path));
            if &target != m {
                to.insert(target);
            }
        }
        graph.insert(m.clone(), to);
    }
    graph
}

/// In a library crate: the imports that go through the crate root (a name it
/// re-exports, or one it defines), each `module -> crate::path`.
fn through_the_root(src: &Path) -> Vec<String> {
    let texts = modules(src);
    let re = reexports(&texts);
    let mut found = Vec::new();
    for (m, text) in texts.iter().filter(|(m, _)| !m.is_empty()) {
        for path in imported_paths(m, text) {
            if longest_module(&texts, &path).is_empty() && !path.is_empty() {
                let resolved = resolve(&texts, &re, path.clone());
                let why = if resolved == path {
                    "defined in the root"
                } else {
                    "a root re-export"
                };
                found.push(format!("{} -> crate::{} ({why})", name(m), path.join("::")));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The strongly connected components of more than one node of `graph` (Tarjan).
fn components(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
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

/// The cycles of the crate in `src`: for every module with children, the components
/// of two or more of its children (a child standing for all the files under it),
/// each written `a <-> b (file -> file, ..)` with the imports that make it.
fn cycles(src: &Path) -> Vec<String> {
    // Per parent module: its children's graph, and the file imports behind each edge.
    type Level = (
        BTreeMap<String, BTreeSet<String>>,
        BTreeSet<(String, String)>,
    );
    let mut levels: BTreeMap<Module, Level> = BTreeMap::new();
    for (from, targets) in imports(src) {
        for to in targets {
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                // One is inside the other: a parent and its descendant.
                continue;
            }
            let (a, b) = (from[common].clone(), to[common].clone());
            let level = levels.entry(from[..common].to_vec()).or_default();
            level.0.entry(a.clone()).or_default().insert(b.clone());
            level.0.entry(b).or_default();
            level.1.insert((name(&from), name(&to)));
        }
    }
    let mut found = Vec::new();
    for (parent, (graph, edges)) in &levels {
        let prefix = if parent.is_empty() {
            String::new()
        } else {
            format!("{}::", name(parent))
        };
        for comp in components(graph) {
            // The child of the component a module lies under, if any.
            let child = |m: &str| {
                comp.iter().position(|c| {
                    let full = format!("{prefix}{c}");
                    m == full || m.starts_with(&format!("{full}::"))
                })
            };
            let why: Vec<String> = edges
                .iter()
                .filter(|(f, t)| child(f).is_some() && child(t).is_some() && child(f) != child(t))
                .map(|(f, t)| format!("{f} -> {t}"))
                .collect();
            let members: Vec<String> = comp.iter().map(|c| format!("{prefix}{c}")).collect();
            found.push(format!("{} ({})", members.join(" <-> "), why.join(", ")));
        }
    }
    found
}

/// The source folders of every crate of the workspace, the root package's last.
fn crate_sources() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.push(root().join("src"));
    dirs
}

#[test]
fn no_crate_has_a_cycle_between_modules() {
    let mut found = Vec::new();
    for src in crate_sources() {
        let rel = src
            .strip_prefix(root())
            .unwrap_or(&src)
            .display()
            .to_string();
        found.extend(cycles(&src).into_iter().map(|c| format!("{rel}: {c}")));
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn library_roots_are_facades() {
    let mut found = Vec::new();
    for src in crate_sources() {
        if !src.join("lib.rs").exists() {
            continue;
        }
        let rel = src
            .strip_prefix(root())
            .unwrap_or(&src)
            .display()
            .to_string();
        found.extend(
            through_the_root(&src)
                .into_iter()
                .map(|c| format!("{rel}: {c}")),
        );
    }
    assert!(
        found.is_empty(),
        "imports through a crate root (name the module that defines the thing):\n{}",
        found.join("\n")
    );
}

/// Writes the files `files` (path, text) into a fresh scratch crate's `src` folder.
fn scratch(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("terravox-layering-{}-{tag}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

/// The checker finds the cycles there are, and only those.
#[test]
fn the_cycle_check_sees_cycles() {
    // Siblings round a circle, through a use tree, a path in code and a `super::`
    // path from a child: a -> b -> c -> a.
    let dir = scratch(
        "circle",
        &[
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a/mod.rs", "mod inner; use crate::{b::Thing, a::inner::X};"),
            ("a/inner.rs", "use super::Parent; pub struct X;"),
            ("b.rs", "pub struct Thing; fn f() { crate::c::g() }"),
            ("c.rs", "use super::a::inner::X;"),
        ],
    );
    assert_eq!(
        cycles(&dir),
        ["a <-> b <-> c (a -> b, b -> c, c -> a::inner)"]
    );
    let _ = fs::remove_dir_all(&dir);

    // A folder stands for its files: a file under `s/` importing `p`, which imports
    // `s`, is a cycle; a parent and its children importing each other is not.
    let dir = scratch(
        "folders",
        &[
            ("lib.rs", "mod p; mod s; pub struct Root; use s::Chunks;"),
            ("p.rs", "use crate::s::Chunks; use crate::Root;"),
            (
                "s/mod.rs",
                "mod culling; use culling::cull; pub struct Chunks;",
            ),
            ("s/culling.rs", "use super::Chunks; use crate::p::Player;"),
        ],
    );
    assert_eq!(cycles(&dir), ["p <-> s (p -> s, s::culling -> p)"]);
    fs::write(dir.join("s/culling.rs"), "use super::Chunks;").unwrap();
    assert!(cycles(&dir).is_empty());
    let _ = fs::remove_dir_all(&dir);

    // Cycles deeper down are reported at their folder; comments, strings, `super::`
    // inside an inline test module and modules merely declared are not imports.
    let dir = scratch(
        "deep",
        &[
            ("lib.rs", "pub mod g; mod h;"),
            (
                "h.rs",
                "// use crate::g::x;\nconst S: &str = \"crate::g::y\"; const R: &str = r#\"crate::g\"#;",
            ),
            (
                "g/mod.rs",
                "mod x; mod y; #[cfg(test)] mod tests { use super::x::A; }",
            ),
            (
                "g/x.rs",
                "pub struct A; use super::y::B; /* crate::h */ const C: char = '{';",
            ),
            (
                "g/y.rs",
                "pub struct B; #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::x::A;\n}",
            ),
        ],
    );
    assert_eq!(cycles(&dir), ["g::x <-> g::y (g::x -> g::y, g::y -> g::x)"]);
    fs::write(
        dir.join("g/y.rs"),
        "pub struct B; #[cfg(test)]\nmod tests {\n    use super::*;\n    fn t() { let _ = '}'; }\n}\nfn u() { let _: &'static str = \"\"; }",
    )
    .unwrap();
    assert!(cycles(&dir).is_empty(), "{:?}", cycles(&dir));
    let _ = fs::remove_dir_all(&dir);
}

/// Re-exports do not hide a cycle: `config` naming `crate::SkyChoice`, which the
/// root re-exports from `sky::kind` (through `sky`'s own re-export), while
/// `sky::clock` imports `config`, is the cycle config <-> sky.
#[test]
fn the_cycle_check_follows_reexports() {
    let files = [
        ("lib.rs", "mod config; mod sky; pub use sky::SkyChoice;"),
        (
            "config.rs",
            "pub struct PlayOptions { sky: crate::SkyChoice }",
        ),
        (
            "sky/mod.rs",
            "mod clock; mod kind; pub use kind::SkyChoice;",
        ),
        ("sky/kind.rs", "pub enum SkyChoice { Auto }"),
        ("sky/clock.rs", "use crate::config::PlayOptions;"),
    ];
    let dir = scratch("reexports", &files);
    assert_eq!(
        cycles(&dir),
        ["config <-> sky (config -> sky::kind, sky::clock -> config)"]
    );
    assert_eq!(
        through_the_root(&dir),
        ["config -> crate::SkyChoice (a root re-export)"]
    );
    // The fix: the choice lives with the options, and sky names where it is defined.
    fs::write(
        dir.join("config.rs"),
        "pub struct PlayOptions { sky: SkyChoice } pub enum SkyChoice { Auto }",
    )
    .unwrap();
    fs::write(dir.join("sky/mod.rs"), "mod clock; mod kind;").unwrap();
    fs::write(dir.join("sky/kind.rs"), "use crate::config::SkyChoice;").unwrap();
    fs::write(
        dir.join("lib.rs"),
        "mod config; mod sky; pub use config::SkyChoice;",
    )
    .unwrap();
    assert!(cycles(&dir).is_empty(), "{:?}", cycles(&dir));
    assert!(
        through_the_root(&dir).is_empty(),
        "{:?}",
        through_the_root(&dir)
    );
    // A name the root defines is an arrow back up into it.
    fs::write(
        dir.join("lib.rs"),
        "mod config; mod sky; pub struct Generator;",
    )
    .unwrap();
    fs::write(dir.join("sky/kind.rs"), "use crate::Generator;").unwrap();
    assert_eq!(
        through_the_root(&dir),
        ["sky::kind -> crate::Generator (defined in the root)"]
    );
    let _ = fs::remove_dir_all(&dir);
}

/// The names of the crates a manifest depends on, in any dependencies section
/// (`[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, per target, and
/// `[dependencies.name]` tables).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']').trim();
            let parts: Vec<&str> = header.split('.').collect();
            match parts.iter().position(|p| p.ends_with("dependencies")) {
                Some(i) if i + 1 < parts.len() => {
                    out.insert(parts[i + 1].trim_matches('"').to_owned());
                    in_deps = false;
                }
                Some(_) => in_deps = true,
                None => in_deps = false,
            }
        } else if in_deps
            && !line.starts_with('#')
            && let Some(key) = line.split(['=', '.']).next().map(str::trim)
            && !key.is_empty()
        {
            out.insert(key.trim_matches('"').to_owned());
        }
    }
    out
}

#[test]
fn reading_dependencies_sees_every_section() {
    let deps = dependencies(
        "[package]\nname = \"x\"\n[dependencies]\nserde.workspace = true\n# bevy = 1\n\
         [dev-dependencies]\n\"proptest\" = \"1\"\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n\
         [dependencies.bevy]\nversion = \"0.19\"\n[features]\nbevy_thing = []\n",
    );
    let want: BTreeSet<String> = ["bevy", "libc", "proptest", "serde"]
        .map(String::from)
        .into();
    assert_eq!(deps, want);
}

#[test]
fn pure_crates_never_depend_on_bevy_or_a_crate_above_them() {
    // Lowest first, as in docs/design.md; each may use only those before it.
    let order = [
        "voxel",
        "worldgen",
        "mesher",
        "edits",
        "authority",
        "net",
        "export",
        "game",
    ];
    let pure = [
        "voxel",
        "worldgen",
        "mesher",
        "edits",
        "authority",
        "net",
        "export",
    ];
    for (i, krate) in order.iter().enumerate() {
        let manifest = root().join("crates").join(krate).join("Cargo.toml");
        let deps = dependencies(&fs::read_to_string(&manifest).unwrap());
        if pure.contains(krate) {
            for dep in &deps {
                assert!(
                    !(dep.starts_with("bevy") || dep == "wgpu" || dep.starts_with("winit")),
                    "{krate} is pure but depends on {dep}"
                );
            }
        }
        for above in order[i + 1..].iter().map(|c| format!("terravox-{c}")) {
            assert!(
                !deps.contains(&above),
                "{krate} depends on {above}, above it"
            );
        }
        assert!(
            !deps.contains("terravox"),
            "{krate} depends on the root package"
        );
    }
}
