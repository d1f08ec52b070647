//! The combat procedure and turns of a zone-rpg fight (seed 001 "Combat procedure", "Taking a
//! turn"): the initiative, factions alternating a turn or a pass, forced passes, the end of the
//! round, movement and actions within a turn, and who may do what.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    character::InitiativeSpec,
    command::Action,
    state::{character::TurnUse, Phase},
    ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

/// Balthasar (alice), Sybilla (bob) and Theobald (carol) against three bandits and their leader
/// (seed 001 "Combat procedure", Example).
fn the_seeds_fight() -> Table {
    table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "road").armed(weapon("dagger", 4)),
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).shield().armour(1),
        npc("bandit leader", "road").armed(ranged("battleaxe", 8, 0)),
        npc("bandit 1", "road").armed(weapon("axe", 6)),
        npc("bandit 2", "road").armed(weapon("axe", 6)),
        npc("bandit 3", "road").armed(weapon("axe", 6)),
    ])
}

fn turn(fight: &mut Fight, actor: herald_domain::Actor, character: &str) -> Vec<E> {
    fight.by(actor.clone(), take_turn(character));
    fight.by(actor, end_turn())
}

#[test]
fn the_seeds_example_round_plays_out_in_its_own_sequence_per_seed_001_combat_procedure() {
    let mut fight = given(&the_seeds_fight(), 0);
    // The bandits started the fight and have the initiative: the GM decides they go first.
    fight.start_round(BANDITS);
    assert_eq!(fight.state.current_faction.as_deref(), Some(BANDITS));
    // The GM takes turn with the bandit leader first.
    turn(&mut fight, gm(), "bandit leader");
    assert_eq!(fight.state.current_faction.as_deref(), Some(PARTY));
    // The Players take turn with Sybilla.
    turn(&mut fight, player("bob"), "Sybilla");
    // The GM takes turn with a bandit.
    turn(&mut fight, gm(), "bandit 1");
    // The Players pass, rather than activating.
    let passed = fight.by(player("alice"), pass(PARTY));
    assert!(matches!(&passed[..], [E::FactionPassed { forced: false, consecutive: 1, .. }]));
    // The GM takes turn with another bandit: since he didn't pass, play goes back to the players.
    turn(&mut fight, gm(), "bandit 2");
    assert_eq!((fight.state.current_faction.as_deref(), fight.state.consecutive_passes), (Some(PARTY), 0));
    // The Players take turn with Balthasar, the GM with the last bandit, the players with Theobald.
    turn(&mut fight, player("alice"), "Balthasar");
    turn(&mut fight, gm(), "bandit 3");
    let ended = turn(&mut fight, player("carol"), "Theobald");
    // The GM must pass because all bandits have taken their turn; the Players must pass as well;
    // since all factions have passed consecutively, the round ends.
    assert_eq!(
        types(&ended),
        ["zone-rpg.TurnEnded", "zone-rpg.FactionPassed", "zone-rpg.FactionPassed", "zone-rpg.RoundEnded"]
    );
    assert!(matches!(&ended[1], E::FactionPassed { faction, forced: true, .. } if faction == BANDITS));
    assert!(matches!(&ended[2], E::FactionPassed { faction, forced: true, consecutive: 2 } if faction == PARTY));
    assert_eq!(fight.state.phase, Phase::BetweenRounds);
}

#[test]
fn each_character_takes_one_turn_a_round_per_seed_001_combat_procedure() {
    let mut fight = given(&the_seeds_fight(), 0);
    fight.start_round(PARTY);
    turn(&mut fight, player("bob"), "Sybilla");
    turn(&mut fight, gm(), "bandit 1");
    fight.refused_by(player("bob"), take_turn("Sybilla"), "zone-rpg.turn_already_taken", "Combat procedure");
    // A new round gives every character its turn back.
    let mut fight = given(&the_seeds_fight(), 0);
    fight.start_round(PARTY);
    fight.by(player("alice"), pass(PARTY));
    fight.gm(pass(BANDITS));
    assert_eq!(fight.state.phase, Phase::BetweenRounds);
    fight.start_round(BANDITS);
    assert_eq!(fight.state.round, 2);
    assert!(fight.state.characters.iter().all(|c| c.turn == TurnUse::Available));
}

#[test]
fn factions_alternate_so_nobody_acts_out_of_their_go_per_seed_001_combat_procedure() {
    let mut fight = given(&the_seeds_fight(), 0);
    fight.start_round(BANDITS);
    fight.refused_by(player("bob"), take_turn("Sybilla"), "zone-rpg.not_your_go", "Combat procedure");
    fight.refused_by(player("bob"), pass(PARTY), "zone-rpg.not_your_go", "Combat procedure");
    fight.gm(take_turn("bandit 1"));
    fight.refused(take_turn("bandit 2"), "zone-rpg.turn_in_progress", "Combat procedure");
}

#[test]
fn the_initiative_holder_chooses_who_acts_first_each_round_per_seed_001_combat_procedure() {
    let mut fight = given(&the_seeds_fight(), 0);
    // The players do not hold the initiative: they cannot choose.
    let refused = fight.when(player("alice"), start_round(PARTY)).unwrap_err();
    assert_eq!((refused.code.as_str(), refused.forbidden), ("zone-rpg.not_your_faction", true));
    // The GM, for the bandits, lets the players act first.
    fight.start_round(PARTY);
    assert_eq!(fight.state.current_faction.as_deref(), Some(PARTY));
    fight.refused(start_round(PARTY), "zone-rpg.round_in_progress", "Combat procedure");
}

#[test]
fn a_faction_holding_the_initiative_lets_its_players_start_the_round_per_seed_001_combat_procedure() {
    let mut setup = the_seeds_fight();
    setup.initiative = InitiativeSpec::Faction { faction: PARTY.into() };
    let mut fight = given(&setup, 0);
    fight.by(player("carol"), start_round(BANDITS));
    assert_eq!(fight.state.current_faction.as_deref(), Some(BANDITS));
}

#[test]
fn unclear_initiative_is_assigned_by_a_recorded_die_per_seed_001_combat_procedure() {
    let mut setup = the_seeds_fight();
    setup.initiative = InitiativeSpec::Random;
    let mut fight = given(&setup, 3);
    fight.refused(start_round(PARTY), "zone-rpg.initiative_unknown", "Combat procedure");
    fight.refused_by(player("alice"), C::RollInitiative {}, "zone-rpg.gm_only", "herald: docs/rulesets/zone-rpg.md");
    let rolled = fight.gm(C::RollInitiative {});
    let E::InitiativeAssigned { faction, roll, .. } = &rolled[0] else { panic!("{rolled:?}") };
    assert_eq!(roll.sides, 2);
    assert_eq!(faction, [PARTY, BANDITS][usize::try_from(roll.value - 1).unwrap()]);
    fight.refused(C::RollInitiative {}, "zone-rpg.initiative_known", "Combat procedure");
}

#[test]
fn a_faction_with_no_character_able_to_act_must_pass_per_seed_001_combat_procedure() {
    let mut fight =
        given(&table(vec![pc("Sybilla", "bob", "road"), npc("bandit 1", "road"), npc("bandit 2", "road")]), 0);
    fight.start_round(PARTY);
    turn(&mut fight, player("bob"), "Sybilla");
    // Play goes to the GM, who takes a turn; the party has nobody left and passes at once.
    let events = turn(&mut fight, gm(), "bandit 1");
    assert!(matches!(&events[1], E::FactionPassed { faction, forced: true, consecutive: 1 } if faction == PARTY));
    assert_eq!(fight.state.current_faction.as_deref(), Some(BANDITS));
    // The GM passes too: two passes in a row end the round although bandit 2 never acted.
    let events = fight.gm(pass(BANDITS));
    assert_eq!(types(&events), ["zone-rpg.FactionPassed", "zone-rpg.RoundEnded"]);
}

#[test]
fn players_act_only_for_the_characters_they_control_per_seed_001_combat_procedure() {
    let mut fight = given(&the_seeds_fight(), 0);
    fight.start_round(PARTY);
    let refused = fight.when(player("alice"), take_turn("Sybilla")).unwrap_err();
    assert_eq!((refused.code.as_str(), refused.forbidden), ("zone-rpg.not_your_character", true));
    let refused = fight.when(player("alice"), take_turn("bandit 1")).unwrap_err();
    assert!(refused.forbidden);
    // Any of the party's players may pass for it; a stranger may not.
    let refused = fight.when(player("mallory"), pass(PARTY)).unwrap_err();
    assert_eq!(refused.code, "zone-rpg.not_your_faction");
    fight.by(player("carol"), pass(PARTY));
}

// ---------------------------------------------------------------------------------------------
// Taking a turn
// ---------------------------------------------------------------------------------------------

fn corridor() -> Table {
    let (zones, borders) = chain(&["a", "b", "c", "d", "e"]);
    table(vec![pc("Balthasar", "alice", "a").armed(weapon("sword", 6)), npc("bandit 1", "e")]).zones(zones, borders)
}

fn in_turn(setup: &Table) -> Fight {
    let mut fight = given(setup, 0);
    fight.start_round(PARTY);
    fight.by(player("alice"), take_turn("Balthasar"));
    fight
}

#[test]
fn a_character_moves_its_full_speed_of_two_zones_or_four_sprinting_per_seed_001_taking_a_turn() {
    let mut fight = in_turn(&corridor());
    fight.refused(walk("Balthasar", &["b", "c", "d"]), "zone-rpg.too_far", "Taking a turn");
    let moved = fight.gm(walk("Balthasar", &["b", "c"]));
    assert!(matches!(&moved[0], E::Moved { zone, half_zones: 4, .. } if zone == "c"));
    let mut fight = in_turn(&corridor());
    let sprint = C::Move {
        character: "Balthasar".into(),
        path: ["b", "c", "d", "e"].map(String::from).to_vec(),
        sprint: true,
        sneak: false,
        at_border: None,
        behind: None,
    };
    fight.gm(sprint);
    assert_eq!(fight.character("Balthasar").zone, "e");
}

#[test]
fn half_speed_leaves_a_main_and_a_bonus_action_split_around_the_movement_per_seed_001_taking_a_turn() {
    let mut fight = in_turn(&corridor());
    fight.gm(walk("Balthasar", &["b"]));
    fight.gm(perform("Balthasar", Action::Say {}));
    fight.gm(perform("Balthasar", Action::OtherMain {}));
    // Half speed is spent: no more movement.
    fight.refused(walk("Balthasar", &["c"]), "zone-rpg.too_far", "Taking a turn");
    fight.refused(perform("Balthasar", Action::Say {}), "zone-rpg.actions_spent", "Taking a turn");
    // Actions first, then half speed.
    let mut fight = in_turn(&corridor());
    fight.gm(perform("Balthasar", Action::OpenDoor {}));
    fight.gm(walk("Balthasar", &["b"]));
    fight.gm(perform("Balthasar", Action::PullLever {}));
    fight.refused(walk("Balthasar", &["c"]), "zone-rpg.too_far", "Taking a turn");
}

#[test]
fn moving_more_than_half_speed_leaves_no_action_per_seed_001_taking_a_turn() {
    let mut fight = in_turn(&corridor());
    fight.gm(walk("Balthasar", &["b", "c"]));
    fight.refused(perform("Balthasar", Action::Say {}), "zone-rpg.moved_too_far", "Taking a turn");
}

#[test]
fn a_turn_holds_one_main_action_or_a_second_bonus_action_per_seed_001_taking_a_turn() {
    let mut fight = in_turn(&corridor());
    fight.gm(perform("Balthasar", Action::Taunt {}));
    fight.refused(perform("Balthasar", Action::Intimidate {}), "zone-rpg.main_action_spent", "Taking a turn");
    let mut fight = in_turn(&corridor());
    fight.gm(perform("Balthasar", Action::Say {}));
    fight.gm(perform("Balthasar", Action::OtherBonus {}));
    fight.refused(perform("Balthasar", Action::OtherMain {}), "zone-rpg.actions_spent", "Taking a turn");
}

#[test]
fn movement_follows_borders_that_can_be_crossed_per_seed_001_taking_a_turn() {
    let (zones, mut borders) = chain(&["a", "b", "c"]);
    borders[1].passable = false;
    let setup = table(vec![pc("Balthasar", "alice", "a"), npc("bandit 1", "a")]).zones(zones, borders);
    let mut fight = in_turn(&setup);
    fight.refused(walk("Balthasar", &["c"]), "zone-rpg.cannot_walk", "Taking a turn");
    fight.refused(walk("Balthasar", &["b", "c"]), "zone-rpg.cannot_walk", "Taking a turn");
}

#[test]
fn a_turn_is_ended_by_its_controller_or_the_gm_per_seed_001_combat_procedure() {
    let mut fight = in_turn(&corridor());
    let refused = fight.when(player("bob"), end_turn()).unwrap_err();
    assert!(refused.forbidden);
    fight.by(player("alice"), end_turn());
    assert_eq!(fight.character("Balthasar").turn, TurnUse::Used);
}

#[test]
fn every_refusal_in_play_names_its_code_and_rule() {
    // Issue 26: a test triggers each code. One fight, one refusal after another; each changes
    // nothing (the support checks the state).
    let setup = table(vec![
        pc("Sybilla", "bob", "road").armed(weapon("sword", 6)).health(20),
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).health(20),
        npc("bandit", "road").armed(weapon("axe", 6)).health(20),
    ]);
    let mut fight = given(&setup, 0);
    fight.refused_by(player("bob"), take_turn("Sybilla"), "zone-rpg.not_in_round", "Combat procedure");
    fight.start_round(PARTY);
    fight.refused(C::Decline { character: "bandit".into() }, "zone-rpg.nothing_to_decline", "Reacting to an attack");
    fight.refused(C::ApproveStunt { approved: true }, "zone-rpg.no_stunt", "Attack stunts");
    let opportunity = C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "Sybilla".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    };
    fight.refused(opportunity, "zone-rpg.no_move_interrupted", "Opportunity attacks");
    let chase = C::ResolveChase { fleeing: vec![], pursuers: vec![], edge: None };
    fight.refused(chase, "zone-rpg.chase_sides", "Chases");
    let unexplained = C::AdjustHealth { character: "bandit".into(), change: -1, reason: String::new() };
    fight.refused(unexplained, "zone-rpg.reason_required", "herald");
    fight.refused(dodge("bandit"), "zone-rpg.no_attack", "Reacting to an attack");
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.refused_by(
        player("carol"),
        perform("Theobald", herald_domain::zone_rpg::command::Action::OtherMain {}),
        "zone-rpg.not_its_turn",
        "Combat procedure",
    );
    fight.refused_by(player("bob"), attack("Sybilla", Some("sword"), "Sybilla"), "zone-rpg.own_target", "Attacking");
    fight.refused_by(
        player("bob"),
        C::Dismount { character: "Sybilla".into() },
        "zone-rpg.not_mounted",
        "Mounts and vehicles in combat",
    );
    fight.refused_by(
        player("bob"),
        C::BreakFree { character: "Sybilla".into() },
        "zone-rpg.not_grabbed",
        "Non-lethal attacks",
    );
    let lute = herald_domain::zone_rpg::command::Action::PickUp { item: "lute".into() };
    fight.refused_by(player("bob"), perform("Sybilla", lute), "zone-rpg.no_such_item", "Taking a turn");
    let speech = C::Perform {
        character: "Sybilla".into(),
        action: herald_domain::zone_rpg::command::Action::OtherMain {},
        description: "la".repeat(1001),
    };
    fight.refused_by(player("bob"), speech, "zone-rpg.description_too_long", "herald");
}

#[test]
fn refusals_of_attacks_and_reactions_name_their_code_and_rule() {
    // Issue 26: a test triggers each code.
    let (zones, borders) = chain(&["road", "ford"]);
    let flail = herald_domain::zone_rpg::character::gear::WeaponSpec { blast: true, ..weapon("flail", 6) };
    let setup = table(vec![
        pc("Sybilla", "bob", "road").armed(weapon("sword", 6)).armed(flail).health(20),
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).health(20),
        pc("Hilde", "dora", "road"),
        npc("bandit", "road").armed(weapon("axe", 6)).health(20),
    ])
    .zones(zones, borders);
    let mut setup = setup;
    setup.characters[2].health = 0;
    setup.characters[2].max_health = Some(10);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    // Hilde is dead: she takes no turn.
    fight.refused_by(player("dora"), take_turn("Hilde"), "zone-rpg.cannot_act", "Combat procedure");
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.refused_by(player("bob"), blast("Sybilla", "flail", "ford"), "zone-rpg.melee_blast_zone", "Blast attacks");
    let blasting_blow = C::Attack {
        attacker: "Sybilla".into(),
        weapon: Some("flail".into()),
        target: herald_domain::zone_rpg::command::AttackTarget::Zone { zone: "road".into() },
        impaired: false,
        death_blow: true,
        stunt: None,
    };
    fight.refused_by(player("bob"), blasting_blow, "zone-rpg.death_blow_target", "Attacking");
    let into_lava = herald_domain::zone_rpg::command::Manoeuvre::Shove { to: None, hazard: Some("lava".into()) };
    fight.refused_by(
        player("bob"),
        non_lethal("Sybilla", "bandit", into_lava),
        "zone-rpg.unknown_hazard",
        "Non-lethal attacks",
    );
    fight.by(player("bob"), attack("Sybilla", Some("sword"), "bandit"));
    // The attack on the bandit waits for his reaction: Theobald is not its target, and guarding
    // is for allies.
    fight.refused_by(player("carol"), dodge("Theobald"), "zone-rpg.not_a_target", "Reacting to an attack");
    let guard = react("Theobald", herald_domain::zone_rpg::command::ReactionChoice::Guard { target: "bandit".into() });
    fight.refused_by(player("carol"), guard, "zone-rpg.not_an_ally", "Guarding");
}
