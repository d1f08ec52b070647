//! Voting (seed 003 §1.4): a vote called on a topic with options and a closing time, under one
//! of the seed's three systems; one vote per player; the tally as a projection of the ballots.
//!
//! - §1.4.1 normal voting: every player votes once; the General or Chief Praetor counts 3 points,
//!   an Admiral or Praetor 2, everyone else 1;
//! - §1.4.2 leader voting: only the Generals, Chief Praetors, Admirals and Praetors, 1 point each;
//! - §1.4.3 special votes: "whoever posted the vote will tell what votes are needed" — the caller
//!   names the voters, each 1 point unless the call gives another number.
//!
//! Readings: a vote is called by a player of the round (or a judge); the voters' ranks are those
//! when they vote; a ballot after the closing time is refused; any player of the round (or a
//! judge) may close a vote once its time has passed, and the closing records the tally. A vote says whether it is open (who voted
//! what is public) or secret (only who voted is public; the choices are the judges' and the
//! voter's own, and the tally is shown once the vote is closed).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{control::activity::player, state::CampaignState};
use crate::{coalition::rank::Rank, Context, RuleError};

/// A special vote's voter and their points (seed 003 §1.4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Voter {
    /// The player.
    pub player: String,
    /// Their points, 1 unless stated.
    #[serde(default)]
    pub points: Option<u32>,
}

/// Which of the seed's systems a vote uses (seed 003 §1.4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum VoteSystem {
    /// §1.4.1: everyone; General/CP 3 points, Admiral/Praetor 2, others 1.
    #[default]
    Normal,
    /// §1.4.2: only the leaders, 1 point each.
    Leaders,
    /// §1.4.3: the voters the caller names, 1 point each unless stated.
    Special {
        /// Who may vote.
        voters: Vec<Voter>,
    },
}

/// One option's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OptionTally {
    /// The option.
    pub option: String,
    /// Points for it.
    pub points: u32,
    /// Ballots for it.
    pub ballots: u32,
}

/// A ballot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Ballot {
    /// The option chosen.
    pub option: String,
    /// Its points.
    pub points: u32,
}

/// A vote and its ballots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vote {
    /// The call.
    pub called: VoteCalled,
    /// Ballots by player (one each).
    pub ballots: BTreeMap<String, Ballot>,
    /// The tally, once closed.
    pub closed: Option<VoteClosed>,
}

impl Vote {
    /// The tally of the ballots so far, option by option in the call's order.
    pub fn tally(&self) -> Vec<OptionTally> {
        self.called
            .options
            .iter()
            .map(|option| {
                let ballots = self.ballots.values().filter(|b| &b.option == option);
                OptionTally {
                    option: option.clone(),
                    points: ballots.clone().map(|b| b.points).sum(),
                    ballots: u32::try_from(ballots.count()).unwrap_or(u32::MAX),
                }
            })
            .collect()
    }
}

/// A vote called (event `coalition.VoteCalled`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VoteCalled {
    /// The vote's id in the round (`1`, `2`, …).
    pub vote: String,
    /// Who called it.
    pub called_by: String,
    /// The topic.
    pub topic: String,
    /// The options.
    pub options: Vec<String>,
    /// Ballots after this time are refused.
    pub closes_at: DateTime<Utc>,
    /// The system.
    pub system: VoteSystem,
    /// Whether who voted what is secret.
    pub secret: bool,
    /// When it was called.
    pub at: DateTime<Utc>,
}

/// A ballot cast (event `coalition.VoteCast`; its option is hidden in a secret vote).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VoteCast {
    /// The vote.
    pub vote: String,
    /// The voter.
    pub player: String,
    /// The option chosen.
    pub option: String,
    /// Its points.
    pub points: u32,
    /// When.
    pub at: DateTime<Utc>,
}

/// A vote closed with its tally (event `coalition.VoteClosed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VoteClosed {
    /// The vote.
    pub vote: String,
    /// Points and ballots per option.
    pub tally: Vec<OptionTally>,
    /// The options with the most points (several when tied).
    pub winners: Vec<String>,
}

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

/// The points `name` votes with in a vote of `system`, or why they may not vote (seed 003 §1.4).
pub fn points(state: &CampaignState, system: &VoteSystem, name: &str) -> Result<u32, RuleError> {
    let on_roster = player(state, name);
    match system {
        VoteSystem::Normal => match on_roster.map(|p| p.rank) {
            Some(Rank::General | Rank::ChiefPraetor) => Ok(3),
            Some(Rank::Admiral | Rank::Praetor) => Ok(2),
            Some(_) => Ok(1),
            None => Err(refuse("not_a_voter", format!("{name} is not a player of this round"), "seed 003 §1.4.1")),
        },
        VoteSystem::Leaders => match on_roster {
            Some(p) if p.rank.is_leader() => Ok(1),
            _ => Err(refuse("not_a_voter", "only the leaders may vote in a leader vote", "seed 003 §1.4.2")),
        },
        VoteSystem::Special { voters } => voters
            .iter()
            .find(|voter| voter.player == name)
            .map(|voter| voter.points.unwrap_or(1))
            .ok_or_else(|| refuse("not_a_voter", format!("{name} was not called to this vote"), "seed 003 §1.4.3")),
    }
}

/// Call a vote.
pub fn call(state: &CampaignState, ctx: &Context, called: VoteCalled) -> Result<VoteCalled, RuleError> {
    let caller = ctx.actor.player.clone().filter(|name| player(state, name).is_some());
    if caller.is_none() && !ctx.actor.is_judge() {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_player",
            "a vote is called by a player of the round (or a judge)",
            "seed 003 §1.4",
        ));
    }
    let mut options = called.options.clone();
    options.dedup();
    if called.topic.trim().is_empty() || options.len() < 2 || options.len() != called.options.len() {
        return Err(refuse(
            "vote_malformed",
            "a vote needs a topic and at least two different options",
            "seed 003 §1.4",
        ));
    }
    if called.closes_at <= ctx.recorded_at {
        return Err(refuse("vote_closes_in_past", "a vote's closing time must be in the future", "seed 003 §1.4"));
    }
    if let VoteSystem::Special { voters } = &called.system {
        if voters.is_empty() {
            return Err(refuse("vote_malformed", "a special vote names who may vote", "seed 003 §1.4.3"));
        }
    }
    Ok(VoteCalled {
        vote: (state.votes.len() + 1).to_string(),
        called_by: caller.unwrap_or_else(|| ctx.actor.id.clone()),
        at: ctx.recorded_at,
        ..called
    })
}

/// Cast `name`'s one ballot (seed 003 §1.4.1: "all players can vote once").
pub fn cast(state: &CampaignState, ctx: &Context, vote: &str, option: &str) -> Result<VoteCast, RuleError> {
    let Some(name) = ctx.actor.player.clone() else {
        return Err(RuleError::forbidden("coalition.campaign.not_a_player", "players vote", "seed 003 §1.4"));
    };
    let open = state
        .votes
        .get(vote)
        .ok_or_else(|| refuse("unknown_vote", format!("there is no vote {vote}"), "seed 003 §1.4"))?;
    if open.closed.is_some() || ctx.recorded_at > open.called.closes_at {
        return Err(refuse("vote_closed", format!("vote {vote} closed at {}", open.called.closes_at), "seed 003 §1.4"));
    }
    if !open.called.options.iter().any(|o| o == option) {
        return Err(refuse("unknown_option", format!("{option} is not an option of vote {vote}"), "seed 003 §1.4"));
    }
    if open.ballots.contains_key(&name) {
        return Err(refuse("already_voted", format!("{name} has already voted in vote {vote}"), "seed 003 §1.4.1"));
    }
    let points = points(state, &open.called.system, &name)?;
    Ok(VoteCast { vote: vote.to_string(), player: name, option: option.to_string(), points, at: ctx.recorded_at })
}

/// Close a vote whose time has passed, with its tally (a player of the round or a judge).
pub fn close(state: &CampaignState, ctx: &Context, vote: &str) -> Result<VoteClosed, RuleError> {
    let player =
        ctx.actor.player.as_deref().is_some_and(|name| super::control::activity::player(state, name).is_some());
    if !player && !ctx.actor.is_judge() {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_player",
            "a vote is closed by a player of the round or a judge",
            "seed 003 §1.4",
        ));
    }
    let open = state
        .votes
        .get(vote)
        .ok_or_else(|| refuse("unknown_vote", format!("there is no vote {vote}"), "seed 003 §1.4"))?;
    if open.closed.is_some() {
        return Err(refuse("vote_closed", format!("vote {vote} is already closed"), "seed 003 §1.4"));
    }
    if ctx.recorded_at <= open.called.closes_at {
        return Err(refuse(
            "vote_still_open",
            format!("vote {vote} is open until {}", open.called.closes_at),
            "seed 003 §1.4",
        ));
    }
    let tally = open.tally();
    let best = tally.iter().map(|t| t.points).max().unwrap_or(0);
    let winners = tally.iter().filter(|t| t.points == best && best > 0).map(|t| t.option.clone()).collect();
    Ok(VoteClosed { vote: vote.to_string(), tally, winners })
}
