//! What happened in a campaign round. Events carry their outcomes (positions, dice, days,
//! troops) so projections never recompute the rules.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::command::CampaignOptions;
use crate::{
    coalition::{
        army::{Army, TroopLine},
        days::DaysEvent,
        map::{Map, Square},
        movement::{Attack, EngagedSide, LongMove, MoveReport, Position},
        orders::{select::IgnoredOrder, PostedOrder, TransferLine},
        setup::Player,
    },
    dice::Draw,
    EventType,
};

/// Troops an army lost in a battle, per troop line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyLosses {
    /// The army.
    pub army: String,
    /// Troops lost per line, in `Army::troops` order.
    pub losses: Vec<u32>,
}

/// A campaign event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum CampaignEvent {
    /// The round was set up (seed 003 §2.5).
    #[serde(rename = "coalition.CampaignCreated")]
    CampaignCreated {
        /// Its name.
        name: String,
        /// The map and its sites.
        map: Map,
        /// The players.
        players: Vec<Player>,
        /// Options.
        options: CampaignOptions,
        /// `sha256(root seed)`, hex.
        seed_commitment: String,
    },
    /// An army was put on the map (seed 003 §2.5.2.3).
    #[serde(rename = "coalition.ArmyPlaced")]
    ArmyPlaced {
        /// The army.
        army: Army,
        /// Where.
        square: Square,
        /// Its legal controllers.
        controllers: Vec<String>,
    },
    /// An army's controllers changed (seed 003 §5.2).
    #[serde(rename = "coalition.ControllersSet")]
    ControllersSet {
        /// The army.
        army: String,
        /// Its legal controllers.
        controllers: Vec<String>,
    },
    /// A turn opened (seed 003 §3.1).
    #[serde(rename = "coalition.TurnOpened")]
    TurnOpened {
        /// Turn number, from 1.
        turn: u32,
        /// The movement deadline.
        deadline: DateTime<Utc>,
    },
    /// A player (or a judge re-posting a PM) posted orders.
    #[serde(rename = "coalition.OrdersPosted")]
    OrdersPosted {
        /// The turn.
        turn: u32,
        /// The post id (sorts in posting order).
        post: String,
        /// The orders, validated against the map as posted (seed 003 §3.2.2.2).
        orders: Vec<PostedOrder>,
    },
    /// The turn was locked (seed 003 §3.1).
    #[serde(rename = "coalition.TurnLocked")]
    TurnLocked {
        /// The turn.
        turn: u32,
    },
    /// A battle's result was applied to its armies (seed 003 §4.2.5).
    #[serde(rename = "coalition.BattleResultApplied")]
    BattleResultApplied {
        /// The battle stream.
        battle: String,
        /// The winning armies.
        winners: Vec<String>,
        /// Troops lost per army, per troop line.
        losses: Vec<ArmyLosses>,
    },
    /// An army was killed (seed 003 §4.3.1) and removed from the map.
    #[serde(rename = "coalition.ArmyKilledInCampaign")]
    ArmyKilled {
        /// The army.
        army: String,
        /// The battle.
        battle: String,
        /// The rule.
        rule: String,
    },
    /// A battle's loser was moved next to the battle (seed 003 §4.2.5).
    #[serde(rename = "coalition.ArmyBumped")]
    ArmyBumped {
        /// The army.
        army: String,
        /// The battle square.
        from: Square,
        /// Where it went.
        to: Square,
        /// All 8 squares were occupied: pushed into one, to fight again next turn.
        pushed: bool,
        /// The die that chose the square.
        draw: Option<Draw>,
    },
    /// Movement was adjudicated (seed 003 §3.2–3.3).
    #[serde(rename = "coalition.MovementAdjudicated")]
    MovementAdjudicated {
        /// The turn.
        turn: u32,
        /// Orders that did not count, with why (seed 003 §3.3.6).
        ignored: Vec<IgnoredOrder>,
        /// Every army's move, partial move, rejection or stay, with the reason and rule.
        moves: Vec<MoveReport>,
        /// Every army's square after movement.
        positions: Vec<Position>,
        /// Long moves still under way.
        long_moves: Vec<LongMove>,
        /// Dice drawn for random routes and picks.
        draws: Vec<Draw>,
    },
    /// A battle was announced (seed 003 §3.1, §4.1.2.3).
    #[serde(rename = "coalition.BattleAnnounced")]
    BattleAnnounced {
        /// The battle stream (`battle-…`).
        battle: String,
        /// The turn.
        turn: u32,
        /// The square.
        square: Square,
        /// The armies per team.
        sides: Vec<EngagedSide>,
        /// Who attacks whom, or no attacker.
        attack: Attack,
        /// A joint engagement (seed 003 §3.2.5).
        joint: bool,
        /// Whether the service opens the battle stream (two armies); otherwise a judge settles it.
        automatic: bool,
    },
    /// The turn's adjudication is complete.
    #[serde(rename = "coalition.TurnAdjudicated")]
    TurnAdjudicated {
        /// The turn.
        turn: u32,
        /// The tape's next word after this turn's draws.
        next_word: u64,
    },
    /// An army's troops were changed (seed 003 §2.3.2).
    #[serde(rename = "coalition.TroopsChanged")]
    TroopsChanged {
        /// The army.
        army: String,
        /// Its new troop lines.
        troops: Vec<TroopLine>,
        /// Its legend.
        legend: Option<String>,
    },
    /// An army gave troops away in a transfer (seed 003 §2.3.3, §3.2.4.3.4): it loses them in
    /// this update, before the turn's battles are announced.
    #[serde(rename = "coalition.TroopsSent")]
    TroopsSent {
        /// The turn of the order.
        turn: u32,
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops sent, by creature.
        lines: Vec<TransferLine>,
        /// The troops on their way, one line per creature at the sender's size and colors.
        moving: Vec<TroopLine>,
        /// The sender's troop lines afterwards.
        troops: Vec<TroopLine>,
        /// When the receiver gets them.
        delivery: Delivery,
        /// The timing rule (seed 003 §3.2.4.3.1–3).
        rule: String,
    },
    /// An army received transferred troops (seed 003 §3.2.4.3).
    #[serde(rename = "coalition.TroopsReceived")]
    TroopsReceived {
        /// The receiving army.
        army: String,
        /// The sending army.
        from: String,
        /// The troops received, by creature.
        lines: Vec<TransferLine>,
        /// The receiver's troop lines afterwards.
        troops: Vec<TroopLine>,
        /// The battle at whose end they arrived, if they waited for one.
        battle: Option<String>,
        /// The timing rule.
        rule: String,
    },
    /// A transfer did nothing: no troops left either army (seed 003 §2.3.3, §3.2.4).
    #[serde(rename = "coalition.TransferFailed")]
    TransferFailed {
        /// The turn of the order.
        turn: u32,
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops the order named.
        lines: Vec<TransferLine>,
        /// The stable code, `coalition.campaign.transfer_…`.
        code: String,
        /// Why.
        reason: String,
        /// The rule.
        rule: String,
    },
    /// Transferred troops were killed on their way: the receiver lost its battle, or was killed
    /// (seed 003 §2.3.3, §3.2.4.3.3).
    #[serde(rename = "coalition.TransferredTroopsKilled")]
    TransferredTroopsKilled {
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops killed, by creature.
        lines: Vec<TransferLine>,
        /// The battle that decided it.
        battle: Option<String>,
        /// Why.
        reason: String,
        /// The rule.
        rule: String,
    },
    /// A judge moved an army by a ruling (seed 003 §3.3.3).
    #[serde(rename = "coalition.ArmyRuledOn")]
    ArmyRuledOn {
        /// The army.
        army: String,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The ruling.
        reason: String,
    },
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
    /// Days, healing, sieges and victory (seed 003 §1.5, §1.7, §2.3), under their own types
    /// (`coalition.DayCounted` …). Untagged, so the payload is the days event itself, tagged by
    /// its own type; it must stay the last variant.
    #[serde(untagged)]
    Days(DaysEvent),
}

/// When transferred troops reach the receiver (seed 003 §3.2.4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "when", rename_all = "snake_case")]
pub enum Delivery {
    /// In this update: received, or killed with a receiver that did not win its battle.
    ThisUpdate,
    /// When the result of the battle the receiver was attacked into this turn is applied,
    /// whatever the result (seed 003 §3.2.4.3.2).
    AfterBattle {
        /// The battle stream.
        battle: String,
    },
}

impl EventType for CampaignEvent {}
