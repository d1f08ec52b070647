//! New players mid-round (seed 003 §2.6) and screen-name changes (§1.6).
//!
//! §2.6: "each new player will be allowed one free opportunity to customize an army on the field
//! to make it his own. A new player must remain long enough to fight 2 battles ... and then his
//! team leaders will select an army of rank no higher than Lt Cmdr / CPL for him to personalize.
//! He may change the army name, the army Legend, and the army units. He may not change the army
//! colors. If he does not take advantage of this opportunity within 2 turns, the opportunity is
//! lost. (Note that the army is not healed, so the total number of soldiers alive remains the
//! same.)"
//!
//! Readings: a new player is one added after the set-up; a battle counts for them when an army
//! they controlled at the time had its result applied; the "2 turns" are the turn of the offer and
//! the next one; the player must control the army when customising it, it must not be in a battle,
//! its new troops must be legal for its rank and colors (§2.1–2.2) and hold exactly as many living
//! soldiers as before, and its day count starts again (its troop lines changed).
//!
//! §1.6: a screen name changed by the battle judge keeps every power of the old name: roster,
//! controls, authority, contingencies, votes, namesake armies.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    control::activity::{is_leader_of, player, team_of},
    decide::living_army,
    judges,
    state::CampaignState,
};
use crate::{
    coalition::{
        army::{Army, RankClass, TroopLine},
        setup::{validate_army, validate_player, ArmyContext, Player},
    },
    Context, RuleError,
};

/// Turns an offer stays open: its own and the next (seed 003 §2.6 "within 2 turns").
pub const OFFER_TURNS: u32 = 1;

/// Battles a new player fights before the offer (seed 003 §2.6).
pub const BATTLES_BEFORE_OFFER: u32 = 2;

/// A new player's progress towards customising an army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Newcomer {
    /// The turn they joined.
    pub joined_turn: u32,
    /// Battles fought by armies they controlled.
    pub battles: u32,
    /// The army offered and the last turn to customise it.
    pub offer: Option<Offer>,
    /// Whether the one opportunity was used.
    pub used: bool,
}

/// An army offered for customisation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Offer {
    /// The army.
    pub army: String,
    /// The last turn the player may customise it.
    pub until_turn: u32,
}

/// A player joined mid-round (event `coalition.PlayerJoined`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerJoined {
    /// The player.
    pub player: Player,
    /// The turn.
    pub turn: u32,
    /// When.
    pub at: chrono::DateTime<chrono::Utc>,
}

/// An army offered to a new player (event `coalition.CustomisationOffered`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CustomisationOffered {
    /// The player.
    pub player: String,
    /// The offer.
    pub offer: Offer,
}

/// A new player made an army their own (event `coalition.ArmyCustomised`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyCustomised {
    /// The player.
    pub player: String,
    /// The army's name before.
    pub army: String,
    /// Its name from now on.
    pub name: String,
    /// Its legend.
    pub legend: Option<String>,
    /// Its troops.
    pub troops: Vec<TroopLine>,
}

/// A screen name changed (event `coalition.ScreenNameChanged`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScreenNameChanged {
    /// The old name.
    pub from: String,
    /// The new name.
    pub to: String,
}

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

fn leader_or_judge(
    state: &CampaignState,
    ctx: &Context,
    team: crate::coalition::army::Team,
    what: &str,
) -> Result<(), RuleError> {
    let leader = ctx.actor.player.as_deref().is_some_and(|name| is_leader_of(state, name, team));
    if leader || judges::require(state, ctx, &[judges::Office::Movement], what).is_ok() {
        Ok(())
    } else {
        Err(RuleError::forbidden(
            "coalition.campaign.not_a_leader",
            format!("only the team's leaders (or a judge) may {what}"),
            "seed 003 §1.1",
        ))
    }
}

/// Add a player mid-round (the team's leaders "accept them and give them a position", §1.1).
pub fn join(state: &CampaignState, ctx: &Context, joining: &Player) -> Result<PlayerJoined, RuleError> {
    leader_or_judge(state, ctx, joining.team, "add a player")?;
    validate_player(joining)?;
    if player(state, &joining.name).is_some() {
        return Err(refuse("duplicate_player", format!("{} is already a player", joining.name), "seed 003 §1.6"));
    }
    let mut roster = state.players.clone();
    roster.push(joining.clone());
    crate::coalition::setup::validate_players(&roster)?;
    Ok(PlayerJoined { player: joining.clone(), turn: state.turn, at: ctx.recorded_at })
}

/// The leaders offer `army` to new player `name` (seed 003 §2.6).
pub fn offer(state: &CampaignState, ctx: &Context, name: &str, army: &str) -> Result<CustomisationOffered, RuleError> {
    let team = team_of(state, name)
        .ok_or_else(|| refuse("unknown_player", format!("{name} is not a player"), "seed 003 §2.6"))?;
    leader_or_judge(state, ctx, team, "offer an army to a new player")?;
    let newcomer = state
        .newcomers
        .get(name)
        .ok_or_else(|| refuse("not_a_new_player", format!("{name} joined before the round began"), "seed 003 §2.6"))?;
    if newcomer.used || newcomer.offer.as_ref().is_some_and(|o| o.until_turn < state.turn) {
        return Err(refuse("customisation_used", format!("{name} has had their one opportunity"), "seed 003 §2.6"));
    }
    if newcomer.battles < BATTLES_BEFORE_OFFER {
        return Err(refuse(
            "too_few_battles",
            format!(
                "{name} has fought {} of the {BATTLES_BEFORE_OFFER} battles a new player fights first",
                newcomer.battles
            ),
            "seed 003 §2.6",
        ));
    }
    let offered = living_army(state, army)?;
    if offered.army.team != team || offered.army.rank < RankClass::CplLtCommander {
        return Err(refuse(
            "customisation_rank",
            format!("{army} must be an army of {name}'s team of rank Lt Cmdr/CPL or lower"),
            "seed 003 §2.6",
        ));
    }
    // The turn under way, or the next one when none is open, and the turn after it.
    let first = if state.phase == super::state::TurnPhase::Closed { state.turn + 1 } else { state.turn };
    Ok(CustomisationOffered {
        player: name.to_string(),
        offer: Offer { army: army.to_string(), until_turn: first + OFFER_TURNS },
    })
}

/// The new player customises the offered army (seed 003 §2.6).
pub fn customise(
    state: &CampaignState,
    ctx: &Context,
    army: &str,
    name: Option<&str>,
    legend: Option<&String>,
    troops: &[TroopLine],
) -> Result<ArmyCustomised, RuleError> {
    let Some(player_name) = ctx.actor.player.clone() else {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_player",
            "the new player customises their army",
            "seed 003 §2.6",
        ));
    };
    let offer = state.newcomers.get(&player_name).and_then(|n| n.offer.clone().filter(|_| !n.used));
    let Some(offer) = offer.filter(|offer| offer.army == army) else {
        return Err(RuleError::forbidden(
            "coalition.campaign.no_offer",
            format!("{army} was not offered to {player_name}"),
            "seed 003 §2.6",
        ));
    };
    if state.turn > offer.until_turn {
        return Err(refuse(
            "customisation_expired",
            format!("the offer ended with turn {}", offer.until_turn),
            "seed 003 §2.6",
        ));
    }
    let current = living_army(state, army)?;
    if !current.controllers.contains(&player_name) {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_controller",
            format!("{player_name} does not control {army}"),
            "seed 003 §2.6",
        ));
    }
    if current.battle.is_some() {
        return Err(refuse("customise_in_battle", format!("{army} is in a battle"), "seed 003 §2.6"));
    }
    let new_name = name.map(str::trim).filter(|n| !n.is_empty()).unwrap_or(army).to_string();
    if new_name != army && (state.armies.contains_key(&new_name) || state.killed.contains(&new_name)) {
        return Err(refuse("duplicate_army", format!("an army is already named {new_name}"), "seed 003 §2.6"));
    }
    let alive: u64 = troops.iter().map(|line| u64::from(line.troops)).sum();
    if alive != current.army.total_troops() || troops.iter().any(|line| line.troops > line.full) {
        return Err(refuse(
            "customisation_troops",
            format!(
                "the new units must hold the {} soldiers alive now, none above full strength",
                current.army.total_troops()
            ),
            "seed 003 §2.6",
        ));
    }
    let proposed = Army {
        name: new_name.clone(),
        legend: legend.cloned().or(current.army.legend.clone()),
        troops: troops.to_vec(),
        ..current.army.clone()
    };
    let others: Vec<Army> = state.armies.values().filter(|a| a.army.name != army).map(|a| a.army.clone()).collect();
    validate_army(&proposed, &ArmyContext { other_armies: &others, ..ArmyContext::default() })?;
    Ok(ArmyCustomised {
        player: player_name,
        army: army.to_string(),
        name: new_name,
        legend: proposed.legend,
        troops: troops.to_vec(),
    })
}

/// The battle judge records a new screen name (seed 003 §1.6).
pub fn rename(state: &CampaignState, ctx: &Context, from: &str, to: &str) -> Result<ScreenNameChanged, RuleError> {
    judges::require(state, ctx, &[], "record a screen-name change")?;
    let known = player(state, from).is_some() || state.armies.values().any(|a| a.controllers.contains(from));
    if !known {
        return Err(refuse("unknown_player", format!("{from} is not a player of this round"), "seed 003 §1.6"));
    }
    if to.trim().is_empty() || player(state, to).is_some() || state.armies.values().any(|a| a.controllers.contains(to))
    {
        return Err(refuse("screen_name_taken", format!("{to} is empty or already a player's name"), "seed 003 §1.6"));
    }
    Ok(ScreenNameChanged { from: from.to_string(), to: to.trim().to_string() })
}
