//! Every error code a ruleset can answer is in its document's error table (issue 26: clients rely
//! on the codes, and a refusal names its rule, so each code is listed with the rule it cites).
//!
//! The codes are read from the ruleset's source: the string literal a refusal helper
//! (`refuse`, `forbid`, `RuleError::new`, …) is given first, and every whole code literal
//! in the ruleset's namespaces (`"coalition.setup.base_count"`); a code is listed when the document has it in backticks,
//! whole or as its last part under the table's common prefix.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

/// The helpers whose first argument is an error code.
const HELPERS: [&str; 10] = [
    "refuse(",
    "forbid(",
    "forbidden(",
    "RuleError::new(",
    "RuleError::forbidden(",
    "fail(",
    "refusal(",
    "violation(",
    "Violation::new(",
    "Refusal::new(",
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

fn is_code_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.' || c == '-'
}

/// The string literal at the start of `text` (after blanks), if it looks like a code.
fn leading_code(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let text = text.strip_prefix("format!(").map_or(text, str::trim_start);
    let body = text.strip_prefix('"')?;
    let end = body.find('"')?;
    let code = &body[..end];
    let first = code.chars().next()?;
    (first.is_ascii_lowercase() && code.chars().all(is_code_char)).then_some(code)
}

/// The codes `source` can answer, by their last part.
fn codes_in(source: &str, prefixes: &[&str]) -> BTreeSet<String> {
    let source = source.split("#[cfg(test)]").next().unwrap_or_default();
    let mut codes = BTreeSet::new();
    for helper in HELPERS {
        for (at, _) in source.match_indices(helper) {
            let before = source[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(code) = leading_code(&source[at + helper.len()..]) {
                codes.insert(code.rsplit('.').next().unwrap_or(code).to_string());
            }
        }
    }
    for prefix in prefixes {
        let quoted = format!("\"{prefix}.");
        for (at, _) in source.match_indices(&quoted) {
            if let Some(code) = leading_code(&source[at..]) {
                codes.insert(code.rsplit('.').next().unwrap_or(code).to_string());
            }
        }
    }
    codes
}

/// Every backticked word of `doc`, by its last part.
fn listed_in(doc: &str) -> BTreeSet<String> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.chars().all(is_code_char))
        .map(|word| word.rsplit('.').next().unwrap_or(word).to_string())
        .collect()
}

fn check(folders: &[&str], docs: &[&str], prefixes: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in folders {
        rust_files(&root.join("src").join(folder), &mut files);
    }
    let mut codes = BTreeSet::new();
    for file in &files {
        codes.extend(codes_in(&fs::read_to_string(file).expect("a source file"), prefixes));
    }
    assert!(codes.len() > 20, "{folders:?}: the scan found only {codes:?}");
    let mut listed = BTreeSet::new();
    for doc in docs {
        let path = root.join("../docs/rulesets").join(doc);
        listed.extend(listed_in(&fs::read_to_string(&path).expect("the ruleset's document")));
    }
    let missing: Vec<&String> = codes.iter().filter(|code| !listed.contains(*code)).collect();
    assert!(missing.is_empty(), "{folders:?}: codes missing from the error table of {docs:?}: {missing:?}");
}

#[test]
fn every_zone_rpg_code_is_in_its_error_table() {
    check(&["zone_rpg"], &["zone-rpg.md"], &["zone-rpg"]);
}

#[test]
fn every_percentile_skirmish_code_is_in_its_error_table() {
    check(&["percentile_skirmish"], &["percentile-skirmish.md"], &["percentile-skirmish"]);
}

#[test]
fn every_swift_swords_code_is_in_its_error_table() {
    check(&["swift_swords"], &["swift-swords.md"], &["swift-swords"]);
}

#[test]
fn every_warmachine_code_is_in_its_error_table() {
    check(&["warmachine"], &["warmachine.md"], &["warmachine"]);
}

#[test]
fn every_coalition_battle_code_is_in_its_error_table() {
    check(&["coalition/battle"], &["coalition-battle.md"], &["coalition.battle", "battle"]);
}

/// The namespaces of the campaign's codes.
const COALITION: &[&str] = &[
    "coalition.campaign",
    "coalition.setup",
    "coalition.army",
    "coalition.orders",
    "coalition.movement",
    "coalition.troops",
];

#[test]
fn every_coalition_campaign_code_is_in_its_error_table() {
    let folders = ["coalition/campaign", "coalition/setup", "coalition/orders", "coalition/movement", "coalition/days"];
    check(&folders, &["coalition-campaign.md"], COALITION);
}

#[test]
fn the_scan_reads_helpers_and_whole_codes_but_not_messages() {
    let source = r#"
        refuse("too_far", "a message", RULE);
        RuleError::new(format!("zone-rpg.{code}"), message, rule);
        let code = "coalition.setup.base_count";
        let namespace = "coalition.setup";
        bad("Not a code");
        prefer_refuse("nope", "x");
        #[cfg(test)]
        refuse("only_in_tests", "x", RULE);
    "#;
    let codes: Vec<String> = codes_in(source, &["coalition.setup"]).into_iter().collect();
    assert_eq!(codes, ["base_count", "too_far"]);
}
