//! Attacks in a zone-rpg fight (seed 001 "Attacking", "Cover", "Blast attacks"): who can be
//! targeted, the WIT save to hit, damage, impaired damage, death blows, incapacitation, armour
//! and cover, barriers, blasts and their deviation — the seed's examples with its own numbers.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    command::{AttackTarget, ReactionChoice},
    map::Protection,
    options::{SavePasses, ZoneRpgOptions},
    outcome::Ability,
    ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

/// `actor` starts a round for `faction` and takes a turn with `character`.
fn turn_of(fight: &mut Fight, faction: &str, character: &str) {
    fight.start_round(faction);
    fight.gm(take_turn(character));
}

fn declared(events: &[E]) -> (&Option<herald_domain::zone_rpg::outcome::Save>, bool) {
    match find(events, "zone-rpg.AttackDeclared") {
        E::AttackDeclared { wit_save, hit, .. } => (wit_save, *hit),
        _ => unreachable!(),
    }
}

// ---------------------------------------------------------------------------------------------
// The seed's examples
// ---------------------------------------------------------------------------------------------

fn balthasar_and_the_bandit() -> Table {
    table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "road").armed(weapon("dagger", 4)),
        npc("bandit", "road").health(8),
    ])
}

fn balthasar_strikes(n: u64) -> Fight {
    let mut fight = given(&balthasar_and_the_bandit(), n);
    fight.start_round(PARTY);
    fight.by(player("alice"), take_turn("Balthasar"));
    fight.by(player("alice"), attack("Balthasar", Some("sword"), "bandit"));
    // The bandit takes it without reacting.
    fight.gm(decline("bandit"));
    fight
}

#[test]
fn balthasars_sword_roll_of_4_takes_the_bandit_from_8_to_4_and_incapacitates_him_per_seed_001_attacking() {
    let n = find_seed(|n| faces(&balthasar_strikes(n).events, "damage d6 of Balthasar's sword") == [4]);
    let fight = balthasar_strikes(n);
    let bandit = fight.character("bandit");
    assert_eq!((bandit.health, bandit.incapacitated, bandit.dead), (4, true, false));
    let E::CharacterHit { suffered, critical, incapacitated, .. } = find(&fight.events, "zone-rpg.CharacterHit") else {
        unreachable!()
    };
    assert_eq!((*suffered, *critical, *incapacitated), (4, true, true));
}

#[test]
fn sybilla_slits_the_throat_of_the_nearby_incapacitated_bandit_per_seed_001_attacking() {
    let n = find_seed(|n| faces(&balthasar_strikes(n).events, "damage d6 of Balthasar's sword") == [4]);
    let mut fight = balthasar_strikes(n);
    fight.by(player("alice"), end_turn());
    // The GM passes for the bandit (incapacitated, he cannot act anyway).
    fight.by(player("bob"), take_turn("Sybilla"));
    let events = fight.by(player("bob"), death_blow("Sybilla", "dagger", "bandit"));
    assert!(has(&events, "zone-rpg.DeathBlowDelivered"), "{:?}", types(&events));
    assert!(fight.character("bandit").dead);
    assert!(faces(&events, "damage").is_empty(), "a death blow rolls no damage");
}

#[test]
fn a_death_blow_needs_an_incapacitated_target_per_seed_001_attacking() {
    let mut fight = given(&balthasar_and_the_bandit(), 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.refused(death_blow("Sybilla", "dagger", "bandit"), "zone-rpg.not_incapacitated", "Attacking");
}

fn bowshot() -> Table {
    let (zones, borders) = chain(&["z0", "z1", "z2", "z3", "z4", "z5"]);
    table(vec![
        pc("Balthasar", "alice", "z5").health(10),
        npc("bandit", "z0").saves(10, 8, 10).armed(ranged("bow", 6, 8)),
    ])
    .zones(zones, borders)
}

fn bandit_shoots(setup: &Table, n: u64) -> Fight {
    let mut fight = given(setup, n);
    turn_of(&mut fight, BANDITS, "bandit");
    fight.gm(attack("bandit", Some("bow"), "Balthasar"));
    if fight.state.pending_attack.is_some() {
        fight.by(player("alice"), decline("Balthasar"));
    }
    fight
}

#[test]
fn a_bow_shot_at_5_zones_beyond_half_range_8_needs_a_wit_save_and_a_5_passes_per_seed_001_attacking() {
    let n = find_seed(|n| faces(&bandit_shoots(&bowshot(), n).events, "WIT save of bandit") == [5]);
    let fight = bandit_shoots(&bowshot(), n);
    let (save, hit) = declared(&fight.events);
    let save = save.as_ref().expect("a WIT save to hit");
    assert_eq!(
        (save.ability, save.value, save.roll.as_ref().map(|r| r.value), save.passed),
        (Ability::Wit, 10, Some(5), true)
    );
    assert!(hit);
    // Therefore Balthasar takes d6 damage.
    let rolled = faces(&fight.events, "damage d6 of bandit's bow");
    assert_eq!(rolled.len(), 1);
    assert_eq!(fight.character("Balthasar").health, 10 - rolled[0]);
}

#[test]
fn within_half_range_a_ranged_attack_hits_without_a_save_per_seed_001_attacking() {
    let mut setup = bowshot();
    setup.characters[0].zone = "z4".into();
    let fight = bandit_shoots(&setup, 0);
    assert_eq!(declared(&fight.events), (&None, true));
}

#[test]
fn theobalds_sword_in_complete_darkness_needs_a_wit_save_and_a_20_misses_per_seed_001_attacking() {
    let setup =
        table(vec![pc("Theobald", "carol", "cellar").armed(weapon("sword", 6)), npc("bandit", "cellar").health(8)])
            .zones(vec![dark("cellar")], vec![]);
    let strike = |n| {
        let mut fight = given(&setup, n);
        turn_of(&mut fight, PARTY, "Theobald");
        fight.gm(attack("Theobald", Some("sword"), "bandit"));
        fight
    };
    let n = find_seed(|n| faces(&strike(n).events, "WIT save of Theobald") == [20]);
    let fight = strike(n);
    let (save, hit) = declared(&fight.events);
    assert!(!save.as_ref().unwrap().passed);
    assert!(!hit, "a miss");
    assert_eq!(fight.character("bandit").health, 8, "the bandit takes no damage");
    assert!(fight.state.pending_attack.is_none());
}

#[test]
fn a_save_passes_on_a_roll_under_the_value_and_the_gm_may_let_equal_pass_per_seed_001_reacting_to_an_attack() {
    // The first die of seed 0 is the bandit's WIT save; give the bandit exactly that WIT.
    let rolled = faces(&bandit_shoots(&bowshot(), 0).events, "WIT save of bandit")[0];
    let mut setup = bowshot();
    setup.characters[1].wit = rolled;
    let fight = bandit_shoots(&setup, 0);
    let (save, hit) = declared(&fight.events);
    assert_eq!((save.clone().unwrap().roll.unwrap().value, hit), (rolled, false), "equal to the value: a miss");
    setup.options = ZoneRpgOptions { save_passes: SavePasses::UnderOrEqual, ..ZoneRpgOptions::default() };
    let fight = bandit_shoots(&setup, 0);
    assert!(declared(&fight.events).1, "the under-or-equal reading: a hit");
}

#[test]
fn melee_attacks_only_target_nearby_enemies_per_seed_001_attacking() {
    let (zones, borders) = chain(&["a", "b"]);
    let setup = table(vec![
        pc("Balthasar", "alice", "a").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "a"),
        npc("bandit", "b"),
    ])
    .zones(zones, borders);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Balthasar");
    fight.refused(attack("Balthasar", Some("sword"), "bandit"), "zone-rpg.not_nearby", "Attacking");
    fight.refused(attack("Balthasar", Some("sword"), "Sybilla"), "zone-rpg.not_an_enemy", "Attacking");
    fight.refused(attack("Balthasar", Some("axe"), "bandit"), "zone-rpg.unknown_weapon", "Attacking");
}

#[test]
fn ranged_attacks_cannot_target_the_unseen_or_beyond_range_per_seed_001_attacking() {
    let (mut zones, borders) = chain(&["a", "b", "c"]);
    zones[1] = dark("b");
    let setup = table(vec![
        pc("Sybilla", "bob", "a").armed(ranged("musket", 8, 1)),
        npc("bandit 1", "b"),
        npc("bandit 2", "c"),
    ])
    .zones(zones, borders);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.refused(attack("Sybilla", Some("musket"), "bandit 1"), "zone-rpg.not_visible", "Attacking");
    fight.refused(attack("Sybilla", Some("musket"), "bandit 2"), "zone-rpg.out_of_range", "Attacking");
}

#[test]
fn a_ranged_attack_while_moving_needs_a_save_and_cannot_reach_beyond_half_range_per_seed_001_attacking() {
    let (zones, borders) = chain(&["a", "b", "c", "d", "e"]);
    let setup = table(vec![
        pc("Sybilla", "bob", "a").armed(ranged("musket", 8, 4)),
        npc("bandit 1", "c"),
        npc("bandit 2", "e"),
    ])
    .zones(zones, borders);
    // Standing still, 4 zones is beyond half range 4: a save, but allowed.
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    let events = fight.gm(attack("Sybilla", Some("musket"), "bandit 2"));
    assert!(declared(&events).0.is_some());
    // Having moved half speed: within half range a save is needed, beyond it the shot is impossible.
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.gm(walk("Sybilla", &["b"]));
    fight.refused(
        attack("Sybilla", Some("musket"), "bandit 2"),
        "zone-rpg.beyond_half_range_while_moving",
        "Attacking",
    );
    let events = fight.gm(attack("Sybilla", Some("musket"), "bandit 1"));
    assert!(declared(&events).0.is_some(), "moving: a WIT save");
}

fn strike_with(weapon_name: Option<&str>, impaired: bool, n: u64) -> Fight {
    let setup =
        table(vec![pc("Balthasar", "alice", "road").armed(weapon("sword", 6)), npc("bandit", "road").health(20)]);
    let mut fight = given(&setup, n);
    turn_of(&mut fight, PARTY, "Balthasar");
    let mut command = attack("Balthasar", weapon_name, "bandit");
    if let C::Attack { impaired: held_back, .. } = &mut command {
        *held_back = impaired;
    }
    fight.gm(command);
    fight.gm(decline("bandit"));
    fight
}

fn rolled(fight: &Fight) -> herald_domain::zone_rpg::outcome::DamageRoll {
    match find(&fight.events, "zone-rpg.AttackResolved") {
        E::AttackResolved { rolls, .. } => rolls[0].clone(),
        _ => unreachable!(),
    }
}

#[test]
fn unarmed_attacks_inflict_d4_impaired_damage_per_seed_001_attacking() {
    let roll = rolled(&strike_with(None, false, 0));
    assert_eq!((roll.die.as_str(), roll.impaired, roll.weapon), ("d4", true, None));
}

#[test]
fn holding_back_an_attack_inflicts_impaired_damage_per_seed_001_attacking() {
    let roll = rolled(&strike_with(Some("sword"), true, 0));
    assert_eq!((roll.die.as_str(), roll.impaired), ("d4", true));
    let roll = rolled(&strike_with(Some("sword"), false, 0));
    assert_eq!((roll.die.as_str(), roll.impaired), ("d6", false));
}

#[test]
fn health_zero_kills_per_herald_reading_of_seed_001_attacking() {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("greatsword", 12)),
        npc("bandit", "road").health(1).max_health(8),
    ]);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Balthasar");
    fight.gm(attack("Balthasar", Some("greatsword"), "bandit"));
    fight.gm(decline("bandit"));
    assert!(fight.character("bandit").dead);
}

// ---------------------------------------------------------------------------------------------
// Cover
// ---------------------------------------------------------------------------------------------

fn across(protection: Protection, armour: u32, penetrating: bool) -> Fight {
    let (zones, mut borders) = chain(&["a", "b"]);
    borders[0].protection = protection;
    let mut musket = ranged("musket", 8, 4);
    musket.penetrating = penetrating;
    let mut target = npc("bandit", "b").health(20);
    if armour > 0 {
        target = target.armour(armour);
    }
    let setup = table(vec![pc("Sybilla", "bob", "a").armed(musket), target]).zones(zones, borders);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.gm(attack("Sybilla", Some("musket"), "bandit"));
    fight.gm(decline("bandit"));
    fight
}

#[test]
fn cover_adds_1_to_the_armour_value_never_above_3_per_seed_001_cover() {
    let roll = rolled(&across(Protection::Cover, 1, false));
    assert_eq!((roll.armour, roll.cover), (2, true));
    assert_eq!(roll.suffered, roll.damage.saturating_sub(2));
    let roll = rolled(&across(Protection::Cover, 3, false));
    assert_eq!(roll.armour, 3);
    let roll = rolled(&across(Protection::None, 1, false));
    assert_eq!((roll.armour, roll.cover), (1, false));
}

#[test]
fn an_attack_powerful_enough_penetrates_cover_per_seed_001_cover() {
    let roll = rolled(&across(Protection::Cover, 1, true));
    assert_eq!((roll.armour, roll.cover), (1, false));
}

#[test]
fn barriers_completely_block_attacks_per_seed_001_cover() {
    let (zones, mut borders) = chain(&["a", "b"]);
    borders[0].protection = Protection::Barrier;
    let setup =
        table(vec![pc("Sybilla", "bob", "a").armed(ranged("musket", 8, 4)), npc("bandit", "b")]).zones(zones, borders);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.refused(attack("Sybilla", Some("musket"), "bandit"), "zone-rpg.blocked_by_barrier", "Cover");
}

#[test]
fn a_character_behind_a_barrier_can_peek_to_attack_and_is_countered_through_cover_per_seed_001_cover() {
    let (mut zones, borders) = chain(&["a", "b"]);
    zones[1] = with_feature(zone("b"), "wall", Protection::Barrier);
    let mut archer = npc("archer", "b").armed(ranged("bow", 6, 4)).health(20);
    archer.behind = Some("wall".into());
    let setup =
        table(vec![pc("Sybilla", "bob", "a").armed(ranged("musket", 8, 4)).health(20), archer]).zones(zones, borders);
    // Nobody can shoot the archer behind the wall.
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.refused(attack("Sybilla", Some("musket"), "archer"), "zone-rpg.blocked_by_barrier", "Cover");
    // The archer peeks out to shoot; Sybilla counters, and the wall only counts as cover.
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, BANDITS, "archer");
    fight.gm(attack("archer", Some("bow"), "Sybilla"));
    fight.by(player("bob"), counter("Sybilla", Some("musket")));
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    let countered = rolls.iter().find(|r| r.against == "archer").expect("the counter's roll");
    assert_eq!((countered.armour, countered.cover), (1, true));
}

// ---------------------------------------------------------------------------------------------
// Blast attacks
// ---------------------------------------------------------------------------------------------

fn bomb() -> herald_domain::zone_rpg::character::gear::WeaponSpec {
    let mut bomb = ranged("fire bomb", 6, 2);
    bomb.blast = true;
    bomb.hands = herald_domain::zone_rpg::character::gear::Hands::One;
    bomb
}

#[test]
fn a_melee_blast_hits_everyone_in_the_attackers_zone_but_the_attacker_and_cannot_miss_per_seed_001_blast_attacks() {
    let mut sweep = weapon("whirling flail", 6);
    sweep.blast = true;
    let setup = table(vec![
        pc("Theobald", "carol", "cellar").armed(sweep),
        pc("Sybilla", "bob", "cellar").health(20),
        npc("bandit 1", "cellar").health(20),
        npc("bandit 2", "cellar").health(20),
    ])
    .zones(vec![dark("cellar")], vec![]);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Theobald");
    let events = fight.gm(blast("Theobald", "whirling flail", "cellar"));
    let E::AttackDeclared { targets, wit_save, hit, .. } = find(&events, "zone-rpg.AttackDeclared") else {
        unreachable!()
    };
    let hit_ids: Vec<&str> = targets.iter().map(|t| t.character.as_str()).collect();
    assert_eq!(hit_ids, ["Sybilla", "bandit 1", "bandit 2"], "allies too, never the attacker");
    assert!(wit_save.is_none() && *hit, "no save even in darkness");
}

#[test]
fn a_ranged_blast_hits_a_zone_and_its_borders_and_the_thrower_in_its_own_zone_per_seed_001_blast_attacks() {
    let (zones, borders) = chain(&["a", "b", "c"]);
    let mut on_the_border = npc("bandit 3", "c");
    on_the_border.at_border = Some("b".into());
    let setup =
        table(vec![pc("Sybilla", "bob", "a").armed(bomb()), npc("bandit 1", "b"), npc("bandit 2", "c"), on_the_border])
            .zones(zones, borders);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    let events = fight.gm(blast("Sybilla", "fire bomb", "b"));
    let E::AttackDeclared { targets, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    let hit_ids: Vec<&str> = targets.iter().map(|t| t.character.as_str()).collect();
    assert_eq!(hit_ids, ["bandit 1", "bandit 3"]);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    let events = fight.gm(blast("Sybilla", "fire bomb", "a"));
    let E::AttackDeclared { targets, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    assert_eq!(targets[0].character, "Sybilla");
    fight.refused(attack("Sybilla", Some("fire bomb"), "bandit 1"), "zone-rpg.main_action_spent", "Taking a turn");
}

#[test]
fn a_missed_ranged_blast_deviates_to_a_neighbouring_zone_picked_by_a_die_per_seed_001_blast_attacks() {
    let zones = vec![zone("yard"), zone("target"), zone("north"), zone("south"), zone("east")];
    let borders =
        vec![border("yard", "target"), border("target", "north"), border("target", "south"), border("target", "east")];
    let setup = table(vec![
        pc("Sybilla", "bob", "yard").armed(bomb()).saves(1, 10, 10).speed(4),
        npc("bandit n", "north"),
        npc("bandit s", "south"),
        npc("bandit e", "east"),
    ])
    .zones(zones, borders);
    // WIT 1: every save fails; throwing after moving needs one.
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.gm(walk("Sybilla", &["target"]));
    fight.gm(walk("Sybilla", &["yard"]));
    let events = fight.gm(blast("Sybilla", "fire bomb", "target"));
    let E::AttackDeclared { deviation, zone, targets, hit, .. } = find(&events, "zone-rpg.AttackDeclared") else {
        unreachable!()
    };
    let deviation = deviation.as_ref().expect("a missed blast deviates");
    assert_eq!(deviation.neighbours, ["yard", "north", "south", "east"]);
    let roll = deviation.roll.as_ref().expect("a die picks the zone");
    assert_eq!(roll.sides, 4);
    let expected = &deviation.neighbours[usize::try_from(roll.value - 1).unwrap()];
    assert_eq!((zone.as_ref(), deviation.zone.as_ref()), (Some(expected), Some(expected)));
    assert!(*hit);
    let victim = if expected == "yard" { "Sybilla".to_string() } else { format!("bandit {}", &expected[..1]) };
    assert_eq!(targets.iter().map(|t| t.character.clone()).collect::<Vec<_>>(), [victim]);
}

#[test]
fn a_blast_rolls_its_damage_once_for_every_target_per_seed_001_blast_attacks() {
    let setup = table(vec![
        pc("Sybilla", "bob", "a").armed(bomb()),
        npc("bandit 1", "b").health(20),
        npc("bandit 2", "b").health(20).armour(2),
    ])
    .zones(chain(&["a", "b"]).0, chain(&["a", "b"]).1);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.gm(blast("Sybilla", "fire bomb", "b"));
    fight.gm(C::CloseWindow {});
    assert_eq!(faces(&fight.events, "damage d6").len(), 1);
    let (one, two) = (suffered(&fight.events, "bandit 1").unwrap(), suffered(&fight.events, "bandit 2").unwrap());
    assert_eq!(two, one.saturating_sub(2));
}

#[test]
fn an_attack_on_several_targets_is_countered_by_one_of_them_only_per_seed_001_reacting_to_an_attack() {
    let setup = table(vec![
        pc("Sybilla", "bob", "a").armed(bomb()),
        npc("bandit 1", "b").armed(ranged("bow", 6, 4)),
        npc("bandit 2", "b").armed(ranged("bow", 6, 4)),
    ])
    .zones(chain(&["a", "b"]).0, chain(&["a", "b"]).1);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.gm(blast("Sybilla", "fire bomb", "b"));
    fight.gm(counter("bandit 1", Some("bow")));
    fight.refused(counter("bandit 2", Some("bow")), "zone-rpg.counter_taken", "Reacting to an attack");
    fight.gm(react("bandit 2", ReactionChoice::Dodge {}));
    assert!(fight.state.pending_attack.is_none(), "resolved once everyone decided");
}

#[test]
fn a_blast_weapon_targets_a_zone_and_only_a_blast_does_per_seed_001_blast_attacks() {
    let setup =
        table(vec![pc("Sybilla", "bob", "road").armed(bomb()).armed(weapon("dagger", 4)), npc("bandit", "road")]);
    let mut fight = given(&setup, 0);
    turn_of(&mut fight, PARTY, "Sybilla");
    fight.refused(attack("Sybilla", Some("fire bomb"), "bandit"), "zone-rpg.blast_needs_zone", "Blast attacks");
    let dagger_on_zone = C::Attack {
        attacker: "Sybilla".into(),
        weapon: Some("dagger".into()),
        target: AttackTarget::Zone { zone: "road".into() },
        impaired: false,
        death_blow: false,
        stunt: None,
    };
    fight.refused(dagger_on_zone, "zone-rpg.not_a_blast", "Blast attacks");
}
