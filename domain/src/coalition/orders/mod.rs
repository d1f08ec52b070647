//! Movement orders (seed 003 §3.2): the order model, its text format (§3.2.2.5) and which of an
//! army's orders counts (§3.3.6).
//!
//! - [`text`] reads a movement post into orders and [`mod@format`] writes them back;
//! - [`validate`] checks an order against the map as it is when posted (§3.2.2.2);
//! - [`select`] picks, among a turn's orders, the one that counts for each army (§3.3.6, ch. 5);
//! - [`visibility`] hides private orders from the other team until the lock (§3.1).
//!
//! All of it is pure: timestamps, the map and the proxy list come in as arguments.

mod cursor;
pub mod format;
pub mod select;
pub mod text;
pub mod validate;
pub mod visibility;

pub use format::{format_body, format_order};
pub use select::{select_orders, ControlList, IgnoreReason, IgnoredOrder, Selection};
pub use text::{parse_line, parse_post, parse_post_orders, OrderTextError, ParsedOrder, Post};
pub use validate::{validate_order, Board, OrderingArmy, Placement};
pub use visibility::{may_see, Viewer};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::map::Square;

/// What a destination square is expected to hold when the order is posted (seed 003 §3.2.2.2,
/// §3.2.5.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", content = "army", rename_all = "snake_case")]
pub enum Annotation {
    /// `engage X`: the square holds the enemy army X.
    Engage(String),
    /// `replace X`: the square holds the friendly army X, expected to leave.
    Replace(String),
    /// `Joint Engage` (seed 003 §3.2.5).
    JointEngage,
}

/// One turn's worth of a move: at most 3 orthogonal steps (seed 003 §3.2.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Leg {
    /// Where the leg starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// The exact squares, `from` first and `to` last, when given (seed 003 §3.2.2.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<Square>>,
    /// `engage`/`replace`/`Joint Engage`, checked against the map as it was when posted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotation: Option<Annotation>,
}

/// An army's action for the turn (seed 003 §3.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Order {
    /// Move, one leg per turn; more legs make a long move (seed 003 §3.2.2.3).
    Move {
        /// The legs, in order.
        legs: Vec<Leg>,
    },
    /// Stay put (seed 003 §3.2.1: "you may post ordering your army to not move").
    Hold,
    /// Intercept an army expected to move over this one (seed 003 §3.2.3).
    Intercept {
        /// The army to intercept.
        target: String,
    },
    /// A Raider army leaves the map, taking its movement turn to disband (seed 003 §6.3.2).
    Disband,
    /// Transfer troops to an adjacent friendly army (seed 003 §3.2.4).
    Transfer {
        /// The receiving army.
        to: String,
        /// The receiving army's square.
        at: Square,
        /// Troops by creature (sent privately to the judge in the seed; here with the order).
        #[serde(default)]
        troops: Vec<TransferLine>,
    },
}

/// Troops of one creature type to transfer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TransferLine {
    /// The creature.
    pub creature: String,
    /// How many.
    pub troops: u32,
}

/// An order as posted: who, when, where in the post, and for which army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PostedOrder {
    /// The army ordered.
    pub army: String,
    /// The order.
    pub order: Order,
    /// The player who posted it.
    pub posted_by: String,
    /// When (the post's timestamp, seed 003 §3.3.1).
    pub posted_at: DateTime<Utc>,
    /// The post it was part of.
    pub post: String,
    /// Its place within the post, from 0 ("the first one written takes priority", §3.3.1).
    pub line: u32,
    /// Sent privately to the judge: hidden from the other team until the lock (seed 003 §3.1).
    #[serde(default)]
    pub private: bool,
    /// The poster did not control the army when posting: the order counts only if they control
    /// it at the movement lock, and earns a reprimand if they do not (seed 003 §5.4.1–5.4.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uncontrolled: bool,
}
