//! Where the armies start: by the bases their teams ask for, dropped by the judge on nearby
//! squares (seed 003 §2.5.2.3).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::colors::faction_name;
use super::rule;
use crate::coalition::army::Team;
use crate::coalition::map::{Faction, Map, SiteKind, Square, Terrain};
use crate::RuleError;

/// A team's request that an army start by one of its bases (seed 003 §2.5.2.3). Players name a
/// base, never a square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlacementRequest {
    /// The army.
    pub army: String,
    /// Its team.
    pub team: Team,
    /// The factions it is a member of (Coalition armies; empty for Phyrexia).
    #[serde(default)]
    pub colors: Vec<Faction>,
    /// The square of the base or portal it starts by.
    pub base: Square,
}

/// Check that an army may start by the site at `request.base` (seed 003 §2.5.2.3): a Phyrexian army
/// by one of Phyrexia's portals, a Coalition army by a base of one of its own colors ("one of the
/// three bases they are a member of"), in either case one still standing. Mercenaries are not
/// placed by request: the Mercenary Judge adds them after the teams (§2.5.3, ch. 6).
pub fn validate_start_base(map: &Map, request: &PlacementRequest) -> Result<(), RuleError> {
    let army = &request.army;
    let refuse = |code: &str, message: String| Err(RuleError::new(code, message, rule("2.5.2.3")));
    let Some(site) = map.site_at(request.base) else {
        return refuse(
            "coalition.setup.start_not_a_base",
            format!("{army} must start by a base, and {} has none", request.base),
        );
    };
    if site.destroyed {
        return refuse(
            "coalition.setup.start_base_destroyed",
            format!("{army} cannot start by {}: it is destroyed", site.name),
        );
    }
    match (request.team, site.kind) {
        (Team::Phyrexia, SiteKind::Portal) => Ok(()),
        (Team::Coalition, SiteKind::Base { color }) if request.colors.contains(&color) => Ok(()),
        (Team::Coalition, SiteKind::Base { color }) => refuse(
            "coalition.setup.start_base_not_member",
            format!("{army} is not a member of {} and cannot start by {}", faction_name(color), site.name),
        ),
        (Team::Mercenary, _) => Err(RuleError::new(
            "coalition.setup.mercenary_placement",
            format!("{army} is a mercenary: the Mercenary Judge places mercenaries after the teams"),
            rule("2.5.3"),
        )),
        _ => refuse(
            "coalition.setup.start_not_own_base",
            format!("{army} must start by one of its own team's bases, not {}", site.name),
        ),
    }
}

/// Drop each requested army on a square near its base (seed 003 §2.5.2.3: "the judge will drop the
/// armies on the map nearby the bases they start at"), the judge's default made deterministic.
///
/// Requests are placed in the order given; each army goes to the empty square that sorts first by
///
/// 1. not ocean before ocean: an army is dropped at sea only when no land square is left anywhere
///    on the map (a base on a small island may send its armies to the nearest shore instead);
/// 2. fewest orthogonal steps ([`Square::distance`]) from its base;
/// 3. the map's reading order: lower row number first, then column letter (`5C` before `5D` before
///    `6A`).
///
/// Empty means: no army already there (`occupied`, and armies placed earlier in this call), and no
/// site — not the base itself nor any other base, portal or town. Armies start beside their base,
/// not in it, so no army begins the round counting days (§1.5). Every request is first checked with
/// [`validate_start_base`], and each army is placed once.
pub fn place_armies(
    map: &Map,
    requests: &[PlacementRequest],
    occupied: &[Square],
) -> Result<Vec<(String, Square)>, RuleError> {
    let mut taken: BTreeSet<Square> = occupied.iter().copied().chain(map.sites.keys().copied()).collect();
    let mut placed_armies = BTreeSet::new();
    let mut placements = Vec::with_capacity(requests.len());
    for request in requests {
        validate_start_base(map, request)?;
        if !placed_armies.insert(request.army.trim().to_lowercase()) {
            return Err(RuleError::new(
                "coalition.setup.army_placed_twice",
                format!("{} is asked to start by two bases; it starts by one", request.army),
                rule("2.5.2.3"),
            ));
        }
        let base = request.base;
        let square = map
            .bounds
            .squares()
            .filter(|square| !taken.contains(square))
            .min_by_key(|square| (map.terrain_at(*square) == Terrain::Ocean, square.distance(base), *square))
            .ok_or_else(|| {
                RuleError::new(
                    "coalition.setup.no_room_to_place",
                    format!("no empty square is left on the map for {}", request.army),
                    rule("2.5.2.3"),
                )
            })?;
        taken.insert(square);
        placements.push((request.army.clone(), square));
    }
    Ok(placements)
}
