//! Counting days, one army and one turn at a time (seed 003 §1.5).
//!
//! "A day is measured independently for each army. Armies moving on the open map do not count
//! days. Armies moving into or sitting still in bases or portals that are not attacked by enemy
//! armies count one day each turn. Armies moving into or sitting still in bases that are attacked
//! by enemy armies count one day if and when they defeat that enemy army."
//!
//! Readings: a count belongs to one square. Leaving the square — by an order, by being bumped
//! after a battle (§4.2.5, §4.4) or by leaving and coming back in the same turn — ends it, and the
//! next count there starts again from the arrival turn. A defeat there ends it too: the loser is
//! moved out (§4.2.5), and for the end game the rules say so outright (§1.7.2, "start over again
//! from 0"). A battle still undecided at the end of a turn neither counts a day nor ends the count;
//! the one day comes in the turn the army defeats the enemy.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::map::{SiteKind, Square};

/// Whether the army fought on its square this turn, and how that went (seed 003 §1.5, §4.2.5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Fight {
    /// No enemy army attacked it: it counts a day if it may count here.
    #[default]
    NotAttacked,
    /// Engaged, and the battle is not decided yet: no day now, and the count goes on.
    Undecided,
    /// It defeated the enemy army: the one day is counted now.
    Won,
    /// It was defeated: no day, and its count ends.
    Lost,
}

/// What happened to one army in one turn, as the turn's days are counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyTurn {
    /// The square it ended the turn on (after any bump from a battle).
    pub ended_at: Square,
    /// Whether it left its square at any point this turn.
    #[serde(default)]
    pub moved: bool,
    /// Its battle on that square this turn, if any.
    #[serde(default)]
    pub fight: Fight,
    /// Troops it lost this turn, per troop line in `Army::troops` order (already taken off the
    /// army); missing lines lost nothing.
    #[serde(default)]
    pub losses: Vec<u32>,
}

impl ArmyTurn {
    /// A turn spent still, unattacked, on `square`.
    pub fn stayed(square: Square) -> Self {
        Self { ended_at: square, moved: false, fight: Fight::NotAttacked, losses: Vec::new() }
    }

    /// A turn that moved the army to `square`, unattacked.
    pub fn moved_to(square: Square) -> Self {
        Self { moved: true, ..Self::stayed(square) }
    }

    /// The same turn with a battle and the troops it cost.
    pub fn with_fight(self, fight: Fight, losses: Vec<u32>) -> Self {
        Self { fight, losses, ..self }
    }
}

/// Days an army has counted on its square in a friendly portal, a base of its colors or a town
/// (seed 003 §1.5, §2.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"square": "14H", "site": {"kind": "portal"}, "days": 2}))]
pub struct DayCount {
    /// Where it counts.
    pub square: Square,
    /// The site there.
    pub site: SiteKind,
    /// Days counted so far, at least 1: an army that arrived into a battle still undecided has
    /// no count until it wins.
    pub days: u32,
}

/// How a count ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CountEnd {
    /// The army left the square (§1.5: days are counted "sitting still").
    Moved,
    /// It was defeated there (§1.5, §1.7.2).
    Defeated,
    /// The square no longer lets it count (its site was destroyed, §1.7.1).
    CannotCount,
}

/// One turn of a count: the count after it, whether a day was counted, and how the count before
/// it ended if it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Days after the turn on the square it ended on, if it still counts there.
    pub days: Option<u32>,
    /// Whether this turn counted a day.
    pub counted: bool,
    /// The day in progress this turn (losses this turn happened "during" it, §2.3.1.1).
    pub in_progress: u32,
    /// Why the previous count ended, if it ended.
    pub ended: Option<CountEnd>,
}

/// The one counting rule shared by healing days and sieges: `previous` is the square and days of
/// the count before the turn; `counts_here` whether the army may count on `turn.ended_at`.
pub fn tally(previous: Option<(Square, u32)>, counts_here: bool, turn: &ArmyTurn) -> Tally {
    let stayed = previous.filter(|(square, _)| !turn.moved && *square == turn.ended_at);
    let lost = turn.fight == Fight::Lost;
    let ended = previous.and(match (stayed, lost, counts_here) {
        (_, true, _) => Some(CountEnd::Defeated),
        (None, _, _) => Some(CountEnd::Moved),
        (Some(_), _, false) => Some(CountEnd::CannotCount),
        (Some(_), false, true) => None,
    });
    let base = stayed.map_or(0, |(_, days)| days);
    let in_progress = base.saturating_add(1);
    if lost || !counts_here {
        return Tally { days: None, counted: false, in_progress, ended };
    }
    let counted = matches!(turn.fight, Fight::NotAttacked | Fight::Won);
    let days = if counted { in_progress } else { base };
    Tally { days: Some(days), counted, in_progress, ended }
}

/// The healing count after one turn, and what happened to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountStep {
    /// The count after the turn.
    pub count: Option<DayCount>,
    /// Whether a day was counted this turn.
    pub counted: bool,
    /// The day in progress this turn, which stamps this turn's losses.
    pub in_progress: u32,
    /// The count before the turn and why it ended, if it ended.
    pub ended: Option<(DayCount, CountEnd)>,
}

impl DayCount {
    /// Advance `previous` by one turn. `site` is the site on `turn.ended_at` when the army may
    /// count healing days there (see [`super::place_of`]), `None` otherwise.
    pub fn advance(previous: Option<&DayCount>, site: Option<SiteKind>, turn: &ArmyTurn) -> CountStep {
        let tally = tally(previous.map(|count| (count.square, count.days)), site.is_some(), turn);
        let ended = previous.cloned().zip(tally.ended);
        let days = tally.days.filter(|days| *days > 0);
        let count = site.zip(days).map(|(site, days)| DayCount { square: turn.ended_at, site, days });
        CountStep { count, counted: tally.counted, in_progress: tally.in_progress, ended }
    }
}
