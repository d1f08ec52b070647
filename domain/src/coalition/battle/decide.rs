//! The battle judge's decisions (seed 003 §4.1–4.3): what each command produces, or why not.
//!
//! Every refusal is a [`RuleError`] with a stable `coalition.battle.<reason>` code and the rule it
//! comes from: a section of seed 003, or [`SERVICE_RULES`] for the rules Herald adds as a service
//! (who may act, sealed seeds, limits on text). The function is pure: the time and the dice arrive
//! in the [`Context`].

use super::{
    bonus::{army_sizes, color_bonus, size_bonus, FULL_STRATEGY_BONUS},
    casualties::battle_casualties,
    command::Engagement,
    event::{Casualties, SideBonuses},
    roll::{compare_pairs, count_pairs_won, decide_winner, roll_battle_dice},
    state::BattleStatus,
    BattleCommand, BattleEvent, BattleOptions, BattleState, CasualtyFormula, SideId, Sides,
};
use crate::{
    coalition::army::{ArmySpec, Team},
    dice::seed,
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
        BattleCommand::CreateBattle { armies, engagement, terrain, strategy_deadline, options, seed_commitment } => {
            let request = CreateRequest {
                armies,
                engagement: *engagement,
                terrain,
                strategy_deadline: *strategy_deadline,
                options,
                seed_commitment,
            };
            create_battle(state, request, ctx)
        }
        _ if state.status == BattleStatus::NotCreated => Err(not_found()),
        BattleCommand::ContributeEntropy { entropy } => contribute_entropy(state, entropy, ctx),
        BattleCommand::SubmitStrategy { side, strategy } => submit_strategy(state, *side, strategy, ctx),
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
        BattleCommand::RevealSeed { seed } => reveal_seed(state, seed, ctx),
        BattleCommand::JudgeRoll(roll) => {
            Ok(vec![BattleEvent::JudgeRolled(roll.roll(ctx, "coalition.battle", state.revealed_seed.is_some())?)])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Opening a battle

struct CreateRequest<'a> {
    armies: &'a Sides<ArmySpec>,
    engagement: Engagement,
    terrain: &'a Option<String>,
    strategy_deadline: DateTime<Utc>,
    options: &'a BattleOptions,
    seed_commitment: &'a str,
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
    validate_casualty_formula(&request.options.casualty_formula)?;
    if !is_hex_digest(request.seed_commitment) {
        return Err(RuleError::new(
            "coalition.battle.seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits (sha256 of the server seed)",
            SERVICE_RULES,
        ));
    }
    let mut events = vec![BattleEvent::BattleCreated {
        armies: request.armies.clone(),
        engagement: request.engagement,
        terrain: request.terrain.clone(),
        strategy_deadline: request.strategy_deadline,
        options: request.options.clone(),
        seed_commitment: request.seed_commitment.to_ascii_lowercase(),
    }];
    events.extend(
        SideId::BOTH
            .into_iter()
            .filter(|side| request.armies.get(*side).is_empty())
            .map(|side| BattleEvent::ArmyKilled { side, rule: "seed 003 §4.3.1".to_string() }),
    );
    Ok(events)
}

/// What a battle needs of an army; the full army rules (§2.1–2.2) belong to the campaign.
fn validate_army(side: SideId, army: &ArmySpec) -> Result<(), RuleError> {
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
fn validate_casualty_formula(formula: &CasualtyFormula) -> Result<(), RuleError> {
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
    Ok(vec![BattleEvent::EntropyContributed { by: ctx.actor.id.clone(), entropy: entropy.to_string() }])
}

/// The controller sends the strategy before the deadline (seed 003 §4.1.1); a judge may enter it
/// on their behalf. A later submission before the deadline replaces the earlier one, as the last
/// order counts for movement (seed 003 §3.3.6).
fn submit_strategy(
    state: &BattleState,
    side: SideId,
    strategy: &str,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    if !ctx.actor.is_judge() && !controls(state, side, ctx) {
        return Err(RuleError::forbidden(
            "coalition.battle.not_controller",
            format!("only the controller of side {side}'s army (or a judge) may send its strategy"),
            "seed 003 §5.4.1",
        ));
    }
    require_not_ended(state)?;
    if state.strategy_deadline.is_some_and(|deadline| ctx.recorded_at > deadline) {
        return Err(RuleError::new(
            "coalition.battle.strategy_after_deadline",
            "the strategy deadline has passed",
            "seed 003 §4.1.1",
        ));
    }
    if strategy.trim().is_empty() {
        return Err(RuleError::new("coalition.battle.strategy_empty", "the strategy is empty", "seed 003 §4.1.1"));
    }
    if strategy.chars().count() > MAX_STRATEGY_CHARS {
        return Err(RuleError::new(
            "coalition.battle.strategy_too_long",
            format!("a strategy is limited to {MAX_STRATEGY_CHARS} characters"),
            SERVICE_RULES,
        ));
    }
    Ok(vec![BattleEvent::StrategySubmitted {
        side,
        strategy: strategy.to_string(),
        by: ctx.actor.id.clone(),
        at: ctx.recorded_at,
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
    if state.sides.get(side).strategy.is_none() {
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

/// Determine the winner and casualties (seed 003 §4.2): bonuses, four modified d20 per side,
/// pairs, the tie rule, the stratless rule and the casualty formula.
fn resolve_battle(
    state: &BattleState,
    running_away: Option<SideId>,
    ctx: &mut Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "resolve the battle")?;
    require_not_ended(state)?;
    let armies = armies(state)?;
    let stratless: Vec<SideId> =
        SideId::BOTH.into_iter().filter(|side| state.sides.get(*side).strategy.is_none()).collect();
    let deadline_passed = state.strategy_deadline.is_some_and(|deadline| ctx.recorded_at > deadline);
    if !stratless.is_empty() && !deadline_passed {
        return Err(RuleError::new(
            "coalition.battle.resolve_too_early",
            "a battle is resolved once both strategies are in or the deadline has passed",
            "seed 003 §4.1.1",
        ));
    }
    let strategy = strategy_bonuses(state, &stratless)?;
    let options = &state.options;
    let size = size_bonus(&options.size_formula, &army_sizes(&options.size_formula, &armies));
    let bonuses = Sides::from_fn(|side| SideBonuses {
        strategy: *strategy.get(side),
        size: *size.get(side),
        color: color_bonus(armies.get(side)),
    });
    let modifiers = bonuses.map(|_, bonus| bonus.total());
    let dice = roll_battle_dice(&mut ctx.dice, &modifiers)?;
    let pairs = compare_pairs(&dice);
    let pairs_won = count_pairs_won(&pairs);
    let engagement = state.engagement.unwrap_or(Engagement::NoAttacker);
    let verdict =
        decide_winner(&stratless, &pairs_won, options.tie_rule, engagement, &dice, &modifiers, &mut ctx.dice)?;
    let casualties = battle_casualties(&options.casualty_formula, &armies, &dice, running_away);
    Ok(vec![BattleEvent::BattleResolved {
        bonuses,
        stratless,
        dice,
        pairs,
        pairs_won,
        tie_break: verdict.tie_break,
        decided_by: verdict.decided_by,
        winner: verdict.winner,
        running_away,
        casualties,
        next_word: ctx.dice.next_word(),
    }])
}

/// Each side's strategy bonus at resolution (seed 003 §4.2.1).
///
/// With both strategies in, the judge must have assigned both. A side alone without a strategy
/// gets 0 and its enemy automatically the full +10 (whatever the judge assigned it). With neither
/// strategy, both get 0 and the dice decide.
fn strategy_bonuses(state: &BattleState, stratless: &[SideId]) -> Result<Sides<u8>, RuleError> {
    match stratless {
        [] => {
            let assigned = |side: SideId| {
                state.sides.get(side).strategy_bonus.ok_or_else(|| {
                    RuleError::new(
                        "coalition.battle.strategy_bonus_missing",
                        format!("assign side {side}'s strategy bonus before resolving"),
                        "seed 003 §4.2.1",
                    )
                })
            };
            Ok(Sides { a: assigned(SideId::A)?, b: assigned(SideId::B)? })
        }
        [loser] => Ok(Sides::from_fn(|side| if side == *loser { 0 } else { FULL_STRATEGY_BONUS })),
        _ => Ok(Sides { a: 0, b: 0 }),
    }
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
fn reveal_seed(state: &BattleState, seed_hex: &str, ctx: &Context) -> Result<Vec<BattleEvent>, RuleError> {
    if !matches!(ctx.actor.role, Role::Judge | Role::Admin | Role::System) {
        return Err(RuleError::forbidden(
            "coalition.battle.judge_only",
            "only a judge or the service may reveal the seed",
            SERVICE_RULES,
        ));
    }
    if state.revealed_seed.is_some() {
        return Err(RuleError::new(
            "coalition.battle.seed_already_revealed",
            "the seed has already been revealed",
            SERVICE_RULES,
        ));
    }
    let seed = is_hex_digest(seed_hex).then(|| seed::parse_hex32(seed_hex)).flatten().ok_or_else(|| {
        RuleError::new("coalition.battle.seed_malformed", "a seed is 64 hexadecimal digits", SERVICE_RULES)
    })?;
    let committed = state.seed_commitment.as_deref().and_then(seed::parse_hex32);
    if committed != Some(seed::commitment(&seed)) {
        return Err(RuleError::new(
            "coalition.battle.seed_mismatch",
            "this seed does not match the commitment published when the battle opened",
            SERVICE_RULES,
        ));
    }
    Ok(vec![BattleEvent::SeedRevealed {
        seed: hex::encode(seed),
        effective_seed: hex::encode(seed::effective_seed(&seed, &ctx.stream, &state.contributions)),
    }])
}

// ---------------------------------------------------------------------------------------------
// Shared checks

fn controls(state: &BattleState, side: SideId, ctx: &Context) -> bool {
    state.army(side).is_some_and(|army| ctx.actor.is_player(&army.controller))
}

fn require_judge(actor: &crate::Actor, action: &str) -> Result<(), RuleError> {
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

fn require_not_ended(state: &BattleState) -> Result<(), RuleError> {
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

fn not_found() -> RuleError {
    RuleError::new("coalition.battle.not_found", "there is no battle on this stream yet", SERVICE_RULES)
}

fn already_exists() -> RuleError {
    RuleError::new("coalition.battle.already_exists", "this stream already holds a battle", SERVICE_RULES)
}
