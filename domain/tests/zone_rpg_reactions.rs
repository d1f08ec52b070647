//! Reactions (seed 001 "Reacting to an attack", "Guarding", "Opportunity attacks"): dodging,
//! countering and who is hit first, hiding behind someone, guarding, one reaction per attack, a
//! reaction spending the turn, and opportunity attacks interrupting a move.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    command::ReactionChoice, outcome::Exchange, state::character::TurnUse, ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

fn resolved(events: &[E]) -> (Option<Exchange>, bool, Option<bool>) {
    match find(events, "zone-rpg.AttackResolved") {
        E::AttackResolved { exchange, landed, counter_landed, .. } => (*exchange, *landed, *counter_landed),
        _ => unreachable!(),
    }
}

// ---------------------------------------------------------------------------------------------
// The seed's examples
// ---------------------------------------------------------------------------------------------

fn sybilla_shoots(n: u64) -> Fight {
    let setup = table(vec![
        pc("Sybilla", "bob", "road").armed(ranged("musket", 8, 6)),
        npc("bandit", "road").saves(10, 8, 10).health(8),
    ]);
    let mut fight = given(&setup, n);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.by(player("bob"), attack("Sybilla", Some("musket"), "bandit"));
    // The bandit hasn't acted yet this round and decides to dodge.
    fight.gm(dodge("bandit"));
    fight
}

#[test]
fn the_bandit_dodges_sybillas_musket_rolling_2_under_his_agi_8_per_seed_001_reacting_to_an_attack() {
    let n = find_seed(|n| faces(&sybilla_shoots(n).events, "AGI save of bandit") == [2]);
    let fight = sybilla_shoots(n);
    let E::Reacted { save, .. } = find(&fight.events, "zone-rpg.Reacted") else { unreachable!() };
    let save = save.as_ref().unwrap();
    assert_eq!((save.value, save.roll.as_ref().unwrap().value, save.passed), (8, 2, true));
    let E::AttackResolved { dodged, rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else {
        unreachable!()
    };
    assert_eq!(dodged, &["bandit"]);
    assert!(rolls.is_empty(), "the attack misses: no damage rolled");
    assert_eq!(fight.character("bandit").health, 8);
    // The reaction took his whole turn.
    assert_eq!(fight.character("bandit").turn, TurnUse::Used);
}

fn theobald_and_the_leader() -> Table {
    table(vec![
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).shield().armour(1).health(10),
        npc("bandit leader", "road").armed(weapon("battleaxe", 8)).health(8),
    ])
}

fn theobald_strikes(setup: &Table, n: u64) -> Fight {
    let mut fight = given(setup, n);
    fight.start_round(PARTY);
    fight.by(player("carol"), take_turn("Theobald"));
    fight.by(player("carol"), attack("Theobald", Some("spear"), "bandit leader"));
    fight.gm(counter("bandit leader", Some("battleaxe")));
    fight
}

#[test]
fn theobalds_4_hits_the_leader_first_since_his_armour_2_cuts_the_leaders_5_to_3_per_seed_001_reacting_to_an_attack() {
    let setup = theobald_and_the_leader();
    let n = find_seed(|n| {
        let events = theobald_strikes(&setup, n).0.events;
        faces(&events, "damage d6 of Theobald's spear") == [4]
            && faces(&events, "damage d8 of bandit leader's battleaxe") == [5]
    });
    let fight = theobald_strikes(&setup, n);
    assert_eq!(fight.character("Theobald").armour_value(false), 2, "a shield and light armour");
    let E::AttackResolved { rolls, .. } = find(&fight.events, "zone-rpg.AttackResolved") else { unreachable!() };
    let leader_suffers = rolls.iter().find(|r| r.against == "bandit leader").unwrap();
    let theobald_would = rolls.iter().find(|r| r.against == "Theobald").unwrap();
    assert_eq!((leader_suffers.suffered, theobald_would.damage, theobald_would.suffered), (4, 5, 3));
    // The leader is hit first for 4: critical damage, incapacitated; Theobald suffers nothing.
    assert_eq!(resolved(&fight.events), (Some(Exchange::AttackFirst), true, Some(false)));
    assert!(fight.character("bandit leader").incapacitated);
    assert_eq!(fight.character("Theobald").health, 10);
    assert_eq!(suffered(&fight.events, "Theobald"), None);
}

#[test]
fn a_counter_that_inflicts_more_hits_first_and_can_stop_the_attack_per_seed_001_reacting_to_an_attack() {
    let setup = table(vec![
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).health(8),
        npc("bandit leader", "road").armed(weapon("battleaxe", 8)).health(8),
    ]);
    let n = find_seed(|n| {
        let events = theobald_strikes(&setup, n).0.events;
        faces(&events, "damage d6 of Theobald's spear") == [2]
            && faces(&events, "damage d8 of bandit leader's battleaxe") == [6]
    });
    let fight = theobald_strikes(&setup, n);
    assert_eq!(resolved(&fight.events), (Some(Exchange::CounterFirst), false, Some(true)));
    assert!(fight.character("Theobald").incapacitated);
    assert_eq!(fight.character("bandit leader").health, 8, "Theobald is down before his spear lands");
}

#[test]
fn equal_damage_hits_both_at_the_same_time_per_seed_001_reacting_to_an_attack() {
    let setup = table(vec![
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).health(20),
        npc("bandit leader", "road").armed(weapon("axe", 6)).health(20),
    ]);
    let strike = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(attack("Theobald", Some("spear"), "bandit leader"));
        fight.gm(counter("bandit leader", Some("axe")));
        fight
    };
    let n = find_seed(|n| {
        let events = strike(n).0.events;
        let (mine, theirs) = (faces(&events, "Theobald's spear"), faces(&events, "bandit leader's axe"));
        mine == theirs && mine.first().is_some_and(|v| *v < 10)
    });
    let fight = strike(n);
    assert_eq!(resolved(&fight.events), (Some(Exchange::Together), true, Some(true)));
    assert_eq!(fight.character("Theobald").health, fight.character("bandit leader").health);
}

#[test]
fn a_counter_must_be_a_suitable_attack_on_the_attacker_per_seed_001_reacting_to_an_attack() {
    let (zones, borders) = chain(&["a", "b"]);
    let setup = table(vec![
        pc("Sybilla", "bob", "a").armed(ranged("musket", 8, 4)),
        npc("bandit", "b").armed(weapon("axe", 6)),
    ])
    .zones(zones, borders);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Sybilla"));
    fight.gm(attack("Sybilla", Some("musket"), "bandit"));
    fight.refused(counter("bandit", Some("axe")), "zone-rpg.counter_unsuitable", "Reacting to an attack");
}

#[test]
fn nobody_reacts_twice_against_one_attack_per_seed_001_reacting_to_an_attack() {
    let setup = table(vec![
        pc("Sybilla", "bob", "road").armed(weapon("dagger", 4)),
        pc("Theobald", "carol", "road"),
        npc("bandit", "road").armed(weapon("axe", 6)),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "Sybilla"));
    // Sybilla hides behind Theobald, who becomes the target; she cannot react again.
    fight.by(player("bob"), react("Sybilla", ReactionChoice::HideBehind { character: "Theobald".into() }));
    fight.refused_by(player("bob"), dodge("Sybilla"), "zone-rpg.already_reacted", "Reacting to an attack");
    let pending = fight.state.pending_attack.as_ref().unwrap();
    assert_eq!(pending.targets[0].target.character, "Theobald");
}

#[test]
fn unaware_targets_cannot_react_per_seed_001_reacting_to_an_attack() {
    let mut sleeper = npc("bandit", "road").health(20);
    sleeper.unaware = true;
    let setup = table(vec![pc("Balthasar", "alice", "road").armed(weapon("sword", 6)), sleeper]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Balthasar"));
    let events = fight.gm(attack("Balthasar", Some("sword"), "bandit"));
    assert!(has(&events, "zone-rpg.AttackResolved"), "nobody can react: it resolves at once");
    assert!(!fight.character("bandit").unaware, "now it knows");
}

#[test]
fn a_reaction_takes_the_whole_turn_and_a_spent_turn_leaves_none_per_seed_001_taking_a_turn() {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "road").armed(weapon("dagger", 4)),
        npc("bandit", "road").health(30).armed(weapon("axe", 6)),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Balthasar"));
    fight.gm(attack("Balthasar", Some("sword"), "bandit"));
    fight.gm(dodge("bandit"));
    fight.gm(end_turn());
    // The bandit spent its turn: the GM has nobody left and passes; Sybilla attacks, and the
    // bandit can no longer react.
    assert_eq!(fight.state.current_faction.as_deref(), Some(PARTY));
    fight.gm(take_turn("Sybilla"));
    let events = fight.gm(attack("Sybilla", Some("dagger"), "bandit"));
    let E::AttackDeclared { targets, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    assert!(!targets[0].can_react);
    assert!(has(&events, "zone-rpg.AttackResolved"));
}

#[test]
fn a_skill_can_grant_more_reactions_a_round_per_seed_001_reacting_to_an_attack() {
    let mut duelist = npc("duelist", "road").health(30).armed(weapon("rapier", 6));
    duelist.extra_reactions = 1;
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        pc("Sybilla", "bob", "road").armed(weapon("dagger", 4)),
        duelist,
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Balthasar"));
    fight.gm(attack("Balthasar", Some("sword"), "duelist"));
    fight.gm(dodge("duelist"));
    fight.gm(end_turn());
    fight.gm(take_turn("Sybilla"));
    fight.gm(attack("Sybilla", Some("dagger"), "duelist"));
    let events = fight.gm(dodge("duelist"));
    assert!(matches!(&events[0], E::Reacted { extra: true, .. }));
}

#[test]
fn hiding_behind_a_nearby_willing_ally_makes_it_the_target_and_it_may_react_per_seed_001_reacting_to_an_attack() {
    let mut sybilla = pc("Sybilla", "bob", "road");
    sybilla.behind = Some("cart".into());
    let setup = table(vec![
        sybilla,
        pc("Theobald", "carol", "road").health(20),
        npc("bandit", "road").armed(weapon("axe", 6)),
        npc("bandit 2", "road"),
    ])
    .zones(vec![with_feature(zone("road"), "cart", herald_domain::zone_rpg::map::Protection::Cover)], vec![]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "Sybilla"));
    fight.refused_by(
        player("bob"),
        react("Sybilla", ReactionChoice::HideBehind { character: "bandit 2".into() }),
        "zone-rpg.not_willing",
        "Reacting to an attack",
    );
    let events = fight.by(player("bob"), react("Sybilla", ReactionChoice::HideBehind { character: "Theobald".into() }));
    let E::Reacted { new_target, .. } = &events[0] else { unreachable!() };
    assert!(new_target.as_ref().unwrap().can_react, "Theobald has not taken his turn yet");
    // They swap positions: Theobald now stands behind the cart, Sybilla in the open.
    assert_eq!(
        (fight.character("Theobald").behind.as_deref(), fight.character("Sybilla").behind.as_deref()),
        (Some("cart"), None)
    );
    fight.by(player("carol"), dodge("Theobald"));
    assert!(fight.state.pending_attack.is_none());
    assert_eq!(fight.character("Sybilla").health, 10);
}

#[test]
fn hiding_behind_a_grabbed_enemy_puts_it_in_the_way_per_seed_001_reacting_to_an_attack() {
    let mut theobald = pc("Theobald", "carol", "road").health(20);
    // A skill lets him react after spending his turn on the grab.
    theobald.extra_reactions = 1;
    let setup = table(vec![
        theobald,
        npc("bandit", "road").armed(weapon("axe", 6)).health(20),
        npc("captive", "road").health(20),
    ]);
    let grab = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(non_lethal("Theobald", "captive", herald_domain::zone_rpg::command::Manoeuvre::Grapple {}));
        fight.gm(decline("captive"));
        fight
    };
    let n = find_seed(|n| grab(n).character("captive").grabbed_by.is_some());
    let mut fight = grab(n);
    fight.gm(end_turn());
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "Theobald"));
    let events =
        fight.by(player("carol"), react("Theobald", ReactionChoice::HideBehind { character: "captive".into() }));
    let E::Reacted { new_target, .. } = &events[0] else { unreachable!() };
    assert!(!new_target.as_ref().unwrap().can_react, "a grabbed character cannot react");
    assert!(fight.state.pending_attack.is_none(), "resolved at once");
    assert_eq!(fight.character("Theobald").health, 20);
    assert_eq!(fight.character("Theobald").grabbing.as_deref(), Some("captive"), "hiding behind it keeps hold");
}

#[test]
fn a_nearby_ally_guarding_becomes_the_target_and_cannot_also_dodge_per_seed_001_guarding() {
    let setup = table(vec![
        pc("Sybilla", "bob", "road"),
        pc("Theobald", "carol", "road").health(20).shield().armour(1),
        npc("bandit", "road").armed(weapon("axe", 6)),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(attack("bandit", Some("axe"), "Sybilla"));
    let events = fight.by(player("carol"), react("Theobald", ReactionChoice::Guard { target: "Sybilla".into() }));
    assert!(has(&events, "zone-rpg.AttackResolved"), "the guard spent its reaction: resolved at once");
    assert_eq!(fight.character("Sybilla").health, 10);
    assert_eq!(fight.character("Theobald").turn, TurnUse::Used);
}

// ---------------------------------------------------------------------------------------------
// Opportunity attacks
// ---------------------------------------------------------------------------------------------

fn a_getaway() -> Table {
    let (zones, borders) = chain(&["a", "b", "c"]);
    table(vec![
        pc("Sybilla", "bob", "a").health(20),
        npc("bandit", "a").armed(weapon("axe", 6)).health(20),
        npc("archer", "b").health(20),
    ])
    .zones(zones, borders)
}

#[test]
fn moving_away_from_a_nearby_enemy_is_interrupted_for_its_opportunity_attack_then_resumes_per_seed_001_opportunity_attacks(
) {
    let mut fight = given(&a_getaway(), 0);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    let events = fight.by(player("bob"), walk("Sybilla", &["b", "c"]));
    assert!(
        matches!(&events[0], E::MoveInterrupted { zone, threatened_by, .. } if zone == "a" && threatened_by == &["bandit"])
    );
    assert_eq!(fight.character("Sybilla").zone, "a");
    // Nothing else happens until the bandit decides.
    fight.refused_by(player("bob"), end_turn(), "zone-rpg.opportunity_pending", "Opportunity attacks");
    let events = fight.gm(C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "Sybilla".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    });
    // Sybilla is mid-turn: she cannot react, so the attack resolves and her move resumes — to
    // b, where the archer stands, who may strike in turn.
    assert!(has(&events, "zone-rpg.AttackResolved"));
    assert!(matches!(find(&events, "zone-rpg.MoveInterrupted"), E::MoveInterrupted { zone, .. } if zone == "b"));
    assert_eq!(fight.character("bandit").turn, TurnUse::Used, "the opportunity attack was its reaction");
    fight.gm(decline("archer"));
    assert_eq!(fight.character("Sybilla").zone, "c");
    assert!(fight.state.interrupted_move.is_none());
}

#[test]
fn a_mover_dropped_by_an_opportunity_attack_does_not_go_on_per_seed_001_opportunity_attacks() {
    let mut setup = a_getaway();
    setup.characters[0].health = 1;
    setup.characters[0].max_health = Some(10);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Sybilla"));
    fight.gm(walk("Sybilla", &["b"]));
    let events = fight.gm(C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "Sybilla".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    });
    assert!(has(&events, "zone-rpg.MoveAbandoned"), "{:?}", types(&events));
    assert_eq!(fight.character("Sybilla").zone, "a");
}

#[test]
fn an_opportunity_attack_that_incapacitates_the_mover_ends_its_turn_per_seed_001_opportunity_attacks() {
    // Seed 001 "Opportunity attacks": "their turn resumes if they are still alive and conscious".
    let mut setup = a_getaway();
    setup.characters[0].health = 1;
    setup.characters[0].max_health = Some(10);
    setup.characters[0].weapons.push(weapon("sword", 6));
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.by(player("bob"), walk("Sybilla", &["b"]));
    let events = fight.gm(C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "Sybilla".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    });
    let sybilla = fight.character("Sybilla");
    assert!(!sybilla.standing() && (sybilla.incapacitated || sybilla.dead), "{sybilla:?}");
    assert!(has(&events, "zone-rpg.MoveAbandoned"), "{:?}", types(&events));
    assert!(has(&events, "zone-rpg.TurnEnded"), "her turn is over: {:?}", types(&events));
    assert!(fight.state.turn.is_none());
    assert_eq!(fight.character("Sybilla").turn, TurnUse::Used);
    // Play went on to the bandits; Sybilla can neither act nor attack any more this round.
    assert_eq!(fight.state.current_faction.as_deref(), Some(BANDITS));
    fight.refused_by(
        player("bob"),
        perform("Sybilla", herald_domain::zone_rpg::command::Action::OtherMain {}),
        "zone-rpg.no_turn",
        "Combat procedure",
    );
    fight.refused_by(player("bob"), attack("Sybilla", Some("sword"), "bandit"), "zone-rpg.no_turn", "Combat procedure");
    // Nor react: the refusal says why.
    fight.refused_by(player("bob"), dodge("Sybilla"), "zone-rpg.incapacitated", "Reacting to an attack");
}

// ---------------------------------------------------------------------------------------------
// A refused reaction names its reason
// ---------------------------------------------------------------------------------------------

fn three_on_the_road() -> Table {
    table(vec![
        pc("Sybilla", "bob", "road").armed(weapon("sword", 6)).health(30),
        pc("Theobald", "carol", "road").armed(weapon("spear", 6)).health(30),
        npc("bandit", "road").armed(weapon("axe", 6)).health(30),
    ])
}

#[test]
fn a_reaction_after_the_turn_was_spent_reacting_is_refused_as_turn_spent_per_seed_001_taking_a_turn() {
    // Seed 001 "Taking a turn": a reaction takes the whole turn. The bandit dodges Sybilla; when
    // Theobald strikes, the bandit cannot react, so his attack is resolved at once — and a
    // reaction sent then is refused for that reason, not for want of an attack.
    let mut fight = given(&three_on_the_road(), 0);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.by(player("bob"), attack("Sybilla", Some("sword"), "bandit"));
    fight.gm(dodge("bandit"));
    fight.by(player("bob"), end_turn());
    assert_eq!(fight.state.current_faction.as_deref(), Some(PARTY), "the bandits had nobody left and passed");
    fight.by(player("carol"), take_turn("Theobald"));
    let events = fight.by(player("carol"), attack("Theobald", Some("spear"), "bandit"));
    assert!(has(&events, "zone-rpg.AttackResolved"), "nobody could react: resolved at once");
    fight.refused(dodge("bandit"), "zone-rpg.turn_spent", "Taking a turn");
}

#[test]
fn a_character_reacting_in_its_own_turn_is_refused_as_in_own_turn_per_seed_001_taking_a_turn() {
    let mut fight = given(&a_getaway(), 0);
    fight.start_round(PARTY);
    fight.by(player("bob"), take_turn("Sybilla"));
    fight.by(player("bob"), walk("Sybilla", &["b", "c"]));
    fight.gm(C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "Sybilla".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    });
    fight.refused_by(player("bob"), dodge("Sybilla"), "zone-rpg.in_own_turn", "Taking a turn");
}

#[test]
fn an_unaware_character_reacting_is_refused_as_unaware_per_seed_001_reacting_to_an_attack() {
    // "Targets who are unaware of their attacker can't react": the refusal says so.
    let mut setup = three_on_the_road();
    setup.characters[2].unaware = true;
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.refused(dodge("bandit"), "zone-rpg.unaware", "Reacting to an attack");
}

#[test]
fn a_surrendering_character_reacting_is_refused_as_surrendered_per_seed_001_surrendering() {
    let mut fight = given(&three_on_the_road(), 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    fight.gm(C::Surrender { character: "bandit".into() });
    fight.gm(end_turn());
    fight.refused(dodge("bandit"), "zone-rpg.surrendered", "Surrendering");
}

#[test]
fn only_enemies_nearby_the_mover_may_make_opportunity_attacks_per_seed_001_opportunity_attacks() {
    let mut fight = given(&a_getaway(), 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Sybilla"));
    fight.gm(walk("Sybilla", &["b"]));
    let not_there = C::OpportunityAttack {
        attacker: "archer".into(),
        target: "Sybilla".into(),
        weapon: None,
        impaired: false,
        manoeuvre: None,
    };
    fight.refused(not_there, "zone-rpg.not_threatening", "Opportunity attacks");
    let at_a_bystander = C::OpportunityAttack {
        attacker: "bandit".into(),
        target: "archer".into(),
        weapon: Some("axe".into()),
        impaired: false,
        manoeuvre: None,
    };
    fight.refused(at_a_bystander, "zone-rpg.not_moving", "Opportunity attacks");
    fight.gm(decline("bandit"));
    assert_eq!(fight.character("Sybilla").zone, "b");
}

#[test]
fn a_character_dropped_in_its_own_turn_is_refused_what_is_left_of_it_per_seed_001_opportunity_attacks() {
    // "Alive and conscious" (seed 001 "Opportunity attacks"): a character the bandit's counter
    // drops in the middle of its turn has no actions left, whatever its controller sends.
    let setup = table(vec![
        pc("Sybilla", "bob", "road").armed(weapon("sword", 6)).health(1),
        npc("bandit", "road").armed(weapon("axe", 6)).health(30),
    ]);
    let countered = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.by(player("bob"), take_turn("Sybilla"));
        fight.by(player("bob"), attack("Sybilla", Some("sword"), "bandit"));
        fight.gm(counter("bandit", Some("axe")));
        fight
    };
    let n = find_seed(|n| !countered(n).character("Sybilla").standing());
    let mut fight = countered(n);
    assert!(fight.state.turn.is_some(), "her turn is still open for her controller to end");
    let shout = perform("Sybilla", herald_domain::zone_rpg::command::Action::PutDown { item: "sword".into() });
    fight.refused_by(player("bob"), shout, "zone-rpg.incapacitated", "Opportunity attacks");
    fight.by(player("bob"), end_turn());
}
