//! Control (seed 003 ch. 5) through `CoalitionCampaign::decide`/`evolve` only: the control list as
//! events, the two players per side with authority, transfers and emergencies, contingencies,
//! active and inactive players, the limitations of §5.3, control at the lock and reprimands.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{RankClass, Team},
    campaign::{CampaignCommand, CampaignEvent},
    rank::Rank,
};
use support::*;

/// A Coalition roster and its armies; Phyrexia has Crovax.
fn a_round() -> Round {
    let players = vec![
        roster("Gerrard", Team::Coalition, Rank::General),
        roster("Hanna", Team::Coalition, Rank::Admiral),
        roster("Sisay", Team::Coalition, Rank::Captain),
        roster("Tahngarth", Team::Coalition, Rank::LtCommander),
        roster("Orim", Team::Coalition, Rank::Lieutenant),
        roster("Karn", Team::Coalition, Rank::Lieutenant),
        roster("Yawgmoth", Team::Phyrexia, Rank::ChiefPraetor),
        roster("Crovax", Team::Phyrexia, Rank::Evincar),
    ];
    let armies = vec![
        held(mages("Gerrard", RankClass::ChiefPraetorGeneral), "20A", &["Gerrard"]),
        held(mages("Tahngarth", RankClass::CplLtCommander), "20C", &["Tahngarth"]),
        held(mages("Proxy 1", RankClass::CplLtCommander), "20E", &["Sisay"]),
        held(mages("Proxy 2", RankClass::CenturionLieutenant), "20G", &["Tahngarth"]),
        held(mages("Orim", RankClass::CenturionLieutenant), "20I", &["Orim"]),
        held(mages("Proxy 3", RankClass::CenturionLieutenant), "20K", &["Karn"]),
        held(broodlings("Crovax", RankClass::EvincarCaptain), "3A", &["Crovax"]),
    ];
    Round::set_up(KEY, map(), armies, players, vec![]).expect("the round is set up")
}

fn request(army: &str, controllers: &[&str]) -> CampaignCommand {
    CampaignCommand::RequestControlChange {
        army: army.into(),
        controllers: controllers.iter().map(|c| c.to_string()).collect(),
        reason: None,
    }
}

fn controllers(round: &Round, army: &str) -> Vec<String> {
    round.state.armies[army].controllers.iter().cloned().collect()
}

#[test]
fn the_general_and_one_admiral_hold_the_authority_and_only_they_request_changes_seed_003_5_2_2_1() {
    let mut round = a_round();
    assert_eq!(round.state.control.authority[&Team::Coalition].holders, vec!["Gerrard", "Hanna"]);
    assert_eq!(round.state.control.authority[&Team::Phyrexia].holders, vec!["Yawgmoth"]);
    assert_eq!(
        round.run(request("Proxy 2", &["Orim"]), player("Sisay")).expect_err("no authority"),
        "coalition.campaign.no_control_authority"
    );
    let events = round.run(request("Proxy 2", &["Orim"]), player("Hanna")).expect("Hanna holds it");
    let CampaignEvent::ControlChanged(changed) = &events[0] else { panic!("{events:?}") };
    assert_eq!(changed.at, at(round.hour), "effective on the timestamp of the request (seed 003 §5.2.1)");
    assert_eq!(controllers(&round, "Proxy 2"), vec!["Orim"]);
    round.assert_replays();
}

#[test]
fn the_general_or_a_holder_transfers_the_authority_seed_003_5_2_2_1() {
    let mut round = a_round();
    let transfer = |holders: &[&str]| CampaignCommand::TransferControlAuthority {
        team: Team::Coalition,
        holders: holders.iter().map(|h| h.to_string()).collect(),
    };
    assert!(round.run(transfer(&["Sisay", "Tahngarth"]), player("Orim")).is_err(), "Orim holds nothing");
    round.run(transfer(&["Sisay", "Tahngarth"]), player("Hanna")).expect("a holder transfers it");
    assert_eq!(
        round.run(request("Proxy 2", &["Orim"]), player("Hanna")).expect_err("no longer"),
        "coalition.campaign.no_control_authority"
    );
    round.run(request("Proxy 2", &["Orim", "Tahngarth"]), player("Sisay")).expect("Sisay holds it now");
    // The General can always get it back.
    round.run(transfer(&["Gerrard", "Hanna"]), player("Gerrard")).expect("the General takes it back");
    let refused = round.run(transfer(&["Gerrard", "Crovax"]), player("Gerrard")).expect_err("a Phyrexian");
    assert_eq!(refused, "coalition.campaign.authority_holders");
    round.assert_replays();
}

#[test]
fn nobody_controls_an_army_above_their_rank_but_captains_and_above_control_any_seed_003_5_3_1() {
    let mut round = a_round();
    assert_eq!(
        round.run(request("Gerrard", &["Orim"]), player("Hanna")).expect_err("a Lieutenant"),
        "coalition.campaign.rank_too_low"
    );
    assert_eq!(
        round.run(request("Proxy 1", &["Crovax"]), player("Hanna")).expect_err("a Phyrexian"),
        "coalition.campaign.controller_not_on_team"
    );
    round.run(request("Proxy 3", &["Sisay", "Karn"]), player("Hanna")).expect("a Captain controls any army");
    round
        .run(request("Proxy 2", &["Orim", "Tahngarth"]), player("Hanna"))
        .expect("a Lieutenant controls a Lieutenant army");
    round.assert_replays();
}

#[test]
fn a_demotion_leaves_the_armies_above_the_new_rank_without_a_controller_seed_003_5_3_1() {
    let mut round = a_round();
    let events = round
        .run(CampaignCommand::ChangeRank { player: "Tahngarth".into(), rank: Rank::Lieutenant }, player("Gerrard"))
        .expect("demoted");
    assert!(matches!(&events[0], CampaignEvent::PlayerRankChanged(changed) if changed.to == Rank::Lieutenant));
    assert!(
        controllers(&round, "Tahngarth").is_empty(),
        "controlled by no player until the side asks for a new controller"
    );
    assert_eq!(controllers(&round, "Proxy 2"), vec!["Tahngarth"], "the Lieutenant army stays his");
    let refused =
        round.run(CampaignCommand::ChangeRank { player: "Tahngarth".into(), rank: Rank::Captain }, player("Orim"));
    assert!(refused.is_err(), "only leaders (or judges) change ranks");
    round.assert_replays();
}

#[test]
fn a_demoted_active_players_last_army_is_kept_until_a_new_one_is_found_unless_the_exception_applies_seed_003_5_3_4() {
    let mut round = a_round();
    // Sisay, a Captain, controls only Proxy 1 (Lt Cmdr). Demoted to Lieutenant she could control
    // none of her armies; Lieutenants (Orim, Karn, Sisay) are 3 for 3 Lieutenant armies, so the
    // exception does not apply: she keeps Proxy 1 and a new army is owed to her.
    let events = round
        .run(CampaignCommand::ChangeRank { player: "Sisay".into(), rank: Rank::Lieutenant }, player("Hanna"))
        .expect("demoted");
    assert!(
        events.iter().any(|e| matches!(e, CampaignEvent::NewArmyOwed(owed) if owed.player == "Sisay")),
        "{events:?}"
    );
    assert_eq!(controllers(&round, "Proxy 1"), vec!["Sisay"]);
    // Giving her a legal army clears what is owed.
    round.run(request("Proxy 2", &["Sisay", "Tahngarth"]), player("Hanna")).expect("a Lieutenant army for her");
    assert!(!round.state.control.owed.contains("Sisay"));

    // With more Lieutenants than Lieutenant armies the demotion takes the last army (the exception).
    let mut crowded = a_round();
    crowded
        .run(
            CampaignCommand::AddPlayer { player: roster("Mirri", Team::Coalition, Rank::Lieutenant) },
            player("Gerrard"),
        )
        .expect("joined");
    let events = crowded
        .run(CampaignCommand::ChangeRank { player: "Sisay".into(), rank: Rank::Lieutenant }, player("Hanna"))
        .expect("demoted");
    assert!(!events.iter().any(|e| matches!(e, CampaignEvent::NewArmyOwed(_))), "{events:?}");
    assert!(controllers(&crowded, "Proxy 1").is_empty());
    crowded.assert_replays();
}

#[test]
fn an_active_players_last_army_may_never_be_taken_away_seed_003_5_3_4() {
    let mut round = a_round();
    let refused = round.run(request("Proxy 3", &["Sisay"]), player("Hanna")).expect_err("Karn's last army");
    assert_eq!(refused, "coalition.campaign.last_army");
    round.run(request("Proxy 3", &["Sisay", "Karn"]), player("Hanna")).expect("sharing it takes nothing away");
    round.assert_replays();
}

#[test]
fn a_namesake_army_needs_its_players_permission_seed_003_5_3_2() {
    let mut round = a_round();
    assert_eq!(
        round.run(request("Tahngarth", &["Sisay"]), player("Hanna")).expect_err("his namesake"),
        "coalition.campaign.namesake_army"
    );
    assert!(
        round.run(CampaignCommand::PermitControlChange { army: "Tahngarth".into() }, player("Orim")).is_err(),
        "only Tahngarth may permit it"
    );
    round
        .run(CampaignCommand::PermitControlChange { army: "Tahngarth".into() }, player("Tahngarth"))
        .expect("permission");
    round.run(request("Tahngarth", &["Sisay"]), player("Hanna")).expect("with his permission");
    assert!(round.state.control.permissions.is_empty(), "a permission is used once");
    round.assert_replays();
}

#[test]
fn inactive_players_lose_the_protections_and_the_battle_judge_may_reject_a_leaders_declaration_seed_003_5_1() {
    let mut round = a_round();
    let declare = CampaignCommand::DeclareInactive { player: "Karn".into(), reason: "silent for days".into() };
    assert!(round.run(declare.clone(), player("Orim")).is_err(), "Orim is not a leader");
    round.run(declare, player("Hanna")).expect("a leader declares Karn inactive");
    let rejected = round
        .run(
            CampaignCommand::RejectInactivity { player: "Karn".into(), reason: "Karn posted in the thread".into() },
            judge(),
        )
        .expect("rejected");
    let CampaignEvent::InactivityRejected(rejection) = &rejected[0] else { panic!("{rejected:?}") };
    assert_eq!(
        round.run(request("Proxy 3", &["Sisay"]), player("Hanna")).expect_err("protected again"),
        "coalition.campaign.last_army"
    );
    // The head battle judge's call stands; overruling it reinstates the declaration.
    round
        .run(CampaignCommand::Overrule { call: rejection.call.call, reason: "the leaders were right".into() }, judge())
        .expect("overruled");
    round.run(request("Proxy 3", &["Sisay"]), player("Hanna")).expect("an inactive player's last army may be taken");
    round.assert_replays();
}

#[test]
fn a_player_who_has_not_posted_for_a_week_is_inactive_seed_003_5_1() {
    let mut round = a_round();
    let a_week_later = at(round.hour + 7 * 24 + 1);
    round
        .run_at(request("Proxy 3", &["Sisay"]), player("Hanna"), a_week_later)
        .expect("Karn has not posted for a week");
    // A player who states they will be inactive is inactive at once, and withdraws it themself.
    let mut round = a_round();
    round
        .run(CampaignCommand::DeclareInactive { player: "Karn".into(), reason: "holiday".into() }, player("Karn"))
        .expect("stated");
    assert!(
        round.run(CampaignCommand::RejectInactivity { player: "Karn".into(), reason: "no".into() }, judge()).is_err(),
        "a player's own statement is not rejected"
    );
    round.run(CampaignCommand::DeclareActive, player("Karn")).expect("back");
    assert_eq!(
        round.run(request("Proxy 3", &["Sisay"]), player("Hanna")).expect_err("active"),
        "coalition.campaign.last_army"
    );
    round.assert_replays();
}

#[test]
fn the_judge_may_accept_an_illegal_change_which_must_be_legal_again_within_one_turn_seed_003_5_2_2_2() {
    let mut round = a_round();
    let set = |accept: bool| CampaignCommand::SetControllers {
        army: "Gerrard".into(),
        controllers: vec!["Orim".into()],
        accept_illegal: accept,
        reason: Some("Gerrard is travelling".into()),
    };
    assert_eq!(round.run(set(false), judge()).expect_err("never required"), "coalition.campaign.rank_too_low");
    let events = round.run(set(true), judge()).expect("accepted");
    let CampaignEvent::IllegalControlAccepted(accepted) = &events[1] else { panic!("{events:?}") };
    assert_eq!(accepted.accepted.until_turn, 1);
    assert_eq!(controllers(&round, "Gerrard"), vec!["Orim"]);
    let turn = round.play(&[], vec![]);
    let ended = of_kind(&turn, |e| match e {
        CampaignEvent::IllegalControlEnded(ended) => Some(ended.clone()),
        _ => None,
    });
    assert_eq!(ended.len(), 1);
    assert!(controllers(&round, "Gerrard").is_empty(), "not legal again in time: the illegal controller is removed");
    assert!(round.state.control.illegal.is_empty());
    round.assert_replays();
}

#[test]
fn a_judges_emergency_authority_lasts_one_turn_seed_003_5_2_2_2() {
    let mut round = a_round();
    let emergency = CampaignCommand::AuthorizeEmergencyControl {
        team: Team::Coalition,
        holders: vec!["Sisay".into(), "Orim".into()],
        reason: "the General and the Admiral are both away".into(),
    };
    assert!(round.run(emergency.clone(), player("Gerrard")).is_err(), "the judge's power");
    round.run(emergency, judge()).expect("authorized");
    round.run(request("Proxy 2", &["Orim", "Tahngarth"]), player("Sisay")).expect("Sisay may now");
    assert!(round.run(request("Proxy 2", &["Tahngarth"]), player("Hanna")).is_err());
    round.play(&[], vec![]);
    assert_eq!(
        round.state.control.authority[&Team::Coalition].holders,
        vec!["Gerrard", "Hanna"],
        "back after one turn"
    );
    round.assert_replays();
}

#[test]
fn a_sides_authority_names_each_players_contingency_seed_003_5_2_3() {
    let mut round = a_round();
    let set = |contingency: &str| CampaignCommand::SetContingency {
        player: "Tahngarth".into(),
        contingency: Some(contingency.into()),
    };
    assert!(round.run(set("Orim"), player("Karn")).is_err(), "Karn holds no authority");
    assert_eq!(
        round.run(set("Crovax"), player("Hanna")).expect_err("another side"),
        "coalition.campaign.contingency_player"
    );
    round.run(set("Orim"), player("Hanna")).expect("set");
    assert_eq!(round.state.control.contingencies["Tahngarth"], "Orim");
    round.assert_replays();
}

#[test]
fn what_counts_is_the_control_list_at_the_movement_lock_seed_003_5_4_2() {
    let mut round = a_round();
    round.open();
    // Orim posts for Proxy 2 before he controls it; Tahngarth, who controls it, posts too.
    round.post("Orim", "Proxy 2: 20G > 21G").expect("accepted, to be judged at the lock");
    round.post("Tahngarth", "Proxy 2: 20G > 19G").expect("Tahngarth's own");
    assert!(round.state.orders[0].uncontrolled && !round.state.orders[1].uncontrolled);
    round.run(request("Proxy 2", &["Orim"]), player("Hanna")).expect("Proxy 2 to Orim before the lock");
    round.run(CampaignCommand::LockTurn, judge()).expect("locked");
    // A change after the lock does not count for this turn.
    round.run(request("Proxy 2", &["Tahngarth"]), player("Hanna")).expect("back to Tahngarth after the lock");
    let events = round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Proxy 2"), sq("21G"), "Orim controlled it at the lock");
    let (_, ignored) = movement(&events);
    assert_eq!(ignored.len(), 1);
    assert_eq!(ignored[0].order.posted_by, "Tahngarth");
    let reprimands = of_kind(&events, |e| matches!(e, CampaignEvent::PlayerReprimanded(_)).then_some(()));
    assert!(reprimands.is_empty(), "Tahngarth posted while he controlled it (seed 003 §5.4.2)");
    // Orders for the other side's armies are refused outright.
    round.open();
    assert_eq!(round.post("Tahngarth", "Crovax: 3A > 4A").expect_err("Phyrexian"), "coalition.campaign.not_controller");
    round.assert_replays();
}

#[test]
fn posting_for_an_army_one_never_controlled_is_reprimanded_seed_003_5_4_1() {
    let mut round = a_round();
    round.open();
    round.post("Orim", "Proxy 1: 20E > 21E").expect("accepted until the lock");
    let events = round.adjudicate(vec![]).expect("adjudicated");
    let reprimands = of_kind(&events, |e| match e {
        CampaignEvent::PlayerReprimanded(reprimand) => {
            Some((reprimand.player.clone(), reprimand.army.clone(), reprimand.rule.clone()))
        }
        _ => None,
    });
    assert_eq!(reprimands, vec![("Orim".to_string(), "Proxy 1".to_string(), "seed 003 §5.4.1".to_string())]);
    assert_eq!(round.square("Proxy 1"), sq("20E"));
    assert_eq!(round.state.reprimands.len(), 1);
    round.assert_replays();
}

#[test]
fn the_number_of_armies_rule_is_obsolete_and_not_enforced_seed_003_5_3_3() {
    let mut round = a_round();
    // Sisay would control four armies while Karn and Orim control one each: §5.3.3 would refuse it.
    for army in ["Tahngarth", "Proxy 2", "Gerrard"] {
        if army == "Tahngarth" {
            round
                .run(CampaignCommand::PermitControlChange { army: army.into() }, player("Tahngarth"))
                .expect("permission");
        }
        let mut keep = controllers(&round, army);
        keep.retain(|c| c != "Tahngarth" || army == "Proxy 2");
        keep.push("Sisay".into());
        let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
        round.run(request(army, &keep), player("Hanna")).unwrap_or_else(|code| panic!("{army}: {code}"));
    }
    assert_eq!(herald_domain::coalition::campaign::control::activity::armies_of(&round.state, "Sisay").len(), 4);
    round.assert_replays();
}

#[test]
fn a_player_whose_last_army_is_killed_is_owed_a_new_one_seed_003_5_3_4() {
    let mut round = a_round();
    round
        .run(
            CampaignCommand::RuleOnArmy {
                army: "Crovax".into(),
                square: sq("20L").to_owned(),
                reason: "a raid".into(),
            },
            judge(),
        )
        .expect("moved");
    let battle = the_battle(&round.play(&[("Crovax", "Crovax: 20L > 20K; engage Proxy 3")], vec![]));
    let result = battle.result(Team::Phyrexia, &[], &["Proxy 3"]);
    let events = round.play(&[], vec![result]);
    assert!(
        events.iter().any(|e| matches!(e, CampaignEvent::NewArmyOwed(owed) if owed.player == "Karn")),
        "{events:?}"
    );
    round.run(request("Proxy 2", &["Tahngarth", "Karn"]), player("Hanna")).expect("a new army for Karn");
    assert!(round.state.control.owed.is_empty());
    round.assert_replays();
}

#[test]
fn the_seeds_example_of_section_5_3_3_is_not_enforced_two_and_four_armies_seed_003_5_3_3() {
    // "If one player controls 2 armies and another controls 4, the first player cannot lose any
    // armies and the second cannot gain any armies" — the rule is obsolete: both changes go through.
    let players = vec![
        roster("Gerrard", Team::Coalition, Rank::General),
        roster("Hanna", Team::Coalition, Rank::Admiral),
        roster("Sisay", Team::Coalition, Rank::Captain),
        roster("Karn", Team::Coalition, Rank::Lieutenant),
        roster("Yawgmoth", Team::Phyrexia, Rank::ChiefPraetor),
    ];
    let mut armies = vec![
        held(mages("Gerrard", RankClass::ChiefPraetorGeneral), "30A", &["Gerrard"]),
        held(broodlings("Yawgmoth", RankClass::ChiefPraetorGeneral), "3A", &["Yawgmoth"]),
        held(mages("K1", RankClass::CenturionLieutenant), "20A", &["Karn"]),
        held(mages("K2", RankClass::CenturionLieutenant), "20B", &["Karn"]),
    ];
    for (index, square) in ["21A", "21B", "21C", "21D", "21E"].iter().enumerate() {
        let controllers: &[&str] = if index < 4 { &["Sisay"] } else { &["Hanna"] };
        armies.push(held(mages(&format!("S{index}"), RankClass::CenturionLieutenant), square, controllers));
    }
    let mut round = Round::set_up(KEY, map(), armies, players, vec![]).expect("set up");
    round.run(request("K2", &["Hanna"]), player("Hanna")).expect("the player with 2 loses one");
    round.run(request("S4", &["Sisay"]), player("Hanna")).expect("the player with 4 gains a fifth");
    assert_eq!(herald_domain::coalition::campaign::control::activity::armies_of(&round.state, "Sisay").len(), 5);
    round.assert_replays();
}

#[test]
fn the_seeds_example_of_seven_centurions_and_seven_centurion_armies_seed_003_5_3_4() {
    // "Phyrexia has 7 Centurions and 7 remaining Centurion armies. A CPL is demoted to Centurion,
    // and there are now more Centurions than there are Centurion armies, so one of them will have
    // to lose his last army."
    let mut players =
        vec![roster("Yawgmoth", Team::Phyrexia, Rank::ChiefPraetor), roster("Gerrard", Team::Coalition, Rank::General)];
    let mut armies = vec![
        held(broodlings("Yawgmoth", RankClass::ChiefPraetorGeneral), "3A", &["Yawgmoth"]),
        held(mages("Gerrard", RankClass::ChiefPraetorGeneral), "30A", &["Gerrard"]),
        held(broodlings("Dauthi", RankClass::CplLtCommander), "5A", &["Greven"]),
    ];
    players.push(roster("Greven", Team::Phyrexia, Rank::Cpl));
    for n in 1..=7 {
        players.push(roster(&format!("Centurion {n}"), Team::Phyrexia, Rank::Centurion));
        armies.push(held(
            broodlings(&format!("Host {n}"), RankClass::CenturionLieutenant),
            &format!("{}B", n + 5),
            &[&format!("Centurion {n}")],
        ));
    }
    let mut round = Round::set_up(KEY, map(), armies, players, vec![]).expect("set up");
    let events = round
        .run(CampaignCommand::ChangeRank { player: "Greven".into(), rank: Rank::Centurion }, player("Yawgmoth"))
        .expect("demoted");
    assert!(!events.iter().any(|e| matches!(e, CampaignEvent::NewArmyOwed(_))), "{events:?}");
    assert!(controllers(&round, "Dauthi").is_empty(), "8 Centurions for 7 Centurion armies: he loses his last army");
    round.assert_replays();
}
