//! Warmachine intentional movement (seed 000 "Movement", "Full Advance", "Run", "Movement
//! Restrictions", "Independent model charges", "Unit Movement").
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_domain::warmachine::model::{BaseSize, MovementRestriction};
use herald_domain::warmachine::movement::{
    check_advance, check_restriction, check_unit_placement, find_unit_placement, resolve_charge, terrain_contact,
    ChargeStop, DEFAULT_MELEE_RANGE, UNIT_COHERENCY,
};
use herald_domain::warmachine::table::{
    edge_distance, overlaps, within, Circle, Point, Position, Rect, Shape, Table, TerrainFeature, TerrainKind,
};
use proptest::prelude::*;

fn base(x: f64, y: f64, size: BaseSize) -> Circle {
    Position { x, y, facing: 0.0, elevation: 0.0 }.base(size)
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn feature(kind: TerrainKind, min: (f64, f64), max: (f64, f64)) -> TerrainFeature {
    TerrainFeature {
        name: format!("{kind:?}"),
        kind,
        shape: Shape::Rect(Rect { min: p(min.0, min.1), max: p(max.0, max.1) }),
        height: 2.0,
    }
}

fn table_with(terrain: Vec<TerrainFeature>) -> Table {
    Table { terrain, ..Table::default() }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

const SMALL: f64 = 30.0 / 25.4 / 2.0;

// ---- Full Advance / Run ----

// seed 000 "Full Advance": "advances up to its current speed (SPD) in inches"; "Run": SPD plus 5″.
#[test]
fn an_advance_may_not_exceed_its_allowance_per_full_advance_and_run() {
    let table = Table::default();
    let mover = base(10.0, 10.0, BaseSize::Small);
    let exact = check_advance(&table, &mover, &[p(16.0, 10.0)], 6.0, &[]).unwrap();
    assert_eq!(exact.end, p(16.0, 10.0));
    assert!(close(exact.distance, 6.0));
    let err = check_advance(&table, &mover, &[p(16.01, 10.0)], 6.0, &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.too_far");
    assert!(err.rule.contains("\"Full Advance\""));
    // The whole path counts, not the straight-line distance: 4″ up and 4″ across is 8″.
    let dogleg = [p(10.0, 14.0), p(14.0, 14.0)];
    assert_eq!(check_advance(&table, &mover, &dogleg, 6.0, &[]).unwrap_err().code, "warmachine.movement.too_far");
    assert!(close(check_advance(&table, &mover, &dogleg, 11.0, &[]).unwrap().distance, 8.0));
}

// seed 000 "Movement Restrictions": "a model can still forfeit its movement or choose not to move at all".
#[test]
fn an_empty_path_is_not_moving_per_movement_restrictions() {
    let mover = base(10.0, 10.0, BaseSize::Small);
    let advance = check_advance(&Table::default(), &mover, &[], 0.0, &[]).unwrap();
    assert_eq!(advance.end, mover.centre);
    assert_eq!(advance.distance, 0.0);
    assert!(advance.hazards_entered.is_empty());
}

// seed 000 "Movement": "A model's base cannot pass over another model's base."
#[test]
fn a_base_cannot_pass_over_another_base_per_movement() {
    let table = Table::default();
    let mover = base(10.0, 10.0, BaseSize::Small);
    let blocker = base(13.0, 10.0, BaseSize::Medium);
    let err = check_advance(&table, &mover, &[p(16.0, 10.0)], 6.0, &[blocker]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.passes_over_base");
    assert!(err.rule.contains("\"Movement\""));
    // Going around it is fine.
    let around = [p(10.0, 12.0), p(16.0, 12.0)];
    assert!(check_advance(&table, &mover, &around, 8.0, &[blocker]).is_ok());
    // Ending in base-to-base contact is fine.
    let contact = 13.0 - SMALL - BaseSize::Medium.radius_inches();
    let advance = check_advance(&table, &mover, &[p(contact, 10.0)], 6.0, &[blocker]).unwrap();
    assert!(!overlaps(&Circle { centre: advance.end, radius: SMALL }, &blocker));
}

// seed 000 "Movement": bases may not end overlapping (a base that starts overlapping and slides along).
#[test]
fn an_advance_may_not_end_overlapping_another_base_per_movement() {
    let table = Table::default();
    let mover = base(10.0, 10.0, BaseSize::Small);
    let under = base(10.5, 10.0, BaseSize::Small);
    let err = check_advance(&table, &mover, &[p(10.0, 10.3)], 6.0, &[under]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.overlapping_bases");
}

// seed 000 "Beyond the Play Area": models remain on the table.
#[test]
fn an_advance_may_not_leave_the_table_per_beyond_the_play_area() {
    let table = Table::default();
    let mover = base(3.0, 10.0, BaseSize::Small);
    let out_and_back = [p(0.2, 10.0), p(3.0, 12.0)];
    let err = check_advance(&table, &mover, &out_and_back, 10.0, &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.off_table");
    // Touching the edge is on the table.
    assert!(check_advance(&table, &mover, &[p(SMALL, 10.0)], 10.0, &[]).is_ok());
}

// seed 000 "Movement" (herald's reading): advancing models cannot pass through obstructions, may cross obstacles.
#[test]
fn advancing_models_cannot_pass_through_obstructions_but_may_cross_obstacles_per_movement() {
    let mover = base(10.0, 10.0, BaseSize::Small);
    let path = [p(16.0, 10.0)];
    let wall = table_with(vec![feature(TerrainKind::Obstruction, (12.0, 5.0), (13.0, 15.0))]);
    let err = check_advance(&wall, &mover, &path, 6.0, &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.through_obstruction");
    let fence = table_with(vec![feature(TerrainKind::Obstacle, (12.0, 5.0), (13.0, 15.0))]);
    assert_eq!(check_advance(&fence, &mover, &path, 6.0, &[]).unwrap().end, p(16.0, 10.0));
    // Sliding along the obstruction's face, touching it, is not passing through it.
    let beside = base(12.0 - SMALL, 10.0, BaseSize::Small);
    assert!(check_advance(&wall, &beside, &[p(12.0 - SMALL, 4.0)], 6.0, &[]).is_ok());
}

// seed 000 "Pushed", "Slammed": hazards affect models moving through them; herald reports those crossed.
#[test]
fn hazards_crossed_are_reported_per_pushed() {
    let table = table_with(vec![
        feature(TerrainKind::Hazard, (20.0, 5.0), (21.0, 15.0)),
        feature(TerrainKind::Hazard, (12.0, 5.0), (13.0, 15.0)),
        feature(TerrainKind::Hazard, (12.0, 30.0), (13.0, 35.0)),
    ]);
    let mover = base(10.0, 10.0, BaseSize::Small);
    let advance = check_advance(&table, &mover, &[p(16.0, 10.0), p(24.0, 10.0)], 14.0, &[]).unwrap();
    assert_eq!(advance.hazards_entered, vec![0, 1]);
}

#[test]
fn non_finite_waypoints_are_refused_per_movement() {
    let mover = base(10.0, 10.0, BaseSize::Small);
    let err = check_advance(&Table::default(), &mover, &[p(f64::NAN, 10.0)], 6.0, &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.not_finite");
}

// ---- Movement Restrictions ----

// seed 000 "Movement Restrictions": toward = "any path as long as the distance between the two models is decreasing".
#[test]
fn toward_needs_the_distance_decreasing_all_along_per_movement_restrictions() {
    let b = p(20.0, 10.0);
    let start = p(10.0, 10.0);
    let toward = MovementRestriction::Toward;
    assert!(check_restriction(toward, b, start, &[p(15.0, 10.0)]).is_ok());
    assert!(check_restriction(toward, b, start, &[p(12.0, 12.0), p(16.0, 11.0)]).is_ok());
    // Turning back away from B is refused.
    assert_eq!(
        check_restriction(toward, b, start, &[p(15.0, 10.0), p(12.0, 10.0)]).unwrap_err().code,
        "warmachine.movement.not_toward"
    );
    // A straight segment passing beside B gets closer, then farther: refused though it ends closer.
    let err = check_restriction(toward, b, start, &[p(22.0, 11.0)]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.not_toward");
    assert!(err.rule.contains("\"Movement Restrictions\""));
    // Stopping exactly at the closest approach (the foot of the perpendicular from B) is still decreasing all along.
    let closest = start.lerp(p(20.0, 11.0), 100.0 / 101.0);
    assert!(check_restriction(toward, b, start, &[closest]).is_ok());
    assert!(check_restriction(toward, b, start, &[start.lerp(p(20.0, 11.0), 100.5 / 101.0)]).is_err());
}

// seed 000 "Movement Restrictions": "Model A must move directly toward model B".
#[test]
fn directly_toward_is_one_straight_line_at_the_other_model_per_movement_restrictions() {
    let b = p(20.0, 14.0);
    let start = p(10.0, 10.0);
    let directly = MovementRestriction::DirectlyToward;
    let on_line = start.lerp(b, 0.4);
    assert!(check_restriction(directly, b, start, &[on_line]).is_ok());
    assert_eq!(
        check_restriction(directly, b, start, &[p(on_line.x, on_line.y + 0.1)]).unwrap_err().code,
        "warmachine.movement.not_directly_toward"
    );
    // Two legs along the same line are still one straight line only if given as one segment.
    let bent = [start.lerp(b, 0.2), p(15.0, 12.0)];
    assert!(check_restriction(directly, b, start, &bent).is_err());
    // Going past B's centre is not toward.
    assert!(check_restriction(directly, b, start, &[start.lerp(b, 1.2)]).is_err());
    // Moving directly away is not directly toward.
    assert!(check_restriction(directly, b, start, &[start.lerp(b, -0.5)]).is_err());
}

// seed 000 "Movement Restrictions": away = "any path as long as the distance between the models is increasing".
#[test]
fn away_needs_the_distance_increasing_all_along_per_movement_restrictions() {
    let b = p(20.0, 10.0);
    let start = p(10.0, 10.0);
    let away = MovementRestriction::Away;
    assert!(check_restriction(away, b, start, &[p(5.0, 10.0), p(3.0, 15.0)]).is_ok());
    // Perpendicular at the start: the distance grows from the first step.
    assert!(check_restriction(away, b, start, &[p(10.0, 16.0)]).is_ok());
    let err = check_restriction(away, b, start, &[p(5.0, 10.0), p(9.0, 10.0)]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.not_away");
    // Starting slightly toward B then veering off is refused.
    assert!(check_restriction(away, b, start, &[p(10.5, 16.0)]).is_err());
}

// seed 000 "Movement Restrictions": "Must move the most direct path away."
#[test]
fn directly_away_is_one_straight_line_away_per_movement_restrictions() {
    let b = p(20.0, 14.0);
    let start = p(10.0, 10.0);
    let directly = MovementRestriction::DirectlyAway;
    assert!(check_restriction(directly, b, start, &[b.lerp(start, 1.5)]).is_ok());
    assert_eq!(
        check_restriction(directly, b, start, &[p(5.0, 10.0)]).unwrap_err().code,
        "warmachine.movement.not_directly_away"
    );
    assert!(check_restriction(directly, b, start, &[b.lerp(start, 1.2), b.lerp(start, 1.5)]).is_err());
    assert!(check_restriction(directly, b, start, &[start.lerp(b, 0.1)]).is_err());
}

// seed 000 "Movement Restrictions": "a model can still forfeit its movement or choose not to move at all".
#[test]
fn not_moving_satisfies_every_restriction_per_movement_restrictions() {
    let (b, start) = (p(20.0, 10.0), p(10.0, 10.0));
    for restriction in [
        MovementRestriction::Toward,
        MovementRestriction::DirectlyToward,
        MovementRestriction::Away,
        MovementRestriction::DirectlyAway,
    ] {
        assert!(check_restriction(restriction, b, start, &[]).is_ok());
        assert!(check_restriction(restriction, b, start, &[start]).is_ok());
    }
}

// ---- terrain contact ----

// seed 000 "Independent model charges": "The model stops if it contacts ... an obstacle, or an obstruction."
#[test]
fn terrain_contact_is_where_the_base_touches_an_obstacle_or_obstruction_per_independent_model_charges() {
    let mover = base(10.0, 10.0, BaseSize::Small);
    let terrain = vec![
        feature(TerrainKind::Hazard, (11.0, 5.0), (11.5, 15.0)),
        feature(TerrainKind::Obstruction, (16.0, 5.0), (17.0, 15.0)),
        feature(TerrainKind::Obstacle, (14.0, 5.0), (15.0, 15.0)),
    ];
    let (index, travelled) = terrain_contact(&terrain, &mover, p(20.0, 10.0)).unwrap();
    assert_eq!(index, 2);
    assert!(close(travelled, 4.0 - SMALL));
    assert_eq!(terrain_contact(&terrain[..2], &mover, p(20.0, 10.0)).unwrap().0, 1);
    assert_eq!(terrain_contact(&terrain, &mover, p(10.0, 20.0)), None);
    assert_eq!(terrain_contact(&terrain, &mover, p(12.0, 10.0)), None);
}

// ---- Independent model charges ----

fn charger() -> Circle {
    base(10.0, 10.0, BaseSize::Small)
}

// seed 000 "Independent model charges": "in a straight line in any direction that brings its target into melee range".
#[test]
fn a_charge_direction_must_bring_the_target_into_melee_range_per_independent_model_charges() {
    let table = Table::default();
    let target = base(18.0, 10.0, BaseSize::Small);
    let err = resolve_charge(&table, &charger(), p(10.0, 18.0), 8.0, &[target], 0, 0.5).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.charge_direction");
    assert!(err.rule.contains("\"Independent model charges\""));
    // A line passing about 1.2″ from the target's edge misses with 0.5″ of melee range, reaches with 2″.
    let aside = p(18.0, 10.0 + 2.0 * SMALL + 1.3);
    let far = p(10.0 + (aside.x - 10.0) * 0.99, 10.0 + (aside.y - 10.0) * 0.99);
    assert!(resolve_charge(&table, &charger(), far, 9.0, &[target], 0, 0.5).is_err());
    let charge = resolve_charge(&table, &charger(), far, 9.0, &[target], 0, 2.0).unwrap();
    assert!(charge.in_melee_range);
}

// seed 000 "Independent model charges": "advances up to its SPD +3″".
#[test]
fn a_charge_may_not_exceed_spd_plus_three_per_independent_model_charges() {
    let target = base(30.0, 10.0, BaseSize::Small);
    let err = resolve_charge(&Table::default(), &charger(), p(19.5, 10.0), 9.0, &[target], 0, 0.5).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.charge_too_far");
}

// seed 000 "Independent model charges": "The model can't voluntarily stop its movement until its target is in melee range."
#[test]
fn a_charger_cannot_stop_before_its_target_is_in_melee_range_per_independent_model_charges() {
    let table = Table::default();
    let target = base(18.0, 10.0, BaseSize::Small);
    let entry = 8.0 - 2.0 * SMALL - 0.5;
    let err = resolve_charge(&table, &charger(), p(10.0 + entry - 0.1, 10.0), 9.0, &[target], 0, 0.5).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.charge_stopped_short");
    let charge = resolve_charge(&table, &charger(), p(10.0 + entry, 10.0), 9.0, &[target], 0, 0.5).unwrap();
    assert!(charge.in_melee_range);
    assert_eq!(charge.stopped_by, None);
    assert!(close(charge.travelled, entry));
}

// seed 000 "Independent model charges": "ignoring ... the distance to the charge target"; "If the model does not get into melee range of target the charge fails".
#[test]
fn a_charge_at_a_target_out_of_reach_runs_its_full_distance_and_fails_per_independent_model_charges() {
    let table = Table::default();
    let target = base(30.0, 10.0, BaseSize::Small);
    let short = resolve_charge(&table, &charger(), p(15.0, 10.0), 9.0, &[target], 0, 0.5).unwrap_err();
    assert_eq!(short.code, "warmachine.movement.charge_stopped_short");
    let charge = resolve_charge(&table, &charger(), p(19.0, 10.0), 9.0, &[target], 0, 0.5).unwrap();
    assert!(!charge.in_melee_range);
    assert!(close(charge.travelled, 9.0));
}

// seed 000 "Independent model charges": "can't voluntarily stop its movement until its target is in melee range";
// herald reads running through melee range and out again, short of the full distance, as stopping out of range.
#[test]
fn a_charger_cannot_stop_voluntarily_past_melee_range_per_independent_model_charges() {
    let table = Table::default();
    // The line passes 1.5″ from the target's edge: in range with a 2″ melee range, out again later.
    let target = base(15.0, 10.0 + 2.0 * SMALL + 1.5, BaseSize::Small);
    let err = resolve_charge(&table, &charger(), p(19.0, 10.0), 12.0, &[target], 0, 2.0).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.charge_stopped_short");
    assert!(resolve_charge(&table, &charger(), p(15.0, 10.0), 12.0, &[target], 0, 2.0).unwrap().in_melee_range);
    // Running the full distance is never a voluntary stop.
    let full = resolve_charge(&table, &charger(), p(19.0, 10.0), 9.0, &[target], 0, 2.0).unwrap();
    assert!(!full.in_melee_range);
}

// seed 000 "Independent model charges": "The model stops if it contacts a model".
#[test]
fn a_charge_stops_on_contacting_a_model_per_independent_model_charges() {
    let table = Table::default();
    let target = base(16.0, 10.0, BaseSize::Medium);
    let reach = SMALL + BaseSize::Medium.radius_inches();
    // Asking to go past the target: it stops in base contact with it, in melee range.
    let charge = resolve_charge(&table, &charger(), p(19.0, 10.0), 9.0, &[target], 0, 0.5).unwrap();
    assert_eq!(charge.stopped_by, Some(ChargeStop::Model(0)));
    assert!(close(charge.travelled, 6.0 - reach));
    assert!(charge.in_melee_range);
    assert!(close(edge_distance(&Circle { centre: charge.end, radius: SMALL }, &target), 0.0));
    // Another model in the way stops it short of the target: the charge fails.
    let blocker = base(12.0, 10.5, BaseSize::Small);
    let charge = resolve_charge(&table, &charger(), p(15.0, 10.0), 9.0, &[blocker, target], 1, 0.5).unwrap();
    assert_eq!(charge.stopped_by, Some(ChargeStop::Model(0)));
    assert!(!charge.in_melee_range);
    assert!(charge.travelled < 2.0);
}

// seed 000 "Independent model charges": "ignoring terrain" for the direction, but "stops if it contacts ... an obstacle".
#[test]
fn a_charge_ignores_terrain_for_direction_but_stops_on_contact_per_independent_model_charges() {
    let table = table_with(vec![feature(TerrainKind::Obstacle, (13.0, 5.0), (13.5, 15.0))]);
    let target = base(16.0, 10.0, BaseSize::Small);
    let charge = resolve_charge(&table, &charger(), p(16.0 - 2.0 * SMALL, 10.0), 9.0, &[target], 0, 0.5).unwrap();
    assert_eq!(charge.stopped_by, Some(ChargeStop::Terrain(0)));
    assert!(close(charge.end.x, 13.0 - SMALL));
    assert!(!charge.in_melee_range);
    // With a long melee range the model at the obstacle still reaches its target.
    let reach = resolve_charge(&table, &charger(), p(16.0 - 2.0 * SMALL, 10.0), 9.0, &[target], 0, 3.0).unwrap();
    assert!(reach.in_melee_range);
}

// seed 000 "Beyond the Play Area": a model stops at the table edge.
#[test]
fn a_charge_stops_at_the_table_edge_per_beyond_the_play_area() {
    let table = Table::default();
    let mover = base(44.0, 10.0, BaseSize::Small);
    let target = base(47.4, 14.0, BaseSize::Small);
    // Aimed past the target's side, with a 3″ melee range, toward the edge.
    let to = p(49.0, 12.0);
    let charge = resolve_charge(&table, &mover, to, 9.0, &[target], 0, 3.0).unwrap();
    assert_eq!(charge.stopped_by, Some(ChargeStop::TableEdge));
    assert!(close(charge.end.x, 48.0 - SMALL));
    assert!(table.contains(&Circle { centre: charge.end, radius: SMALL }));
}

#[test]
fn the_default_melee_range_is_half_an_inch() {
    assert_eq!(DEFAULT_MELEE_RANGE, 0.5);
}

#[test]
fn a_charge_target_must_be_among_the_models_per_independent_model_charges() {
    let target = base(18.0, 10.0, BaseSize::Small);
    let err = resolve_charge(&Table::default(), &charger(), p(15.0, 10.0), 9.0, &[target], 1, 0.5).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.charge_target");
}

// ---- Unit Movement ----

fn named(name: &str, c: Circle) -> (String, Circle) {
    (name.to_string(), c)
}

// seed 000 "Unit Movement": "place the remaining troopers in the unit within 2″ of that model".
#[test]
fn troopers_are_placed_within_two_inches_of_the_model_that_moved_per_unit_movement() {
    let table = Table::default();
    let moved = base(10.0, 10.0, BaseSize::Small);
    let at_two = base(10.0 + 2.0 * SMALL + UNIT_COHERENCY, 10.0, BaseSize::Small);
    let beside = base(10.0, 10.0 + 2.0 * SMALL + 0.5, BaseSize::Small);
    assert!(check_unit_placement(&table, &moved, &[named("a", at_two), named("b", beside)], &[]).is_ok());
    let too_far = base(10.0, 10.0 - 2.0 * SMALL - 2.01, BaseSize::Small);
    let err = check_unit_placement(&table, &moved, &[named("a", at_two), named("Grunt 3", too_far)], &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.unit_coherency");
    assert!(err.message.contains("Grunt 3"));
    assert!(err.rule.contains("\"Unit Movement\""));
}

// seed 000 "Unit Movement": "These models must be placed so they have line of sight to the trooper that moved."
#[test]
fn troopers_need_line_of_sight_to_the_model_that_moved_per_unit_movement() {
    let moved = base(10.0, 10.0, BaseSize::Small);
    let trooper = base(13.0, 10.0, BaseSize::Small);
    let wall = table_with(vec![feature(TerrainKind::Obstruction, (11.4, 8.0), (11.6, 12.0))]);
    let err = check_unit_placement(&wall, &moved, &[named("b", trooper)], &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.unit_line_of_sight");
    let low = table_with(vec![feature(TerrainKind::Obstacle, (11.4, 8.0), (11.6, 12.0))]);
    assert!(check_unit_placement(&low, &moved, &[named("b", trooper)], &[]).is_ok());
    // Another model's base of the same size in between blocks too.
    let between = base(11.5, 10.0, BaseSize::Small);
    let err = check_unit_placement(&Table::default(), &moved, &[named("b", trooper)], &[between]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.unit_line_of_sight");
}

// seed 000 "Movement", "Unit Movement": placed bases may not overlap any other base.
#[test]
fn placed_troopers_may_not_overlap_any_base_per_unit_movement() {
    let table = Table::default();
    let moved = base(10.0, 10.0, BaseSize::Small);
    let a = base(10.0, 12.0, BaseSize::Small);
    let on_a = base(10.5, 12.2, BaseSize::Small);
    let err = check_unit_placement(&table, &moved, &[named("a", a), named("b", on_a)], &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.unit_overlapping");
    let on_moved = base(10.8, 10.0, BaseSize::Small);
    assert!(check_unit_placement(&table, &moved, &[named("c", on_moved)], &[]).is_err());
    let enemy = base(12.0, 8.0, BaseSize::Small);
    let on_enemy = base(12.3, 8.3, BaseSize::Small);
    assert!(check_unit_placement(&table, &moved, &[named("d", on_enemy)], &[enemy]).is_err());
    let corner = base(1.0, 10.0, BaseSize::Small);
    let off = base(0.3, 10.0, BaseSize::Small);
    let err = check_unit_placement(&table, &corner, &[named("e", off)], &[]).unwrap_err();
    assert_eq!(err.code, "warmachine.movement.unit_off_table");
}

// seed 000 "Unit Movement": "Troopers that cannot be placed within 2″ of the trooper models that moved are destroyed."
#[test]
fn a_spot_is_found_when_one_exists_and_none_when_boxed_in_per_unit_movement() {
    let table = Table::default();
    let moved = base(10.0, 10.0, BaseSize::Small);
    let crowd = [base(10.0 + 2.0 * SMALL, 10.0, BaseSize::Small), base(10.0, 10.0 + 2.0 * SMALL, BaseSize::Small)];
    let spot = find_unit_placement(&table, &moved, SMALL, &crowd).unwrap();
    let placed = Circle { centre: spot, radius: SMALL };
    assert!(check_unit_placement(&table, &moved, &[named("x", placed)], &crowd).is_ok());
    assert!(within(&placed, &moved, UNIT_COHERENCY));
    // Boxed in by obstructions just outside its base: nowhere it can be seen from.
    let h = SMALL + 0.05;
    let walls = vec![
        feature(TerrainKind::Obstruction, (10.0 - h - 0.1, 10.0 - h - 0.1), (10.0 + h + 0.1, 10.0 - h)),
        feature(TerrainKind::Obstruction, (10.0 - h - 0.1, 10.0 + h), (10.0 + h + 0.1, 10.0 + h + 0.1)),
        feature(TerrainKind::Obstruction, (10.0 - h - 0.1, 10.0 - h - 0.1), (10.0 - h, 10.0 + h + 0.1)),
        feature(TerrainKind::Obstruction, (10.0 + h, 10.0 - h - 0.1), (10.0 + h + 0.1, 10.0 + h + 0.1)),
    ];
    assert_eq!(find_unit_placement(&table_with(walls), &moved, SMALL, &[]), None);
}

// ---- properties ----

fn any_base() -> impl Strategy<Value = Circle> {
    let size = prop_oneof![Just(BaseSize::Small), Just(BaseSize::Medium), Just(BaseSize::Large), Just(BaseSize::Huge)];
    (2.0..46.0f64, 2.0..46.0f64, size).prop_map(|(x, y, s)| base(x, y, s))
}

fn any_point() -> impl Strategy<Value = Point> {
    (0.0..48.0f64, 0.0..48.0f64).prop_map(|(x, y)| p(x, y))
}

fn any_terrain() -> impl Strategy<Value = Vec<TerrainFeature>> {
    let kind = prop_oneof![Just(TerrainKind::Obstacle), Just(TerrainKind::Obstruction), Just(TerrainKind::Hazard)];
    let one = (kind, 0.0..44.0f64, 0.0..44.0f64, 0.2..4.0f64, 0.2..4.0f64)
        .prop_map(|(k, x, y, w, h)| feature(k, (x, y), (x + w, y + h)));
    prop::collection::vec(one, 0..3)
}

proptest! {
    // seed 000 "Full Advance", "Movement": a legal advance stays within its allowance, on the table, and
    // never ends overlapping another base.
    #[test]
    fn a_legal_advance_never_exceeds_its_allowance_nor_ends_overlapping_per_full_advance(
        mover in any_base(),
        others in prop::collection::vec(any_base(), 0..4),
        path in prop::collection::vec(any_point(), 0..4),
        max in 0.0..30.0f64,
        terrain in any_terrain(),
    ) {
        let table = table_with(terrain);
        if let Ok(advance) = check_advance(&table, &mover, &path, max, &others) {
            prop_assert!(advance.distance <= max + 1e-9);
            let end = Circle { centre: advance.end, radius: mover.radius };
            if !path.is_empty() {
                prop_assert!(table.contains(&end));
                prop_assert!(others.iter().all(|o| !overlaps(&end, o)));
            }
        }
    }

    // seed 000 "Independent model charges": a charge never goes beyond SPD + 3″, never stops
    // voluntarily before the target is in melee range, and never ends overlapping a base.
    #[test]
    fn a_charge_never_stops_voluntarily_nor_goes_too_far_per_independent_model_charges(
        mover in any_base(),
        others in prop::collection::vec(any_base(), 1..4),
        to in any_point(),
        max in 0.0..15.0f64,
        melee in 0.0..3.0f64,
        terrain in any_terrain(),
    ) {
        let clear = others.iter().all(|o| !overlaps(&mover, o));
        let table = table_with(terrain);
        prop_assume!(clear && table.contains(&mover));
        if let Ok(charge) = resolve_charge(&table, &mover, to, max, &others, 0, melee) {
            prop_assert!(charge.travelled <= max + 1e-9);
            let end = Circle { centre: charge.end, radius: mover.radius };
            prop_assert!(table.contains(&end));
            prop_assert!(others.iter().all(|o| !overlaps(&end, o)));
            prop_assert!(charge.in_melee_range || charge.stopped_by.is_some() || (charge.travelled - max).abs() < 1e-6);
        }
    }

    // seed 000 "Movement Restrictions": an accepted Toward path gets closer all along; Away farther.
    #[test]
    fn accepted_restricted_paths_keep_the_distance_monotonic_per_movement_restrictions(
        other in any_point(),
        start in any_point(),
        path in prop::collection::vec(any_point(), 1..4),
    ) {
        let points: Vec<Point> = std::iter::once(start).chain(path.iter().copied()).collect();
        let samples: Vec<f64> = points
            .windows(2)
            .flat_map(|pair| (0..=20).map(move |i| pair[0].lerp(pair[1], f64::from(i) / 20.0)))
            .map(|q| q.distance(other))
            .collect();
        if check_restriction(MovementRestriction::Toward, other, start, &path).is_ok() {
            prop_assert!(samples.windows(2).all(|w| w[1] <= w[0] + 1e-9));
        }
        if check_restriction(MovementRestriction::Away, other, start, &path).is_ok() {
            prop_assert!(samples.windows(2).all(|w| w[1] >= w[0] - 1e-9));
        }
    }

    // seed 000 "Unit Movement": a spot found for a trooper is one the placement check accepts.
    #[test]
    fn a_found_placement_is_a_legal_placement_per_unit_movement(
        moved in any_base(),
        occupied in prop::collection::vec(any_base(), 0..6),
        radius in prop_oneof![Just(SMALL), Just(BaseSize::Medium.radius_inches())],
        terrain in any_terrain(),
    ) {
        let table = table_with(terrain);
        prop_assume!(occupied.iter().all(|o| !overlaps(o, &moved)));
        if let Some(spot) = find_unit_placement(&table, &moved, radius, &occupied) {
            let placed = [("t".to_string(), Circle { centre: spot, radius })];
            prop_assert!(check_unit_placement(&table, &moved, &placed, &occupied).is_ok());
        }
    }
}
