//! Voting (seed 003 §1.4) through `CoalitionCampaign::decide`/`evolve` only: the three systems,
//! one vote per player, the tally, and what a secret vote hides.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{RankClass, Team},
        campaign::{
            view::{redact_campaign_event, vote_views},
            voting::{VoteSystem, Voter},
            CampaignCommand, CampaignEvent,
        },
        rank::Rank,
    },
    Actor, Role, Viewer,
};
use proptest::prelude::*;
use support::*;

const VOTERS: [&str; 7] = ["Gerrard", "Hanna", "Sisay", "Orim", "Yawgmoth", "Vorn", "Tsabo"];

fn voting_round() -> Round {
    let players = vec![
        roster("Gerrard", Team::Coalition, Rank::General),
        roster("Hanna", Team::Coalition, Rank::Admiral),
        roster("Sisay", Team::Coalition, Rank::Captain),
        roster("Orim", Team::Coalition, Rank::Lieutenant),
        roster("Yawgmoth", Team::Phyrexia, Rank::ChiefPraetor),
        roster("Vorn", Team::Phyrexia, Rank::Praetor),
        roster("Tsabo", Team::Phyrexia, Rank::Drudge),
    ];
    let armies = vec![
        held(mages("Gerrard", RankClass::ChiefPraetorGeneral), "20A", &["Gerrard"]),
        held(broodlings("Yawgmoth", RankClass::ChiefPraetorGeneral), "3A", &["Yawgmoth"]),
    ];
    Round::set_up(KEY, map(), armies, players, vec![]).expect("set up")
}

fn call(round: &mut Round, system: VoteSystem, secret: bool) -> String {
    let command = CampaignCommand::CallVote {
        topic: "Which base first?".into(),
        options: vec!["Red Base".into(), "Portal of Rath".into(), "neither".into()],
        closes_at: at(round.hour + 48),
        system,
        secret,
    };
    let events = round.run(command, player("Orim")).expect("called");
    let CampaignEvent::VoteCalled(called) = &events[0] else { panic!("{events:?}") };
    called.vote.clone()
}

fn cast(round: &mut Round, vote: &str, voter: &str, option: &str) -> Result<Vec<CampaignEvent>, String> {
    round.run(CampaignCommand::CastVote { vote: vote.into(), option: option.into() }, player(voter))
}

fn close(round: &mut Round, vote: &str) -> herald_domain::coalition::campaign::voting::VoteClosed {
    let later = at(round.hour + 49);
    let events = round.run_at(CampaignCommand::CloseVote { vote: vote.into() }, player("Orim"), later).expect("closed");
    round.hour += 49;
    let CampaignEvent::VoteClosed(closed) = &events[0] else { panic!("{events:?}") };
    closed.clone()
}

#[test]
fn in_a_normal_vote_everyone_votes_once_the_general_and_chief_praetor_count_3_admirals_and_praetors_2_seed_003_1_4_1() {
    let mut round = voting_round();
    let vote = call(&mut round, VoteSystem::Normal, false);
    let points = |events: &[CampaignEvent]| match &events[0] {
        CampaignEvent::VoteCast(cast) => cast.points,
        other => panic!("{other:?}"),
    };
    assert_eq!(points(&cast(&mut round, &vote, "Gerrard", "Red Base").expect("cast")), 3);
    assert_eq!(points(&cast(&mut round, &vote, "Hanna", "Portal of Rath").expect("cast")), 2);
    assert_eq!(points(&cast(&mut round, &vote, "Yawgmoth", "Portal of Rath").expect("cast")), 3);
    assert_eq!(points(&cast(&mut round, &vote, "Vorn", "Red Base").expect("cast")), 2);
    assert_eq!(points(&cast(&mut round, &vote, "Sisay", "neither").expect("cast")), 1);
    assert_eq!(points(&cast(&mut round, &vote, "Tsabo", "Red Base").expect("a Drudge votes too")), 1);
    assert_eq!(cast(&mut round, &vote, "Gerrard", "neither").expect_err("once"), "coalition.campaign.already_voted");
    assert_eq!(
        cast(&mut round, &vote, "Mallory", "neither").expect_err("not a player"),
        "coalition.campaign.not_a_voter"
    );
    assert_eq!(
        cast(&mut round, &vote, "Orim", "maybe").expect_err("no such option"),
        "coalition.campaign.unknown_option"
    );
    let early = round.run(CampaignCommand::CloseVote { vote: vote.clone() }, player("Orim"));
    assert_eq!(early.expect_err("still open"), "coalition.campaign.vote_still_open");
    let closed = close(&mut round, &vote);
    let tally: Vec<(String, u32, u32)> = closed.tally.iter().map(|t| (t.option.clone(), t.points, t.ballots)).collect();
    assert_eq!(tally, vec![("Red Base".into(), 6, 3), ("Portal of Rath".into(), 5, 2), ("neither".into(), 1, 1)]);
    assert_eq!(closed.winners, vec!["Red Base".to_string()]);
    let late = round.run(CampaignCommand::CastVote { vote: vote.clone(), option: "neither".into() }, player("Orim"));
    assert_eq!(late.expect_err("closed"), "coalition.campaign.vote_closed");
    round.assert_replays();
}

#[test]
fn in_a_leader_vote_only_the_leaders_vote_with_one_point_each_seed_003_1_4_2() {
    let mut round = voting_round();
    let vote = call(&mut round, VoteSystem::Leaders, false);
    for leader in ["Gerrard", "Hanna", "Yawgmoth", "Vorn"] {
        let events = cast(&mut round, &vote, leader, "neither").expect("a leader");
        assert!(matches!(&events[0], CampaignEvent::VoteCast(cast) if cast.points == 1));
    }
    assert_eq!(cast(&mut round, &vote, "Sisay", "neither").expect_err("a Captain"), "coalition.campaign.not_a_voter");
    assert_eq!(close(&mut round, &vote).tally[2].points, 4);
}

#[test]
fn a_special_vote_is_for_the_voters_its_caller_names_one_point_unless_stated_seed_003_1_4_3() {
    // The seed's example: the Phyrexian CP calls just the Phyrexians to vote.
    let mut round = voting_round();
    let voters = vec![
        Voter { player: "Yawgmoth".into(), points: None },
        Voter { player: "Vorn".into(), points: None },
        Voter { player: "Tsabo".into(), points: Some(5) },
    ];
    let command = CampaignCommand::CallVote {
        topic: "Which base first?".into(),
        options: vec!["Red Base".into(), "Portal of Rath".into(), "neither".into()],
        closes_at: at(round.hour + 48),
        system: VoteSystem::Special { voters },
        secret: false,
    };
    let events = round.run(command, player("Yawgmoth")).expect("called by the Chief Praetor");
    let CampaignEvent::VoteCalled(called) = &events[0] else { panic!("{events:?}") };
    let vote = called.vote.clone();
    assert_eq!(
        cast(&mut round, &vote, "Gerrard", "neither").expect_err("not called"),
        "coalition.campaign.not_a_voter"
    );
    cast(&mut round, &vote, "Yawgmoth", "Red Base").expect("called");
    cast(&mut round, &vote, "Tsabo", "neither").expect("called with 5 points");
    let closed = close(&mut round, &vote);
    assert_eq!(closed.tally[0].points, 1, "1 point unless stated");
    assert_eq!(closed.tally[2].points, 5);
    assert_eq!(closed.winners, vec!["neither".to_string()]);
}

#[test]
fn a_vote_is_called_by_a_player_with_options_and_a_closing_time_seed_003_1_4() {
    let mut round = voting_round();
    let calling = |options: Vec<&str>, hours: i64| CampaignCommand::CallVote {
        topic: "Retreat?".into(),
        options: options.into_iter().map(str::to_string).collect(),
        closes_at: at(hours),
        system: VoteSystem::Normal,
        secret: false,
    };
    let outsider = Actor::new("observer", Role::Observer);
    assert!(round.run(calling(vec!["yes", "no"], 500), outsider).is_err());
    assert_eq!(
        round.run(calling(vec!["yes"], 500), player("Orim")).expect_err("one option"),
        "coalition.campaign.vote_malformed"
    );
    assert_eq!(
        round.run(calling(vec!["yes", "no"], 0), player("Orim")).expect_err("past"),
        "coalition.campaign.vote_closes_in_past"
    );
}

#[test]
fn a_secret_votes_choices_are_the_voters_and_the_judges_alone_seed_003_1_4() {
    let mut round = voting_round();
    let vote = call(&mut round, VoteSystem::Normal, true);
    let events = cast(&mut round, &vote, "Hanna", "neither").expect("cast");
    let as_seen = |viewer: Viewer| {
        let mut data = serde_json::to_value(&events[0]).expect("json");
        redact_campaign_event(&mut data, &round.state, &viewer);
        data["option"].clone()
    };
    assert_eq!(as_seen(Viewer::from(&player("Gerrard"))), "hidden");
    assert_eq!(as_seen(Viewer::public()), "hidden");
    assert_eq!(as_seen(Viewer::from(&player("Hanna"))), "neither");
    assert_eq!(as_seen(Viewer::from(&judge())), "neither");
    let seen = vote_views(&round.state, &Viewer::from(&player("Gerrard")));
    assert_eq!(seen[0].ballots[0].player, "Hanna", "who voted is public");
    assert_eq!(seen[0].ballots[0].option, None);
    assert_eq!(seen[0].tally, None, "no running tally to read choices from");
    let own = vote_views(&round.state, &Viewer::from(&player("Hanna")));
    assert_eq!(own[0].ballots[0].option.as_deref(), Some("neither"));
    close(&mut round, &vote);
    let after = vote_views(&round.state, &Viewer::public());
    assert!(
        after[0].tally.is_some() && after[0].ballots[0].option.is_none(),
        "the tally once closed, never the choices"
    );
    // In an open vote, who voted what is public.
    let open = call(&mut round, VoteSystem::Normal, false);
    let events = cast(&mut round, &open, "Hanna", "neither").expect("cast");
    let mut data = serde_json::to_value(&events[0]).expect("json");
    redact_campaign_event(&mut data, &round.state, &Viewer::public());
    assert_eq!(data["option"], "neither");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the order of ballots, each player's first ballot counts and every other is refused
    /// with `already_voted` (seed 003 §1.4: "all players can vote once"); the tally adds up.
    #[test]
    fn one_vote_per_player(ballots in prop::collection::vec((0usize..VOTERS.len(), 0usize..3), 0..30), secret in any::<bool>()) {
        let mut round = voting_round();
        let vote = call(&mut round, VoteSystem::Normal, secret);
        let options = ["Red Base", "Portal of Rath", "neither"];
        let mut voted = std::collections::BTreeSet::new();
        for (voter, option) in ballots {
            let outcome = cast(&mut round, &vote, VOTERS[voter], options[option]);
            if voted.insert(voter) {
                prop_assert!(outcome.is_ok(), "{:?}", outcome);
            } else {
                let refused = outcome.err();
                prop_assert_eq!(refused.as_deref(), Some("coalition.campaign.already_voted"));
            }
        }
        let state = &round.state.votes[&vote];
        prop_assert_eq!(state.ballots.len(), voted.len());
        let points: u32 = state.ballots.values().map(|b| b.points).sum();
        prop_assert_eq!(state.tally().iter().map(|t| t.points).sum::<u32>(), points);
        round.assert_replays();
    }
}
