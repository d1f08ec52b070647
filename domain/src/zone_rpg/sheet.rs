//! Character sheets (seed 001): each faction's characters with their health, the three saves a
//! d20 is rolled under (WIT, AGI, STR), where they stand (zone, riding, grabbed), their gear
//! (weapons, shield, armour, worn or broken: seed 001 "Gear degradation") and their conditions
//! (concealed, unaware, morale, surrendered…), as the viewer draws every ruleset's sheets.

use super::state::character::Morale;
use super::view::{CharacterView, Status, ZoneRpgView};
use crate::ruleset::sheet::{group_mark, stat, words, Card, Section, Sheet, SheetGroup};

/// The character sheets of `view`, by faction.
pub fn sheet(view: &ZoneRpgView) -> Sheet {
    let groups = view
        .factions
        .iter()
        .enumerate()
        .map(|(index, faction)| SheetGroup {
            name: faction.name.clone(),
            mark: group_mark(index),
            player: faction.controller.clone(),
            cards: view.characters.iter().filter(|c| c.faction == faction.name).map(card).collect(),
        })
        .collect();
    Sheet { kind: "character sheets".to_string(), groups }
}

fn card(c: &CharacterView) -> Card {
    let mut place = Vec::new();
    if c.position_hidden {
        place.push(stat("zone", "hidden"));
    } else if let Some(zone) = &c.zone {
        place.push(stat("zone", zone));
    }
    if let Some(border) = &c.at_border {
        place.push(stat("at the border with", border));
    }
    if let Some(mount) = &c.riding {
        place.push(stat("riding", mount));
    }
    if let Some(by) = &c.grabbed_by {
        place.push(stat("grabbed by", by));
    }
    if let Some(whom) = &c.grabbing {
        place.push(stat("grabbing", whom));
    }
    let mut gear: Vec<String> = c
        .weapons
        .iter()
        .map(|w| {
            let worn = if w.destroyed {
                ", broken"
            } else if w.used {
                ", worn"
            } else {
                ""
            };
            format!("{} ({} damage, range {}{worn})", w.weapon.name, words(&w.weapon.damage), w.weapon.range)
        })
        .collect();
    if let Some(shield) = &c.shield {
        gear.push(format!("{} (shield{})", shield.shield.name, if shield.destroyed { ", broken" } else { "" }));
    }
    if let Some(armour) = &c.armour {
        gear.push(format!(
            "{} (armour {}{})",
            armour.armour.name,
            armour.armour.value,
            if armour.destroyed { ", broken" } else { "" }
        ));
    }
    let mut conditions = Vec::new();
    if !matches!(c.status, Status::Fighting) {
        conditions.push(words(&c.status));
    }
    for (on, what) in [(c.concealed, "concealed"), (c.unaware, "unaware"), (c.fearless, "fearless")] {
        if on {
            conditions.push(what.to_string());
        }
    }
    if !matches!(c.morale, Morale::Untested) {
        conditions.push(format!("morale {}", words(&c.morale)));
    }
    if let Some(cover) = &c.behind {
        conditions.push(format!("behind {cover}"));
    }
    let out = matches!(c.status, Status::Dead | Status::Incapacitated).then(|| words(&c.status));
    Card {
        id: c.id.clone(),
        name: c.id.clone(),
        subtitle: Some(format!("{} size, speed {}", words(&c.size), c.speed)),
        out,
        sections: vec![
            Section::Track { label: "health".to_string(), current: c.health, max: c.max_health },
            Section::Stats {
                label: Some("saves (d20 under)".to_string()),
                stats: vec![stat("WIT", c.wit), stat("AGI", c.agi), stat("STR", c.str), stat("armour", c.armour_value)],
            },
            Section::Stats { label: Some("where".to_string()), stats: place },
            Section::List { label: "gear".to_string(), items: gear },
            Section::List { label: "conditions".to_string(), items: conditions },
        ],
    }
}
