//! The mercenaries (seed 003 ch. 6): three neutral factions run by the Mercenary Judge, who
//! "cannot be a player on either Player team".
//!
//! - [`guidelines`]: the AI guidelines are the Mercenary Judge's orders, but Herald refuses the
//!   orders that break a guideline stated as a hard limit (§6.2.3, §6.3.1);
//! - [`abilities`]: Town Defenders heal at home (§6.1.2); a theme army goes "At War" when a Town
//!   Defender is killed, and heals once (§6.2.2);
//! - [`spawn`]: raiders spawn on a d20 at each movement update (§6.3.2);
//! - [`edit`]: the Mercenary commander's one after-lock edit a turn (§6.3.2).
//!
//! Raiders cannot heal, and no mercenary counts days (§6.3.2, ch. 6); Raiders disband with a
//! `disband` order, which is their movement turn; they are Hellbent in battle (§6.3.2).

pub mod abilities;
pub mod edit;
pub mod guidelines;
pub mod spawn;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::{
    army::{Army, Team},
    campaign::command::Start,
    map::Square,
    setup::MercenaryFaction,
};

/// The pseudo-player who controls every mercenary army: the Mercenary Judge (ch. 6). Orders a
/// judge posts for mercenaries are posted under this name.
pub const MERCENARY_JUDGE: &str = "Mercenary Judge";

/// A mercenary army entering the round (seed 003 §2.5.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MercenaryEntry {
    /// Its faction.
    pub faction: MercenaryFaction,
    /// The army; its team is `mercenary`.
    pub army: Army,
    /// Where it starts: a Town Defender in its town (its home, §6.1), the others where the
    /// Mercenary Judge puts them.
    pub start: Start,
    /// The theme army whose territory is the whole ocean (§6.2).
    #[serde(default)]
    pub ocean: bool,
}

/// What the round remembers of a mercenary army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MercenaryState {
    /// Its faction.
    pub faction: MercenaryFaction,
    /// A Town Defender's home town (§6.1).
    pub home: Option<Square>,
    /// The ocean theme army (§6.2).
    pub ocean: bool,
    /// Teams a theme army is At War with (§6.2.2).
    pub at_war: Vec<Team>,
    /// Whether it has had its one At War healing (§6.2.2).
    pub war_healed: bool,
}

/// A mercenary army joined the round (event `coalition.MercenaryEnlisted`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MercenaryEnlisted {
    /// The army (placed by the `coalition.ArmyPlaced` before it).
    pub army: String,
    /// Its faction.
    pub faction: MercenaryFaction,
    /// A Town Defender's home town.
    pub home: Option<Square>,
    /// The ocean theme army.
    pub ocean: bool,
}

/// A raider disbanded and left the map (event `coalition.RaiderDisbanded`, §6.3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RaiderDisbanded {
    /// The army.
    pub army: String,
    /// Where it was.
    pub square: Square,
}
