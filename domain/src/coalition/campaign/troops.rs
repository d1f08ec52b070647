//! Changing an army's troops after two days in a base it could heal at (seed 003 §2.3.2).

use super::{decide::living_army, event::CampaignEvent, state::CampaignState};
use crate::{
    coalition::{
        army::{Army, TroopLine},
        days::{destroyed_base_colors, may_change_troops},
        map::Faction,
        setup::{validate_army, validate_troop_change, ArmyContext},
    },
    Context, RuleError,
};

/// Decide a new makeup for `army`: its controller (or a judge) asks; the army must have counted
/// 2 days in a base or portal it heals at, not a town (§2.3.2, §2.3.1.3); the new makeup must be
/// legal under §2.1–2.2 and, when a base has been destroyed, add no creature needing its color.
/// The new lines are at full strength: the army has healed by then.
pub fn change_troops(
    state: &CampaignState,
    ctx: &Context,
    army: &str,
    troops: &[TroopLine],
    legend: Option<&String>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let current = living_army(state, army)?;
    let controls = ctx.actor.player.as_ref().is_some_and(|player| current.controllers.contains(player));
    if !controls {
        if !ctx.actor.is_judge() {
            return Err(RuleError::forbidden(
                "coalition.campaign.not_controller",
                format!("only {army}'s controller (or a judge) may change its troops"),
                "seed 003 §2.3.2",
            ));
        }
        super::judges::require(state, ctx, &[super::judges::Office::Movement], "change an army's troops")?;
    }
    let count = state.days.armies.get(army).and_then(|days| days.count.as_ref());
    may_change_troops(&current.army, count, &state.map)?;
    let troops: Vec<TroopLine> = troops.iter().map(|line| TroopLine { troops: line.full, ..line.clone() }).collect();
    let proposed = Army {
        troops: troops.clone(),
        legend: legend.cloned().or(current.army.legend.clone()),
        ..current.army.clone()
    };
    let destroyed: Vec<Faction> = destroyed_base_colors(&state.map).into_iter().collect();
    validate_troop_change(&current.army, &proposed, &destroyed)?;
    let others: Vec<Army> = state.armies.values().filter(|a| a.army.name != army).map(|a| a.army.clone()).collect();
    let context = ArmyContext { other_armies: &others, destroyed_bases: &destroyed, previous: Some(&current.army) };
    validate_army(&proposed, &context)?;
    Ok(vec![CampaignEvent::TroopsChanged { army: army.to_string(), troops, legend: proposed.legend }])
}
