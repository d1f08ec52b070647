//! What admins, judges and players ask of a campaign round.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::{
    army::{Army, TroopLine},
    battle::SideId,
    map::{Map, Square},
    orders::Order,
    setup::Player,
};

/// Where an army starts the round (seed 003 §2.5.2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Start {
    /// By a base (or portal) of its own: the judge drops it on the nearest free square.
    Base {
        /// The base's square.
        base: Square,
    },
    /// On a square the judge chose.
    Square {
        /// The square.
        square: Square,
    },
}

/// An army entering the round, with who controls it and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyEntry {
    /// The army.
    pub army: Army,
    /// Players allowed to order it (seed 003 §5.2.1); empty means the player of the army's name.
    #[serde(default)]
    pub controllers: Vec<String>,
    /// Where it starts.
    pub start: Start,
}

/// Options of a round; every field has a documented default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct CampaignOptions {
    /// Hours after adjudication that a battle's strategies are due.
    pub battle_deadline_hours: u32,
    /// Check army counts per rank per side (seed 003 §2.5.2.1); off for small test rounds.
    pub enforce_army_counts: bool,
    /// Check the full site set (5 portals, 7 bases, 3 towns, seed 003 §2.5.1); off for small maps.
    pub enforce_site_counts: bool,
}

impl Default for CampaignOptions {
    fn default() -> Self {
        Self { battle_deadline_hours: 72, enforce_army_counts: true, enforce_site_counts: true }
    }
}

/// One army's part in a resolved battle, as the battle stream decided it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BattleSideResult {
    /// The army.
    pub army: String,
    /// The side it fought on.
    pub side: SideId,
    /// Troops lost per troop line.
    pub losses: Vec<u32>,
    /// Killed under seed 003 §4.3.1.
    pub killed: bool,
}

/// A resolved battle's result, read from its stream by the service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BattleResult {
    /// The battle stream.
    pub battle: String,
    /// The winning side, if any.
    pub winner: Option<SideId>,
    /// Each army's part.
    pub sides: Vec<BattleSideResult>,
}

/// A command to a campaign stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CampaignCommand {
    /// Set up a round (admin or judge, seed 003 §2.5).
    CreateCampaign {
        /// The round's name.
        name: String,
        /// The map with its sites.
        map: Map,
        /// The players.
        players: Vec<Player>,
        /// The armies and where they start.
        armies: Vec<ArmyEntry>,
        /// Options.
        #[serde(default)]
        options: CampaignOptions,
        /// `sha256(root seed)`, filled in by the service.
        seed_commitment: String,
    },
    /// Change who controls an army (seed 003 §5.2; judge).
    SetControllers {
        /// The army.
        army: String,
        /// Its legal controllers.
        controllers: Vec<String>,
    },
    /// Open a turn with its movement deadline (seed 003 §3.1; judge).
    OpenTurn {
        /// Orders must be posted by this time.
        deadline: DateTime<Utc>,
    },
    /// Post orders, structured or in the seed's text format (seed 003 §3.2.2.5; player or judge).
    PostOrders {
        /// Orders as text, one per line.
        #[serde(default)]
        text: Option<String>,
        /// Orders as data.
        #[serde(default)]
        orders: Vec<ArmyOrder>,
        /// Sent privately to the judge: hidden from the other team until the lock (§3.1).
        #[serde(default)]
        private: bool,
        /// Post for this player (judges re-posting a PM); players post for themselves.
        #[serde(default)]
        on_behalf_of: Option<String>,
    },
    /// Lock the turn (judge, seed 003 §3.1).
    LockTurn,
    /// Adjudicate the locked turn: battle results, movement, days, battles (judge, seed 003 §3.1).
    AdjudicateTurn {
        /// Results of the battles announced last turn, filled in by the service.
        #[serde(default)]
        battle_results: Vec<BattleResult>,
    },
    /// A new troop makeup after 2 days in a base the army heals at (seed 003 §2.3.2; its
    /// controller or a judge).
    ChangeTroops {
        /// The army.
        army: String,
        /// The new troop lines (at full strength).
        troops: Vec<TroopLine>,
        /// A new legend, if it changes.
        #[serde(default)]
        legend: Option<String>,
    },
    /// A judge's ruling that moves an army, recorded with its reason (seed 003 §3.3.3).
    RuleOnArmy {
        /// The army.
        army: String,
        /// Where it goes.
        square: Square,
        /// Why.
        reason: String,
    },
    /// A judge rolls dice the rules leave to the judge (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
}

/// An order for one army, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyOrder {
    /// The army.
    pub army: String,
    /// The order.
    pub order: Order,
}
