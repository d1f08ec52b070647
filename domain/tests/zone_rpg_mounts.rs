//! Mounts and vehicles (seed 001 "Mounts and vehicles in combat"): taking turns together,
//! riders keeping their turn to react, full speed leaving riders idle, individual targets,
//! impaired riders' attacks, getting on and off, and falling.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    character::Size, command::Action, state::character::TurnUse, ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

fn horse_and_rider() -> Table {
    let (zones, borders) = chain(&["a", "b", "c", "d", "e"]);
    let mut horse = character("horse", PARTY, "a").size(Size::Large).speed(4);
    horse.controller = Some("alice".into());
    horse.carries = 1;
    let mut knight = pc("knight", "alice", "a").armed(weapon("lance", 8));
    knight.riding = Some("horse".into());
    table(vec![horse, knight, pc("squire", "bob", "a"), npc("bandit", "b").health(30).armed(weapon("axe", 6))])
        .zones(zones, borders)
}

fn ride(fight: &mut Fight, path: &[&str]) -> Vec<E> {
    fight.gm(walk("horse", path))
}

#[test]
fn a_mount_and_its_rider_take_their_turn_together_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut fight = given(&horse_and_rider(), 0);
    fight.start_round(PARTY);
    let events = fight.by(player("alice"), take_turn("knight"));
    assert!(matches!(&events[0], E::TurnTaken { characters, .. } if characters == &["horse", "knight"]));
    ride(&mut fight, &["b"]);
    assert_eq!((fight.character("horse").zone.as_str(), fight.character("knight").zone.as_str()), ("b", "b"));
    fight.refused(walk("knight", &["c"]), "zone-rpg.mounted", "Mounts and vehicles in combat");
}

#[test]
fn a_rider_who_does_nothing_keeps_its_turn_to_react_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut fight = given(&horse_and_rider(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("horse"));
    ride(&mut fight, &["b"]);
    let events = fight.gm(end_turn());
    assert!(matches!(&events[0], E::TurnEnded { reserved, .. } if reserved == &["knight"]));
    assert_eq!((fight.character("horse").turn, fight.character("knight").turn), (TurnUse::Used, TurnUse::Reserved));
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "knight"));
    fight.gm(dodge("knight"));
    assert_eq!(fight.character("knight").turn, TurnUse::Used);
    // Mounts, riders and passengers are targeted individually.
    assert_eq!(fight.character("horse").health, 10);
}

#[test]
fn at_full_speed_riders_can_neither_act_nor_react_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut fight = given(&horse_and_rider(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("horse"));
    ride(&mut fight, &["b", "c", "d"]);
    // The bandit in b lets them pass.
    fight.gm(decline("bandit"));
    fight.refused(perform("knight", Action::Say {}), "zone-rpg.turn_over", "Taking a turn");
    fight.gm(end_turn());
    assert_eq!(fight.character("knight").turn, TurnUse::Used);
    assert!(!fight.character("knight").can_react());
}

#[test]
fn a_mount_whose_rider_acted_cannot_go_at_full_speed_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut fight = given(&horse_and_rider(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("horse"));
    fight.gm(perform("knight", Action::Say {}));
    fight.refused(walk("horse", &["b", "c", "d"]), "zone-rpg.riders_acted", "Mounts and vehicles in combat");
    ride(&mut fight, &["b", "c"]);
}

#[test]
fn attacks_made_by_riders_are_impaired_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut fight = given(&horse_and_rider(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("horse"));
    ride(&mut fight, &["b"]);
    fight.gm(attack("knight", Some("lance"), "bandit"));
    fight.gm(decline("bandit"));
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    assert_eq!((rolls[0].impaired, rolls[0].die.as_str()), (true, "d4"));
}

#[test]
fn getting_on_counts_as_half_a_zone_and_a_moving_mount_needs_an_agi_save_per_seed_001_mounts_and_vehicles_in_combat() {
    let mut setup = horse_and_rider();
    setup.characters[0].carries = 2;
    // The squire gets on the standing horse: half a zone, no save.
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("squire"));
    let events = fight.gm(C::Mount { character: "squire".into(), mount: "horse".into() });
    assert!(matches!(&events[0], E::Mounted { save: None, fell: false, .. }));
    assert_eq!(fight.state.turn.as_ref().unwrap().member("squire").unwrap().moved, 1);
    // The knight jumps off the moving horse: an AGI save, and a fall of d4 direct damage on a fail.
    let jump = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("horse"));
        ride(&mut fight, &["b"]);
        fight.gm(C::Dismount { character: "knight".into() });
        fight
    };
    let n = find_seed(|n| matches!(find(&jump(n).events, "zone-rpg.Dismounted"), E::Dismounted { fell: true, .. }));
    let fight = jump(n);
    let E::Dismounted { save, .. } = find(&fight.events, "zone-rpg.Dismounted") else { unreachable!() };
    assert!(!save.as_ref().unwrap().passed);
    let fall = faces(&fight.events, "damage d4 of a fall against knight");
    assert_eq!(fight.character("knight").health, 10 - fall[0]);
    assert!(fight.character("knight").riding.is_none());
}
