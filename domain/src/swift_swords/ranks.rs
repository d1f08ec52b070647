//! Physical and mental ranks (seed 004 "Ranks", "Total Ranks: Real Ranks vs Bonus Ranks",
//! "CrossOver Damage", "OoA and KIA").
//!
//! A rank track keeps the real rank a figure started with, its bonus ranks, and the ranks marked
//! lost: its own losses and those crossed over from the other side. "A lost Rank does not lower
//! your current ranks for future damage calculations", so thresholds use the total rank (real
//! plus bonus) and never the ranks left; bonus ranks are never marked lost.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Physical or mental.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsRankSide)]
pub enum RankSide {
    /// Physical ranks: weapons, bleeding, fatigue.
    Physical,
    /// Mental ranks: fear, intimidation, shock.
    Mental,
}

impl RankSide {
    /// The other side, for crossover.
    pub fn other(self) -> Self {
        match self {
            Self::Physical => Self::Mental,
            Self::Mental => Self::Physical,
        }
    }
}

/// One side's ranks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsRankTrack)]
pub struct RankTrack {
    /// The real rank it started the event with.
    pub rank: u8,
    /// Bonus ranks now (position, magic): they count for thresholds and absorb nothing.
    pub bonus: u8,
    /// Ranks lost on this side.
    pub lost: u32,
    /// Ranks lost by crossover from the other side.
    pub crossover: u32,
    /// Heroic: may go down to −3.
    pub heroic: bool,
}

/// The level 9 rank: "cannot be knocked off level 9 unless some special event occurs".
pub const LEVEL_NINE: u8 = 9;

impl RankTrack {
    /// The lowest the ranks left can go: −3 for the Heroic, 0 otherwise.
    pub fn floor(&self) -> i32 {
        if self.heroic {
            -3
        } else {
            0
        }
    }

    /// Ranks left: real rank less every loss, never below the floor.
    pub fn remaining(&self) -> i32 {
        let lost = i64::from(self.lost) + i64::from(self.crossover);
        let left = i64::from(self.rank) - lost;
        i32::try_from(left).unwrap_or(i32::MIN).max(self.floor())
    }

    /// The total rank damage is measured against: real plus bonus.
    pub fn total(&self) -> u32 {
        u32::from(self.rank) + u32::from(self.bonus)
    }

    /// Out of Action on this side: 0 or less, or −3 for the Heroic.
    pub fn out(&self) -> bool {
        if self.heroic {
            self.remaining() <= -3
        } else {
            self.remaining() <= 0
        }
    }

    /// Whether a loss can be marked: not at the floor, and not on level 9 without a bane.
    fn can_lose(&self, bane: bool) -> bool {
        self.remaining() > self.floor() && (self.rank != LEVEL_NINE || bane)
    }
}

/// Ranks actually marked by one loss (some may be absorbed by level 9 or the floor).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marked {
    /// Ranks marked on the side hit.
    pub lost: u32,
    /// Ranks crossed over to the other side.
    pub crossover: u32,
}

/// Mark `ranks` losses on `hit` (the other side being `other`): each `every`-th loss on a side
/// also takes a rank from the other side, which does not carry over again (seed 004 "CrossOver
/// Damage"). A level 9 side only loses to a `bane` ("A bane weapon might drop its target off
/// Physical 9"); crossover never takes a level 9 rank.
pub fn mark(hit: &RankTrack, other: &RankTrack, ranks: u32, every: u8, bane: bool) -> Marked {
    let mut hit = hit.clone();
    let mut other = other.clone();
    let mut marked = Marked::default();
    let every = u32::from(every.max(1));
    for _ in 0..ranks {
        if !hit.can_lose(bane) {
            break;
        }
        hit.lost += 1;
        marked.lost += 1;
        if hit.lost.is_multiple_of(every) && other.can_lose(false) {
            other.crossover += 1;
            marked.crossover += 1;
        }
    }
    marked
}

/// Heal `ranks` of a side's own losses; crossover losses it caused on the other side are regained
/// with them ("Carry over damage is regained if the cause is removed (healed)"). Returns the
/// ranks healed and the crossover regained.
pub fn heal(hit: &RankTrack, other: &RankTrack, ranks: u32, every: u8) -> (u32, u32) {
    let healed = ranks.min(hit.lost);
    let lost_after = hit.lost - healed;
    let caused = lost_after / u32::from(every.max(1));
    let regained = other.crossover.saturating_sub(caused);
    (healed, regained)
}
