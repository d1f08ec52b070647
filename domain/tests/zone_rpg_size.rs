//! Size in combat (seed 001 "Effects of size in combat"): damage dice doubled or damage halved
//! for each size of difference, dice distributed among smaller targets, blasts unmodified,
//! ranges halved or doubled, massive reach, and what larger and smaller characters can do to
//! each other with non-lethal attacks — the wyrm example with its own numbers.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    character::{gear::WeaponSpec, Size},
    command::{Action, Manoeuvre},
    outcome::DamageRoll,
    ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

fn natural(mut weapon: WeaponSpec) -> WeaponSpec {
    weapon.natural = true;
    weapon
}

/// A large wyrm: bite, talons and tail (d8) and fire breath (d6, blast).
fn wyrm(zone: &str) -> herald_domain::zone_rpg::character::CharacterSpec {
    let mut breath = natural(ranged("fire breath", 6, 2));
    breath.blast = true;
    npc("wyrm", zone).size(Size::Large).health(60).armed(natural(weapon("bite", 8))).armed(breath)
}

fn hero(id: &str, size: Size) -> herald_domain::zone_rpg::character::CharacterSpec {
    character(id, PARTY, "lair").size(size).health(40)
}

fn lair(characters: Vec<herald_domain::zone_rpg::character::CharacterSpec>) -> Table {
    table(characters).zones(vec![zone("lair"), zone("ledge")], vec![border("lair", "ledge")])
}

fn wyrm_attacks(setup: &Table, command: C) -> Vec<DamageRoll> {
    let mut fight = given(setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    fight.gm(command);
    fight.gm(C::CloseWindow {});
    match find(&fight.events, "zone-rpg.AttackResolved") {
        E::AttackResolved { rolls, .. } => rolls.clone(),
        _ => unreachable!(),
    }
}

fn dice_against(rolls: &[DamageRoll]) -> Vec<(String, usize)> {
    rolls.iter().map(|r| (r.against.clone(), r.faces.len())).collect()
}

#[test]
fn the_wyrms_bite_is_2d8_against_a_medium_character_and_4d8_against_a_small_one_per_seed_001_effects_of_size_in_combat()
{
    let setup = lair(vec![wyrm("lair"), hero("knight", Size::Medium), hero("halfling", Size::Small)]);
    let rolls = wyrm_attacks(&setup, attack("wyrm", Some("bite"), "knight"));
    assert_eq!((rolls[0].die.as_str(), rolls[0].faces.len()), ("d8", 2));
    let rolls = wyrm_attacks(&setup, attack("wyrm", Some("bite"), "halfling"));
    assert_eq!((rolls[0].die.as_str(), rolls[0].faces.len()), ("d8", 4));
}

#[test]
fn the_wyrm_distributes_its_bite_among_smaller_targets_as_the_seed_counts_them_per_seed_001_effects_of_size_in_combat()
{
    let setup = lair(vec![
        wyrm("lair"),
        hero("knight", Size::Medium),
        hero("squire", Size::Medium),
        hero("halfling 1", Size::Small),
        hero("halfling 2", Size::Small),
        hero("halfling 3", Size::Small),
    ]);
    // Two medium-sized targets: d8 each.
    let rolls = wyrm_attacks(&setup, split("wyrm", "bite", &[("knight", 1), ("squire", 1)]));
    assert_eq!(dice_against(&rolls), [("knight".into(), 1), ("squire".into(), 1)]);
    // Three small-sized characters: two suffering d8, one 2d8.
    let rolls = wyrm_attacks(&setup, split("wyrm", "bite", &[("halfling 1", 1), ("halfling 2", 1), ("halfling 3", 2)]));
    assert_eq!(dice_against(&rolls), [("halfling 1".into(), 1), ("halfling 2".into(), 1), ("halfling 3".into(), 2)]);
    // A medium-sized and a small target: d8 and 2d8.
    let rolls = wyrm_attacks(&setup, split("wyrm", "bite", &[("knight", 1), ("halfling 1", 2)]));
    assert_eq!(dice_against(&rolls), [("knight".into(), 1), ("halfling 1".into(), 2)]);
}

#[test]
fn the_wyrm_cannot_distribute_more_dice_than_it_has_per_seed_001_effects_of_size_in_combat() {
    let setup = lair(vec![
        wyrm("lair"),
        hero("knight", Size::Medium),
        hero("squire", Size::Medium),
        hero("troll", Size::Large),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    fight.refused(
        split("wyrm", "bite", &[("knight", 2), ("squire", 1)]),
        "zone-rpg.split_dice",
        "Effects of size in combat",
    );
    fight.refused(
        split("wyrm", "bite", &[("knight", 1), ("troll", 1)]),
        "zone-rpg.split_targets",
        "Effects of size in combat",
    );
    fight.refused(
        split("wyrm", "fire breath", &[("knight", 1), ("squire", 1)]),
        "zone-rpg.split_melee_only",
        "Effects of size in combat",
    );
}

#[test]
fn the_wyrms_fire_breath_always_inflicts_d6_whatever_the_targets_size_per_seed_001_effects_of_size_in_combat() {
    let setup = lair(vec![wyrm("ledge"), hero("knight", Size::Medium), hero("halfling", Size::Small)]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    fight.gm(blast("wyrm", "fire breath", "lair"));
    fight.gm(C::CloseWindow {});
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    assert_eq!((rolls.len(), rolls[0].die.as_str(), rolls[0].faces.len(), rolls[0].halvings), (1, "d6", 1, 0));
    assert_eq!(suffered(&fight.events, "knight"), suffered(&fight.events, "halfling"));
}

fn human_strikes(n: u64, weapon_name: &str) -> Fight {
    let mut bomb = weapon("fire bomb", 6);
    (bomb.range, bomb.blast) = (2, true);
    let setup = lair(vec![wyrm("lair"), pc("human", "alice", "lair").armed(weapon("sword", 6)).armed(bomb)]);
    let mut fight = given(&setup, n);
    fight.start_round(PARTY);
    fight.gm(take_turn("human"));
    if weapon_name == "sword" {
        fight.gm(attack("human", Some("sword"), "wyrm"));
    } else {
        fight.gm(blast("human", "fire bomb", "lair"));
    }
    fight.gm(C::CloseWindow {});
    fight
}

#[test]
fn a_human_swords_roll_of_3_only_inflicts_2_damage_on_the_wyrm_per_seed_001_effects_of_size_in_combat() {
    let n = find_seed(|n| faces(&human_strikes(n, "sword").events, "damage d6 of human's sword") == [3]);
    let fight = human_strikes(n, "sword");
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    assert_eq!((rolls[0].faces.as_slice(), rolls[0].halvings, rolls[0].damage), (&[3][..], 1, 2));
    assert_eq!(fight.character("wyrm").health, 58);
}

#[test]
fn a_human_fire_bomb_inflicts_full_damage_on_the_wyrm_per_seed_001_effects_of_size_in_combat() {
    let fight = human_strikes(0, "fire bomb");
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    assert_eq!((rolls[0].halvings, rolls[0].damage), (0, rolls[0].faces[0]));
    assert_eq!(suffered(&fight.events, "wyrm"), Some(rolls[0].faces[0]));
}

fn long_field(target_size: Size, distance: usize) -> Table {
    let names: Vec<String> = (0..=distance).map(|i| format!("z{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (zones, borders) = chain(&refs);
    let last = names.last().unwrap().clone();
    let mut target = npc("target", &last).size(target_size).health(40);
    target.wit = 10;
    table(vec![pc("archer", "alice", "z0").armed(ranged("bow", 6, 8)), target]).zones(zones, borders)
}

fn shoot(setup: &Table) -> Result<Vec<E>, herald_domain::RuleError> {
    let mut fight = given(setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("archer"));
    fight.when(gm(), attack("archer", Some("bow"), "target"))
}

#[test]
fn a_human_bow_of_range_8_reaches_16_against_the_wyrm_per_seed_001_effects_of_size_in_combat() {
    let events = shoot(&long_field(Size::Large, 16)).expect("range 16 against a larger target");
    let E::AttackDeclared { wit_save, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    assert!(wit_save.is_some(), "beyond half of 16");
    assert!(shoot(&long_field(Size::Large, 17)).is_err());
    assert_eq!(shoot(&long_field(Size::Medium, 9)).unwrap_err().code, "zone-rpg.out_of_range");
}

#[test]
fn range_is_halved_against_a_smaller_target_per_seed_001_effects_of_size_in_combat() {
    assert!(shoot(&long_field(Size::Small, 4)).is_ok());
    let refused = shoot(&long_field(Size::Small, 5)).unwrap_err();
    assert_eq!(
        (refused.code.as_str(), refused.rule.contains("Effects of size in combat")),
        ("zone-rpg.out_of_range", true)
    );
}

#[test]
fn massive_characters_make_melee_attacks_up_to_range_1_per_seed_001_effects_of_size_in_combat() {
    let setup = lair(vec![
        npc("titan", "ledge").size(Size::Massive).armed(natural(weapon("fist", 10))),
        npc("ogre", "ledge").size(Size::Large).armed(natural(weapon("club", 8))),
        hero("knight", Size::Medium),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("ogre"));
    fight.refused(attack("ogre", Some("club"), "knight"), "zone-rpg.not_nearby", "Attacking");
    fight.gm(end_turn());
    fight.gm(pass(PARTY));
    fight.gm(take_turn("titan"));
    let events = fight.gm(attack("titan", Some("fist"), "knight"));
    assert!(has(&events, "zone-rpg.AttackDeclared"));
}

// ---------------------------------------------------------------------------------------------
// Non-lethal attacks and size
// ---------------------------------------------------------------------------------------------

fn giant_and_halfling() -> Table {
    lair(vec![
        npc("wyrm", "lair").size(Size::Large).health(60).armed(natural(weapon("bite", 8))),
        character("halfling", PARTY, "lair").size(Size::Small).health(20).armed(weapon("dagger", 4)),
        hero("knight", Size::Medium),
    ])
}

#[test]
fn larger_characters_cannot_be_disarmed_shoved_or_grabbed_by_smaller_ones_per_seed_001_effects_of_size_in_combat() {
    let mut fight = given(&giant_and_halfling(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("halfling"));
    fight.refused(
        non_lethal("halfling", "wyrm", Manoeuvre::Grapple {}),
        "zone-rpg.too_small",
        "Effects of size in combat",
    );
    fight.refused(
        non_lethal("halfling", "wyrm", Manoeuvre::Shove { to: None, hazard: None }),
        "zone-rpg.too_small",
        "Effects of size in combat",
    );
}

#[test]
fn a_smaller_target_gets_no_str_save_against_a_larger_grab_and_cannot_break_free_per_seed_001_effects_of_size_in_combat(
) {
    let mut fight = given(&giant_and_halfling(), 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    fight.gm(non_lethal("wyrm", "halfling", Manoeuvre::Grapple {}));
    fight.gm(decline("halfling"));
    let E::NonLethalResolved { save, succeeded, .. } = find(&fight.events, "zone-rpg.NonLethalResolved") else {
        unreachable!()
    };
    assert!(save.roll.is_none() && !save.passed && *succeeded);
    assert_eq!(fight.character("halfling").grabbed_by.as_deref(), Some("wyrm"));
    // A larger grabber needs one hand and can do anything while keeping hold.
    fight.gm(perform("wyrm", Action::Say {}));
    assert_eq!(fight.character("halfling").grabbed_by.as_deref(), Some("wyrm"));
    fight.gm(end_turn());
    fight.gm(take_turn("halfling"));
    fight.refused(C::BreakFree { character: "halfling".into() }, "zone-rpg.too_small", "Effects of size in combat");
}

#[test]
fn a_larger_shove_inflicts_d4_direct_damage_and_reaches_farther_per_seed_001_effects_of_size_in_combat() {
    let (zones, borders) = chain(&["lair", "ledge", "chasm"]);
    let setup = table(giant_and_halfling().characters).zones(zones, borders);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    // Large against small: two sizes, 2 zones; large against medium: 1 zone.
    fight.refused(
        non_lethal("wyrm", "knight", Manoeuvre::Shove { to: Some("chasm".into()), hazard: None }),
        "zone-rpg.shove_too_far",
        "Effects of size in combat",
    );
    fight.gm(non_lethal("wyrm", "halfling", Manoeuvre::Shove { to: Some("chasm".into()), hazard: None }));
    fight.gm(decline("halfling"));
    assert_eq!(fight.character("halfling").zone, "chasm");
    let E::CharacterHit { roll, .. } = find(&fight.events, "zone-rpg.CharacterHit") else { unreachable!() };
    let roll = roll.as_ref().unwrap();
    assert_eq!((roll.die.as_str(), roll.direct), ("d4", true));
}

#[test]
fn a_bite_that_finds_a_larger_target_behind_whom_its_victim_hid_counts_its_dice_again_per_seed_001_effects_of_size_in_combat(
) {
    let setup = lair(vec![wyrm("lair"), hero("knight", Size::Medium), hero("halfling", Size::Small)]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("wyrm"));
    fight.gm(attack("wyrm", Some("bite"), "halfling"));
    let reaction = herald_domain::zone_rpg::command::ReactionChoice::HideBehind { character: "knight".into() };
    fight.gm(react("halfling", reaction));
    fight.gm(C::CloseWindow {});
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    assert_eq!(dice_against(rolls), [("knight".to_string(), 2)], "2d8 against the medium knight, not 4d8");
}
