//! What mercenaries can do that armies of the teams cannot (seed 003 §6.1.2, §6.2.2).
//!
//! - Town Defenders heal "500 soldiers for every turn it spends in its home town. These 500 are
//!   added to the lowest rank, and only if that rank is filled do they go up to the next rank"
//!   (§6.1.2). Reading: a turn spent there is a turn it began and ended in its town without losing
//!   a battle there; "rank" is the slot, smallest creatures first.
//! - "If one team scores a kill against a Town Defender Army, a random theme army (not the ocean
//!   theme army) will become 'At War' with the other team", and "when a theme army first declares
//!   war on a team, it immediately heals 25% of each rank. After that it will not heal again"
//!   (§6.2.2). Readings: a kill is any kill in battle (§4.3.1 or §4.3.3) by an army of a team; the
//!   random theme army is drawn with one recorded die among the living non-ocean theme armies not
//!   already at war with that team; 25% of a rank is a quarter of each troop line's full strength,
//!   rounded down, up to full.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    coalition::{
        army::{Army, Team},
        campaign::state::CampaignState,
        days::LineHealed,
        map::Square,
        setup::MercenaryFaction,
    },
    dice::{DiceTape, Draw},
    RuleError,
};

/// Soldiers a Town Defender heals a turn at home (seed 003 §6.1.2).
pub const TOWN_DEFENDER_HEAL: u32 = 500;

/// A Town Defender healed at home (event `coalition.TownDefenderHealed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TownDefenderHealed {
    /// The army.
    pub army: String,
    /// Its home town.
    pub square: Square,
    /// The lines raised.
    pub lines: Vec<LineHealed>,
}

/// A theme army went At War with a team (event `coalition.ThemeArmyWentToWar`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ThemeArmyWentToWar {
    /// The theme army.
    pub army: String,
    /// The team it is At War with (the one that did not score the kill).
    pub against: Team,
    /// The Town Defender killed.
    pub town_defender: String,
    /// The die that picked it among the candidates.
    pub draw: Draw,
    /// The candidates, in the order the die counts them.
    pub candidates: Vec<String>,
    /// Its one healing, the first time it declares war.
    pub healed: Vec<LineHealed>,
}

/// 500 soldiers to the lowest rank first, then up (seed 003 §6.1.2).
pub fn town_defender_healing(army: &Army) -> Vec<LineHealed> {
    let mut order: Vec<usize> = (0..army.troops.len()).collect();
    order.sort_by_key(|index| (army.troops[*index].slot, *index));
    let mut left = TOWN_DEFENDER_HEAL;
    let mut healed = Vec::new();
    for index in order {
        let line = &army.troops[index];
        let add = left.min(line.full.saturating_sub(line.troops));
        if add > 0 {
            healed.push(LineHealed {
                line: index,
                creature: line.creature.clone(),
                from: line.troops,
                to: line.troops + add,
            });
            left -= add;
        }
    }
    healed.sort_by_key(|line| line.line);
    healed
}

/// A quarter of each line's full strength back, up to full (seed 003 §6.2.2).
pub fn war_healing(army: &Army) -> Vec<LineHealed> {
    army.troops
        .iter()
        .enumerate()
        .filter(|(_, line)| line.troops < line.full)
        .map(|(index, line)| LineHealed {
            line: index,
            creature: line.creature.clone(),
            from: line.troops,
            to: (line.troops + line.full / 4).min(line.full),
        })
        .collect()
}

/// When `killer` (a team) killed Town Defender `killed`, a random eligible theme army goes At War
/// with the other team (seed 003 §6.2.2); `None` when no theme army is eligible.
pub fn go_to_war(
    state: &CampaignState,
    killed: &str,
    killer: Team,
    tape: &mut DiceTape,
) -> Result<Option<ThemeArmyWentToWar>, RuleError> {
    let against = match killer {
        Team::Phyrexia => Team::Coalition,
        Team::Coalition => Team::Phyrexia,
        Team::Mercenary => return Ok(None),
    };
    let candidates: Vec<String> = state
        .mercenaries
        .iter()
        .filter(|(name, m)| {
            m.faction == MercenaryFaction::Theme
                && !m.ocean
                && !m.at_war.contains(&against)
                && state.armies.contains_key(*name)
        })
        .map(|(name, _)| name.clone())
        .collect();
    let count = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
    if count == 0 {
        return Ok(None);
    }
    let draw = tape.roll(count, format!("which theme army goes At War after {killed} was killed"))?;
    let Some(army) = usize::try_from(draw.value - 1).ok().and_then(|i| candidates.get(i)).cloned() else {
        return Ok(None);
    };
    let first_war = state.mercenaries.get(&army).is_some_and(|m| !m.war_healed);
    let healed = match state.armies.get(&army) {
        Some(theme) if first_war => war_healing(&theme.army),
        _ => Vec::new(),
    };
    Ok(Some(ThemeArmyWentToWar { army, against, town_defender: killed.to_string(), draw, candidates, healed }))
}

/// The Town Defenders that spent this turn in their home town heal (seed 003 §6.1.2): they began
/// and ended it there and did not lose a battle there.
pub fn heal_town_defenders(
    working: &CampaignState,
    starts: &std::collections::BTreeMap<String, Square>,
    fights: &crate::coalition::campaign::results::Fights,
) -> Vec<TownDefenderHealed> {
    working
        .mercenaries
        .iter()
        .filter(|(_, m)| m.faction == MercenaryFaction::TownDefender)
        .filter_map(|(name, m)| {
            let home = m.home?;
            let army = working.armies.get(name)?;
            let stayed = army.square == home && starts.get(name) == Some(&home);
            let lost = fights.get(name).is_some_and(|(fight, _)| *fight == crate::coalition::days::Fight::Lost);
            let lines = town_defender_healing(&army.army);
            (stayed && !lost && !lines.is_empty()).then(|| TownDefenderHealed {
                army: name.clone(),
                square: home,
                lines,
            })
        })
        .collect()
}
