//! Sheets: what a player keeps beside the table, in one shape for every ruleset.
//!
//! A ruleset describes its battle as the sheets its players would recognise (an army roster,
//! model cards with damage grids, character sheets, figure cards) out of the view a reader may
//! see, so a sheet never shows what the view hides. The viewer draws every sheet the same way: groups (a side, a
//! player, a faction) of cards, each card a few sections — stats, a track (health, damage), a list
//! (gear, conditions, spells), a table (slots) or a grid (a damage grid). Nothing here names a
//! ruleset.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A battle as its players' sheets, grouped by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Sheet {
    /// What the sheets are, in the rules' words (`army roster`, `model cards`).
    pub kind: String,
    /// The sides, players or factions, each with its cards.
    pub groups: Vec<SheetGroup>,
}

/// One side's cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SheetGroup {
    /// The side, player or faction, by name.
    pub name: String,
    /// A one-letter mark that tells the group apart without colour (`A`, `B`…), the same on every
    /// card of the group.
    pub mark: String,
    /// Who plays it, by player name, when a player does.
    pub player: Option<String>,
    /// Its cards: armies, models, characters, figures, minis.
    pub cards: Vec<Card>,
}

/// One thing on the table, as its card shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Card {
    /// Its id in the battle (what events and pictures call it).
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// What it is (`warjack`, `level 3, medium`).
    pub subtitle: Option<String>,
    /// Why it is out of the fight (`destroyed`, `killed`), when it is.
    pub out: Option<String>,
    /// What the card shows, in order.
    pub sections: Vec<Section>,
}

/// A part of a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Section {
    /// Named values (`SPD 5`, `WIT 12`).
    Stats {
        /// The section's heading, if it has one.
        label: Option<String>,
        /// The values, in order.
        stats: Vec<Stat>,
    },
    /// A count out of a most (health 7 of 10, damage boxes left).
    Track {
        /// What is counted.
        label: String,
        /// How many now.
        current: u32,
        /// The most there can be.
        max: u32,
    },
    /// Things held or suffered (gear, conditions, spells, injuries); empty reads as none.
    List {
        /// What they are.
        label: String,
        /// One line each.
        items: Vec<String>,
    },
    /// Rows with the same columns (an army's slots).
    Table {
        /// What the rows are.
        label: String,
        /// Column headings.
        columns: Vec<String>,
        /// The rows, a cell per column.
        rows: Vec<Vec<String>>,
    },
    /// Boxes in columns (a warjack's damage grid): each column top to bottom.
    Grid {
        /// What the boxes are.
        label: String,
        /// Each column's boxes, top to bottom.
        columns: Vec<Vec<GridCell>>,
    },
}

/// One named value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Stat {
    /// Its name (`SPD`, `troops`).
    pub label: String,
    /// Its value as people read it.
    pub value: String,
}

/// One box of a grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GridCell {
    /// What the box stands for (a system's letter), empty for a blank box.
    pub text: String,
    /// Whether it is marked.
    pub marked: bool,
}

/// `A`, `B`, … `Z`, then `AA`: the mark of the `index`th group.
pub fn group_mark(index: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = index;
    let mut mark = Vec::new();
    loop {
        mark.push(letters[n % 26]);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    mark.reverse();
    String::from_utf8_lossy(&mark).into_owned()
}

/// A stat from a label and anything that displays.
pub fn stat(label: &str, value: impl std::fmt::Display) -> Stat {
    Stat { label: label.to_string(), value: value.to_string() }
}

/// A value of the rules' vocabulary (an enum, a small struct) in words: a string as it is, a
/// number as written, a thing with a `name` by its name, `snake_case` words with spaces, and
/// anything else as its fields `key value` joined by commas.
pub fn words(value: &impl Serialize) -> String {
    serde_json::to_value(value).map(|value| json_words(&value)).unwrap_or_default()
}

fn json_words(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => "—".to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.replace('_', " "),
        Value::Array(items) => items.iter().map(json_words).collect::<Vec<_>>().join(", "),
        Value::Object(fields) => {
            if let Some(Value::String(name)) = fields.get("name") {
                return name.clone();
            }
            fields
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| format!("{} {}", k.replace('_', " "), json_words(v)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_marked_by_letters_past_z() {
        assert_eq!(group_mark(0), "A");
        assert_eq!(group_mark(1), "B");
        assert_eq!(group_mark(25), "Z");
        assert_eq!(group_mark(26), "AA");
        assert_eq!(group_mark(27), "AB");
    }

    #[test]
    fn values_read_as_words() {
        assert_eq!(words(&"knocked_down"), "knocked down");
        assert_eq!(words(&serde_json::json!({"name": "Sword", "damage": 6})), "Sword");
        assert_eq!(words(&serde_json::json!({"location": "head", "severity": 2})), "location head, severity 2");
        assert_eq!(words(&vec![1, 2]), "1, 2");
    }

    #[test]
    fn sections_are_tagged_by_kind() {
        let track = Section::Track { label: "health".into(), current: 3, max: 10 };
        assert_eq!(
            serde_json::to_value(track).expect("serialises"),
            serde_json::json!({"kind": "track", "label": "health", "current": 3, "max": 10})
        );
    }
}
