//! Healing and changing troops (seed 003 §2.3.1–2.3.2).
//!
//! - A Phyrexian army heals in a portal once 2 days are counted after a loss (§2.3.1.1).
//! - A Coalition army in a base of its colors heals troops of the base's color once 1 day is
//!   counted after their loss, and all troops once 2 days are (§2.3.1.2).
//! - The two lowest rank classes heal in a neutral town "just as if it was at a friendly
//!   base/portal" after 2 days (§2.3.1.3). A town has no color, so the one-day rule never applies.
//!
//! Healing is checked on every day counted, so troops lost on the second day are replaced once
//! the count reaches 4 ("once the army counts 2 more days and heals again", §2.3.1.1).
//!
//! Color reading: a creature is "of the color of that base" when the base's color is one of its
//! colors: a red/green creature is of Red and of Green. The 5-Color base's color is multicolored
//! (two or more colors, as §2.2.1 reserves those to 5-C), the Colorless base's is artifact or no
//! color at all.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::count::DayCount;
use super::ledger::LossLedger;
use super::place::{place_of, Place};
use crate::coalition::army::{Army, Color, Team};
use crate::coalition::map::{Faction, Map, SiteKind};
use crate::RuleError;

/// Days counted after a loss before those troops are replaced (seed 003 §2.3.1.1–2.3.1.3).
pub const HEAL_DAYS: u32 = 2;

/// Days counted after a loss before troops of a Coalition base's color are replaced there
/// (seed 003 §2.3.1.2).
pub const BASE_COLOR_HEAL_DAYS: u32 = 1;

/// Days counted before an army may change its troops (seed 003 §2.3.2).
pub const TROOP_CHANGE_DAYS: u32 = 2;

/// One troop line raised by healing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"line": 0, "creature": "Kris Mage", "from": 3000, "to": 5000}))]
pub struct LineHealed {
    /// Index of the line in `Army::troops`.
    pub line: usize,
    /// The creature, so the event reads on its own.
    pub creature: String,
    /// Troops before.
    pub from: u32,
    /// Troops after.
    pub to: u32,
}

/// Whether a creature of `colors` is of the color of a base of `base` (see the module docs).
pub fn has_base_color(colors: &[Color], base: Faction) -> bool {
    let has = |color| colors.contains(&color);
    match base {
        Faction::Red => has(Color::Red),
        Faction::White => has(Color::White),
        Faction::Blue => has(Color::Blue),
        Faction::Green => has(Color::Green),
        Faction::Black => has(Color::Black),
        Faction::FiveColor => {
            colors.iter().filter(|color| **color != Color::Artifact).collect::<BTreeSet<_>>().len() >= 2
        }
        Faction::Colorless => colors.is_empty() || has(Color::Artifact),
    }
}

/// Days that must be counted after a loss of a creature of `colors` before it is replaced, for
/// an army of `team` counting in `site`.
pub fn days_to_heal(team: Team, site: SiteKind, colors: &[Color]) -> u32 {
    match site {
        SiteKind::Base { color } if team == Team::Coalition && has_base_color(colors, color) => BASE_COLOR_HEAL_DAYS,
        _ => HEAL_DAYS,
    }
}

/// The lines `army` heals now, having counted `count` with `ledger`'s losses during it.
///
/// `count` must be a healing count (see [`super::place_of`]); each line is raised to its full
/// strength less the troops still waiting, never lowered.
pub fn heal(army: &Army, count: &DayCount, ledger: &LossLedger) -> Vec<LineHealed> {
    army.troops
        .iter()
        .enumerate()
        .filter_map(|(line, troops)| {
            let required = days_to_heal(army.team, count.site, &troops.colors);
            if count.days < required {
                return None;
            }
            let to = troops.full.saturating_sub(ledger.waiting(line, count.days, required));
            (to > troops.troops).then(|| LineHealed {
                line,
                creature: troops.creature.clone(),
                from: troops.troops,
                to,
            })
        })
        .collect()
}

/// Apply healed lines to an army (for `evolve`): lines whose index and creature still match.
pub fn apply_healing(army: &mut Army, healed: &[LineHealed]) {
    for heal in healed {
        if let Some(line) = army.troops.get_mut(heal.line).filter(|line| line.creature == heal.creature) {
            line.troops = line.troops.max(heal.to);
        }
    }
}

/// Colors of destroyed Coalition bases: a Coalition army changing troops may not request
/// creatures of these colors that it did not already have (seed 003 §2.3.2). The makeup check
/// itself belongs to the army rules; this names the colors.
pub fn destroyed_base_colors(map: &Map) -> BTreeSet<Faction> {
    map.sites
        .values()
        .filter(|site| site.destroyed)
        .filter_map(|site| match site.kind {
            SiteKind::Base { color } => Some(color),
            _ => None,
        })
        .collect()
}

/// Whether `army`, with its current `count`, may now ask for a new troop makeup (seed 003
/// §2.3.2): it has counted 2 days in a base or portal it could heal at, not a town (§2.3.1.3).
///
/// Reading: the option stays open while it keeps counting there after the second day. Whether
/// the requested makeup is legal (§2.1–2.2, and the destroyed-base exception) is checked by the
/// army rules, not here.
pub fn may_change_troops(army: &Army, count: Option<&DayCount>, map: &Map) -> Result<(), RuleError> {
    let rule = "seed 003 §2.3.2";
    let Some(count) = count else {
        return Err(RuleError::new(
            "coalition.troops.not_counting_days",
            format!("{} is not counting days in a base or portal, so it cannot change troops", army.name),
            rule,
        ));
    };
    match place_of(army, map, count.square) {
        Place::Heals { site: SiteKind::Town } => Err(RuleError::new(
            "coalition.troops.in_town",
            format!("{} is healing in a neutral town, where troops cannot be changed", army.name),
            "seed 003 §2.3.1.3",
        )),
        Place::Heals { .. } if count.days >= TROOP_CHANGE_DAYS => Ok(()),
        Place::Heals { .. } => Err(RuleError::new(
            "coalition.troops.too_few_days",
            format!(
                "{} has counted {} of the {TROOP_CHANGE_DAYS} days needed to change troops at {}",
                army.name, count.days, count.square
            ),
            rule,
        )),
        Place::Siege { .. } | Place::NoCount { .. } => Err(RuleError::new(
            "coalition.troops.not_a_healing_base",
            format!("{} cannot heal at {}, so it cannot change troops there", army.name, count.square),
            rule,
        )),
    }
}
