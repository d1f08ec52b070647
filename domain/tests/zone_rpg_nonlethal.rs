//! Attack stunts and non-lethal attacks (seed 001 "Attack stunts", "Non-lethal attacks"):
//! proposals, the GM's approval and the target's answer; disarming, shoving into hazards,
//! grappling and breaking free, their order against counters — with the seed's examples.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::zone_rpg::{
    character::gear::{Hands, WeaponSpec},
    command::{Manoeuvre, ReactionChoice, StuntProposal},
    ZoneRpgCommand as C, ZoneRpgEvent as E,
};
use support::*;

fn disarm_and_knock_out() -> StuntProposal {
    StuntProposal {
        effect: "disarmed and incapacitated until the end of the stretch".into(),
        incapacitate: true,
        surrender: false,
        disarm: Some("axe".into()),
    }
}

fn balthasar_spares(n: u64) -> Fight {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        npc("bandit", "road").health(3).max_health(8).armed(weapon("axe", 6)),
    ]);
    let mut fight = given(&setup, n);
    fight.start_round(PARTY);
    fight.by(player("alice"), take_turn("Balthasar"));
    fight.by(player("alice"), stunt("Balthasar", "sword", "bandit", disarm_and_knock_out()));
    fight
}

#[test]
fn balthasar_spares_the_bandit_with_3_health_by_a_stunt_he_happily_accepts_per_seed_001_attack_stunts() {
    let mut fight = balthasar_spares(0);
    // Balthasar is a player's character: the GM approves the effect first.
    fight.refused_by(player("alice"), C::ApproveStunt { approved: true }, "zone-rpg.gm_only", "herald");
    fight.refused(dodge("bandit"), "zone-rpg.stunt_pending", "Attack stunts");
    fight.gm(C::ApproveStunt { approved: true });
    // The bandit (the GM's) accepts: no reaction, no damage.
    let events = fight.gm(C::AnswerStunt { accept: true });
    assert_eq!(types(&events), ["zone-rpg.StuntAnswered", "zone-rpg.StuntApplied"]);
    let bandit = fight.character("bandit");
    assert_eq!((bandit.health, bandit.incapacitated), (3, true));
    assert!(bandit.weapon("axe").is_none());
    assert_eq!(fight.state.items[0].item.name(), "axe");
    assert!(faces(&fight.events, "damage").is_empty());
    assert!(fight.state.pending_attack.is_none());
}

#[test]
fn a_refused_stunt_resolves_the_attack_as_normal_with_reactions_per_seed_001_attack_stunts() {
    let mut fight = balthasar_spares(0);
    fight.gm(C::ApproveStunt { approved: true });
    fight.gm(C::AnswerStunt { accept: false });
    assert!(fight.state.pending_attack.as_ref().unwrap().stunt.is_none());
    fight.gm(dodge("bandit"));
    assert!(has(&fight.events, "zone-rpg.AttackResolved"));
    // The GM refusing it leaves a normal attack too.
    let mut fight = balthasar_spares(0);
    fight.gm(C::ApproveStunt { approved: false });
    fight.gm(decline("bandit"));
    assert!(has(&fight.events, "zone-rpg.CharacterHit"));
}

#[test]
fn the_gms_own_stunts_need_no_approval_and_only_the_target_answers_per_seed_001_attack_stunts() {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)),
        npc("bandit", "road").armed(weapon("axe", 6)),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(BANDITS);
    fight.gm(take_turn("bandit"));
    let proposal =
        StuntProposal { effect: "forced to surrender".into(), incapacitate: false, surrender: true, disarm: None };
    fight.gm(stunt("bandit", "axe", "Balthasar", proposal));
    let refused = fight.when(player("bob"), C::AnswerStunt { accept: true }).unwrap_err();
    assert!(refused.forbidden);
    fight.by(player("alice"), C::AnswerStunt { accept: true });
    assert!(fight.character("Balthasar").surrendered);
}

#[test]
fn a_stunt_is_proposed_to_one_target_of_an_ordinary_attack_per_seed_001_attack_stunts() {
    let mut bomb = ranged("fire bomb", 6, 2);
    bomb.blast = true;
    let setup = table(vec![pc("Sybilla", "bob", "road").armed(bomb), npc("bandit", "road")]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Sybilla"));
    let mut command = blast("Sybilla", "fire bomb", "road");
    if let C::Attack { stunt, .. } = &mut command {
        *stunt = Some(disarm_and_knock_out());
    }
    fight.refused(command, "zone-rpg.stunt_target", "Attack stunts");
}

// ---------------------------------------------------------------------------------------------
// The grapple example
// ---------------------------------------------------------------------------------------------

fn dagger() -> WeaponSpec {
    weapon("dagger", 4)
}

fn grapple_example() -> Table {
    table(vec![
        pc("Theobald", "carol", "road").armed(dagger()).health(10),
        npc("bandit", "road").armed(weapon("axe", 6)).health(8).saves(10, 10, 10),
    ])
}

/// Theobald attempts to grab the bandit, who counters with his axe.
fn grab_attempt(n: u64) -> Fight {
    let mut fight = given(&grapple_example(), n);
    fight.start_round(PARTY);
    fight.by(player("carol"), take_turn("Theobald"));
    fight.by(player("carol"), non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}));
    fight.gm(react("bandit", ReactionChoice::Counter { weapon: Some("axe".into()), impaired: false, manoeuvre: None }));
    fight
}

fn grab_holds(n: u64) -> bool {
    let fight = grab_attempt(n);
    faces(&fight.events, "damage d6 of bandit's axe") == [1] && fight.character("bandit").grabbed_by.is_some()
}

#[test]
fn the_bandits_counter_scratches_theobald_for_1_then_fails_its_str_save_and_is_grabbed_per_seed_001_non_lethal_attacks()
{
    let n = find_seed(grab_holds);
    let fight = grab_attempt(n);
    // The counter is resolved first: a 1, just a scratch.
    assert_eq!(suffered(&fight.events, "Theobald"), Some(1));
    assert_eq!(fight.character("Theobald").health, 9);
    // Theobald is still standing, so the bandit attempts a STR save, and fails.
    let order = types(&fight.events);
    let hit = order.iter().position(|t| t == "zone-rpg.CharacterHit").unwrap();
    let save = order.iter().position(|t| t == "zone-rpg.NonLethalResolved").unwrap();
    assert!(hit < save, "the non-lethal attack is resolved last");
    let E::NonLethalResolved { save, succeeded, .. } = find(&fight.events, "zone-rpg.NonLethalResolved") else {
        unreachable!()
    };
    assert!(!save.passed && *succeeded);
    assert_eq!(fight.character("bandit").grabbed_by.as_deref(), Some("Theobald"));
}

#[test]
fn the_grabbed_bandit_cannot_react_to_theobalds_dagger_and_only_tries_to_break_free_per_seed_001_non_lethal_attacks() {
    let n = find_seed(|n| {
        if !grab_holds(n) {
            return false;
        }
        let mut fight = grab_attempt(n);
        fight.gm(end_turn());
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(attack("Theobald", Some("dagger"), "bandit"));
        fight.gm(end_turn());
        fight.when(gm(), take_turn("bandit")).is_ok()
            && fight.when(gm(), C::BreakFree { character: "bandit".into() }).is_ok()
            && fight.character("bandit").grabbed_by.is_none()
    });
    let mut fight = grab_attempt(n);
    fight.by(player("carol"), end_turn());
    // The round ends (the bandit spent his turn countering); on Theobald's next turn he stabs.
    fight.start_round(PARTY);
    fight.by(player("carol"), take_turn("Theobald"));
    let events = fight.by(player("carol"), attack("Theobald", Some("dagger"), "bandit"));
    let E::AttackDeclared { targets, .. } = find(&events, "zone-rpg.AttackDeclared") else { unreachable!() };
    assert!(!targets[0].can_react, "grabbed: he can't react");
    assert!(has(&events, "zone-rpg.AttackResolved"));
    assert_eq!(fight.character("Theobald").grabbing.as_deref(), Some("bandit"), "a one-handed attack keeps hold");
    let bandit = fight.character("bandit");
    assert!(bandit.standing() && bandit.health < 8, "still alive and conscious despite suffering damage");
    fight.by(player("carol"), end_turn());
    // On his turn he can only attempt to break free.
    fight.gm(take_turn("bandit"));
    fight.refused(attack("bandit", Some("axe"), "Theobald"), "zone-rpg.grabbed", "Non-lethal attacks");
    fight.refused(walk("bandit", &[]), "zone-rpg.grabbed", "Non-lethal attacks");
    let events = fight.gm(C::BreakFree { character: "bandit".into() });
    assert!(matches!(&events[0], E::BreakFreeAttempted { freed: true, .. }));
    // He succeeds, but his turn has already been consumed.
    fight.refused(attack("bandit", Some("axe"), "Theobald"), "zone-rpg.turn_over", "Taking a turn");
}

#[test]
fn any_other_action_frees_the_grabbed_character_per_seed_001_non_lethal_attacks() {
    let n = find_seed(grab_holds);
    let mut fight = grab_attempt(n);
    fight.gm(end_turn());
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    let events = fight.gm(perform("Theobald", herald_domain::zone_rpg::command::Action::Taunt {}));
    assert!(has(&events, "zone-rpg.GrabReleased"));
    assert!(fight.character("bandit").grabbed_by.is_none());
}

#[test]
fn an_ally_spends_a_main_action_to_free_a_grabbed_character_with_a_str_save_per_seed_001_non_lethal_attacks() {
    let mut setup = grapple_example();
    setup.characters.push(npc("bandit 2", "road").saves(10, 10, 10));
    let grab = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}));
        fight.gm(decline("bandit"));
        fight.gm(end_turn());
        fight.gm(take_turn("bandit 2"));
        fight.gm(C::FreeAlly { character: "bandit 2".into(), ally: "bandit".into() });
        fight
    };
    let n = find_seed(|n| {
        let fight = grab(n);
        has(&fight.events, "zone-rpg.BreakFreeAttempted") && fight.character("bandit").grabbed_by.is_none()
    });
    let fight = grab(n);
    let E::BreakFreeAttempted { helper, save, freed, .. } = find(&fight.events, "zone-rpg.BreakFreeAttempted") else {
        unreachable!()
    };
    assert_eq!((helper.as_deref(), save.character.as_str(), *freed), (Some("bandit 2"), "bandit 2", true));
}

// ---------------------------------------------------------------------------------------------
// Disarm, shove
// ---------------------------------------------------------------------------------------------

fn manoeuvre(setup: &Table, manoeuvre: Manoeuvre, n: u64) -> Fight {
    let mut fight = given(setup, n);
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    fight.gm(non_lethal("Theobald", "bandit", manoeuvre));
    if fight.state.pending_attack.is_some() {
        fight.gm(decline("bandit"));
    }
    fight
}

fn succeeded(fight: &Fight) -> bool {
    matches!(find(&fight.events, "zone-rpg.NonLethalResolved"), E::NonLethalResolved { succeeded: true, .. })
}

#[test]
fn a_disarmed_target_drops_the_weapon_and_an_attacker_with_a_free_hand_grabs_it_per_seed_001_non_lethal_attacks() {
    let setup = grapple_example();
    let take = Manoeuvre::Disarm { weapon: "axe".into(), take: true };
    let n = find_seed(|n| succeeded(&manoeuvre(&setup, take.clone(), n)));
    let fight = manoeuvre(&setup, take, n);
    assert!(fight.character("bandit").weapon("axe").is_none());
    let axe = fight.character("Theobald").weapon("axe").unwrap();
    assert!(!axe.weapon.held, "taken, not yet in hand");
    let drop = Manoeuvre::Disarm { weapon: "axe".into(), take: false };
    let n = find_seed(|n| succeeded(&manoeuvre(&setup, drop.clone(), n)));
    let fight = manoeuvre(&setup, drop, n);
    assert_eq!((fight.state.items[0].zone.as_str(), fight.state.items[0].item.name()), ("road", "axe"));
}

#[test]
fn a_shove_moves_the_target_half_a_zone_perhaps_into_a_hazard_per_seed_001_non_lethal_attacks() {
    let (mut zones, borders) = chain(&["road", "cliff"]);
    zones[0] = with_hazard(zone("road"), "pit", Some("2d6"), false);
    zones[1] = with_hazard(zone("cliff"), "lava", None, true);
    let setup = grapple_example().zones(zones, borders);
    let into_pit = Manoeuvre::Shove { to: None, hazard: Some("pit".into()) };
    let n = find_seed(|n| succeeded(&manoeuvre(&setup, into_pit.clone(), n)));
    let fight = manoeuvre(&setup, into_pit, n);
    assert!(has(&fight.events, "zone-rpg.HazardStruck"));
    assert_eq!(faces(&fight.events, "damage 2d6 of pit").len(), 2);
    // Half a zone does not carry it over to the next zone, unless it stands on that border.
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    let over = Manoeuvre::Shove { to: Some("cliff".into()), hazard: Some("lava".into()) };
    fight.refused(non_lethal("Theobald", "bandit", over.clone()), "zone-rpg.shove_too_far", "Non-lethal attacks");
    let mut at_edge = setup.clone();
    at_edge.characters[1].at_border = Some("cliff".into());
    let n = find_seed(|n| succeeded(&manoeuvre(&at_edge, over.clone(), n)));
    let fight = manoeuvre(&at_edge, over, n);
    let bandit = fight.character("bandit");
    assert!(bandit.dead && bandit.zone == "cliff", "into the lava");
}

#[test]
fn a_non_lethal_counter_to_a_non_lethal_attack_is_resolved_last_per_seed_001_non_lethal_attacks() {
    let setup = grapple_example();
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    fight.gm(non_lethal("Theobald", "bandit", Manoeuvre::Disarm { weapon: "axe".into(), take: false }));
    fight.gm(react(
        "bandit",
        ReactionChoice::Counter {
            weapon: None,
            impaired: false,
            manoeuvre: Some(Manoeuvre::Disarm { weapon: "dagger".into(), take: false }),
        },
    ));
    let resolved: Vec<(String, String)> = fight
        .events
        .iter()
        .filter_map(|e| match e {
            E::NonLethalResolved { attacker, target, .. } => Some((attacker.clone(), target.clone())),
            _ => None,
        })
        .collect();
    let expected = [("Theobald", "bandit"), ("bandit", "Theobald")].map(|(a, t)| (a.to_string(), t.to_string()));
    assert_eq!(resolved, expected);
}

#[test]
fn grabbing_needs_a_free_hand_per_seed_001_non_lethal_attacks() {
    let mut greataxe = weapon("greataxe", 10);
    greataxe.hands = Hands::Two;
    let setup = table(vec![pc("Theobald", "carol", "road").armed(greataxe), npc("bandit", "road")]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    fight.refused(
        non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}),
        "zone-rpg.no_free_hand",
        "Non-lethal attacks",
    );
}

#[test]
fn a_grabbing_character_equipping_and_attacking_with_a_two_handed_weapon_lets_go_per_seed_001_non_lethal_attacks() {
    let mut greataxe = weapon("greataxe", 10);
    greataxe.hands = Hands::Two;
    greataxe.held = false;
    let setup = table(vec![pc("Theobald", "carol", "road").armed(greataxe), npc("bandit", "road").health(30)]);
    let grab = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}));
        fight.gm(decline("bandit"));
        fight
    };
    let n = find_seed(|n| grab(n).character("bandit").grabbed_by.is_some());
    let mut fight = grab(n);
    fight.gm(end_turn());
    fight.gm(pass(BANDITS));
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    // Seed 001 "Grapple": "Any other action frees the grabbed character". Taking the greataxe in
    // both hands is such an action: the hand that held the bandit lets go for it.
    let events =
        fight.gm(perform("Theobald", herald_domain::zone_rpg::command::Action::Equip { item: "greataxe".into() }));
    assert_eq!(types(&events), ["zone-rpg.GrabReleased", "zone-rpg.ItemHandled"]);
    assert_eq!(fight.character("bandit").grabbed_by, None);
    assert_eq!(fight.character("Theobald").grabbing, None);
    // And with it in hand he attacks with it (the bandit, free again, may react).
    let events = fight.gm(attack("Theobald", Some("greataxe"), "bandit"));
    assert!(!has(&events, "zone-rpg.GrabReleased"), "nobody is held any more");
    assert!(fight.state.pending_attack.is_some(), "the bandit is free and can react: {:?}", types(&events));
}

#[test]
fn a_grabbing_character_holding_a_one_handed_weapon_equips_a_second_one_letting_go_per_seed_001_non_lethal_attacks() {
    let mut dagger = weapon("dagger", 4);
    dagger.held = false;
    let setup = table(vec![
        pc("Theobald", "carol", "road").armed(weapon("sword", 6)).armed(dagger),
        npc("bandit", "road").health(30),
    ]);
    let grab = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}));
        fight.gm(decline("bandit"));
        fight
    };
    let n = find_seed(|n| grab(n).character("bandit").grabbed_by.is_some());
    let mut fight = grab(n);
    fight.gm(end_turn());
    fight.gm(pass(BANDITS));
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    // Sword in one hand, the bandit in the other: equipping the dagger is another action, which
    // frees the bandit and the hand with him.
    let events =
        fight.gm(perform("Theobald", herald_domain::zone_rpg::command::Action::Equip { item: "dagger".into() }));
    assert_eq!(types(&events), ["zone-rpg.GrabReleased", "zone-rpg.ItemHandled"]);
    assert_eq!(fight.character("Theobald").hands_busy(), 2);
}

#[test]
fn a_grabbed_character_reacting_is_refused_as_grabbed_per_seed_001_non_lethal_attacks() {
    // Seed 001 "Grapple": "Grabbed characters can't act"; the seed's example: "The bandit can't
    // react since he is grabbed". Theobald's dagger attack is resolved at once, and a reaction
    // sent then is refused for that reason.
    let setup =
        table(vec![pc("Theobald", "carol", "road").armed(weapon("dagger", 4)), npc("bandit", "road").health(30)]);
    let grab = |n| {
        let mut fight = given(&setup, n);
        fight.start_round(PARTY);
        fight.gm(take_turn("Theobald"));
        fight.gm(non_lethal("Theobald", "bandit", Manoeuvre::Grapple {}));
        fight.gm(decline("bandit"));
        fight
    };
    let n = find_seed(|n| grab(n).character("bandit").grabbed_by.is_some());
    let mut fight = grab(n);
    fight.gm(end_turn());
    fight.gm(pass(BANDITS));
    fight.start_round(PARTY);
    fight.gm(take_turn("Theobald"));
    let events = fight.gm(attack("Theobald", Some("dagger"), "bandit"));
    assert!(has(&events, "zone-rpg.AttackResolved"), "the grabbed bandit cannot react: resolved at once");
    fight.refused(dodge("bandit"), "zone-rpg.grabbed", "Non-lethal attacks");
}
