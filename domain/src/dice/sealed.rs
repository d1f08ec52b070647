//! The dice every ruleset's stream shares: a sealed seed committed in the stream's first event,
//! participants' entropy mixed in before the first roll, the tape position after each roll, the
//! seed revealed when the rules say so, and a judge's rolls (DESIGN.md "Dice that anyone can
//! check", docs/DICE.md).
//!
//! A ruleset keeps a [`SealedDice`] in its state and wraps the shared payloads below in its own
//! event variants (`#[serde(rename = "dice.SeedRevealed")] SeedRevealed(SeedRevealed)`), so the
//! rules for entropy, reveals and judge's rolls are written once and read the same in every
//! stream.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{judge::JudgeRolled, seed, JudgeRoll};
use crate::{Context, DiceCursor, Role, RuleError};

/// Where Herald's own dice rules are written down.
pub const DICE_RULES: &str = "herald: docs/DICE.md";

/// The longest entropy contribution, in characters.
pub const MAX_ENTROPY_CHARS: usize = 1024;

/// The most entropy contributions one stream takes. Each is a participant's guarantee that the
/// server could not choose the dice alone, so one from each is all that matters; the caps keep a
/// participant from lengthening the stream at will (issue 15, limits on what clients write).
pub const MAX_CONTRIBUTIONS: usize = 32;

/// The most entropy contributions one participant (or judge) makes to one stream.
pub const MAX_CONTRIBUTIONS_EACH: usize = 4;

/// Refuse a contribution beyond the caps: `total` made to the stream so far, `mine` by this actor.
pub fn check_contribution_caps(total: usize, mine: usize, code_prefix: &str) -> Result<(), RuleError> {
    if mine >= MAX_CONTRIBUTIONS_EACH {
        return Err(RuleError::new(
            format!("{code_prefix}.entropy_limit"),
            format!("you have contributed entropy {mine} times to this stream, the most one participant may"),
            DICE_RULES,
        ));
    }
    if total >= MAX_CONTRIBUTIONS {
        return Err(RuleError::new(
            format!("{code_prefix}.entropy_limit"),
            format!("this stream has {total} entropy contributions, the most it takes"),
            DICE_RULES,
        ));
    }
    Ok(())
}

/// Entropy a participant mixed into the dice before the first roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EntropyContributed {
    /// The text contributed; its SHA-256 enters the effective seed.
    pub entropy: String,
    /// Who contributed it.
    pub by: String,
}

/// The server seed, published: anyone can now recompute every die drawn so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeedRevealed {
    /// The seed in force, 64 hex digits; its SHA-256 is its commitment (the first event's, or
    /// the `next_commitment` of the reveal before).
    pub seed: String,
    /// The effective seed the tape was keyed with (docs/DICE.md "Effective seed").
    pub effective_seed: String,
    /// A reveal before the battle ended: `sha256` of the fresh sealed seed every later die comes
    /// from, so the seed just revealed predicts none (docs/DICE.md "Re-sealing").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_commitment: Option<String>,
}

/// A fresh seed committed at an early reveal (docs/DICE.md "Re-sealing").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResealKey {
    /// `sha256(seed)`, hex.
    pub commitment: String,
    /// The seed, hex, once revealed.
    pub revealed: Option<String>,
}

/// The commitments and revealed seeds of `reseals`, as [`DiceCursor::chain`] takes them.
pub fn reseal_chain(reseals: &[ResealKey]) -> Vec<(String, Option<String>)> {
    reseals.iter().map(|key| (key.commitment.clone(), key.revealed.clone())).collect()
}

/// Whether the seed in force (the stream's, or the last fresh one) is revealed.
pub fn key_revealed(stream_revealed: Option<&String>, reseals: &[ResealKey]) -> bool {
    reseals.last().map_or(stream_revealed.is_some(), |key| key.revealed.is_some())
}

/// Check a reveal of the seed in force against its commitment (codes `<prefix>.seed_*`) and
/// make the event; `next_commitment`, the fresh seed's commitment, only while the rules go on
/// (`ended` false).
#[allow(clippy::too_many_arguments)]
pub fn reveal_in_force(
    stream_commitment: Option<&str>,
    stream_revealed: Option<&String>,
    reseals: &[ResealKey],
    contributions: &[String],
    seed_hex: &str,
    next_commitment: Option<&str>,
    ended: bool,
    ctx: &Context,
    code_prefix: &str,
) -> Result<SeedRevealed, RuleError> {
    if key_revealed(stream_revealed, reseals) {
        return Err(RuleError::new(
            format!("{code_prefix}.seed_already_revealed"),
            "the seed has already been revealed",
            DICE_RULES,
        ));
    }
    let parsed = (seed_hex.len() == 64).then(|| seed::parse_hex32(seed_hex)).flatten().ok_or_else(|| {
        RuleError::new(format!("{code_prefix}.seed_malformed"), "a seed is 64 hexadecimal digits", DICE_RULES)
    })?;
    let in_force = reseals.last().map_or(stream_commitment, |key| Some(key.commitment.as_str()));
    if in_force.and_then(seed::parse_hex32) != Some(seed::commitment(&parsed)) {
        return Err(RuleError::new(
            format!("{code_prefix}.seed_mismatch"),
            "this seed does not match the published commitment",
            DICE_RULES,
        ));
    }
    let next_commitment = match next_commitment.filter(|_| !ended) {
        None => None,
        Some(next) => Some(hex::encode(seed::parse_hex32(next).ok_or_else(|| {
            RuleError::new(format!("{code_prefix}.seed_malformed"), "a commitment is 64 hexadecimal digits", DICE_RULES)
        })?)),
    };
    Ok(SeedRevealed {
        seed: hex::encode(parsed),
        effective_seed: hex::encode(seed::effective_seed(&parsed, &ctx.stream, contributions)),
        next_commitment,
    })
}

/// Apply a reveal: the seed in force is public, and a fresh one takes over if committed.
pub fn apply_reveal(
    stream_revealed: &mut Option<String>,
    reseals: &mut Vec<ResealKey>,
    seed: &str,
    next_commitment: Option<&String>,
) {
    match reseals.last_mut() {
        Some(key) if key.revealed.is_none() => key.revealed = Some(seed.to_string()),
        _ => *stream_revealed = Some(seed.to_string()),
    }
    if let Some(next) = next_commitment {
        reseals.push(ResealKey { commitment: next.clone(), revealed: None });
    }
}

/// The dice state of one stream.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SealedDice {
    /// `sha256(server seed)`, hex, from the stream's first event.
    pub seed_commitment: Option<String>,
    /// Entropy contributed by participants, in order.
    pub contributions: Vec<String>,
    /// Who contributed each of `contributions`, in the same order.
    #[serde(default)]
    pub contributors: Vec<String>,
    /// Index of the tape's next output word.
    pub next_word: u64,
    /// The server seed, once revealed.
    pub revealed_seed: Option<String>,
    /// Fresh seeds committed at early reveals, in order (docs/DICE.md "Re-sealing").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reseals: Vec<ResealKey>,
}

impl SealedDice {
    /// The dice of a stream opened with `seed_commitment`.
    pub fn committed(seed_commitment: &str) -> Self {
        Self { seed_commitment: Some(seed_commitment.to_string()), ..Self::default() }
    }

    /// Whether any die has been drawn.
    pub fn rolled(&self) -> bool {
        self.next_word > 0
    }

    /// The cursor the service keys the tape from; `reveal_due` when the rules now want the seed
    /// public (the battle ended).
    pub fn cursor(&self, reveal_due: bool) -> Option<DiceCursor> {
        DiceCursor::chain(
            (self.seed_commitment.as_deref()?, self.revealed_seed.as_deref()),
            &reseal_chain(&self.reseals),
            &self.contributions,
            self.next_word,
            reveal_due,
        )
    }

    /// A participant (`participant` says whether the actor is one; judges always are) mixes
    /// entropy in, before the first die: after it, a contribution could be chosen to steer dice.
    pub fn contribute(
        &self,
        entropy: &str,
        participant: bool,
        ctx: &Context,
        code_prefix: &str,
    ) -> Result<EntropyContributed, RuleError> {
        if !(participant || ctx.actor.is_judge()) {
            return Err(RuleError::forbidden(
                format!("{code_prefix}.not_participant"),
                "only the participants and judges may contribute entropy",
                DICE_RULES,
            ));
        }
        if self.rolled() || self.revealed_seed.is_some() {
            return Err(RuleError::new(
                format!("{code_prefix}.entropy_after_first_roll"),
                "entropy can only be contributed before the first die is rolled",
                DICE_RULES,
            ));
        }
        let mine = self.contributors.iter().filter(|by| **by == ctx.actor.id).count();
        check_contribution_caps(self.contributions.len(), mine, code_prefix)?;
        if entropy.is_empty() || entropy.chars().count() > MAX_ENTROPY_CHARS {
            return Err(RuleError::new(
                format!("{code_prefix}.entropy_size"),
                format!("entropy is 1 to {MAX_ENTROPY_CHARS} characters"),
                DICE_RULES,
            ));
        }
        Ok(EntropyContributed { entropy: entropy.to_string(), by: ctx.actor.id.clone() })
    }

    /// A judge, or the service when the rules say so, publishes the seed in force; it must match
    /// its commitment. Before the end (`ended` false) `next_commitment` re-seals.
    pub fn reveal(
        &self,
        seed_hex: &str,
        next_commitment: Option<&str>,
        ended: bool,
        ctx: &Context,
        code_prefix: &str,
    ) -> Result<SeedRevealed, RuleError> {
        if !matches!(ctx.actor.role, Role::Judge | Role::Admin | Role::System) {
            return Err(RuleError::forbidden(
                format!("{code_prefix}.not_a_judge"),
                "only a judge or the service may reveal the seed",
                DICE_RULES,
            ));
        }
        reveal_in_force(
            self.seed_commitment.as_deref(),
            self.revealed_seed.as_ref(),
            &self.reseals,
            &self.contributions,
            seed_hex,
            next_commitment,
            ended,
            ctx,
            code_prefix,
        )
    }

    /// A judge's roll on this stream (docs/DICE.md "A judge's roll").
    pub fn judge_roll(&self, roll: &JudgeRoll, ctx: &mut Context, code_prefix: &str) -> Result<JudgeRolled, RuleError> {
        roll.roll(ctx, code_prefix, key_revealed(self.revealed_seed.as_ref(), &self.reseals))
    }

    /// Apply a contribution.
    pub fn contributed(&mut self, event: &EntropyContributed) {
        self.contributions.push(event.entropy.clone());
        self.contributors.push(event.by.clone());
    }

    /// Apply a reveal.
    pub fn revealed(&mut self, event: &SeedRevealed) {
        apply_reveal(&mut self.revealed_seed, &mut self.reseals, &event.seed, event.next_commitment.as_ref());
    }

    /// Move the tape to `next_word` (recorded in every event that drew dice).
    pub fn advance(&mut self, next_word: u64) {
        self.next_word = self.next_word.max(next_word);
    }
}
