//! The map a round starts on: its portals, bases and towns, their spacing and the win conditions
//! (seed 003 §1.1, §2.5.1).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::colors::faction_name;
use super::rule;
use crate::coalition::map::{Map, SiteKind, Square};
use crate::RuleError;

/// How many sites of each kind a round's map holds, and how far apart enemy bases must be.
///
/// The defaults are the seed's: 5 Phyrexian portals (§1.1.1), 7 Coalition bases, one of each
/// faction's color (§1.1.2), 3 neutral towns (§2.5.1.4), no base less than 3 squares from an enemy
/// base (§2.5.1.1) and 5 Coalition win conditions (§2.5.1.3). A campaign (or a test) on a smaller
/// map may lower the counts; the bases must still be of distinct colors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SetupRules {
    /// Phyrexian portals (seed 003 §1.1.1: 5).
    pub portals: usize,
    /// Coalition bases, each of a different faction color (seed 003 §1.1.2: 7).
    pub bases: usize,
    /// Neutral towns (seed 003 §2.5.1.4: 3).
    pub towns: usize,
    /// The least orthogonal distance between a base and an enemy base (seed 003 §2.5.1.1: 3).
    pub min_enemy_distance: u32,
    /// Coalition bases the Coalition leadership names as win conditions (seed 003 §2.5.1.3: 5).
    pub coalition_win_conditions: usize,
}

impl Default for SetupRules {
    fn default() -> Self {
        Self { portals: 5, bases: 7, towns: 3, min_enemy_distance: 3, coalition_win_conditions: 5 }
    }
}

/// Check the map a new round starts on (seed 003 §2.5.1).
///
/// Every site lies on the map, under its own square (so no two share one), and none is destroyed
/// yet; there are exactly `rules.portals` portals, `rules.bases` bases of distinct colors and
/// `rules.towns` towns; no Coalition base is less than `rules.min_enemy_distance` squares from a
/// portal (§2.5.1.1); and the win conditions are as [`validate_win_conditions`] requires.
///
/// Reading of §2.5.1.1: "no base is less than 3 squares from an enemy base" is about the 12 bases,
/// and a portal is Phyrexia's base, so the check runs between every portal and every Coalition
/// base. Bases of one team may be neighbours, and towns are neutral (§2.5.1.4 places them after the
/// bases), so they may stand anywhere. Distance is in orthogonal steps ([`Square::distance`]), the
/// way armies move (§3.2.2.1): a base exactly 3 steps from a portal is allowed.
pub fn validate_setup(map: &Map, rules: &SetupRules) -> Result<(), RuleError> {
    if let Some(square) = map.terrain.keys().find(|square| !map.contains(**square)) {
        return Err(RuleError::new(
            "coalition.setup.terrain_off_map",
            format!("terrain is given for {square}, which is off the map"),
            rule("1.2"),
        ));
    }
    for (square, site) in &map.sites {
        if !map.contains(*square) {
            return Err(RuleError::new(
                "coalition.setup.site_off_map",
                format!("{} at {square} is off the map", site.name),
                rule("1.2"),
            ));
        }
        if site.square != *square {
            return Err(RuleError::new(
                "coalition.setup.site_square_mismatch",
                format!("{} says it is at {} but is filed under {square}", site.name, site.square),
                rule("2.5.1.1"),
            ));
        }
        if site.destroyed {
            return Err(RuleError::new(
                "coalition.setup.site_destroyed_at_start",
                format!("{} at {square} cannot start a new round destroyed", site.name),
                rule("2.5.1"),
            ));
        }
    }
    check_counts(map, rules)?;
    check_spacing(map, rules)?;
    validate_win_conditions(map, rules)
}

fn check_counts(map: &Map, rules: &SetupRules) -> Result<(), RuleError> {
    let portals = map.sites.values().filter(|site| site.kind == SiteKind::Portal).count();
    let towns = map.sites.values().filter(|site| site.kind == SiteKind::Town).count();
    let mut colors = BTreeSet::new();
    for site in map.sites.values() {
        if let SiteKind::Base { color } = site.kind {
            if !colors.insert(color) {
                return Err(RuleError::new(
                    "coalition.setup.duplicate_base_color",
                    format!("{} is a second {} base: each faction has one base", site.name, faction_name(color)),
                    rule("1.1.2"),
                ));
            }
        }
    }
    for (what, found, wanted, code, section) in [
        ("portals", portals, rules.portals, "coalition.setup.portal_count", "1.1.1"),
        ("bases", colors.len(), rules.bases, "coalition.setup.base_count", "1.1.2"),
        ("towns", towns, rules.towns, "coalition.setup.town_count", "2.5.1.4"),
    ] {
        if found != wanted {
            return Err(RuleError::new(
                code,
                format!("the map has {found} {what}; a round starts with exactly {wanted}"),
                rule(section),
            ));
        }
    }
    Ok(())
}

fn check_spacing(map: &Map, rules: &SetupRules) -> Result<(), RuleError> {
    let of_kind = |portal: bool| {
        map.sites.values().filter(move |site| match site.kind {
            SiteKind::Portal => portal,
            SiteKind::Base { .. } => !portal,
            SiteKind::Town => false,
        })
    };
    for portal in of_kind(true) {
        for base in of_kind(false) {
            let steps = portal.square.distance(base.square);
            if steps < rules.min_enemy_distance {
                return Err(RuleError::new(
                    "coalition.setup.bases_too_close",
                    format!(
                        "{} at {} is {steps} squares from the enemy {} at {}; enemy bases must be at least {} apart",
                        base.name, base.square, portal.name, portal.square, rules.min_enemy_distance
                    ),
                    rule("2.5.1.1"),
                ));
            }
        }
    }
    Ok(())
}

/// Check the win conditions (seed 003 §2.5.1.3): every portal is one, exactly
/// `rules.coalition_win_conditions` Coalition bases are, and no town is (towns belong to neither
/// team, and §1.7.2 speaks of a team's own win conditions).
pub fn validate_win_conditions(map: &Map, rules: &SetupRules) -> Result<(), RuleError> {
    let mut chosen: Vec<Square> = Vec::new();
    for site in map.sites.values() {
        match site.kind {
            SiteKind::Portal if !site.win_condition => {
                return Err(RuleError::new(
                    "coalition.setup.portal_not_win_condition",
                    format!("{} at {} must be a win condition: all portals are", site.name, site.square),
                    rule("2.5.1.3"),
                ));
            }
            SiteKind::Town if site.win_condition => {
                return Err(RuleError::new(
                    "coalition.setup.town_win_condition",
                    format!("{} at {} is a neutral town and cannot be a win condition", site.name, site.square),
                    rule("2.5.1.3"),
                ));
            }
            SiteKind::Base { .. } if site.win_condition => chosen.push(site.square),
            _ => {}
        }
    }
    if chosen.len() != rules.coalition_win_conditions {
        return Err(RuleError::new(
            "coalition.setup.coalition_win_condition_count",
            format!(
                "the Coalition named {} bases as win conditions; it must name exactly {}",
                chosen.len(),
                rules.coalition_win_conditions
            ),
            rule("2.5.1.3"),
        ));
    }
    Ok(())
}
