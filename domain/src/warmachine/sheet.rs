//! Model cards (seed 000 "Model Types, Stats, and Damage Capacity"): each player's models with
//! their stat line, damage (a warjack's grid box by box, seed 000 "Damage Grids"), focus or fury,
//! conditions and weapons, as the viewer draws every ruleset's sheets.

use super::model::damage::{GridBox, System};
use super::model::weapon::WeaponRange;
use super::view::{ModelView, WarmachineView};
use crate::ruleset::sheet::{group_mark, stat, words, Card, GridCell, Section, Sheet, SheetGroup};

/// The model cards of `view`, by player.
pub fn sheet(view: &WarmachineView) -> Sheet {
    let groups = view
        .players
        .iter()
        .enumerate()
        .map(|(index, player)| SheetGroup {
            name: player.name.clone(),
            mark: group_mark(index),
            player: Some(player.controller.clone()),
            cards: view.models.iter().filter(|m| m.player == player.name).map(card).collect(),
        })
        .collect();
    Sheet { kind: "model cards".to_string(), groups }
}

fn card(model: &ModelView) -> Card {
    let s = &model.stats;
    let mut stats = vec![stat("SPD", s.spd)];
    if let Some(strength) = s.strength {
        stats.push(stat("STR", strength));
    }
    stats.extend([stat("MAT", s.mat), stat("RAT", s.rat)]);
    if let Some(aat) = s.aat {
        stats.push(stat("AAT", aat));
    }
    stats.extend([stat("DEF", s.def), stat("ARM", s.arm)]);
    if let Some(arc) = s.arc {
        stats.push(stat("ARC", arc));
    }
    if let Some(fury) = s.fury {
        stats.push(stat("FURY", fury));
    }
    let mut sections = vec![
        Section::Stats { label: None, stats },
        Section::Track {
            label: "damage boxes left".to_string(),
            current: model.damage.left,
            max: model.damage.capacity,
        },
    ];
    if let Some(grid) = &model.damage.grid {
        sections.push(Section::Grid {
            label: "damage grid (columns 1–6)".to_string(),
            columns: grid.columns.iter().map(|column| column.iter().map(grid_cell).collect()).collect(),
        });
    }
    let mut now = Vec::new();
    if model.focus > 0 {
        now.push(stat("focus", model.focus));
    }
    if model.fury > 0 {
        now.push(stat("fury", model.fury));
    }
    if !now.is_empty() {
        sections.push(Section::Stats { label: Some("now".to_string()), stats: now });
    }
    let mut conditions: Vec<String> = model.conditions.iter().map(words).collect();
    conditions.extend(model.damage.crippled.iter().map(|system| format!("{} crippled", words(system))));
    if model.knocked_down {
        conditions.push("knocked down".to_string());
    }
    if model.engaged {
        conditions.push("engaged".to_string());
    }
    if model.activated {
        conditions.push("activated this turn".to_string());
    }
    sections.push(Section::List { label: "conditions".to_string(), items: conditions });
    sections.push(Section::List {
        label: "weapons".to_string(),
        items: model
            .weapons
            .iter()
            .map(|w| {
                let pow = w.pow.map_or("–".to_string(), |p| p.to_string());
                format!("{} ({}, RNG {}, POW {pow})", w.name, words(&w.kind), range(&w.rng))
            })
            .collect(),
    });
    Card {
        id: model.id.clone(),
        name: model.name.clone(),
        subtitle: Some(words(&model.model_type)),
        out: model.destroyed.then(|| "destroyed".to_string()).or_else(|| model.inert.then(|| "inert".to_string())),
        sections,
    }
}

/// RNG as the card prints it (seed 000 "Weapon Statistics"): inches, `SP n`, `CTRL` or `*`.
fn range(rng: &WeaponRange) -> String {
    match rng {
        WeaponRange::Inches(inches) => format!("{inches}″"),
        WeaponRange::Spray(inches) => format!("SP {inches}"),
        WeaponRange::Control => "CTRL".to_string(),
        WeaponRange::Special => "*".to_string(),
    }
}

/// A box as printed: its system's letter (seed 000 "L/R/H, Location"), blank for none.
fn grid_cell(cell: &GridBox) -> GridCell {
    let text = match cell.system {
        None => "",
        Some(System::LeftArm) => "L",
        Some(System::RightArm) => "R",
        Some(System::Head) => "H",
        Some(System::Superstructure) => "S",
        Some(System::Movement) => "M",
        Some(System::Cortex) => "C",
    };
    GridCell { text: text.to_string(), marked: cell.damaged }
}
