//! The limitations on control changes (seed 003 §5.3): rank (§5.3.1), namesake armies (§5.3.2)
//! and the last army (§5.3.4). Active players are protected by §5.3.2 and §5.3.4; inactive
//! players are not ("this overrules the limitations in 5.3", §5.1).
//!
//! §5.3.3 (number of armies) "is obsolete, and is not being enforced pending an official
//! re-write": Herald records it so and never checks it.

use chrono::{DateTime, Utc};

use super::{
    activity::{armies_of, is_active, player},
    Violation,
};
use crate::coalition::{
    army::{RankClass, Team},
    campaign::CampaignState,
    setup::{rank_class_name, rank_name, Player},
};

/// Whether `player` may control an army of `rank` (seed 003 §5.3.1): "No player may control an
/// army with a higher rank than himself, except that players of rank Evincar/Captain or higher may
/// control any army"; Drudges and Cadets control none (§1.1).
pub fn may_control(player: &Player, rank: RankClass) -> bool {
    match player.rank.class() {
        None => false,
        Some(own) => own.is_captain_or_above() || rank >= own,
    }
}

fn violation(code: &str, message: String, rule: &str) -> Violation {
    Violation { code: format!("coalition.campaign.{code}"), message, rule: rule.to_string() }
}

/// The namesake player of `army`: the player of the same name, or its creator (seed 003 §5.3.2).
pub fn namesake<'a>(state: &'a CampaignState, army: &str) -> Option<&'a Player> {
    let creator = state.armies.get(army).and_then(|a| a.army.creator.clone());
    state.players.iter().find(|p| p.name == army || creator.as_deref() == Some(p.name.as_str()))
}

/// The limitations `army` would break with `controllers` at `now` (seed 003 §5.3). Checks that
/// need the roster are made only for rounds that have one.
pub fn violations(state: &CampaignState, army: &str, controllers: &[String], now: DateTime<Utc>) -> Vec<Violation> {
    let Some(current) = state.armies.get(army) else { return Vec::new() };
    let mut found = Vec::new();
    let team = current.army.team;
    if team == Team::Mercenary {
        found.push(violation(
            "mercenary_control",
            format!("{army} is a mercenary: the Mercenary Judge controls it"),
            "seed 003 ch. 6",
        ));
        return found;
    }
    if !state.players.is_empty() {
        for name in controllers {
            match player(state, name) {
                Some(p) if p.team != team => found.push(violation(
                    "controller_not_on_team",
                    format!("{name} plays for the other team and cannot control {army}"),
                    "seed 003 §5.2.1",
                )),
                Some(p) if !may_control(p, current.army.rank) => found.push(violation(
                    "rank_too_low",
                    format!(
                        "{name} is a {} and cannot control {army}, a {} army",
                        rank_name(p.rank),
                        rank_class_name(current.army.rank)
                    ),
                    "seed 003 §5.3.1",
                )),
                Some(_) => {}
                None => found.push(violation(
                    "controller_not_on_team",
                    format!("{name} is not a player of this round"),
                    "seed 003 §5.2.1",
                )),
            }
        }
    }
    let removed: Vec<&String> = current.controllers.iter().filter(|name| !controllers.contains(name)).collect();
    if let Some(owner) = namesake(state, army).filter(|owner| removed.contains(&&owner.name)) {
        let permitted = state.control.permissions.get(army) == Some(&owner.name);
        if is_active(state, &owner.name, now) && !permitted && may_control(owner, current.army.rank) {
            found.push(violation(
                "namesake_army",
                format!("{army} is {}'s namesake army: it cannot be taken away without their permission", owner.name),
                "seed 003 §5.3.2",
            ));
        }
    }
    for name in removed {
        if is_active(state, name, now) && armies_of(state, name) == [army] {
            found.push(violation(
                "last_army",
                format!("{army} is {name}'s last army, and an active player's last army may never be taken away"),
                "seed 003 §5.3.4",
            ));
        }
    }
    found
}

/// Whether a demotion of `player` to a rank of `class` falls under the exception of §5.3.4: "the
/// total number of players at his rank or less is greater than the total number of armies that
/// can be controlled by those players" (armies of that rank or below, of the team).
pub fn last_army_exception(state: &CampaignState, team: Team, class: RankClass, demoted: &str) -> bool {
    let players = state
        .players
        .iter()
        .filter(|p| p.team == team && p.rank.class().is_some_and(|own| own >= class))
        .filter(|p| p.name != demoted)
        .count()
        + 1;
    let armies = state.armies.values().filter(|a| a.army.team == team && a.army.rank >= class).count();
    players > armies
}
