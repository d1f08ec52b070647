//! Days across turns of a campaign, through `CoalitionCampaign::decide`/`evolve` only: healing in
//! a base of the army's colors and at a portal (seed 003 §2.3.1.1–2.3.1.2), a siege that destroys
//! a portal (§1.7.1) and a round won by killing the last Captain/Evincar (§1.7.3).

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Color, RankClass, Team},
    campaign::{CampaignCommand, CampaignEvent},
    days::{CountEnd, DaysEvent, LineHealed, VictoryReason},
    map::{Faction, SiteKind},
};
use support::*;

/// Kris Mages (red) at 3000 of 5000 and Grizzly Bears (green) at 2000 of 2500: the seed's own
/// example army (§2.3.1.2).
fn kris_and_bears() -> herald_domain::coalition::army::Army {
    coalition(
        "Kris",
        RankClass::PlaguelordCommander,
        [Faction::Red, Faction::Green, Faction::Blue],
        vec![
            line("Kris Mage", &[Color::Red], 1, 0, 5000, 3000),
            line("Grizzly Bears", &[Color::Green], 2, 1, 2500, 2000),
        ],
    )
}

fn healed(creature: &str, line: usize, from: u32, to: u32) -> LineHealed {
    LineHealed { line, creature: creature.to_string(), from, to }
}

#[test]
fn a_coalition_army_heals_its_base_colored_troops_after_one_day_and_the_rest_after_two_seed_003_2_3_1_2() {
    let mut round = Round::create(map(), vec![on(kris_and_bears(), "27C")]);

    let first = round.play_orders(&["Kris: 27C > 30C"], vec![]);
    assert_eq!(round.square("Kris"), sq(RED_BASE));
    let red = SiteKind::Base { color: Faction::Red };
    assert_eq!(
        days(&first),
        vec![
            DaysEvent::DayCounted { army: "Kris".into(), square: sq(RED_BASE), site: red, days: 1 },
            DaysEvent::ArmyHealed {
                army: "Kris".into(),
                square: sq(RED_BASE),
                days: 1,
                lines: vec![healed("Kris Mage", 0, 3000, 5000)],
            },
        ],
        "one day in Red Base heals the red Kris Mages only"
    );
    assert_eq!(round.troops("Kris"), vec![5000, 2000], "the Grizzly Bears must wait one more day");

    let second = round.play_orders(&["Kris: hold"], vec![]);
    assert_eq!(
        days(&second),
        vec![
            DaysEvent::DayCounted { army: "Kris".into(), square: sq(RED_BASE), site: red, days: 2 },
            DaysEvent::ArmyHealed {
                army: "Kris".into(),
                square: sq(RED_BASE),
                days: 2,
                lines: vec![healed("Grizzly Bears", 1, 2000, 2500)],
            },
        ]
    );
    assert_eq!(round.troops("Kris"), vec![5000, 2500], "two days heal every line");
    round.assert_replays();
}

#[test]
fn a_coalition_army_counts_no_days_in_a_base_of_a_color_it_is_not_a_member_of_seed_003_2_3_1_2() {
    let mut round = Round::create(map(), vec![on(kris_and_bears(), "27K")]);
    let events = round.play_orders(&["Kris: 27K > 30K"], vec![]);
    assert_eq!(round.square("Kris"), sq(BLACK_BASE));
    assert!(days(&events).is_empty(), "no day in Black Base for a Red/Green/Blue army: {events:?}");
    round.play_orders(&["Kris: hold"], vec![]);
    assert_eq!(round.troops("Kris"), vec![3000, 2000]);
    round.assert_replays();
}

#[test]
fn leaving_the_base_after_one_day_ends_the_count_and_the_bears_stay_hurt_seed_003_1_5_and_2_3_1_2() {
    let mut round = Round::create(map(), vec![on(kris_and_bears(), "27C")]);
    round.play_orders(&["Kris: 27C > 30C"], vec![]);
    let events = round.play_orders(&["Kris: 30C > 27C"], vec![]);
    assert_eq!(
        days(&events),
        vec![DaysEvent::DayCountReset { army: "Kris".into(), square: sq(RED_BASE), days: 1, reason: CountEnd::Moved }]
    );
    assert_eq!(round.troops("Kris"), vec![5000, 2000]);
    assert!(round.state.days.armies.is_empty(), "no count is left");
    round.assert_replays();
}

#[test]
fn a_phyrexian_army_heals_at_a_portal_all_but_the_troops_lost_on_the_last_day_seed_003_2_3_1_1() {
    // The seed's example: 4000 of 5000 go to a portal, lose 500 more in a battle they win, and
    // are raised from 3500 to 4500; the last 500 come back two days later.
    let rag = phyrexian(
        "Rag",
        RankClass::PlaguelordCommander,
        vec![line("Phyrexian Broodling", &[Color::Black], 1, 0, 5000, 4000)],
    );
    let mut round = Round::create(map(), vec![on(rag, "8E"), on(mages("Sai Rei", RankClass::CplLtCommander), "7D")]);

    let first = round.play_orders(&["Rag: 8E > 5E"], vec![]);
    assert_eq!(
        days(&first),
        vec![DaysEvent::DayCounted { army: "Rag".into(), square: sq(PORTAL), site: SiteKind::Portal, days: 1 }],
        "one day in a portal heals nothing yet"
    );
    assert_eq!(round.troops("Rag"), vec![4000]);

    // Attacked in the portal: no day until the battle is won (§1.5).
    let attacked = round.play_orders(&["Sai Rei: 7D > 5E; engage Rag"], vec![]);
    let battle = the_battle(&attacked);
    assert_eq!(battle.square, sq(PORTAL));
    assert!(days(&attacked).iter().all(|event| !matches!(event, DaysEvent::DayCounted { .. })));

    let won = round
        .play_orders(&[], vec![battle.result(Team::Phyrexia, &[("Rag", vec![500]), ("Sai Rei", vec![1500])], &[])]);
    assert_eq!(
        days(&won),
        vec![
            DaysEvent::LossesRecorded { army: "Rag".into(), square: sq(PORTAL), day: 2, losses: vec![500] },
            DaysEvent::DayCounted { army: "Rag".into(), square: sq(PORTAL), site: SiteKind::Portal, days: 2 },
            DaysEvent::ArmyHealed {
                army: "Rag".into(),
                square: sq(PORTAL),
                days: 2,
                lines: vec![healed("Phyrexian Broodling", 0, 3500, 4500)],
            },
        ]
    );
    assert_eq!(round.troops("Rag"), vec![4500]);
    assert_ne!(round.square("Sai Rei"), sq(PORTAL), "the loser is moved off the portal");

    round.play_orders(&["Rag: hold"], vec![]);
    assert_eq!(round.troops("Rag"), vec![4500], "3 days: the 500 lost on day 2 still wait");
    let fourth = round.play_orders(&["Rag: hold"], vec![]);
    assert!(days(&fourth).contains(&DaysEvent::ArmyHealed {
        army: "Rag".into(),
        square: sq(PORTAL),
        days: 4,
        lines: vec![healed("Phyrexian Broodling", 0, 4500, 5000)],
    }));
    assert_eq!(round.troops("Rag"), vec![5000], "two more days heal the troops lost on the second day");
    round.assert_replays();
}

#[test]
fn an_army_that_counts_four_days_in_an_enemy_portal_and_holds_the_next_turn_destroys_it_seed_003_1_7_1() {
    let gerrard = mages("Gerrard", RankClass::PlaguelordCommander);
    let mut round = Round::create(map(), vec![on(gerrard, "8K")]);

    let mut sieges = Vec::new();
    let first = round.play_orders(&["Gerrard: 8K > 5K"], vec![]);
    sieges.extend(days(&first));
    for _ in 0..3 {
        let events = round.play_orders(&["Gerrard: hold"], vec![]);
        sieges.extend(days(&events));
    }
    let counted: Vec<u32> = sieges
        .iter()
        .filter_map(|event| match event {
            DaysEvent::SiegeDayCounted { days, square, .. } if *square == sq(PORTAL_2) => Some(*days),
            _ => None,
        })
        .collect();
    assert_eq!(counted, vec![1, 2, 3, 4]);
    assert!(!round.state.map.sites[&sq(PORTAL_2)].destroyed, "4 days alone do not destroy the portal");

    // The turn after the fourth day, the army does not move: the portal falls.
    let held = round.play_orders(&[], vec![]);
    assert_eq!(
        days(&held),
        vec![DaysEvent::SiteDestroyed {
            square: sq(PORTAL_2),
            site: "Portal of Rath".into(),
            kind: SiteKind::Portal,
            by: "Gerrard".into(),
        }]
    );
    assert!(held.iter().any(|event| {
        matches!(event, CampaignEvent::Days(event) if herald_domain::EventType::event_type(event) == "coalition.SiteDestroyed")
    }));
    assert!(round.state.map.sites[&sq(PORTAL_2)].destroyed);
    assert!(!round.state.map.sites[&sq(PORTAL)].destroyed);
    assert!(round.state.victory.is_none(), "one portal still stands");

    // A destroyed portal counts nothing any more.
    let after = round.play_orders(&["Gerrard: hold"], vec![]);
    assert!(days(&after).is_empty(), "{after:?}");
    round.assert_replays();
}

#[test]
fn an_army_that_leaves_after_four_siege_days_does_not_destroy_the_portal_seed_003_1_7_1() {
    let mut round = Round::create(map(), vec![on(mages("Gerrard", RankClass::PlaguelordCommander), "8K")]);
    round.play_orders(&["Gerrard: 8K > 5K"], vec![]);
    for _ in 0..3 {
        round.play_orders(&["Gerrard: hold"], vec![]);
    }
    let left = round.play_orders(&["Gerrard: 5K > 6K"], vec![]);
    assert_eq!(
        days(&left),
        vec![DaysEvent::SiegeLifted { army: "Gerrard".into(), square: sq(PORTAL_2), days: 4, reason: CountEnd::Moved }]
    );
    assert!(!round.state.map.sites[&sq(PORTAL_2)].destroyed);
    round.assert_replays();
}

/// Two Captains/Evincars meet; Phyrexia has lesser armies too, which do not save it.
fn commanders() -> Round {
    Round::create(
        map(),
        vec![
            on(mages("Barrin", RankClass::EvincarCaptain), "10E"),
            on(broodlings("Crovax", RankClass::EvincarCaptain), "12E"),
            on(broodlings("Rag", RankClass::PlaguelordCommander), "20E"),
            on(mages("Sai Rei", RankClass::CplLtCommander), "20H"),
        ],
    )
}

#[test]
fn killing_the_last_evincar_wins_the_round_for_the_coalition_and_the_round_takes_no_more_commands_seed_003_1_7_3() {
    let mut round = commanders();
    let engaged = round.play_orders(&["Barrin: 10E > 12E; engage Crovax"], vec![]);
    let battle = the_battle(&engaged);
    assert!(round.state.victory.is_none());

    let events = round.play_orders(
        &[],
        vec![battle.result(Team::Coalition, &[("Barrin", vec![700]), ("Crovax", vec![2000])], &["Crovax"])],
    );
    assert!(events.iter().any(|event| matches!(event, CampaignEvent::ArmyKilled { army, .. } if army == "Crovax")));
    let won: Vec<_> = days(&events)
        .into_iter()
        .filter_map(|event| match event {
            DaysEvent::RoundWon { victory } => Some(victory),
            _ => None,
        })
        .collect();
    assert_eq!(won.len(), 1, "one RoundWon: {events:?}");
    assert_eq!(won[0].team, Team::Coalition);
    assert_eq!(won[0].reason, VictoryReason::CommandersDestroyed { loser: Team::Phyrexia });
    assert_eq!(won[0].rule, "seed 003 §1.7.3");
    assert!(!round.state.armies.contains_key("Crovax"));
    assert!(round.state.killed.contains("Crovax"));
    assert_eq!(round.troops("Barrin"), vec![4300]);
    assert_eq!(round.state.victory.as_ref().map(|victory| victory.team), Some(Team::Coalition));

    let deadline = at(round.hour + 12);
    assert_eq!(
        round.run(CampaignCommand::OpenTurn { deadline, turn_key: None }, judge()).expect_err("refused"),
        "coalition.campaign.round_over"
    );
    assert_eq!(
        round
            .run(CampaignCommand::RuleOnArmy { army: "Rag".into(), square: sq("21E"), reason: "late".into() }, judge())
            .expect_err("refused"),
        "coalition.campaign.round_over"
    );
    round.assert_replays();
}

#[test]
fn no_battle_is_announced_in_the_adjudication_that_ends_the_round_seed_003_1_7_3() {
    let mut round = commanders();
    let engaged = round.play_orders(&["Barrin: 10E > 12E; engage Crovax"], vec![]);
    let battle = the_battle(&engaged);

    // The same adjudication would have Sai Rei attack Rag, but the round is already over.
    let events = round.play_orders(
        &["Sai Rei: 20H > 20E; engage Rag"],
        vec![battle.result(Team::Coalition, &[("Crovax", vec![1000])], &["Crovax"])],
    );
    assert!(round.state.victory.is_some());
    assert!(announced(&events).is_empty(), "a battle announced after the round is won: {events:?}");
    assert!(round.state.battles.values().all(|link| link.applied), "no battle is left waiting for a result");
    assert!(matches!(events.last(), Some(CampaignEvent::TurnAdjudicated { .. })));
    round.assert_replays();
}
