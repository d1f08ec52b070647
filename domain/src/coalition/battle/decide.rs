//! The battle judge's decisions (seed 003 §4.1–4.3): what each command produces, or why not.
//!
//! Every refusal is a [`RuleError`] with a stable `coalition.battle.<reason>` code and the rule it
//! comes from: a section of seed 003, or [`SERVICE_RULES`] for the rules Herald adds as a service
//! (who may act, sealed seeds, limits on text). The function is pure: the time and the dice arrive
//! in the [`Context`].

use super::{
    attempt::Attempt,
    command::Engagement,
    event::Casualties,
    joint::{Departure, PartnerArmy},
    state::BattleStatus,
    BattleCommand, BattleEvent, BattleOptions, BattleState, CasualtyFormula, SideId, Sides,
};
use crate::{
    coalition::army::{ArmySpec, Team},
    Context, Role, RuleError,
};
use chrono::{DateTime, Utc};

/// The reference for rules Herald adds as a service rather than takes from the seed.
pub const SERVICE_RULES: &str = "herald: docs/rulesets/coalition-battle.md";

/// The most creature types an army may hold (seed 003 §2.1, §2.3.3).
pub const MAX_CREATURE_TYPES: usize = 6;

/// The longest entropy contribution, in characters.
pub const MAX_ENTROPY_CHARS: usize = 1024;

/// The longest strategy, in characters (a service limit; real strategies are a few pages).
pub const MAX_STRATEGY_CHARS: usize = 100_000;

/// The largest strategy bonus the judge may assign (seed 003 §4.2.1: "between +0 and +10").
pub const MAX_STRATEGY_BONUS: u8 = 10;

/// Decide a battle command.
pub fn decide(state: &BattleState, cmd: &BattleCommand, ctx: &mut Context) -> Result<Vec<BattleEvent>, RuleError> {
    match cmd {
        BattleCommand::CreateBattle {
            armies,
            partners,
            weather,
            engagement,
            terrain,
            strategy_deadline,
            options,
            seed_commitment,
            formula_opening,
            formula_salt,
        } => {
            let request = CreateRequest {
                armies,
                partners,
                weather,
                engagement: *engagement,
                terrain,
                strategy_deadline: *strategy_deadline,
                options,
                seed_commitment,
                formula_opening: *formula_opening,
                formula_salt: formula_salt.as_deref(),
            };
            create_battle(state, request, ctx)
        }
        _ if state.status == BattleStatus::NotCreated => Err(not_found()),
        BattleCommand::ContributeEntropy { entropy } => contribute_entropy(state, entropy, ctx),
        BattleCommand::SubmitStrategy { side, strategy, army, attempt, departure } => {
            let submission = Submission { side: *side, strategy, army, attempt, departure };
            submit_strategy(state, &submission, ctx)
        }
        BattleCommand::SetFormulas { options, formula_salt } => {
            super::judging::set_formulas(state, options, formula_salt.as_deref(), ctx)
        }
        BattleCommand::SetWeather { weather } => super::judging::set_weather(state, weather, ctx),
        BattleCommand::AssignInvolvement { side, shares } => {
            super::judging::assign_involvement(state, *side, shares, ctx)
        }
        BattleCommand::ApplySanction { army, losses, extension, reason } => {
            super::judging::apply_sanction(state, army, losses, *extension, reason, ctx)
        }
        BattleCommand::AssignStrategyBonus { side, bonus, note } => {
            assign_strategy_bonus(state, *side, *bonus, note, ctx)
        }
        BattleCommand::ResolveBattle { running_away } => resolve_battle(state, *running_away, ctx),
        BattleCommand::OverrideCasualties { side, losses, reason } => {
            override_casualties(state, *side, losses, reason, ctx)
        }
        BattleCommand::ApplyTacticalResult { source, source_rules, winner, models_lost, reason } => {
            apply_tactical_result(state, source, source_rules, *winner, models_lost, reason, ctx)
        }
        BattleCommand::RevealSeed { seed, next_commitment } => {
            reveal_seed(state, seed, next_commitment.as_deref(), ctx)
        }
        BattleCommand::JudgeRoll(roll) => {
            let revealed = crate::dice::sealed::key_revealed(state.revealed_seed.as_ref(), &state.reseals);
            Ok(vec![BattleEvent::JudgeRolled(roll.roll(ctx, "coalition.battle", revealed)?)])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Opening a battle

struct CreateRequest<'a> {
    armies: &'a Sides<ArmySpec>,
    partners: &'a [PartnerArmy],
    weather: &'a Option<String>,
    engagement: Engagement,
    terrain: &'a Option<String>,
    strategy_deadline: DateTime<Utc>,
    options: &'a BattleOptions,
    seed_commitment: &'a str,
    formula_opening: super::FormulaOpening,
    formula_salt: Option<&'a str>,
}

/// Open the battle and commit the seed; an army with 0 troops in every slot is killed at once
/// (seed 003 §4.3.1: "the next time they are engaged they will be automatically killed ... and no
/// strats will be written").
fn create_battle(
    state: &BattleState,
    request: CreateRequest<'_>,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    if state.status != BattleStatus::NotCreated {
        return Err(already_exists());
    }
    // The service opens the battles a campaign's adjudication announces (as the system actor).
    if ctx.actor.role != Role::System {
        require_judge(&ctx.actor, "open a battle")?;
    }
    for side in SideId::BOTH {
        validate_army(side, request.armies.get(side))?;
    }
    validate_opponents(request.armies)?;
    super::judging::validate_partners(request.armies, request.partners)?;
    validate_casualty_formula(&request.options.casualty_formula)?;
    // Seed 003 §4.1.1: strategies arrive before the deadline; a battle whose deadline has
    // already passed when it is opened could never receive one.
    if request.strategy_deadline < ctx.recorded_at {
        return Err(RuleError::new(
            "coalition.battle.deadline_passed",
            format!(
                "the strategy deadline {} has already passed ({} now): no strategy could arrive before it",
                request.strategy_deadline.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                ctx.recorded_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            ),
            "seed 003 §4.1.1",
        ));
    }
    if !is_hex_digest(request.seed_commitment) {
        return Err(RuleError::new(
            "coalition.battle.seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits (sha256 of the server seed)",
            SERVICE_RULES,
        ));
    }
    let formula_commitment = formula_commitment(request.options, request.formula_salt)?;
    let mut events = vec![BattleEvent::BattleCreated {
        armies: request.armies.clone(),
        partners: request.partners.to_vec(),
        weather: request.weather.clone(),
        engagement: request.engagement,
        terrain: request.terrain.clone(),
        strategy_deadline: request.strategy_deadline,
        options: request.options.clone(),
        seed_commitment: request.seed_commitment.to_ascii_lowercase(),
        formula_opening: request.formula_opening,
        formula_salt: request.formula_salt.map(str::to_ascii_lowercase),
        formula_commitment,
    }];
    events.extend(
        SideId::BOTH
            .into_iter()
            .filter(|side| request.armies.get(*side).is_empty())
            .map(|side| BattleEvent::ArmyKilled { side, rule: "seed 003 §4.3.1".to_string() }),
    );
    Ok(events)
}

/// The public commitment to `options`' hidden formulas under `salt` (docs/DICE.md "Commitments
/// to hidden formulas"): none for a command recorded before commitments existed, which carries no
/// salt, so its replay gives the event it gave then.
pub(super) fn formula_commitment(options: &BattleOptions, salt: Option<&str>) -> Result<Option<String>, RuleError> {
    let Some(salt) = salt else { return Ok(None) };
    let bytes = super::commitment::parse_salt(salt).ok_or_else(|| {
        RuleError::new(
            "coalition.battle.formula_salt_malformed",
            format!(
                "the formula salt must be {} bytes as hexadecimal (the service draws it)",
                super::commitment::SALT_BYTES
            ),
            SERVICE_RULES,
        )
    })?;
    Ok(Some(super::commitment::commitment(&options.into(), &bytes)))
}

/// What a battle needs of an army; the full army rules (§2.1–2.2) belong to the campaign.
pub(super) fn validate_army(side: SideId, army: &ArmySpec) -> Result<(), RuleError> {
    if army.name.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.battle.army_name_required",
            format!("the army of side {side} needs a name"),
            "seed 003 §2.5.2.2",
        ));
    }
    if army.controller.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.battle.controller_required",
            format!("the army of side {side} needs a controller to write its strategy"),
            "seed 003 §4.1.1",
        ));
    }
    if army.slots.is_empty() {
        return Err(RuleError::new(
            "coalition.battle.army_without_slots",
            format!("the army of side {side} has no slots"),
            "seed 003 §2.1",
        ));
    }
    if army.slots.len() > MAX_CREATURE_TYPES {
        return Err(RuleError::new(
            "coalition.battle.too_many_creature_types",
            format!(
                "the army of side {side} has {} creature types; an army may have at most {MAX_CREATURE_TYPES}",
                army.slots.len()
            ),
            "seed 003 §2.1",
        ));
    }
    if army.slots.iter().any(|slot| slot.creature.trim().is_empty()) {
        return Err(RuleError::new(
            "coalition.battle.creature_name_required",
            format!("every slot of the army of side {side} needs a creature"),
            "seed 003 §2.1",
        ));
    }
    Ok(())
}

/// Two different armies of opposing teams (seed 003 §3.3.1: "Two friendly armies can never be in
/// the same square"; mercenaries fight either team but never each other, ch. 6).
fn validate_opponents(armies: &Sides<ArmySpec>) -> Result<(), RuleError> {
    if armies.a.name.trim() == armies.b.name.trim() {
        return Err(RuleError::new(
            "coalition.battle.same_army",
            format!("an army cannot fight itself ({})", armies.a.name),
            "seed 003 §3.3.1",
        ));
    }
    if armies.a.team == armies.b.team {
        let rule = if armies.a.team == Team::Mercenary { "seed 003 ch. 6" } else { "seed 003 §3.3.1" };
        return Err(RuleError::new(
            "coalition.battle.friendly_armies",
            "two armies of the same team never fight each other",
            rule,
        ));
    }
    Ok(())
}

/// A rate above 100% or a base above the cap would make the formula contradict itself.
pub(super) fn validate_casualty_formula(formula: &CasualtyFormula) -> Result<(), RuleError> {
    if formula.max > super::casualties::FULL_RATE || formula.base > formula.max {
        return Err(RuleError::new(
            "coalition.battle.casualty_formula_invalid",
            "the casualty formula needs base <= max <= 1000 (tenths of a percent)",
            SERVICE_RULES,
        ));
    }
    Ok(())
}

fn is_hex_digest(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

// ---------------------------------------------------------------------------------------------
// Before the dice

/// A participant mixes entropy into the seed, so neither the server nor a player chooses the dice
/// (DESIGN.md "Dice that anyone can check"). Only before the first die, and never once the seed is
/// public, when a contribution could be chosen to steer the coming rolls.
fn contribute_entropy(state: &BattleState, entropy: &str, ctx: &Context) -> Result<Vec<BattleEvent>, RuleError> {
    let participant = ctx.actor.is_judge() || SideId::BOTH.into_iter().any(|side| controls(state, side, ctx));
    if !participant {
        return Err(RuleError::forbidden(
            "coalition.battle.not_participant",
            "only the armies' controllers and judges may contribute entropy",
            SERVICE_RULES,
        ));
    }
    if state.dice_drawn() {
        return Err(RuleError::new(
            "coalition.battle.entropy_after_first_roll",
            "entropy can only be contributed before the first die is rolled",
            SERVICE_RULES,
        ));
    }
    require_not_ended(state)?;
    if state.revealed_seed.is_some() {
        return Err(RuleError::new(
            "coalition.battle.entropy_after_reveal",
            "the seed has been revealed; entropy added now could be chosen to steer the dice",
            SERVICE_RULES,
        ));
    }
    if entropy.trim().is_empty() {
        return Err(RuleError::new("coalition.battle.entropy_empty", "entropy must not be empty", SERVICE_RULES));
    }
    if entropy.chars().count() > MAX_ENTROPY_CHARS {
        return Err(RuleError::new(
            "coalition.battle.entropy_too_long",
            format!("entropy is limited to {MAX_ENTROPY_CHARS} characters"),
            SERVICE_RULES,
        ));
    }
    // Issue 15: nobody may lengthen the stream at will (the shared dice caps, docs/DICE.md).
    let mine = state.contributors.iter().filter(|by| **by == ctx.actor.id).count();
    crate::dice::check_contribution_caps(state.contributions.len(), mine, "coalition.battle")?;
    Ok(vec![BattleEvent::EntropyContributed { by: ctx.actor.id.clone(), entropy: entropy.to_string() }])
}

/// A strategy as submitted.
struct Submission<'a> {
    side: SideId,
    strategy: &'a str,
    army: &'a Option<String>,
    attempt: &'a Option<Attempt>,
    departure: &'a Option<Departure>,
}

/// The controller sends the strategy before the deadline (seed 003 §4.1.1); a judge may enter it
/// on their behalf; the controller's contingency may send one in the last 24 hours before the
/// deadline, which counts only if the controller sends none (§5.2.3). A later submission before
/// the deadline replaces the earlier one, as the last order counts for movement (seed 003 §3.3.6).
fn submit_strategy(
    state: &BattleState,
    submission: &Submission<'_>,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    let side = submission.side;
    let army = match submission.army {
        Some(name) => state.army_named(name).filter(|_| state.side_of(name).map(|(s, _)| s) == Some(side)),
        None => state.army(side),
    };
    let Some(army) = army else {
        return Err(RuleError::new(
            "coalition.battle.not_in_battle",
            format!("{} does not fight on side {side}", submission.army.as_deref().unwrap_or("that army")),
            "seed 003 §4.4",
        ));
    };
    let deadline = state.deadline_of(side);
    let controller = ctx.actor.is_player(&army.controller);
    let contingency = !controller
        && !ctx.actor.is_judge()
        && army.contingency.as_deref().is_some_and(|player| ctx.actor.is_player(player));
    if !ctx.actor.is_judge() && !controller && !contingency {
        return Err(RuleError::forbidden(
            "coalition.battle.not_controller",
            format!("only the controller of {} (or a judge) may send its strategy", army.name),
            "seed 003 §5.4.1",
        ));
    }
    if contingency && deadline.is_some_and(|deadline| ctx.recorded_at < deadline - chrono::Duration::hours(24)) {
        return Err(RuleError::new(
            "coalition.battle.contingency_too_early",
            format!("a contingency may send {}'s strategy only in the last 24 hours before the deadline", army.name),
            "seed 003 §5.2.3",
        ));
    }
    require_not_ended(state)?;
    if deadline.is_some_and(|deadline| ctx.recorded_at > deadline) {
        return Err(RuleError::new(
            "coalition.battle.strategy_after_deadline",
            "the strategy deadline has passed",
            "seed 003 §4.1.1",
        ));
    }
    if submission.strategy.trim().is_empty() {
        return Err(RuleError::new("coalition.battle.strategy_empty", "the strategy is empty", "seed 003 §4.1.1"));
    }
    if submission.strategy.chars().count() > MAX_STRATEGY_CHARS {
        return Err(RuleError::new(
            "coalition.battle.strategy_too_long",
            format!("a strategy is limited to {MAX_STRATEGY_CHARS} characters"),
            SERVICE_RULES,
        ));
    }
    if let Some(attempt) = submission.attempt {
        let target = super::resolve::target_of(state, side, attempt)?;
        super::attempt::check_target(army, target, attempt.kind)?;
    }
    if let Some(departure) = submission.departure {
        super::judging::check_departure(state, side, departure)?;
    }
    let named = submission.army.clone().filter(|name| state.army(side).is_none_or(|first| &first.name != name));
    Ok(vec![BattleEvent::StrategySubmitted {
        side,
        strategy: submission.strategy.to_string(),
        by: ctx.actor.id.clone(),
        at: ctx.recorded_at,
        army: named,
        attempt: submission.attempt.clone(),
        departure: submission.departure.clone(),
        contingency,
    }])
}

/// The battle judge reads the strategies and assigns each a bonus of +0 to +10 (seed 003 §4.2.1).
/// Only a strategy that was sent can be judged; a side without one is handled at resolution.
fn assign_strategy_bonus(
    state: &BattleState,
    side: SideId,
    bonus: u8,
    note: &Option<String>,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "assign a strategy bonus")?;
    require_not_ended(state)?;
    if bonus > MAX_STRATEGY_BONUS {
        return Err(RuleError::new(
            "coalition.battle.bonus_out_of_range",
            format!("a strategy bonus is between 0 and {MAX_STRATEGY_BONUS}, not {bonus}"),
            "seed 003 §4.2.1",
        ));
    }
    if !state.sides.get(side).has_strategy() {
        return Err(RuleError::new(
            "coalition.battle.strategy_missing",
            format!("side {side} has sent no strategy to judge; a side without one gets 0 at resolution"),
            "seed 003 §4.2.1",
        ));
    }
    Ok(vec![BattleEvent::StrategyBonusAssigned { side, bonus, note: note.clone() }])
}

// ---------------------------------------------------------------------------------------------
// Resolution

/// Determine the winner and casualties (seed 003 §4.2), then the attempts (§4.3, §4.5).
fn resolve_battle(
    state: &BattleState,
    running_away: Option<SideId>,
    ctx: &mut Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "resolve the battle")?;
    require_not_ended(state)?;
    armies(state)?;
    let stratless = SideId::BOTH.into_iter().any(|side| !state.sides.get(side).has_strategy());
    let deadline_passed = state.last_deadline().is_some_and(|deadline| ctx.recorded_at > deadline);
    if stratless && !deadline_passed {
        return Err(RuleError::new(
            "coalition.battle.resolve_too_early",
            "a battle is resolved once both strategies are in or the deadline has passed",
            "seed 003 §4.1.1",
        ));
    }
    super::resolve::resolve(state, running_away, ctx)
}

// ---------------------------------------------------------------------------------------------
// After resolution

/// The judge may modify the battle process for special cases (seed 003 §4.2.6, §1.3: "anything
/// the battle judge says is law"): replace a side's casualties, with a recorded reason.
fn override_casualties(
    state: &BattleState,
    side: SideId,
    losses: &[u32],
    reason: &str,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "override casualties")?;
    if state.status != BattleStatus::Resolved {
        return Err(RuleError::new(
            "coalition.battle.not_resolved",
            "casualties can only be overridden once the battle has been resolved",
            "seed 003 §4.2.5",
        ));
    }
    let army = state.army(side).ok_or_else(not_found)?;
    if losses.len() != army.slots.len() {
        return Err(RuleError::new(
            "coalition.battle.losses_slot_count",
            format!("side {side}'s army has {} slots but {} losses were given", army.slots.len(), losses.len()),
            SERVICE_RULES,
        ));
    }
    if let Some((index, (loss, slot))) =
        losses.iter().zip(&army.slots).enumerate().find(|(_, (loss, slot))| **loss > slot.troops)
    {
        return Err(RuleError::new(
            "coalition.battle.losses_exceed_troops",
            format!("slot {} ({}) had {} troops and cannot lose {loss}", index + 1, slot.creature, slot.troops),
            "seed 003 §4.2.5",
        ));
    }
    if reason.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.battle.reason_required",
            "an override needs the judge's reason",
            SERVICE_RULES,
        ));
    }
    let total = losses.iter().map(|loss| u64::from(*loss)).sum();
    Ok(vec![BattleEvent::CasualtiesOverridden {
        side,
        casualties: Casualties { losses: losses.to_vec(), total, rate_tenths_percent: None },
        reason: reason.to_string(),
    }])
}

/// The battle was fought out under a tactical ruleset (seeds/README: a campaign "may instead
/// have a battle fought out under one of the tactical rulesets and its outcome applied back to
/// the campaign"): the winner is the side
/// whose player won there, and each slot loses troops in proportion to the models its side lost
/// — `troops × destroyed / fielded`, rounded half up — the same share from every slot, as
/// seed 003 §4.2.5 spreads casualties over every troop line. The judge can still override them.
fn apply_tactical_result(
    state: &BattleState,
    source: &str,
    source_rules: &str,
    winner: SideId,
    models_lost: &Sides<super::command::TacticalLosses>,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "apply a tactical battle's result")?;
    require_not_ended(state)?;
    if reason.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.battle.reason_required",
            "say why the battle was fought out",
            SERVICE_RULES,
        ));
    }
    let mut casualties = Vec::new();
    for side in SideId::BOTH {
        let lost = models_lost.get(side);
        if lost.fielded == 0 || lost.destroyed > lost.fielded {
            return Err(RuleError::new(
                "coalition.battle.tactical_losses",
                format!("side {side} must have fielded models and cannot lose more than it fielded"),
                SERVICE_RULES,
            ));
        }
        let army = state.army(side).ok_or_else(not_found)?;
        let losses: Vec<u32> = army
            .slots
            .iter()
            .map(|slot| {
                let share = (u64::from(slot.troops) * u64::from(lost.destroyed) * 2 + u64::from(lost.fielded))
                    / (2 * u64::from(lost.fielded));
                u32::try_from(share).unwrap_or(slot.troops).min(slot.troops)
            })
            .collect();
        let total = losses.iter().map(|loss| u64::from(*loss)).sum();
        casualties.push(Casualties { losses, total, rate_tenths_percent: None });
    }
    let mut casualties = casualties.into_iter();
    let (Some(a), Some(b)) = (casualties.next(), casualties.next()) else { return Err(not_found()) };
    Ok(vec![BattleEvent::TacticalResultApplied {
        source: source.to_string(),
        source_rules: source_rules.to_string(),
        winner,
        models_lost: models_lost.clone(),
        casualties: Sides { a, b },
        reason: reason.to_string(),
    }])
}

/// Publish the server seed so anyone can recompute every die (DESIGN.md "Dice that anyone can
/// check"). It must be the seed committed when the battle opened.
fn reveal_seed(
    state: &BattleState,
    seed_hex: &str,
    next_commitment: Option<&str>,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    if !matches!(ctx.actor.role, Role::Judge | Role::Admin | Role::System) {
        return Err(RuleError::forbidden(
            "coalition.battle.judge_only",
            "only a judge or the service may reveal the seed",
            SERVICE_RULES,
        ));
    }
    let revealed = crate::dice::sealed::reveal_in_force(
        state.seed_commitment.as_deref(),
        state.revealed_seed.as_ref(),
        &state.reseals,
        &state.contributions,
        seed_hex,
        next_commitment,
        state.ended(),
        ctx,
        "coalition.battle",
    )?;
    Ok(vec![BattleEvent::SeedRevealed {
        seed: revealed.seed,
        effective_seed: revealed.effective_seed,
        next_commitment: revealed.next_commitment,
    }])
}

// ---------------------------------------------------------------------------------------------
// Shared checks

fn controls(state: &BattleState, side: SideId, ctx: &Context) -> bool {
    state.sides.get(side).armies().iter().any(|army| ctx.actor.is_player(&army.controller))
}

pub(super) fn require_judge(actor: &crate::Actor, action: &str) -> Result<(), RuleError> {
    if actor.is_judge() {
        Ok(())
    } else {
        Err(RuleError::forbidden(
            "coalition.battle.judge_only",
            format!("only the battle judge may {action}"),
            "seed 003 §1.3",
        ))
    }
}

pub(super) fn require_not_ended(state: &BattleState) -> Result<(), RuleError> {
    if state.ended() {
        Err(RuleError::new("coalition.battle.already_ended", "the battle has already ended", SERVICE_RULES))
    } else {
        Ok(())
    }
}

fn armies(state: &BattleState) -> Result<Sides<ArmySpec>, RuleError> {
    Ok(Sides {
        a: state.army(SideId::A).ok_or_else(not_found)?.clone(),
        b: state.army(SideId::B).ok_or_else(not_found)?.clone(),
    })
}

pub(super) fn not_found() -> RuleError {
    RuleError::new("coalition.battle.not_found", "there is no battle on this stream yet", SERVICE_RULES)
}

fn already_exists() -> RuleError {
    RuleError::new("coalition.battle.already_exists", "this stream already holds a battle", SERVICE_RULES)
}
