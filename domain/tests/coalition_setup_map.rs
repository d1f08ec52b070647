//! The map a round starts on: sites, spacing and win conditions (seed 003 §2.5.1).

#[path = "coalition_setup_support.rs"]
mod support;

use herald_domain::coalition::{
    map::{Faction, Map, MapBounds, SiteKind, Terrain},
    setup::{validate_setup, validate_win_conditions, SetupRules},
};
use support::*;

#[test]
fn a_map_with_5_portals_7_bases_and_3_towns_is_a_legal_start_seed_003_2_5_1() {
    assert_eq!(validate_setup(&standard_map(), &SetupRules::default()), Ok(()));
}

#[test]
fn a_map_missing_a_portal_a_base_or_a_town_is_refused_seed_003_2_5_1() {
    for (square, wanted) in [
        ("2B", "coalition.setup.portal_count"),
        ("30A", "coalition.setup.base_count"),
        ("18C", "coalition.setup.town_count"),
    ] {
        let mut map = standard_map();
        map.sites.remove(&sq(square));
        assert_eq!(code(validate_setup(&map, &SetupRules::default())), wanted, "without {square}");
    }
}

#[test]
fn two_bases_of_one_color_are_refused_seed_003_1_1_2() {
    let mut map = standard_map();
    add(&mut map, site("Second Red Base", "36B", SiteKind::Base { color: Faction::Red }, false));
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.duplicate_base_color");
}

#[test]
fn a_site_off_the_map_or_filed_under_another_square_is_refused_seed_003_1_2() {
    let mut map = standard_map();
    let mut off = site("Lost Town", "18C", SiteKind::Town, false);
    off.square = sq("39C");
    map.sites.remove(&sq("18C"));
    map.sites.insert(sq("39C"), off.clone());
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.site_off_map");

    map.sites.remove(&sq("39C"));
    map.sites.insert(sq("18C"), off);
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.site_square_mismatch");

    let mut map = standard_map();
    map.terrain.insert(sq("1O"), Terrain::Ocean);
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.terrain_off_map");
}

#[test]
fn a_destroyed_site_cannot_start_a_round_seed_003_2_5_1() {
    let mut map = standard_map();
    if let Some(base) = map.sites.get_mut(&sq("30A")) {
        base.destroyed = true;
    }
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.site_destroyed_at_start");
}

#[test]
fn a_base_less_than_3_squares_from_a_portal_is_refused_and_exactly_3_is_allowed_seed_003_2_5_1_1() {
    let mut map = standard_map();
    map.sites.remove(&sq("30A"));
    add(&mut map, site("Red Base", "4A", SiteKind::Base { color: Faction::Red }, true));
    // 4A to the portal at 2B is 3 steps (2 rows, 1 column).
    assert_eq!(validate_setup(&map, &SetupRules::default()), Ok(()));
    map.sites.remove(&sq("4A"));
    add(&mut map, site("Red Base", "3A", SiteKind::Base { color: Faction::Red }, true));
    let error = validate_setup(&map, &SetupRules::default()).err();
    assert_eq!(error.as_ref().map(|e| e.code.as_str()), Some("coalition.setup.bases_too_close"));
    assert_eq!(error.map(|e| e.rule), Some("seed 003 §2.5.1.1".to_string()));
}

#[test]
fn friendly_bases_and_towns_may_stand_next_to_anything_seed_003_2_5_1_1_and_2_5_1_4() {
    let mut map = standard_map();
    // Two Coalition bases side by side, and a town right next to a portal.
    map.sites.remove(&sq("32C"));
    add(&mut map, site("White Base", "30B", SiteKind::Base { color: Faction::White }, true));
    map.sites.remove(&sq("18C"));
    add(&mut map, site("Town 1", "2C", SiteKind::Town, false));
    assert_eq!(validate_setup(&map, &SetupRules::default()), Ok(()));
}

#[test]
fn every_portal_is_a_win_condition_seed_003_2_5_1_3() {
    let mut map = standard_map();
    if let Some(portal) = map.sites.get_mut(&sq("4E")) {
        portal.win_condition = false;
    }
    assert_eq!(code(validate_win_conditions(&map, &SetupRules::default())), "coalition.setup.portal_not_win_condition");
}

#[test]
fn the_coalition_names_exactly_5_bases_as_win_conditions_seed_003_2_5_1_3() {
    for (square, named) in [("30M", true), ("30A", false)] {
        let mut map = standard_map();
        if let Some(base) = map.sites.get_mut(&sq(square)) {
            base.win_condition = named;
        }
        assert_eq!(
            code(validate_setup(&map, &SetupRules::default())),
            "coalition.setup.coalition_win_condition_count",
            "{} bases named",
            if named { 6 } else { 4 }
        );
    }
}

#[test]
fn a_town_is_never_a_win_condition_seed_003_2_5_1_3() {
    let mut map = standard_map();
    if let Some(town) = map.sites.get_mut(&sq("19G")) {
        town.win_condition = true;
    }
    assert_eq!(code(validate_win_conditions(&map, &SetupRules::default())), "coalition.setup.town_win_condition");
}

#[test]
fn a_smaller_campaign_sets_its_own_counts_seed_003_2_5_1() {
    let mut map = Map { bounds: MapBounds { columns: 6, rows: 8 }, ..Map::default() };
    add(&mut map, site("Portal", "1A", SiteKind::Portal, true));
    add(&mut map, site("Red Base", "8F", SiteKind::Base { color: Faction::Red }, true));
    add(&mut map, site("Blue Base", "7F", SiteKind::Base { color: Faction::Blue }, false));
    add(&mut map, site("Town", "4C", SiteKind::Town, false));
    let rules = SetupRules { portals: 1, bases: 2, towns: 1, min_enemy_distance: 3, coalition_win_conditions: 1 };
    assert_eq!(validate_setup(&map, &rules), Ok(()));
    assert_eq!(code(validate_setup(&map, &SetupRules::default())), "coalition.setup.portal_count");
}
