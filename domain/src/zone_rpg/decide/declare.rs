//! Declaring an attack once it is known to be legal: the WIT save to hit, a missed ranged blast's
//! deviation (seed 001 "Blast attacks"), surprise and reveals (seed 001 "Sneaking in combat"),
//! each target's chance to react; and opportunity attacks on movers (seed 001 "Opportunity
//! attacks").

use super::{
    character,
    grab::{keeps_hold, let_go_unless, one_handed},
    nonlethal, refuse, require_controller,
    targeting::{self, Mode},
    Decision,
};
use crate::{
    zone_rpg::{
        character::gear::WeaponSpec,
        command::{Manoeuvre, StuntProposal},
        event::{AttackForm, ZoneRpgEvent},
        outcome::{Ability, Deviation, Targeted},
        rules,
        state::character::CharacterState,
    },
    RuleError,
};

/// An opportunity attack as asked for.
pub struct Opportunity<'a> {
    /// The attacker.
    pub attacker: &'a str,
    /// The mover attacked.
    pub target: &'a str,
    /// The weapon.
    pub weapon: Option<&'a str>,
    /// Impaired.
    pub impaired: bool,
    /// A non-lethal attack.
    pub manoeuvre: Option<&'a Manoeuvre>,
}

/// An attack ready to declare.
pub struct Declaration {
    pub attacker: CharacterState,
    pub weapon: Option<WeaponSpec>,
    pub form: AttackForm,
    pub targets: Vec<(String, u32)>,
    pub zone: Option<String>,
    pub impaired: bool,
    pub opportunity: bool,
    pub needs_save: bool,
    pub stunt: Option<StuntProposal>,
}

/// An opportunity attack on an enemy moving away (seed 001 "Opportunity attacks"), a reaction.
pub fn opportunity(d: &mut Decision, request: &Opportunity) -> Result<(), RuleError> {
    let Some(interrupted) = d.state.interrupted_move.clone() else {
        return Err(refuse("no_move_interrupted", "nobody is moving away right now", rules::OPPORTUNITY));
    };
    if d.state.pending_attack.is_some() {
        return super::nothing_pending(&d.state);
    }
    let attacker = character(&d.state, request.attacker)?.clone();
    require_controller(&d.state, &attacker, d.ctx)?;
    if !interrupted.threats.iter().any(|t| t.character == request.attacker && !t.decided) {
        return Err(refuse(
            "not_threatening",
            format!("{} cannot make an opportunity attack on this move", request.attacker),
            rules::OPPORTUNITY,
        ));
    }
    if !interrupted.movers.iter().any(|m| m == request.target) {
        return Err(refuse("not_moving", format!("{} is not moving away", request.target), rules::OPPORTUNITY));
    }
    if let Some(why) = super::reaction::cannot_react(&attacker) {
        return Err(why);
    }
    let target = character(&d.state, request.target)?.clone();
    let weapon = targeting::weapon(&attacker, request.weapon)?.cloned();
    if weapon.as_ref().is_some_and(|w| w.blast) {
        return Err(refuse("blast_needs_zone", "a blast attack targets a zone, not a mover", rules::BLAST));
    }
    let (form, ranged) = match request.manoeuvre {
        Some(manoeuvre) => {
            nonlethal::validate(&d.state, &attacker, &target, manoeuvre)?;
            (AttackForm::NonLethal { manoeuvre: manoeuvre.clone() }, false)
        }
        None => (AttackForm::Damage {}, weapon.as_ref().is_some_and(WeaponSpec::ranged)),
    };
    let mode = Mode {
        ranged,
        range: weapon.as_ref().map_or(0, |w| w.range),
        moving: false,
        counter: false,
        by_gm: d.ctx.actor.is_judge(),
    };
    let shot = targeting::single(&d.state, &attacker, &target, mode)?;
    let dice = match form {
        AttackForm::Damage {} => super::damage::size_scaling(attacker.spec.size, target.spec.size, false).0,
        _ => 0,
    };
    let one = one_handed(weapon.as_ref()) && request.manoeuvre.is_none();
    let_go_unless(d, attacker.id(), |g, h| keeps_hold(g, h, one, false), "attacked someone else");
    let declaration = Declaration {
        impaired: request.impaired || weapon.is_none() || attacker.riding.is_some(),
        attacker,
        weapon,
        form,
        targets: vec![(request.target.to_string(), dice)],
        zone: None,
        opportunity: true,
        needs_save: shot.needs_save,
        stunt: None,
    };
    declare(d, declaration)
}

/// Roll the WIT save when one is needed, deviate a missed ranged blast, and declare the attack
/// with each target's chance to react; reveal a concealed attacker (seed 001 "Sneaking in
/// combat": attacking reveals, and its targets are taken by surprise).
pub fn declare(d: &mut Decision, mut declaration: Declaration) -> Result<(), RuleError> {
    let attacker = declaration.attacker.clone();
    let attack = d.state.attacks + 1;
    let ranged = declaration.weapon.as_ref().is_some_and(WeaponSpec::ranged)
        && matches!(declaration.form, AttackForm::Damage {});
    let blast = declaration.weapon.as_ref().is_some_and(|w| w.blast) && declaration.zone.is_some();
    let wit_save = if declaration.needs_save {
        let aim = declaration
            .zone
            .clone()
            .unwrap_or_else(|| declaration.targets.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(" and "));
        Some(d.save(attacker.id(), Ability::Wit, &format!("to hit {aim} (attack {attack})"))?)
    } else {
        None
    };
    let mut hit = wit_save.as_ref().is_none_or(|save| save.passed);
    let mut deviation = None;
    if !hit && blast && ranged {
        // seed 001 "Blast attacks": "If they miss, they are deviated and hit a random
        // neighbouring zone."
        let aimed = declaration.zone.clone().unwrap_or_default();
        let neighbours: Vec<String> = d.state.map.neighbours(&aimed).into_iter().map(str::to_string).collect();
        let count = u32::try_from(neighbours.len()).unwrap_or(u32::MAX);
        let roll = if count > 1 {
            Some(d.roll(count, format!("deviation of attack {attack} from {aimed}: neighbours numbered from 1"))?)
        } else {
            None
        };
        let index = roll.as_ref().map_or(0, |r| usize::try_from(r.value.saturating_sub(1)).unwrap_or(0));
        let zone = neighbours.get(index).cloned();
        declaration.targets = zone
            .as_deref()
            .map(|z| targeting::blast_targets(&d.state, &attacker, z, false).into_iter().map(|t| (t, 1)).collect())
            .unwrap_or_default();
        declaration.zone.clone_from(&zone);
        hit = zone.is_some();
        deviation = Some(Deviation { neighbours, roll, zone });
    }
    let surprise = attacker.concealed;
    let death_blow = matches!(declaration.form, AttackForm::DeathBlow {});
    let targets: Vec<Targeted> = declaration
        .targets
        .iter()
        .map(|(id, dice)| {
            let can_react = !surprise
                && !death_blow
                && d.state.character(id).is_some_and(|t| t.can_react() && t.id() != attacker.id());
            Targeted { character: id.clone(), dice: *dice, can_react }
        })
        .collect();
    let stunt_approved = d.state.controller_of(&attacker).is_none();
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::AttackDeclared {
        attack,
        attacker: attacker.id().to_string(),
        weapon: declaration.weapon.as_ref().map(|w| w.name.clone()),
        form: declaration.form.clone(),
        targets: targets.clone(),
        zone: declaration.zone.clone(),
        impaired: declaration.impaired,
        ranged,
        blast,
        surprise,
        opportunity: declaration.opportunity,
        wit_save,
        hit,
        deviation,
        stunt: declaration.stunt.clone(),
        stunt_approved,
        next_word,
    });
    if attacker.concealed {
        d.emit(ZoneRpgEvent::Revealed { character: attacker.id().to_string(), reason: "attacked".into() });
    }
    if hit {
        for target in &targets {
            if d.state.character(&target.character).is_some_and(|t| t.concealed) {
                d.emit(ZoneRpgEvent::Revealed { character: target.character.clone(), reason: "was attacked".into() });
            }
        }
    }
    Ok(())
}
