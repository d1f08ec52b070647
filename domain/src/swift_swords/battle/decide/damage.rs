//! Damage and its effects (seed 004 "Damage", "State.", "Physical Damage", "Mental Damage",
//! "CrossOver Damage.", "OoA and KIA"): a State or a rank loss, Trauma, a Killing Blow, Massive
//! damage, panic and crush, Out of Action and Killed in Action, and the end of the battle.

use super::{injuries, Work};
use crate::{
    swift_swords::{
        battle::{
            event::SwiftSwordsEvent as E,
            state::{Morale, StateKind},
        },
        damage::severity,
        injury::Location,
        ranks::{self, RankSide},
        rolls::RollKind,
    },
    RuleError,
};

/// One hit's damage, as the target takes it.
pub struct Hit<'a> {
    /// The figure hit.
    pub target: &'a str,
    /// Damage points.
    pub damage: u32,
    /// Physical or mental ranks.
    pub side: RankSide,
    /// A spell: the State is Doubt.
    pub magic: bool,
    /// A Massive weapon: any hit is massive.
    pub massive_weapon: bool,
    /// A bane weapon: level 9 can be lost.
    pub bane: bool,
    /// The target takes a rank loss rather than a State.
    pub take_rank: bool,
    /// Where the attacker would shift an injury.
    pub aim: Option<Location>,
    /// What did it.
    pub cause: String,
}

/// Mark `count` rank losses on `side` (with crossover); Out of Action when a side reaches 0 (−3
/// for the Heroic). Returns whether the figure went Out of Action now.
pub fn lose_ranks(
    work: &mut Work,
    id: &str,
    side: RankSide,
    count: u32,
    bane: bool,
    cause: &str,
) -> Result<bool, RuleError> {
    let figure = work.figure(id)?;
    if !figure.active() || count == 0 {
        return Ok(false);
    }
    let marked = ranks::mark(figure.ranks(side), figure.ranks(side.other()), count, figure.spec.crossover_every, bane);
    if marked.lost + marked.crossover > 0 {
        work.emit(E::RanksLost {
            figure: id.into(),
            side,
            lost: marked.lost,
            crossover: marked.crossover,
            cause: cause.into(),
        });
    }
    let figure = work.figure(id)?;
    if figure.physical.out() || figure.mental.out() {
        work.emit(E::OutOfAction { figure: id.into(), cause: format!("ranks exhausted ({cause})") });
        return Ok(true);
    }
    Ok(false)
}

/// A BODY roll against death: no success and the figure is Killed in Action.
pub fn death_roll(work: &mut Work, id: &str, cause: &str) -> Result<bool, RuleError> {
    let body = u32::from(work.figure(id)?.spec.characteristics.body);
    let roll = work.roll_for(id, RollKind::Body, body, 0, &format!("BODY roll of {id} against death"), false)?;
    let killed = !roll.passed();
    let next_word = work.next_word();
    work.emit(E::DeathRolled { figure: id.into(), roll, next_word });
    if killed {
        work.emit(E::Killed { figure: id.into(), cause: cause.into() });
    }
    Ok(killed)
}

/// The State a hit on `side` gives.
pub fn state_of(side: RankSide, magic: bool) -> StateKind {
    match (magic, side) {
        (true, _) => StateKind::Doubt,
        (false, RankSide::Physical) => StateKind::Stun,
        (false, RankSide::Mental) => StateKind::Shock,
    }
}

/// The pools a figure loses to a State, Trauma or worse.
pub fn lose_pools(work: &mut Work, id: &str, reason: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let (defence, action) = (figure.dodge_pool > 0 || figure.block_pool > 0, figure.action_pool.is_some());
    if defence {
        work.emit(E::DefencePoolsChanged { figure: id.into(), dodge: 0, block: 0, reason: reason.into() });
    }
    if action {
        work.emit(E::ActionPoolChanged { figure: id.into(), pool: None, reason: reason.into() });
    }
    Ok(())
}

/// Apply a hit: a State (when the target is not in it already, is not stateless and does not
/// take the rank) or a rank loss; Trauma (pools lost, an injury), a Killing Blow (Out of Action,
/// an injury at +1), Massive damage (a BODY roll against death besides); mentally, Panicked and
/// Crushed. An Out of Action figure hit again rolls BODY or is Killed.
pub fn apply(work: &mut Work, hit: &Hit) -> Result<(), RuleError> {
    let id = hit.target;
    let figure = work.figure(id)?;
    if hit.damage == 0 || figure.killed {
        return Ok(());
    }
    if figure.out_of_action {
        if hit.side == RankSide::Physical
            && death_roll(work, id, &format!("hit again while out of action ({})", hit.cause))?
        {
            injuries::roll_injury(work, id, false, hit.aim, "killed in action")?;
        }
        check_battle_end(work);
        return Ok(());
    }
    let total = figure.ranks(hit.side).total();
    let severity = severity(hit.damage, total, hit.massive_weapon);
    let state = state_of(hit.side, hit.magic);
    if !figure.spec.stateless && !figure.states.contains(&state) && !hit.take_rank {
        work.emit(E::StateTaken { figure: id.into(), state, cause: hit.cause.clone() });
    } else {
        lose_ranks(work, id, hit.side, 1, hit.bane, &hit.cause)?;
    }
    if hit.side == RankSide::Mental {
        mental_effects(work, id, severity.trauma, severity.killing_blow, &hit.cause)?;
        check_battle_end(work);
        return Ok(());
    }
    let mut injure = severity.trauma || !work.figure(id)?.active();
    if severity.trauma {
        lose_pools(work, id, "trauma")?;
    }
    if severity.killing_blow && work.figure(id)?.active() {
        let what = if severity.massive { "massive damage" } else { "a killing blow" };
        work.emit(E::OutOfAction { figure: id.into(), cause: format!("{what} ({})", hit.cause) });
        injure = true;
    }
    if severity.massive {
        death_roll(work, id, &format!("massive damage ({})", hit.cause))?;
    }
    if injure {
        let why = if severity.killing_blow {
            "a killing blow"
        } else if severity.trauma {
            "trauma"
        } else {
            "out of action"
        };
        injuries::roll_injury(work, id, severity.killing_blow || severity.massive, hit.aim, why)?;
    }
    check_battle_end(work);
    Ok(())
}

/// Panicked above the starting mental rank, Crushed above twice (seed 004 "Mental Damage").
fn mental_effects(work: &mut Work, id: &str, panicked: bool, crushed: bool, cause: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    if !figure.active() {
        return Ok(());
    }
    let morale = if crushed {
        Morale::Crushed { waited: false }
    } else if panicked && !matches!(figure.morale, Morale::Crushed { .. }) {
        Morale::Panicked { fled: false }
    } else {
        return Ok(());
    };
    let next_word = work.next_word();
    work.emit(E::MoraleChanged { figure: id.into(), morale, roll: None, cause: cause.into(), next_word });
    if crushed {
        lose_pools(work, id, "crushed")?;
    }
    Ok(())
}

/// End the battle when at most one side has a figure able to fight.
pub fn check_battle_end(work: &mut Work) {
    if work.state.ended() {
        return;
    }
    let standing = work.state.standing_sides();
    if standing.len() <= 1 {
        let winner = standing.first().cloned();
        let reason = match &winner {
            Some(side) => format!("only {side} has figures still in action"),
            None => "no side has a figure still in action".into(),
        };
        work.emit(E::BattleEnded { winner, reason });
    }
}
