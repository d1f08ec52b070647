//! The loss ledger: which troops an army lost during its current count, and on which day
//! (seed 003 §2.3.1.1–2.3.1.2: "troops lost during the count must wait until the correct number
//! of days have been counted after their loss to be replaced").
//!
//! Only losses during a count are written down. Everything else an army is missing (`full -
//! troops` minus the ledger) was lost before the count began and is treated as lost on day 0.
//! When the count ends the ledger is cleared: at the next count those losses are "before the
//! count" too. A loss is stamped with the day in progress when it happened — the day the turn
//! counts, or would count if the army wins — so the 500 lost in the battle that earns the second
//! day are "lost during the last day" (§2.3.1.1's example).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Troops of one line lost on one day of the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub struct LedgerEntry {
    /// Index of the troop line in `Army::troops`.
    pub line: usize,
    /// The day of the count in progress when they were lost (1 = the first day).
    pub day: u32,
    /// Troops lost.
    pub troops: u32,
}

/// Losses during an army's current count, ordered by line then day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LossLedger {
    /// One entry per line and day, sorted, none with 0 troops.
    #[serde(default)]
    pub entries: Vec<LedgerEntry>,
}

impl LossLedger {
    /// Record `troops` of `line` lost on `day` of the count.
    pub fn record(&mut self, line: usize, day: u32, troops: u32) {
        if troops == 0 {
            return;
        }
        match self.entries.binary_search_by(|entry| (entry.line, entry.day).cmp(&(line, day))) {
            Ok(found) => {
                if let Some(entry) = self.entries.get_mut(found) {
                    entry.troops = entry.troops.saturating_add(troops);
                }
            }
            Err(at) => self.entries.insert(at, LedgerEntry { line, day, troops }),
        }
    }

    /// Record one turn's losses, per line in `Army::troops` order, on `day`.
    pub fn record_turn(&mut self, day: u32, losses: &[u32]) {
        for (line, &troops) in losses.iter().enumerate() {
            self.record(line, day, troops);
        }
    }

    /// Troops of `line` that cannot be replaced yet with `days` counted, when `required` days
    /// must be counted after a loss: those lost on a day `d` with `days - d < required`.
    pub fn waiting(&self, line: usize, days: u32, required: u32) -> u32 {
        self.entries
            .iter()
            .filter(|entry| entry.line == line && days.saturating_sub(entry.day) < required)
            .fold(0u32, |sum, entry| sum.saturating_add(entry.troops))
    }

    /// Forget losses that `days` counted have made replaceable under every healing rule
    /// (`longest` days after the loss).
    pub fn settle(&mut self, days: u32, longest: u32) {
        self.entries.retain(|entry| days.saturating_sub(entry.day) < longest);
    }

    /// Forget everything: the count ended, or the army's troops were changed (§2.3.2).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
