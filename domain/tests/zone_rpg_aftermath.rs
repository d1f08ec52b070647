//! When a fight turns (seed 001 "Morale", "Surrendering", "Chases", "Combat gear
//! degradation"): morale checks at the end of the round, surrender, chases, and the wear of
//! weapons, shields and armour.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    command::ChaseEdge,
    options::{MoraleFor, ZoneRpgOptions},
    outcome::{MoraleReason, Wear},
    state::character::{Left, Morale},
    ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

fn kill(fight: &mut Fight, id: &str) {
    let health = fight.character(id).health;
    fight.gm(C::AdjustHealth { character: id.into(), change: -i32::try_from(health).unwrap(), reason: "slain".into() });
}

fn gang() -> Table {
    table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        npc("bandit 1", "road").group("gang"),
        npc("bandit 2", "road").group("gang"),
        npc("bandit 3", "road").group("gang"),
        npc("bandit 4", "road").group("gang"),
    ])
}

/// A round in which `dead` of the gang fall, ended by passes.
fn round_with_losses(setup: &Table, dead: &[&str], n: u64) -> (Fight, Vec<E>) {
    let mut fight = given(setup, n);
    fight.start_round(PARTY);
    for id in dead {
        kill(&mut fight, id);
    }
    fight.gm(pass(PARTY));
    let events = fight.gm(pass(BANDITS));
    (fight, events)
}

#[test]
fn a_group_reduced_to_half_its_numbers_makes_a_group_wit_save_at_the_end_of_the_round_per_seed_001_morale() {
    let (fight, events) = round_with_losses(&gang(), &["bandit 1", "bandit 2"], 0);
    let E::MoraleChecked { group, reason, saves, broken, steady, .. } = find(&events, "zone-rpg.MoraleChecked") else {
        unreachable!()
    };
    assert_eq!((group.as_deref(), *reason), (Some("gang"), MoraleReason::GroupHalved));
    let tested: Vec<&str> = saves.iter().map(|s| s.character.as_str()).collect();
    assert_eq!(tested, ["bandit 3", "bandit 4"]);
    for save in saves {
        let expected = if save.passed { Morale::Steady } else { Morale::Broken };
        assert_eq!(fight.character(&save.character).morale, expected);
    }
    assert_eq!(broken.len() + steady.len(), 2);
    // One loss of four is not half: no check.
    let (_, events) = round_with_losses(&gang(), &["bandit 1"], 0);
    assert!(!has(&events, "zone-rpg.MoraleChecked"));
}

#[test]
fn those_who_pass_are_not_subject_to_morale_for_the_rest_of_the_stretch_per_seed_001_morale() {
    let n = find_seed(|n| {
        let (fight, _) = round_with_losses(&gang(), &["bandit 1", "bandit 2"], n);
        fight.character("bandit 3").morale == Morale::Steady && fight.character("bandit 4").morale == Morale::Steady
    });
    let (mut fight, _) = round_with_losses(&gang(), &["bandit 1", "bandit 2"], n);
    fight.start_round(PARTY);
    kill(&mut fight, "bandit 3");
    fight.gm(pass(PARTY));
    let events = fight.gm(pass(BANDITS));
    assert!(!has(&events, "zone-rpg.MoraleChecked"));
}

#[test]
fn a_character_fighting_alone_checks_morale_at_half_its_maximum_health_per_seed_001_morale() {
    let setup = table(vec![pc("Balthasar", "alice", "road"), npc("ogre", "road").health(20)]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(C::AdjustHealth { character: "ogre".into(), change: -10, reason: "wounds".into() });
    fight.gm(pass(PARTY));
    let events = fight.gm(pass(BANDITS));
    // Balthasar is alone too, but unhurt.
    let checks: Vec<(Option<String>, MoraleReason, usize)> = events
        .iter()
        .filter_map(|e| match e {
            E::MoraleChecked { group, reason, saves, .. } => Some((group.clone(), *reason, saves.len())),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(None, MoraleReason::AloneAtHalfHealth, 1)]);
}

#[test]
fn characters_immune_to_fear_are_immune_to_morale_per_seed_001_morale() {
    let mut setup = gang();
    for character in &mut setup.characters {
        character.fearless = true;
    }
    let (_, events) = round_with_losses(&setup, &["bandit 1", "bandit 2"], 0);
    assert!(!has(&events, "zone-rpg.MoraleChecked"));
}

#[test]
fn the_gm_may_keep_morale_for_the_gms_characters_per_herald_reading_of_seed_001_morale() {
    let mut setup = table(vec![pc("Balthasar", "alice", "road").health(10), npc("bandit", "road")]);
    setup.options = ZoneRpgOptions { morale_for: MoraleFor::GmCharacters, ..ZoneRpgOptions::default() };
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(C::AdjustHealth { character: "Balthasar".into(), change: -6, reason: "wounds".into() });
    fight.gm(pass(PARTY));
    assert!(!has(&fight.gm(pass(BANDITS)), "zone-rpg.MoraleChecked"));
}

fn broken_bandit() -> Fight {
    let n = find_seed(|n| {
        round_with_losses(&gang(), &["bandit 1", "bandit 2"], n).0.character("bandit 3").morale == Morale::Broken
    });
    round_with_losses(&gang(), &["bandit 1", "bandit 2"], n).0
}

#[test]
fn those_who_fail_must_surrender_or_retreat_per_seed_001_morale() {
    let mut fight = broken_bandit();
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit 3"));
    fight.refused(walk("bandit 3", &[]), "zone-rpg.morale_broken", "Morale");
    fight.refused(attack("bandit 3", None, "Balthasar"), "zone-rpg.morale_broken", "Morale");
    let events = fight.gm(C::Retreat { character: "bandit 3".into() });
    // Balthasar is nearby: he may strike at the retreating bandit first.
    assert!(matches!(&events[0], E::MoveInterrupted { retreating: true, .. }));
    fight.by(player("alice"), decline("Balthasar"));
    assert_eq!(fight.character("bandit 3").left, Some(Left::Retreated));
}

#[test]
fn a_broken_character_may_surrender_at_once_out_of_turn_per_herald_reading_of_seed_001_morale() {
    let mut fight = broken_bandit();
    fight.start_round(PARTY);
    let events = fight.gm(C::Surrender { character: "bandit 3".into() });
    assert!(matches!(&events[0], E::Surrendered { as_turn: false, .. }));
}

#[test]
fn surrendering_spends_the_turn_and_throws_the_weapons_away_per_seed_001_surrendering() {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        npc("bandit", "road").armed(weapon("axe", 6)).shield(),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    let events = fight.gm(C::Surrender { character: "bandit".into() });
    let E::Surrendered { dropped, as_turn, .. } = &events[0] else { unreachable!() };
    assert_eq!((dropped.as_slice(), *as_turn), (&["axe".to_string(), "shield".to_string()][..], true));
    assert!(fight.character("bandit").surrendered);
    fight.refused(
        perform("bandit", herald_domain::zone_rpg::command::Action::Say {}),
        "zone-rpg.turn_over",
        "Taking a turn",
    );
    assert_eq!(fight.state.items.len(), 2);
}

#[test]
fn a_surrendering_character_harmed_by_the_enemy_fights_on_per_seed_001_surrendering() {
    let setup =
        table(vec![pc("Balthasar", "alice", "road").armed(weapon("sword", 6)), npc("bandit", "road").health(30)]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(C::Surrender { character: "bandit".into() });
    fight.gm(end_turn());
    fight.gm(take_turn("Balthasar"));
    let events = fight.gm(attack("Balthasar", Some("sword"), "bandit"));
    assert!(matches!(find(&events, "zone-rpg.CharacterHit"), E::CharacterHit { surrender_ended: true, .. }));
    assert!(!fight.character("bandit").surrendered);
}

fn chase(edge: Option<ChaseEdge>, n: u64) -> Fight {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").speed(2),
        npc("bandit 1", "road").speed(2),
        npc("bandit 2", "road").speed(2),
    ]);
    let mut fight = given(&setup, n);
    fight.gm(C::ResolveChase {
        fleeing: vec!["bandit 1".into(), "bandit 2".into()],
        pursuers: vec!["Balthasar".into()],
        edge,
    });
    fight
}

#[test]
fn fleeing_characters_make_a_group_agi_save_those_who_pass_escape_per_seed_001_chases() {
    let n = find_seed(|n| {
        let fight = chase(None, n);
        fight.character("bandit 1").left.is_some() != fight.character("bandit 2").left.is_some()
    });
    let fight = chase(None, n);
    let E::ChaseResolved { edge, saves, escaped, caught, .. } = &fight.events[1] else { unreachable!() };
    assert_eq!((*edge, saves.len(), escaped.len(), caught.len()), (ChaseEdge::Even, 2, 1, 1));
    assert_eq!(fight.character(&escaped[0]).left, Some(Left::Escaped));
    assert_eq!(fight.character(&caught[0]).left, None);
}

#[test]
fn speed_decides_a_chase_without_a_save_per_seed_001_chases() {
    let fight = chase(Some(ChaseEdge::Fleeing), 0);
    assert!(faces(&fight.events, "AGI").is_empty());
    assert_eq!(fight.character("bandit 1").left, Some(Left::Escaped));
    let fight = chase(Some(ChaseEdge::Pursuers), 0);
    assert_eq!(fight.character("bandit 2").left, None, "escaping is impossible");
    // Faster fleeing characters escape without the GM saying so.
    let setup = table(vec![pc("Balthasar", "alice", "road").speed(2), npc("rider", "road").speed(6)]);
    let mut fight = given(&setup, 0);
    let events =
        fight.gm(C::ResolveChase { fleeing: vec!["rider".into()], pursuers: vec!["Balthasar".into()], edge: None });
    assert!(matches!(&events[0], E::ChaseResolved { edge: ChaseEdge::Fleeing, .. }));
}

// ---------------------------------------------------------------------------------------------
// Combat gear degradation
// ---------------------------------------------------------------------------------------------

fn used_gear(n: u64, damaged: bool) -> Fight {
    let mut sword = weapon("sword", 6);
    sword.damaged = damaged;
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(sword).armed(weapon("spare", 4)).armour(1).health(30),
        npc("bandit", "road").armed(weapon("axe", 6)).health(30),
    ]);
    let mut fight = given(&setup, n);
    fight.start_round(PARTY);
    fight.gm(take_turn("Balthasar"));
    fight.gm(attack("Balthasar", Some("sword"), "bandit"));
    fight.gm(counter("bandit", Some("axe")));
    fight.gm(C::EndFight { winner: Some(PARTY.into()), reason: "the bandits flee".into() });
    fight
}

fn wear(fight: &Fight) -> Vec<(String, String, Wear)> {
    fight
        .events
        .iter()
        .filter_map(|e| match e {
            E::DurabilityRolled { character, item, wear, .. } => Some((character.clone(), item.clone(), *wear)),
            _ => None,
        })
        .collect()
}

#[test]
fn after_a_fight_every_weapon_and_armour_used_gets_a_durability_roll_per_seed_001_combat_gear_degradation() {
    let fight = used_gear(0, false);
    let rolled: Vec<(String, String)> = wear(&fight).into_iter().map(|(c, i, _)| (c, i)).collect();
    let expected = [("Balthasar", "sword"), ("Balthasar", "armour"), ("bandit", "axe")]
        .map(|(c, i)| (c.to_string(), i.to_string()));
    assert_eq!(rolled, expected, "the unused spare gets none");
    assert!(fight.state.ended());
}

#[test]
fn a_failed_durability_roll_damages_an_item_and_destroys_a_damaged_one_per_herald_reading_of_seed_001_combat_gear_degradation(
) {
    let n = find_seed(|n| {
        wear(&used_gear(n, false)).iter().any(|(c, i, w)| c == "Balthasar" && i == "sword" && *w == Wear::Damaged)
    });
    let fight = used_gear(n, false);
    assert!(fight.character("Balthasar").weapon("sword").unwrap().weapon.damaged);
    let n = find_seed(|n| {
        wear(&used_gear(n, true)).iter().any(|(c, i, w)| c == "Balthasar" && i == "sword" && *w == Wear::Destroyed)
    });
    let fight = used_gear(n, true);
    assert!(fight.character("Balthasar").weapon("sword").is_none());
}

#[test]
fn a_damaged_weapon_breaks_when_it_rolls_a_1_to_attack_per_seed_001_combat_gear_degradation() {
    let n = find_seed(|n| faces(&used_gear(n, true).events, "Balthasar's sword") == [1]);
    let fight = used_gear(n, true);
    assert!(matches!(find(&fight.events, "zone-rpg.GearDestroyed"), E::GearDestroyed { item, .. } if item == "sword"));
}

#[test]
fn improvised_weapons_are_handled_as_already_damaged_per_seed_001_combat_gear_degradation() {
    let mut chair = weapon("chair", 6);
    chair.improvised = true;
    let fight = given(&table(vec![pc("Balthasar", "alice", "road").armed(chair), npc("bandit", "road")]), 0);
    assert!(fight.character("Balthasar").weapon("chair").unwrap().weapon.damaged);
}

#[test]
fn eight_damage_before_armour_destroys_a_damaged_shield_before_damaged_armour_per_seed_001_combat_gear_degradation() {
    let mut setup = table(vec![
        pc("Theobald", "carol", "road").shield().armour(1).health(40),
        npc("ogre", "road").armed(weapon("maul", 12)),
    ]);
    setup.characters[0].shield.as_mut().unwrap().damaged = true;
    setup.characters[0].armour.as_mut().unwrap().damaged = true;
    let smash = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(BANDITS);
        fight.gm(take_turn("ogre"));
        fight.gm(attack("ogre", Some("maul"), "Theobald"));
        fight.gm(decline("Theobald"));
        fight
    };
    let n = find_seed(|n| faces(&smash(n).events, "ogre's maul").first().is_some_and(|v| *v >= 8));
    let fight = smash(n);
    let destroyed: Vec<String> = fight
        .events
        .iter()
        .filter_map(|e| match e {
            E::GearDestroyed { item, .. } => Some(item.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(destroyed, ["shield"]);
    let n = find_seed(|n| faces(&smash(n).events, "ogre's maul").first().is_some_and(|v| *v < 8));
    assert!(!has(&smash(n).events, "zone-rpg.GearDestroyed"));
}
