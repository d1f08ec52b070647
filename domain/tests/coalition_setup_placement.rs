//! Where the armies start and where the judge drops them (seed 003 §2.5.2.3).

#[path = "coalition_setup_support.rs"]
mod support;

use herald_domain::coalition::{
    army::Team,
    map::{Faction, Map, MapBounds, SiteKind, Square, Terrain},
    setup::{place_armies, validate_start_base, PlacementRequest},
};
use proptest::prelude::*;
use support::*;

fn request(army: &str, team: Team, colors: &[Faction], base: &str) -> PlacementRequest {
    PlacementRequest { army: army.into(), team, colors: colors.to_vec(), base: sq(base) }
}

#[test]
fn coalition_armies_start_by_a_base_of_their_colors_seed_003_2_5_2_3() {
    let map = standard_map();
    let sai_rei = |base: &str| request("Sai Rei", Team::Coalition, &[Faction::Black, Faction::Red], base);
    assert_eq!(validate_start_base(&map, &sai_rei("30A")), Ok(()), "Red Base");
    assert_eq!(validate_start_base(&map, &sai_rei("34I")), Ok(()), "Black Base");
    assert_eq!(code(validate_start_base(&map, &sai_rei("32C"))), "coalition.setup.start_base_not_member");
    assert_eq!(code(validate_start_base(&map, &sai_rei("2B"))), "coalition.setup.start_not_own_base");
    assert_eq!(code(validate_start_base(&map, &sai_rei("18C"))), "coalition.setup.start_not_own_base");
    assert_eq!(code(validate_start_base(&map, &sai_rei("20A"))), "coalition.setup.start_not_a_base");
}

#[test]
fn phyrexian_armies_start_by_a_portal_and_mercenaries_are_not_placed_by_request_seed_003_2_5_2_3() {
    let map = standard_map();
    assert_eq!(validate_start_base(&map, &request("Crovax", Team::Phyrexia, &[], "3H")), Ok(()));
    assert_eq!(
        code(validate_start_base(&map, &request("Crovax", Team::Phyrexia, &[], "30A"))),
        "coalition.setup.start_not_own_base"
    );
    assert_eq!(
        code(validate_start_base(&map, &request("Raiders", Team::Mercenary, &[], "3H"))),
        "coalition.setup.mercenary_placement"
    );
}

#[test]
fn armies_are_dropped_beside_their_base_nearest_first_in_reading_order_seed_003_2_5_2_3() {
    let map = standard_map();
    let requests: Vec<_> =
        ["A", "B", "C", "D", "E"].iter().map(|name| request(name, Team::Phyrexia, &[], "4E")).collect();
    let placed = place_armies(&map, &requests, &[sq("4D")]).unwrap_or_default();
    let squares: Vec<String> = placed.iter().map(|(_, square)| square.to_string()).collect();
    // 4D is occupied; the other three neighbours of 4E, then the distance-2 ring from row 2.
    assert_eq!(squares, ["3E", "4F", "5E", "2E", "3D"]);
}

#[test]
fn ocean_is_used_only_when_no_land_square_is_left_seed_003_2_5_2_3() {
    let mut map = Map { bounds: MapBounds { columns: 3, rows: 3 }, ..Map::default() };
    add(&mut map, site("Portal", "2B", SiteKind::Portal, true));
    for square in ["1B", "2A", "2C", "3B"] {
        map.terrain.insert(sq(square), Terrain::Ocean);
    }
    let requests: Vec<_> = (0..6).map(|n| request(&format!("Army {n}"), Team::Phyrexia, &[], "2B")).collect();
    let placed = place_armies(&map, &requests, &[]).unwrap_or_default();
    let squares: Vec<String> = placed.iter().map(|(_, square)| square.to_string()).collect();
    assert_eq!(squares, ["1A", "1C", "3A", "3C", "1B", "2A"]);
}

#[test]
fn placement_refuses_a_full_map_and_an_army_asked_for_twice_seed_003_2_5_2_3() {
    let mut map = Map { bounds: MapBounds { columns: 2, rows: 1 }, ..Map::default() };
    add(&mut map, site("Portal", "1A", SiteKind::Portal, true));
    let one = request("One", Team::Phyrexia, &[], "1A");
    let two = request("Two", Team::Phyrexia, &[], "1A");
    assert_eq!(code(place_armies(&map, &[one, two], &[])), "coalition.setup.no_room_to_place");
    let crovax = request("Crovax", Team::Phyrexia, &[], "2B");
    let again = request("crovax", Team::Phyrexia, &[], "4E");
    assert_eq!(code(place_armies(&standard_map(), &[crovax, again], &[])), "coalition.setup.army_placed_twice");
}

fn request_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..12, 0..60)
}

proptest! {
    /// seed 003 §2.5.2.3: however many armies are dropped by whichever bases, no two share a square,
    /// none lands on a site or an occupied square, all stay on the map, and the result is the same
    /// every time.
    #[test]
    fn placement_never_puts_two_armies_on_one_square_and_always_on_the_map_seed_003_2_5_2_3(
        picks in request_strategy(),
        occupied in prop::collection::vec((1u8..=38, 0u8..14), 0..40),
        ocean in prop::collection::vec((1u8..=38, 0u8..14), 0..200),
    ) {
        let mut map = standard_map();
        for (row, column) in ocean {
            map.terrain.insert(Square { row, column }, Terrain::Ocean);
        }
        let sites: Vec<_> = map.sites.values().filter(|site| site.kind != SiteKind::Town).cloned().collect();
        let requests: Vec<_> = picks
            .iter()
            .enumerate()
            .map(|(n, pick)| {
                let site = &sites[pick % sites.len()];
                match site.kind {
                    SiteKind::Base { color } => request(&format!("Army {n}"), Team::Coalition, &[color], &site.square.to_string()),
                    _ => request(&format!("Army {n}"), Team::Phyrexia, &[], &site.square.to_string()),
                }
            })
            .collect();
        let occupied: std::collections::BTreeSet<_> =
            occupied.into_iter().map(|(row, column)| Square { row, column }).collect();
        let occupied_list: Vec<_> = occupied.iter().copied().collect();
        let placed = place_armies(&map, &requests, &occupied_list);
        prop_assert_eq!(&placed, &place_armies(&map, &requests, &occupied_list));
        let placed = placed.map_err(|error| TestCaseError::fail(error.to_string()))?;
        prop_assert_eq!(placed.len(), requests.len());
        let mut seen = std::collections::BTreeSet::new();
        for (army, square) in &placed {
            prop_assert!(map.contains(*square), "{} off the map at {}", army, square);
            prop_assert!(map.site_at(*square).is_none(), "{} dropped on a site at {}", army, square);
            prop_assert!(!occupied.contains(square), "{} dropped on an occupied square {}", army, square);
            prop_assert!(seen.insert(*square), "two armies on {}", square);
        }
        for ((_, square), request) in placed.iter().zip(&requests) {
            let is_ocean = map.terrain_at(*square) == Terrain::Ocean;
            // Nothing nearer, of the same or better terrain, was left empty.
            let nearer_land_left = map.bounds.squares().any(|other| {
                !seen.contains(&other) && !occupied.contains(&other) && map.site_at(other).is_none()
                    && map.terrain_at(other) != Terrain::Ocean
                    && (is_ocean || other.distance(request.base) < square.distance(request.base))
            });
            prop_assert!(!nearer_land_left, "{} could have been nearer its base", square);
        }
    }
}
