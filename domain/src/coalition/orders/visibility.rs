//! Who may read an order before the movement lock (seed 003 §3.1).
//!
//! Orders posted in the movement thread are public the moment they are posted: the opposing team
//! reading them early and responding is part of the game. Orders sent privately to the movement
//! judge "will be treated exactly the same as moves posted in the thread directly, except that the
//! opposing team does not get a chance to see these moves early": the judge re-posts them after
//! the deadline. So a private order is hidden from every team but the ordered army's own until the
//! lock, and visible to all after it; judges see everything.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::PostedOrder;
use crate::coalition::army::Team;

/// Who is reading the movement thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", content = "team", rename_all = "snake_case")]
pub enum Viewer {
    /// A player of a team (or the mercenary judge, as [`Team::Mercenary`]).
    Team(Team),
    /// The movement or battle judge, who receives private orders.
    Judge,
}

/// Whether `viewer` may see `order`, given the team of the ordered army (`None` when the army is
/// unknown, so only the judge can tell whose it is) and whether the turn's movement is locked.
pub fn may_see(viewer: Viewer, order: &PostedOrder, army_team: Option<Team>, locked: bool) -> bool {
    match viewer {
        Viewer::Judge => true,
        Viewer::Team(_) if !order.private || locked => true,
        Viewer::Team(team) => army_team == Some(team),
    }
}

/// The orders `viewer` may see, in the given order; `team_of` tells each army's team.
pub fn visible_orders(
    viewer: Viewer,
    orders: &[PostedOrder],
    team_of: impl Fn(&str) -> Option<Team>,
    locked: bool,
) -> Vec<&PostedOrder> {
    orders.iter().filter(|order| may_see(viewer, order, team_of(&order.army), locked)).collect()
}
