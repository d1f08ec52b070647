//! Which of a turn's orders count (seed 003 §3.3.6, §5.2.1, §5.4), and why the others do not, so
//! the movement report can list every ignored order with its reason (§3.1: the judge points out
//! "which moves were rejected as illegal and why").
//!
//! In order: an order posted after the movement deadline is ignored (§3.1; the deadline is
//! inclusive, so pass the last instant that is still in, e.g. 05:00:59 when the forum counts
//! minutes); an order from a player who does not control the army is ignored (§5.4.1); an army
//! whose orders come from two or more of its legal controllers ignores all of them and fails to
//! move (§3.3.6); otherwise only its controller's last order counts (§3.3.6), the last being the
//! greatest `(posted_at, post, line)` — so post ids must sort in posting order (UUIDv7 do).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::PostedOrder;

/// The proxy list at the movement lock (§5.2.1, §5.4.2: "what counts is what the proxy list says
/// at the time of the movement lock"): army → players who legally control it. An army not on the
/// list is controlled by the player of the same name; an army listed with nobody has no controller
/// (a demotion, §5.3.1) and every order for it is ignored.
pub type ControlList = BTreeMap<String, BTreeSet<String>>;

/// Whether `player` legally controls `army` under `list`.
pub fn controls(list: &ControlList, army: &str, player: &str) -> bool {
    match list.get(army) {
        Some(controllers) => controllers.contains(player),
        None => army == player,
    }
}

/// Why an order does not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IgnoreReason {
    /// Posted after the movement deadline (§3.1).
    AfterDeadline,
    /// The poster does not control the army (§5.4.1).
    NotController,
    /// Two or more legal controllers ordered the army, so it ignores all its orders (§3.3.6).
    SeveralControllers,
    /// A later order from the same controller replaced it (§3.3.6).
    Superseded,
}

impl IgnoreReason {
    /// The stable code, `coalition.orders.<reason>`.
    pub fn code(self) -> &'static str {
        match self {
            Self::AfterDeadline => "coalition.orders.after_deadline",
            Self::NotController => "coalition.orders.not_controller",
            Self::SeveralControllers => "coalition.orders.several_controllers",
            Self::Superseded => "coalition.orders.superseded",
        }
    }

    /// The rule it comes from.
    pub fn rule(self) -> &'static str {
        match self {
            Self::AfterDeadline => "seed 003 §3.1",
            Self::NotController => "seed 003 §5.4.1",
            Self::SeveralControllers | Self::Superseded => "seed 003 §3.3.6",
        }
    }
}

/// An order that does not count, with why, for the movement report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IgnoredOrder {
    /// The order as posted.
    pub order: PostedOrder,
    /// Why it is ignored.
    pub reason: IgnoreReason,
    /// The stable code of the reason.
    pub code: String,
    /// A sentence for players.
    pub message: String,
    /// The rule (`seed 003 §3.3.6`).
    pub rule: String,
}

/// The outcome of selecting a turn's orders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Selection {
    /// At most one order per army, in posting order `(posted_at, post, line)` — the order §3.3.1
    /// uses to break ties.
    pub effective: Vec<PostedOrder>,
    /// Every other order, with its reason, in posting order.
    pub ignored: Vec<IgnoredOrder>,
    /// Armies that fail to move this turn because several controllers ordered them (§3.3.6); a
    /// long move posted earlier does not continue for them either.
    pub stalled: BTreeSet<String>,
}

/// Select the orders that count among all the `orders` posted for a turn.
pub fn select_orders(orders: &[PostedOrder], controllers: &ControlList, deadline: DateTime<Utc>) -> Selection {
    let mut sorted: Vec<&PostedOrder> = orders.iter().collect();
    sorted.sort_by(|a, b| posting_key(a).cmp(&posting_key(b)));
    let mut selection = Selection::default();
    let mut by_army: BTreeMap<&str, Vec<&PostedOrder>> = BTreeMap::new();
    for order in sorted {
        if order.posted_at > deadline {
            let message = format!("posted at {} after the movement deadline {deadline}", order.posted_at);
            selection.ignore(order, IgnoreReason::AfterDeadline, message);
        } else if !controls(controllers, &order.army, &order.posted_by) {
            let message = format!("{} does not control {}", order.posted_by, order.army);
            selection.ignore(order, IgnoreReason::NotController, message);
        } else {
            by_army.entry(order.army.as_str()).or_default().push(order);
        }
    }
    for (army, orders) in by_army {
        let posters: BTreeSet<&str> = orders.iter().map(|order| order.posted_by.as_str()).collect();
        if posters.len() > 1 {
            let names = posters.into_iter().collect::<Vec<_>>().join(", ");
            for order in &orders {
                let message = format!("{army} was ordered by several of its controllers ({names}) and does not move");
                selection.ignore(order, IgnoreReason::SeveralControllers, message);
            }
            selection.stalled.insert(army.to_string());
        } else if let Some((last, earlier)) = orders.split_last() {
            for order in earlier {
                let message = format!("a later order from {} for {army} replaces this one", order.posted_by);
                selection.ignore(order, IgnoreReason::Superseded, message);
            }
            selection.effective.push((*last).clone());
        }
    }
    selection.effective.sort_by(|a, b| posting_key(a).cmp(&posting_key(b)));
    selection.ignored.sort_by(|a, b| posting_key(&a.order).cmp(&posting_key(&b.order)));
    selection
}

/// Posting order: timestamp, then post, then place in the post (§3.3.1, §3.3.6).
fn posting_key(order: &PostedOrder) -> (DateTime<Utc>, &str, u32) {
    (order.posted_at, order.post.as_str(), order.line)
}

impl Selection {
    fn ignore(&mut self, order: &PostedOrder, reason: IgnoreReason, message: String) {
        self.ignored.push(IgnoredOrder {
            order: order.clone(),
            reason,
            code: reason.code().to_string(),
            message,
            rule: reason.rule().to_string(),
        });
    }
}
