//! Attacks and non-lethal attacks as main actions (seed 001 "Attacking", "Blast attacks",
//! "Attack stunts", "Non-lethal attacks", "Effects of size in combat"): who and where may be
//! targeted with what, death blows, stunts, dice distributed among smaller targets.

use super::{
    budget::may_spend,
    character,
    declare::{declare, Declaration},
    grab::{keeps_hold, let_go_unless, one_handed},
    nonlethal, nothing_pending, refuse, require_controller,
    targeting::{self, Mode},
    Decision,
};
use crate::{
    zone_rpg::{
        character::gear::WeaponSpec,
        command::{AttackTarget, Manoeuvre, StuntProposal},
        event::AttackForm,
        rules,
        state::character::CharacterState,
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
