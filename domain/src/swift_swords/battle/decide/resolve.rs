//! The resolution of an attack (seed 004 "Attacks", "Pools.", "Modifiers ToHit", "InClose
//! Combat", "Cover", "Damage", "Special Results."): the dice counted, a Dodge pool removing
//! attack dice before the roll, the roll with its exposures and fumble, a Parry turning missed
//! dice into exposures, a Block pool meeting the successes, armour, special results and damage;
//! then a Parry's counter-attack and a follow-on. Pools already in front of the target work by
//! themselves.

use super::{
    attack, damage,
    defend::{weapon_of, Response},
    forbid, special, Work,
};
use crate::{
    swift_swords::{
        battle::{
            event::SwiftSwordsEvent as E,
            pending::{AttackPurpose, Pending, PendingAttack},
            record::{AttackRecord, DiceBreakdown, DicePenalty, ParryUse},
            state::{DefenceLimit, Figure, Hold, SwiftSwordsState},
        },
        damage::{self as code, advantage, Advantage, SpecialResult, Tactic},
        defence,
        figure::{WeaponKind, WeaponSpec, Weight},
        formation,
        ranks::RankSide,
        rolls::{self, RollKind},
    },
    RuleError,
};

/// The worst cover between attacker and target (cover does not add up).
fn cover(state: &SwiftSwordsState, attacker: &Figure, target: &Figure, weapon: &WeaponSpec) -> Option<DicePenalty> {
    let mut found: Vec<DicePenalty> = Vec::new();
    let held = target
        .cover
        .as_ref()
        .filter(|cover| attacker.cover.as_ref() != Some(*cover))
        .and_then(|cover| state.map.cover_area(cover));
    if weapon.kind.at_range() {
        if let Some(border) = state.map.border_cover_between(&attacker.zone, &target.zone) {
            found.push(DicePenalty {
                reason: format!("{:?} cover along the border ({})", border.cover, border.name),
                dice: border.cover.penalty(),
            });
        }
        if let Some(area) = held {
            found.push(DicePenalty {
                reason: format!("{:?} cover of {}", area.cover, area.id),
                dice: area.cover.penalty(),
            });
        }
        let aboard = target
            .chariot
            .as_ref()
            .and_then(|chariot| state.chariots.get(chariot))
            .filter(|chariot| chariot.spec.team != target.spec.id);
        if let Some(chariot) = aboard {
            let from_rear = state
                .map
                .direction(&target.zone, &attacker.zone)
                .is_some_and(|towards| chariot.facing.turns_to(towards) >= 3);
            if !from_rear && !chariot.flipped {
                found.push(DicePenalty { reason: format!("light cover of chariot {}", chariot.spec.id), dice: 1 });
            }
        }
    } else if let Some(area) = held.filter(|area| area.shape == crate::swift_swords::zones::CoverShape::Area) {
        found
            .push(DicePenalty { reason: format!("{:?} cover of {}", area.cover, area.id), dice: area.cover.penalty() });
    }
    found.into_iter().max_by_key(|penalty| penalty.dice)
}

/// Count an attack's dice.
fn breakdown(
    work: &Work,
    attack: &PendingAttack,
    attacker: &Figure,
    target: &Figure,
    weapon: &WeaponSpec,
) -> DiceBreakdown {
    let state = &work.state;
    let counter = attack.purpose == AttackPurpose::Counter;
    let mut dice = DiceBreakdown {
        weapon: if counter { 0 } else { u32::from(weapon.dice) },
        formation: if counter { 0 } else { u32::from(formation::bonus_of(attacker.spec.formation.as_ref()).dice) },
        advantage: Advantage::None,
        advantage_dice: 0,
        exposures_picked: if attack.options.use_exposures || counter { target.exposures } else { 0 },
        effort: u32::from(attack.options.effort),
        pool: attack.pool_dice,
        all_out: if attack.tactic == Tactic::AllOut { u32::from(weapon.dice) } else { 0 },
        penalties: Vec::new(),
        total: 0,
        dodged: 0,
        rolled: 0,
        superiority: Vec::new(),
    };
    if weapon.kind == WeaponKind::Melee && !counter {
        if let Some(group) = attacker.group.as_deref() {
            let members = state.group_members(group);
            let friends = members.iter().filter(|member| member.spec.side == attacker.spec.side).count();
            let enemies = members.len() - friends;
            if enemies > 0 {
                dice.advantage = advantage(u32::try_from(friends).unwrap_or(0), u32::try_from(enemies).unwrap_or(0));
                dice.advantage_dice = match dice.advantage {
                    Advantage::None => 0,
                    Advantage::Minor => u32::from(state.options.minor_advantage_dice),
                    Advantage::Major => u32::from(state.options.major_advantage_dice),
                };
            }
        }
    }
    for injury in &attacker.injuries {
        let penalty = crate::swift_swords::injury::penalty(injury.effect, injury.location, RollKind::Attack);
        if penalty > 0 {
            dice.penalties.push(DicePenalty {
                reason: format!("{:?} ({:?})", injury.effect, injury.location).to_lowercase(),
                dice: penalty,
            });
        }
    }
    dice.penalties.extend(cover(state, attacker, target, weapon));
    if weapon.kind.at_range() {
        let distance = state.map.distance(&attacker.zone, &target.zone).unwrap_or(0);
        let beyond = distance.saturating_sub(1) * u32::from(state.options.range_penalty_per_zone);
        if beyond > 0 {
            dice.penalties.push(DicePenalty { reason: format!("range: {distance} zones"), dice: beyond });
        }
        if weapon.kind.missile() && target.flying {
            let speed = target.spec.flight.as_ref().map_or(0, |flight| u32::from(flight.speed));
            dice.penalties.push(DicePenalty { reason: "missile at a flyer: its speed".into(), dice: speed });
        }
    }
    let gross = dice.weapon
        + dice.formation
        + dice.advantage_dice
        + dice.exposures_picked
        + dice.effort
        + dice.pool
        + dice.all_out;
    dice.total = gross.saturating_sub(dice.penalties.iter().map(|penalty| penalty.dice).sum());
    if target.fumbled {
        dice.superiority.push("target fumbled".into());
    }
    if attacker.close_with.contains(&target.spec.id) && weapon.close_superiority() {
        dice.superiority.push("InClose with a light or natural combat weapon".into());
    }
    dice
}

/// Resolve an attack: dodge, roll, fumble and exposures, parry, block, armour, special results,
/// damage; then a parry's counter-attack and a follow-on.
pub fn resolve(work: &mut Work, attack: &PendingAttack, response: Option<&Response>) -> Result<(), RuleError> {
    let none = Response::default();
    let response = response.unwrap_or(&none);
    let attacker = work.figure(&attack.attacker)?.clone();
    let target = work.figure(&attack.target)?.clone();
    let Some(weapon) = weapon_of(&work.state, attack) else {
        return Err(forbid("unknown_weapon", format!("{} has no weapon {}", attack.attacker, attack.weapon)));
    };
    let mut record = AttackRecord {
        attack: attack.id,
        attacker: attack.attacker.clone(),
        target: attack.target.clone(),
        weapon: attack.weapon.clone(),
        purpose: attack.purpose,
        dice: breakdown(work, attack, &attacker, &target, &weapon),
        dodge: None,
        roll: None,
        fumble: false,
        exposures: 0,
        parry: None,
        block: None,
        armour: 0,
        hits: 0,
        special_results: Vec::new(),
        damage: 0,
        severity: None,
        level_zero: false,
    };
    let physical = weapon.kind != WeaponKind::Mental;
    if target.active()
        && target.physical.rank == 0
        && target.spec.formation.is_none()
        && physical
        && attack.purpose != AttackPurpose::Break
    {
        record.level_zero = true;
        let next_word = work.next_word();
        work.emit(E::AttackResolved { record: Box::new(record), next_word });
        work.emit(E::OutOfAction {
            figure: target.spec.id.clone(),
            cause: "level 0: squashed by the mere effort".into(),
        });
        damage::check_battle_end(work);
        return Ok(());
    }
    let counter = attack.purpose == AttackPurpose::Counter;
    let surprised = work.state.surprised(&target.spec.id);
    let guarded = physical && !counter && !surprised;
    let mut dice = record.dice.total;
    if guarded && target.dodge_pool > 0 && target.defence_limit != DefenceLimit::None {
        let used = defence::dodge(target.dodge_pool, dice, weapon.kind == WeaponKind::Fired);
        dice -= used.removed;
        record.dice.dodged = used.removed;
        record.dodge = Some(used);
    }
    record.dice.rolled = dice;
    let bonus = u32::try_from(record.dice.superiority.len()).unwrap_or(0);
    let threshold = rolls::threshold(work.state.options.superiority, bonus);
    let mut successes = 0;
    if dice > 0 {
        let bump = attack.options.bump && work.figure(&attack.attacker)?.has_one();
        let purpose =
            format!("attack {} of {} on {} with {}", attack.id, attack.attacker, attack.target, attack.weapon);
        let roll = rolls::roll(&mut work.ctx.dice, dice, threshold, &purpose, bump)?;
        if roll.bump.is_some() {
            work.emit(E::OneSpent { figure: attack.attacker.clone(), purpose: "+1 to an attack die".into() });
        }
        record.fumble = roll.ones > roll.successes;
        record.exposures = if record.fumble { 0 } else { roll.ones };
        successes = roll.successes;
        if let Some(parry) = &response.parry {
            record.parry =
                Some(ParryUse { roll: parry.clone(), converted: defence::parry(parry.successes, roll.misses()) });
        }
        record.roll = Some(roll);
    }
    if guarded && target.block_pool > 0 && target.defence_limit == DefenceLimit::Any && successes > 0 {
        let device = target.spec.shield.as_ref().map_or(0, |shield| u32::from(shield.block));
        let (reading, rule) = (work.state.options.block_pool, work.state.options.block_outscored);
        let strip = attack
            .options
            .strip_block
            .unwrap_or_else(|| defence::best_strip(reading, target.block_pool, device, successes, rule));
        let used = defence::meet_block(reading, target.block_pool, device, successes, strip, rule);
        successes = used.successes_after;
        record.block = Some(used);
    }
    record.armour = successes.min(target.armour());
    successes -= record.armour;
    let striking = attack.purpose != AttackPurpose::Break && !weapon.grapple;
    if striking && target.active() {
        let cost = u32::from(work.state.options.special_result_cost.max(1));
        for wanted in &attack.options.special_results {
            if successes.saturating_sub(1) >= cost {
                successes -= cost;
                record.special_results.push(*wanted);
            }
        }
    }
    record.hits = successes;
    if striking {
        let extra = record.special_results.iter().filter(|result| **result == SpecialResult::ExtraDamage).count();
        record.damage = code::damage(weapon.damage_weight(), successes) + 2 * u32::try_from(extra).unwrap_or(0);
        let side = if physical { RankSide::Physical } else { RankSide::Mental };
        record.severity =
            Some(code::severity(record.damage, target.ranks(side).total(), weapon.weight == Weight::Massive));
    }
    let next_word = work.next_word();
    work.emit(E::AttackResolved { record: Box::new(record.clone()), next_word });
    after_roll(work, attack, &record, &weapon)?;
    effects(work, attack, &record, &weapon, response)?;
    damage::check_battle_end(work);
    Ok(())
}

/// Exposures, fumbles and pools after the roll.
fn after_roll(
    work: &mut Work,
    attack: &PendingAttack,
    record: &AttackRecord,
    weapon: &WeaponSpec,
) -> Result<(), RuleError> {
    let placed = record.exposures
        + record.dodge.as_ref().map_or(0, |used| used.exposures)
        + record.block.as_ref().map_or(0, |used| used.exposures)
        + record.parry.as_ref().map_or(0, |used| used.converted);
    let attacker = work.figure(&attack.attacker)?;
    let (exposures, fumbled) = (attacker.exposures + placed, attacker.fumbled || record.fumble);
    if (exposures, fumbled) != (attacker.exposures, attacker.fumbled) {
        work.emit(E::ExposuresChanged {
            figure: attack.attacker.clone(),
            exposures,
            fumbled,
            reason: format!("attack {}", attack.id),
        });
    }
    let target = work.figure(&attack.target)?;
    if record.dice.exposures_picked > 0 {
        let (left, fumbled) = (target.exposures.saturating_sub(record.dice.exposures_picked), target.fumbled);
        work.emit(E::ExposuresChanged {
            figure: attack.target.clone(),
            exposures: left,
            fumbled,
            reason: "exposure dice picked up".into(),
        });
    }
    let target = work.figure(&attack.target)?;
    let mut dodge = record.dodge.as_ref().map_or(target.dodge_pool, |used| used.pool_after);
    let mut block = record.block.as_ref().map_or(target.block_pool, |used| used.pool_after);
    if attack.purpose == AttackPurpose::Break {
        let from_dodge = record.hits.min(dodge);
        dodge -= from_dodge;
        block = block.saturating_sub(record.hits - from_dodge);
    }
    if (dodge, block) != (target.dodge_pool, target.block_pool) {
        let reason = if attack.purpose == AttackPurpose::Break { "broken" } else { "a die discarded for the use" };
        work.emit(E::DefencePoolsChanged { figure: attack.target.clone(), dodge, block, reason: reason.into() });
    }
    let attacker = work.figure(&attack.attacker)?;
    if attacker.flying && weapon.kind == WeaponKind::Melee && !attacker.swooped {
        let (armour_lost, hamstrung, defence_limit) =
            (attacker.armour_lost, attacker.hamstrung, attacker.defence_limit);
        work.emit(E::FigureMarked {
            figure: attack.attacker.clone(),
            armour_lost,
            hamstrung,
            defence_limit,
            swooped: true,
            reason: "attacked from the air: open to held attacks until its next action".into(),
        });
    }
    Ok(())
}

/// Holds, damage, special results, the counter and the follow-on.
fn effects(
    work: &mut Work,
    attack: &PendingAttack,
    record: &AttackRecord,
    weapon: &WeaponSpec,
    response: &Response,
) -> Result<(), RuleError> {
    if attack.purpose != AttackPurpose::Break && weapon.grapple {
        if record.hits > 0 && work.figure(&attack.target)?.active() {
            let hold = Hold {
                holder: attack.attacker.clone(),
                victim: attack.target.clone(),
                level: Weight::Light,
                weapon: weapon.name.clone(),
            };
            work.emit(E::HoldChanged {
                victim: attack.target.clone(),
                hold: Some(hold),
                reason: "a successful hold".into(),
            });
        }
    } else if record.damage > 0 {
        let hit = damage::Hit {
            target: &attack.target,
            damage: record.damage,
            side: if weapon.kind == WeaponKind::Mental { RankSide::Mental } else { RankSide::Physical },
            magic: false,
            massive_weapon: weapon.weight == Weight::Massive,
            bane: weapon.bane,
            take_rank: response.take_rank,
            aim: attack.options.aim,
            cause: format!("{}'s {}", attack.attacker, weapon.name),
        };
        damage::apply(work, &hit)?;
    }
    special::apply(work, attack, &record.special_results)?;
    if response.counter && work.figure(&attack.target)?.active() && work.figure(&attack.attacker)?.exposures > 0 {
        counter(work, attack, response)?;
    }
    if attack.tactic == Tactic::FollowOn && !work.figure(&attack.target)?.active() {
        follow_on(work, attack)?;
    }
    Ok(())
}

/// A parrying defender takes all the attacker's exposure dice for an immediate attack.
fn counter(work: &mut Work, attack: &PendingAttack, response: &Response) -> Result<(), RuleError> {
    let defender = work.figure(&attack.target)?.clone();
    let weapon = match &response.counter_weapon {
        Some(name) => attack::weapon_in_hand(work, &defender, name)?,
        None => {
            let usable = defender.spec.weapons.iter().find(|weapon| {
                weapon.kind == WeaponKind::Melee && attack::weapon_in_hand(work, &defender, &weapon.name).is_ok()
            });
            match usable {
                Some(weapon) => weapon.clone(),
                None => return Ok(()),
            }
        }
    };
    let options = crate::swift_swords::battle::pending::AttackOptions::default();
    let order = vec![attack.attacker.clone()];
    let declaration = attack::Declaration {
        attacker: &attack.target,
        weapon: &weapon.name,
        order: &order,
        tactic: Tactic::Normal,
        options: &options,
        pool_dice: 0,
        purpose: AttackPurpose::Counter,
    };
    attack::declare(work, &declaration);
    let declared = match work.state.pending.last() {
        Some(Pending::Attack(declared)) => declared.clone(),
        _ => return Ok(()),
    };
    resolve(work, &declared, None)
}

/// A follow-on's second attack at the opponent named, when the first put its target out.
fn follow_on(work: &mut Work, attack: &PendingAttack) -> Result<(), RuleError> {
    let Some(next) = attack.options.follow_on_target.clone() else { return Ok(()) };
    let attacker = work.figure(&attack.attacker)?.clone();
    let Some(target) = work.state.figure(&next).cloned() else { return Ok(()) };
    let weapon = attack::weapon_in_hand(work, &attacker, &attack.weapon)?;
    let same_group = attacker.group.is_some() && attacker.group == target.group;
    let reachable = weapon.kind.at_range() || weapon.kind == WeaponKind::Reach || same_group;
    if target.active() && work.state.enemies(&attack.attacker, &next) && reachable && attacker.active() {
        let mut options = attack.options.clone();
        options.effort = false;
        options.from_pool = false;
        options.follow_on_target = None;
        let order = vec![next];
        let declaration = attack::Declaration {
            attacker: &attack.attacker,
            weapon: &attack.weapon,
            order: &order,
            tactic: Tactic::Normal,
            options: &options,
            pool_dice: 0,
            purpose: AttackPurpose::FollowOn,
        };
        attack::declare(work, &declaration);
    }
    Ok(())
}
