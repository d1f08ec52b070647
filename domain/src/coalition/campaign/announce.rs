//! Announcing the turn's battles (seed 003 §3.1 "announce which armies are engaged", §4.1.2.3,
//! §4.1.2.5, §4.3.1, §4.4).
//!
//! Every battle of two sides gets its own stream, opened by the service: a 1v1 battle, or a 2v1
//! or 2v2 battle from a joint engagement (§4.4). An army with no troops engaged in a joint
//! engagement is killed at once (§4.3.1: "the next time they are engaged they will be
//! automatically killed ... and no strats will be written"), and the battle goes on without it;
//! in a 1v1 battle the battle stream does the same when it opens. Each battle's weather is rolled
//! on the documented table (§4.1.2.5) unless the round leaves it to the Battle Judge.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::{event::CampaignEvent, state::CampaignState, weather};
use crate::{
    coalition::{
        army::Team,
        map::Square,
        movement::{Attack, EngagedSide, EngagementReport},
    },
    Context, RuleError,
};

/// The battle stream of an engagement, derived from the campaign, the turn and the square so a
/// replay names it the same way: `battle-` and a UUID-shaped SHA-256 prefix.
pub fn battle_stream(campaign: &str, turn: u32, square: Square) -> String {
    let digest = Sha256::digest(format!("{campaign}/turn/{turn}/{square}").as_bytes());
    let hex = hex::encode(&digest[..16]);
    format!("battle-{}-{}-8{}-{}-{}", &hex[..8], &hex[8..12], &hex[13..16], &hex[16..20], &hex[20..32])
}

/// Squares where enemies end the movement together but movement reported no engagement: it
/// leaves out squares whose armies all fought last turn, taking their battle to be under way. Here
/// every one of last turn's battles has just been applied, so enemies still sharing a square — a
/// loser pushed into an enemy that fought too (seed 003 §4.2.5) — fight again: "if two enemy
/// armies end up in the same square for any reason, they will battle" (§3.3.1). Both were there
/// before the moves, so the battle has no attacker (§4.1.2.3).
pub fn fought_again(working: &CampaignState, reported: &[EngagementReport]) -> Vec<EngagementReport> {
    let order = |team: Team| match team {
        Team::Phyrexia => 0u8,
        Team::Coalition => 1,
        Team::Mercenary => 2,
    };
    let mut squares: BTreeMap<Square, BTreeMap<u8, EngagedSide>> = BTreeMap::new();
    for (name, army) in &working.armies {
        let team = army.army.team;
        let side = squares.entry(army.square).or_default().entry(order(team));
        side.or_insert_with(|| EngagedSide { team, armies: Vec::new() }).armies.push(name.clone());
    }
    squares
        .into_iter()
        .filter(|(square, sides)| sides.len() > 1 && !reported.iter().any(|e| e.square == *square))
        .map(|(square, sides)| EngagementReport {
            square,
            sides: sides.into_values().collect(),
            attack: Attack::NoAttacker,
            joint: false,
        })
        .collect()
}

/// Announce one engagement: kill its empty armies if it is a joint one, roll its weather, and
/// the announcement itself.
pub fn announce(
    working: &CampaignState,
    engagement: &EngagementReport,
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let battle = battle_stream(&ctx.stream, working.turn, engagement.square);
    let mut events = Vec::new();
    let mut sides = engagement.sides.clone();
    let joint = sides.iter().any(|side| side.armies.len() > 1);
    if joint {
        for side in &mut sides {
            side.armies.retain(|army| {
                let empty = working.armies.get(army).is_some_and(|a| a.army.total_troops() == 0);
                if empty {
                    events.push(CampaignEvent::ArmyKilled {
                        army: army.clone(),
                        battle: battle.clone(),
                        rule: "seed 003 §4.3.1".into(),
                    });
                }
                !empty
            });
        }
        sides.retain(|side| !side.armies.is_empty());
    }
    if sides.len() < 2 {
        return Ok(events);
    }
    let alive = |names: &Vec<String>| {
        names.iter().filter(|a| sides.iter().any(|s| s.armies.contains(a))).cloned().collect::<Vec<_>>()
    };
    let attack = match &engagement.attack {
        Attack::Attacks { attackers, defenders } => {
            let (attackers, defenders) = (alive(attackers), alive(defenders));
            if attackers.is_empty() || defenders.is_empty() {
                Attack::NoAttacker
            } else {
                Attack::Attacks { attackers, defenders }
            }
        }
        Attack::NoAttacker => Attack::NoAttacker,
    };
    if working.options.roll_weather {
        events.push(CampaignEvent::WeatherRolled(weather::roll(&battle, engagement.square, &mut ctx.dice)?));
    }
    events.push(CampaignEvent::BattleAnnounced {
        battle,
        turn: working.turn,
        square: engagement.square,
        automatic: sides.len() == 2,
        sides,
        attack,
        joint: engagement.joint,
    });
    Ok(events)
}
