//! Normal movement (seed 000 "Movement"): forfeit, aim, full advance, run, charge, unit movement
//! and unit charges, required charges, the four movement restrictions, and rule priority for
//! "cannot" conditions.

use super::{
    activation::current,
    damage::{after_damage, check_battle_end, damage_dealt, destroy, emit},
    model_in_play, refuse, require_player,
};
use crate::{
    warmachine::{
        battle::{
            command::{Movement, UnitPlacement},
            event::{AdvanceKind, Cost, Moved, WarmachineEvent as E},
            state::{Activation, Condition, ModelState, WarmachineState},
        },
        model::ModelType,
        movement::{
            check_advance, check_restriction, check_unit_placement, find_unit_placement, resolve_charge, ChargeStop,
        },
        rolls::{fall_damage, is_fall},
        table::{edge_distance, has_line_of_sight, surface_height, within, Circle, Point, EPSILON},
    },
    Context, RuleError,
};

const RUN: &str = "seed 000 \"Run\"";
const CHARGE: &str = "seed 000 \"Charge\"";
const INDEPENDENT_CHARGE: &str = "seed 000 \"Independent model charges\"";
const REQUIRED: &str = "seed 000 \"Required Charges\"";
const PRIORITY: &str = "seed 000 \"Rule Priority\"";
const UNIT: &str = "seed 000 \"Unit Movement\"";

/// Inches a charge adds to SPD.
pub const CHARGE_BONUS: f64 = 3.0;
/// Inches a run adds to SPD.
pub const RUN_BONUS: f64 = 5.0;
/// A charge attack needs at least this much charge movement.
pub const CHARGE_ATTACK_MIN: f64 = 3.0;

/// Resolve a model's normal movement (for a unit, the trooper that moves).
pub fn normal_movement(
    state: &WarmachineState,
    model: &str,
    movement: &Movement,
    placement: Option<&UnitPlacement>,
    ctx: &mut Context,
) -> Result<Vec<E>, RuleError> {
    let activation = current(state)?;
    let mover = model_in_play(state, model)?;
    require_player(state, &mover.spec.player, ctx)?;
    if !activation.models.contains_key(model) {
        return Err(refuse("not_activating", format!("{model} is not activating"), "seed 000 \"Activation Phase\""));
    }
    if mover.inert {
        return Err(refuse(
            "inert",
            format!("{} is inert: its warcaster was incapacitated", mover.spec.id),
            "seed 000 \"Warjacks\"",
        ));
    }
    let in_unit = activation.id != model;
    let redo_after_loss =
        activation.awaiting_placement.as_deref().is_some_and(|moved| state.model(moved).is_some_and(|m| m.destroyed));
    if activation.movement_done || (activation.awaiting_placement.is_some() && !redo_after_loss) {
        return Err(refuse(
            "already_moved",
            format!("{} has resolved its normal movement", activation.id),
            "seed 000 \"Movement\"",
        ));
    }
    if in_unit && placement.is_some() && matches!(movement, Movement::Aim | Movement::Forfeit) {
        return Err(refuse("placement_without_move", "aiming or forfeiting moves nobody: send no placement", UNIT));
    }
    check_required(state, activation, mover, movement)?;
    let mut events = match movement {
        Movement::Forfeit => stationary(state, activation, model, |m| E::MovementForfeited {
            model: m,
            combat_forfeited: false,
            rule: "seed 000 \"Forfeiting Normal Movement or Combat Actions\"".into(),
        }),
        Movement::Aim => stationary(state, activation, model, |m| E::Aimed { model: m }),
        Movement::FullAdvance { path } => vec![advance(state, mover, path, AdvanceKind::FullAdvance)?],
        Movement::Run { path } => run(state, mover, path)?,
        Movement::Charge { target, to } => vec![charge(state, activation, mover, target, *to)?],
    };
    let fell = fall_after(state, mover, &events, ctx)?;
    events.extend(fell);
    let moved_someone =
        matches!(movement, Movement::FullAdvance { .. } | Movement::Run { .. } | Movement::Charge { .. });
    // A trooper killed by its own fall leaves nobody to place the others around: the player
    // chooses another trooper to move (seed 000 "Unit Movement").
    let mover_fell_dead = events.iter().any(|e| matches!(e, E::ModelDestroyed { model: dead, .. } if dead == model));
    if in_unit && moved_someone && !mover_fell_dead {
        if let Some(placement) = placement {
            let mut s = state.clone();
            for event in &events {
                s.apply(event);
            }
            events.extend(place(&s, placement)?);
        }
    } else if ends_activation(&events) {
        events.push(E::ActivationEnded { activation: activation.id.clone(), reason: end_reason(&events) });
    }
    if matches!(movement, Movement::Forfeit) && activation.required_charge {
        for event in &mut events {
            if let E::MovementForfeited { combat_forfeited, rule, .. } = event {
                *combat_forfeited = true;
                *rule = REQUIRED.into();
            }
        }
    }
    Ok(events)
}

/// Aim and forfeit apply to every model of the activation.
fn stationary(state: &WarmachineState, activation: &Activation, model: &str, make: impl Fn(String) -> E) -> Vec<E> {
    if activation.id == model {
        return vec![make(model.to_string())];
    }
    // Troopers destroyed earlier in the activation neither aim nor forfeit anything.
    let in_play = |id: &String| state.model(id).is_some_and(ModelState::in_play);
    activation.models.keys().filter(|id| in_play(id)).map(|id| make(id.clone())).collect()
}

fn ends_activation(events: &[E]) -> bool {
    events.iter().any(|e| match e {
        E::Advanced { kind, .. } => matches!(kind, AdvanceKind::Run | AdvanceKind::RunFallback),
        E::Charged { in_melee_range, .. } => !in_melee_range,
        _ => false,
    })
}

fn end_reason(events: &[E]) -> String {
    if events.iter().any(|e| matches!(e, E::Charged { in_melee_range: false, .. })) {
        "the charge failed: the target is not in melee range (seed 000 \"Charge\")".into()
    } else {
        "the model ran (seed 000 \"Run\")".into()
    }
}

/// Required charges and required runs, and "cannot" conditions (seed 000 "Required Charges",
/// "Rule Priority").
pub(super) fn check_required(
    state: &WarmachineState,
    activation: &Activation,
    mover: &ModelState,
    movement: &Movement,
) -> Result<(), RuleError> {
    // A model required both to run and to charge cannot do both; the run governs (herald's
    // reading), so the two requirements never leave it with no legal movement.
    if activation.required_charge && !mover.has(&Condition::MustRun) {
        let can_charge = can_charge_at_all(mover) && !legal_charge_targets(state, mover).is_empty();
        match movement {
            Movement::Charge { .. } => {}
            Movement::Forfeit if !can_charge => {}
            _ if can_charge => {
                let targets = legal_charge_targets(state, mover).join(", ");
                return Err(refuse(
                    "charge_required",
                    format!("{} is required to charge a model in its line of sight ({targets})", mover.spec.id),
                    REQUIRED,
                ));
            }
            _ => {
                return Err(refuse(
                    "required_charge_forfeit",
                    format!(
                        "{} must charge but cannot: it forfeits its normal movement and combat action",
                        mover.spec.id
                    ),
                    REQUIRED,
                ))
            }
        }
    }
    if mover.has(&Condition::MustRun) && !matches!(movement, Movement::Run { .. }) {
        return Err(refuse("run_required", format!("{} is required to run", mover.spec.id), RUN));
    }
    let cannot = |condition: Condition, what: &str| -> Result<(), RuleError> {
        if mover.has(&condition) {
            Err(refuse(
                &format!("cannot_{what}"),
                format!("{} cannot {what}: a rule saying it cannot beats any rule saying it can", mover.spec.id),
                PRIORITY,
            ))
        } else {
            Ok(())
        }
    };
    match movement {
        Movement::FullAdvance { .. } => cannot(Condition::CannotAdvance, "advance"),
        Movement::Run { .. } if !mover.has(&Condition::MustRun) => {
            cannot(Condition::CannotRun, "run")?;
            cannot(Condition::CannotAdvance, "advance")
        }
        // Required to run but unable to advance: "cannot" still wins, so it may not move at all.
        Movement::Run { path } if !path.is_empty() => cannot(Condition::CannotAdvance, "advance"),
        Movement::Charge { .. } => {
            cannot(Condition::CannotCharge, "charge")?;
            cannot(Condition::CannotAdvance, "advance")
        }
        _ => Ok(()),
    }
}

fn can_charge_at_all(mover: &ModelState) -> bool {
    // A warjack without focus or a warbeast at its FURY cannot pay for a charge, so it "cannot"
    // charge (seed 000 "Required Charges"); without this check it was told to charge and refused
    // both the charge and the forfeit.
    mover.spec.profile.can_charge()
        && !mover.has(&Condition::CannotCharge)
        && !mover.has(&Condition::CannotAdvance)
        && movement_cost(mover, "charge", CHARGE).is_ok()
}

/// Enemy models in play the mover has line of sight to and may charge under its movement
/// restrictions (the straight line at the target's centre must satisfy them), so a required
/// charge that no restriction allows is a charge it "cannot" make (seed 000 "Required Charges").
fn legal_charge_targets(state: &WarmachineState, mover: &ModelState) -> Vec<String> {
    state
        .models
        .values()
        .filter(|m| m.in_play() && state.enemies(mover, m))
        .filter(|m| sees(state, mover, m))
        .filter(|m| check_restrictions(state, mover, &[m.position.centre()]).is_ok())
        .map(|m| m.spec.id.clone())
        .collect()
}

/// Line of sight from `viewer` to `target`, past terrain and the other bases.
pub(super) fn sees(state: &WarmachineState, viewer: &ModelState, target: &ModelState) -> bool {
    let others: Vec<Circle> =
        state.other_bases(&[viewer.id(), target.id()]).into_iter().map(|(_, circle)| circle).collect();
    has_line_of_sight(&state.table.terrain, &viewer.circle(), &target.circle(), &others)
}

/// Check a path against the model's movement restrictions (seed 000 "Movement Restrictions").
pub(super) fn check_restrictions(state: &WarmachineState, mover: &ModelState, path: &[Point]) -> Result<(), RuleError> {
    for condition in &mover.conditions {
        if let Condition::Restricted { restriction, relative_to } = condition {
            if let Some(other) = state.model(relative_to).filter(|m| m.in_play()) {
                check_restriction(*restriction, other.position.centre(), mover.position.centre(), path)?;
            }
        }
    }
    Ok(())
}

fn others_of(state: &WarmachineState, mover: &ModelState) -> Vec<Circle> {
    state.other_bases(&[mover.id()]).into_iter().map(|(_, circle)| circle).collect()
}

fn advance(state: &WarmachineState, mover: &ModelState, path: &[Point], kind: AdvanceKind) -> Result<E, RuleError> {
    advance_with(state, mover, path, kind, Cost::Free, 0.0)
}

fn advance_with(
    state: &WarmachineState,
    mover: &ModelState,
    path: &[Point],
    kind: AdvanceKind,
    cost: Cost,
    bonus: f64,
) -> Result<E, RuleError> {
    check_restrictions(state, mover, path)?;
    let allowance = f64::from(mover.spec.profile.stats.spd) + bonus;
    let checked = check_advance(&state.table, &mover.circle(), path, allowance, &others_of(state, mover))?;
    Ok(E::Advanced {
        model: mover.spec.id.clone(),
        kind,
        from: mover.position.centre(),
        path: path.to_vec(),
        distance: checked.distance,
        cost,
        hazards: checked.hazards_entered,
    })
}

/// What a warjack or warbeast pays to use its normal movement to run or charge (seed 000 "Run",
/// "Charge": "A warjack must spend 1 focus point", "A warbeast must be forced").
fn movement_cost(mover: &ModelState, action: &str, rule: &str) -> Result<Cost, RuleError> {
    match mover.spec.profile.model_type {
        ModelType::Warjack if mover.focus == 0 => Err(refuse(
            &format!("{action}_needs_focus"),
            format!("{} has no focus: a warjack must spend 1 focus point to {action}", mover.spec.id),
            rule,
        )),
        ModelType::Warjack => Ok(Cost::Focus),
        ModelType::Warbeast if mover.fury >= mover.spec.profile.stats.fury.unwrap_or(0) => Err(refuse(
            &format!("{action}_cannot_force"),
            format!("{} is at its FURY and cannot be forced: a warbeast must be forced to {action}", mover.spec.id),
            rule,
        )),
        ModelType::Warbeast => Ok(Cost::Forced),
        _ => Ok(Cost::Free),
    }
}

fn run(state: &WarmachineState, mover: &ModelState, path: &[Point]) -> Result<Vec<E>, RuleError> {
    let cost = movement_cost(mover, "run", RUN);
    // A warjack without focus (a warbeast at its FURY) cannot run either: required to run, it
    // takes the fallback too instead of being refused every movement (seed 000 "Run").
    let cannot_pay = mover.has(&Condition::MustRun) && cost.is_err();
    if mover.has(&Condition::CannotRun) || cannot_pay {
        // Required to run but cannot: "instead of running it forfeits its combat action and makes
        // a full advance, then its activation ends".
        return Ok(vec![advance(state, mover, path, AdvanceKind::RunFallback)?]);
    }
    Ok(vec![advance_with(state, mover, path, AdvanceKind::Run, cost?, RUN_BONUS)?])
}

fn charge(
    state: &WarmachineState,
    activation: &Activation,
    mover: &ModelState,
    target: &str,
    to: Point,
) -> Result<E, RuleError> {
    if !mover.spec.profile.can_charge() {
        return Err(refuse(
            "charge_no_melee_weapon",
            format!("{} has no melee weapon and cannot charge", mover.spec.id),
            CHARGE,
        ));
    }
    if activation.models.get(mover.id()).is_some_and(|m| m.combat_forfeited) {
        return Err(refuse("charge_combat_forfeited", "a model that forfeits its combat action cannot charge", CHARGE));
    }
    let charged = model_in_play(state, target)?;
    if charged.id() == mover.id() {
        return Err(refuse("charge_self", "a model cannot charge itself", CHARGE));
    }
    if !state.enemies(mover, charged) {
        return Err(refuse("charge_friendly", format!("{target} is a friendly model and cannot be charged"), CHARGE));
    }
    if !sees(state, mover, charged) {
        return Err(refuse(
            "charge_no_line_of_sight",
            format!("{} has no line of sight to {target}", mover.spec.id),
            INDEPENDENT_CHARGE,
        ));
    }
    let cost = movement_cost(mover, "charge", CHARGE)?;
    let bases = state.other_bases(&[mover.id()]);
    let target_index = bases.iter().position(|(id, _)| id == target).unwrap_or(0);
    let circles: Vec<Circle> = bases.iter().map(|(_, c)| *c).collect();
    let melee_range = mover.melee_range().unwrap_or(crate::warmachine::movement::DEFAULT_MELEE_RANGE);
    let max = f64::from(mover.spec.profile.stats.spd) + CHARGE_BONUS;
    let resolved = resolve_charge(&state.table, &mover.circle(), to, max, &circles, target_index, melee_range)?;
    // A charge is movement too: its straight line must keep the model's movement restrictions
    // (seed 000 "Movement Restrictions"); they were only checked for advances and runs.
    check_restrictions(state, mover, &[resolved.end])?;
    let stopped_by = resolved.stopped_by.map(|stop| match stop {
        ChargeStop::Model(index) => bases.get(index).map_or_else(|| "a model".to_string(), |(id, _)| id.clone()),
        ChargeStop::Terrain(index) => {
            state.table.terrain.get(index).map_or_else(|| "terrain".to_string(), |t| t.name.clone())
        }
        ChargeStop::TableEdge => "the table edge".to_string(),
    });
    Ok(E::Charged {
        model: mover.spec.id.clone(),
        target: target.to_string(),
        from: mover.position.centre(),
        to: resolved.end,
        travelled: resolved.travelled,
        stopped_by,
        in_melee_range: resolved.in_melee_range,
        charge_attack: resolved.in_melee_range && resolved.travelled + 1e-9 >= CHARGE_ATTACK_MIN,
        cost,
    })
}

/// Place the other troopers of the activating unit.
pub fn place_troopers(state: &WarmachineState, placement: &UnitPlacement, ctx: &Context) -> Result<Vec<E>, RuleError> {
    current(state)?;
    require_player(state, &state.current.clone().unwrap_or_default(), ctx)?;
    place(state, placement)
}

fn place(state: &WarmachineState, placement: &UnitPlacement) -> Result<Vec<E>, RuleError> {
    let activation = current(state)?;
    let Some(moved_id) = activation.awaiting_placement.clone() else {
        return Err(refuse("nothing_to_place", "no trooper of the activating unit has moved yet", UNIT));
    };
    let moved = state.model(&moved_id).filter(|m| m.in_play()).ok_or_else(|| {
        refuse(
            "mover_destroyed",
            format!("{moved_id} was destroyed before the others were placed: choose another trooper to move"),
            UNIT,
        )
    })?;
    let waiting: Vec<&ModelState> = activation
        .models
        .keys()
        .filter(|id| **id != moved_id)
        .filter_map(|id| state.model(id))
        .filter(|m| m.in_play())
        .collect();
    let mut listed: Vec<&str> = placement.placed.iter().map(|p| p.model.as_str()).collect();
    listed.extend(placement.cannot_place.iter().map(String::as_str));
    for trooper in &waiting {
        if listed.iter().filter(|id| **id == trooper.id()).count() != 1 {
            return Err(refuse(
                "placement_incomplete",
                format!("place {} exactly once (or list it as one that cannot be placed)", trooper.id()),
                UNIT,
            ));
        }
    }
    if let Some(stranger) = listed.iter().find(|id| !waiting.iter().any(|m| m.id() == **id)) {
        return Err(refuse("placement_stranger", format!("{stranger} is not a trooper waiting to be placed"), UNIT));
    }
    let unit_ids: Vec<&str> = waiting.iter().map(|m| m.id()).chain([moved.id()]).collect();
    let others: Vec<Circle> = state.other_bases(&unit_ids).into_iter().map(|(_, c)| c).collect();
    let placed: Vec<(String, Circle)> = placement
        .placed
        .iter()
        .filter_map(|p| {
            state.model(&p.model).map(|m| (p.model.clone(), Circle { centre: p.at, radius: m.circle().radius }))
        })
        .collect();
    check_unit_placement(&state.table, &moved.circle(), &placed, &others)?;
    let mut occupied = others.clone();
    occupied.push(moved.circle());
    occupied.extend(placed.iter().map(|(_, c)| *c));
    for id in &placement.cannot_place {
        let radius = state.model(id).map_or(0.0, |m| m.circle().radius);
        if let Some(spot) = find_unit_placement(&state.table, &moved.circle(), radius, &occupied) {
            return Err(refuse(
                "trooper_can_be_placed",
                format!("{id} can be placed (for example at {:.4}, {:.4}), so it is not destroyed", spot.x, spot.y),
                UNIT,
            ));
        }
    }
    let forfeit_combat = forfeits(state, activation, &placed);
    let mut events = Vec::new();
    let mut working = state.clone();
    let placed_event = E::TroopersPlaced {
        unit: activation.id.clone(),
        moved: moved_id.clone(),
        placed: placed.iter().map(|(id, c)| Moved { model: id.clone(), to: c.centre }).collect(),
        destroyed: placement.cannot_place.clone(),
        forfeit_combat,
    };
    emit(&mut working, &mut events, placed_event);
    for id in &placement.cannot_place {
        destroy(
            &mut working,
            &mut events,
            id,
            "it could not be placed within 2\" of the trooper that moved (seed 000 \"Unit Movement\")",
        );
    }
    check_battle_end(&mut working, &mut events);
    if working.ended() {
        return Ok(events);
    }
    let mover_state = activation.models.get(&moved_id);
    let ran = mover_state.is_some_and(|m| m.ran);
    let failed = activation.charged && mover_state.is_some_and(|m| m.charge_target.is_some() && m.combat_forfeited);
    if ran || failed {
        let reason = if ran { "the unit ran (seed 000 \"Run\")" } else { "the charge failed (seed 000 \"Charge\")" };
        events.push(E::ActivationEnded { activation: activation.id.clone(), reason: reason.into() });
    }
    Ok(events)
}

/// Troopers that must forfeit their combat action after placement: those that cannot advance
/// (seed 000 "Unit Movement"), and in a unit charge those engaged before placement unless placed
/// with every model that engaged them in melee range (seed 000 "Unit Charges").
fn forfeits(state: &WarmachineState, activation: &Activation, placed: &[(String, Circle)]) -> Vec<String> {
    let mut out = Vec::new();
    for (id, circle) in placed {
        let Some(trooper) = state.model(id) else { continue };
        if trooper.has(&Condition::CannotAdvance) {
            out.push(id.clone());
            continue;
        }
        if activation.charged {
            let engaging = state.engaging(trooper);
            let reach = trooper.melee_range().unwrap_or(0.0);
            let all_in_range = engaging
                .iter()
                .filter_map(|e| state.model(e))
                .all(|enemy| trooper.melee_range().is_some() && within(circle, &enemy.circle(), reach));
            if !engaging.is_empty() && !all_in_range {
                out.push(id.clone());
            }
        }
    }
    out
}

/// A model whose advance or charge took it off an elevated surface onto one at least 1″ lower
/// falls: "A model that ... otherwise moves off an elevated surface to another surface at least 1
/// full inch lower falls", is knocked down and suffers the fall's damage roll (seed 000
/// "Falling").
fn fall_after(
    state: &WarmachineState,
    mover: &ModelState,
    events: &[E],
    ctx: &mut Context,
) -> Result<Vec<E>, RuleError> {
    let end = events.iter().find_map(|event| match event {
        E::Advanced { model, path, .. } if model == mover.id() => path.last().copied(),
        E::Charged { model, to, .. } if model == mover.id() => Some(*to),
        _ => None,
    });
    let Some(end) = end else { return Ok(Vec::new()) };
    let drop_inches = mover.position.elevation - surface_height(&state.table.terrain, end);
    if !is_fall(drop_inches) {
        return Ok(Vec::new());
    }
    // "If a falling model contacts a model with an equal or smaller base, the contacted model
    // becomes knocked down and suffers the same damage roll" (seed 000 "Falling"): the models
    // its base touches where it lands.
    let landed = Circle { centre: end, radius: mover.circle().radius };
    let contacted = state
        .models
        .values()
        .filter(|m| m.in_play() && m.id() != mover.id() && edge_distance(&landed, &m.circle()) <= EPSILON)
        .map(ModelState::as_contacted)
        .collect();
    let spec = mover.fall(drop_inches, contacted);
    let Some(fell) = fall_damage(&mut ctx.dice, &spec)? else { return Ok(Vec::new()) };
    let mut working = state.clone();
    for event in events {
        working.apply(event);
    }
    // All damage from the fall is simultaneous: every roll is made, then applied together.
    let mut damage = vec![damage_dealt(&working, &mut ctx.dice, mover.id(), "fall", fell.falling.damage)?];
    let mut knocked_down = vec![mover.spec.id.clone()];
    for hit in fell.contacted {
        knocked_down.push(hit.model.clone());
        damage.push(damage_dealt(&working, &mut ctx.dice, &hit.model, "fall", hit.damage)?);
    }
    let mut out = Vec::new();
    let event = E::Fell {
        model: mover.spec.id.clone(),
        drop_inches,
        knocked_down,
        damage: damage.clone(),
        next_word: ctx.dice.next_word(),
    };
    emit(&mut working, &mut out, event);
    after_damage(&mut working, &mut out, &damage, "a fall");
    Ok(out)
}
