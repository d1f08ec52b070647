//! What the Battle Judge settles in a battle besides the strategies and the dice: the second
//! armies of a 2v1 or 2v2 battle (seed 003 §4.4), the formulas and the weather (§4.1.2.5,
//! §4.3.3), the involvement shares (§4.4), and a sanction's troop losses with its deadline
//! extension (§5.4.1).

use chrono::Duration;

use super::{
    decide::{not_found, require_judge, require_not_ended, validate_army, validate_casualty_formula, SERVICE_RULES},
    joint::{Departure, PartnerArmy, Share},
    BattleEvent, BattleOptions, BattleState, SideId, Sides,
};
use crate::{coalition::army::ArmySpec, Context, RuleError};

/// The second armies of a 2v1 or 2v2 battle (seed 003 §4.4): at most one per side, of the
/// side's team, a different army, not empty (an empty army is killed by the campaign before the
/// battle opens, §4.3.1), and no two armies with one name.
pub fn validate_partners(armies: &Sides<ArmySpec>, partners: &[PartnerArmy]) -> Result<(), RuleError> {
    let mut names: Vec<&str> = vec![armies.a.name.trim(), armies.b.name.trim()];
    for side in SideId::BOTH {
        let on_side: Vec<&PartnerArmy> = partners.iter().filter(|p| p.side == side).collect();
        if on_side.len() > 1 {
            return Err(RuleError::new(
                "coalition.battle.too_many_armies",
                format!("side {side} has {} armies; a battle has at most 2 a side", on_side.len() + 1),
                "seed 003 §3.2.5.2, §4.4",
            ));
        }
        for partner in on_side {
            validate_army(side, &partner.army)?;
            if partner.army.team != armies.get(side).team {
                return Err(RuleError::new(
                    "coalition.battle.partner_team",
                    format!("{} is not of side {side}'s team", partner.army.name),
                    "seed 003 §3.2.5.2",
                ));
            }
            if names.contains(&partner.army.name.trim()) {
                return Err(RuleError::new(
                    "coalition.battle.same_army",
                    format!("{} is in the battle twice", partner.army.name),
                    "seed 003 §4.4",
                ));
            }
            names.push(partner.army.name.trim());
        }
    }
    let empty = SideId::BOTH
        .iter()
        .flat_map(|side| {
            std::iter::once(armies.get(*side)).chain(partners.iter().filter(|p| p.side == *side).map(|p| &p.army))
        })
        .find(|army| army.is_empty());
    if let (Some(army), false) = (empty, partners.is_empty()) {
        return Err(RuleError::new(
            "coalition.battle.joint_army_empty",
            format!("{} has no troops left: it is killed when engaged and cannot fight a joint battle", army.name),
            "seed 003 §4.3.1",
        ));
    }
    Ok(())
}

/// A departure names one of the side's two armies (seed 003 §4.4).
pub fn check_departure(state: &BattleState, side: SideId, departure: &Departure) -> Result<(), RuleError> {
    let armies = state.sides.get(side).armies();
    if armies.len() < 2 {
        return Err(RuleError::new(
            "coalition.battle.departure_without_partner",
            "only a side of two armies names which of them leaves the square after a win",
            "seed 003 §4.4",
        ));
    }
    if !armies.iter().any(|army| army.name == departure.army) {
        return Err(RuleError::new(
            "coalition.battle.departure_army",
            format!("{} does not fight on side {side}", departure.army),
            "seed 003 §4.4",
        ));
    }
    Ok(())
}

/// The judge replaces the formulas before any die is drawn (seed 003 §4.2.2, §4.3.3, §4.4: the
/// formulas are the judge's, and configurable per battle).
pub fn set_formulas(
    state: &BattleState,
    options: &BattleOptions,
    formula_salt: Option<&str>,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "set the battle's formulas")?;
    require_not_ended(state)?;
    if state.dice_drawn() {
        return Err(RuleError::new(
            "coalition.battle.formulas_after_first_roll",
            "the formulas are fixed once a die has been drawn",
            SERVICE_RULES,
        ));
    }
    validate_casualty_formula(&options.casualty_formula)?;
    if options.joint_formula.casualty_percent == 0 || options.kill_formula.damage_step == 0 {
        return Err(RuleError::new(
            "coalition.battle.formula_invalid",
            "the joint casualty percentage and the kill formula's damage step must be above 0",
            SERVICE_RULES,
        ));
    }
    // Committed before any die: the formulas are fixed once one is drawn (checked above).
    let formula_commitment = super::decide::formula_commitment(options, formula_salt)?;
    Ok(vec![BattleEvent::FormulasSet {
        options: options.clone(),
        formula_salt: formula_salt.map(str::to_ascii_lowercase),
        formula_commitment,
    }])
}

/// The judge posts the weather (seed 003 §4.1.2.5: "the weather conditions will be posted
/// alongside the battle").
pub fn set_weather(state: &BattleState, weather: &str, ctx: &Context) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "post the weather")?;
    require_not_ended(state)?;
    if weather.trim().is_empty() || weather.chars().count() > 500 {
        return Err(RuleError::new(
            "coalition.battle.weather_text",
            "the weather is 1 to 500 characters",
            "seed 003 §4.1.2.5",
        ));
    }
    Ok(vec![BattleEvent::WeatherSet { weather: weather.trim().to_string() }])
}

/// The judge shares a side's casualties between its two armies by involvement (seed 003 §4.4):
/// one share per army of the side, adding up to 100.
pub fn assign_involvement(
    state: &BattleState,
    side: SideId,
    shares: &[Share],
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "assign involvement")?;
    require_not_ended(state)?;
    let armies = state.sides.get(side).armies();
    let named = |army: &ArmySpec| shares.iter().filter(|share| share.army == army.name).count() == 1;
    if armies.len() < 2 || shares.len() != armies.len() || !armies.iter().all(|army| named(army)) {
        return Err(RuleError::new(
            "coalition.battle.involvement_armies",
            format!("give one share to each of side {side}'s two armies"),
            "seed 003 §4.4",
        ));
    }
    if shares.iter().map(|share| share.percent).sum::<u32>() != 100 {
        return Err(RuleError::new(
            "coalition.battle.involvement_total",
            "the shares must add up to 100",
            "seed 003 §4.4",
        ));
    }
    Ok(vec![BattleEvent::InvolvementAssigned { side, shares: shares.to_vec() }])
}

/// A sanction's troop losses reach an army in battle: "the real controller must fight the battle
/// with the reduced troop numbers. If the punishment is handed down in the last 24 hours before
/// the deadline, that player will get a 24 hour extension to rewrite his strat" (seed 003 §5.4.1).
pub fn apply_sanction(
    state: &BattleState,
    army: &str,
    losses: &[u32],
    extension: bool,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<BattleEvent>, RuleError> {
    require_judge(&ctx.actor, "apply a sanction")?;
    require_not_ended(state)?;
    let (side, _) = state.side_of(army).ok_or_else(not_found)?;
    let spec = state.army_named(army).ok_or_else(not_found)?;
    if losses.len() != spec.slots.len() {
        return Err(RuleError::new(
            "coalition.battle.losses_slot_count",
            format!("{army} has {} slots but {} losses were given", spec.slots.len(), losses.len()),
            SERVICE_RULES,
        ));
    }
    let deadline = state.deadline_of(side);
    let extended_to = deadline
        .filter(|deadline| extension && ctx.recorded_at >= *deadline - Duration::hours(24))
        .map(|deadline| deadline + Duration::hours(24));
    let losses: Vec<u32> = losses.iter().zip(&spec.slots).map(|(loss, slot)| (*loss).min(slot.troops)).collect();
    Ok(vec![BattleEvent::SanctionApplied {
        army: army.to_string(),
        side,
        losses,
        extended_to,
        reason: reason.to_string(),
    }])
}
