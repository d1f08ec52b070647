//! Limits on the text a client writes (issue 15): the backstop behind the rulesets' own limits.
//! Every string in a command or a token request
//! is at most [`MAX_NAME_CHARS`] characters, or [`MAX_PROSE_CHARS`] in the fields that hold
//! prose (a strategy, orders in text, a reason, a description). The same rule gives the
//! `maxLength` of every string in the OpenAPI document's request schemas, so a client learns the
//! limit before it is refused. Request bodies are also limited to 1 MiB as a whole
//! (`problem::json_config`, 413 beyond it).

use herald_domain::RuleError;
use serde_json::Value;

use crate::problem::ApiError;

/// Names, labels, ids and every other short string.
pub const MAX_NAME_CHARS: usize = 256;

/// Prose: the fields named in [`PROSE_FIELDS`].
pub const MAX_PROSE_CHARS: usize = 100_000;

/// The fields that hold prose, by name, wherever they appear.
pub const PROSE_FIELDS: &[&str] = &[
    "strategy",
    "text",
    "reason",
    "description",
    "notes",
    "note",
    "purpose",
    "ruling",
    "message",
    "summary",
    "effect",
    "legend",
    "rule",
];

/// Where the limits are documented, as the "rule" of a refusal.
pub const LIMITS_RULE: &str = "herald: docs/API.md \"Limits\"";

/// The longest a string in field `name` may be.
pub fn max_chars(name: &str) -> usize {
    if name == "entropy" {
        herald_domain::dice::sealed::MAX_ENTROPY_CHARS
    } else if PROSE_FIELDS.contains(&name) {
        MAX_PROSE_CHARS
    } else {
        MAX_NAME_CHARS
    }
}

/// Refuse a request with a string over its limit, naming the field (422 `request.text_too_long`).
pub fn check(request: &Value) -> Result<(), ApiError> {
    check_at(request, &Path::Root, "")
}

/// Where a value sits in the request, as a chain to its parent: the path (`armies.a.name`,
/// `zones[2].name`) is written only for a string refused, not for every value checked.
enum Path<'a> {
    Root,
    Field(&'a Path<'a>, &'a str),
    Item(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn text(&self) -> String {
        match self {
            Path::Root => String::new(),
            Path::Field(Path::Root, name) => (*name).to_string(),
            Path::Field(parent, name) => format!("{}.{name}", parent.text()),
            Path::Item(parent, index) => format!("{}[{index}]", parent.text()),
        }
    }
}

fn check_at(value: &Value, path: &Path, field: &str) -> Result<(), ApiError> {
    match value {
        // Entropy's limit is a dice rule, refused by the ruleset with its own code.
        Value::String(_) if field == "entropy" => Ok(()),
        Value::String(text) => {
            let limit = max_chars(field);
            // Bytes bound characters from above: count only when the bytes exceed the limit.
            if text.len() > limit && text.chars().count() > limit {
                let path = path.text();
                return Err(ApiError::Rule(RuleError::new(
                    "request.text_too_long",
                    format!(
                        "{} is {} characters; it may be at most {limit} (names and labels {MAX_NAME_CHARS}, \
                         prose such as strategies, orders and reasons {MAX_PROSE_CHARS})",
                        if path.is_empty() { "the text" } else { &path },
                        text.chars().count()
                    ),
                    LIMITS_RULE,
                )));
            }
            Ok(())
        }
        Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, item)| check_at(item, &Path::Item(path, i), field))
        }
        Value::Object(fields) => {
            fields.iter().try_for_each(|(name, item)| check_at(item, &Path::Field(path, name), name))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_long_name_is_refused_naming_the_field_and_its_limit() {
        let long = "n".repeat(MAX_NAME_CHARS + 1);
        let error = check(&json!({"armies": {"a": {"name": long}}})).expect_err("too long");
        let ApiError::Rule(rule) = error else { panic!("a rule violation") };
        assert_eq!(rule.code, "request.text_too_long");
        assert!(rule.message.starts_with("armies.a.name is 257 characters; it may be at most 256"), "{}", rule.message);
    }

    #[test]
    fn prose_fields_take_long_text_and_strings_in_lists_keep_their_fields_limit() {
        let essay = "word ".repeat(15_000);
        assert!(check(&json!({"strategy": essay, "orders": [{"army": "Sai Rei"}]})).is_ok());
        let names = json!({"players": ["a", "b".repeat(300)]});
        let ApiError::Rule(rule) = check(&names).expect_err("too long") else { panic!("a rule violation") };
        assert!(rule.message.starts_with("players[1] is 300 characters"), "{}", rule.message);
    }

    #[test]
    fn the_limit_counts_characters_not_bytes() {
        assert!(check(&json!({"name": "é".repeat(MAX_NAME_CHARS)})).is_ok());
    }
}
