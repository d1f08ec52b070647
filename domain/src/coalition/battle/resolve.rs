//! Resolving a battle (seed 003 §4.2–4.5): bonuses, four modified d20 per side, pairs, winner,
//! casualties, then the kill and capture attempts of the strategies that risked troops.
//!
//! A 1v1 battle is recorded as `coalition.BattleResolved`, a 2v1 or 2v2 battle as
//! `coalition.JointBattleResolved` (seed 003 §4.4); either is followed by one
//! `coalition.KillAttempted` or `coalition.CaptureAttempted` per attempt, side a's first.

use super::{
    attempt::{self, AttackerAfter, Attempt, AttemptKind, AttemptResolved, TargetAfter},
    bonus::{army_size, color_bonus, size_bonus, FULL_STRATEGY_BONUS},
    casualties::battle_rates,
    command::Engagement,
    event::{Casualties, SideBonuses},
    joint::{joint_rate, side_casualties, ArmyCasualties, JointResolution},
    roll::{compare_pairs, count_pairs_won, decide_winner, roll_battle_dice},
    BattleEvent, BattleState, SideId, Sides,
};
use crate::{coalition::army::ArmySpec, Context, RuleError};

/// One army as it goes into the dice.
struct Fighter {
    side: SideId,
    entered: ArmySpec,
    fighting: ArmySpec,
    participates: bool,
    attempt: Option<(Attempt, Result<Vec<u32>, RuleError>)>,
}

/// Every army of the battle, side a first, each side's first army first.
fn fighters(state: &BattleState) -> Vec<Fighter> {
    let mut all = Vec::new();
    for side in SideId::BOTH {
        let side_state = state.sides.get(side);
        let stratless = !side_state.has_strategy();
        let mut armies = Vec::new();
        if let Some(army) = &side_state.army {
            armies.push((army, side_state.counting_strategy()));
        }
        if let Some(partner) = &side_state.partner {
            armies.push((&partner.army, partner.strategies.counting()));
        }
        for (army, strategy) in armies {
            let participates = stratless || strategy.is_some();
            let declared = strategy.and_then(|s| s.attempt.clone()).filter(|_| participates);
            let attempt = declared.map(|declared| {
                let risked = target_of(state, side, &declared)
                    .and_then(|target| attempt::check_target(army, target, declared.kind))
                    .and_then(|()| attempt::squad(army, declared.kind));
                (declared, risked)
            });
            let mut fighting = army.clone();
            if let Some((_, Ok(risked))) = &attempt {
                for (slot, out) in fighting.slots.iter_mut().zip(risked) {
                    slot.troops = slot.troops.saturating_sub(*out);
                }
            }
            all.push(Fighter { side, entered: army.clone(), fighting, participates, attempt });
        }
    }
    all
}

/// The enemy army an attempt is aimed at: the one named, or the only enemy taking part.
pub fn target_of<'a>(state: &'a BattleState, side: SideId, attempt: &Attempt) -> Result<&'a ArmySpec, RuleError> {
    let enemies = state.sides.get(side.other()).armies();
    match &attempt.target {
        Some(name) => enemies.into_iter().find(|army| &army.name == name).ok_or_else(|| {
            RuleError::new(
                "coalition.battle.attempt_target_unknown",
                format!("{name} does not fight on the other side of this battle"),
                "seed 003 §4.3.2",
            )
        }),
        None => match enemies.as_slice() {
            [only] => Ok(only),
            _ => Err(RuleError::new(
                "coalition.battle.attempt_target_required",
                "two enemy armies fight here: name the one the attempt is aimed at",
                "seed 003 §4.4",
            )),
        },
    }
}

/// Each side's strategy bonus (seed 003 §4.2.1): with a strategy on both sides both must be
/// assigned; a side alone without one gets 0 and its enemy the full +10; both without, 0 each.
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

/// One army standing for a side's participating armies together, for the color bonus.
fn combined(fighters: &[&Fighter]) -> ArmySpec {
    let mut army = fighters.first().map(|f| f.fighting.clone()).unwrap_or_else(|| ArmySpec {
        name: String::new(),
        team: crate::coalition::army::Team::Mercenary,
        rank: crate::coalition::army::RankClass::CenturionLieutenant,
        controller: String::new(),
        slots: Vec::new(),
        contingency: None,
        mercenary: None,
    });
    for other in fighters.iter().skip(1) {
        army.slots.extend(other.fighting.slots.iter().cloned());
    }
    army
}

/// Decide the battle (seed 003 §4.2, §4.4) and its attempts (§4.3, §4.5).
pub fn resolve(
    state: &BattleState,
    running_away: Option<SideId>,
    ctx: &mut Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    let stratless: Vec<SideId> =
        SideId::BOTH.into_iter().filter(|side| !state.sides.get(*side).has_strategy()).collect();
    let all = fighters(state);
    let joint = state.is_joint();
    let on = |side: SideId| all.iter().filter(|f| f.side == side && f.participates).collect::<Vec<_>>();
    let alone: Vec<SideId> = SideId::BOTH
        .into_iter()
        .filter(|side| !stratless.contains(side) && all.iter().filter(|f| f.side == *side).count() > on(*side).len())
        .collect();
    let formula = &state.options.joint_formula;
    let mut strategy = strategy_bonuses(state, &stratless)?;
    if let Some(runner) = running_away.filter(|runner| joint && alone.contains(runner)) {
        // Covering a stratless partner's retreat costs a retreat-themed strategy (seed 003 §4.4).
        let bonus = strategy.get_mut(runner);
        *bonus = bonus.saturating_sub(formula.retreat_penalty);
    }
    let size_formula = if joint { formula.size_formula } else { state.options.size_formula };
    let sizes = Sides::from_fn(|side| {
        on(side).iter().fold(0u64, |sum, f| sum.saturating_add(army_size(&f.fighting, size_formula.weighting)))
    });
    let size = size_bonus(&size_formula, &sizes);
    let bonuses = Sides::from_fn(|side| SideBonuses {
        strategy: *strategy.get(side),
        size: *size.get(side),
        color: color_bonus(&combined(&on(side))),
    });
    let modifiers = bonuses.map(|_, bonus| bonus.total());
    let dice = roll_battle_dice(&mut ctx.dice, &modifiers)?;
    let pairs = compare_pairs(&dice);
    let pairs_won = count_pairs_won(&pairs);
    let engagement = state.engagement.unwrap_or(Engagement::NoAttacker);
    let verdict =
        decide_winner(&stratless, &pairs_won, state.options.tie_rule, engagement, &dice, &modifiers, &mut ctx.dice)?;
    let mut rates = battle_rates(&state.options.casualty_formula, &dice, running_away);
    if joint {
        rates = rates.map(|_, rate| joint_rate(*rate, formula.casualty_percent));
    }
    let mut losses: Vec<(Casualties, Option<u32>)> = Vec::new();
    for side in SideId::BOTH {
        let of_side: Vec<&Fighter> = all.iter().filter(|f| f.side == side).collect();
        let fighting: Vec<&ArmySpec> = of_side.iter().map(|f| &f.fighting).collect();
        let participates: Vec<bool> = of_side.iter().map(|f| f.participates).collect();
        losses.extend(side_casualties(&fighting, &participates, *rates.get(side), &state.sides.get(side).involvement));
    }
    let next_word = ctx.dice.next_word();
    let mut events = vec![if joint {
        let winners = state.sides.get(verdict.winner);
        let departure = winners.counting_strategy().and_then(|s| s.departure.clone()).or_else(|| {
            winners.partner.as_ref().and_then(|p| p.strategies.counting()).and_then(|s| s.departure.clone())
        });
        BattleEvent::JointBattleResolved(JointResolution {
            bonuses,
            stratless: stratless.clone(),
            alone,
            withdrawn: all.iter().filter(|f| !f.participates).map(|f| f.entered.name.clone()).collect(),
            dice,
            pairs,
            pairs_won,
            tie_break: verdict.tie_break,
            decided_by: verdict.decided_by,
            winner: verdict.winner,
            running_away,
            armies: all
                .iter()
                .zip(&losses)
                .map(|(f, (casualties, share))| ArmyCasualties {
                    army: f.entered.name.clone(),
                    side: f.side,
                    participated: f.participates,
                    share_percent: *share,
                    casualties: casualties.clone(),
                })
                .collect(),
            departure,
            next_word,
        })
    } else {
        let casualty = |side: SideId| {
            all.iter().zip(&losses).find(|(f, _)| f.side == side).map(|(_, (c, _))| c.clone()).unwrap_or_default()
        };
        BattleEvent::BattleResolved {
            bonuses,
            stratless,
            dice,
            pairs,
            pairs_won,
            tie_break: verdict.tie_break,
            decided_by: verdict.decided_by,
            winner: verdict.winner,
            running_away,
            casualties: Sides { a: casualty(SideId::A), b: casualty(SideId::B) },
            next_word,
        }
    }];
    events.extend(attempts(state, &all, &losses, verdict.winner, ctx)?);
    Ok(events)
}

/// Settle every declared attempt, side a's first; a target already killed or captured by an
/// earlier attempt makes a later one void.
fn attempts(
    state: &BattleState,
    all: &[Fighter],
    losses: &[(Casualties, Option<u32>)],
    winner: SideId,
    ctx: &mut Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    let mut taken: Vec<String> = Vec::new();
    let mut events = Vec::new();
    for (fighter, _) in all.iter().zip(losses) {
        let Some((declared, risked)) = &fighter.attempt else { continue };
        let target_name = target_of(state, fighter.side, declared).map(|t| t.name.clone()).unwrap_or_default();
        let resolved: AttemptResolved = match risked {
            Err(refusal) => attempt::void(
                declared.kind,
                &fighter.entered,
                fighter.side,
                &target_name,
                format!("the attempt could not go ahead: {}", refusal.message),
                ctx.dice.next_word(),
            ),
            Ok(_)
                if taken.contains(&target_name)
                    || !all.iter().any(|f| f.entered.name == target_name && f.participates) =>
            {
                let why = if taken.contains(&target_name) {
                    "was already taken by an earlier attempt"
                } else {
                    "did not take part in the battle"
                };
                let mut void = attempt::void(
                    declared.kind,
                    &fighter.entered,
                    fighter.side,
                    &target_name,
                    format!("{target_name} {why}; the risked troops rejoin the army"),
                    ctx.dice.next_word(),
                );
                void.risked = risked.clone().unwrap_or_default();
                void
            }
            Ok(risked) => {
                let target_index = all.iter().position(|f| f.entered.name == target_name);
                let (Some(target), Some((target_losses, _))) =
                    (target_index.and_then(|i| all.get(i)), target_index.and_then(|i| losses.get(i)))
                else {
                    continue;
                };
                let own = all.iter().position(|f| std::ptr::eq(f, fighter)).and_then(|i| losses.get(i));
                let own_losses = own.map(|(c, _)| c.losses.clone()).unwrap_or_default();
                let fought: Vec<u32> = target.fighting.slots.iter().map(|slot| slot.troops).collect();
                let won = fighter.side == winner;
                attempt::resolve(
                    &state.options.kill_formula,
                    declared.kind,
                    AttackerAfter { army: &fighter.entered, side: fighter.side, risked, losses: &own_losses, won },
                    TargetAfter { army: &target.entered, fought: &fought, losses: &target_losses.losses },
                    &mut ctx.dice,
                )?
            }
        };
        if resolved.outcome == attempt::AttemptOutcome::Succeeded {
            taken.push(resolved.target.clone());
        }
        events.push(match declared.kind {
            AttemptKind::Kill => BattleEvent::KillAttempted(resolved),
            AttemptKind::Capture => BattleEvent::CaptureAttempted(resolved),
        });
    }
    Ok(events)
}
