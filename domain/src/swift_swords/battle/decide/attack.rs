//! Declaring attacks (seed 004 "Attacks", "Reach Weapons", "Special Tactics", "Mobs, Crowds and
//! Hordes", "Flying"): which weapon reaches which target from where, moving into contact or
//! charging in as part of the action, and the attacks a tactic or a formation makes.

use super::{
    act::{self, Class, Price},
    heading, movement, refuse, Work,
};
use crate::{
    swift_swords::{
        battle::{
            event::SwiftSwordsEvent as E,
            pending::{AttackOptions, AttackPurpose, PendingAttack},
            state::{DefenceLimit, Figure},
        },
        damage::Tactic,
        figure::{WeaponKind, WeaponSpec},
        formation,
    },
    RuleError,
};

/// An attack as asked.
pub struct Request<'a> {
    /// The attacker.
    pub figure: &'a str,
    /// Its weapon.
    pub weapon: &'a str,
    /// Its targets.
    pub targets: &'a [String],
    /// Charging in.
    pub charge: bool,
    /// The tactic.
    pub tactic: Tactic,
    /// Declared choices.
    pub options: &'a AttackOptions,
    /// Dice to pay with.
    pub pay: &'a Option<Vec<u8>>,
}

/// A weapon the figure has in hand and may use where it stands.
pub fn weapon_in_hand(work: &Work, figure: &Figure, name: &str) -> Result<WeaponSpec, RuleError> {
    let id = &figure.spec.id;
    let Some(weapon) = figure.spec.weapon(name) else {
        return Err(refuse("unknown_weapon", format!("{id} has no weapon {name}"), heading("Attacks")));
    };
    if figure.dropped.contains(name) || figure.broken.contains(name) {
        return Err(refuse(
            "weapon_not_in_hand",
            format!("{id}'s {name} is dropped or broken (ready_weapon)"),
            heading("Attacks"),
        ));
    }
    if !figure.close_with.is_empty() && !weapon.usable_in_close() {
        return Err(refuse(
            "weapon_not_for_close",
            format!("InClose only Light, Medium and natural weapons serve; {name} is dropped"),
            heading("InClose Combat"),
        ));
    }
    if !figure.close_with.is_empty() && weapon.kind == WeaponKind::Fired {
        return Err(refuse(
            "weapon_not_for_close",
            format!("{name} cannot be fired InClose"),
            heading("InClose Combat"),
        ));
    }
    if weapon.kind == WeaponKind::Reach && work.state.in_contact(id) {
        return Err(refuse(
            "reach_in_contact",
            format!("a reach weapon cannot (normally) be used InContact: {id} must get clear first"),
            heading("Reach Weapons."),
        ));
    }
    if weapon.needs_two_hands() && figure.disabled_arms() > 0 {
        return Err(refuse("needs_two_hands", format!("{name} needs two good hands"), heading("General Injury Table")));
    }
    Ok(weapon.clone())
}

/// Check that `weapon` in `attacker`'s hands reaches `target` from where it stands.
fn reaches(
    work: &Work,
    attacker: &Figure,
    weapon: &WeaponSpec,
    target: &Figure,
    charge: bool,
) -> Result<(), RuleError> {
    let (id, other) = (&attacker.spec.id, &target.spec.id);
    let state = &work.state;
    if weapon.kind.at_range() {
        let distance = state.map.distance(&attacker.zone, &target.zone).unwrap_or(u32::MAX);
        if distance > u32::from(weapon.range) || charge {
            return Err(refuse(
                "out_of_range",
                format!(
                    "{other} is {distance} zones away; {} reaches {} (and missiles do not charge)",
                    weapon.name, weapon.range
                ),
                heading("Range Modifiers ToHit"),
            ));
        }
        return Ok(());
    }
    if target.flying && !attacker.flying && !(target.swooped && attacker.holding && target.zone == attacker.zone) {
        return Err(refuse(
            "flyer_out_of_reach",
            format!("{other} is flying: only a figure holding its action may strike it as it attacks, or missiles"),
            heading("Flying"),
        ));
    }
    if weapon.kind == WeaponKind::Reach {
        if target.zone != attacker.zone || charge {
            return Err(refuse("out_of_reach", format!("{other} is not in {id}'s zone"), heading("Reach Weapons.")));
        }
        return Ok(());
    }
    if !attacker.close_with.is_empty() && !attacker.close_with.contains(other) {
        return Err(refuse(
            "in_close",
            format!("{id} is InClose and can only strike those InClose with it"),
            heading("InClose Combat"),
        ));
    }
    let same_group = attacker.group.is_some() && attacker.group == target.group;
    if charge {
        let near = attacker.zone == target.zone || state.map.adjacent(&attacker.zone, &target.zone);
        if !near || state.in_contact(id) || attacker.flying {
            return Err(refuse(
                "cannot_charge",
                format!("{id} charges from Alone, on the ground, into its own zone or the next one"),
                heading("Status"),
            ));
        }
        movement::free_to_move(work, id)?;
        return Ok(());
    }
    if target.zone != attacker.zone {
        return Err(refuse(
            "not_in_zone",
            format!("{other} is in another zone: {id} must charge (charge: true) or move first"),
            heading("Status"),
        ));
    }
    if !same_group && !attacker.flying && !target.flying {
        if state.in_contact(id) {
            return Err(refuse(
                "leave_contact_first",
                format!("{id} is InContact in another melee: it must Move or Withdraw before striking {other}"),
                heading("Status"),
            ));
        }
        movement::free_to_move(work, id)?;
    }
    Ok(())
}

/// How many separate targets one attack action may strike.
fn targets_allowed(work: &Work, attacker: &Figure, tactic: Tactic) -> usize {
    if tactic == Tactic::DoubleStrike {
        return 2;
    }
    let formation = usize::from(formation::bonus_of(attacker.spec.formation.as_ref()).attacks);
    let team = attacker
        .chariot
        .as_ref()
        .and_then(|chariot| work.state.chariots.get(chariot))
        .filter(|chariot| chariot.spec.team == attacker.spec.id)
        .map_or(1, |chariot| chariot.spec.team_targets());
    formation.max(team)
}

fn check_targets(
    work: &Work,
    attacker: &Figure,
    weapon: &WeaponSpec,
    request: &Request,
) -> Result<Vec<String>, RuleError> {
    let id = request.figure;
    let allowed = targets_allowed(work, attacker, request.tactic);
    let distinct: std::collections::BTreeSet<&String> = request.targets.iter().collect();
    let separate = request.tactic == Tactic::DoubleStrike || distinct.len() == request.targets.len();
    if request.targets.is_empty() || request.targets.len() > allowed || !separate {
        return Err(refuse(
            "targets",
            format!("{id} may strike 1 to {allowed} separate targets with this action"),
            heading("Mobs, Crowds and Hordes."),
        ));
    }
    if request.charge && distinct.len() > 1 {
        return Err(refuse("targets", "a charge goes at one target", heading("Status")));
    }
    for other in &distinct {
        let target = work.figure(other)?;
        if !work.state.enemies(id, other) || target.killed {
            return Err(refuse("not_an_enemy", format!("{other} is not an enemy to attack"), heading("Attacks")));
        }
        reaches(work, attacker, weapon, target, request.charge)?;
        if weapon.grapple
            && (!attacker.close_with.contains(*other)
                || (target.spec.stable_size() >= 3 * u32::from(attacker.spec.size) && !target.prone))
        {
            return Err(refuse(
                "cannot_hold",
                format!("a hold needs {other} InClose and less than 3x {id}'s size (or prone)"),
                heading("InClose Combat"),
            ));
        }
        if let Some(cap) = work.state.options.max_attackers_per_target {
            let attackers = &target.attackers;
            if !attackers.contains(id) && attackers.len() >= usize::from(cap) {
                return Err(refuse(
                    "too_many_attackers",
                    format!("{other} has already been attacked by {cap} figures this round"),
                    heading("Contact example."),
                ));
            }
        }
    }
    let mut order: Vec<String> = request.targets.to_vec();
    if request.tactic == Tactic::DoubleStrike && order.len() == 1 {
        order.push(order[0].clone());
    }
    Ok(order)
}

fn check_ones(figure: &Figure, options: &AttackOptions) -> Result<(), RuleError> {
    if options.effort && options.bump {
        return Err(refuse("one_at_a_time", "only one 1 may be used on a roll", heading("AD = 1 (1-AD)")));
    }
    if (options.effort || options.bump) && !figure.has_one() {
        return Err(refuse("no_one", format!("{} holds no 1 to spend", figure.spec.id), heading("AD = 1 (1-AD)")));
    }
    if options.from_pool && figure.action_pool.is_none() {
        return Err(refuse(
            "no_action_pool",
            format!("{} has no action pool to release", figure.spec.id),
            heading("Actions & Refresh"),
        ));
    }
    Ok(())
}

/// Attack: declare it, pay, move into contact or charge, and leave it to the targets' defences.
pub fn attack(work: &mut Work, request: &Request) -> Result<(), RuleError> {
    let id = request.figure;
    act::ready(work, id, Class::Other)?;
    let attacker = work.figure(id)?.clone();
    let weapon = weapon_in_hand(work, &attacker, request.weapon)?;
    let order = check_targets(work, &attacker, &weapon, request)?;
    check_ones(&attacker, request.options)?;
    let double = matches!(request.tactic, Tactic::AllOut | Tactic::DoubleStrike);
    if double && request.tactic == Tactic::AllOut && order.len() > 1 {
        return Err(refuse(
            "targets",
            "an all-out attack combines both attacks into one, at one target",
            heading("Special Tactics."),
        ));
    }
    let cost = u32::from(weapon.cost) * if double { 2 } else { 1 };
    let pool_dice =
        if request.options.from_pool { attacker.action_pool.as_ref().map_or(0, |pool| pool.dice) } else { 0 };
    if !act::begin(work, id, "attack", Price::Pips(cost, request.pay.clone()), Class::Other)? {
        return Ok(());
    }
    let first = &order[0];
    let moves_in = weapon.kind == WeaponKind::Melee && !attacker.flying && !work.figure(first)?.flying;
    if moves_in && (work.figure(id)?.group.is_none() || work.figure(id)?.group != work.figure(first)?.group) {
        if !movement::keep_footing(work, id)? {
            return Ok(());
        }
        let why = if request.charge { "charged into contact" } else { "moved into contact" };
        movement::join(work, id, first, why)?;
    }
    if request.options.effort {
        work.emit(E::OneSpent { figure: id.into(), purpose: "effort: +1 die to the attack".into() });
    }
    let limit = match request.tactic {
        Tactic::AllOut => Some(DefenceLimit::None),
        Tactic::DoubleStrike => Some(DefenceLimit::DodgeOnly),
        _ => None,
    };
    if let Some(defence_limit) = limit {
        let figure = work.figure(id)?;
        let (armour_lost, hamstrung, swooped) = (figure.armour_lost, figure.hamstrung, figure.swooped);
        let reason = format!("{:?}: defence limited until its next action", request.tactic).to_lowercase();
        work.emit(E::FigureMarked { figure: id.into(), armour_lost, hamstrung, defence_limit, swooped, reason });
    }
    let declaration = Declaration {
        attacker: id,
        weapon: &weapon.name,
        order: &order,
        tactic: request.tactic,
        options: request.options,
        pool_dice,
        purpose: AttackPurpose::Strike,
    };
    declare(work, &declaration);
    Ok(())
}

/// Attacks to declare.
pub struct Declaration<'a> {
    /// The attacker.
    pub attacker: &'a str,
    /// Its weapon.
    pub weapon: &'a str,
    /// The targets, in the order they are struck.
    pub order: &'a [String],
    /// The tactic.
    pub tactic: Tactic,
    /// The attacker's choices.
    pub options: &'a AttackOptions,
    /// Dice released from the action pool.
    pub pool_dice: u32,
    /// What for.
    pub purpose: AttackPurpose,
}

/// Declare attacks at `order`, the first to be resolved first (the effort and the pool go with
/// the first roll only).
pub fn declare(work: &mut Work, declaration: &Declaration) {
    let Declaration { attacker: id, weapon, order, tactic, options, pool_dice, purpose } = *declaration;
    let base = work.state.next_id;
    for (index, target) in order.iter().enumerate().rev() {
        let first = index == 0;
        let mut options = options.clone();
        if !first {
            options.effort = false;
            options.from_pool = false;
        }
        let index = u32::try_from(index).unwrap_or(0);
        let attack = PendingAttack {
            id: base + index,
            attacker: id.into(),
            target: target.clone(),
            weapon: weapon.into(),
            purpose,
            tactic,
            options,
            pool_dice: if first { pool_dice } else { 0 },
        };
        work.emit(E::AttackDeclared { attack });
    }
}

/// Break: an attack roll whose successes each strip a die of the target's defence pools
/// (seed 004 "Pools.": "Specific tactics exist to remove Defence Pools (eg Break)").
pub fn break_pool(
    work: &mut Work,
    id: &str,
    weapon: &str,
    target: &str,
    pay: &Option<Vec<u8>>,
) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    let attacker = work.figure(id)?.clone();
    let spec = weapon_in_hand(work, &attacker, weapon)?;
    let other = work.figure(target)?;
    if !work.state.enemies(id, target) || !other.active() {
        return Err(refuse("not_an_enemy", format!("{target} is not an enemy in action"), heading("Pools.")));
    }
    if other.dodge_pool == 0 && other.block_pool == 0 {
        return Err(refuse("no_pool", format!("{target} has no defence pool to break"), heading("Pools.")));
    }
    reaches(work, &attacker, &spec, other, false)?;
    let cost = u32::from(work.state.options.action_costs.break_pool);
    if !act::begin(work, id, "break", Price::Pips(cost, pay.clone()), Class::Other)? {
        return Ok(());
    }
    if spec.kind == WeaponKind::Melee && work.figure(id)?.group != work.figure(target)?.group {
        if !movement::keep_footing(work, id)? {
            return Ok(());
        }
        movement::join(work, id, target, "moved into contact")?;
    }
    let order = vec![target.to_string()];
    let options = AttackOptions::default();
    let declaration = Declaration {
        attacker: id,
        weapon,
        order: &order,
        tactic: Tactic::Normal,
        options: &options,
        pool_dice: 0,
        purpose: AttackPurpose::Break,
    };
    declare(work, &declaration);
    Ok(())
}
