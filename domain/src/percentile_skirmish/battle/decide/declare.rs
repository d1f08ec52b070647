//! Declarations (seed 002 "TURN": "At the beginning of an initiative round, each participant
//! must declare which mini's will be performing actions during that particular round").

use super::{
    acts_for, emit,
    flow::{all_declared, reveal_round},
    forbid, mini_in_play, refuse,
};
use crate::{
    percentile_skirmish::{
        battle::{
            event::SkirmishEvent,
            state::{MiniState, Phase, SkirmishState},
        },
        headings, SERVICE_RULES,
    },
    Context, RuleError,
};

/// A participant declares which of its minis act this round (seed 002 "TURN").
pub fn declare(
    state: &SkirmishState,
    participant: &str,
    minis: &[String],
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    if state.participant(participant).is_none() {
        return Err(refuse("unknown_participant", format!("{participant} is not a participant"), SERVICE_RULES));
    }
    if !acts_for(state, participant, ctx) {
        return Err(forbid(
            "not_your_participant",
            format!("only {participant}'s controller or a judge may declare for it"),
        ));
    }
    let (Phase::Declaring, Some(round)) = (state.phase, state.round.as_ref()) else {
        return Err(refuse(
            "not_declaring",
            "declarations are made at the beginning of an initiative round; this round's minis are acting",
            headings::TURN,
        ));
    };
    let declaration = round.declarations.iter().find(|d| d.participant == participant);
    if declaration.is_some_and(|d| d.declared.is_some()) {
        return Err(refuse(
            "nothing_to_declare",
            format!("{participant} has already declared for round {}", round.value),
            headings::TURN,
        ));
    }
    // Each mini named is checked before the participant is told it has nothing to declare, so
    // a mini that already acted or whose initiative is too low is refused for that reason.
    let mut chosen: Vec<String> = Vec::new();
    for id in minis {
        let mini = mini_in_play(state, id)?;
        let may = declaration.is_some_and(|d| d.eligible.contains(id) || d.must_act.contains(id));
        if !may {
            return Err(not_eligible(state, mini, participant, round.value));
        }
        if !chosen.contains(id) {
            chosen.push(id.clone());
        }
    }
    if declaration.is_none_or(|d| d.eligible.is_empty()) {
        return Err(refuse(
            "nothing_to_declare",
            format!("{participant} has no mini that may act in round {}", round.value),
            headings::TURN,
        ));
    }
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::Declared {
            turn: state.turn,
            round: round.value,
            participant: participant.to_string(),
            minis: chosen,
        },
    );
    if all_declared(&working) {
        reveal_round(&mut working, &mut events, ctx)?;
    }
    Ok(events)
}

/// Why `mini` may not be declared by `participant` in round `value`.
fn not_eligible(state: &SkirmishState, mini: &MiniState, participant: &str, value: i32) -> RuleError {
    let id = mini.id();
    if state.acting_participant(mini) != participant {
        return refuse("mini_of_another_participant", format!("{id} does not act for {participant}"), SERVICE_RULES);
    }
    if mini.this_turn.acted {
        return refuse(
            "already_acted",
            format!("{id} has already performed actions in an earlier round of this turn"),
            headings::TURN,
        );
    }
    if mini.initiative() < value {
        return refuse(
            "initiative_too_low",
            format!(
                "{id}'s initiative is {}, lower than this round's {value}: it may act in a later round",
                mini.initiative()
            ),
            headings::TURN,
        );
    }
    if mini.is_golem() && !mini.golem_active {
        return refuse(
            "golem_inactive",
            format!("{id} is out of its caster's control and inactive"),
            "seed 002 \"Golem\"",
        );
    }
    refuse("nothing_to_declare", format!("{participant} has no mini that may act in round {value}"), headings::TURN)
}
