//! Resistances bought for a mini at their costs (seed 002 "RESISTANCES").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a damaging attack is made of, for resistances and armour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishElement)]
#[serde(rename_all = "snake_case")]
pub enum Element {
    /// Fire (the fireball, a flaming weapon).
    Fire,
    /// Electricity (the lightning bolt).
    Electricity,
    /// Poison (a poisoned weapon). The seed spells it "Posion".
    Poison,
}

/// A resistance (seed 002 "RESISTANCES").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishResistance)]
#[serde(rename_all = "snake_case")]
pub enum Resistance {
    /// "Non magic weapons — Cost: 75 — All non magic weapons do 1/2 damage".
    NonMagicWeapons,
    /// "Fire, Electricity, or Posion — Cost: 50 for each — All attacks of the resistance in
    /// question do no damage": fire.
    Fire,
    /// The same, for electricity.
    Electricity,
    /// The same, for poison.
    Poison,
    /// "Spells — Cost: 75 — All spells do 1/2 damage and/or have their duration halved".
    Spells,
}

impl Resistance {
    /// What it costs to buy (seed 002 "RESISTANCES").
    pub const fn cost(self) -> u32 {
        match self {
            Self::NonMagicWeapons | Self::Spells => 75,
            Self::Fire | Self::Electricity | Self::Poison => 50,
        }
    }

    /// The resistance to `element`.
    pub const fn to(element: Element) -> Self {
        match element {
            Element::Fire => Self::Fire,
            Element::Electricity => Self::Electricity,
            Element::Poison => Self::Poison,
        }
    }
}

/// The total cost of a set of resistances.
pub fn resistance_cost(resistances: &[Resistance]) -> u32 {
    resistances.iter().map(|resistance| resistance.cost()).sum()
}
