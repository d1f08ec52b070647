//! Sanctions, reprimands, appointments and overrules (seed 003 §1.3, §5.4.1, §3.3.3).
//!
//! §5.4.1: "If a player posts an action or sends in a battle strategy for an army he does not
//! control, that player will be reprimanded, and at the judges discretion that army may suffer
//! troop losses. This will normally be a severity factor times a die roll times (100, 50, 25, 10)
//! ... If the affected army is in battle, the real controller must fight the battle with the
//! reduced troop numbers. If the punishment is handed down in the last 24 hours before the
//! deadline, that player will get a 24 hour extension to rewrite his strat."
//!
//! Readings: the severity factor is 0 to [`MAX_SANCTION_SEVERITY`]; the die is a d6 on the
//! campaign's tape; (100, 50, 25, 10) are the troops per point
//! for the four slots, the 5000-troop slot first, taken from the slot's lines in order and never
//! more than they hold; an army in a battle loses them there too (the service relays the losses
//! to the battle stream, which extends that side's deadline when it is within 24 hours); a
//! sanction without an army or severity is a reprimand alone. Reprimands for orders are automatic
//! at the adjudication: an order that did not count because its poster did not control the army at
//! the lock, and did not when posting, reprimands the poster (§5.4.2 asks judges not to punish a
//! player who lost control after posting).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    judges::{self, Appointment, CallOverruled, JudgeAppointed, JudgeCall, Office, Undo},
    state::CampaignState,
};
use crate::{coalition::army::Army, dice::Draw, Context, RuleError};

/// Troops per point of the severity × die product, by slot (seed 003 §5.4.1).
pub const SANCTION_TROOPS: [u32; 4] = [100, 50, 25, 10];

/// Sides of the sanction die (Herald's reading of "a die roll").
pub const SANCTION_DIE: u32 = 6;

/// The largest severity factor (Herald's reading of §5.4.1's "severity factor times a die roll
/// times (100, 50, 25, 10)"): the largest whose worst die takes no more than a full 5000-troop
/// slot from any slot (8 × 6 × 100 = 4800 ≤ 5000, 8 × 6 × 50 = 2400 ≤ 2500, …). A larger
/// punishment is one of the "alternate punishments in unusual circumstances", a ruling rather
/// than a sanction.
pub const MAX_SANCTION_SEVERITY: u32 = 8;

/// A sanction (event `coalition.SanctionImposed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SanctionImposed {
    /// The judge's call.
    pub call: JudgeCall,
    /// The player reprimanded.
    pub player: String,
    /// The army that loses troops, if any.
    pub army: Option<String>,
    /// The severity factor.
    pub severity: u32,
    /// The die.
    pub draw: Option<Draw>,
    /// Troops lost per line of the army.
    pub losses: Vec<u32>,
    /// The battle the army is in, which the losses reach too.
    pub battle: Option<String>,
    /// Why.
    pub reason: String,
    /// The tape's next word after the die.
    pub next_word: u64,
}

/// A reprimand recorded (event `coalition.PlayerReprimanded`, seed 003 §5.4.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerReprimanded {
    /// The player.
    pub player: String,
    /// The army they acted for.
    pub army: String,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: String,
}

/// Troops `army` loses to a sanction of `severity` with die `value`, per line (seed 003 §5.4.1).
pub fn sanction_losses(army: &Army, severity: u32, value: u32) -> Vec<u32> {
    let mut left: Vec<u32> =
        SANCTION_TROOPS.iter().map(|per| per.saturating_mul(severity).saturating_mul(value)).collect();
    army.troops
        .iter()
        .map(|line| {
            let Some(owed) = left.get_mut(usize::from(line.slot)) else { return 0 };
            let take = (*owed).min(line.troops);
            *owed -= take;
            take
        })
        .collect()
}

/// Decide a sanction (the battle judge, seed 003 §1.3, §5.4.1).
pub fn impose(
    state: &CampaignState,
    ctx: &mut Context,
    player: &str,
    army: Option<&str>,
    severity: u32,
    reason: &str,
) -> Result<SanctionImposed, RuleError> {
    let call = judges::require(state, ctx, &[], "sanction a player")?;
    if player.trim().is_empty() || reason.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.campaign.sanction_malformed",
            "a sanction names the player and the reason",
            "seed 003 §5.4.1",
        ));
    }
    if severity > MAX_SANCTION_SEVERITY {
        return Err(RuleError::new(
            "coalition.campaign.severity_out_of_range",
            format!(
                "a sanction's severity factor is 0 (a reprimand alone) to {MAX_SANCTION_SEVERITY}, not {severity}: \
                 losses are severity × d6 × (100, 50, 25, 10) troops"
            ),
            "seed 003 §5.4.1",
        ));
    }
    let mut sanction = SanctionImposed {
        call,
        player: player.to_string(),
        army: army.map(str::to_string),
        severity,
        draw: None,
        losses: Vec::new(),
        battle: None,
        reason: reason.to_string(),
        next_word: ctx.dice.next_word(),
    };
    if let Some(name) = army {
        let target = super::decide::living_army(state, name)?;
        if severity > 0 {
            let draw = ctx.dice.roll(SANCTION_DIE, format!("sanction on {name}: severity {severity} × d6"))?;
            sanction.losses = sanction_losses(&target.army, severity, draw.value);
            sanction.draw = Some(draw);
            sanction.battle =
                target.battle.clone().filter(|battle| state.battles.get(battle).is_some_and(|b| !b.applied));
            sanction.next_word = ctx.dice.next_word();
        }
    }
    Ok(sanction)
}

/// Appoint a judge (an admin or the head Battle Judge; while no judge is appointed, any judge).
pub fn appoint(state: &CampaignState, ctx: &Context, appointment: &Appointment) -> Result<JudgeAppointed, RuleError> {
    let by = judges::require(state, ctx, &[], "appoint judges")?;
    if by.standing() < 3 {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_head_judge",
            "only the head Battle Judge (or an admin) appoints judges",
            "seed 003 §1.3",
        ));
    }
    if appointment.judge.trim().is_empty() {
        return Err(RuleError::new("coalition.campaign.judge_unnamed", "name the judge's actor id", "seed 003 §1.3"));
    }
    if state.judges.appointments.contains(appointment) {
        return Err(RuleError::new(
            "coalition.campaign.judge_already_appointed",
            "that judge already holds that seat",
            "seed 003 §1.3",
        ));
    }
    Ok(JudgeAppointed { appointment: appointment.clone(), by: ctx.actor.id.clone() })
}

/// Overrule a call (seed 003 §1.3, §3.3.3): a new event that undoes the call's effect.
pub fn overrule(state: &CampaignState, ctx: &Context, call: u32, reason: &str) -> Result<CallOverruled, RuleError> {
    let by = judges::require(state, ctx, &[Office::Battle], "overrule a call")?;
    let record = state.judges.calls.get(&call).ok_or_else(|| {
        RuleError::new("coalition.campaign.unknown_call", format!("there is no call {call}"), "seed 003 §1.3")
    })?;
    if record.overruled {
        return Err(RuleError::new(
            "coalition.campaign.already_overruled",
            format!("call {call} was overruled already"),
            "seed 003 §1.3",
        ));
    }
    if !judges::may_overrule(&by, &record.call) {
        return Err(RuleError::forbidden(
            "coalition.campaign.may_not_overrule",
            "only the head Battle Judge overrules a Battle Judge's call; the Battle Judge overrules the Movement and Mercenary Judges'",
            "seed 003 §1.3, §3.3.3",
        ));
    }
    if reason.trim().is_empty() {
        return Err(RuleError::new(
            "coalition.campaign.ruling_reason_required",
            "an overrule needs a reason",
            "seed 003 §1.3",
        ));
    }
    let alive = |army: &str| state.armies.contains_key(army);
    let undo = match &record.undo {
        Undo::MoveBack { army, .. } | Undo::RestoreTroops { army, .. } if !alive(army) => Undo::Nothing,
        undo => undo.clone(),
    };
    Ok(CallOverruled { call, by, reason: reason.to_string(), undo })
}
