//! Armies as a battle sees them: team, rank class, and slots of creatures (seed 003 ch. 2).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The two teams and the neutral mercenaries (seed 003 §1.1, ch. 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Team {
    /// Phyrexia (seed 003 §1.1.1).
    Phyrexia,
    /// The Coalition (seed 003 §1.1.2).
    Coalition,
    /// The neutral mercenaries (seed 003 ch. 6).
    Mercenary,
}

/// The rank class of an army: the pair of ranks, one per team, that share a slot table
/// (seed 003 §2.1.1–2.1.6), largest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RankClass {
    /// Chief Praetor / General (seed 003 §2.1.1).
    ChiefPraetorGeneral,
    /// Praetor / Admiral (seed 003 §2.1.2).
    PraetorAdmiral,
    /// Evincar / Captain (seed 003 §2.1.3).
    EvincarCaptain,
    /// Plaguelord / Commander (seed 003 §2.1.4).
    PlaguelordCommander,
    /// CPL / Lt Cmdr (seed 003 §2.1.5).
    CplLtCommander,
    /// Centurion / Lt (seed 003 §2.1.6).
    CenturionLieutenant,
}

impl RankClass {
    /// Power/toughness of the smallest slot of this rank class: 6 for Chief Praetor/General
    /// down to 1 for Centurion/Lt (seed 003 §2.1); the other three slots are +1, +2, +3.
    pub fn smallest_slot_size(self) -> u32 {
        match self {
            Self::ChiefPraetorGeneral => 6,
            Self::PraetorAdmiral => 5,
            Self::EvincarCaptain => 4,
            Self::PlaguelordCommander => 3,
            Self::CplLtCommander => 2,
            Self::CenturionLieutenant => 1,
        }
    }
}

/// A creature's color, or artifact (seed 003 §2.2.1, §4.2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// White.
    White,
    /// Blue.
    Blue,
    /// Black.
    Black,
    /// Red.
    Red,
    /// Green.
    Green,
    /// An artifact creature (colorless).
    Artifact,
}

/// One slot of an army: a creature type and how many of its troops remain (seed 003 §2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 3000}))]
pub struct Slot {
    /// The creature's card name.
    pub creature: String,
    /// Its colors; `["artifact"]` for an artifact creature.
    pub colors: Vec<Color>,
    /// Printed power.
    pub power: u32,
    /// Printed toughness.
    pub toughness: u32,
    /// Troops remaining.
    pub troops: u32,
    /// The rank slot it fills in a campaign army: 0 = the 5000-troop slot of the smallest
    /// creatures (the lowest rank) … 3 = the 1000-troop slot (the top rank), seed 003 §2.1. A
    /// battle opened without it ranks slots by power plus toughness (seed 003 §4.3.2, §4.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<u8>,
}

/// An army as it enters a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmySpec {
    /// The army's name (`Sai Rei`).
    pub name: String,
    /// Its team.
    pub team: Team,
    /// Its rank class.
    pub rank: RankClass,
    /// The player who controls it and writes its strategy.
    pub controller: String,
    /// Its slots, in order.
    pub slots: Vec<Slot>,
    /// The player's contingency, who may send its strategy in the last 24 hours before the
    /// deadline (seed 003 §5.2.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contingency: Option<String>,
    /// Its mercenary faction, for a mercenary army (seed 003 ch. 6): Raiders are Hellbent
    /// (§6.3.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mercenary: Option<crate::coalition::setup::MercenaryFaction>,
}

impl ArmySpec {
    /// Troops remaining across all slots.
    pub fn total_troops(&self) -> u64 {
        self.slots.iter().map(|slot| u64::from(slot.troops)).sum()
    }

    /// Whether every slot is at 0 troops (seed 003 §4.3.1).
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|slot| slot.troops == 0)
    }
}

/// One creature type in a campaign army: which of the rank's four slots it fills and how many of
/// its troops remain (seed 003 §2.1–2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TroopLine {
    /// The creature's card name.
    pub creature: String,
    /// Its colors; `["artifact"]` for an artifact creature.
    pub colors: Vec<Color>,
    /// Power as used in this army (a `*/*` creature's chosen size, seed 003 §2.2.2).
    pub power: u32,
    /// Toughness as used in this army.
    pub toughness: u32,
    /// Whether the card is `*/*` (usable at any one size per army, seed 003 §2.2.2).
    #[serde(default)]
    pub variable: bool,
    /// The slot it fills: 0 = the 5000-troop slot of the smallest size … 3 = the 1000-troop slot.
    pub slot: u8,
    /// Troops when at full strength.
    pub full: u32,
    /// Troops remaining.
    pub troops: u32,
}

/// An army on the campaign map (seed 003 ch. 2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Army {
    /// Its name, unique in the campaign.
    pub name: String,
    /// Its team.
    pub team: Team,
    /// Its rank class.
    pub rank: RankClass,
    /// The player it is named after; `None` for a proxy army (seed 003 §2.2.1.1, §2.5.2.1).
    pub creator: Option<String>,
    /// The factions (colors) it is a member of, fixed for the round (Coalition, seed 003 §2.2.1.1).
    #[serde(default)]
    pub colors: Vec<crate::coalition::map::Faction>,
    /// Its one legend, of any size and color (seed 003 §2.1).
    #[serde(default)]
    pub legend: Option<String>,
    /// Its troops by creature type.
    pub troops: Vec<TroopLine>,
}

impl Army {
    /// Troops remaining across all lines.
    pub fn total_troops(&self) -> u64 {
        self.troops.iter().map(|line| u64::from(line.troops)).sum()
    }

    /// The army as a battle sees it, each slot with its rank slot (seed 003 §2.1).
    pub fn battle_spec(&self, controller: &str) -> ArmySpec {
        ArmySpec {
            name: self.name.clone(),
            team: self.team,
            rank: self.rank,
            controller: controller.to_string(),
            contingency: None,
            mercenary: None,
            slots: self
                .troops
                .iter()
                .map(|line| Slot {
                    creature: line.creature.clone(),
                    colors: line.colors.clone(),
                    power: line.power,
                    toughness: line.toughness,
                    troops: line.troops,
                    slot: Some(line.slot),
                })
                .collect(),
        }
    }
}
