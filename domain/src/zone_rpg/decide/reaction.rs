//! Reactions to a pending attack (seed 001 "Reacting to an attack", "Guarding"): dodging,
//! countering, hiding behind someone, guarding.

use super::{
    character,
    damage::size_scaling,
    grab::{keeps_hold, let_go_unless},
    nonlethal, refuse, require_controller,
    targeting::{self, Mode},
    Decision,
};
use crate::{
    zone_rpg::{
        command::{Manoeuvre, ReactionChoice},
        event::{AttackForm, ZoneRpgEvent},
        outcome::{Ability, Targeted},
        rules,
        state::{
            character::{CharacterState, Morale, TurnUse},
            pending::{AttackStage, PendingAttack},
        },
    },
    RuleError,
};

fn pending(d: &Decision) -> Result<PendingAttack, RuleError> {
    let Some(pending) = d.state.pending_attack.clone() else {
        return Err(refuse("no_attack", "no attack is waiting for reactions", rules::REACTING));
    };
    if pending.stage != AttackStage::Reactions {
        return Err(refuse(
            "stunt_pending",
            "the attack's stunt must be approved and answered before anyone reacts",
            rules::STUNTS,
        ));
    }
    Ok(pending)
}

/// Why `character` cannot react now, naming the rule: down, surrendering, unaware, grabbed,
/// broken, in its own turn, or its turn (and any extra reactions) spent (seed 001 "Reacting to
/// an attack", "Taking a turn": "A reaction takes the whole turn"). None when it can.
pub(crate) fn cannot_react(character: &CharacterState) -> Option<RuleError> {
    if character.can_react() {
        return None;
    }
    let id = character.id();
    let (code, message, rule) = if !character.standing() {
        ("incapacitated", format!("{id} is incapacitated, dead or gone: it cannot react"), rules::REACTING)
    } else if character.surrendered {
        ("surrendered", format!("{id} has surrendered: it cannot react"), rules::SURRENDERING)
    } else if character.unaware {
        ("unaware", format!("{id} is unaware of its attackers: it cannot react"), rules::REACTING)
    } else if character.grabbed_by.is_some() {
        ("grabbed", format!("{id} is grabbed: it can only try to break free"), rules::NON_LETHAL)
    } else if character.morale == Morale::Broken {
        ("morale_broken", format!("{id} failed its morale check: it must surrender or retreat"), rules::MORALE)
    } else if character.turn == TurnUse::InTurn {
        ("in_own_turn", format!("{id} is taking its turn: it cannot react in it"), rules::TAKING_A_TURN)
    } else {
        (
            "turn_spent",
            format!("{id} has spent its turn this round (taken, or on a reaction) and has no extra reaction left"),
            rules::TAKING_A_TURN,
        )
    };
    Some(refuse(code, message, rule))
}

/// React to the pending attack. A character that cannot react at all is told why before being
/// told there is nothing to react to: an attack on targets that cannot react is resolved at
/// once, so "no attack" would hide the reason.
pub fn react(d: &mut Decision, id: &str, reaction: &ReactionChoice) -> Result<(), RuleError> {
    let reacting = character(&d.state, id)?.clone();
    require_controller(&d.state, &reacting, d.ctx)?;
    if let Some(pending) = &d.state.pending_attack {
        if pending.reacted.iter().any(|r| r == id) {
            return Err(refuse(
                "already_reacted",
                format!("{id} has already reacted to this attack: nobody reacts twice against one attack"),
                rules::REACTING,
            ));
        }
        if pending.surprise && pending.stage == AttackStage::Reactions {
            return Err(refuse(
                "surprised",
                "the attacker was concealed: its targets are taken by surprise and cannot react",
                rules::SNEAKING,
            ));
        }
    }
    if let Some(why) = cannot_react(&reacting) {
        return Err(why);
    }
    let pending = pending(d)?;
    let extra = !matches!(reacting.turn, TurnUse::Available | TurnUse::Reserved);
    if let ReactionChoice::Guard { target } = reaction {
        return guard(d, &pending, id, target, extra);
    }
    let Some(entry) = pending.target(id).cloned() else {
        return Err(refuse("not_a_target", format!("{id} is not a target of this attack"), rules::REACTING));
    };
    if entry.decided || !entry.target.can_react {
        return Err(refuse("cannot_react", format!("{id} cannot react to this attack"), rules::REACTING));
    }
    let (save, counter_hits, new_target, replaces) = match reaction {
        ReactionChoice::Dodge {} => {
            let_go_unless(d, id, |g, h| keeps_hold(g, h, false, false), "dodged");
            (Some(d.save(id, Ability::Agi, &format!("to dodge attack {}", pending.attack))?), None, None, None)
        }
        ReactionChoice::Counter { weapon, manoeuvre, .. } => {
            let (save, hits) = counter(d, &pending, id, weapon.as_deref(), manoeuvre.as_ref())?;
            (save, Some(hits), None, None)
        }
        ReactionChoice::HideBehind { character: behind } => {
            let new_target = hide_behind(d, &pending, id, behind)?;
            (None, None, Some(new_target), Some(id.to_string()))
        }
        ReactionChoice::Guard { .. } => (None, None, None, None),
    };
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::Reacted {
        attack: pending.attack,
        character: id.to_string(),
        reaction: reaction.clone(),
        save,
        counter_hits,
        new_target,
        replaces,
        extra,
        next_word,
    });
    Ok(())
}

/// A counter: a suitable attack against the attacker (seed 001 "Reacting to an attack"); only
/// one target of an attack aimed at several may counter it.
fn counter(
    d: &mut Decision,
    pending: &PendingAttack,
    id: &str,
    weapon: Option<&str>,
    manoeuvre: Option<&Manoeuvre>,
) -> Result<(Option<crate::zone_rpg::outcome::Save>, bool), RuleError> {
    if pending.counter().is_some() {
        return Err(refuse(
            "counter_taken",
            "another target already counters: an attack on several targets is countered by one only",
            rules::REACTING,
        ));
    }
    if matches!(pending.form, AttackForm::DeathBlow {}) {
        return Err(refuse("cannot_react", "a death blow cannot be countered", rules::REACTING));
    }
    let reacting = character(&d.state, id)?.clone();
    let attacker = character(&d.state, &pending.attacker)?.clone();
    let weapon = targeting::weapon(&reacting, weapon)?.cloned();
    if weapon.as_ref().is_some_and(|w| w.blast) {
        return Err(refuse("counter_blast", "a counter is aimed at the attacker alone, not a zone", rules::REACTING));
    }
    if let Some(manoeuvre) = manoeuvre {
        nonlethal::validate(&d.state, &reacting, &attacker, manoeuvre)?;
    }
    let ranged = manoeuvre.is_none() && weapon.as_ref().is_some_and(|w| w.ranged());
    let mode =
        Mode { ranged, range: weapon.as_ref().map_or(0, |w| w.range), moving: false, counter: true, by_gm: true };
    let shot = targeting::single(&d.state, &reacting, &attacker, mode).map_err(|refusal| {
        refuse(
            "counter_unsuitable",
            format!("{id} cannot counter {}: {}", attacker.id(), refusal.message),
            rules::REACTING,
        )
    })?;
    let one_handed = manoeuvre.is_none()
        && weapon.as_ref().is_none_or(|w| w.natural || w.hands == crate::zone_rpg::character::gear::Hands::One);
    let disarms_held =
        matches!(manoeuvre, Some(Manoeuvre::Disarm { .. })) && reacting.grabbing.as_deref() == Some(attacker.id());
    let_go_unless(d, id, |g, h| keeps_hold(g, h, one_handed, disarms_held), "countered");
    if shot.needs_save {
        let save =
            d.save(id, Ability::Wit, &format!("to hit {} with a counter (attack {})", attacker.id(), pending.attack))?;
        let hits = save.passed;
        Ok((Some(save), hits))
    } else {
        Ok((None, true))
    }
}

/// Hide behind a nearby willing ally or a grabbed enemy: it becomes the target, and may react
/// itself if it can (seed 001 "Reacting to an attack").
fn hide_behind(d: &mut Decision, pending: &PendingAttack, id: &str, behind: &str) -> Result<Targeted, RuleError> {
    if matches!(pending.form, AttackForm::DeathBlow {}) {
        return Err(refuse("cannot_react", "nobody can be put in the way of a death blow", rules::REACTING));
    }
    let reacting = character(&d.state, id)?.clone();
    let shield = character(&d.state, behind)?.clone();
    if shield.id() == id || pending.target(behind).is_some() || shield.id() == pending.attacker {
        return Err(refuse(
            "already_targeted",
            format!("{behind} is already a target of this attack (or its attacker)"),
            rules::REACTING,
        ));
    }
    if shield.zone != reacting.zone || !shield.standing() {
        return Err(refuse("not_nearby", format!("{behind} is not standing nearby {id}"), rules::REACTING));
    }
    let willing_ally = shield.faction() == reacting.faction() && shield.fighting();
    let grabbed_enemy = reacting.grabbing.as_deref() == Some(behind);
    if !(willing_ally || grabbed_enemy) {
        return Err(refuse(
            "not_willing",
            format!("{behind} is neither a willing ally nor an enemy {id} holds"),
            rules::REACTING,
        ));
    }
    if !grabbed_enemy {
        let_go_unless(d, id, |g, h| keeps_hold(g, h, false, false), "hid behind someone else");
    }
    let entry = dice_for(d, pending, pending.target(id).map_or(1, |t| t.target.dice), behind);
    let can_react = shield.can_react() && !pending.reacted.iter().any(|r| r == behind);
    Ok(Targeted { character: behind.to_string(), dice: entry, can_react })
}

/// Guard a nearby target: the guard becomes the target and has spent its reaction (seed 001
/// "Guarding").
fn guard(d: &mut Decision, pending: &PendingAttack, id: &str, target: &str, extra: bool) -> Result<(), RuleError> {
    if matches!(pending.form, AttackForm::DeathBlow {}) {
        return Err(refuse("cannot_react", "nobody can be put in the way of a death blow", rules::GUARDING));
    }
    let Some(entry) = pending.target(target).cloned() else {
        return Err(refuse("not_a_target", format!("{target} is not a target of this attack"), rules::GUARDING));
    };
    if entry.decided && entry.reaction.is_some() {
        return Err(refuse("already_reacted", format!("{target} has already reacted"), rules::GUARDING));
    }
    let guarding = character(&d.state, id)?.clone();
    let guarded = character(&d.state, target)?.clone();
    if pending.target(id).is_some() || id == pending.attacker {
        return Err(refuse("already_targeted", format!("{id} is already a target of this attack"), rules::GUARDING));
    }
    if guarding.zone != guarded.zone {
        return Err(refuse("not_nearby", format!("{id} is not nearby {target}"), rules::GUARDING));
    }
    if guarding.faction() != guarded.faction() {
        return Err(refuse("not_an_ally", format!("{id} does not fight alongside {target}"), rules::GUARDING));
    }
    let_go_unless(d, id, |g, h| keeps_hold(g, h, false, false), "guarded someone");
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::Reacted {
        attack: pending.attack,
        character: id.to_string(),
        reaction: ReactionChoice::Guard { target: target.to_string() },
        save: None,
        counter_hits: None,
        new_target: Some(Targeted {
            character: id.to_string(),
            dice: dice_for(d, pending, entry.target.dice, id),
            can_react: false,
        }),
        replaces: Some(target.to_string()),
        extra,
        next_word,
    });
    Ok(())
}

/// The damage dice a new target takes: a single-target attack's dice are counted again for its
/// size (seed 001 "Effects of size in combat"); a distributed attack keeps the share.
fn dice_for(d: &Decision, pending: &PendingAttack, share: u32, new_target: &str) -> u32 {
    let single = pending.targets.len() == 1 && !pending.blast && matches!(pending.form, AttackForm::Damage {});
    match (single, d.state.character(&pending.attacker), d.state.character(new_target)) {
        (true, Some(attacker), Some(target)) => size_scaling(attacker.spec.size, target.spec.size, false).0,
        _ => share,
    }
}
