//! Read models of the round beyond the map: the control list with its authority and each
//! player's standing (seed 003 ch. 5), the votes as a reader may see them (§1.4), and the judges
//! with their calls, sanctions and reprimands (§1.3, §5.4.1).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    coalition::{
        army::Team,
        campaign::{
            control::{activity, limits::namesake, IllegalControl, Inactivity},
            judges::{Appointment, CallRecord},
            newcomers::Newcomer,
            sanctions::{PlayerReprimanded, SanctionImposed},
            voting::{OptionTally, VoteSystem},
            CampaignState,
        },
        rank::Rank,
    },
    viewer::Viewer,
};

/// A side's authority over the control list (seed 003 §5.2.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AuthorityView {
    /// The side.
    pub team: Team,
    /// The players holding it.
    pub holders: Vec<String>,
    /// A judge's emergency authorization ending with this turn.
    pub emergency_until_turn: Option<u32>,
}

/// One army's line of the control list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ArmyControlView {
    /// The army.
    pub army: String,
    /// Its side.
    pub team: Team,
    /// Its controllers (empty: none, seed 003 §5.3.1).
    pub controllers: Vec<String>,
    /// Its controllers at the movement lock, while a turn is locked (seed 003 §5.4.2).
    pub at_lock: Option<Vec<String>>,
    /// The player it is named after (seed 003 §5.3.2).
    pub namesake: Option<String>,
}

/// A player's standing (seed 003 §5.1, §5.2.3, §5.3.4, §2.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerStanding {
    /// The player.
    pub player: String,
    /// Their side.
    pub team: Team,
    /// Their rank.
    pub rank: Rank,
    /// The armies they control.
    pub armies: Vec<String>,
    /// Active now (seed 003 §5.1).
    pub active: bool,
    /// When they last posted.
    pub last_posted: Option<DateTime<Utc>>,
    /// A declaration of inactivity standing.
    pub inactive: Option<Inactivity>,
    /// Their contingency (seed 003 §5.2.3).
    pub contingency: Option<String>,
    /// A new army must be found for them (seed 003 §5.3.4).
    pub owed_an_army: bool,
    /// Their progress as a new player (seed 003 §2.6).
    pub newcomer: Option<Newcomer>,
}

/// The control list and what surrounds it (`GET …/control`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ControlView {
    /// Each side's authority.
    pub authority: Vec<AuthorityView>,
    /// Every army's controllers.
    pub armies: Vec<ArmyControlView>,
    /// Every player on the roster.
    pub players: Vec<PlayerStanding>,
    /// Changes the judge accepted against §5.3, and the turn they must be legal again by.
    pub illegal: Vec<IllegalControl>,
    /// §5.3.3 is obsolete and not enforced (seed 003 §5.3.3).
    pub obsolete_rules: Vec<String>,
}

/// The control list as of `now` (the activity of §5.1 depends on the time).
pub fn control_view(state: &CampaignState, now: DateTime<Utc>) -> ControlView {
    ControlView {
        authority: state
            .control
            .authority
            .iter()
            .map(|(team, a)| AuthorityView {
                team: *team,
                holders: a.holders.clone(),
                emergency_until_turn: a.emergency_until_turn,
            })
            .collect(),
        armies: state
            .armies
            .iter()
            .map(|(name, army)| ArmyControlView {
                army: name.clone(),
                team: army.army.team,
                controllers: army.controllers.iter().cloned().collect(),
                at_lock: state
                    .control
                    .at_lock
                    .as_ref()
                    .and_then(|list| list.get(name))
                    .map(|c| c.iter().cloned().collect()),
                namesake: namesake(state, name).map(|player| player.name.clone()),
            })
            .collect(),
        players: state
            .players
            .iter()
            .map(|player| PlayerStanding {
                player: player.name.clone(),
                team: player.team,
                rank: player.rank,
                armies: activity::armies_of(state, &player.name).into_iter().map(str::to_string).collect(),
                active: activity::is_active(state, &player.name, now),
                last_posted: state.control.last_posted.get(&player.name).copied(),
                inactive: state.control.inactive.get(&player.name).cloned(),
                contingency: state.control.contingencies.get(&player.name).cloned(),
                owed_an_army: state.control.owed.contains(&player.name),
                newcomer: state.newcomers.get(&player.name).cloned(),
            })
            .collect(),
        illegal: state.control.illegal.clone(),
        obsolete_rules: vec![
            "seed 003 §5.3.3 (number of armies): obsolete, not enforced pending an official re-write".into()
        ],
    }
}

/// A ballot as the reader may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BallotView {
    /// The voter.
    pub player: String,
    /// The option chosen (hidden in a secret vote).
    pub option: Option<String>,
    /// Its points.
    pub points: u32,
}

/// A vote and its results as the reader may see them (`GET …/votes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VoteView {
    /// Its id.
    pub vote: String,
    /// Who called it.
    pub called_by: String,
    /// The topic.
    pub topic: String,
    /// The options.
    pub options: Vec<String>,
    /// When it closes.
    pub closes_at: DateTime<Utc>,
    /// The system (seed 003 §1.4).
    pub system: VoteSystem,
    /// Whether who voted what is secret.
    pub secret: bool,
    /// Whether it has been closed.
    pub closed: bool,
    /// Every ballot: the choice shown in an open vote, to judges, and to the voter.
    pub ballots: Vec<BallotView>,
    /// The tally: as it stands in an open vote; in a secret vote once closed (judges always).
    pub tally: Option<Vec<OptionTally>>,
    /// The options with the most points, once closed.
    pub winners: Vec<String>,
}

/// Every vote as `viewer` may see it.
pub fn vote_views(state: &CampaignState, viewer: &Viewer) -> Vec<VoteView> {
    state
        .votes
        .values()
        .map(|vote| {
            let called = &vote.called;
            let sees_all = !called.secret || viewer.is_judge();
            VoteView {
                vote: called.vote.clone(),
                called_by: called.called_by.clone(),
                topic: called.topic.clone(),
                options: called.options.clone(),
                closes_at: called.closes_at,
                system: called.system.clone(),
                secret: called.secret,
                closed: vote.closed.is_some(),
                ballots: vote
                    .ballots
                    .iter()
                    .map(|(player, ballot)| BallotView {
                        player: player.clone(),
                        option: (sees_all || viewer.is_player(player)).then(|| ballot.option.clone()),
                        points: ballot.points,
                    })
                    .collect(),
                tally: (sees_all || vote.closed.is_some()).then(|| vote.tally()),
                winners: vote.closed.as_ref().map(|closed| closed.winners.clone()).unwrap_or_default(),
            }
        })
        .collect()
}

/// The judges, their calls, sanctions and reprimands (`GET …/judges`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct JudgesView {
    /// The appointed judges (none: every judge acts as the head Battle Judge).
    pub appointments: Vec<Appointment>,
    /// Every call, by number.
    pub calls: Vec<CallRecord>,
    /// Sanctions imposed (seed 003 §5.4.1).
    pub sanctions: Vec<SanctionImposed>,
    /// Reprimands recorded (seed 003 §5.4.1).
    pub reprimands: Vec<PlayerReprimanded>,
}

/// The judges of the round.
pub fn judges_view(state: &CampaignState) -> JudgesView {
    JudgesView {
        appointments: state.judges.appointments.clone(),
        calls: state.judges.calls.values().cloned().collect(),
        sanctions: state.sanctions.clone(),
        reprimands: state.reprimands.clone(),
    }
}
