//! Resolving an attack once its targets have reacted (seed 001 "Reacting to an attack"): dodges
//! that passed miss, the damage dice and a counter's are rolled at the same time, whoever
//! suffers more after reductions is hit first (a tie hits both), and a non-lethal attack is
//! resolved after a normal one (seed 001 "Non-lethal attacks"). A damaged weapon that rolled a
//! 1 breaks (seed 001 "Combat gear degradation").

use super::{
    damage::{hit_outcome, size_scaling},
    nonlethal,
    rolls::{attack_rolls, break_damaged, damage_against},
    Decision,
};
use crate::{
    zone_rpg::{
        character::gear::WeaponSpec,
        command::{Manoeuvre, ReactionChoice},
        event::{AttackForm, ZoneRpgEvent},
        outcome::{DamageRoll, Exchange},
        state::{
            character::CharacterState,
            pending::{PendingAttack, PendingTarget},
        },
    },
    RuleError,
};

/// A counter that hits: who, and with what.
struct Counter {
    character: CharacterState,
    weapon: Option<WeaponSpec>,
    impaired: bool,
    manoeuvre: Option<Manoeuvre>,
}

fn counter_of(d: &Decision, pending: &PendingAttack) -> Option<Counter> {
    let entry = pending.counter()?;
    if entry.counter_hits != Some(true) {
        return None;
    }
    let Some(ReactionChoice::Counter { weapon, impaired, manoeuvre }) = &entry.reaction else { return None };
    let character = d.state.character(&entry.target.character)?.clone();
    let weapon = weapon.as_deref().and_then(|name| character.weapon(name)).map(|w| w.weapon.clone());
    let impaired = *impaired || weapon.is_none() || character.riding.is_some();
    Some(Counter { character, weapon, impaired, manoeuvre: manoeuvre.clone() })
}

fn dodged(target: &PendingTarget) -> bool {
    matches!(target.reaction, Some(ReactionChoice::Dodge {})) && target.save.as_ref().is_some_and(|s| s.passed)
}

/// Resolve the pending attack.
pub fn resolve(d: &mut Decision) -> Result<(), RuleError> {
    let Some(pending) = d.state.pending_attack.clone() else { return Ok(()) };
    let Some(attacker) = d.state.character(&pending.attacker).cloned() else { return Ok(()) };
    let dodgers: Vec<String> =
        pending.targets.iter().filter(|t| dodged(t)).map(|t| t.target.character.clone()).collect();
    let struck: Vec<PendingTarget> = pending.targets.iter().filter(|t| !dodged(t)).cloned().collect();
    let counter = counter_of(d, &pending);
    match &pending.form {
        AttackForm::DeathBlow {} => {
            let next_word = d.next_word();
            d.emit(resolved(&pending, Vec::new(), dodgers, None, true, None, next_word));
            for target in struck {
                d.emit(ZoneRpgEvent::DeathBlowDelivered {
                    attack: pending.attack,
                    attacker: attacker.id().to_string(),
                    character: target.target.character.clone(),
                });
                d.release_if_down(&target.target.character);
            }
            Ok(())
        }
        AttackForm::Damage {} => damage_exchange(d, &pending, &attacker, &struck, dodgers, counter),
        AttackForm::NonLethal { manoeuvre } => {
            non_lethal_exchange(d, &pending, &attacker, &struck, dodgers, counter, manoeuvre)
        }
    }
}

fn resolved(
    pending: &PendingAttack,
    rolls: Vec<DamageRoll>,
    dodged: Vec<String>,
    exchange: Option<Exchange>,
    landed: bool,
    counter_landed: Option<bool>,
    next_word: u64,
) -> ZoneRpgEvent {
    ZoneRpgEvent::AttackResolved {
        attack: pending.attack,
        attacker: pending.attacker.clone(),
        rolls,
        dodged,
        exchange,
        landed,
        counter_landed,
        next_word,
    }
}

fn damage_exchange(
    d: &mut Decision,
    pending: &PendingAttack,
    attacker: &CharacterState,
    struck: &[PendingTarget],
    dodged: Vec<String>,
    counter: Option<Counter>,
) -> Result<(), RuleError> {
    let (recorded, rolls) = attack_rolls(d, pending, attacker, struck)?;
    let counter_roll = match &counter {
        Some(counter) if counter.manoeuvre.is_none() => {
            let (dice, _) = size_scaling(counter.character.spec.size, attacker.spec.size, false);
            let damage =
                damage_against(d, &counter.character, attacker, counter.weapon.as_ref(), counter.impaired, dice);
            Some(d.roll_damage(&damage)?)
        }
        _ => None,
    };
    let reading = d.state.options.critical_damage;
    let (exchange, landed, counter_landed) = match (&counter, &counter_roll) {
        (Some(counter), Some(counter_roll)) => {
            let against_counterer = rolls.iter().find(|r| r.against == counter.character.id());
            let counterer_suffers = against_counterer.map_or(0, |r| r.suffered);
            let attacker_suffers = counter_roll.suffered;
            if counterer_suffers > attacker_suffers {
                let downed = hit_outcome(reading, &counter.character, counterer_suffers).downs(&counter.character);
                (Some(Exchange::AttackFirst), true, Some(!downed))
            } else if attacker_suffers > counterer_suffers {
                let downed = hit_outcome(reading, attacker, attacker_suffers).downs(attacker);
                (Some(Exchange::CounterFirst), !downed, Some(true))
            } else {
                (Some(Exchange::Together), true, Some(true))
            }
        }
        // A non-lethal counter is resolved last (seed 001 "Non-lethal attacks").
        (Some(counter), None) => {
            let suffered = rolls.iter().find(|r| r.against == counter.character.id()).map_or(0, |r| r.suffered);
            let downed = hit_outcome(reading, &counter.character, suffered).downs(&counter.character);
            (Some(Exchange::AttackFirst), true, Some(!downed))
        }
        _ => (None, true, pending.counter().map(|_| false)),
    };
    let mut all = recorded.clone();
    all.extend(counter_roll.clone());
    let next_word = d.next_word();
    d.emit(resolved(pending, all, dodged, exchange, landed, counter_landed, next_word));
    let attack = Some(pending.attack);
    if exchange == Some(Exchange::CounterFirst) {
        if let Some(roll) = &counter_roll {
            d.hit(roll, attack, false);
        }
    }
    if landed {
        for roll in &rolls {
            d.hit(roll, attack, pending.blast);
        }
    }
    if counter_landed == Some(true) && exchange != Some(Exchange::CounterFirst) {
        if let Some(roll) = &counter_roll {
            d.hit(roll, attack, false);
        } else if let Some(Counter { character, manoeuvre: Some(manoeuvre), .. }) = &counter {
            nonlethal::resolve(d, pending.attack, character.id(), attacker.id(), manoeuvre)?;
        }
    }
    break_damaged(d, attacker, pending.weapon.as_deref(), &recorded);
    if let (Some(counter), Some(roll)) = (&counter, &counter_roll) {
        break_damaged(
            d,
            &counter.character,
            counter.weapon.as_ref().map(|w| w.name.as_str()),
            std::slice::from_ref(roll),
        );
    }
    Ok(())
}

fn non_lethal_exchange(
    d: &mut Decision,
    pending: &PendingAttack,
    attacker: &CharacterState,
    struck: &[PendingTarget],
    dodged: Vec<String>,
    counter: Option<Counter>,
    manoeuvre: &Manoeuvre,
) -> Result<(), RuleError> {
    let target = struck.first().map(|t| t.target.character.clone());
    let attack = pending.attack;
    match counter {
        // A normal counter is resolved first; the non-lethal attack follows if the attacker is
        // still standing (seed 001 "Non-lethal attacks": "Since Theobald is still standing").
        Some(counter) if counter.manoeuvre.is_none() => {
            let (dice, _) = size_scaling(counter.character.spec.size, attacker.spec.size, false);
            let damage =
                damage_against(d, &counter.character, attacker, counter.weapon.as_ref(), counter.impaired, dice);
            let roll = d.roll_damage(&damage)?;
            let downed = hit_outcome(d.state.options.critical_damage, attacker, roll.suffered).downs(attacker);
            let next_word = d.next_word();
            d.emit(resolved(
                pending,
                vec![roll.clone()],
                dodged,
                Some(Exchange::CounterFirst),
                !downed,
                Some(true),
                next_word,
            ));
            d.hit(&roll, Some(attack), false);
            if let (false, Some(target)) = (downed, &target) {
                nonlethal::resolve(d, attack, attacker.id(), target, manoeuvre)?;
            }
            break_damaged(d, &counter.character, counter.weapon.as_ref().map(|w| w.name.as_str()), &[roll]);
        }
        // A non-lethal counter to a non-lethal attack is resolved last.
        Some(counter) => {
            let next_word = d.next_word();
            d.emit(resolved(pending, Vec::new(), dodged, Some(Exchange::AttackFirst), true, Some(true), next_word));
            if let Some(target) = &target {
                nonlethal::resolve(d, attack, attacker.id(), target, manoeuvre)?;
            }
            if let Some(counter_manoeuvre) = &counter.manoeuvre {
                nonlethal::resolve(d, attack, counter.character.id(), attacker.id(), counter_manoeuvre)?;
            }
        }
        None => {
            let next_word = d.next_word();
            let countered = pending.counter().map(|_| false);
            d.emit(resolved(pending, Vec::new(), dodged, None, target.is_some(), countered, next_word));
            if let Some(target) = &target {
                nonlethal::resolve(d, attack, attacker.id(), target, manoeuvre)?;
            }
        }
    }
    Ok(())
}
