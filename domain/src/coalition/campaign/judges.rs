//! The judges (seed 003 §1.3, §3.3.3): the Movement Judge, the Battle Judge (the head judge),
//! the Mercenary Judge (ch. 6) and assistants "treated exactly the same as the first judge holding
//! that position by the rules, except that the head battle judge can overrule the assistant
//! battle judge"; "only the battle judge can overrule a call made by the movement judge" (§3.3.3).
//!
//! Readings: a round without appointed judges is run by any judge token, each acting as the head
//! Battle Judge (as before this roster existed); once a judge is appointed, only appointed judges
//! (and admins, who stand in for the head Battle Judge) act as judges of the round. The Battle
//! Judge may do anything the Movement Judge may ("anything the battle judge says is law"). A
//! judge's call — a ruling, a sanction, a rejected inactivity declaration — is numbered; an
//! overrule is a new event that undoes the call's effect, never a rewrite of the log.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{control::Inactivity, state::CampaignState};
use crate::{Context, Role, RuleError};

/// A judge's position (seed 003 §1.3, ch. 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Office {
    /// Operates the battle system; the head judge.
    Battle,
    /// Keeps the map and the turn updates.
    Movement,
    /// Runs the three mercenary factions.
    Mercenary,
}

/// A judge appointed to the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Appointment {
    /// The judge's actor id (`token:…`, as `GET /v1/tokens/me` says).
    pub judge: String,
    /// The position.
    pub office: Office,
    /// An assistant judge of that position.
    pub assistant: bool,
}

/// Who made a call and its number: what an overrule refers to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JudgeCall {
    /// The call's number in the round, from 1.
    pub call: u32,
    /// The judge's actor id.
    pub judge: String,
    /// The position the call was made in.
    pub office: Office,
    /// Made by an assistant.
    pub assistant: bool,
}

impl JudgeCall {
    /// How high the seat ranks for overrules: head battle judge 3, assistant battle judge 2, the
    /// others 1.
    pub fn standing(&self) -> u8 {
        match (self.office, self.assistant) {
            (Office::Battle, false) => 3,
            (Office::Battle, true) => 2,
            _ => 1,
        }
    }
}

/// How an overrule undoes a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Undo {
    /// The army ruled on goes back where it was.
    MoveBack {
        /// The army.
        army: String,
        /// Where it goes back to.
        to: crate::coalition::map::Square,
    },
    /// A sanction's troops are given back (up to full strength).
    RestoreTroops {
        /// The army.
        army: String,
        /// Troops given back per line.
        troops: Vec<u32>,
    },
    /// A rejected declaration of inactivity stands again.
    ReinstateInactivity {
        /// The player.
        player: String,
        /// The declaration.
        declaration: Inactivity,
    },
    /// Nothing left to undo (the army is gone).
    Nothing,
}

/// A call on record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CallRecord {
    /// Who made it.
    pub call: JudgeCall,
    /// What it was, in words.
    pub what: String,
    /// Overruled since.
    pub overruled: bool,
    /// How an overrule would undo it.
    pub undo: Undo,
}

/// The round's judges and their calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeRoster {
    /// Appointments, in order.
    #[serde(default)]
    pub appointments: Vec<Appointment>,
    /// Calls by number.
    #[serde(default)]
    pub calls: BTreeMap<u32, CallRecord>,
}

impl JudgeRoster {
    /// The number the next call gets.
    pub fn next_call(&self) -> u32 {
        self.calls.keys().next_back().map_or(1, |last| last + 1)
    }
}

/// A judge appointed (event `coalition.JudgeAppointed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JudgeAppointed {
    /// The appointment.
    pub appointment: Appointment,
    /// Who appointed them.
    pub by: String,
}

/// A call overruled (event `coalition.CallOverruled`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CallOverruled {
    /// The call overruled.
    pub call: u32,
    /// The judge who overruled it.
    pub by: JudgeCall,
    /// Why.
    pub reason: String,
    /// What is undone.
    pub undo: Undo,
}

fn forbidden(code: &str, message: String, rule: &str) -> RuleError {
    RuleError::forbidden(format!("coalition.campaign.{code}"), message, rule)
}

/// The seats `ctx.actor` holds in this round, best first.
pub fn seats(state: &CampaignState, ctx: &Context) -> Vec<(Office, bool)> {
    match ctx.actor.role {
        Role::Admin | Role::System => vec![(Office::Battle, false)],
        Role::Judge if state.judges.appointments.is_empty() => vec![(Office::Battle, false)],
        Role::Judge => {
            let mut seats: Vec<(Office, bool)> = state
                .judges
                .appointments
                .iter()
                .filter(|a| a.judge == ctx.actor.id)
                .map(|a| (a.office, a.assistant))
                .collect();
            seats.sort();
            seats
        }
        _ => Vec::new(),
    }
}

/// The call `ctx.actor` makes in one of `offices` (a Battle Judge may act for any of them), or
/// why they may not: `what` is said in the refusal.
pub fn require(state: &CampaignState, ctx: &Context, offices: &[Office], what: &str) -> Result<JudgeCall, RuleError> {
    let seats = seats(state, ctx);
    if !ctx.actor.is_judge() && ctx.actor.role != Role::System {
        return Err(forbidden("not_a_judge", format!("only a judge may {what}"), "seed 003 §1.3"));
    }
    let seat = seats.iter().find(|(office, _)| *office == Office::Battle || offices.contains(office));
    let Some((office, assistant)) = seat.copied() else {
        let named: Vec<String> = offices.iter().map(|o| format!("{o:?}").to_lowercase()).collect();
        return Err(forbidden(
            "not_a_judge_here",
            format!("only the round's {} judge may {what}", named.join(" or ")),
            "seed 003 §1.3",
        ));
    };
    Ok(JudgeCall { call: state.judges.next_call(), judge: ctx.actor.id.clone(), office, assistant })
}

/// Whether `by` may overrule `call` (seed 003 §1.3, §3.3.3): the head Battle Judge overrules any
/// call, an assistant Battle Judge those of the Movement and Mercenary Judges.
pub fn may_overrule(by: &JudgeCall, call: &JudgeCall) -> bool {
    by.standing() == 3 || by.standing() > call.standing()
}
