//! Captured armies (seed 003 §4.5): taken to the captor's nearest open base, partially converted
//! for two days, liberated if they lose, fully converted (and healed in a base or town) after.
//!
//! "If a capture is successful, the captured army becomes “partially converted” and is
//! immediately controlled by the capturing side. It is teleported to the nearest unoccupied
//! friendly base, or nearest unoccupied town if there is no open base, or stays put if there is
//! no town. If it stays put, the winning army is then bumped out of the square."
//!
//! Readings: "nearest" counts orthogonal steps from the battle square, ties going to the square
//! first by row then column; a destroyed base is no base; the captured army is controlled by the
//! capturing army's controllers until the side changes that (§5.2); the capture turn itself counts
//! no day — the two days are the next two turns it spends unattacked or winning there (as §1.5
//! counts days); the healing of a full conversion raises every troop line to full strength.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::state::CampaignState;
use crate::coalition::{
    army::{Army, Team},
    days::{site_team, LineHealed},
    map::{Faction, SiteKind, Square},
};

/// Days a partially converted army counts before it is fully converted (seed 003 §4.5).
pub const CONVERSION_DAYS: u32 = 2;

/// Where a captured army went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureDestination {
    /// The nearest unoccupied friendly base (or portal).
    Base,
    /// No base was open: the nearest unoccupied town.
    Town,
    /// Neither: it stays on the battle square and the winner is bumped out.
    Stays,
}

/// A partially converted army (seed 003 §4.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Conversion {
    /// Where it must count its days without moving.
    pub square: Square,
    /// Days counted so far.
    pub days: u32,
    /// The turn it was captured (that turn counts no day).
    pub captured_turn: u32,
    /// The team it was captured from, and returns to if liberated.
    pub from_team: Team,
    /// Its colors before the capture.
    pub from_colors: Vec<Faction>,
    /// Its controllers before the capture.
    pub from_controllers: Vec<String>,
}

/// An army captured (event `coalition.ArmyCaptured`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyCaptured {
    /// The captured army.
    pub army: String,
    /// The battle.
    pub battle: String,
    /// The army that captured it.
    pub captor: String,
    /// The team it now fights for.
    pub team: Team,
    /// Its colors from now on (seed 003 §4.5).
    pub colors: Vec<Faction>,
    /// Its controllers from now on: the captor's.
    pub controllers: Vec<String>,
    /// The battle square.
    pub from: Square,
    /// Where it was taken.
    pub to: Square,
    /// Which kind of place that is.
    pub destination: CaptureDestination,
    /// What it was before, for a liberation.
    pub conversion: Conversion,
}

/// A partially converted army counted a day (event `coalition.ConversionDayCounted`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ConversionDayCounted {
    /// The army.
    pub army: String,
    /// Where.
    pub square: Square,
    /// Days counted.
    pub days: u32,
}

/// A partially converted army counted its two days (event `coalition.ArmyFullyConverted`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyFullyConverted {
    /// The army.
    pub army: String,
    /// Where it counted them.
    pub square: Square,
    /// Lines healed (counted in a base or town).
    pub healed: Vec<LineHealed>,
}

/// A partially converted army lost a battle and returns to its owners (event
/// `coalition.ArmyLiberated`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyLiberated {
    /// The army.
    pub army: String,
    /// The battle it lost.
    pub battle: String,
    /// The team it returns to.
    pub team: Team,
    /// Its colors again.
    pub colors: Vec<Faction>,
    /// Its controllers again.
    pub controllers: Vec<String>,
}

/// The colors of `army` once captured by `captor` (seed 003 §4.5): a Coalition army recaptured by
/// the Coalition regains its old colors; any other army taken by the Coalition takes its captor's
/// first color and no secondaries; an army taken by Phyrexia keeps its colors (portals heal every
/// Phyrexian army).
pub fn captured_colors(army: &Army, captor: &Army, original: Option<(Team, &[Faction])>) -> Vec<Faction> {
    match (captor.team, original) {
        (Team::Coalition, Some((Team::Coalition, colors))) => colors.to_vec(),
        (Team::Coalition, _) => captor.colors.first().copied().into_iter().collect(),
        _ => army.colors.clone(),
    }
}

/// Where a captured army goes from `from`: the nearest unoccupied standing base or portal of
/// `team`, else the nearest unoccupied town, else it stays (seed 003 §4.5).
pub fn destination(
    state: &CampaignState,
    team: Team,
    from: Square,
    occupied: &BTreeSet<Square>,
) -> (Square, CaptureDestination) {
    let nearest = |wanted: &dyn Fn(SiteKind) -> bool| {
        state
            .map
            .sites
            .values()
            .filter(|site| !site.destroyed && wanted(site.kind) && !occupied.contains(&site.square))
            .map(|site| (site.square.distance(from), site.square))
            .min()
            .map(|(_, square)| square)
    };
    if let Some(base) = nearest(&|kind| site_team(kind) == Some(team)) {
        return (base, CaptureDestination::Base);
    }
    if let Some(town) = nearest(&|kind| kind == SiteKind::Town) {
        return (town, CaptureDestination::Town);
    }
    (from, CaptureDestination::Stays)
}

/// Every troop line raised to full strength: the healing of a full conversion in a base or town.
pub fn full_heal(army: &Army) -> Vec<LineHealed> {
    army.troops
        .iter()
        .enumerate()
        .filter(|(_, line)| line.troops < line.full)
        .map(|(line, troops)| LineHealed {
            line,
            creature: troops.creature.clone(),
            from: troops.troops,
            to: troops.full,
        })
        .collect()
}

/// The conversion days of this adjudication (seed 003 §4.5): every army captured before it that
/// was not attacked, or won, counts a day; the second day converts it fully, healing it when it
/// counted them in a base or portal of its new team or in a town. `fights` are the battles applied
/// this adjudication; `engaged` the armies in a battle still undecided.
pub fn conversion_days(
    working: &CampaignState,
    fights: &super::results::Fights,
    engaged: &BTreeSet<String>,
) -> Vec<super::event::CampaignEvent> {
    use super::event::CampaignEvent;
    use crate::coalition::days::Fight;
    let mut events = Vec::new();
    for (name, conversion) in working.conversions.iter().filter(|(_, c)| c.captured_turn < working.turn) {
        let Some(army) = working.armies.get(name) else { continue };
        let fight = fights.get(name).map(|(fight, _)| *fight);
        let counts = match fight {
            Some(Fight::Won) => true,
            Some(_) => false,
            None => !engaged.contains(name),
        };
        if !counts {
            continue;
        }
        let days = conversion.days + 1;
        events.push(CampaignEvent::ConversionDayCounted(ConversionDayCounted {
            army: name.clone(),
            square: army.square,
            days,
        }));
        if days >= CONVERSION_DAYS {
            let heals = working.map.site_at(army.square).is_some_and(|site| {
                !site.destroyed && (site.kind == SiteKind::Town || site_team(site.kind) == Some(army.army.team))
            });
            let healed = if heals { full_heal(&army.army) } else { Vec::new() };
            events.push(CampaignEvent::ArmyFullyConverted(ArmyFullyConverted {
                army: name.clone(),
                square: army.square,
                healed,
            }));
        }
    }
    events
}
