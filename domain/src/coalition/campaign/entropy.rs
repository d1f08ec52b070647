//! Campaign dice no one can choose (`coalition-campaign@4`, docs/DICE.md "Keys"): players mix
//! entropy into each turn until its movement lock, the dice between adjudications come from
//! interval keys published with the next turn's report, and the root every key derives from is
//! published when the round ends, by victory or an admin closing it.

use super::{decide::refuse, event::CampaignEvent, state::CampaignState, state::TurnPhase};
use crate::{
    dice::{
        sealed::{check_contribution_caps, DICE_RULES, MAX_ENTROPY_CHARS},
        seed,
    },
    Context, DiceKey, Role, RuleError,
};

/// The rule a contribution after the lock breaks: the turn's key is final at the lock, when the
/// orders are (seed 003 §3.1).
pub const LOCK_RULE: &str = "herald: docs/DICE.md \"Keys\"; seed 003 §3.1";

/// A player of the round (listed at its set-up or since, or controlling an army) mixes entropy into the open turn's key: refused after the movement lock
/// (the key is then final and the orders public), for anyone but the round's players, over the
/// caps battles have (4 each, 32 a turn), and outside 1 to 1,024 characters.
pub fn contribute(state: &CampaignState, ctx: &Context, entropy: &str) -> Result<CampaignEvent, RuleError> {
    if !state.interval_keyed {
        return Err(refuse(
            "entropy_not_taken",
            "this round was set up under coalition-campaign@3: its turns take no entropy",
            DICE_RULES,
        ));
    }
    let player = ctx
        .actor
        .player
        .as_deref()
        .filter(|name| {
            ctx.actor.role == Role::Player
                && (state.players.iter().any(|player| player.name == *name)
                    || state.armies.values().any(|army| army.controllers.contains(*name)))
        })
        .ok_or_else(|| {
            RuleError::forbidden(
                "coalition.campaign.not_participant",
                "only the round's players may contribute entropy to a turn",
                DICE_RULES,
            )
        })?;
    match state.phase {
        TurnPhase::Open { .. } => {}
        TurnPhase::Locked { .. } => {
            return Err(refuse(
                "entropy_after_lock",
                format!("turn {} is locked: its entropy closed at the movement lock", state.turn),
                LOCK_RULE,
            ))
        }
        TurnPhase::Closed => {
            return Err(refuse(
                "entropy_after_lock",
                "no turn is open: entropy goes into an open turn, up to its movement lock",
                LOCK_RULE,
            ))
        }
    }
    let made = state.entropy.get(&state.turn).map_or(&[][..], Vec::as_slice);
    let mine = made.iter().filter(|contribution| contribution.by == player).count();
    check_contribution_caps(made.len(), mine, "coalition.campaign")?;
    if entropy.is_empty() || entropy.chars().count() > MAX_ENTROPY_CHARS {
        return Err(refuse("entropy_size", format!("entropy is 1 to {MAX_ENTROPY_CHARS} characters"), DICE_RULES));
    }
    Ok(CampaignEvent::TurnEntropyContributed { turn: state.turn, entropy: entropy.to_string(), by: player.to_string() })
}

/// An admin closes the round without a winner; the service then reveals the root.
pub fn close_round(ctx: &Context, reason: &str) -> Result<CampaignEvent, RuleError> {
    if !matches!(ctx.actor.role, Role::Admin) {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_an_admin",
            "only an admin may close a round",
            super::decide::SERVICE_RULES,
        ));
    }
    if reason.trim().is_empty() {
        return Err(refuse("close_reason_required", "closing a round needs a reason", super::decide::SERVICE_RULES));
    }
    Ok(CampaignEvent::RoundClosed { by: ctx.actor.id.clone(), reason: reason.to_string() })
}

fn parse_seed(seed_hex: &str) -> Result<[u8; 32], RuleError> {
    (seed_hex.len() == 64)
        .then(|| seed::parse_hex32(seed_hex))
        .flatten()
        .ok_or_else(|| refuse("seed_malformed", "a seed is 64 hexadecimal digits", DICE_RULES))
}

fn matches(commitment: Option<&str>, seed_value: &[u8; 32]) -> bool {
    commitment.and_then(seed::parse_hex32) == Some(seed::commitment(seed_value))
}

/// Publish the seed that is due (the service, right after the adjudication or the round's end;
/// docs/DICE.md "Keys"): the adjudicated turn's key, or, once a round of `coalition-campaign@4`
/// is over, the root — with the last adjudicated turn's key derived from it.
pub fn reveal(state: &CampaignState, ctx: &Context, seed_hex: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    if !matches!(ctx.actor.role, Role::Judge | Role::Admin | Role::System) {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_judge",
            "only a judge or the service may reveal a turn's seed",
            DICE_RULES,
        ));
    }
    let parsed = parse_seed(seed_hex)?;
    let turn_revealed = |turn: u32, turn_seed: [u8; 32]| CampaignEvent::TurnSeedRevealed {
        turn,
        seed: hex::encode(turn_seed),
        effective_seed: hex::encode(seed::effective_seed(
            &turn_seed,
            &ctx.stream,
            &state.contributions(DiceKey::Turn(turn)),
        )),
    };
    if state.root_due() {
        if !matches(state.seed_commitment.as_deref(), &parsed) {
            return Err(refuse(
                "seed_mismatch",
                "this seed does not match the root's commitment published when the round was set up",
                DICE_RULES,
            ));
        }
        let mut events: Vec<CampaignEvent> = state
            .turn_key_due()
            .map(|turn| turn_revealed(turn, seed::turn_seed(&parsed, &ctx.stream, turn)))
            .into_iter()
            .collect();
        events.push(CampaignEvent::RootSeedRevealed { seed: hex::encode(parsed) });
        return Ok(events);
    }
    let Some(turn) = state.turn_key_due() else {
        return Err(refuse("no_turn_seed_due", "no adjudicated turn has a sealed seed", DICE_RULES));
    };
    if !matches(state.turn_keys.get(&turn).map(|key| key.commitment.as_str()), &parsed) {
        return Err(refuse(
            "seed_mismatch",
            format!("this seed does not match the commitment published when turn {turn} opened"),
            DICE_RULES,
        ));
    }
    Ok(vec![turn_revealed(turn, parsed)])
}

/// The interval key the adjudication of the locked turn closes (`interval:<turn − 1>`), published
/// with the turn's report: `seed` is filled in by the service and must match the key's commitment.
pub fn reveal_interval(
    state: &CampaignState,
    ctx: &Context,
    seed_hex: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let after_turn = state.turn.saturating_sub(1);
    let key = state.interval_keys.get(&after_turn).filter(|key| key.revealed.is_none());
    let (Some(key), true) = (key, state.interval_keyed) else {
        return match seed_hex {
            None => Ok(Vec::new()),
            Some(_) => Err(refuse("no_interval_seed_due", "no interval key is due to be revealed", DICE_RULES)),
        };
    };
    let seed_hex = seed_hex.ok_or_else(|| {
        refuse(
            "interval_seed_missing",
            format!("the adjudication publishes the seed of interval:{after_turn}, which the service fills in"),
            DICE_RULES,
        )
    })?;
    let parsed = parse_seed(seed_hex)?;
    if !matches(Some(&key.commitment), &parsed) {
        return Err(refuse(
            "seed_mismatch",
            format!("this seed does not match the commitment of interval:{after_turn}"),
            DICE_RULES,
        ));
    }
    Ok(vec![CampaignEvent::IntervalSeedRevealed {
        after_turn,
        seed: hex::encode(parsed),
        effective_seed: hex::encode(seed::effective_seed(
            &parsed,
            &ctx.stream,
            &state.contributions(DiceKey::Interval(after_turn)),
        )),
    }])
}
