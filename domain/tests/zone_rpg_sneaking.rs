//! Sneaking in combat and hidden positions (seed 001 "Sneaking in combat"): the concealed
//! characters' bonus round, surprise, what reveals a character, and concealed positions kept
//! from the other side in the view, the picture and every event.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::{
    ruleset::Ruleset,
    viewer::Viewer,
    zone_rpg::{
        command::{Action, Condition},
        ZoneRpg, ZoneRpgCommand as C, ZoneRpgEvent as E,
    },
    Role,
};
use support::*;

fn ambush() -> Table {
    let (zones, borders) = chain(&["road", "thicket", "hill"]);
    table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "road"),
        npc("cutthroat", "thicket").concealed().armed(weapon("knife", 4)),
        npc("lookout", "hill").concealed().armed(ranged("crossbow", 8, 6)),
        npc("bandit", "hill"),
    ])
    .zones(zones, borders)
}

fn reader(player_name: Option<&str>) -> Viewer {
    match player_name {
        Some(name) => Viewer { role: Role::Player, player: Some(name.into()) },
        None => Viewer::public(),
    }
}

fn view_zone(fight: &Fight, character: &str, viewer: &Viewer) -> Option<String> {
    let view = ZoneRpg::view(STREAM, 1, &fight.state, &fight.state, viewer);
    view.characters.iter().find(|c| c.id == character).unwrap().zone.clone()
}

#[test]
fn concealed_characters_play_a_bonus_round_in_which_only_they_act_per_seed_001_sneaking_in_combat() {
    let mut fight = given(&ambush(), 0);
    let events = fight.start_round(PARTY);
    // The party has no ambusher: it must pass at once; the bandits' ambushers act.
    assert!(matches!(&events[0], E::RoundStarted { round: 0, bonus: true, .. }));
    assert!(matches!(&events[1], E::FactionPassed { forced: true, .. }));
    fight.refused(take_turn("bandit"), "zone-rpg.bonus_round", "Sneaking in combat");
    fight.gm(take_turn("lookout"));
    fight.gm(end_turn());
    fight.gm(take_turn("cutthroat"));
    let events = fight.gm(end_turn());
    assert_eq!(types(&events).last().unwrap(), "zone-rpg.RoundEnded");
    // Then the first ordinary round: everyone acts.
    let events = fight.start_round(BANDITS);
    assert!(matches!(&events[0], E::RoundStarted { round: 1, bonus: false, .. }));
    fight.gm(take_turn("bandit"));
}

#[test]
fn enemies_attacked_by_a_concealed_character_are_surprised_and_cannot_react_per_seed_001_sneaking_in_combat() {
    let mut fight = given(&ambush(), 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("cutthroat"));
    // Sneaking keeps it concealed.
    let sneak = C::Move {
        character: "cutthroat".into(),
        path: vec!["road".into()],
        sprint: false,
        sneak: true,
        at_border: None,
        behind: None,
    };
    fight.gm(sneak);
    assert!(fight.character("cutthroat").concealed);
    let events = fight.gm(attack("cutthroat", Some("knife"), "Sybilla"));
    let E::AttackDeclared { surprise, targets, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    assert!(*surprise && !targets[0].can_react);
    assert!(has(&events, "zone-rpg.Revealed") && has(&events, "zone-rpg.AttackResolved"));
    assert!(!fight.character("cutthroat").concealed, "attacking reveals");
}

#[test]
fn moving_without_sneaking_or_talking_reveals_a_concealed_character_per_seed_001_sneaking_in_combat() {
    let mut fight = given(&ambush(), 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("cutthroat"));
    let events = fight.gm(walk("cutthroat", &["road"]));
    assert!(matches!(&events[0], E::Revealed { reason, .. } if reason == "moved without sneaking"));
    fight.gm(end_turn());
    fight.gm(take_turn("lookout"));
    fight.gm(perform("lookout", Action::Say {}));
    assert!(!fight.character("lookout").concealed);
}

#[test]
fn players_cannot_target_a_concealed_enemy_they_have_not_found_per_seed_001_sneaking_in_combat() {
    let mut setup = ambush();
    setup.characters[2].zone = "road".into();
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("lookout"));
    fight.gm(end_turn());
    fight.gm(take_turn("cutthroat"));
    fight.gm(end_turn());
    fight.start_round(PARTY);
    fight.by(player("alice"), take_turn("Balthasar"));
    fight.refused_by(
        player("alice"),
        attack("Balthasar", Some("sword"), "cutthroat"),
        "zone-rpg.target_concealed",
        "Sneaking in combat",
    );
}

#[test]
fn a_concealed_position_is_hidden_from_the_other_sides_players_in_the_view_per_seed_001_sneaking_in_combat() {
    let fight = given(&ambush(), 0);
    assert_eq!(view_zone(&fight, "cutthroat", &reader(Some("alice"))), None);
    assert_eq!(view_zone(&fight, "cutthroat", &reader(None)), None);
    assert_eq!(view_zone(&fight, "cutthroat", &Viewer { role: Role::Judge, player: None }).as_deref(), Some("thicket"));
    assert_eq!(view_zone(&fight, "Balthasar", &reader(Some("bob"))).as_deref(), Some("road"));
    let view = ZoneRpg::view(STREAM, 1, &fight.state, &fight.state, &reader(Some("alice")));
    let cutthroat = view.characters.iter().find(|c| c.id == "cutthroat").unwrap();
    assert!(cutthroat.position_hidden && cutthroat.concealed);
}

#[test]
fn a_concealed_character_is_left_out_of_the_other_sides_picture_per_seed_001_sneaking_in_combat() {
    let fight = given(&ambush(), 0);
    let alice = ZoneRpg::picture(STREAM, 1, &fight.state, &reader(Some("alice"))).unwrap();
    let gm_view = ZoneRpg::picture(STREAM, 1, &fight.state, &Viewer { role: Role::Judge, player: None }).unwrap();
    assert!(!alice.contains("cutthroat") && alice.contains("Balthasar"));
    assert!(gm_view.contains("cutthroat"));
    roxmltree::Document::parse(&alice).expect("well-formed");
}

#[test]
fn concealed_positions_are_hidden_in_events_until_revealed_per_seed_001_sneaking_in_combat() {
    let mut fight = given(&ambush(), 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("cutthroat"));
    let sneak = C::Move {
        character: "cutthroat".into(),
        path: vec!["road".into()],
        sprint: false,
        sneak: true,
        at_border: None,
        behind: None,
    };
    fight.gm(sneak);
    let redacted = |fight: &Fight, index: usize, viewer: &Viewer| {
        let mut json = serde_json::to_value(&fight.events[index]).unwrap();
        ZoneRpg::redact_event(&mut json, &fight.state, viewer);
        json
    };
    let moved = fight.events.iter().position(|e| matches!(e, E::Moved { .. })).unwrap();
    let for_alice = redacted(&fight, moved, &reader(Some("alice")));
    assert_eq!((for_alice["zone"].as_str(), for_alice["path"][0].as_str()), (Some("hidden"), Some("hidden")));
    let created = redacted(&fight, 0, &reader(None));
    let cutthroat = created["characters"].as_array().unwrap().iter().find(|c| c["id"] == "cutthroat").unwrap().clone();
    assert_eq!(cutthroat["zone"], "hidden");
    let for_gm = redacted(&fight, moved, &Viewer { role: Role::Judge, player: None });
    assert_eq!(for_gm["zone"], "road");
    // Once revealed, where it went is public.
    fight.gm(attack("cutthroat", Some("knife"), "Sybilla"));
    assert_eq!(redacted(&fight, moved, &reader(Some("alice")))["zone"], "road");
    assert_eq!(view_zone(&fight, "cutthroat", &reader(Some("alice"))).as_deref(), Some("road"));
}

#[test]
fn the_gm_can_conceal_a_character_that_got_out_of_sight_per_seed_001_sneaking_in_combat() {
    let mut fight = given(&ambush(), 0);
    fight.gm(C::SetCondition {
        character: "Sybilla".into(),
        condition: Condition::Concealed,
        active: true,
        reason: "slipped into the smoke".into(),
    });
    assert_eq!(view_zone(&fight, "Sybilla", &reader(None)), None);
    assert_eq!(view_zone(&fight, "Sybilla", &reader(Some("alice"))).as_deref(), Some("road"), "her own side knows");
    let refused = fight
        .when(
            player("bob"),
            C::SetCondition {
                character: "Sybilla".into(),
                condition: Condition::Concealed,
                active: false,
                reason: "x".into(),
            },
        )
        .unwrap_err();
    assert!(refused.forbidden);
}
