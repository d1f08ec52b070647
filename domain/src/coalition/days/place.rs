//! Where an army may count days: its own portals and bases, neutral towns for the two lowest rank
//! classes, and enemy sites it besieges (seed 003 §1.5, §1.7.1, §2.3.1).
//!
//! Every other module of `days` asks this one first, so the membership rules live in one place.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::army::{Army, RankClass, Team};
use crate::coalition::map::{Map, SiteKind, Square};

/// What an army standing on a square may count there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "place", rename_all = "snake_case")]
pub enum Place {
    /// A site where it counts healing days: a portal (Phyrexia), a base of one of its colors
    /// (Coalition, §2.3.1.2), or a neutral town for the two lowest rank classes (§2.3.1.3).
    Heals {
        /// The site it counts in.
        site: SiteKind,
    },
    /// An enemy base or portal, where it counts days towards destroying it (§1.7.1).
    Siege {
        /// The site it besieges.
        site: SiteKind,
    },
    /// It counts no days here.
    NoCount {
        /// Why not.
        reason: NoCountReason,
    },
}

/// Why an army counts no days on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoCountReason {
    /// No site: "armies moving on the open map do not count days" (§1.5).
    OpenMap,
    /// The site was destroyed (§1.7.1): it is no longer a base or portal.
    Destroyed,
    /// A Coalition base of a color the army is not a member of (§2.3.1.2).
    BaseNotOfItsColors,
    /// A neutral town and the army is above the two lowest rank classes (§2.3.1.3).
    TownAboveLowestRanks,
    /// Mercenaries follow their own AI and healing rules (ch. 6), not days.
    Mercenary,
}

impl NoCountReason {
    /// The rule the reason comes from.
    pub fn rule(self) -> &'static str {
        match self {
            Self::OpenMap => "seed 003 §1.5",
            Self::Destroyed => "seed 003 §1.7.1",
            Self::BaseNotOfItsColors => "seed 003 §2.3.1.2",
            Self::TownAboveLowestRanks => "seed 003 §2.3.1.3",
            Self::Mercenary => "seed 003 ch. 6",
        }
    }
}

/// The team a site belongs to: portals are Phyrexian, bases are the Coalition's, towns are
/// neutral (seed 003 §1.1.1, §1.1.2, §2.5.1.4).
pub fn site_team(kind: SiteKind) -> Option<Team> {
    match kind {
        SiteKind::Portal => Some(Team::Phyrexia),
        SiteKind::Base { .. } => Some(Team::Coalition),
        SiteKind::Town => None,
    }
}

/// Whether an army of this rank class may count days in a neutral town: only the two lowest
/// classes, Centurion/Lt and CPL/Lt Cmdr (seed 003 §2.3.1.3).
pub fn counts_in_towns(rank: RankClass) -> bool {
    matches!(rank, RankClass::CenturionLieutenant | RankClass::CplLtCommander)
}

/// What `army` may count on `square` of `map`.
///
/// A Coalition army's colors are the factions it is a member of, fixed for the round
/// (§2.2.1.1), so the check reads `army.colors` and never the controller's.
pub fn place_of(army: &Army, map: &Map, square: Square) -> Place {
    let no_count = |reason| Place::NoCount { reason };
    if army.team == Team::Mercenary {
        return no_count(NoCountReason::Mercenary);
    }
    let Some(site) = map.site_at(square) else {
        return no_count(NoCountReason::OpenMap);
    };
    if site.destroyed {
        return no_count(NoCountReason::Destroyed);
    }
    match site.kind {
        SiteKind::Town if counts_in_towns(army.rank) => Place::Heals { site: site.kind },
        SiteKind::Town => no_count(NoCountReason::TownAboveLowestRanks),
        kind if site_team(kind) != Some(army.team) => Place::Siege { site: kind },
        SiteKind::Base { color } if !army.colors.contains(&color) => no_count(NoCountReason::BaseNotOfItsColors),
        kind => Place::Heals { site: kind },
    }
}
