//! The combat procedure (seed 001 "Combat procedure"): rounds, the initiative holder choosing
//! who acts first, factions alternating a turn with one character or a pass, forced passes, and
//! the end of the round when every faction has passed in a row.

use super::{acts_for, character, morale, nothing_pending, refuse, require_controller, require_faction, Decision};
use crate::{
    zone_rpg::{
        event::ZoneRpgEvent,
        rules,
        state::{character::TurnUse, Phase},
    },
    RuleError,
};

/// The initiative holder starts a round, choosing the faction that acts first (seed 001
/// "Combat procedure": "The faction holding the initiative can decide which faction acts first
/// at the start of each round"). The first round is the concealed characters' bonus round when
/// anyone launched an ambush (seed 001 "Sneaking in combat").
pub fn start_round(d: &mut Decision, first_faction: &str) -> Result<(), RuleError> {
    if !matches!(d.state.phase, Phase::Ready | Phase::BetweenRounds) {
        return Err(refuse("round_in_progress", "a round is already being played", rules::COMBAT_PROCEDURE));
    }
    let Some(initiative) = d.state.initiative.clone() else {
        return Err(refuse(
            "initiative_unknown",
            "nobody holds the initiative yet: the GM rolls for it first (roll_initiative)",
            rules::COMBAT_PROCEDURE,
        ));
    };
    require_faction(&d.state, &initiative, d.ctx)?;
    if d.state.faction(first_faction).is_none() {
        return Err(refuse("unknown_faction", format!("{first_faction} is not a faction"), rules::COMBAT_PROCEDURE));
    }
    let (round, bonus) = if d.state.rounds_started == 0 {
        let ambush = d.state.characters.iter().any(|c| c.ambusher && c.standing());
        if ambush {
            (0, true)
        } else {
            (1, false)
        }
    } else {
        (d.state.round + 1, false)
    };
    d.emit(ZoneRpgEvent::RoundStarted { round, bonus, first_faction: first_faction.to_string() });
    Ok(())
}

fn your_go(d: &Decision, faction: &str) -> Result<(), RuleError> {
    if d.state.phase != Phase::Round {
        return Err(refuse("not_in_round", "no round is being played: start one first", rules::COMBAT_PROCEDURE));
    }
    if d.state.turn.is_some() {
        return Err(refuse("turn_in_progress", "a turn is in progress: end it first", rules::COMBAT_PROCEDURE));
    }
    nothing_pending(&d.state)?;
    match d.state.current_faction.as_deref() {
        Some(current) if current == faction => Ok(()),
        current => Err(refuse(
            "not_your_go",
            format!("{} is to take a turn or pass now, not {faction}", current.unwrap_or("nobody")),
            rules::COMBAT_PROCEDURE,
        )),
    }
}

/// The faction whose go it is takes a turn with one of its characters (seed 001 "Combat
/// procedure": "Each character can only take a turn once per round"); a mount takes it with its
/// riders (seed 001 "Mounts and vehicles in combat").
pub fn take_turn(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let taker = character(&d.state, id)?.clone();
    require_controller(&d.state, &taker, d.ctx)?;
    your_go(d, taker.faction())?;
    if taker.turn != TurnUse::Available {
        return Err(refuse(
            "turn_already_taken",
            format!("{id} has already taken its turn (or spent it reacting) this round"),
            rules::COMBAT_PROCEDURE,
        ));
    }
    if d.state.bonus_round && !taker.ambusher {
        return Err(refuse(
            "bonus_round",
            format!("only the characters who launched the ambush act in the bonus round, not {id}"),
            rules::SNEAKING,
        ));
    }
    if !d.state.may_take_turn(&taker) {
        return Err(refuse(
            "cannot_act",
            format!("{id} cannot take a turn: it is incapacitated, dead, surrendering or gone"),
            rules::COMBAT_PROCEDURE,
        ));
    }
    let characters = d.state.turn_group(&taker);
    d.emit(ZoneRpgEvent::TurnTaken { faction: taker.faction().to_string(), characters });
    Ok(())
}

/// The faction whose go it is passes (seed 001 "Combat procedure").
pub fn pass(d: &mut Decision, faction: &str) -> Result<(), RuleError> {
    if d.state.faction(faction).is_none() {
        return Err(refuse("unknown_faction", format!("{faction} is not a faction"), rules::COMBAT_PROCEDURE));
    }
    your_go(d, faction)?;
    require_faction(&d.state, faction, d.ctx)?;
    let consecutive = d.state.consecutive_passes + 1;
    d.emit(ZoneRpgEvent::FactionPassed { faction: faction.to_string(), forced: false, consecutive });
    Ok(())
}

/// End the turn in progress: play goes to the next faction (seed 001 "Combat procedure": "Since
/// he didn't pass, play goes back to the players").
pub fn end_turn(d: &mut Decision) -> Result<(), RuleError> {
    let Some(turn) = d.state.turn.clone() else {
        return Err(refuse("no_turn", "no turn is in progress", rules::COMBAT_PROCEDURE));
    };
    nothing_pending(&d.state)?;
    let controls_one = turn
        .members
        .iter()
        .filter_map(|member| d.state.character(&member.character))
        .any(|member| acts_for(&d.state, member, d.ctx));
    if !controls_one {
        return Err(super::forbid("not_your_character", "only the GM or a player taking this turn may end it"));
    }
    let characters = turn.members.iter().map(|m| m.character.clone()).collect();
    let together = turn.members.len() > 1;
    let reserved =
        turn.members.iter().filter(|m| together && m.active && !m.acted).map(|m| m.character.clone()).collect();
    d.emit(ZoneRpgEvent::TurnEnded { faction: turn.faction, characters, reserved });
    Ok(())
}

/// End the turn in progress when none of its active members is still standing: a mover dropped
/// by an opportunity attack does not get its turn back (seed 001 "Opportunity attacks": "their
/// turn resumes if they are still alive and conscious"), and nobody else in the turn is left to
/// end it. A mount's turn whose rider is still up goes on (the fallen member alone is refused,
/// see `acting_member`).
pub fn end_turn_of_the_fallen(d: &mut Decision) {
    let Some(turn) = d.state.turn.clone() else { return };
    let someone_up = turn
        .members
        .iter()
        .filter(|m| m.active && !m.done)
        .any(|m| d.state.character(&m.character).is_some_and(|c| c.standing()));
    if someone_up {
        return;
    }
    let characters = turn.members.iter().map(|m| m.character.clone()).collect();
    d.emit(ZoneRpgEvent::TurnEnded { faction: turn.faction, characters, reserved: Vec::new() });
}

/// Between turns: a faction with no character left to act must pass (seed 001 "Combat
/// procedure": "The GM must pass because all bandits have taken their turn"), and when every
/// faction has passed in a row the round ends and morale is checked.
pub fn advance(d: &mut Decision) -> Result<(), RuleError> {
    loop {
        if d.state.phase != Phase::Round || d.state.turn.is_some() {
            return Ok(());
        }
        let factions = u32::try_from(d.state.factions.len()).unwrap_or(u32::MAX);
        if d.state.consecutive_passes >= factions {
            let round = d.state.round;
            d.emit(ZoneRpgEvent::RoundEnded { round });
            return morale::check(d);
        }
        let Some(current) = d.state.current_faction.clone() else { return Ok(()) };
        if d.state.faction_can_act(&current) {
            return Ok(());
        }
        let consecutive = d.state.consecutive_passes + 1;
        d.emit(ZoneRpgEvent::FactionPassed { faction: current, forced: true, consecutive });
    }
}
