//! The rest of the round through `CoalitionCampaign::decide`/`evolve` only: new players
//! customising an army (seed 003 §2.6), screen-name changes (§1.6), the weather posted with each
//! battle (§4.1.2.5), and a small round not won at its first adjudication (§1.7.3).

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Color, RankClass, Team},
    campaign::{weather::weather_of, CampaignCommand, CampaignEvent, CampaignOptions},
    rank::Rank,
};
use support::*;

fn round_with_proxy() -> Round {
    let players = vec![
        roster("Gerrard", Team::Coalition, Rank::General),
        roster("Hanna", Team::Coalition, Rank::Admiral),
        roster("Crovax", Team::Phyrexia, Rank::Evincar),
    ];
    let armies = vec![
        held(mages("Gerrard", RankClass::ChiefPraetorGeneral), "30A", &["Gerrard"]),
        held(mages("Hanna", RankClass::PraetorAdmiral), "30N", &["Hanna"]),
        held(mages("Proxy", RankClass::CenturionLieutenant), "12E", &["Hanna"]),
        held(broodlings("Crovax", RankClass::EvincarCaptain), "2A", &["Crovax"]),
        held(broodlings("Rag", RankClass::CplLtCommander), "14E", &["Crovax"]),
    ];
    Round::set_up(KEY, map(), armies, players, vec![]).expect("set up")
}

/// Erin joins, takes Proxy, and fights two battles with it against Rag.
fn erin_after_two_battles() -> Round {
    let mut round = round_with_proxy();
    let erin = roster("Erin", Team::Coalition, Rank::Lieutenant);
    assert!(
        round.run(CampaignCommand::AddPlayer { player: erin.clone() }, player("Crovax")).is_err(),
        "the other side's leader"
    );
    round.run(CampaignCommand::AddPlayer { player: erin }, player("Gerrard")).expect("joined");
    let early = round
        .run(CampaignCommand::OfferCustomisation { player: "Erin".into(), army: "Proxy".into() }, player("Gerrard"));
    assert_eq!(early.expect_err("no battles yet"), "coalition.campaign.too_few_battles");
    let give =
        CampaignCommand::RequestControlChange { army: "Proxy".into(), controllers: vec!["Erin".into()], reason: None };
    round.run(give, player("Hanna")).expect("Proxy to Erin");
    for _ in 0..2 {
        let from = round.square("Proxy");
        let to = round.square("Rag");
        assert_eq!(from.distance(to), 2, "{from} {to}");
        let order = format!("Proxy: {from} > {to}; engage Rag");
        let battle = the_battle(&round.play(&[("Erin", order.as_str())], vec![]));
        let result = battle.result(Team::Coalition, &[("Proxy", vec![100]), ("Rag", vec![200])], &[]);
        round.play(&[], vec![result]);
        // Rag was bumped; bring it back two squares from Proxy for the next battle.
        let proxy = round.square("Proxy");
        let back = herald_domain::coalition::map::Square { row: proxy.row + 2, column: proxy.column };
        round
            .run(CampaignCommand::RuleOnArmy { army: "Rag".into(), square: back, reason: "regroups".into() }, judge())
            .expect("moved");
    }
    assert_eq!(round.state.newcomers["Erin"].battles, 2);
    round
}

#[test]
fn a_new_player_who_fought_two_battles_customises_an_army_of_lt_cmdr_rank_or_lower_seed_003_2_6() {
    let mut round = erin_after_two_battles();
    let offer = |army: &str| CampaignCommand::OfferCustomisation { player: "Erin".into(), army: army.into() };
    assert_eq!(
        round.run(offer("Hanna"), player("Gerrard")).expect_err("an Admiral army"),
        "coalition.campaign.customisation_rank"
    );
    round.run(offer("Proxy"), player("Gerrard")).expect("offered");
    let before = round.state.armies["Proxy"].army.clone();
    let alive = before.total_troops();
    let units = |troops: u32| {
        vec![
            line("Goblin Raiders", &[Color::Red], 1, 0, 2500, troops / 2),
            line("Llanowar Elves", &[Color::Green], 1, 0, 2500, troops - troops / 2),
        ]
    };
    let customise = |troops: u32, name: &str| CampaignCommand::CustomiseArmy {
        army: "Proxy".into(),
        name: Some(name.into()),
        legend: Some("Gerrard Capashen".into()),
        troops: units(troops),
    };
    let more = customise(u32::try_from(alive).expect("small") + 10, "Erin's Host");
    assert_eq!(
        round.run(more, player("Erin")).expect_err("healing in disguise"),
        "coalition.campaign.customisation_troops"
    );
    assert!(
        round.run(customise(u32::try_from(alive).expect("small"), "Erin's Host"), player("Hanna")).is_err(),
        "it is Erin's opportunity"
    );
    round.run(customise(u32::try_from(alive).expect("small"), "Erin's Host"), player("Erin")).expect("customised");
    let host = &round.state.armies["Erin's Host"];
    assert!(!round.state.armies.contains_key("Proxy"));
    assert_eq!(host.army.total_troops(), alive, "not healed: as many soldiers alive as before");
    assert_eq!(host.army.colors, before.colors, "the colors never change");
    assert_eq!(host.army.legend.as_deref(), Some("Gerrard Capashen"));
    assert!(host.controllers.contains("Erin"));
    let again = round.run(customise(u32::try_from(alive).expect("small"), "Again"), player("Erin"));
    assert!(again.is_err(), "one free opportunity");
    round.assert_replays();
}

#[test]
fn the_opportunity_is_lost_after_two_turns_seed_003_2_6() {
    let mut round = erin_after_two_battles();
    round
        .run(CampaignCommand::OfferCustomisation { player: "Erin".into(), army: "Proxy".into() }, player("Gerrard"))
        .expect("offered");
    round.play(&[], vec![]);
    round.play(&[], vec![]);
    round.open();
    let alive = u32::try_from(round.state.armies["Proxy"].army.total_troops()).expect("small");
    let late = CampaignCommand::CustomiseArmy {
        army: "Proxy".into(),
        name: None,
        legend: None,
        troops: vec![line("Goblin Raiders", &[Color::Red], 1, 0, 5000, alive)],
    };
    assert_eq!(round.run(late, player("Erin")).expect_err("too late"), "coalition.campaign.customisation_expired");
}

#[test]
fn a_changed_screen_name_keeps_the_players_powers_seed_003_1_6() {
    let mut round = round_with_proxy();
    let rename = CampaignCommand::ChangeScreenName { from: "Hanna".into(), to: "Hanna Rose".into() };
    assert!(round.run(rename.clone(), player("Hanna")).is_err(), "the battle judge records it");
    round.run(rename, judge()).expect("renamed");
    assert!(round.state.armies["Proxy"].controllers.contains("Hanna Rose"));
    assert!(round.state.control.authority[&Team::Coalition].holders.contains(&"Hanna Rose".to_string()));
    let request = |to: &str| CampaignCommand::RequestControlChange {
        army: "Proxy".into(),
        controllers: vec![to.into()],
        reason: None,
    };
    assert!(round.run(request("Gerrard"), player("Hanna")).is_err(), "no official action under the old name");
    round.run(request("Gerrard"), player("Hanna Rose")).expect("the new name holds the authority");
    round.open();
    round.post("Hanna Rose", "Hanna: 30N > 31N").expect("and controls her army");
    round.assert_replays();
}

#[test]
fn each_battle_is_posted_with_its_weather_from_the_table_seed_003_4_1_2_5() {
    let mut round = round_with_proxy();
    let events = round.play(&[("Hanna", "Proxy: 12E > 14E; engage Rag")], vec![]);
    let rolled = of_kind(&events, |e| match e {
        CampaignEvent::WeatherRolled(weather) => Some(weather.clone()),
        _ => None,
    });
    let battle = the_battle(&events);
    assert_eq!(rolled.len(), 1);
    assert_eq!(rolled[0].battle, battle.battle);
    assert_eq!(rolled[0].weather, weather_of(rolled[0].draw.value));
    assert_eq!(round.state.weather[&battle.battle], rolled[0].weather);
    assert_eq!(
        (1..=20).map(weather_of).collect::<Vec<_>>()[..6],
        ["clear skies", "clear skies", "clear skies", "clear skies", "clear skies", "overcast"]
    );
    // A round may leave the weather to the Battle Judge.
    let mut quiet = Round::empty(KEY);
    let create = CampaignCommand::CreateCampaign {
        name: "Quiet".into(),
        map: map(),
        players: vec![],
        armies: vec![
            on(mages("Sai Rei", RankClass::EvincarCaptain), "12E"),
            on(broodlings("Rag", RankClass::EvincarCaptain), "14E"),
        ],
        options: CampaignOptions {
            enforce_army_counts: false,
            enforce_site_counts: false,
            roll_weather: false,
            ..Default::default()
        },
        seed_commitment: "00".repeat(32),
        positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
        mercenaries: vec![],
        interval_commitment: None,
    };
    quiet.run(create, judge()).expect("set up");
    let events = quiet.play_orders(&["Sai Rei: 12E > 14E; engage Rag"], vec![]);
    assert_eq!(announced(&events).len(), 1);
    assert!(!events.iter().any(|e| matches!(e, CampaignEvent::WeatherRolled(_))));
}

#[test]
fn a_side_that_never_had_a_captain_or_evincar_army_does_not_lose_at_the_first_adjudication_seed_003_1_7_3() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Gerrard", RankClass::EvincarCaptain), "20A"),
            on(broodlings("Rag", RankClass::CplLtCommander), "3A"),
        ],
    );
    let events = round.play(&[], vec![]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, CampaignEvent::Days(herald_domain::coalition::days::DaysEvent::RoundWon { .. }))));
    assert!(round.state.victory.is_none(), "Phyrexia never had one, so it has lost none");
    round.play(&[], vec![]);
    assert!(round.state.victory.is_none());
}
