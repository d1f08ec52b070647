//! The Warmachine table (seed 000 "Measuring Distances", "Movement", "Beyond the Play Area",
//! "Falling") and herald's documented line of sight.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_domain::warmachine::model::BaseSize;
use herald_domain::warmachine::table::{
    edge_distance, fall_height, first_contact, has_line_of_sight, overlaps, passes_over_base, sight_blocker,
    surface_height, terrain_in_path, within, Circle, Point, Position, Rect, Shape, SightBlocker, Table, TerrainFeature,
    TerrainKind,
};
use proptest::prelude::*;

fn base(x: f64, y: f64, size: BaseSize) -> Circle {
    Position { x, y, facing: 0.0, elevation: 0.0 }.base(size)
}

fn wall(kind: TerrainKind, min: (f64, f64), max: (f64, f64)) -> TerrainFeature {
    TerrainFeature {
        name: "wall".into(),
        kind,
        shape: Shape::Rect(Rect { min: Point::new(min.0, min.1), max: Point::new(max.0, max.1) }),
        height: 2.0,
    }
}

#[test]
fn distance_is_measured_edge_to_edge_with_different_base_sizes_per_measuring_distances() {
    let small = base(10.0, 10.0, BaseSize::Small);
    let large = base(20.0, 10.0, BaseSize::Large);
    let expected = 10.0 - BaseSize::Small.radius_inches() - BaseSize::Large.radius_inches();
    assert!((edge_distance(&small, &large) - expected).abs() < 1e-12);
    assert!((edge_distance(&large, &small) - expected).abs() < 1e-12);
}

#[test]
fn a_model_exactly_at_the_distance_is_within_it_per_measuring_distances() {
    let a = base(10.0, 10.0, BaseSize::Small);
    let r = BaseSize::Small.radius_inches() + BaseSize::Medium.radius_inches();
    // 2" edge to edge on a diagonal, where the square root is inexact.
    let d = (2.0 + r) / 2.0_f64.sqrt();
    let b = base(10.0 + d, 10.0 + d, BaseSize::Medium);
    assert!(within(&a, &b, 2.0));
    assert!(!within(&a, &b, 1.999));
}

#[test]
fn overlapping_bases_are_within_zero_and_touching_bases_do_not_overlap_per_measuring_distances() {
    let a = base(10.0, 10.0, BaseSize::Large);
    let b = base(10.5, 10.0, BaseSize::Small);
    assert!(overlaps(&a, &b));
    assert_eq!(edge_distance(&a, &b), 0.0);
    assert!(within(&a, &b, 0.0));
    let touching = base(10.0 + 2.0 * BaseSize::Large.radius_inches(), 10.0, BaseSize::Large);
    assert!(!overlaps(&a, &touching));
    assert!(within(&a, &touching, 0.0));
}

#[test]
fn obstructions_block_line_of_sight_and_obstacles_do_not() {
    let viewer = base(5.0, 10.0, BaseSize::Small);
    let target = base(15.0, 10.0, BaseSize::Small);
    let blocked = vec![wall(TerrainKind::Obstruction, (9.0, 5.0), (10.0, 15.0))];
    assert_eq!(sight_blocker(&blocked, &viewer, &target, &[]), Some(SightBlocker::Terrain(0)));
    let low = vec![wall(TerrainKind::Obstacle, (9.0, 5.0), (10.0, 15.0))];
    assert!(has_line_of_sight(&low, &viewer, &target, &[]));
    let aside = vec![wall(TerrainKind::Obstruction, (9.0, 11.0), (10.0, 15.0))];
    assert!(has_line_of_sight(&aside, &viewer, &target, &[]));
}

#[test]
fn intervening_bases_block_sight_unless_smaller_than_the_target() {
    let viewer = base(5.0, 10.0, BaseSize::Medium);
    let target = base(15.0, 10.0, BaseSize::Medium);
    let medium = base(10.0, 10.0, BaseSize::Medium);
    let small = base(10.0, 10.0, BaseSize::Small);
    assert_eq!(sight_blocker(&[], &viewer, &target, &[small, medium]), Some(SightBlocker::Model(1)));
    assert!(has_line_of_sight(&[], &viewer, &target, &[small]));
    let grazing = base(10.0, 10.0 + BaseSize::Medium.radius_inches(), BaseSize::Medium);
    assert!(has_line_of_sight(&[], &viewer, &target, &[grazing]));
}

#[test]
fn a_base_may_not_pass_over_another_base_per_movement() {
    let mover = base(5.0, 10.0, BaseSize::Small);
    let blocker = base(10.0, 10.0, BaseSize::Small);
    let contact = first_contact(&mover, Point::new(15.0, 10.0), &[blocker]).unwrap();
    let expected = 5.0 - 2.0 * BaseSize::Small.radius_inches();
    assert!((contact.travelled - expected).abs() < 1e-9);
    // Ending base to base is allowed, as is passing alongside.
    let to_contact = Point::new(10.0 - 2.0 * BaseSize::Small.radius_inches(), 10.0);
    assert!(!passes_over_base(&mover, to_contact, &[blocker]));
    let beside = base(10.0, 10.0 + 2.0 * BaseSize::Small.radius_inches(), BaseSize::Small);
    assert!(!passes_over_base(&mover, Point::new(15.0, 10.0), &[beside]));
    // Moving away from a base it touches is allowed; moving into it is not.
    let touching = Circle { centre: Point::new(to_contact.x, 10.0), radius: mover.radius };
    assert!(!passes_over_base(&touching, Point::new(0.0, 10.0), &[blocker]));
    assert!(passes_over_base(&touching, Point::new(12.0, 10.0), &[blocker]));
}

#[test]
fn the_nearest_contact_is_reported_per_charge() {
    let mover = base(0.0 + 1.0, 10.0, BaseSize::Medium);
    let far = base(12.0, 10.0, BaseSize::Large);
    let near = base(6.0, 10.5, BaseSize::Small);
    assert_eq!(first_contact(&mover, Point::new(20.0, 10.0), &[far, near]).map(|c| c.index), Some(1));
    let terrain = vec![wall(TerrainKind::Obstacle, (8.0, 0.0), (9.0, 9.5))];
    assert_eq!(terrain_in_path(&terrain, &mover, Point::new(20.0, 10.0)), Some(0));
    assert_eq!(terrain_in_path(&terrain, &mover, Point::new(20.0, 11.0)), None);
}

#[test]
fn placement_must_be_on_the_table_and_not_overlap_per_beyond_the_play_area() {
    let table = Table::default();
    let placed = base(10.0, 10.0, BaseSize::Medium);
    assert!(table.check_placement(&placed, &[]).is_ok());
    let edge = base(BaseSize::Medium.radius_inches(), 10.0, BaseSize::Medium);
    assert!(table.check_placement(&edge, &[]).is_ok());
    let off = base(0.5, 10.0, BaseSize::Medium);
    assert_eq!(table.check_placement(&off, &[]).unwrap_err().code, "warmachine.table.off_table");
    let on_top = base(10.5, 10.0, BaseSize::Small);
    assert_eq!(table.check_placement(&on_top, &[placed]).unwrap_err().code, "warmachine.table.overlapping_bases");
    let nan = base(f64::NAN, 1.0, BaseSize::Small);
    assert_eq!(table.check_placement(&nan, &[]).unwrap_err().code, "warmachine.table.not_finite");
    let bad = Table { width: 0.0, ..Table::default() };
    assert_eq!(bad.validate().unwrap_err().code, "warmachine.table.size");
}

#[test]
fn a_model_moved_beyond_the_edge_stops_at_it_per_beyond_the_play_area() {
    let table = Table::default();
    let r = BaseSize::Large.radius_inches();
    let thrown = base(40.0, 24.0, BaseSize::Large);
    let stop = table.stop_at_edge(&thrown, Point::new(56.0, 32.0));
    assert!((stop.x - (48.0 - r)).abs() < 1e-9);
    assert!((stop.y - (24.0 + (48.0 - r - 40.0) / 2.0)).abs() < 1e-9);
    assert_eq!(table.stop_at_edge(&thrown, Point::new(44.0, 24.0)), Point::new(44.0, 24.0));
}

#[test]
fn falling_starts_at_one_full_inch_lower_per_falling() {
    let hill = TerrainFeature {
        name: "hill".into(),
        kind: TerrainKind::ElevatedSurface,
        shape: Shape::Circle(Circle { centre: Point::new(10.0, 10.0), radius: 3.0 }),
        height: 3.0,
    };
    let terrain = vec![hill];
    assert_eq!(surface_height(&terrain, Point::new(11.0, 10.0)), 3.0);
    assert_eq!(surface_height(&terrain, Point::new(20.0, 10.0)), 0.0);
    assert_eq!(fall_height(3.0, 0.0), Some(3.0));
    assert_eq!(fall_height(3.0, 2.0), Some(1.0));
    assert_eq!(fall_height(3.0, 2.5), None);
}

fn any_base() -> impl Strategy<Value = Circle> {
    let size = prop_oneof![Just(BaseSize::Small), Just(BaseSize::Medium), Just(BaseSize::Large), Just(BaseSize::Huge)];
    (0.0..48.0f64, 0.0..48.0f64, size).prop_map(|(x, y, s)| base(x, y, s))
}

proptest! {
    #[test]
    fn distance_is_symmetric_and_never_negative_per_measuring_distances(a in any_base(), b in any_base()) {
        let ab = edge_distance(&a, &b);
        prop_assert!(ab >= 0.0);
        prop_assert_eq!(ab, edge_distance(&b, &a));
        prop_assert_eq!(within(&a, &b, 3.0), within(&b, &a, 3.0));
    }

    #[test]
    fn overlapping_bases_are_within_zero_per_measuring_distances(a in any_base(), b in any_base()) {
        if overlaps(&a, &b) {
            prop_assert!(within(&a, &b, 0.0));
            prop_assert_eq!(edge_distance(&a, &b), 0.0);
        }
    }

    #[test]
    fn a_clear_path_never_ends_overlapping_a_base_per_movement(a in any_base(), b in any_base(), x in 0.0..48.0f64, y in 0.0..48.0f64) {
        let to = Point::new(x, y);
        let end = Circle { centre: to, radius: a.radius };
        if !overlaps(&a, &b) && !passes_over_base(&a, to, &[b]) {
            prop_assert!(!overlaps(&end, &b));
        }
    }
}

#[test]
fn a_position_without_an_elevation_stays_without_one_when_read_back_from_the_log_seed_000_falling() {
    // Left out, the elevation is "on the surface under the centre"; given as 0, it is 0. Both
    // survive a trip through JSON (commands are stored as JSON and re-run to verify a battle).
    let left_out: Position = serde_json::from_str(r#"{"x": 1.0, "y": 2.0}"#).unwrap();
    assert!(!left_out.elevation_given());
    assert_eq!(left_out.elevation, 0.0, "it compares as 0 wherever an f64 is read");
    assert_eq!(serde_json::to_value(left_out).unwrap(), serde_json::json!({"x": 1.0, "y": 2.0, "facing": 0.0}));
    let read_back: Position = serde_json::from_value(serde_json::to_value(left_out).unwrap()).unwrap();
    assert!(!read_back.elevation_given());
    let given: Position = serde_json::from_str(r#"{"x": 1.0, "y": 2.0, "elevation": 0}"#).unwrap();
    assert!(given.elevation_given());
    let read_back: Position = serde_json::from_value(serde_json::to_value(given).unwrap()).unwrap();
    assert!(read_back.elevation_given() && read_back.elevation == 0.0);
    assert!(!Position { x: 1.0, y: 2.0, facing: 0.0, elevation: Position::ON_SURFACE }.elevation_given());
}
