//! Disputes and rulings: the records every stream, of whichever ruleset, can carry
//! (issue 28; docs/adr/0004-disputes-and-corrections.md).
//!
//! A participant disputes one event with a claim in words (`herald.DisputeFiled`); a judge rules
//! that it `stands` or that it is `corrected` (`herald.DisputeRuled`). A correction carries the
//! state a what-if replay reached, whole, and folding it makes that the stream's state: the log
//! is never rewritten, the correction is one more event, and replaying its command produces the
//! same event, so `verify` checks a corrected stream like any other.
//!
//! These commands and events are handled by the erased ruleset face
//! ([`crate::ruleset::AnyRuleset`]) before the ruleset's own decider sees anything, so no ruleset
//! names them and every ruleset has them. The checks that need the log (the event exists, the
//! dispute is open, the filer takes part) are the service's; the decider checks what the
//! command alone shows.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{Actor, RuleError};

/// The prefix of every dispute command and event type.
pub const PREFIX: &str = "herald.";
/// The type of the event a filed dispute records.
pub const FILED: &str = "herald.DisputeFiled";
/// The type of the event a ruling records.
pub const RULED: &str = "herald.DisputeRuled";
/// The longest claim or reason, in characters.
pub const MAX_WORDS: usize = 2000;

/// Where the service's own dispute rules are written.
pub const RULE: &str = "herald: docs/API.md \"Disputes\"";

/// A judge's ruling on a dispute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ruling {
    /// The contested decision stands; nothing changes.
    Stands,
    /// The decision is corrected: the stream continues from the what-if's state.
    Corrected,
}

/// A dispute command, as the service builds it (never a client's body as is).
// A ruling is decoded once per command and never kept in bulk: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum DisputeCommand {
    /// File a dispute on one event.
    #[serde(rename = "herald.FileDispute")]
    FileDispute {
        /// The dispute's id (a UUID the service chose).
        dispute: String,
        /// The contested event's stream version.
        version: u64,
        /// The claim, in words.
        claim: String,
    },
    /// Rule on a dispute.
    #[serde(rename = "herald.RuleDispute")]
    RuleDispute {
        /// The dispute.
        dispute: String,
        /// `stands` or `corrected`.
        ruling: Ruling,
        /// The judge's reasons.
        reason: String,
        /// The what-if a correction rests on: its hash (hex sha256 of its inputs).
        #[serde(default)]
        what_if_hash: Option<String>,
        /// The change the what-if made (as asked), recorded so anyone can run it again.
        #[serde(default)]
        change: Option<Value>,
        /// The state the what-if reached, in the ruleset's own JSON (a correction only).
        #[serde(default)]
        corrected_state: Option<Value>,
        /// Where the correction came from when it was carried from another stream (a battle's
        /// ruling carried to its campaign): that stream and its dispute.
        #[serde(default)]
        carried_from: Option<String>,
        /// Streams the corrected state links that the stream's state did not (a corrected
        /// campaign adjudication that announces other battles): the service opens them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        streams_opened: Vec<String>,
        /// Streams the stream's state linked that the corrected state no longer does: they stay in
        /// the log as they are (nothing is rewritten), and nothing reads their outcome again.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        streams_dropped: Vec<String>,
    },
}

/// A dispute event.
// Decoded one event at a time (folding, listing), never kept in bulk.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum DisputeEvent {
    /// A participant disputed an event.
    #[serde(rename = "herald.DisputeFiled")]
    DisputeFiled {
        /// The dispute's id.
        dispute: String,
        /// The contested event's stream version.
        version: u64,
        /// The claim, in words.
        claim: String,
        /// Who filed it (the player, or the judge).
        by: Actor,
    },
    /// A judge ruled on a dispute.
    #[serde(rename = "herald.DisputeRuled")]
    DisputeRuled {
        /// The dispute.
        dispute: String,
        /// `stands` or `corrected`.
        ruling: Ruling,
        /// The judge's reasons.
        reason: String,
        /// The hash of the what-if a correction rests on.
        #[serde(default)]
        what_if_hash: Option<String>,
        /// The change the what-if made.
        #[serde(default)]
        change: Option<Value>,
        /// The stream's state from here on (a correction); hidden from all but judges.
        #[serde(default)]
        corrected_state: Option<Value>,
        /// The stream and dispute a carried correction came from.
        #[serde(default)]
        carried_from: Option<String>,
        /// Streams the corrected state links that the state before did not (opened by the
        /// service: a corrected adjudication's new battles).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        streams_opened: Vec<String>,
        /// Streams the state before linked that the corrected state does not (left as they are,
        /// their outcome never read again: a battle the corrected adjudication does not announce).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        streams_dropped: Vec<String>,
        /// The judge who ruled.
        by: Actor,
    },
}

/// Whether `kind` (a command's or an event's `type`) is a dispute record.
pub fn is_dispute_type(kind: &str) -> bool {
    kind.starts_with(PREFIX)
}

/// Whether the JSON `value` (a command or an event payload) is a dispute record.
pub fn is_dispute(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str).is_some_and(is_dispute_type)
}

/// Decide a dispute command: what the command alone shows (a claim in words, a judge ruling, a
/// correction that carries a state and the what-if it rests on).
///
/// # Errors
///
/// `dispute.claim_empty`, `dispute.not_a_judge`, `dispute.correction_without_what_if`.
pub fn decide(command: &DisputeCommand, actor: &Actor) -> Result<DisputeEvent, RuleError> {
    match command {
        DisputeCommand::FileDispute { dispute, version, claim } => {
            let claim = claim.trim();
            if claim.is_empty() || claim.chars().count() > MAX_WORDS {
                return Err(RuleError::new(
                    "dispute.claim_empty",
                    format!("a dispute states its claim in words (1 to {MAX_WORDS} characters)"),
                    RULE,
                ));
            }
            Ok(DisputeEvent::DisputeFiled {
                dispute: dispute.clone(),
                version: *version,
                claim: claim.to_string(),
                by: actor.clone(),
            })
        }
        DisputeCommand::RuleDispute {
            dispute,
            ruling,
            reason,
            what_if_hash,
            change,
            corrected_state,
            carried_from,
            streams_opened,
            streams_dropped,
        } => {
            if !(actor.is_judge() || actor.role == crate::Role::System) {
                return Err(RuleError::forbidden(
                    "dispute.not_a_judge",
                    "only a judge of the stream rules on a dispute",
                    RULE,
                ));
            }
            if *ruling == Ruling::Corrected && (what_if_hash.is_none() || corrected_state.is_none()) {
                return Err(RuleError::new(
                    "dispute.correction_without_what_if",
                    "a correction rests on a what-if: its hash and the state it reached",
                    RULE,
                ));
            }
            Ok(DisputeEvent::DisputeRuled {
                dispute: dispute.clone(),
                ruling: *ruling,
                reason: reason.trim().to_string(),
                what_if_hash: what_if_hash.clone(),
                change: change.clone(),
                corrected_state: if *ruling == Ruling::Corrected { corrected_state.clone() } else { None },
                carried_from: carried_from.clone(),
                streams_opened: if *ruling == Ruling::Corrected { streams_opened.clone() } else { Vec::new() },
                streams_dropped: if *ruling == Ruling::Corrected { streams_dropped.clone() } else { Vec::new() },
                by: actor.clone(),
            })
        }
    }
}

/// The state a dispute event leaves, when it replaces the stream's: a correction's.
pub fn corrected_state(event: &DisputeEvent) -> Option<&Value> {
    match event {
        DisputeEvent::DisputeRuled { ruling: Ruling::Corrected, corrected_state, .. } => corrected_state.as_ref(),
        _ => None,
    }
}

/// Hide what only judges see in a dispute event: a correction's state (it holds the stream's
/// hidden information: sealed formulas, unrevealed strategies, the dice cursor).
pub fn redact(event: &mut Value, viewer: &crate::Viewer) {
    if !viewer.is_judge() {
        crate::viewer::hide(event, &["corrected_state"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_without_words_is_refused_and_one_with_words_is_recorded() {
        let alice = Actor::player("token:a", "alice");
        let empty = DisputeCommand::FileDispute { dispute: "d".into(), version: 3, claim: "  ".into() };
        assert_eq!(decide(&empty, &alice).map_err(|e| e.code), Err("dispute.claim_empty".to_string()));
        let said = DisputeCommand::FileDispute { dispute: "d".into(), version: 3, claim: " the bonus was 3 ".into() };
        let Ok(DisputeEvent::DisputeFiled { claim, version, .. }) = decide(&said, &alice) else { panic!("filed") };
        assert_eq!((claim.as_str(), version), ("the bonus was 3", 3));
    }

    #[test]
    fn only_a_judge_rules_and_a_correction_needs_its_what_if() {
        let ruling = |ruling, hash: Option<&str>| DisputeCommand::RuleDispute {
            dispute: "d".into(),
            ruling,
            reason: "r".into(),
            what_if_hash: hash.map(str::to_string),
            change: None,
            corrected_state: hash.map(|_| serde_json::json!({})),
            carried_from: None,
            streams_opened: Vec::new(),
            streams_dropped: Vec::new(),
        };
        let alice = Actor::player("token:a", "alice");
        let judge = Actor::new("token:j", crate::Role::Judge);
        assert!(decide(&ruling(Ruling::Stands, None), &alice).is_err_and(|e| e.forbidden));
        assert!(decide(&ruling(Ruling::Corrected, None), &judge)
            .is_err_and(|e| e.code == "dispute.correction_without_what_if"));
        let ruled = decide(&ruling(Ruling::Corrected, Some("ab")), &judge).expect("ruled");
        assert!(corrected_state(&ruled).is_some());
        let stands = decide(&ruling(Ruling::Stands, Some("ab")), &judge).expect("ruled");
        assert!(corrected_state(&stands).is_none(), "a ruling that stands changes nothing");
    }
}
