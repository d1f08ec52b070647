//! The control commands (seed 003 §5.1–5.3): requests by the two players with authority,
//! transfers of that authority, the judge's emergency powers and direct edits, contingencies,
//! inactivity declarations, rank changes and namesake permissions; and what the end of a turn
//! enforces (§5.2.2.2: "that team must return to a legal configuration within one turn").

use chrono::{DateTime, Utc};

use super::{
    activity::{armies_of, is_active, is_head_of, is_leader_of, player, team_of},
    limits::{last_army_exception, may_control, violations},
    ContingencySet, ControlAuthorityGranted, ControlChanged, IllegalControl, IllegalControlAccepted,
    IllegalControlEnded, InactivityRejected, NamesakePermissionGiven, NewArmyOwed, PlayerDeclaredActive,
    PlayerDeclaredInactive, PlayerRankChanged, Violation,
};
use crate::{
    coalition::{
        army::Team,
        campaign::{decide::living_army, event::CampaignEvent, judges, judges::Office, state::CampaignState},
        rank::Rank,
    },
    Context, RuleError,
};

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

fn forbidden(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::forbidden(format!("coalition.campaign.{code}"), message, rule)
}

fn as_error(violation: &Violation) -> RuleError {
    RuleError::new(violation.code.clone(), violation.message.clone(), violation.rule.clone())
}

fn acting_player(ctx: &Context) -> Result<String, RuleError> {
    ctx.actor.player.clone().ok_or_else(|| forbidden("not_a_player", "this is a player's request", "seed 003 §5.2"))
}

fn distinct(names: &[String]) -> Vec<String> {
    let mut seen = Vec::new();
    for name in names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()) {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}

/// A player with authority asks to change an army's controllers (seed 003 §5.2.1–5.2.2); it takes
/// effect at the request's timestamp and must keep §5.3.
pub fn request_change(
    state: &CampaignState,
    ctx: &Context,
    army: &str,
    controllers: &[String],
    reason: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let requester = acting_player(ctx)?;
    let team = living_army(state, army)?.army.team;
    let holds = state.control.authority.get(&team).is_some_and(|a| a.holders.contains(&requester));
    if !holds {
        return Err(forbidden(
            "no_control_authority",
            format!("{requester} does not hold their side's authority to request control changes"),
            "seed 003 §5.2.2.1",
        ));
    }
    let controllers = distinct(controllers);
    if let Some(first) = violations(state, army, &controllers, ctx.recorded_at).first() {
        return Err(as_error(first));
    }
    Ok(vec![CampaignEvent::ControlChanged(ControlChanged {
        army: army.to_string(),
        controllers,
        requested_by: requester,
        at: ctx.recorded_at,
        reason: reason.unwrap_or("requested by the side").to_string(),
        rule: "seed 003 §5.2.1".into(),
    })])
}

/// The judge edits the control list directly; a change that breaks §5.3 needs `accept_illegal`,
/// and the side must be legal again within one turn (seed 003 §5.2.2.2).
pub fn set_controllers(
    state: &CampaignState,
    ctx: &Context,
    army: &str,
    controllers: &[String],
    accept_illegal: bool,
    reason: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    judges::require(state, ctx, &[Office::Movement], "change an army's controllers")?;
    let team = living_army(state, army)?.army.team;
    let controllers = distinct(controllers);
    let broken = violations(state, army, &controllers, ctx.recorded_at);
    if let (Some(first), false) = (broken.first(), accept_illegal) {
        return Err(as_error(first));
    }
    let reason = reason.unwrap_or("the judge's change").to_string();
    let mut events = vec![CampaignEvent::ControlChanged(ControlChanged {
        army: army.to_string(),
        controllers,
        requested_by: ctx.actor.id.clone(),
        at: ctx.recorded_at,
        reason: reason.clone(),
        rule: "seed 003 §5.2.2.2".into(),
    })];
    if !broken.is_empty() {
        let accepted = IllegalControl { army: army.to_string(), team, violations: broken, until_turn: state.turn + 1 };
        events.push(CampaignEvent::IllegalControlAccepted(IllegalControlAccepted { accepted, reason }));
    }
    Ok(events)
}

fn check_holders(state: &CampaignState, team: Team, holders: &[String]) -> Result<Vec<String>, RuleError> {
    let holders = distinct(holders);
    if holders.is_empty() || holders.len() > 2 {
        return Err(refuse("authority_holders", "authority goes to one or two players", "seed 003 §5.2.2.1"));
    }
    if let Some(stranger) = holders.iter().find(|name| team_of(state, name) != Some(team)) {
        return Err(refuse(
            "authority_holders",
            format!("{stranger} is not a player of that side"),
            "seed 003 §5.2.2.1",
        ));
    }
    Ok(holders)
}

/// The General or Chief Praetor, or a current holder, gives the authority to other players
/// (seed 003 §5.2.2.1).
pub fn transfer_authority(
    state: &CampaignState,
    ctx: &Context,
    team: Team,
    holders: &[String],
) -> Result<Vec<CampaignEvent>, RuleError> {
    let by = acting_player(ctx)?;
    let holder = state.control.authority.get(&team).is_some_and(|a| a.holders.contains(&by));
    if !holder && !is_head_of(state, &by, team) {
        return Err(forbidden(
            "no_control_authority",
            "only the General or Chief Praetor, or a player holding the authority, transfers it",
            "seed 003 §5.2.2.1",
        ));
    }
    let holders = check_holders(state, team, holders)?;
    Ok(vec![CampaignEvent::ControlAuthorityGranted(ControlAuthorityGranted {
        team,
        holders,
        by,
        emergency_until_turn: None,
        reason: "transferred".into(),
    })])
}

/// In an emergency the judge authorizes two other players for one turn (seed 003 §5.2.2.2).
pub fn emergency(
    state: &CampaignState,
    ctx: &Context,
    team: Team,
    holders: &[String],
    reason: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    judges::require(state, ctx, &[Office::Movement], "authorize emergency control changes")?;
    let holders = check_holders(state, team, holders)?;
    Ok(vec![CampaignEvent::ControlAuthorityGranted(ControlAuthorityGranted {
        team,
        holders,
        by: ctx.actor.id.clone(),
        emergency_until_turn: Some(state.turn + 1),
        reason: reason.to_string(),
    })])
}

/// A side names a player's contingency (seed 003 §5.2.3).
pub fn set_contingency(
    state: &CampaignState,
    ctx: &Context,
    name: &str,
    contingency: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let team = team_of(state, name)
        .ok_or_else(|| refuse("unknown_player", format!("{name} is not a player"), "seed 003 §5.2.3"))?;
    let holder = ctx
        .actor
        .player
        .as_ref()
        .is_some_and(|p| state.control.authority.get(&team).is_some_and(|a| a.holders.contains(p)));
    if !holder {
        judges::require(state, ctx, &[Office::Movement], "set a contingency")?;
    }
    if let Some(backup) = contingency {
        if backup == name || team_of(state, backup) != Some(team) {
            return Err(refuse(
                "contingency_player",
                format!("{backup} must be another player of {name}'s side"),
                "seed 003 §5.2.3",
            ));
        }
    }
    let by = ctx.actor.player.clone().unwrap_or_else(|| ctx.actor.id.clone());
    Ok(vec![CampaignEvent::ContingencySet(ContingencySet {
        player: name.to_string(),
        contingency: contingency.map(str::to_string),
        by,
    })])
}

/// A player says they will be inactive, or a leader declares them so early (seed 003 §5.1).
pub fn declare_inactive(
    state: &CampaignState,
    ctx: &Context,
    name: &str,
    reason: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let by = acting_player(ctx)?;
    let team = team_of(state, name)
        .ok_or_else(|| refuse("unknown_player", format!("{name} is not a player"), "seed 003 §5.1"))?;
    if by != name && !is_leader_of(state, &by, team) {
        return Err(forbidden(
            "not_a_leader",
            "a player declares themself inactive, or their team's leaders do",
            "seed 003 §5.1",
        ));
    }
    Ok(vec![CampaignEvent::PlayerDeclaredInactive(PlayerDeclaredInactive {
        player: name.to_string(),
        by,
        at: ctx.recorded_at,
        reason: reason.to_string(),
    })])
}

/// A player withdraws a declaration of inactivity (seed 003 §5.1).
pub fn declare_active(state: &CampaignState, ctx: &Context) -> Result<Vec<CampaignEvent>, RuleError> {
    let name = acting_player(ctx)?;
    if !state.control.inactive.contains_key(&name) {
        return Err(refuse("not_inactive", format!("{name} is not declared inactive"), "seed 003 §5.1"));
    }
    Ok(vec![CampaignEvent::PlayerDeclaredActive(PlayerDeclaredActive { player: name, at: ctx.recorded_at })])
}

/// The battle judge rejects the leaders' declaration (seed 003 §5.1).
pub fn reject_inactivity(
    state: &CampaignState,
    ctx: &Context,
    name: &str,
    reason: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let call = judges::require(state, ctx, &[], "reject a declaration of inactivity")?;
    let declaration =
        state.control.inactive.get(name).cloned().filter(|d| d.by != name).ok_or_else(|| {
            refuse("no_declaration", format!("no leader has declared {name} inactive"), "seed 003 §5.1")
        })?;
    Ok(vec![CampaignEvent::InactivityRejected(InactivityRejected {
        call,
        player: name.to_string(),
        declaration,
        reason: reason.to_string(),
    })])
}

/// A namesake player allows the side to take their army (seed 003 §5.3.2).
pub fn permit(state: &CampaignState, ctx: &Context, army: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    let name = acting_player(ctx)?;
    living_army(state, army)?;
    if super::limits::namesake(state, army).is_none_or(|owner| owner.name != name) {
        return Err(forbidden("not_namesake", format!("{army} is not {name}'s namesake army"), "seed 003 §5.3.2"));
    }
    Ok(vec![CampaignEvent::NamesakePermissionGiven(NamesakePermissionGiven { player: name, army: army.to_string() })])
}

/// A leader (or a judge) changes a player's rank (seed 003 §1.1); a demotion leaves the armies the
/// player may no longer control without a controller (§5.3.1), except an active player's last army
/// — which a new army must replace — unless the exception of §5.3.4 applies.
pub fn change_rank(
    state: &CampaignState,
    ctx: &Context,
    name: &str,
    rank: Rank,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let current = player(state, name)
        .cloned()
        .ok_or_else(|| refuse("unknown_player", format!("{name} is not on the roster"), "seed 003 §1.1"))?;
    let by_leader = ctx.actor.player.as_deref().is_some_and(|p| is_leader_of(state, p, current.team));
    if !by_leader {
        judges::require(state, ctx, &[Office::Movement], "change a player's rank")?;
    }
    let changed = crate::coalition::setup::Player { rank, ..current.clone() };
    let roster: Vec<_> =
        state.players.iter().map(|p| if p.name == name { changed.clone() } else { p.clone() }).collect();
    crate::coalition::setup::validate_players(&roster)?;
    let by = ctx.actor.player.clone().unwrap_or_else(|| ctx.actor.id.clone());
    let mut events = vec![CampaignEvent::PlayerRankChanged(PlayerRankChanged {
        player: name.to_string(),
        from: current.rank,
        to: rank,
        by,
    })];
    let held: Vec<&str> = armies_of(state, name);
    let lost: Vec<&str> = held
        .iter()
        .copied()
        .filter(|army| state.armies.get(*army).is_some_and(|a| !may_control(&changed, a.army.rank)))
        .collect();
    let keeps_one = !lost.is_empty()
        && lost.len() == held.len()
        && is_active(state, name, ctx.recorded_at)
        && !rank.class().is_some_and(|class| last_army_exception(state, current.team, class, name));
    // The army kept is the lowest-ranked one (then the first by name).
    let kept = keeps_one
        .then(|| {
            lost.iter()
                .copied()
                .max_by_key(|army| (state.armies.get(*army).map(|a| a.army.rank), std::cmp::Reverse(*army)))
        })
        .flatten();
    for army in lost.iter().filter(|army| Some(**army) != kept) {
        let remaining: Vec<String> = state
            .armies
            .get(*army)
            .map(|a| a.controllers.iter().filter(|c| *c != name).cloned().collect())
            .unwrap_or_default();
        events.push(CampaignEvent::ControlChanged(ControlChanged {
            army: army.to_string(),
            controllers: remaining,
            requested_by: "rank change".into(),
            at: ctx.recorded_at,
            reason: format!("{name} can no longer control {army} at their new rank"),
            rule: "seed 003 §5.3.1".into(),
        }));
    }
    if kept.is_some() {
        events.push(CampaignEvent::NewArmyOwed(NewArmyOwed {
            player: name.to_string(),
            reason: format!(
                "{name} was demoted below all their armies; they keep their last army until a new one is found"
            ),
            rule: "seed 003 §5.3.4".into(),
        }));
    }
    Ok(events)
}

/// At the end of a turn's adjudication: emergency authority that has run its turn lapses, and
/// changes accepted against §5.3 whose turn is over lose their illegal controllers (§5.2.2.2).
pub fn end_of_turn(state: &CampaignState, turn: u32, now: DateTime<Utc>) -> Vec<CampaignEvent> {
    let mut events = Vec::new();
    for (team, authority) in &state.control.authority {
        if authority.emergency_until_turn.is_some_and(|until| until <= turn) {
            events.push(CampaignEvent::ControlAuthorityGranted(ControlAuthorityGranted {
                team: *team,
                holders: authority.before_emergency.clone(),
                by: "system".into(),
                emergency_until_turn: None,
                reason: "the judge's emergency authorization lapsed after one turn".into(),
            }));
        }
    }
    for due in state.control.illegal.iter().filter(|illegal| illegal.until_turn <= turn) {
        let Some(army) = state.armies.get(&due.army) else { continue };
        let current: Vec<String> = army.controllers.iter().cloned().collect();
        let illegal_for = |names: &[String]| -> Vec<Violation> {
            violations(state, &due.army, names, now)
                .into_iter()
                .filter(|v| v.code.ends_with("rank_too_low") || v.code.ends_with("controller_not_on_team"))
                .collect()
        };
        let still = illegal_for(&current);
        let controllers: Vec<String> =
            current.iter().filter(|name| illegal_for(std::slice::from_ref(*name)).is_empty()).cloned().collect();
        events.push(CampaignEvent::IllegalControlEnded(IllegalControlEnded {
            army: due.army.clone(),
            controllers,
            violations: still,
        }));
    }
    events
}

/// Players whose last army `killed` was: a new army must be found for each active one (seed 003
/// §5.3.4).
pub fn owed_after_kill(state: &CampaignState, killed: &str, now: DateTime<Utc>) -> Vec<CampaignEvent> {
    let Some(army) = state.armies.get(killed) else { return Vec::new() };
    army.controllers
        .iter()
        .filter(|name| armies_of(state, name) == [killed] && is_active(state, name, now))
        .map(|name| {
            CampaignEvent::NewArmyOwed(NewArmyOwed {
                player: name.clone(),
                reason: format!("{name}'s last army, {killed}, was killed; a new army must be found for them"),
                rule: "seed 003 §5.3.4".into(),
            })
        })
        .collect()
}
