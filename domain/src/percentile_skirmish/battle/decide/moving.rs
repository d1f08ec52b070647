//! Moving the acting mini: walking or running along a path, split around its attacks, with
//! the road bonus, water and spells (seed 002 "TURN", "RUNNING", "ROAD BONUS", "CROSSING
//! WATER", "Speed", "Slow", "Statue"); fleeing under fear (seed 002 "Fear"); the attacks of
//! opportunity a move offers (seed 002 "Attack of opportunity").

use super::{combat::attack_refusal, emit, flow, refuse};
use crate::{
    percentile_skirmish::{
        battle::{
            event::SkirmishEvent,
            state::{MiniState, SkirmishState},
        },
        headings,
        rules::{allowance, walk, Walk},
        spells::Spell,
        table::{normalise_degrees, path_length, Point, EPSILON},
        SERVICE_RULES,
    },
    Context, RuleError,
};

pub use crate::percentile_skirmish::limits::MAX_WAYPOINTS;

/// A mini under fear must run before it does anything else (seed 002 "Fear": "Mini affected
/// runs in opposite direction of the caster").
pub fn must_have_fled(_state: &SkirmishState, mini: &MiniState) -> Result<(), RuleError> {
    if mini.under(Spell::Fear) && !mini.under(Spell::Statue) && !mini.this_turn.fled {
        return Err(refuse(
            "must_flee",
            format!("{} is afraid and runs away from the caster first: send flee", mini.id()),
            "seed 002 \"Fear\"",
        ));
    }
    Ok(())
}

fn statue_refusal(mini: &MiniState) -> Result<(), RuleError> {
    if mini.under(Spell::Statue) {
        return Err(refuse(
            "statue",
            format!("{} is a statue: it cannot move or attack", mini.id()),
            "seed 002 \"Statue\"",
        ));
    }
    Ok(())
}

/// Move the acting mini along `path`, or turn it in place.
pub fn move_mini(
    state: &SkirmishState,
    mini: &MiniState,
    path: &[Point],
    run: bool,
    facing: Option<f64>,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    must_have_fled(state, mini)?;
    statue_refusal(mini)?;
    let id = mini.id();
    if path.is_empty() && facing.is_none() {
        return Err(refuse("empty_move", "a move needs a path, or a facing to turn to", SERVICE_RULES));
    }
    if path.len() > MAX_WAYPOINTS {
        return Err(refuse("path_too_long", format!("a move has at most {MAX_WAYPOINTS} waypoints"), SERVICE_RULES));
    }
    if facing.is_some_and(|degrees| !degrees.is_finite()) {
        return Err(refuse("bad_facing", "a facing is a finite number of degrees", SERVICE_RULES));
    }
    if let Some(off) = path.iter().find(|point| !state.table.contains(**point)) {
        return Err(refuse(
            "off_table",
            format!("({}, {}) is off the {}″ × {}″ table", off.x, off.y, state.table.width, state.table.depth),
            SERVICE_RULES,
        ));
    }
    let turn = &mini.this_turn;
    if !path.is_empty() {
        if turn.movement_ended {
            return Err(refuse(
                "movement_over",
                format!("{id}'s movement is over for this turn (it stopped at the water's edge)"),
                headings::CROSSING_WATER,
            ));
        }
        if turn.attacked_in_water {
            return Err(refuse(
                "attacked_in_water",
                format!("{id} attacked from water that hinders it, so it cannot move this turn"),
                headings::CROSSING_WATER,
            ));
        }
    }
    if run && (turn.attacks > 0 || turn.spell_attacks > 0) {
        return Err(refuse(
            "run_after_combat",
            format!("{id} has attacked or cast this turn: a running mini cannot cast spells or engage in combat"),
            headings::RUNNING,
        ));
    }
    let (points, stopped_at_water, through_water) = match walk(&state.table, mini.position, path, mini.water_sense(), false)
    {
        Walk::Barred { water, edge } => {
            return Err(refuse(
                "water_barred",
                format!(
                    "{id} is small and cannot travel across {water}, wider than 1″ (its edge is at ({:.2}, {:.2})): find another route",
                    edge.x, edge.y
                ),
                headings::CROSSING_WATER,
            ))
        }
        Walk::Walked { points, stopped_at, through_water } => (points, stopped_at, through_water),
    };
    let distance = path_length(&points);
    let end = points.last().copied().unwrap_or(mini.position);
    let start = turn.movement_start.unwrap_or(mini.position);
    let road_bonus = state.table.on_road(start) && state.table.on_road(end);
    let allowed = allowance(mini.movement(), turn.ran || run, turn.through_water || through_water, road_bonus);
    let moved = turn.moved + distance;
    if moved > allowed.inches + 1e-9 {
        return Err(refuse(
            "too_far",
            format!(
                "{id} may move {:.2}″ this turn ({}) and has moved {:.2}″; this path is {distance:.2}″",
                allowed.inches,
                describe(&allowed),
                turn.moved
            ),
            if allowed.running { headings::RUNNING } else { headings::TURN },
        ));
    }
    let facing = facing
        .map(normalise_degrees)
        .or_else(|| points.windows(2).rev().find_map(|pair| pair[0].bearing_to(pair[1])))
        .unwrap_or(mini.facing);
    let provoked = provoked(state, mini, &points);
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::Moved {
            mini: id.to_string(),
            from: mini.position,
            path: points.iter().skip(1).copied().collect(),
            to: end,
            distance,
            moved_this_turn: moved,
            allowance: allowed,
            stopped_at_water,
            facing,
            fled: false,
            provoked,
        },
    );
    flow::after_moves(&mut working, &mut events, ctx)?;
    Ok(events)
}

fn describe(allowed: &crate::percentile_skirmish::rules::Allowance) -> String {
    let mut parts = vec![format!("movement {}″", allowed.movement)];
    if allowed.running {
        parts.push("× 1.5 running".into());
    }
    if allowed.in_water {
        parts.push("halved in water".into());
    }
    if allowed.road_bonus {
        parts.push("+ 1″ road bonus".into());
    }
    parts.join(", ")
}

/// The minis whose melee reach a mini walking `points` leaves, and who can strike at it: each
/// may make an attack of opportunity (Herald's reading of when one arises: the seed gives only
/// its chance).
fn provoked(state: &SkirmishState, mini: &MiniState, points: &[Point]) -> Vec<String> {
    let reach = state.options.melee_reach + EPSILON;
    let side = state.acting_participant(mini);
    let Some(start) = points.first() else { return Vec::new() };
    state
        .minis
        .values()
        .filter(|enemy| enemy.in_play() && enemy.id() != mini.id() && state.acting_participant(enemy) != side)
        .filter(|enemy| enemy.spec.profile.melee_weapon().is_some() && attack_refusal(state, enemy, false).is_none())
        .filter(|enemy| start.distance(enemy.position) <= reach)
        .filter(|enemy| points.iter().any(|point| point.distance(enemy.position) > reach))
        .map(|enemy| enemy.id().to_string())
        .collect()
}

/// The acting mini under fear runs its running distance directly away from the caster,
/// stopping at the table's edge and at water as any mini does (seed 002 "Fear").
pub fn flee(state: &SkirmishState, mini: &MiniState, ctx: &mut Context) -> Result<Vec<SkirmishEvent>, RuleError> {
    let id = mini.id();
    let Some(fear) = mini.effect(Spell::Fear) else {
        return Err(refuse("not_afraid", format!("{id} is not under a fear spell"), "seed 002 \"Fear\""));
    };
    statue_refusal(mini)?;
    if mini.this_turn.fled || mini.this_turn.movement_ended {
        return Err(refuse("movement_over", format!("{id}'s movement is over for this turn"), "seed 002 \"Fear\""));
    }
    let caster = state.mini(&fear.caster).map_or(mini.position, |caster| caster.position);
    let direction = caster.bearing_to(mini.position).unwrap_or_else(|| normalise_degrees(mini.facing + 180.0));
    let run_to = |in_water: bool| {
        let allowed = allowance(mini.movement(), true, in_water, false);
        let remaining = (allowed.inches - mini.this_turn.moved).max(0.0);
        let target = state.table.clip(mini.position, mini.position.towards(direction, remaining));
        (allowed, walk(&state.table, mini.position, &[target], mini.water_sense(), true))
    };
    let (mut allowed, mut walked) = run_to(mini.this_turn.through_water);
    if let Walk::Walked { through_water: true, .. } = walked {
        if !allowed.in_water {
            (allowed, walked) = run_to(true);
        }
    }
    let Walk::Walked { points, stopped_at, .. } = walked else {
        return Err(refuse("water_barred", format!("{id} cannot flee across the water"), headings::CROSSING_WATER));
    };
    let distance = path_length(&points);
    let provoked = provoked(state, mini, &points);
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::Moved {
            mini: id.to_string(),
            from: mini.position,
            path: points.iter().skip(1).copied().collect(),
            to: points.last().copied().unwrap_or(mini.position),
            distance,
            moved_this_turn: mini.this_turn.moved + distance,
            allowance: allowed,
            stopped_at_water: stopped_at,
            facing: direction,
            fled: true,
            provoked,
        },
    );
    flow::after_moves(&mut working, &mut events, ctx)?;
    Ok(events)
}
