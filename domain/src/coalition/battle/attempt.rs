//! Kill and capture attempts (seed 003 §4.3.2–4.3.4, §4.5): declared in a strategy, settled after
//! the battle's damage by "another pair of rolls" under the battle's [`KillFormula`].
//!
//! - A kill risks 500 troops of the army's largest slot — the slot of its top-rank (largest)
//!   creatures, as §4.5 says "lacks 500 top rank" — and is refused with fewer there (§4.3.2).
//! - A capture risks 2000 of the army's lowest-rank troops and can only be aimed at a
//!   Lieutenant/Centurion or Lt Cmdr/CPL army (§4.5).
//! - The risked troops sit out the battle; the attempt needs the battle won; the pair of rolls
//!   then decides it; a failed attempt, or a lost battle, kills the risked troops unless the
//!   spare die saves them (§4.3.3). Raiders are Hellbent and never lose them (§6.3.2).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{KillFormula, SideId};
use crate::{
    coalition::{
        army::{ArmySpec, RankClass, Team},
        setup::MercenaryFaction,
    },
    dice::{DiceTape, Draw},
    RuleError,
};

/// Troops a kill attempt risks (seed 003 §4.3.2).
pub const KILL_SQUAD: u32 = 500;

/// Troops a capture attempt risks (seed 003 §4.5).
pub const CAPTURE_SQUAD: u32 = 2000;

/// What an army attempts once it wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttemptKind {
    /// Kill the enemy commander (seed 003 §4.3.2).
    Kill,
    /// Capture the enemy army (seed 003 §4.5).
    Capture,
}

/// A kill or capture attempt declared in a battle strategy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"kind": "kill"}))]
pub struct Attempt {
    /// Kill or capture.
    pub kind: AttemptKind,
    /// The enemy army aimed at; needed only when two enemy armies fight (seed 003 §4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttemptOutcome {
    /// The enemy army is killed (and leaves the map) or captured.
    Succeeded,
    /// The pair of rolls went against the attacker.
    Failed,
    /// The attacker lost the battle, so there was no second step (seed 003 §4.3.3).
    BattleLost,
    /// The attempt could not go ahead (its squad was no longer there, or its target was already
    /// taken); the risked troops rejoin the army.
    Void,
}

/// One die of the pair and what was added to it (the modifiers are the judge's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AttemptRoll {
    /// The d20 as drawn.
    pub draw: Draw,
    /// What the formula added to it.
    pub modifier: u32,
    /// Face plus modifier.
    pub total: u32,
}

/// A kill or capture attempt, settled (events `coalition.KillAttempted`,
/// `coalition.CaptureAttempted`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AttemptResolved {
    /// Kill or capture.
    pub kind: AttemptKind,
    /// The attacking army.
    pub army: String,
    /// Its side.
    pub side: SideId,
    /// The enemy army aimed at.
    pub target: String,
    /// Troops risked per slot of the attacking army; they sat out the battle.
    pub risked: Vec<u32>,
    /// How it ended.
    pub outcome: AttemptOutcome,
    /// Why, in words (no numbers of the secret formula).
    pub reason: String,
    /// The attacker's die of the pair (judges see the modifier and total).
    pub attacker_roll: Option<AttemptRoll>,
    /// The target's die of the pair.
    pub target_roll: Option<AttemptRoll>,
    /// The die that spared the risked troops of a failed attempt, if one was rolled.
    pub spare: Option<Draw>,
    /// Risked troops killed, per slot of the attacking army.
    pub risked_lost: Vec<u32>,
    /// A Raider keeps its squad after a failed attempt (seed 003 §6.3.2).
    pub hellbent: bool,
    /// The tape's next word after this attempt's draws.
    pub next_word: u64,
}

/// A rank key per slot: the campaign's rank slot when every slot has one, else power plus
/// toughness (a standalone battle's armies).
fn rank_keys(army: &ArmySpec) -> Vec<u32> {
    if army.slots.iter().all(|slot| slot.slot.is_some()) {
        army.slots.iter().map(|slot| u32::from(slot.slot.unwrap_or(0))).collect()
    } else {
        army.slots.iter().map(|slot| slot.power.saturating_add(slot.toughness)).collect()
    }
}

/// The slots of the army's top rank (its largest creatures), seed 003 §4.3.2, §4.3.4.
pub fn top_rank(army: &ArmySpec) -> Vec<usize> {
    let keys = rank_keys(army);
    let top = keys.iter().copied().max();
    keys.iter().enumerate().filter(|(_, key)| Some(**key) == top).map(|(index, _)| index).collect()
}

/// The slots of the army's lowest rank (its smallest creatures), seed 003 §4.5.
pub fn lowest_rank(army: &ArmySpec) -> Vec<usize> {
    let keys = rank_keys(army);
    let lowest = keys.iter().copied().min();
    keys.iter().enumerate().filter(|(_, key)| Some(**key) == lowest).map(|(index, _)| index).collect()
}

/// Troops of `army` in `slots`, given its troops per slot.
pub fn troops_in(troops: &[u32], slots: &[usize]) -> u32 {
    slots.iter().fold(0u32, |sum, index| sum.saturating_add(troops.get(*index).copied().unwrap_or(0)))
}

/// The troops an attempt risks, per slot, taken from the rank's slots in order; refused when the
/// rank holds too few (seed 003 §4.3.2, §4.5).
pub fn squad(army: &ArmySpec, kind: AttemptKind) -> Result<Vec<u32>, RuleError> {
    let (slots, wanted, code, rule, rank) = match kind {
        AttemptKind::Kill => (top_rank(army), KILL_SQUAD, "kill_needs_500", "seed 003 §4.3.2", "largest slot"),
        AttemptKind::Capture => {
            (lowest_rank(army), CAPTURE_SQUAD, "capture_needs_2000", "seed 003 §4.5", "lowest-rank troops")
        }
    };
    let troops: Vec<u32> = army.slots.iter().map(|slot| slot.troops).collect();
    let available = troops_in(&troops, &slots);
    if available < wanted {
        return Err(RuleError::new(
            format!("coalition.battle.{code}"),
            format!("{} has {available} troops in its {rank}; the attempt risks {wanted}", army.name),
            rule,
        ));
    }
    let mut risked = vec![0; army.slots.len()];
    let mut left = wanted;
    for index in slots {
        let take = left.min(troops.get(index).copied().unwrap_or(0));
        if let Some(slot) = risked.get_mut(index) {
            *slot = take;
        }
        left -= take;
    }
    Ok(risked)
}

/// Whether `attacker` may aim `kind` at `target` (seed 003 §4.5: captures only of
/// Lieutenant/Centurion and Lt Cmdr/CPL armies; Herald's reading: mercenaries, who hold no bases,
/// never capture).
pub fn check_target(attacker: &ArmySpec, target: &ArmySpec, kind: AttemptKind) -> Result<(), RuleError> {
    if kind == AttemptKind::Capture {
        if !matches!(target.rank, RankClass::CenturionLieutenant | RankClass::CplLtCommander) {
            return Err(RuleError::new(
                "coalition.battle.capture_rank",
                format!(
                    "{} is above Lt Cmdr/CPL; only Lieutenant/Centurion and Lt Cmdr/CPL armies can be captured",
                    target.name
                ),
                "seed 003 §4.5",
            ));
        }
        if attacker.team == Team::Mercenary {
            return Err(RuleError::new(
                "coalition.battle.capture_by_mercenary",
                "mercenaries hold no bases or towns to take a captured army to; they may only kill",
                "seed 003 §4.5, ch. 6",
            ));
        }
    }
    squad(attacker, kind).map(|_| ())
}

/// The attacking army after the battle, as the second step sees it.
#[derive(Debug, Clone, Copy)]
pub struct AttackerAfter<'a> {
    /// The army as it entered (squad included).
    pub army: &'a ArmySpec,
    /// Its side.
    pub side: SideId,
    /// Troops risked per slot.
    pub risked: &'a [u32],
    /// Battle casualties per slot (of the troops that fought).
    pub losses: &'a [u32],
    /// Whether its side won the battle.
    pub won: bool,
}

/// The target after the battle.
#[derive(Debug, Clone, Copy)]
pub struct TargetAfter<'a> {
    /// The army as it entered.
    pub army: &'a ArmySpec,
    /// Troops it fought with per slot (its own squad, if it risked one, sat out).
    pub fought: &'a [u32],
    /// Battle casualties per slot.
    pub losses: &'a [u32],
}

fn after(troops: &[u32], losses: &[u32]) -> Vec<u32> {
    troops.iter().enumerate().map(|(i, t)| t.saturating_sub(losses.get(i).copied().unwrap_or(0))).collect()
}

/// Settle one attempt: the pair of rolls when the battle was won, then the spare die for a
/// failed attempt's troops (seed 003 §4.3.3–4.3.4, §4.5, §6.3.2).
pub fn resolve(
    formula: &KillFormula,
    kind: AttemptKind,
    attacker: AttackerAfter<'_>,
    target: TargetAfter<'_>,
    tape: &mut DiceTape,
) -> Result<AttemptResolved, RuleError> {
    let name = attacker.army.name.clone();
    let hellbent = attacker.army.mercenary == Some(MercenaryFaction::Raider);
    let what = match kind {
        AttemptKind::Kill => "kill",
        AttemptKind::Capture => "capture",
    };
    let mut resolved = AttemptResolved {
        kind,
        army: name.clone(),
        side: attacker.side,
        target: target.army.name.clone(),
        risked: attacker.risked.to_vec(),
        outcome: AttemptOutcome::BattleLost,
        reason: format!("{name} lost the battle, so the {what} could not be made (seed 003 §4.3.3)"),
        attacker_roll: None,
        target_roll: None,
        spare: None,
        risked_lost: vec![0; attacker.risked.len()],
        hellbent,
        next_word: 0,
    };
    if attacker.won {
        let entered: Vec<u32> = attacker.army.slots.iter().map(|slot| slot.troops).collect();
        let attacker_left = after(&entered, attacker.losses);
        let target_left = after(target.fought, target.losses);
        let top_left = |army: &ArmySpec, left: &[u32]| troops_in(left, &top_rank(army));
        let overkill = top_left(attacker.army, &attacker_left) > top_left(target.army, &target_left);
        let fought: u64 = target.fought.iter().map(|t| u64::from(*t)).sum();
        let lost: u64 = target.losses.iter().map(|t| u64::from(*t)).sum();
        let lost_tenths = lost.saturating_mul(1000).checked_div(fought).unwrap_or(1000);
        let damage = u32::try_from(lost_tenths / u64::from(formula.damage_step.max(1)))
            .unwrap_or(u32::MAX)
            .min(formula.max_damage_bonus);
        let attack_modifier = damage.saturating_add(if overkill { formula.overkill } else { 0 });
        let defence = formula.defence.saturating_add(match kind {
            AttemptKind::Kill => 0,
            AttemptKind::Capture => formula.capture_penalty,
        });
        let roll = |tape: &mut DiceTape, modifier: u32, purpose: String| -> Result<AttemptRoll, RuleError> {
            let draw = tape.roll(20, purpose)?;
            let total = draw.value.saturating_add(modifier);
            Ok(AttemptRoll { draw, modifier, total })
        };
        let mine = roll(tape, attack_modifier, format!("{what} attempt by {name}: {name}'s die"))?;
        let theirs = roll(tape, defence, format!("{what} attempt by {name}: {}'s die", target.army.name))?;
        let succeeded = mine.total > theirs.total;
        resolved.outcome = if succeeded { AttemptOutcome::Succeeded } else { AttemptOutcome::Failed };
        resolved.reason = if succeeded {
            format!("{name}'s {what} of {} succeeded on the judge's pair of rolls (seed 003 §4.3.3)", target.army.name)
        } else {
            format!("{name}'s {what} of {} failed on the judge's pair of rolls (seed 003 §4.3.3)", target.army.name)
        };
        resolved.attacker_roll = Some(mine);
        resolved.target_roll = Some(theirs);
        if succeeded {
            resolved.next_word = tape.next_word();
            return Ok(resolved);
        }
    }
    if hellbent {
        resolved.reason.push_str("; a Raider is Hellbent and keeps its squad (seed 003 §6.3.2)");
    } else {
        let spare = tape.roll(20, format!("{what} attempt by {name}: are the risked troops spared?"))?;
        let spared = spare.value > 20u32.saturating_sub(formula.spare);
        if spared {
            resolved.reason.push_str("; the risked troops got away (seed 003 §4.3.3)");
        } else {
            resolved.risked_lost = attacker.risked.to_vec();
            resolved.reason.push_str("; the risked troops are killed (seed 003 §4.3.3)");
        }
        resolved.spare = Some(spare);
    }
    resolved.next_word = tape.next_word();
    Ok(resolved)
}

/// An attempt that could not go ahead: its squad rejoins the army untouched.
pub fn void(
    kind: AttemptKind,
    army: &ArmySpec,
    side: SideId,
    target: &str,
    reason: String,
    next_word: u64,
) -> AttemptResolved {
    AttemptResolved {
        kind,
        army: army.name.clone(),
        side,
        target: target.to_string(),
        risked: vec![0; army.slots.len()],
        outcome: AttemptOutcome::Void,
        reason,
        attacker_roll: None,
        target_roll: None,
        spare: None,
        risked_lost: vec![0; army.slots.len()],
        hellbent: army.mercenary == Some(MercenaryFaction::Raider),
        next_word,
    }
}
