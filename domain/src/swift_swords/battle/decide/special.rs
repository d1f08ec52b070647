//! Special results bought with extra successes (seed 004 "Special Results."): each is applied to
//! the target once the hit's damage is done, if the target is still in action.

use super::{movement, Work};
use crate::{
    swift_swords::{
        battle::{event::SwiftSwordsEvent as E, pending::PendingAttack, state::StateKind},
        damage::SpecialResult,
        figure::{Natural, WeaponKind},
        rolls::RollKind,
    },
    RuleError,
};

/// A DEX roll against a disarm or a broken weapon.
fn dex_roll(work: &mut Work, id: &str, against: &str) -> Result<bool, RuleError> {
    let dex = u32::from(work.figure(id)?.spec.characteristics.dex);
    let roll = work.roll_for(id, RollKind::Dex, dex, 0, &format!("DEX roll of {id} against {against}"), false)?;
    let passed = roll.passed();
    let next_word = work.next_word();
    work.emit(E::Resisted { figure: id.into(), against: against.into(), roll, next_word });
    Ok(passed)
}

fn mark(work: &mut Work, id: &str, armour: u32, hamstrung: bool, reason: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let (defence_limit, swooped) = (figure.defence_limit, figure.swooped);
    work.emit(E::FigureMarked {
        figure: id.into(),
        armour_lost: armour,
        hamstrung,
        defence_limit,
        swooped,
        reason: reason.into(),
    });
    Ok(())
}

/// Apply the special results an attack bought.
pub fn apply(work: &mut Work, attack: &PendingAttack, results: &[SpecialResult]) -> Result<(), RuleError> {
    let id = attack.target.as_str();
    for result in results {
        let target = work.figure(id)?.clone();
        if !target.active() {
            return Ok(());
        }
        let carried = target.spec.weapons.iter().find(|weapon| {
            weapon.natural == Natural::No
                && !target.dropped.contains(&weapon.name)
                && !target.broken.contains(&weapon.name)
        });
        match result {
            SpecialResult::ExtraDamage => {}
            SpecialResult::Disarm => {
                if let Some(weapon) = carried.filter(|weapon| !weapon.strapped).cloned() {
                    if !dex_roll(work, id, "a disarm")? {
                        let mut dropped: Vec<String> = target.dropped.iter().cloned().collect();
                        dropped.push(weapon.name);
                        let broken = target.broken.iter().cloned().collect();
                        work.emit(E::WeaponsChanged { figure: id.into(), dropped, broken, reason: "disarmed".into() });
                    }
                }
            }
            SpecialResult::BreakWeapon => {
                if let Some(weapon) = carried.cloned() {
                    if !dex_roll(work, id, "a broken weapon")? {
                        let dropped = target.dropped.iter().cloned().collect();
                        let mut broken: Vec<String> = target.broken.iter().cloned().collect();
                        broken.push(weapon.name);
                        work.emit(E::WeaponsChanged {
                            figure: id.into(),
                            dropped,
                            broken,
                            reason: "weapon broken".into(),
                        });
                    }
                }
            }
            SpecialResult::LoseActionDie => {
                let mut hand = target.hand.clone();
                let lowest = hand.iter().copied().filter(|face| *face > 1).min().or_else(|| hand.first().copied());
                if let Some(face) = lowest {
                    crate::swift_swords::action_dice::remove(&mut hand, &[face]);
                    work.emit(E::HandChanged { figure: id.into(), hand, reason: "lost an action die".into() });
                }
            }
            SpecialResult::Stun => {
                if !target.spec.stateless && !target.states.contains(&StateKind::Stun) {
                    work.emit(E::StateTaken {
                        figure: id.into(),
                        state: StateKind::Stun,
                        cause: "a special result".into(),
                    });
                }
            }
            SpecialResult::Expose => {
                let (exposures, fumbled) = (target.exposures + 1, target.fumbled);
                work.emit(E::ExposuresChanged {
                    figure: id.into(),
                    exposures,
                    fumbled,
                    reason: "exposed to the next attack".into(),
                });
            }
            SpecialResult::RemoveArmour => {
                if target.armour() > 0 {
                    mark(work, id, target.armour_lost + 1, target.hamstrung, "armour removed")?;
                }
            }
            SpecialResult::MoveOutOfContact => {
                if target.group.is_some() && target.chariot.is_none() {
                    let (zone, cover) = (target.zone.clone(), target.cover.clone());
                    movement::leave_group(work, id, &zone, cover, "moved out of contact by a special result")?;
                }
            }
            SpecialResult::DrawIntoContact => {
                let reach = target.spec.weapons.iter().any(|weapon| weapon.kind == WeaponKind::Reach);
                if reach && !work.state.in_contact(id) && target.zone == work.figure(&attack.attacker)?.zone {
                    movement::join(work, id, &attack.attacker, "drawn into contact")?;
                }
            }
            SpecialResult::KnockDown => {
                if !target.prone {
                    work.emit(E::ProneChanged { figure: id.into(), prone: true, reason: "knocked down".into() });
                }
            }
            SpecialResult::Hamstring => {
                if !target.hamstrung {
                    mark(work, id, target.armour_lost, true, "hamstrung")?;
                }
            }
            SpecialResult::ReduceDefencePool => {
                let (dodge, block) = (target.dodge_pool.saturating_sub(1), target.block_pool.saturating_sub(1));
                if (dodge, block) != (target.dodge_pool, target.block_pool) {
                    work.emit(E::DefencePoolsChanged {
                        figure: id.into(),
                        dodge,
                        block,
                        reason: "defence pool reduced".into(),
                    });
                }
            }
        }
    }
    Ok(())
}
