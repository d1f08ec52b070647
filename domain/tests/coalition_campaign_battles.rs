//! Battles across turns of a campaign, through `CoalitionCampaign::decide`/`evolve` only: a battle
//! announced, its result applied the next turn with the loser moved next to it or pushed into an
//! occupied square to fight again (seed 003 §3.1, §4.2.5), and joint engagements whose battle
//! stream's result comes back the same way (§3.2.5, §4.4).

#[path = "coalition_campaign_support.rs"]
mod support;

use std::collections::BTreeSet;

use herald_domain::coalition::{
    army::{RankClass, Team},
    campaign::CampaignEvent,
    map::Square,
    movement::{Attack, MoveOutcome},
};
use support::*;

/// Every square of the map holds at most one army of each team.
fn no_friends_share_a_square(round: &Round) {
    let mut seen = BTreeSet::new();
    for (name, army) in &round.state.armies {
        assert!(
            seen.insert((army.square, format!("{:?}", army.army.team))),
            "{name} shares {} with a friend",
            army.square
        );
    }
}

fn around(square: Square) -> Vec<Square> {
    square.surrounding(map().bounds)
}

#[test]
fn a_battle_result_applies_casualties_next_turn_and_moves_the_loser_to_an_empty_square_next_to_it_seed_003_4_2_5() {
    let crovax = phyrexian(
        "Crovax",
        RankClass::PlaguelordCommander,
        vec![
            line("Phyrexian Broodling", &[herald_domain::coalition::army::Color::Black], 1, 0, 5000, 5000),
            line("Dauthi Slayer", &[herald_domain::coalition::army::Color::Black], 2, 1, 2500, 2500),
        ],
    );
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Barrin", RankClass::PlaguelordCommander), "13E"),
            on(crovax, "10E"),
            // Two of the squares around the battle are taken: the loser never lands there.
            on(mages("Sai Rei", RankClass::CplLtCommander), "9E"),
            on(broodlings("Rag", RankClass::CplLtCommander), "11D"),
        ],
    );

    let engaged = round.play_orders(&["Barrin: 13E > 10E; engage Crovax"], vec![]);
    let battle = the_battle(&engaged);
    assert_eq!(battle.square, sq("10E"));
    assert!(battle.automatic && !battle.joint);
    assert_eq!(
        engaged.iter().find_map(|event| match event {
            CampaignEvent::BattleAnnounced { attack, .. } => Some(attack.clone()),
            _ => None,
        }),
        Some(Attack::Attacks { attackers: vec!["Barrin".into()], defenders: vec!["Crovax".into()] }),
        "Barrin moved in on Crovax: Barrin attacks (seed 003 §4.1.2.3)"
    );
    assert_eq!(round.state.armies["Barrin"].battle.as_deref(), Some(battle.battle.as_str()));

    // Next turn both armies are fighting: orders for them do not move them (§3.2.1).
    let result = battle.result(Team::Coalition, &[("Barrin", vec![600]), ("Crovax", vec![1800, 900])], &[]);
    let events = round.play_orders(&["Barrin: 10E > 10H", "Crovax: 10E > 10B"], vec![result]);
    assert_eq!(round.troops("Barrin"), vec![4400]);
    assert_eq!(round.troops("Crovax"), vec![3200, 1600]);
    assert_eq!(round.square("Barrin"), sq("10E"), "the winner stays on the battle square");
    assert_eq!(report(&events, "Barrin").outcome, MoveOutcome::InBattle);
    let bumped = bumps(&events);
    assert_eq!(bumped.len(), 1, "{bumped:?}");
    let (army, from, to, pushed) = bumped[0].clone();
    assert_eq!((army.as_str(), from, pushed), ("Crovax", sq("10E"), false));
    assert!(around(sq("10E")).contains(&to), "{to} is one of the 8 squares around 10E");
    assert!(![sq("9E"), sq("11D")].contains(&to), "{to} was occupied");
    assert_eq!(round.square("Crovax"), to);
    assert!(round.state.battles[&battle.battle].applied);
    assert!(round.state.armies.values().all(|army| army.battle.is_none()));
    assert!(announced(&events).is_empty(), "the armies are apart: {events:?}");
    no_friends_share_a_square(&round);
    round.assert_replays();
}

#[test]
fn a_battle_cannot_be_adjudicated_past_without_its_result_nor_with_a_stranger_in_it_seed_003_3_1() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Barrin", RankClass::PlaguelordCommander), "13E"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "10E"),
            on(broodlings("Rag", RankClass::CplLtCommander), "20E"),
        ],
    );
    let battle = the_battle(&round.play_orders(&["Barrin: 13E > 10E; engage Crovax"], vec![]));
    round.open();
    assert_eq!(round.adjudicate(vec![]).expect_err("refused"), "coalition.campaign.battle_unresolved");
    let mut stranger = battle.result(Team::Coalition, &[], &[]);
    stranger.sides[0].army = "Rag".into();
    assert_eq!(round.adjudicate(vec![stranger]).expect_err("refused"), "coalition.campaign.not_in_battle");
    let mut unknown = battle.result(Team::Coalition, &[], &[]);
    unknown.battle = "battle-nope".into();
    assert_eq!(round.adjudicate(vec![unknown]).expect_err("refused"), "coalition.campaign.unknown_battle");
    round.adjudicate(vec![battle.result(Team::Phyrexia, &[], &[])]).expect("adjudicated with the result");
    assert_ne!(round.square("Barrin"), sq("10E"), "the attacker lost and was moved off");
    assert_eq!(round.square("Crovax"), sq("10E"));
    // A result already applied cannot be applied twice.
    let again = battle.result(Team::Phyrexia, &[], &[]);
    round.open();
    assert_eq!(round.adjudicate(vec![again]).expect_err("refused"), "coalition.campaign.unknown_battle");
    round.assert_replays();
}

#[test]
fn a_loser_with_all_eight_squares_occupied_is_pushed_into_an_enemy_and_fights_again_next_turn_seed_003_4_2_5() {
    // Crovax holds 10E; six Coalition guards and two Phyrexian friends fill the 8 squares around it.
    let battle_square = sq("10E");
    let mut armies = vec![
        on(mages("Barrin", RankClass::PlaguelordCommander), "12E"),
        on(broodlings("Crovax", RankClass::PlaguelordCommander), "10E"),
    ];
    let friends = [sq("9D"), sq("11F")];
    for square in around(battle_square) {
        let name = format!("Guard {square}");
        let army = if friends.contains(&square) {
            broodlings(&name, RankClass::CplLtCommander)
        } else {
            mages(&name, RankClass::CplLtCommander)
        };
        armies.push(on(army, &square.to_string()));
    }
    let mut round = Round::create(map(), armies);

    // Barrin passes over the guard at 11E (seed 003 §3.2.2.1) and attacks Crovax.
    let battle = the_battle(&round.play_orders(&["Barrin: 12E > 10E; engage Crovax"], vec![]));
    assert_eq!(battle.square, battle_square);

    let result = battle.result(Team::Coalition, &[("Crovax", vec![2500])], &[]);
    let events = round.play_orders(&[], vec![result]);
    let bumped = bumps(&events);
    assert_eq!(bumped.len(), 1, "{bumped:?}");
    let (army, from, to, pushed) = bumped[0].clone();
    assert_eq!((army.as_str(), from), ("Crovax", battle_square));
    assert!(pushed, "all 8 squares were occupied");
    assert!(around(battle_square).contains(&to) && !friends.contains(&to), "pushed into an enemy's square, not {to}");
    assert_eq!(round.square("Crovax"), to);
    assert_eq!(round.square("Barrin"), battle_square);

    // The push is a new battle, announced at once for the next turn.
    let again = the_battle(&events);
    assert_eq!(again.square, to);
    assert_eq!(again.armies().len(), 2);
    assert!(again.armies().contains(&"Crovax".to_string()));
    assert!(again.armies().contains(&format!("Guard {to}")));
    assert!(again.automatic);
    assert_ne!(again.battle, battle.battle);
    assert!(!round.state.battles[&again.battle].applied);

    // And its result is applied the turn after.
    let events = round.play_orders(&[], vec![again.result(Team::Phyrexia, &[], &[])]);
    let guard = format!("Guard {to}");
    assert_eq!(bumps(&events).first().map(|bump| bump.0.clone()), Some(guard));
    round.assert_replays();
}

/// Sai Rei and Tahngarth, two Lt Cmdr armies, against Rag; Crovax elsewhere.
fn joint_round() -> Round {
    Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "10H"),
            on(broodlings("Rag", RankClass::CplLtCommander), "10E"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "30E"),
        ],
    )
}

fn joint_engage(round: &mut Round) -> Announced {
    let events = round.play_orders(&["Sai Rei: 10B > 10E; Joint Engage", "Tahngarth: 10H > 10E; Joint Engage"], vec![]);
    assert_eq!(report(&events, "Sai Rei").outcome, MoveOutcome::JointEngagement);
    let battle = the_battle(&events);
    assert!(battle.joint, "a joint engagement (seed 003 §3.2.5.2)");
    assert!(
        battle.automatic,
        "2v1 and 2v2 battles are decided by the battle system in their own stream (seed 003 §4.4)"
    );
    assert_eq!(battle.square, sq("10E"));
    let mut armies = battle.armies();
    armies.sort();
    assert_eq!(armies, vec!["Rag", "Sai Rei", "Tahngarth"]);
    assert_eq!(round.square("Sai Rei"), sq("10E"));
    assert_eq!(round.square("Tahngarth"), sq("10E"));
    battle
}

#[test]
fn a_joint_engagement_waits_for_the_judges_result_and_then_the_loser_and_one_winner_leave_the_square_seed_003_4_4() {
    let mut round = joint_round();
    let battle = joint_engage(&mut round);

    round.open();
    let refused = round.adjudicate(vec![]).expect_err("no result yet");
    assert_eq!(refused, "coalition.campaign.battle_unresolved");

    let result =
        battle.result(Team::Coalition, &[("Sai Rei", vec![800]), ("Tahngarth", vec![400]), ("Rag", vec![3000])], &[]);
    let events = round.adjudicate(vec![result]).expect("the judge's result is applied");
    assert_eq!(round.troops("Sai Rei"), vec![4200]);
    assert_eq!(round.troops("Tahngarth"), vec![4600]);
    assert_eq!(round.troops("Rag"), vec![2000]);
    assert!(round.state.battles[&battle.battle].applied);

    // §4.4: "If a team with 2 participating armies wins the battle, one of them must still leave
    // the square", and its retreat is determined before the loser's.
    let bumped = bumps(&events);
    assert_eq!(bumped.len(), 2, "{bumped:?}");
    assert!(["Sai Rei", "Tahngarth"].contains(&bumped[0].0.as_str()), "a winner leaves first: {bumped:?}");
    assert_eq!(bumped[1].0, "Rag");
    for (army, from, to, pushed) in &bumped {
        assert_eq!(*from, sq("10E"), "{army}");
        assert!(around(sq("10E")).contains(to) && !pushed, "{army} to {to}");
    }
    assert_ne!(bumped[0].2, bumped[1].2, "two retreats, two squares");
    let staying: Vec<&str> =
        ["Sai Rei", "Tahngarth"].into_iter().filter(|army| round.square(army) == sq("10E")).collect();
    assert_eq!(staying.len(), 1, "one winner holds the square");
    no_friends_share_a_square(&round);
    round.assert_replays();
}

#[test]
fn two_armies_that_lose_a_joint_engagement_both_retreat_to_different_squares_seed_003_4_2_5_and_4_4() {
    let mut round = joint_round();
    let battle = joint_engage(&mut round);
    round.open();
    let result = battle.result(Team::Phyrexia, &[("Sai Rei", vec![2000]), ("Tahngarth", vec![2000])], &[]);
    let events = round.adjudicate(vec![result]).expect("applied");
    let bumped = bumps(&events);
    let mut armies: Vec<&str> = bumped.iter().map(|bump| bump.0.as_str()).collect();
    armies.sort_unstable();
    assert_eq!(armies, vec!["Sai Rei", "Tahngarth"]);
    assert_ne!(round.square("Sai Rei"), round.square("Tahngarth"));
    assert_eq!(round.square("Rag"), sq("10E"));
    no_friends_share_a_square(&round);
    round.assert_replays();
}

#[test]
fn a_joint_engage_by_a_captain_is_ignored_and_the_army_does_not_move_seed_003_3_2_5_4() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Barrin", RankClass::EvincarCaptain), "10B"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "10H"),
            on(broodlings("Rag", RankClass::CplLtCommander), "10E"),
            on(broodlings("Crovax", RankClass::EvincarCaptain), "30E"),
        ],
    );
    // The order is refused when posted: it names the rule.
    round.open();
    assert_eq!(
        round.post("barrin", "Barrin: 10B > 10E; Joint Engage").expect_err("refused"),
        "coalition.orders.joint_engage_rank"
    );
    round.post("tahngarth", "Tahngarth: 10H > 10E; Joint Engage").expect("posted");
    let events = round.adjudicate(vec![]).expect("adjudicated");
    // A lone Joint Engage fails §3.2.5.2 and is ignored: Tahngarth does not move (§3.2.5.3).
    assert_eq!(report(&events, "Tahngarth").outcome, MoveOutcome::JointEngageIgnored);
    assert_eq!(round.square("Tahngarth"), sq("10H"));
    assert!(announced(&events).is_empty());
    round.assert_replays();
}

#[test]
fn a_loser_pushed_into_the_square_of_another_battles_winner_fights_it_next_turn_seed_003_4_2_5_and_3_3_1() {
    // Crovax holds 10E with Phyrexian friends on 7 of the 8 squares around it; the eighth, 10F,
    // is where Rag attacks Guard F the same turn Barrin attacks Crovax.
    let mut armies = vec![
        on(mages("Barrin", RankClass::PlaguelordCommander), "12E"),
        on(broodlings("Crovax", RankClass::PlaguelordCommander), "10E"),
        on(mages("Guard F", RankClass::CplLtCommander), "10F"),
        on(broodlings("Rag", RankClass::CplLtCommander), "10H"),
    ];
    for square in around(sq("10E")).into_iter().filter(|square| *square != sq("10F")) {
        armies.push(on(broodlings(&format!("Friend {square}"), RankClass::CplLtCommander), &square.to_string()));
    }
    let mut round = Round::create(map(), armies);
    let events = round.play_orders(&["Barrin: 12E > 10E; engage Crovax", "Rag: 10H > 10F; engage Guard F"], vec![]);
    let battles = announced(&events);
    assert_eq!(battles.len(), 2, "{battles:?}");

    // Both battles are won by the Coalition: Rag retreats from 10F, and Crovax, with only friends
    // and Guard F around it, is pushed into 10F.
    let results = battles
        .iter()
        .map(|battle| battle.result(Team::Coalition, &[("Crovax", vec![500]), ("Rag", vec![500])], &[]))
        .collect();
    let events = round.play_orders(&[], results);
    let crovax = bumps(&events).into_iter().find(|bump| bump.0 == "Crovax").expect("Crovax is bumped");
    assert_eq!((crovax.2, crovax.3), (sq("10F"), true), "pushed into the only enemy-held square");
    assert_eq!(round.square("Guard F"), sq("10F"));

    // "If two enemy armies end up in the same square for any reason, they will battle" (§3.3.1),
    // and the pushed loser "must fight again the very next turn" (§4.2.5).
    let again = announced(&events);
    assert_eq!(again.len(), 1, "the push is a new battle: {events:?}");
    assert_eq!(again[0].square, sq("10F"));
    let mut armies = again[0].armies();
    armies.sort();
    assert_eq!(armies, vec!["Crovax", "Guard F"]);
    round.assert_replays();
}
