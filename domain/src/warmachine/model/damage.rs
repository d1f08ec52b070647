//! Damage capacity and warjack damage grids (seed 000 "Model Types, Stats, and Damage
//! Capacity", "L/R/H, Location").
//!
//! The seed says only that a warjack's system is crippled "when all of a warjack's system boxes
//! for a location have been damaged" and that a crippled cortex cannot have focus. Herald's grid
//! is a simple documented model of that: six columns numbered 1–6, each a list of boxes from top
//! to bottom, each box blank or labelled with a system letter. Damage is marked from the top of
//! the rolled column down, then continues in the next column (6 wraps to 1) until every point is
//! marked or the grid is full; a full grid destroys the warjack.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::RuleError;

/// Number of grid columns: one per face of the d6 that picks the column.
pub const GRID_COLUMNS: usize = 6;

const RULE: &str = "seed 000 \"L/R/H, Location\"";

/// The systems a grid box can belong to, by the letter printed in the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// L: left arm.
    LeftArm,
    /// R: right arm.
    RightArm,
    /// H: head.
    Head,
    /// S: superstructure.
    Superstructure,
    /// M: movement.
    Movement,
    /// C: cortex; crippled, the warjack cannot have focus (seed 000 "Warjacks").
    Cortex,
}

impl System {
    /// The system named by a grid letter.
    pub fn from_letter(letter: char) -> Option<Self> {
        match letter {
            'L' => Some(Self::LeftArm),
            'R' => Some(Self::RightArm),
            'H' => Some(Self::Head),
            'S' => Some(Self::Superstructure),
            'M' => Some(Self::Movement),
            'C' => Some(Self::Cortex),
            _ => None,
        }
    }
}

/// One damage box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GridBox {
    /// The system the box belongs to; `None` for a blank box.
    pub system: Option<System>,
    /// Whether the box has been marked.
    pub damaged: bool,
}

/// A warjack's damage grid: six columns of boxes, top to bottom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DamageGrid {
    /// Columns 1–6, at index 0–5.
    pub columns: Vec<Vec<GridBox>>,
}

/// What marking damage on a grid did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GridDamage {
    /// Boxes marked (less than the damage when the grid filled up).
    pub marked: u16,
    /// Systems that became crippled by this damage.
    pub newly_crippled: Vec<System>,
    /// Whether every box is now marked (the warjack is destroyed).
    pub destroyed: bool,
}

impl DamageGrid {
    /// Parses six column strings, top to bottom: `-` is a blank box, `L R H S M C` a system box.
    pub fn parse(columns: &[&str]) -> Result<Self, RuleError> {
        if columns.len() != GRID_COLUMNS {
            return Err(RuleError::new(
                "warmachine.model.grid_column_count",
                format!("a damage grid has {GRID_COLUMNS} columns, not {}", columns.len()),
                RULE,
            ));
        }
        let mut parsed = Vec::with_capacity(GRID_COLUMNS);
        for text in columns {
            let mut column = Vec::with_capacity(text.len());
            for letter in text.chars() {
                let system = match letter {
                    '-' => None,
                    other => Some(System::from_letter(other).ok_or_else(|| {
                        RuleError::new(
                            "warmachine.model.grid_box_letter",
                            format!("'{other}' is not a grid box: use - or one of L R H S M C"),
                            RULE,
                        )
                    })?),
                };
                column.push(GridBox { system, damaged: false });
            }
            parsed.push(column);
        }
        let grid = Self { columns: parsed };
        grid.validate()?;
        Ok(grid)
    }

    /// Checks the grid's shape: six columns and at least one box.
    pub fn validate(&self) -> Result<(), RuleError> {
        if self.columns.len() != GRID_COLUMNS {
            return Err(RuleError::new(
                "warmachine.model.grid_column_count",
                format!("a damage grid has {GRID_COLUMNS} columns, not {}", self.columns.len()),
                RULE,
            ));
        }
        if self.total_boxes() == 0 {
            return Err(RuleError::new("warmachine.model.grid_empty", "a damage grid needs boxes", RULE));
        }
        Ok(())
    }

    /// All boxes in the grid.
    pub fn total_boxes(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }

    /// Unmarked boxes.
    pub fn remaining(&self) -> usize {
        self.columns.iter().flatten().filter(|b| !b.damaged).count()
    }

    /// A system is crippled when it has boxes and all of them are damaged; a grid without the
    /// system's letter never cripples it.
    pub fn is_crippled(&self, system: System) -> bool {
        let mut boxes = self.columns.iter().flatten().filter(|b| b.system == Some(system)).peekable();
        boxes.peek().is_some() && boxes.all(|b| b.damaged)
    }

    /// Every crippled system, in [`System`] order.
    pub fn crippled(&self) -> Vec<System> {
        let mut systems: Vec<System> = self.columns.iter().flatten().filter_map(|b| b.system).collect();
        systems.sort();
        systems.dedup();
        systems.retain(|s| self.is_crippled(*s));
        systems
    }

    /// Marks `points` damage starting in `column` (1–6, the rolled die).
    pub fn mark(&mut self, column: u8, points: u16) -> Result<GridDamage, RuleError> {
        if !(1..=6).contains(&column) {
            return Err(RuleError::new(
                "warmachine.model.grid_column_out_of_range",
                format!("damage starts in a column from 1 to 6, not {column}"),
                RULE,
            ));
        }
        let before = self.crippled();
        let mut marked = 0u16;
        let mut index = usize::from(column - 1);
        for _ in 0..GRID_COLUMNS {
            for grid_box in self.columns.get_mut(index).into_iter().flatten() {
                if marked < points && !grid_box.damaged {
                    grid_box.damaged = true;
                    marked += 1;
                }
            }
            index = (index + 1) % GRID_COLUMNS;
        }
        let newly_crippled = self.crippled().into_iter().filter(|s| !before.contains(s)).collect();
        Ok(GridDamage { marked, newly_crippled, destroyed: self.remaining() == 0 })
    }
}

/// How much damage a model can take (seed 000 "Model Types, Stats, and Damage Capacity").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DamageCapacity {
    /// A row of boxes (1 for most troopers); warbeast life spirals are modelled as boxes too.
    Boxes {
        /// Number of boxes.
        boxes: u16,
    },
    /// A warjack's damage grid.
    Grid {
        /// The grid.
        grid: DamageGrid,
    },
}
