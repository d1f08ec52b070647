//! Declaring attacks (seed 001 "Attacking", "Blast attacks", "Attack stunts", "Non-lethal
//! attacks", "Opportunity attacks"): who may be targeted, the WIT save to hit, a missed blast's
//! deviation, and the targets' chance to react.

use super::{
    acting_member, character, nonlethal, nothing_pending, refuse, require_controller,
    targeting::{self, Mode},
    Decision,
};
use crate::{
    zone_rpg::{
        character::gear::WeaponSpec,
        command::{AttackTarget, Manoeuvre, StuntProposal},
        event::{AttackForm, ZoneRpgEvent},
        outcome::{Ability, Deviation, Targeted},
        rules,
        state::{character::CharacterState, character::Morale, turn::full_speed},
    },
    RuleError,
};

/// An attack as asked for.
pub struct AttackRequest<'a> {
    /// The attacker.
    pub attacker: &'a str,
    /// The weapon (absent: unarmed).
    pub weapon: Option<&'a str>,
    /// Whom or where.
    pub target: &'a AttackTarget,
    /// Held back for impaired damage.
    pub impaired: bool,
    /// A death blow.
    pub death_blow: bool,
    /// A stunt proposed.
    pub stunt: Option<&'a StuntProposal>,
}

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
struct Declaration {
    attacker: CharacterState,
    weapon: Option<WeaponSpec>,
    form: AttackForm,
    targets: Vec<(String, u32)>,
    zone: Option<String>,
    impaired: bool,
    opportunity: bool,
    needs_save: bool,
    stunt: Option<StuntProposal>,
}

/// Refuse unless `member` may spend an action now (seed 001 "Taking a turn": a main action and a
/// bonus action, or two bonus actions, and only with half speed of movement).
pub fn may_spend(d: &Decision, id: &str, main: bool) -> Result<(), RuleError> {
    let member = acting_member(&d.state, id)?;
    let character = character(&d.state, id)?;
    if character.grabbed_by.is_some() {
        return Err(refuse(
            "grabbed",
            format!("{id} is grabbed: it can only spend its turn trying to break free"),
            rules::NON_LETHAL,
        ));
    }
    if character.morale == Morale::Broken {
        return Err(refuse(
            "morale_broken",
            format!("{id} failed its morale check: it must surrender or retreat"),
            rules::MORALE,
        ));
    }
    if member.moved * 2 > full_speed(character.spec.speed, member.sprint) {
        return Err(refuse(
            "moved_too_far",
            format!("{id} moved more than half its speed: no actions this turn"),
            rules::TAKING_A_TURN,
        ));
    }
    if main && member.main > 0 {
        return Err(refuse(
            "main_action_spent",
            format!("{id} has already spent its main action"),
            rules::TAKING_A_TURN,
        ));
    }
    if member.main + member.bonus >= 2 {
        return Err(refuse(
            "actions_spent",
            format!("{id} has spent its actions this turn (a main and a bonus action, or two bonus actions)"),
            rules::TAKING_A_TURN,
        ));
    }
    Ok(())
}

/// Whether holding on to a grabbed character allows this action: a larger grabber can do
/// anything; otherwise moving, disarming the grabbed, hiding behind it, and attacking with a
/// one-handed weapon or unarmed (seed 001 "Non-lethal attacks": "Any other action frees the
/// grabbed character").
pub fn keeps_hold(
    grabber: &CharacterState,
    held: &CharacterState,
    one_handed_attack: bool,
    disarms_held: bool,
) -> bool {
    grabber.spec.size > held.spec.size || one_handed_attack || disarms_held
}

/// Let go of a grabbed character when the action does not allow keeping hold.
pub fn let_go_unless(d: &mut Decision, id: &str, keeps: impl Fn(&CharacterState, &CharacterState) -> bool, why: &str) {
    let Some(grabber) = d.state.character(id).cloned() else { return };
    let Some(held) = grabber.grabbing.as_deref().and_then(|h| d.state.character(h)).cloned() else { return };
    if !keeps(&grabber, &held) {
        d.emit(ZoneRpgEvent::GrabReleased {
            grabber: id.to_string(),
            character: held.id().to_string(),
            reason: format!("{id} {why}"),
        });
    }
}

fn one_handed(weapon: Option<&WeaponSpec>) -> bool {
    weapon.is_none_or(|w| w.natural || w.hands == crate::zone_rpg::character::gear::Hands::One)
}

/// Attack (a main action).
pub fn attack(d: &mut Decision, request: &AttackRequest) -> Result<(), RuleError> {
    let attacker = character(&d.state, request.attacker)?.clone();
    require_controller(&d.state, &attacker, d.ctx)?;
    nothing_pending(&d.state)?;
    may_spend(d, attacker.id(), true)?;
    let weapon = targeting::weapon(&attacker, request.weapon)?.cloned();
    let moving = targeting::moving(&d.state, &attacker);
    let impaired = request.impaired || weapon.is_none() || attacker.riding.is_some();
    let by_gm = d.ctx.actor.is_judge();
    let ranged = weapon.as_ref().is_some_and(WeaponSpec::ranged);
    let blast = weapon.as_ref().is_some_and(|w| w.blast);
    let mode = Mode { ranged, range: weapon.as_ref().map_or(0, |w| w.range), moving, counter: false, by_gm };
    let mut declaration = Declaration {
        attacker: attacker.clone(),
        weapon: weapon.clone(),
        form: AttackForm::Damage {},
        targets: Vec::new(),
        zone: None,
        impaired,
        opportunity: false,
        needs_save: false,
        stunt: request.stunt.cloned(),
    };
    if request.stunt.is_some()
        && (request.death_blow || !matches!(request.target, AttackTarget::Character { .. }) || blast)
    {
        return Err(refuse(
            "stunt_target",
            "a stunt is proposed to a single target of an ordinary attack",
            rules::STUNTS,
        ));
    }
    match request.target {
        AttackTarget::Character { character: id } => {
            if blast {
                return Err(refuse("blast_needs_zone", "a blast attack targets a zone", rules::BLAST));
            }
            let target = character(&d.state, id)?.clone();
            if request.death_blow {
                death_blow(d, &mut declaration, &attacker, &target)?;
            } else {
                let shot = targeting::single(&d.state, &attacker, &target, mode)?;
                let (dice, _) = super::damage::size_scaling(attacker.spec.size, target.spec.size, false);
                declaration.targets = vec![(id.clone(), dice)];
                declaration.needs_save = shot.needs_save;
                if let Some(stunt) = request.stunt {
                    check_stunt(stunt, &target)?;
                }
            }
        }
        AttackTarget::Split { shares } => {
            split(d, &mut declaration, &attacker, shares, mode)?;
        }
        AttackTarget::Zone { zone } => {
            let Some(weapon) = weapon.as_ref().filter(|w| w.blast) else {
                return Err(refuse("not_a_blast", "only a blast attack targets a zone", rules::BLAST));
            };
            if d.state.map.zone(zone).is_none() {
                return Err(refuse("unknown_zone", format!("there is no zone {zone}"), rules::SERVICE));
            }
            if weapon.ranged() {
                declaration.needs_save = targeting::blast_zone(&d.state, &attacker, zone, weapon.range, moving)?;
            } else if *zone != attacker.zone {
                return Err(refuse("melee_blast_zone", "a melee blast hits the attacker's own zone", rules::BLAST));
            }
            declaration.targets = targeting::blast_targets(&d.state, &attacker, zone, !weapon.ranged())
                .into_iter()
                .map(|t| (t, 1))
                .collect();
            declaration.zone = Some(zone.clone());
        }
    }
    if request.death_blow && !matches!(request.target, AttackTarget::Character { .. }) {
        return Err(refuse(
            "death_blow_target",
            "a death blow is aimed at one nearby incapacitated character",
            rules::ATTACKING,
        ));
    }
    let one = one_handed(weapon.as_ref());
    let_go_unless(d, attacker.id(), |g, h| keeps_hold(g, h, one, false), "attacked with a two-handed weapon");
    declare(d, declaration)
}

fn death_blow(
    d: &Decision,
    declaration: &mut Declaration,
    attacker: &CharacterState,
    target: &CharacterState,
) -> Result<(), RuleError> {
    if !target.incapacitated || !target.present() {
        return Err(refuse(
            "not_incapacitated",
            format!("{} is not incapacitated: only an incapacitated target can be dealt a death blow", target.id()),
            rules::ATTACKING,
        ));
    }
    let mode = Mode { ranged: false, range: 0, moving: false, counter: false, by_gm: d.ctx.actor.is_judge() };
    let shot = targeting::single(&d.state, attacker, target, mode)?;
    declaration.form = AttackForm::DeathBlow {};
    declaration.targets = vec![(target.id().to_string(), 0)];
    declaration.needs_save = shot.needs_save;
    Ok(())
}

fn check_stunt(stunt: &StuntProposal, target: &CharacterState) -> Result<(), RuleError> {
    if stunt.effect.trim().is_empty() || stunt.effect.chars().count() > 2000 {
        return Err(refuse("stunt_effect", "say what the stunt does (1 to 2000 characters)", rules::STUNTS));
    }
    if let Some(weapon) = &stunt.disarm {
        if !target.weapon(weapon).is_some_and(|w| w.weapon.held && !w.weapon.natural) {
            return Err(refuse("weapon_not_held", format!("{} does not hold {weapon}", target.id()), rules::STUNTS));
        }
    }
    Ok(())
}

/// A larger character's melee attack with its dice distributed among several smaller nearby
/// targets (seed 001 "Effects of size in combat": a wyrm's bite on "two medium-sized targets (d8
/// damage each)"). Each die aimed at a target of size `s` uses up `2^s` of the attacker's
/// `2^size` (a large wyrm: a medium target's die is half its bite, a small one's a quarter).
fn split(
    d: &Decision,
    declaration: &mut Declaration,
    attacker: &CharacterState,
    shares: &[crate::zone_rpg::command::DiceShare],
    mode: Mode,
) -> Result<(), RuleError> {
    if mode.ranged || declaration.weapon.as_ref().is_some_and(|w| w.blast) {
        return Err(refuse("split_melee_only", "only melee attacks can be distributed among targets", rules::SIZE));
    }
    if shares.len() < 2 {
        return Err(refuse("split_targets", "distribute the dice among two or more targets", rules::SIZE));
    }
    let budget = 1u64 << attacker.spec.size.rank();
    let mut spent = 0u64;
    for (index, share) in shares.iter().enumerate() {
        if shares[..index].iter().any(|other| other.character == share.character) {
            return Err(refuse("split_targets", format!("{} is named twice", share.character), rules::SIZE));
        }
        let target = character(&d.state, &share.character)?;
        if target.spec.size >= attacker.spec.size {
            return Err(refuse(
                "split_targets",
                format!(
                    "{} is not smaller than {}: dice are distributed among smaller targets",
                    target.id(),
                    attacker.id()
                ),
                rules::SIZE,
            ));
        }
        let shot = targeting::single(&d.state, attacker, target, mode)?;
        declaration.needs_save |= shot.needs_save;
        if share.dice == 0 {
            return Err(refuse("split_dice", format!("{} needs at least one die", target.id()), rules::SIZE));
        }
        spent += u64::from(share.dice) << target.spec.size.rank();
        declaration.targets.push((share.character.clone(), share.dice));
    }
    if spent > budget {
        return Err(refuse(
            "split_dice",
            format!("{} does not have that many dice to distribute", attacker.id()),
            rules::SIZE,
        ));
    }
    Ok(())
}

/// A non-lethal attack (a main action).
pub fn non_lethal(
    d: &mut Decision,
    attacker_id: &str,
    target_id: &str,
    manoeuvre: &Manoeuvre,
) -> Result<(), RuleError> {
    let attacker = character(&d.state, attacker_id)?.clone();
    require_controller(&d.state, &attacker, d.ctx)?;
    nothing_pending(&d.state)?;
    may_spend(d, attacker_id, true)?;
    let target = character(&d.state, target_id)?.clone();
    let mode = Mode { ranged: false, range: 0, moving: false, counter: false, by_gm: d.ctx.actor.is_judge() };
    let shot = targeting::single(&d.state, &attacker, &target, mode)?;
    nonlethal::validate(&d.state, &attacker, &target, manoeuvre)?;
    let disarms_held = matches!(manoeuvre, Manoeuvre::Disarm { .. }) && attacker.grabbing.as_deref() == Some(target_id);
    let_go_unless(d, attacker_id, |g, h| keeps_hold(g, h, false, disarms_held), "made another non-lethal attack");
    let declaration = Declaration {
        attacker,
        weapon: None,
        form: AttackForm::NonLethal { manoeuvre: manoeuvre.clone() },
        targets: vec![(target_id.to_string(), 0)],
        zone: None,
        impaired: false,
        opportunity: false,
        needs_save: shot.needs_save,
        stunt: None,
    };
    declare(d, declaration)
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
    if !attacker.can_react() {
        return Err(refuse("cannot_react", format!("{} cannot react now", attacker.id()), rules::REACTING));
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
fn declare(d: &mut Decision, mut declaration: Declaration) -> Result<(), RuleError> {
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
