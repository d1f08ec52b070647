//! Opening a battle (and its first round), entropy, a judge's life points, ending the battle.

use std::collections::BTreeSet;

use super::{emit, flow, forbid, mini_in_play, refuse};
use crate::{
    percentile_skirmish::{
        battle::{
            command::{ParticipantSpec, Summons},
            event::SkirmishEvent,
            state::SkirmishState,
        },
        headings,
        mini::MiniSpec,
        rules::BattleOptions,
        table::Table,
        SERVICE_RULES,
    },
    Context, RuleError,
};

pub use crate::percentile_skirmish::limits::{MAX_MINIS, MAX_PARTICIPANTS};
/// The longest id or name, in characters (a service limit).
pub const MAX_NAME: usize = 100;

/// What a battle is opened with.
pub struct Setup<'a> {
    /// The table.
    pub table: &'a Table,
    /// The participants.
    pub participants: &'a [ParticipantSpec],
    /// The minis.
    pub minis: &'a [MiniSpec],
    /// The readings.
    pub options: &'a BattleOptions,
    /// The summons.
    pub summons: &'a Summons,
    /// The seed's commitment.
    pub seed_commitment: &'a str,
}

/// Open the battle: a judge sets the table, the participants and every mini; turn 1 begins
/// with its first initiative round.
pub fn create(state: &SkirmishState, setup: &Setup<'_>, ctx: &mut Context) -> Result<Vec<SkirmishEvent>, RuleError> {
    if !ctx.actor.is_judge() {
        return Err(forbid("judge_only", "only a judge or an admin may open a battle"));
    }
    if state.created() {
        return Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES));
    }
    let commitment = setup.seed_commitment;
    if !(commitment.len() == 64 && commitment.bytes().all(|byte| byte.is_ascii_hexdigit())) {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits",
            SERVICE_RULES,
        ));
    }
    setup.table.validate()?;
    setup.options.validate()?;
    check_participants(setup.participants)?;
    check_minis(setup)?;
    if let Some(golem) = &setup.summons.golem {
        golem.validate("the golem")?;
    }
    if let Some(familiar) = &setup.summons.familiar {
        familiar.profile.validate("the familiar")?;
        if familiar.effect.chars().count() > 2000 {
            return Err(refuse("bad_profile", "the familiar's effect is at most 2000 characters", SERVICE_RULES));
        }
    }
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::BattleCreated {
            table: setup.table.clone(),
            participants: setup.participants.to_vec(),
            minis: setup.minis.to_vec(),
            options: *setup.options,
            summons: setup.summons.clone(),
            seed_commitment: commitment.to_ascii_lowercase(),
        },
    );
    flow::start_turn(&mut working, &mut events, ctx)?;
    Ok(events)
}

fn check_name(kind: &str, name: &str) -> Result<(), RuleError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(refuse(
            "bad_name",
            format!("a {kind} needs a name of 1 to {MAX_NAME} printable characters"),
            SERVICE_RULES,
        ));
    }
    Ok(())
}

fn check_participants(participants: &[ParticipantSpec]) -> Result<(), RuleError> {
    if participants.len() < 2 || participants.len() > MAX_PARTICIPANTS {
        return Err(refuse(
            "participants",
            format!("a battle needs 2 to {MAX_PARTICIPANTS} participants"),
            headings::TURN,
        ));
    }
    let mut names = BTreeSet::new();
    for participant in participants {
        check_name("participant", &participant.name)?;
        check_name("controller", &participant.controller)?;
        if !names.insert(participant.name.as_str()) {
            return Err(refuse(
                "duplicate_participant",
                format!("two participants are named {}", participant.name),
                SERVICE_RULES,
            ));
        }
    }
    Ok(())
}

fn check_minis(setup: &Setup<'_>) -> Result<(), RuleError> {
    let minis = setup.minis;
    if minis.is_empty() || minis.len() > MAX_MINIS {
        return Err(refuse("mini_count", format!("a battle needs 1 to {MAX_MINIS} minis"), SERVICE_RULES));
    }
    let mut ids = BTreeSet::new();
    for spec in minis {
        check_name("mini", &spec.id)?;
        if !ids.insert(spec.id.as_str()) {
            return Err(refuse(
                "duplicate_mini",
                format!("every mini needs its own id ({} is taken)", spec.id),
                SERVICE_RULES,
            ));
        }
        if setup.participant_missing(&spec.participant) {
            return Err(refuse(
                "unknown_participant",
                format!("mini {} belongs to {}, who is not a participant", spec.id, spec.participant),
                SERVICE_RULES,
            ));
        }
        spec.profile.validate(&spec.id)?;
        if !(setup.table.contains(spec.position) && spec.facing.is_finite()) {
            return Err(refuse(
                "off_table",
                format!("{} must stand on the table and face a finite direction", spec.id),
                SERVICE_RULES,
            ));
        }
    }
    for participant in setup.participants {
        let cost: u32 =
            minis.iter().filter(|m| m.participant == participant.name).map(|m| m.profile.total_cost()).sum();
        if let Some(limit) = participant.points_limit.filter(|limit| cost > *limit) {
            return Err(refuse(
                "over_points",
                format!(
                    "{}'s minis cost {cost} points with their resistances, over its limit of {limit}",
                    participant.name
                ),
                headings::RESISTANCES,
            ));
        }
    }
    Ok(())
}

impl Setup<'_> {
    fn participant_missing(&self, name: &str) -> bool {
        !self.participants.iter().any(|participant| participant.name == name)
    }
}

/// A participant mixes entropy into the seed before the first die (DESIGN.md "Dice that anyone
/// can check").
pub fn contribute_entropy(
    state: &SkirmishState,
    entropy: &str,
    ctx: &Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    let participant = state.participants.iter().any(|p| ctx.actor.is_player(&p.controller));
    Ok(vec![SkirmishEvent::EntropyContributed(state.dice.contribute(
        entropy,
        participant,
        ctx,
        "percentile-skirmish",
    )?)])
}

/// A judge sets a mini's life points; 0 kills it, with what follows.
pub fn set_life_points(
    state: &SkirmishState,
    mini: &str,
    life: u32,
    reason: &str,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    if !ctx.actor.is_judge() {
        return Err(forbid("judge_only", "only a judge may set life points"));
    }
    let target = mini_in_play(state, mini)?;
    check_reason(reason)?;
    if life > target.spec.profile.life {
        return Err(refuse(
            "bad_life",
            format!("{mini} starts with {} life points and never has more", target.spec.profile.life),
            SERVICE_RULES,
        ));
    }
    let killed = life == 0;
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::LifePointsSet { mini: target.id().to_string(), life, killed, reason: reason.to_string() },
    );
    if killed {
        flow::after_kills(&mut working, &mut events, &[mini.to_string()], ctx)?;
    }
    Ok(events)
}

fn check_reason(reason: &str) -> Result<(), RuleError> {
    if reason.trim().is_empty() || reason.chars().count() > 2000 {
        return Err(refuse("reason_required", "say why (1 to 2000 characters)", SERVICE_RULES));
    }
    Ok(())
}

/// A judge ends the battle with a winner (or none), or a participant concedes by naming
/// another winner.
pub fn end_battle(
    state: &SkirmishState,
    winner: Option<&str>,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    if state.ended() {
        return Err(refuse("ended", "the battle has already ended", SERVICE_RULES));
    }
    check_reason(reason)?;
    if let Some(winner) = winner {
        if state.participant(winner).is_none() {
            return Err(refuse("unknown_participant", format!("{winner} is not a participant"), SERVICE_RULES));
        }
    }
    if !ctx.actor.is_judge() {
        let conceding = state.participants.iter().find(|p| ctx.actor.is_player(&p.controller));
        match (conceding, winner) {
            (Some(participant), Some(winner)) if winner != participant.name => {}
            _ => {
                return Err(forbid(
                    "judge_only",
                    "only a judge may end the battle; a participant may concede by naming another participant as the winner",
                ))
            }
        }
    }
    Ok(vec![SkirmishEvent::BattleEnded { winner: winner.map(str::to_string), reason: reason.to_string() }])
}
