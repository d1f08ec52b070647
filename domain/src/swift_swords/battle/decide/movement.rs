//! Status and movement (seed 004 "Status", "Contact example."): Alone, InContact and the bands
//! of friends standing alone together; Move (risking the opportunity attacks of the enemies
//! left) and Withdraw; cover areas occupied; a DEX roll for every move of an unsteady figure.

use super::{
    act::{self, Class, Price},
    heading, refuse, Work,
};
use crate::{
    swift_swords::{
        battle::{
            event::SwiftSwordsEvent as E,
            pending::{AttackOptions, AttackPurpose, Destination, Pending, PendingAttack, PendingMove},
        },
        damage::Tactic,
        figure::WeaponKind,
        rolls::RollKind,
    },
    RuleError,
};

const STATUS: &str = "Status";

/// Leave the current group for `zone` (and `cover`), Alone; a group left with one active
/// member dissolves.
pub fn leave_group(
    work: &mut Work,
    id: &str,
    zone: &str,
    cover: Option<String>,
    reason: &str,
) -> Result<(), RuleError> {
    let old = work.figure(id)?.group.clone();
    work.emit(E::Placed { figure: id.into(), zone: zone.into(), group: None, cover, reason: reason.into() });
    if let Some(group) = old {
        dissolve_if_lonely(work, &group);
    }
    Ok(())
}

/// A group with at most one active member is no group.
pub fn dissolve_if_lonely(work: &mut Work, group: &str) {
    if work.state.group_members(group).len() > 1 {
        return;
    }
    let members: Vec<(String, String, Option<String>)> = work
        .state
        .figures
        .values()
        .filter(|figure| figure.group.as_deref() == Some(group))
        .map(|figure| (figure.spec.id.clone(), figure.zone.clone(), figure.cover.clone()))
        .collect();
    for (id, zone, cover) in members {
        work.emit(E::Placed { figure: id, zone, group: None, cover, reason: "nobody left alongside it".into() });
    }
}

/// Come alongside `other`: into its group (InContact if it is an enemy, standing alone together
/// if a friend), or a new group of the two.
pub fn join(work: &mut Work, id: &str, other: &str, reason: &str) -> Result<(), RuleError> {
    let target = work.figure(other)?;
    let (zone, group, friend_cover) = (target.zone.clone(), target.group.clone(), target.cover.clone());
    let figure = work.figure(id)?;
    if group.is_some() && figure.group == group {
        return Ok(());
    }
    let cover = if work.state.enemies(id, other) { None } else { friend_cover };
    leave_group(work, id, &zone, cover.clone(), reason)?;
    match group {
        Some(group) => {
            work.emit(E::Placed { figure: id.into(), zone, group: Some(group), cover, reason: reason.into() });
        }
        None => {
            let number = work.state.next_id;
            work.emit(E::GroupFormed { group: format!("g{number}"), number, members: vec![other.into(), id.into()] });
        }
    }
    Ok(())
}

/// An unsteady figure (balance, foot, broken leg, hamstrung) rolls DEX for every move or falls
/// prone. Returns whether it keeps its feet.
pub fn keep_footing(work: &mut Work, id: &str) -> Result<bool, RuleError> {
    let figure = work.figure(id)?;
    if !figure.unsteady() {
        return Ok(true);
    }
    let dex = u32::from(figure.spec.characteristics.dex);
    let roll = work.roll_for(id, RollKind::Dex, dex, 0, &format!("DEX roll of {id} to keep its feet"), false)?;
    let passed = roll.passed();
    let next_word = work.next_word();
    work.emit(E::Resisted { figure: id.into(), against: "a fall while moving".into(), roll, next_word });
    if !passed {
        work.emit(E::ProneChanged { figure: id.into(), prone: true, reason: "fell while moving".into() });
        work.emit(E::ActionLost { figure: id.into(), reason: "fell prone instead of moving".into() });
    }
    Ok(passed)
}

/// Refuse a move while InClose or prone.
pub fn free_to_move(work: &Work, id: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    if !figure.close_with.is_empty() {
        return Err(refuse(
            "withdraw_first",
            format!("{id} is InClose: it must Withdraw first"),
            heading("InClose Combat"),
        ));
    }
    if figure.prone {
        return Err(refuse(
            "stand_up_first",
            format!("{id} is prone: it must stand up first"),
            heading("InClose Combat"),
        ));
    }
    if figure.chariot.is_some() {
        return Err(refuse("aboard_chariot", format!("{id} moves with its chariot (drive)"), heading("Chariots.")));
    }
    Ok(())
}

fn check_destination(work: &Work, id: &str, to: &Destination) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let rule = heading(STATUS);
    match to {
        Destination::Zone { zone } => {
            if !work.state.map.adjacent(&figure.zone, zone) {
                return Err(refuse(
                    "not_adjacent",
                    format!("{zone} is not a zone next to {}", figure.zone),
                    heading("Zone Combat"),
                ));
            }
        }
        Destination::Alone => {
            if figure.group.is_none() {
                return Err(refuse("already_alone", format!("{id} is already Alone"), rule));
            }
        }
        Destination::Join { figure: other } => {
            let target = work.figure(other)?;
            if other == id || target.zone != figure.zone || !target.active() || target.flying {
                return Err(refuse(
                    "cannot_join",
                    format!("{id} can only move alongside another figure in action on the ground of its zone"),
                    rule,
                ));
            }
        }
        Destination::Occupy { cover } => {
            let inside = work.state.map.cover_area(cover).is_some_and(|area| area.zone == figure.zone);
            if !inside || figure.cover.as_deref() == Some(cover.as_str()) {
                return Err(refuse(
                    "bad_cover",
                    format!("{cover} is not a cover area of {} to enter", figure.zone),
                    heading("Cover"),
                ));
            }
        }
    }
    Ok(())
}

/// Whether a destination takes the figure out of its melee group.
fn leaves_group(work: &Work, id: &str, to: &Destination) -> bool {
    let Some(figure) = work.state.figure(id) else { return false };
    match to {
        Destination::Zone { .. } | Destination::Alone => true,
        Destination::Join { figure: other } => match work.state.figure(other) {
            Some(target) => target.group.is_none() || target.group != figure.group,
            None => true,
        },
        Destination::Occupy { cover } => !work
            .state
            .figures
            .values()
            .any(|holder| holder.cover.as_deref() == Some(cover.as_str()) && holder.group == figure.group),
    }
}

/// Enemies of the group a figure leaves who can strike it: in action, free of States, holds and
/// crushing, with a usable die and a melee weapon in hand.
fn strikers(work: &Work, id: &str) -> Vec<String> {
    work.state
        .enemies_in_group(id)
        .into_iter()
        .filter(|enemy| {
            work.state.figure(enemy).is_some_and(|figure| {
                figure.states.is_empty()
                    && !matches!(figure.morale, crate::swift_swords::battle::state::Morale::Crushed { .. })
                    && work.state.hold_on(enemy).is_none()
                    && figure.usable() > 0
                    && figure.spec.weapons.iter().any(|weapon| {
                        weapon.kind == WeaponKind::Melee
                            && !figure.dropped.contains(&weapon.name)
                            && !figure.broken.contains(&weapon.name)
                    })
            })
        })
        .collect()
}

/// Move (seed 004 "Status": "Moving to Alone status from InContact requires the use of the Move
/// (and risk an opportunity attack) or Withdraw action").
pub fn move_figure(work: &mut Work, id: &str, to: &Destination, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Flight)?;
    work.figure(id)?;
    free_to_move(work, id)?;
    if work.figure(id)?.flying {
        return Err(refuse("flying", format!("{id} is in the air: it flies (fly)"), heading("Flying")));
    }
    check_destination(work, id, to)?;
    let cost = u32::from(work.state.options.action_costs.move_zone);
    if !act::begin(work, id, "move", Price::Pips(cost, pay.clone()), Class::Flight)? || !keep_footing(work, id)? {
        return Ok(());
    }
    if work.state.in_contact(id) && leaves_group(work, id, to) {
        let enemies = strikers(work, id);
        if !enemies.is_empty() {
            work.emit(E::OpportunityOffered { mover: id.into(), destination: to.clone(), enemies });
            return Ok(());
        }
    }
    complete_move(work, id, to)
}

/// Carry a move out.
pub fn complete_move(work: &mut Work, id: &str, to: &Destination) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let (zone, cover) = (figure.zone.clone(), figure.cover.clone());
    match to {
        Destination::Zone { zone } => leave_group(work, id, zone, None, "entered the zone Alone"),
        Destination::Alone => leave_group(work, id, &zone, cover, "moved out of contact"),
        Destination::Join { figure: other } => join(work, id, other, "moved alongside"),
        Destination::Occupy { cover } => {
            let holders: Vec<String> = work
                .state
                .figures
                .values()
                .filter(|holder| holder.active() && holder.cover.as_deref() == Some(cover.as_str()))
                .map(|holder| holder.spec.id.clone())
                .collect();
            let enemy = holders.iter().find(|holder| work.state.enemies(id, holder)).cloned();
            match (enemy, holders.first()) {
                (Some(enemy), _) => join(work, id, &enemy, "entered the cover its enemies hold"),
                (None, Some(friend)) => {
                    let friend = friend.clone();
                    join(work, id, &friend, "joined its friends in cover")
                }
                (None, None) => leave_group(work, id, &zone, Some(cover.clone()), "took cover"),
            }
        }
    }
}

/// A move waiting for opportunity attacks: drop enemies who can no longer strike; when nobody
/// is left waiting, carry it out. Returns whether it was settled.
pub fn settle_move(work: &mut Work, waiting: &PendingMove) -> Result<bool, RuleError> {
    let able = strikers(work, &waiting.mover);
    for enemy in &waiting.waiting {
        if !able.contains(enemy) {
            work.emit(E::OpportunityAnswered { figure: enemy.clone(), strikes: false });
        }
    }
    let still: Vec<String> = waiting.waiting.iter().filter(|enemy| able.contains(enemy)).cloned().collect();
    if !still.is_empty() {
        return Ok(false);
    }
    let mover = work.figure(&waiting.mover)?;
    let free =
        mover.active() && !mover.prone && mover.close_with.is_empty() && work.state.hold_on(&waiting.mover).is_none();
    work.emit(E::MoveSettled { mover: waiting.mover.clone(), moved: free });
    if free {
        complete_move(work, &waiting.mover, &waiting.destination)?;
    }
    Ok(true)
}

fn awaited_move(work: &Work, id: &str) -> Result<PendingMove, RuleError> {
    match work.state.pending.last() {
        Some(Pending::Move(waiting)) if waiting.waiting.iter().any(|enemy| enemy == id) => Ok(waiting.clone()),
        _ => Err(refuse("no_opportunity", format!("{id} has no opportunity attack to make now"), heading("Status"))),
    }
}

/// An enemy left behind strikes the mover (one die of any value but 1).
pub fn opportunity_attack(work: &mut Work, id: &str, weapon: &str, pay: Option<u8>) -> Result<(), RuleError> {
    let waiting = awaited_move(work, id)?;
    act::authorize(work, id)?;
    let figure = work.figure(id)?;
    let usable = figure.spec.weapon(weapon).is_some_and(|spec| spec.kind == WeaponKind::Melee)
        && !figure.dropped.contains(weapon)
        && !figure.broken.contains(weapon);
    if !usable {
        return Err(refuse("bad_weapon", format!("{id} has no melee weapon {weapon} in hand"), heading("Attacks")));
    }
    let face = match pay {
        Some(face) if face > 1 && figure.hand.contains(&face) => face,
        Some(1) => {
            return Err(refuse(
                "ones_cannot_pay",
                "an opportunity attack needs a full action die: a 1 cannot pay for it",
                heading("Actions & Refresh"),
            ))
        }
        Some(face) => {
            return Err(refuse(
                "die_not_in_hand",
                format!("{id} holds no {face} to pay with"),
                heading("Actions & Refresh"),
            ))
        }
        None => crate::swift_swords::action_dice::lowest_usable(&figure.hand).ok_or_else(|| {
            refuse("cannot_afford", format!("{id} has no die to strike with"), heading("Actions & Refresh"))
        })?,
    };
    let mut hand = figure.hand.clone();
    crate::swift_swords::action_dice::remove(&mut hand, &[face]);
    work.emit(E::OpportunityAnswered { figure: id.into(), strikes: true });
    work.emit(E::HandChanged { figure: id.into(), hand, reason: "paid for an opportunity attack".into() });
    let attack = PendingAttack {
        id: work.state.next_id,
        attacker: id.into(),
        target: waiting.mover,
        weapon: weapon.into(),
        purpose: AttackPurpose::Opportunity,
        tactic: Tactic::Normal,
        options: AttackOptions::default(),
        pool_dice: 0,
    };
    work.emit(E::AttackDeclared { attack });
    Ok(())
}

/// An enemy left behind lets the mover go (its controller, or the judge for anyone).
pub fn let_go(work: &mut Work, id: &str) -> Result<(), RuleError> {
    awaited_move(work, id)?;
    act::authorize(work, id)?;
    work.emit(E::OpportunityAnswered { figure: id.into(), strikes: false });
    Ok(())
}

/// Withdraw: out of InClose (standing, still InContact), or out of contact to Alone, with no
/// opportunity attack.
pub fn withdraw(work: &mut Work, id: &str, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Flight)?;
    let figure = work.figure(id)?;
    let in_close = !figure.close_with.is_empty();
    if !in_close && figure.group.is_none() {
        return Err(refuse(
            "nothing_to_withdraw_from",
            format!("{id} is neither InContact nor InClose"),
            heading(STATUS),
        ));
    }
    if !in_close && figure.prone {
        return Err(refuse(
            "stand_up_first",
            format!("{id} is prone: it must stand up first"),
            heading("InClose Combat"),
        ));
    }
    let cost = u32::from(work.state.options.action_costs.withdraw);
    if !act::begin(work, id, "withdraw", Price::Pips(cost, pay.clone()), Class::Flight)? || !keep_footing(work, id)? {
        return Ok(());
    }
    if in_close {
        let prone = vec![crate::swift_swords::battle::event::ProneFlag { figure: id.into(), prone: false }];
        work.emit(E::CloseChanged {
            figure: id.into(),
            close_with: Vec::new(),
            prone,
            reason: "withdrew from InClose and stood up".into(),
        });
        return Ok(());
    }
    let zone = work.figure(id)?.zone.clone();
    leave_group(work, id, &zone, None, "withdrew")
}
