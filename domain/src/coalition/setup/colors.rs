//! Which creature colors an army may field (seed 003 §2.2.1, §2.2.1.1).

use std::collections::BTreeSet;

use super::rule;
use crate::coalition::army::{Army, Color, Team};
use crate::coalition::map::Faction;
use crate::RuleError;

/// The faction's name as players write it ("5-Color", "Colorless", "Red").
pub fn faction_name(faction: Faction) -> &'static str {
    match faction {
        Faction::Red => "Red",
        Faction::White => "White",
        Faction::Blue => "Blue",
        Faction::Green => "Green",
        Faction::Black => "Black",
        Faction::FiveColor => "5-Color",
        Faction::Colorless => "Colorless",
    }
}

/// The faction whose color a creature color is: artifacts belong to Colorless (seed 003 §1.2, the
/// Colorless base "has the brown border of the old artifacts").
pub fn faction_of(color: Color) -> Faction {
    match color {
        Color::White => Faction::White,
        Color::Blue => Faction::Blue,
        Color::Black => Faction::Black,
        Color::Red => Faction::Red,
        Color::Green => Faction::Green,
        Color::Artifact => Faction::Colorless,
    }
}

/// The factions a Coalition army must be a member of to field a creature of `colors`
/// (seed 003 §2.2.1).
///
/// Reading: each of the creature's colors needs membership of that color's faction ("creatures of
/// any of the colors they are faction members of"); an artifact needs Colorless; and a creature of
/// two or more of the five colors is multicolored and also needs 5-Color ("a member of both Red and
/// Green could not use a R/G multi creature unless he was also a member of 5-C"). An artifact
/// creature of one color is not multicolored: it needs Colorless and that color.
pub fn factions_needed(colors: &[Color]) -> BTreeSet<Faction> {
    let mut needed: BTreeSet<Faction> = colors.iter().map(|color| faction_of(*color)).collect();
    let hues = colors.iter().filter(|color| **color != Color::Artifact).collect::<BTreeSet<_>>().len();
    if hues >= 2 {
        needed.insert(Faction::FiveColor);
    }
    needed
}

/// Whether an army of `team` whose factions are `army_colors` may field `creature` of `colors`
/// (seed 003 §2.2.1).
///
/// Phyrexians may field blue, red, black, multicolored and artifact creatures, never one that is
/// even partly green or white. Coalition armies need the factions of [`factions_needed`].
/// Mercenaries follow ch. 6, which sets no color limits. Every creature has at least one color
/// (`artifact` for a colorless artifact), so the check can be made.
pub fn validate_creature_colors(
    team: Team,
    army_colors: &[Faction],
    creature: &str,
    colors: &[Color],
) -> Result<(), RuleError> {
    if colors.is_empty() {
        return Err(RuleError::new(
            "coalition.army.creature_without_colors",
            format!("{creature} has no colors: give its colors, or `artifact` for an artifact creature"),
            rule("2.2.1"),
        ));
    }
    match team {
        Team::Phyrexia => {
            if let Some(color) = colors.iter().find(|color| matches!(color, Color::Green | Color::White)) {
                return Err(RuleError::new(
                    "coalition.army.color_not_allowed",
                    format!(
                        "{creature} is {}: Phyrexians may not use green or white creatures, nor multicolored creatures that are part green or white",
                        if *color == Color::Green { "green" } else { "white" }
                    ),
                    rule("2.2.1"),
                ));
            }
        }
        Team::Coalition => {
            let missing: Vec<&str> = factions_needed(colors)
                .into_iter()
                .filter(|faction| !army_colors.contains(faction))
                .map(faction_name)
                .collect();
            if !missing.is_empty() {
                return Err(RuleError::new(
                    "coalition.army.color_not_allowed",
                    format!("{creature} needs the army to be a member of {}", missing.join(", ")),
                    rule("2.2.1"),
                ));
            }
        }
        Team::Mercenary => {}
    }
    Ok(())
}

/// Check an army's own colors (seed 003 §2.2.1.1): a Coalition army is a member of 1 to 3 distinct
/// factions (its creator's, who may claim up to 3, §1.1.2); a proxy army (no creator) has "any 3
/// colors chosen for it", read literally as exactly 3. Phyrexian and mercenary armies have no
/// factions, so their list is empty.
pub fn validate_army_colors(army: &Army) -> Result<(), RuleError> {
    let distinct: BTreeSet<Faction> = army.colors.iter().copied().collect();
    if distinct.len() != army.colors.len() {
        return Err(RuleError::new(
            "coalition.army.duplicate_color",
            format!("{} lists a faction twice among its colors", army.name),
            rule("2.2.1.1"),
        ));
    }
    let count = army.colors.len();
    match (army.team, army.creator.is_some()) {
        (Team::Coalition, true) if !(1..=3).contains(&count) => Err(RuleError::new(
            "coalition.army.color_count",
            format!("{} has {count} colors; a Coalition army has its creator's 1 to 3 colors", army.name),
            rule("2.2.1.1"),
        )),
        (Team::Coalition, false) if count != 3 => Err(RuleError::new(
            "coalition.army.color_count",
            format!("{} is a proxy army with {count} colors; proxy armies have 3 colors chosen for them", army.name),
            rule("2.2.1.1"),
        )),
        (Team::Phyrexia | Team::Mercenary, _) if count != 0 => Err(RuleError::new(
            "coalition.army.colors_outside_coalition",
            format!("{} is not a Coalition army and is a member of no faction", army.name),
            rule("2.2.1.1"),
        )),
        _ => Ok(()),
    }
}
