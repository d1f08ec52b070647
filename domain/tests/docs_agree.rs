//! The documentation agrees with the binary (issue 26 item 17): every rules version a document
//! names (`coalition-campaign@3`) exists in the registry, each ruleset's page opens with the
//! version the registry writes into events, and sample outputs show it too; and no document
//! holds a developer's absolute path (`/work/…`, `/home/…`, `/tmp/…`): walk-throughs run from
//! the repository's root with relative paths.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use herald_domain::registry;

/// The repository's root (this crate is `domain/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// README.md, ARCHITECTURE.md and every text file under docs/, with their text.
fn documents() -> Vec<(String, String)> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut folders = vec![root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?; // binary files (images) are not prose
            Some((path.strip_prefix(&root).unwrap().display().to_string(), text))
        })
        .collect()
}

/// The registered rules names with their current version (`warmachine` → 2).
fn current() -> BTreeMap<String, u32> {
    registry::all()
        .map(|ruleset| {
            let (name, version) = ruleset.rules().split_once('@').unwrap();
            (name.to_string(), version.parse().unwrap())
        })
        .collect()
}

/// Every `name@N` in `text` for a registered `name`, in order, with its line number.
fn mentions(text: &str, names: &BTreeMap<String, u32>) -> Vec<(usize, String, u32)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        for name in names.keys() {
            let needle = format!("{name}@");
            let mut from = 0;
            while let Some(at) = line[from..].find(&needle) {
                let start = from + at;
                let before = line[..start].chars().next_back();
                let digits: String = line[start + needle.len()..].chars().take_while(char::is_ascii_digit).collect();
                from = start + needle.len();
                // `coalition-campaign@3` is not a mention of a ruleset named `campaign`.
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') || digits.is_empty() {
                    continue;
                }
                found.push((number + 1, name.clone(), digits.parse().unwrap()));
            }
        }
    }
    found
}

#[test]
fn no_document_names_a_rules_version_the_registry_does_not_have() {
    let names = current();
    let mut checked = 0;
    for (path, text) in documents() {
        for (line, name, version) in mentions(&text, &names) {
            checked += 1;
            assert!(
                version >= 1 && version <= names[&name],
                "{path}:{line}: `{name}@{version}` is not a rules version"
            );
        }
    }
    assert!(checked > 10, "the documents name rules versions: {checked}");
}

#[test]
fn each_rulesets_page_states_the_current_rules_version_first_and_in_its_sample_outputs() {
    let names = current();
    for (name, version) in &names {
        let path = format!("docs/rulesets/{name}.md");
        let text = std::fs::read_to_string(root().join(&path)).unwrap_or_else(|_| panic!("{path}: no page"));
        let own: Vec<(usize, String, u32)> =
            mentions(&text, &names).into_iter().filter(|(_, n, _)| n == name).collect();
        let (line, _, first) = own.first().unwrap_or_else(|| panic!("{path} never names `{name}@{version}`"));
        assert_eq!(
            first, version,
            "{path}:{line}: the page's rules version is `{name}@{first}`, the registry's `{name}@{version}`"
        );
        // What a run prints (a verification's `"rules"`) is what the binary writes today.
        for (number, line) in text.lines().enumerate() {
            if line.contains("\"rules\"") || line.contains("verified ") {
                for (_, n, v) in mentions(line, &names).into_iter().filter(|(_, n, _)| n == name) {
                    assert_eq!(v, *version, "{path}:{}: a sample output says `{n}@{v}`", number + 1);
                }
            }
        }
    }
}

#[test]
fn no_document_holds_an_absolute_path_of_a_developers_machine() {
    // Routes (`/v1/…`) and a script's `#!/usr/bin/env` are fine; a path into someone's
    // worktree, home or temporary folder is not.
    let forbidden = ["/work/", "/home/", "/tmp/", "/root/", "/Users/", "/mnt/", "file://"];
    let documents = documents();
    assert!(documents.len() > 8, "README, ARCHITECTURE and docs/: {}", documents.len());
    for (path, text) in documents {
        for (number, line) in text.lines().enumerate() {
            for bad in forbidden {
                let hit = line.match_indices(bad).any(|(at, _)| {
                    // `/work/` inside a word or a relative path (`docs/work/`) is not absolute.
                    !line[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || "._-~/".contains(c))
                });
                assert!(!hit, "{path}:{}: an absolute path `{bad}…`: {line}", number + 1);
            }
        }
    }
}

#[test]
fn the_checks_see_what_they_look_for() {
    let names = current();
    assert_eq!(
        mentions("rules `coalition-campaign@2` and `coalition-battle@1`, not x-warmachine@9", &names),
        vec![(1, "coalition-battle".to_string(), 1), (1, "coalition-campaign".to_string(), 2)]
    );
    assert!(names.contains_key("coalition-campaign") && names.len() >= 6);
}
