//! The api crate in layers (ARCHITECTURE.md "The api crate's layers"): every file of `api/src`
//! sits in one named layer and imports only from its own layer or those below it, and no files
//! import each other in a circle. Read from the source text, as a reviewer would: `use` trees and
//! `crate::…`/`super::…` paths, test modules (`#[cfg(test)] mod …`) left out, since a test may
//! reach anywhere.
//!
//! A file this table does not place fails the check: put it in a layer when you add it.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// Bottom to top; a file belongs to the first layer with a matching prefix.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundations: problems, settings, metrics, caches, limits, archive, snapshots, the request-body check",
        &[
            "problem.rs",
            "config.rs",
            "metrics.rs",
            "views.rs",
            "limits.rs",
            "live.rs",
            "store.rs",
            "telemetry.rs",
            "archive.rs",
            "snapshots.rs",
            "unknown_fields.rs",
            "unknown_fields/document_walk.rs",
            "allocator.rs",
        ],
    ),
    (
        "service: commands, verification, tokens, scopes and actors (no HTTP types)",
        &[
            "app/",
            "auth/mod.rs",
            "auth/scope.rs",
            "auth/actors.rs",
            "webhooks/mod.rs",
            "webhooks/sign.rs",
            "webhooks/target.rs",
        ],
    ),
    ("state: what every handler runs in", &["state.rs"]),
    ("authentication: who is asking", &["auth/request.rs"]),
    ("routes: HTTP shapes only", &["routes/"]),
    ("the OpenAPI assembly", &["openapi/"]),
    ("HTTP conventions and middleware", &["http.rs"]),
    (
        "composition root: the route table, start-up, the command line",
        &["router.rs", "startup.rs", "cli/", "main.rs", "lib.rs", "webhooks/worker.rs"],
    ),
];

fn layer_of(file: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, prefixes)| prefixes.iter().any(|prefix| file.starts_with(prefix)))
}

fn source_files(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<PathBuf> =
        fs::read_dir(dir).expect("api/src is readable").map(|entry| entry.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            source_files(&path, root, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(root).expect("under api/src").to_string_lossy().replace('\\', "/");
            out.insert(relative, fs::read_to_string(&path).expect("source is text"));
        }
    }
}

/// The module path a file defines (`routes/battles.rs` → `["routes", "battles"]`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The text without comments, string literals and test modules.
fn code_of(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        if source[i..].starts_with("//") {
            i += source[i..].find('\n').unwrap_or(source.len() - i);
        } else if source[i..].starts_with("/*") {
            i += source[i..].find("*/").map_or(source.len() - i, |end| end + 2);
        } else if source[i..].starts_with("r#\"") || source[i..].starts_with("r\"") {
            let hashes = source[i + 1..].bytes().take_while(|&b| b == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            i = source[body..].find(&close).map_or(source.len(), |end| body + end + close.len());
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\'' && i + 2 < bytes.len() && (bytes[i + 2] == b'\'' || bytes[i + 1] == b'\\') {
            // A char literal ('"', '\'', '{'); lifetimes ('a) pass through.
            let end = source[i + 1..].find('\'').map_or(source.len(), |end| i + 1 + end + 1);
            i = if bytes[i + 1] == b'\\' {
                source[i + 3..].find('\'').map_or(source.len(), |e| i + 3 + e + 1)
            } else {
                end
            };
            out.push_str("' '");
        } else {
            let c = source[i..].chars().next().expect("a char");
            out.push(c);
            i += c.len_utf8();
        }
    }
    without_test_modules(&out)
}

fn without_test_modules(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(start) = code.find("#[cfg(test)]") {
        let Some(open) = code[start..].find('{').map(|at| start + at) else { break };
        let between = &code[start + "#[cfg(test)]".len()..open];
        if !between.trim_start().starts_with("mod ") {
            // A test-only item that is not a module: drop just the attribute.
            code.replace_range(start..start + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0usize;
        let mut end = code.len();
        for (at, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + at + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(start..end, "");
    }
    code
}

fn ident_end(text: &str, from: usize) -> usize {
    text[from..].find(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(text.len(), |end| from + end)
}

/// The paths a `use` tree names (`crate::{a::B, c::{D, E}}` → `crate::a::B`, `crate::c::D`, …).
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn parse(text: &str, mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let mut path = prefix.to_vec();
        loop {
            at += text[at..].len() - text[at..].trim_start().len();
            let rest = &text[at..];
            if rest.starts_with('{') {
                at += 1;
                loop {
                    at = parse(text, at, &path, out);
                    at += text[at..].len() - text[at..].trim_start().len();
                    match text[at..].chars().next() {
                        Some(',') => {
                            at += 1;
                            let after = text[at..].trim_start();
                            if after.starts_with('}') {
                                return at + (text[at..].len() - after.len()) + 1;
                            }
                        }
                        Some('}') => return at + 1,
                        _ => return text.len(),
                    }
                }
            }
            if rest.starts_with('*') {
                out.push(path);
                return at + 1;
            }
            let end = ident_end(text, at);
            if end == at {
                return at;
            }
            path.push(text[at..end].to_string());
            at = end;
            let after = text[at..].trim_start();
            if let Some(next) = after.strip_prefix("::") {
                at = text.len() - next.len();
                continue;
            }
            if let Some(alias) = after.strip_prefix("as ") {
                at = text.len() - alias.len();
                at = ident_end(text, at + (text[at..].len() - text[at..].trim_start().len()));
            }
            out.push(path);
            return at;
        }
    }
    let mut out = Vec::new();
    parse(tree, 0, &[], &mut out);
    out
}

/// Every `crate::`/`super::`/`self::` path the code names, in `use` trees or inline.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let tail = &rest[at + 4..];
        let Some(end) = tail.find(';') else { break };
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            paths.extend(use_paths(&tail[..end]));
        }
        rest = &tail[end..];
    }
    for root in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(root).map(|at| from + at) {
            let preceded = code[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            let mut path = vec![root.trim_end_matches(':').to_string()];
            let mut cursor = at + root.len();
            loop {
                let end = ident_end(code, cursor);
                if end == cursor {
                    break;
                }
                path.push(code[cursor..end].to_string());
                if code[end..].starts_with("::") {
                    cursor = end + 2;
                } else {
                    break;
                }
            }
            // A call (`super::viewer(…)`) names a function: the module is the path before it.
            let called = code[ident_end(code, cursor)..].trim_start().starts_with('(');
            if called {
                path.pop();
            }
            if !preceded && path.len() > 1 {
                paths.push(path);
            }
            from = at + root.len();
        }
    }
    paths
}

/// The file a path leads into: the deepest module the path names that has a file.
fn resolve(current: &[String], path: &[String], modules: &BTreeMap<Vec<String>, String>) -> Option<String> {
    let (mut base, mut rest): (Vec<String>, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super") => (current[..current.len().saturating_sub(1)].to_vec(), &path[1..]),
        Some("self") => (current.to_vec(), &path[1..]),
        _ => return None,
    };
    while rest.first().is_some_and(|part| part == "super") {
        base.pop();
        rest = &rest[1..];
    }
    (0..=rest.len()).rev().find_map(|take| {
        let mut candidate = base.clone();
        candidate.extend(rest[..take].iter().cloned());
        modules.get(&candidate).cloned()
    })
}

fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    source_files(&root, &root, &mut files);
    // `main.rs` is the binary's own crate: `crate::` in the library's files means `lib.rs`.
    let modules: BTreeMap<Vec<String>, String> =
        files.keys().filter(|file| *file != "main.rs").map(|file| (module_of(file), file.clone())).collect();
    files
        .iter()
        .map(|(file, source)| {
            let current = module_of(file);
            let targets = named_paths(&code_of(source))
                .iter()
                .filter_map(|path| resolve(&current, path, &modules))
                .filter(|target| target != file)
                .collect();
            (file.clone(), targets)
        })
        .collect()
}

/// Strongly connected groups of more than one file (Tarjan).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, node: &'a str) {
            let at = self.index.len();
            self.index.insert(node, at);
            self.low.insert(node, at);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    group.push(member.to_string());
                    if member == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found
}

#[test]
fn every_file_of_api_src_sits_in_a_layer() {
    let unplaced: Vec<String> = imports().into_keys().filter(|file| layer_of(file).is_none()).collect();
    assert!(unplaced.is_empty(), "put these files in a layer of tests/layers.rs and ARCHITECTURE.md: {unplaced:?}");
}

#[test]
fn every_file_imports_only_its_own_layer_and_those_below() {
    let mut upward = Vec::new();
    for (file, targets) in imports() {
        let Some(layer) = layer_of(&file) else { continue };
        for target in targets {
            if let Some(above) = layer_of(&target).filter(|&to| to > layer) {
                upward.push(format!("{file} ({}) imports {target} ({})", LAYERS[layer].0, LAYERS[above].0));
            }
        }
    }
    assert!(upward.is_empty(), "imports that run up a layer:\n{}", upward.join("\n"));
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let graph = imports();
    let found = circles(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|group| {
            let members: BTreeSet<&String> = group.iter().collect();
            let arrows: Vec<String> = group
                .iter()
                .flat_map(|file| {
                    graph[file]
                        .iter()
                        .filter(|target| members.contains(target))
                        .map(move |target| format!("{file} -> {target}"))
                })
                .collect();
            arrows.join(", ")
        })
        .collect();
    assert!(found.is_empty(), "import circles in api/src:\n{}", described.join("\n"));
}

#[test]
fn the_reader_sees_use_trees_inline_paths_and_skips_tests() {
    let code = code_of(
        "use crate::{a::B, c::{d::E, F}};\nfn f() { crate::g::h(); let s = \"crate::no\"; }\n#[cfg(test)]\nmod tests { use crate::t; }\n",
    );
    let paths: Vec<String> = named_paths(&code).iter().map(|path| path.join("::")).collect();
    // `crate::g::h()` is a call: it leads into the module `g`.
    assert_eq!(paths, ["crate::a::B", "crate::c::d::E", "crate::c::F", "crate::g"]);
    let graph = BTreeMap::from([
        ("a.rs".to_string(), BTreeSet::from(["b.rs".to_string()])),
        ("b.rs".to_string(), BTreeSet::from(["a.rs".to_string()])),
        ("c.rs".to_string(), BTreeSet::new()),
    ]);
    assert_eq!(circles(&graph), vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
}
