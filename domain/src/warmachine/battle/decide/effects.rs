//! What judges apply and what follows attacks: conditions, pushes, slams and throws with falls
//! and the rule of least disturbance, and triggered effects in the seed's order.

use super::{
    damage::{after_damage, damage_dealt, emit},
    model, model_in_play, refuse, require_judge, require_player, SERVICE_RULES,
};
use crate::{
    dice::{DiceExpr, RollOptions},
    warmachine::{
        battle::{
            command::DisplacementKindSpec,
            event::{Moved, WarmachineEvent as E},
            state::{Condition, WarmachineState},
        },
        displacement::{displace as move_model, least_disturbance, Body, DisplacementKind, DisplacementSpec, Stop},
        model::{Mechanic, TriggerCondition},
        rolls::{fall_damage, slam_damage, Displacement, SlamSpec},
        table::{surface_height, Point},
    },
    Context, RuleError,
};

const TRIGGERS: &str = "seed 000 \"Triggers\"";

/// A judge sets or clears a condition.
pub fn set_condition(
    state: &WarmachineState,
    id: &str,
    condition: &Condition,
    active: bool,
    expires_at_start_of: Option<&str>,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<E>, RuleError> {
    require_judge(ctx, "set conditions")?;
    model(state, id)?;
    if reason.trim().is_empty() || reason.chars().count() > 2000 {
        return Err(refuse("reason_required", "say why (1 to 2000 characters)", SERVICE_RULES));
    }
    if let Some(player) = expires_at_start_of {
        if state.player(player).is_none() {
            return Err(refuse("unknown_player", format!("{player} is not a player"), SERVICE_RULES));
        }
    }
    match condition {
        Condition::Restricted { relative_to, .. } => {
            model(state, relative_to)?;
            if relative_to == id {
                return Err(refuse(
                    "restricted_to_self",
                    "a movement restriction is relative to another model",
                    "seed 000 \"Movement Restrictions\"",
                ));
            }
        }
        Condition::WeaponModifier { weapon, rng, pow } => {
            if let Some(name) = weapon {
                if !model(state, id)?.spec.profile.weapons.iter().any(|w| w.name == *name) {
                    return Err(refuse("unknown_weapon", format!("{id} has no weapon named {name}"), SERVICE_RULES));
                }
            }
            if !(rng.is_finite() && rng.abs() <= 100.0 && pow.abs() <= 100) {
                return Err(refuse(
                    "bad_modifier",
                    "a weapon modifier changes RNG by at most 100″ and POW by at most 100",
                    SERVICE_RULES,
                ));
            }
        }
        Condition::ContinuousEffect { name, .. } if name.trim().is_empty() || name.chars().count() > 100 => {
            return Err(refuse("bad_name", "a continuous effect needs a name of 1 to 100 characters", SERVICE_RULES));
        }
        _ => {}
    }
    Ok(vec![E::ConditionChanged {
        model: id.to_string(),
        condition: condition.clone(),
        active,
        expires_at_start_of: expires_at_start_of.map(str::to_string),
        reason: reason.to_string(),
    }])
}

/// A push, slam or throw as asked by a judge.
pub struct DisplaceRequest<'a> {
    /// The moved model.
    pub model: &'a str,
    /// Push, slam or throw.
    pub kind: DisplacementKindSpec,
    /// The point of origin.
    pub origin: Point,
    /// Inches.
    pub distance: f64,
    /// Damage POW.
    pub pow: Option<u8>,
    /// Collateral POW.
    pub collateral_pow: Option<u8>,
    /// Why.
    pub reason: &'a str,
}

/// The longest displacement accepted, in inches (a service limit: no table is this large).
pub const MAX_DISPLACEMENT: f64 = 100.0;

/// Push, slam or throw a model (seed 000 "Unintentional Movement" and what follows it).
pub fn displace(
    state: &WarmachineState,
    request: &DisplaceRequest<'_>,
    ctx: &mut Context,
) -> Result<Vec<E>, RuleError> {
    require_judge(ctx, "push, slam or throw models")?;
    let moved = model_in_play(state, request.model)?;
    if request.reason.trim().is_empty() {
        return Err(refuse("reason_required", "say which spell or attack causes this", SERVICE_RULES));
    }
    if !(request.distance.is_finite()
        && (0.0..=MAX_DISPLACEMENT).contains(&request.distance)
        && request.origin.is_finite())
    {
        return Err(refuse(
            "bad_distance",
            format!("a displacement needs a finite origin and 0 to {MAX_DISPLACEMENT} inches"),
            SERVICE_RULES,
        ));
    }
    let (kind, damage_kind) = match request.kind {
        DisplacementKindSpec::Push => (DisplacementKind::Push, None),
        DisplacementKindSpec::Slam => (DisplacementKind::Slam, Some(Displacement::Slammed)),
        DisplacementKindSpec::Throw => (DisplacementKind::Throw, Some(Displacement::Thrown)),
    };
    let pows = match (damage_kind, request.pow, request.collateral_pow) {
        (None, None, None) => None,
        (None, _, _) => {
            return Err(refuse("push_no_damage", "a push causes no damage roll: send no POW", "seed 000 \"Pushed\""))
        }
        (Some(_), Some(pow), Some(collateral)) => Some((pow, collateral)),
        (Some(displacement), _, _) => {
            return Err(refuse(
                "slam_pow_required",
                format!(
                    "a {} needs the POW of its damage roll and of collateral damage, set by the spell or attack",
                    displacement.name()
                ),
                kind.rule(),
            ))
        }
    };
    let bodies: Vec<Body> = state
        .models
        .values()
        .filter(|m| m.in_play())
        .map(|m| Body {
            id: m.spec.id.clone(),
            base: m.spec.profile.base,
            centre: m.position.centre(),
            elevation: m.position.elevation,
            movable: true,
        })
        .collect();
    let arm_of = |id: &str| state.model(id).map_or(0, |m| u32::from(m.spec.profile.stats.arm));
    let spec =
        DisplacementSpec { kind, model: request.model.to_string(), origin: request.origin, distance: request.distance };
    let outcome = move_model(&state.table, &bodies, &spec, &arm_of)?;

    // Rule of least disturbance, ties broken by a recorded die.
    let after: Vec<Body> = bodies
        .iter()
        .map(|b| if b.id == request.model { Body { centre: outcome.end, ..b.clone() } } else { b.clone() })
        .collect();
    let options = least_disturbance(&state.table, &after, request.model)?;
    let (choice, tie_break) = if options.len() > 1 {
        let sides = u32::try_from(options.len()).unwrap_or(u32::MAX);
        let roll = DiceExpr::parse(&format!("1d{sides}"))?.roll(
            &mut ctx.dice,
            "rule of least disturbance: equal options",
            &RollOptions::default(),
        )?;
        let index = usize::try_from(roll.total - 1).unwrap_or(0);
        (options.get(index).cloned().unwrap_or_default(), Some(roll))
    } else {
        (options.into_iter().next().unwrap_or_default(), None)
    };
    let mut end = outcome.end;
    let mut relocated = Vec::new();
    for relocation in &choice {
        if relocation.model == request.model {
            end = relocation.to;
        } else {
            relocated.push(Moved { model: relocation.model.clone(), to: relocation.to });
        }
    }

    let mut knocked_down = Vec::new();
    let mut damage = Vec::new();
    // Several rolls may hit one model: each marks from where the previous one left it.
    let mut work = state.clone();
    let mut deal = |id: &str, source: &str, roll, tape: &mut crate::dice::DiceTape| -> Result<_, RuleError> {
        let dealt = damage_dealt(&work, tape, id, source, roll)?;
        work.record_damage(&dealt);
        Ok(dealt)
    };
    if let (Some(displacement), Some((pow, collateral_pow))) = (damage_kind, pows) {
        knocked_down.push(request.model.to_string());
        let slam = SlamSpec {
            displacement,
            model: request.model.to_string(),
            arm: u32::from(moved.spec.profile.stats.arm),
            base_mm: u32::from(moved.spec.profile.base.mm()),
            pow: u32::from(pow),
            collateral_pow: u32::from(collateral_pow),
            options: RollOptions::default(),
            contacts: outcome.contacts.clone(),
        };
        let rolled = slam_damage(&mut ctx.dice, &slam)?;
        // Labelled by what happened: a thrown model's damage is a throw's, not a slam's.
        damage.push(deal(request.model, displacement.name(), rolled.moved.damage, &mut ctx.dice)?);
        for hit in rolled.collateral {
            knocked_down.push(hit.model.clone());
            damage.push(deal(&hit.model, "collateral", hit.damage, &mut ctx.dice)?);
        }
    }
    if let Some(drop) = outcome.fall_inches {
        let fall = moved.fall(drop, outcome.landed_on.clone());
        if let Some(fell) = fall_damage(&mut ctx.dice, &fall)? {
            if !knocked_down.contains(&request.model.to_string()) {
                knocked_down.push(request.model.to_string());
            }
            damage.push(deal(request.model, "fall", fell.falling.damage, &mut ctx.dice)?);
            for hit in fell.contacted {
                if !knocked_down.contains(&hit.model) {
                    knocked_down.push(hit.model.clone());
                }
                damage.push(deal(&hit.model, "fall", hit.damage, &mut ctx.dice)?);
            }
        }
    }
    let stopped_by = outcome.stopped_by.as_ref().map(|stop| match stop {
        Stop::Obstacle(i) | Stop::Obstruction(i) => {
            state.table.terrain.get(*i).map_or_else(|| "terrain".into(), |t| t.name.clone())
        }
        Stop::Model(id) => id.clone(),
        Stop::TableEdge => "the table edge".into(),
    });
    let event = E::Displaced {
        model: request.model.to_string(),
        kind: request.kind,
        origin: request.origin,
        from: moved.position.centre(),
        to: end,
        elevation: surface_height(&state.table.terrain, end),
        stopped_by,
        contacted: outcome.contacted.clone(),
        knocked_down,
        hazards: outcome.hazards.clone(),
        damage: damage.clone(),
        relocated,
        tie_break,
        reason: request.reason.to_string(),
        next_word: ctx.dice.next_word(),
    };
    let mut s = state.clone();
    let mut events = Vec::new();
    emit(&mut s, &mut events, event);
    after_damage(&mut s, &mut events, &damage, request.reason);
    Ok(events)
}

/// Resolve one pending triggered effect: the active player's first, in the order they choose,
/// then the inactive player's; the condition is rechecked as each resolves, and an optional part
/// may be declined with the trigger still resolved (seed 000 "Triggers").
pub fn resolve_trigger(
    state: &WarmachineState,
    id: &str,
    rule: &str,
    decline_optional: bool,
    ctx: &Context,
) -> Result<Vec<E>, RuleError> {
    let pending = state
        .pending_triggers
        .iter()
        .find(|t| t.model == id && t.rule == rule)
        .ok_or_else(|| refuse("no_such_trigger", format!("{rule} on {id} is not waiting to resolve"), TRIGGERS))?;
    require_player(state, &pending.player, ctx)?;
    let active = state.current.clone().unwrap_or_default();
    if pending.player != active && state.pending_triggers.iter().any(|t| t.player == active) {
        return Err(refuse(
            "active_player_first",
            format!("the active player ({active}) resolves their triggered effects first"),
            TRIGGERS,
        ));
    }
    let carrier = model(state, id)?;
    let optional = carrier
        .spec
        .profile
        .special_rules
        .iter()
        .chain(carrier.spec.profile.weapons.iter().flat_map(|w| w.special_rules.iter()))
        .filter(|r| r.name == rule)
        .flat_map(|r| r.mechanics.iter())
        .any(|m| matches!(m, Mechanic::Trigger { optional: true, condition } if *condition != TriggerCondition::EndOfActivation));
    if decline_optional && !optional {
        return Err(refuse("not_optional", format!("{rule} has no optional part to decline"), TRIGGERS));
    }
    let (resolved, reason) = if carrier.in_play() {
        (true, if decline_optional { "resolved; its optional part declined" } else { "resolved" })
    } else {
        (false, "its condition no longer holds: the model is no longer in play, so the effect does not resolve")
    };
    Ok(vec![E::TriggerResolved {
        model: id.to_string(),
        rule: rule.to_string(),
        resolved,
        declined_optional: decline_optional && resolved,
        reason: format!("{reason} ({TRIGGERS})"),
    }])
}
