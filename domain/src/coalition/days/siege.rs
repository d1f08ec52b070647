//! Destroying bases and portals (seed 003 §1.7.1): "an army must count 4 days in that location
//! (see rule 1.5). Once 4 days have been counted, the army must not move on the next turn (it is
//! ok if another army moves to attack you then), and the base will be destroyed."
//!
//! Readings. Days in an enemy site are not the healing days of §1.5 ("bases or portals" there are
//! the army's own), so they are kept apart as a [`Siege`]; they are counted by the same rule
//! (one a turn unattacked, one when it defeats an attacker, see [`super::count`]). Any rank may
//! besiege; a Coalition army besieges portals, a Phyrexian army bases of any color. On the turn
//! after the fourth day the army must stay on the square: if it is attacked then and wins, the
//! site falls; if it loses it is pushed out and the siege is over; while that battle is undecided
//! the site stands and the siege waits for the result.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::count::{tally, ArmyTurn, CountEnd, Fight};
use crate::coalition::map::{SiteKind, Square};

/// Days an army must count in an enemy site before it can destroy it (seed 003 §1.7.1).
pub const SIEGE_DAYS: u32 = 4;

/// Days an army has counted in an enemy base or portal (seed 003 §1.7.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"square": "20C", "site": {"kind": "base", "color": "red"}, "days": 4}))]
pub struct Siege {
    /// The besieged site's square.
    pub square: Square,
    /// The besieged site.
    pub site: SiteKind,
    /// Days counted there, at least 1.
    pub days: u32,
}

impl Siege {
    /// Whether the army has counted enough days that staying still one more turn destroys the
    /// site (seed 003 §1.7.1).
    pub fn ready(&self) -> bool {
        self.days >= SIEGE_DAYS
    }
}

/// A siege after one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiegeStep {
    /// The siege after the turn; `None` when it ended or the site fell.
    pub siege: Option<Siege>,
    /// Whether a day was counted this turn.
    pub counted: bool,
    /// The site destroyed this turn, if the army destroyed it.
    pub destroyed: Option<Siege>,
    /// The siege before the turn and why it ended, when it ended without destroying the site.
    pub ended: Option<(Siege, CountEnd)>,
}

impl Siege {
    /// Advance `previous` by one turn. `site` is the enemy site on `turn.ended_at` when the army
    /// besieges it (see [`super::place_of`]), `None` otherwise.
    pub fn advance(previous: Option<&Siege>, site: Option<SiteKind>, turn: &ArmyTurn) -> SiegeStep {
        let held = previous.filter(|siege| {
            siege.ready()
                && !turn.moved
                && siege.square == turn.ended_at
                && site.is_some()
                && matches!(turn.fight, Fight::NotAttacked | Fight::Won)
        });
        if let Some(siege) = held {
            return SiegeStep { siege: None, counted: false, destroyed: Some(siege.clone()), ended: None };
        }
        let tally = tally(previous.map(|siege| (siege.square, siege.days)), site.is_some(), turn);
        let ended = previous.cloned().zip(tally.ended);
        let days = tally.days.filter(|days| *days > 0);
        let siege = site.zip(days).map(|(site, days)| Siege { square: turn.ended_at, site, days });
        SiegeStep { siege, counted: tally.counted, destroyed: None, ended }
    }
}
