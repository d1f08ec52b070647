//! One army's make-up: slots, sizes, creature types, legend, bans and colors (seed 003 §2.1–2.2).

use std::collections::BTreeMap;

use super::colors::{validate_army_colors, validate_creature_colors};
use super::rule;
use super::troop_change::validate_troop_change;
use crate::coalition::army::{Army, RankClass, Team, TroopLine};
use crate::coalition::map::Faction;
use crate::RuleError;

/// Creatures no army may field, with the section that bans them: Greater Morphling "for being
/// stupid" (seed 003 §2.2.1) and Summoner's Egg (§2.2.3.1.4).
pub const BANNED_CREATURES: [(&str, &str); 2] = [("Greater Morphling", "2.2.1"), ("Summoner's Egg", "2.2.3.1.4")];

/// The most creature types one army may hold, counting types with no troops left (seed 003 §2.1,
/// §2.3.3).
pub const MAX_CREATURE_TYPES: usize = 6;

/// What an army is checked against besides itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArmyContext<'a> {
    /// The campaign's other armies, whose legends this army may not share (seed 003 §2.1). An army
    /// of the same name in this list is the army itself (an earlier version of it) and is skipped.
    pub other_armies: &'a [Army],
    /// Colors of the Coalition bases destroyed so far (seed 003 §2.3.2).
    pub destroyed_bases: &'a [Faction],
    /// The army before a change of troops (seed 003 §2.3.2), if this is one; `None` when creating it.
    pub previous: Option<&'a Army>,
}

/// A card name as compared between armies: case, spacing and typographic apostrophes ignored, so
/// `Summoner’s Egg` and `summoner's egg` are one card.
pub fn card_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").replace('’', "'").to_lowercase()
}

/// Check an army's troop list against seed 003 §2.1–2.2 (and §2.3.2 when `context.previous` is
/// given).
///
/// - Colors: the army's own (see [`validate_army_colors`]) and each creature's
///   ([`validate_creature_colors`]); the legend is exempt (§2.1).
/// - Slots: each line names slot 0–3; the lines of one slot hold at most
///   [`RankClass::SLOT_TROOPS`] troops at full strength; troops never exceed full.
/// - Sizes: a creature's power and toughness are each at most the slot's size — a 2/3 fits a 3/3
///   slot, a 2/4 does not (§2.1) — and its toughness is at least 1 (§2.2.6: a 0/0 with counters is
///   used at a size it could reach, never 0/0).
/// - At most [`MAX_CREATURE_TYPES`] distinct creatures (§2.1); one creature is used at one size per
///   army: a `*/*` creature's one chosen size (§2.2.2), and likewise the one kicker/threshold or
///   counters size chosen when the army is made (§2.2.3.2, §2.2.3.3, §2.2.6).
/// - The banned creatures of [`BANNED_CREATURES`].
/// - One legend, in this army only (§2.1); a legend is never also fielded as troops (§2.2.1).
/// - Mercenary armies are of the ranks ch. 6 gives them: 3/3–6/6 (Plaguelord/Commander) or smaller.
pub fn validate_army(army: &Army, context: &ArmyContext<'_>) -> Result<(), RuleError> {
    validate_army_colors(army)?;
    if army.team == Team::Mercenary && army.rank < RankClass::PlaguelordCommander {
        return Err(RuleError::new(
            "coalition.army.mercenary_rank",
            format!("{} is a mercenary army: mercenaries are 3/3-6/6 rank or smaller", army.name),
            rule("6"),
        ));
    }
    for line in &army.troops {
        check_line(army, line)?;
    }
    check_slot_totals(army)?;
    check_creature_types(army)?;
    check_legend(army, context)?;
    if let Some(previous) = context.previous {
        validate_troop_change(previous, army, context.destroyed_bases)?;
    }
    Ok(())
}

fn check_line(army: &Army, line: &TroopLine) -> Result<(), RuleError> {
    let name = &line.creature;
    if let Some((banned, section)) = BANNED_CREATURES.iter().find(|(banned, _)| card_key(banned) == card_key(name)) {
        return Err(RuleError::new(
            "coalition.army.banned_creature",
            format!("{banned} is banned and cannot be part of any army"),
            rule(section),
        ));
    }
    let Some(size) = army.rank.slot_sizes().get(usize::from(line.slot)).copied() else {
        return Err(RuleError::new(
            "coalition.army.no_such_slot",
            format!("{name} is placed in slot {}; an army has slots 0 to 3", line.slot),
            rule("2.1"),
        ));
    };
    if line.power > size || line.toughness > size {
        return Err(RuleError::new(
            "coalition.army.creature_too_big",
            format!(
                "{name} is a {}/{} and does not fit the {size}/{size} slot: power and toughness are maximums",
                line.power, line.toughness
            ),
            rule("2.1"),
        ));
    }
    if line.toughness == 0 {
        return Err(RuleError::new(
            "coalition.army.zero_toughness",
            format!("{name} would be a {}/0: choose a size it could have in a game of Magic", line.power),
            rule("2.2.6"),
        ));
    }
    if line.troops > line.full {
        return Err(RuleError::new(
            "coalition.army.troops_above_full",
            format!("{name} has {} troops but only {} at full strength", line.troops, line.full),
            rule("2.1"),
        ));
    }
    validate_creature_colors(army.team, &army.colors, name, &line.colors)
}

fn check_slot_totals(army: &Army) -> Result<(), RuleError> {
    for (slot, maximum) in RankClass::SLOT_TROOPS.iter().enumerate() {
        let full: u64 =
            army.troops.iter().filter(|line| usize::from(line.slot) == slot).map(|line| u64::from(line.full)).sum();
        if full > u64::from(*maximum) {
            let size = army.rank.slot_sizes().get(slot).copied().unwrap_or_default();
            return Err(RuleError::new(
                "coalition.army.slot_overfull",
                format!("{} has {full} troops in its {size}/{size} slot; the slot holds at most {maximum}", army.name),
                rule("2.1"),
            ));
        }
    }
    Ok(())
}

fn check_creature_types(army: &Army) -> Result<(), RuleError> {
    let mut sizes: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for line in &army.troops {
        let size = (line.power, line.toughness);
        match sizes.insert(card_key(&line.creature), size) {
            Some(earlier) if earlier != size => {
                let rule_ref = if line.variable { "2.2.2" } else { "2.2.3.3" };
                return Err(RuleError::new(
                    "coalition.army.creature_at_two_sizes",
                    format!(
                        "{} is used as both a {}/{} and a {}/{}; one creature is used at one size per army",
                        line.creature, earlier.0, earlier.1, size.0, size.1
                    ),
                    rule(rule_ref),
                ));
            }
            _ => {}
        }
    }
    if sizes.len() > MAX_CREATURE_TYPES {
        return Err(RuleError::new(
            "coalition.army.too_many_creature_types",
            format!(
                "{} has {} different creatures; an army may have at most {MAX_CREATURE_TYPES}, counting those with none left",
                army.name,
                sizes.len()
            ),
            rule("2.1"),
        ));
    }
    Ok(())
}

fn check_legend(army: &Army, context: &ArmyContext<'_>) -> Result<(), RuleError> {
    let others = context.other_armies.iter().filter(|other| other.name != army.name);
    let legends: Vec<String> = army
        .legend
        .iter()
        .chain(others.clone().filter_map(|other| other.legend.as_ref()))
        .map(|l| card_key(l))
        .collect();
    if let Some(line) = army.troops.iter().find(|line| legends.contains(&card_key(&line.creature))) {
        return Err(RuleError::new(
            "coalition.army.legend_as_troops",
            format!("{} is a legend in play and cannot fill a slot: an army has only its one legend", line.creature),
            rule("2.2.1"),
        ));
    }
    let Some(legend) = &army.legend else { return Ok(()) };
    if let Some(other) =
        others.clone().find(|other| other.legend.as_deref().is_some_and(|l| card_key(l) == card_key(legend)))
    {
        return Err(RuleError::new(
            "coalition.army.legend_in_two_armies",
            format!("{legend} is already the legend of {}; no legend may be part of more than one army", other.name),
            rule("2.1"),
        ));
    }
    Ok(())
}
