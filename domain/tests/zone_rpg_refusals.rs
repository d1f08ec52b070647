//! Refusals that no other zone-rpg test reaches (issue 26 item 5: every code of the error table
//! triggered by a test): targets already in an attack, counters with blast weapons, reactions
//! of a target that could not react when the attack was declared, grabs on the grabbed and by the
//! grabbing, breaking free after acting, stunts without an effect, shields picked up by the
//! shielded, the dead as targets, and too many borders.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    character::gear::Hands,
    choices::Condition,
    command::{Action, Manoeuvre, ReactionChoice, StuntProposal},
    ZoneRpgCommand as C,
};
use support::*;

// ---------------------------------------------------------------------------------------------
// A blast on the party: several targets of one attack
// ---------------------------------------------------------------------------------------------

/// A bandit sweeps the road with a whirling flail; Theobald (with a fire bomb), Sybilla and
/// Hilde (unaware of the bandit) are all its targets (seed 001 "Blast attacks").
fn swept() -> Fight {
    let mut flail = weapon("whirling flail", 6);
    flail.blast = true;
    let mut bomb = ranged("fire bomb", 6, 2);
    bomb.blast = true;
    bomb.hands = Hands::One;
    let mut hilde = pc("Hilde", "dave", "road").health(20);
    hilde.unaware = true;
    let setup = table(vec![
        pc("Theobald", "carol", "road").armed(bomb).health(20),
        pc("Sybilla", "bob", "road").health(20),
        hilde,
        npc("bandit", "road").armed(flail).health(20),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(blast("bandit", "whirling flail", "road"));
    assert!(fight.state.pending_attack.is_some(), "the aware targets may react");
    fight
}

#[test]
fn a_target_cannot_hide_behind_another_target_of_the_same_attack_per_seed_001_reacting_to_an_attack() {
    // Seed 001 "Reacting to an attack": hiding behind a character makes it "the new target of
    // the attack, swapping position with the original target" — Sybilla already is one.
    let mut fight = swept();
    fight.refused_by(
        player("carol"),
        react("Theobald", ReactionChoice::HideBehind { character: "Sybilla".into() }),
        "zone-rpg.already_targeted",
        "Reacting to an attack",
    );
}

#[test]
fn a_target_of_the_attack_cannot_guard_another_of_its_targets_per_seed_001_guarding() {
    // Seed 001 "Guarding": the guard "becomes the new target of the attack"; Sybilla already is.
    let mut fight = swept();
    fight.refused_by(
        player("bob"),
        react("Sybilla", ReactionChoice::Guard { target: "Theobald".into() }),
        "zone-rpg.already_targeted",
        "Guarding",
    );
}

#[test]
fn a_counter_cannot_be_a_blast_per_seed_001_reacting_to_an_attack() {
    // Seed 001 "Reacting to an attack": a counter is "a suitable attack against the attacker",
    // not a blast over a zone.
    let mut fight = swept();
    let counter = ReactionChoice::Counter { weapon: Some("fire bomb".into()), impaired: false, manoeuvre: None };
    fight.refused_by(player("carol"), react("Theobald", counter), "zone-rpg.counter_blast", "Reacting to an attack");
}

#[test]
fn a_target_unaware_when_attacked_cannot_react_to_that_attack_even_once_aware_per_seed_001_reacting_to_an_attack() {
    // Seed 001 "Reacting to an attack": "Targets who are unaware of their attacker can't react."
    // Hilde was unaware when the flail swept; the GM making her aware mid-attack does not give
    // her a reaction against it.
    let mut fight = swept();
    fight.gm(C::SetCondition {
        character: "Hilde".into(),
        condition: Condition::Unaware,
        active: false,
        reason: "she hears the flail".into(),
    });
    assert!(!fight.character("Hilde").unaware);
    fight.refused_by(player("dave"), dodge("Hilde"), "zone-rpg.cannot_react", "Reacting to an attack");
}

// ---------------------------------------------------------------------------------------------
// Grabs
// ---------------------------------------------------------------------------------------------

fn grapple_table() -> Table {
    let mut theobald = pc("Theobald", "carol", "road").armed(weapon("dagger", 4)).health(30);
    theobald.extra_reactions = 1;
    table(vec![
        theobald,
        pc("Sybilla", "bob", "road"),
        npc("bandit", "road").armed(weapon("axe", 6)).health(20).saves(10, 10, 1),
        npc("bandit 2", "road").armed(weapon("axe", 6)).health(20),
    ])
}

fn grapple_counter() -> ReactionChoice {
    ReactionChoice::Counter { weapon: None, impaired: false, manoeuvre: Some(Manoeuvre::Grapple {}) }
}

/// The bandit attacks Theobald in its turn, and Theobald counters by grabbing him.
fn grabbed_in_his_turn(n: u64) -> Fight {
    let mut fight = given(&grapple_table(), n);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "Theobald"));
    fight.by(player("carol"), react("Theobald", grapple_counter()));
    fight
}

fn grab_holds(n: u64) -> bool {
    let fight = grabbed_in_his_turn(n);
    fight.character("bandit").grabbed_by.as_deref() == Some("Theobald") && fight.character("Theobald").standing()
}

#[test]
fn breaking_free_after_acting_in_the_turn_is_refused_per_seed_001_non_lethal_attacks() {
    // Seed 001 "Grapple": the grabbed "can only spend their turn to attempt to break free" —
    // the whole turn; the bandit has already attacked in this one.
    let n = find_seed(grab_holds);
    let mut fight = grabbed_in_his_turn(n);
    fight.refused(C::BreakFree { character: "bandit".into() }, "zone-rpg.turn_partly_spent", "Non-lethal attacks");
}

#[test]
fn a_held_character_cannot_be_grabbed_again_nor_a_grabber_grab_a_second_per_seed_001_non_lethal_attacks() {
    // Seed 001 "Grapple": the attacker "grabs them" and keeps hold; one hold per character.
    let n = find_seed(grab_holds);
    let mut fight = grabbed_in_his_turn(n);
    fight.gm(end_turn());
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.refused_by(
        player("bob"),
        non_lethal("Sybilla", "bandit", Manoeuvre::Grapple {}),
        "zone-rpg.already_grabbed",
        "Non-lethal attacks",
    );
    fight.by(player("bob"), end_turn());
    fight.gm(take_turn("bandit 2"));
    fight.gm(attack("bandit 2", Some("axe"), "Theobald"));
    // Theobald, still holding the bandit, reacts with his extra reaction by grabbing again.
    fight.refused_by(
        player("carol"),
        react("Theobald", grapple_counter()),
        "zone-rpg.already_grabbing",
        "Non-lethal attacks",
    );
}

// ---------------------------------------------------------------------------------------------
// Stunts, items, the dead, the map
// ---------------------------------------------------------------------------------------------

#[test]
fn a_stunt_must_say_what_it_does_per_seed_001_attack_stunts() {
    // Seed 001 "Attack stunts": the attacker proposes a specific effect; an empty one is none.
    let setup = table(vec![pc("Theobald", "carol", "road").armed(weapon("dagger", 4)), npc("bandit", "road")]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.by(player("carol"), take_turn("Theobald"));
    let proposal = StuntProposal { effect: "   ".into(), incapacitate: true, surrender: false, disarm: None };
    fight.refused_by(
        player("carol"),
        stunt("Theobald", "dagger", "bandit", proposal),
        "zone-rpg.stunt_effect",
        "Attack stunts",
    );
}

#[test]
fn a_character_with_a_shield_cannot_pick_up_a_second_per_seed_001_taking_a_turn() {
    // Seed 001 "Taking a turn": picking up an item is a bonus action; a character has at most
    // one shield (docs/rulesets/zone-rpg.md "Setting up a fight": `shield` is a single item).
    let setup = table(vec![
        pc("Sybilla", "bob", "road").shield(),
        pc("Theobald", "carol", "road").shield(),
        npc("bandit", "road"),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.by(player("bob"), perform("Sybilla", Action::PutDown { item: "shield".into() }));
    fight.by(player("bob"), end_turn());
    fight.gm(pass(BANDITS));
    fight.by(player("carol"), take_turn("Theobald"));
    fight.refused_by(
        player("carol"),
        perform("Theobald", Action::PickUp { item: "shield".into() }),
        "zone-rpg.has_shield",
        "Taking a turn",
    );
}

#[test]
fn the_dead_cannot_be_attacked_nor_given_conditions_per_seed_001_attacking() {
    // Seed 001 "Attacking": attacks target enemies in the fight; a dead bandit is gone from it.
    let setup = table(vec![
        pc("Theobald", "carol", "road").armed(weapon("dagger", 4)),
        npc("bandit", "road"),
        npc("bandit 2", "road"),
    ]);
    let mut fight = given(&setup, 0);
    fight.gm(C::AdjustHealth { character: "bandit".into(), change: -10, reason: "a falling rock".into() });
    assert!(fight.character("bandit").dead);
    fight.start_round(PARTY);
    fight.by(player("carol"), take_turn("Theobald"));
    fight.refused_by(
        player("carol"),
        attack("Theobald", Some("dagger"), "bandit"),
        "zone-rpg.target_gone",
        "Attacking",
    );
    let unaware = C::SetCondition {
        character: "bandit".into(),
        condition: Condition::Unaware,
        active: true,
        reason: "asleep".into(),
    };
    fight.refused(unaware, "zone-rpg.target_gone", "herald: docs/rulesets/zone-rpg.md");
}

#[test]
fn a_map_with_more_than_500_borders_is_refused() {
    // Herald's cap on a fight's size (domain/src/zone_rpg/limits.rs, cited as the service rules
    // docs/rulesets/zone-rpg.md): at most 500 borders.
    let too_many = vec![border("a", "b"); 501];
    let setup = table(vec![npc("bandit", "a")]).zones(vec![zone("a"), zone("b")], too_many);
    let mut fight = Fight::empty(0);
    fight.refused(setup.create(0), "zone-rpg.border_count", "herald: docs/rulesets/zone-rpg.md");
}
