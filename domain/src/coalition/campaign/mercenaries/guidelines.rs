//! The mercenary AI guidelines that are hard limits (seed 003 §6.2.3, §6.3.1). The others —
//! patrols, preferred targets, "usually", "in rare cases" — are the Mercenary Judge's judgement
//! and are left to the orders the judge posts.
//!
//! - A Raider "will never move to a square adjacent to a base, portal, or town" (§6.3.1): no leg
//!   of its move may end on or next to one (the 8 squares around).
//! - An At War theme army "will not move into a Base or Portal, or any of the 8 surrounding
//!   squares" (§6.2.3): no leg may end on or next to a base or portal (towns are allowed).

use super::MercenaryState;
use crate::{
    coalition::{
        map::{Map, SiteKind, Square},
        orders::Order,
        setup::MercenaryFaction,
    },
    RuleError,
};

/// Whether `square` is on or next to a site `counts` picks.
fn near(map: &Map, square: Square, counts: impl Fn(SiteKind) -> bool) -> Option<String> {
    map.sites
        .values()
        .filter(|site| counts(site.kind))
        .find(|site| site.square == square || site.square.surrounding(map.bounds).contains(&square))
        .map(|site| site.name.clone())
}

/// Refuse an order for mercenary `army` that breaks a hard-limit guideline.
pub fn check(map: &Map, army: &str, mercenary: &MercenaryState, order: &Order) -> Result<(), RuleError> {
    let Order::Move { legs } = order else {
        return if matches!(order, Order::Disband) && mercenary.faction != MercenaryFaction::Raider {
            Err(RuleError::new(
                "coalition.campaign.disband_not_raider",
                format!("{army} cannot disband: only Raider armies disband"),
                "seed 003 §6.3.2",
            ))
        } else {
            Ok(())
        };
    };
    for leg in legs {
        if mercenary.faction == MercenaryFaction::Raider {
            if let Some(site) = near(map, leg.to, |_| true) {
                return Err(RuleError::new(
                    "coalition.campaign.raider_near_site",
                    format!("{army} is a Raider and never moves to a square next to a base, portal or town ({site} is by {})", leg.to),
                    "seed 003 §6.3.1",
                ));
            }
        }
        if mercenary.faction == MercenaryFaction::Theme && !mercenary.at_war.is_empty() {
            if let Some(site) = near(map, leg.to, |kind| kind != SiteKind::Town) {
                return Err(RuleError::new(
                    "coalition.campaign.at_war_near_base",
                    format!("{army} is At War and will not move into a base or portal or the 8 squares around one ({site} is by {})", leg.to),
                    "seed 003 §6.2.3",
                ));
            }
        }
    }
    Ok(())
}
