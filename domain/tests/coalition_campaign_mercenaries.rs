//! The mercenaries (seed 003 ch. 6) through `CoalitionCampaign::decide`/`evolve` only: the
//! Mercenary Judge's orders and their hard limits, Town Defender healing, theme armies going At
//! War, raiders spawning, disbanding and the after-lock edit.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team, TroopLine},
    battle::SideId,
    campaign::{
        mercenaries::{
            abilities::{town_defender_healing, war_healing},
            spawn::{raider_troops, spawn_chance},
            MercenaryEntry, MERCENARY_JUDGE,
        },
        CampaignCommand, CampaignEvent, Start,
    },
    map::{Map, Site, SiteKind},
    orders::{Annotation, Leg, Order},
    setup::MercenaryFaction,
};
use support::*;

fn merc(name: &str, rank: RankClass, troops: Vec<TroopLine>) -> Army {
    Army { name: name.into(), team: Team::Mercenary, rank, creator: None, colors: vec![], legend: None, troops }
}

fn hired(faction: MercenaryFaction, army: Army, square: &str, ocean: bool) -> MercenaryEntry {
    MercenaryEntry { faction, army, start: Start::Square { square: sq(square) }, ocean }
}

fn towns() -> Map {
    let mut map = map();
    for (name, square) in [("Benalia", "20H"), ("Mercadia", "10B")] {
        map.sites.insert(
            sq(square),
            Site {
                name: name.into(),
                square: sq(square),
                kind: SiteKind::Town,
                destroyed: false,
                win_condition: false,
                description: String::new(),
            },
        );
    }
    map
}

/// Two Town Defenders, an ocean theme army and one on land, one raider; Crovax and Gerrard.
fn mercenary_round(extra: Vec<MercenaryEntry>) -> Round {
    let guard = |name: &str| {
        merc(
            name,
            RankClass::CplLtCommander,
            vec![
                line("Town Guard", &[Color::White], 2, 0, 5000, 4800),
                line("Archers", &[Color::White], 3, 1, 2500, 2000),
            ],
        )
    };
    let mut mercenaries = vec![
        hired(MercenaryFaction::TownDefender, guard("Benalish Guard"), "20H", false),
        hired(MercenaryFaction::TownDefender, guard("Mercadian Guard"), "10B", false),
        hired(
            MercenaryFaction::Theme,
            merc(
                "Sea Serpents",
                RankClass::PlaguelordCommander,
                vec![line("Serpent", &[Color::Blue], 3, 0, 5000, 5000)],
            ),
            "25A",
            true,
        ),
        hired(
            MercenaryFaction::Theme,
            merc(
                "Forest Wardens",
                RankClass::PlaguelordCommander,
                vec![
                    line("Elf", &[Color::Green], 3, 0, 5000, 4000),
                    line("Treefolk", &[Color::Green], 4, 1, 2500, 1000),
                ],
            ),
            "15M",
            false,
        ),
        hired(
            MercenaryFaction::Raider,
            merc("Raider 1", RankClass::CenturionLieutenant, raider_troops(RankClass::CenturionLieutenant)),
            "13C",
            false,
        ),
    ];
    mercenaries.extend(extra);
    let armies = vec![
        on(broodlings("Crovax", RankClass::EvincarCaptain), "3A"),
        on(mages("Gerrard", RankClass::EvincarCaptain), "35A"),
        on(mages("Sai Rei", RankClass::CplLtCommander), "13F"),
    ];
    Round::set_up(KEY, towns(), armies, vec![], mercenaries).expect("set up")
}

fn mercenary_judge_posts(round: &mut Round, text: &str) -> Result<Vec<CampaignEvent>, String> {
    round.run(posting(Some(text), vec![], false), judge())
}

#[test]
fn the_mercenary_judge_orders_the_three_factions_and_players_cannot_seed_003_ch_6() {
    let mut round = mercenary_round(vec![]);
    assert_eq!(
        round.state.armies["Raider 1"].controllers.iter().cloned().collect::<Vec<_>>(),
        vec![MERCENARY_JUDGE.to_string()]
    );
    assert_eq!(round.state.mercenaries["Benalish Guard"].home, Some(sq("20H")), "a Town Defender's home is its town");
    round.open();
    assert_eq!(
        round.post("sai rei", "Raider 1: 13C > 13D").expect_err("a player"),
        "coalition.campaign.not_controller"
    );
    let events = mercenary_judge_posts(&mut round, "Raider 1: 13C > 14C").expect("the mercenary judge");
    assert!(matches!(&events[0], CampaignEvent::OrdersPosted { orders, .. } if orders[0].posted_by == MERCENARY_JUDGE));
    round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Raider 1"), sq("14C"));
    round.assert_replays();
}

#[test]
fn a_town_defender_starts_in_a_town_seed_003_6_1() {
    let guard =
        merc("Lost Guard", RankClass::CplLtCommander, vec![line("Town Guard", &[Color::White], 2, 0, 5000, 5000)]);
    let refused =
        Round::set_up(KEY, towns(), vec![], vec![], vec![hired(MercenaryFaction::TownDefender, guard, "22H", false)]);
    assert_eq!(refused.err().as_deref(), Some("coalition.campaign.town_defender_start"));
}

#[test]
fn town_defenders_heal_500_a_turn_at_home_lowest_rank_first_seed_003_6_1_2() {
    let mut round = mercenary_round(vec![]);
    // Mercadian Guard is out of its town this turn: no healing for it.
    round
        .run(
            CampaignCommand::RuleOnArmy { army: "Mercadian Guard".into(), square: sq("12B"), reason: "sortie".into() },
            judge(),
        )
        .expect("moved");
    let first = round.play(&[], vec![]);
    let healed = of_kind(&first, |e| match e {
        CampaignEvent::TownDefenderHealed(healed) => Some(healed.army.clone()),
        _ => None,
    });
    assert_eq!(healed, vec!["Benalish Guard".to_string()]);
    assert_eq!(round.troops("Benalish Guard"), vec![5000, 2300], "200 fill the lowest rank, the other 300 go up");
    assert_eq!(round.troops("Mercadian Guard"), vec![4800, 2000]);
    round.play(&[], vec![]);
    assert_eq!(round.troops("Benalish Guard"), vec![5000, 2500], "only 200 were missing");
    round.assert_replays();
}

#[test]
fn the_healing_formulas_of_town_defenders_and_theme_armies_seed_003_6_1_2_and_6_2_2() {
    let army = merc(
        "Guard",
        RankClass::CplLtCommander,
        vec![line("Archers", &[Color::White], 3, 1, 2500, 100), line("Town Guard", &[Color::White], 2, 0, 5000, 4900)],
    );
    let healed = town_defender_healing(&army);
    // The lowest rank (slot 0, the second line) first: 100 there, then 400 to slot 1.
    assert_eq!(healed.iter().map(|l| (l.line, l.from, l.to)).collect::<Vec<_>>(), vec![(0, 100, 500), (1, 4900, 5000)]);
    let theme = merc(
        "Wardens",
        RankClass::PlaguelordCommander,
        vec![line("Elf", &[Color::Green], 3, 0, 5000, 4000), line("Treefolk", &[Color::Green], 4, 1, 2500, 1000)],
    );
    let war = war_healing(&theme);
    assert_eq!(war.iter().map(|l| l.to).collect::<Vec<_>>(), vec![5000, 1625], "25% of each rank, up to full");
}

#[test]
fn killing_a_town_defender_sends_a_land_theme_army_to_war_on_the_other_team_healing_it_once_seed_003_6_2_2() {
    let mut round = mercenary_round(vec![]);
    round
        .run(
            CampaignCommand::RuleOnArmy {
                army: "Crovax".into(),
                square: sq("19H"),
                reason: "marches on Benalia".into(),
            },
            judge(),
        )
        .expect("moved");
    let battle = the_battle(&round.play(&[("crovax", "Crovax: 19H > 20H; engage Benalish Guard")], vec![]));
    let sides: Vec<Team> = battle.sides.iter().map(|s| s.team).collect();
    assert_eq!(sides, vec![Team::Phyrexia, Team::Mercenary], "side a is Phyrexia");
    let killed = custom_result(
        &battle.battle,
        Some(SideId::A),
        &[
            ("Crovax", SideId::A, vec![100], false, false, None),
            ("Benalish Guard", SideId::B, vec![], true, true, None),
        ],
    );
    let events = round.play(&[], vec![killed]);
    let wars = of_kind(&events, |e| match e {
        CampaignEvent::ThemeArmyWentToWar(war) => Some(war.clone()),
        _ => None,
    });
    assert_eq!(wars.len(), 1, "{events:?}");
    assert_eq!(wars[0].candidates, vec!["Forest Wardens".to_string()], "never the ocean theme army");
    assert_eq!(wars[0].army, "Forest Wardens");
    assert_eq!(wars[0].against, Team::Coalition, "the team that did not score the kill");
    assert_eq!(round.troops("Forest Wardens"), vec![5000, 1625], "healed 25% of each rank when it first declares war");
    // A second kill, by the Coalition: the same army goes to war on Phyrexia, without healing again.
    round
        .run(
            CampaignCommand::RuleOnArmy {
                army: "Gerrard".into(),
                square: sq("11B"),
                reason: "marches on Mercadia".into(),
            },
            judge(),
        )
        .expect("moved");
    let battle = the_battle(&round.play(&[("gerrard", "Gerrard: 11B > 10B; engage Mercadian Guard")], vec![]));
    let killed = custom_result(
        &battle.battle,
        Some(SideId::A),
        &[
            ("Gerrard", SideId::A, vec![0], false, false, None),
            ("Mercadian Guard", SideId::B, vec![], true, true, None),
        ],
    );
    let events = round.play(&[], vec![killed]);
    let wars = of_kind(&events, |e| match e {
        CampaignEvent::ThemeArmyWentToWar(war) => Some(war.clone()),
        _ => None,
    });
    assert_eq!((wars[0].army.as_str(), wars[0].against), ("Forest Wardens", Team::Phyrexia));
    assert!(wars[0].healed.is_empty(), "after that it will not heal again");
    assert_eq!(round.state.mercenaries["Forest Wardens"].at_war, vec![Team::Coalition, Team::Phyrexia]);
    round.assert_replays();
}

#[test]
fn an_at_war_theme_army_never_moves_into_a_base_or_portal_or_next_to_one_seed_003_6_2_3() {
    let mut round = mercenary_round(vec![]);
    round
        .run(
            CampaignCommand::RuleOnArmy { army: "Forest Wardens".into(), square: sq("27G"), reason: "patrol".into() },
            judge(),
        )
        .expect("moved");
    round.open();
    mercenary_judge_posts(&mut round, "Forest Wardens: 27G > 29G").expect("not at war: the judge decides");
    round.adjudicate(vec![]).expect("adjudicated");
    round
        .run(
            CampaignCommand::RuleOnArmy { army: "Forest Wardens".into(), square: sq("27G"), reason: "patrol".into() },
            judge(),
        )
        .expect("moved");
    round
        .run(
            CampaignCommand::RuleOnArmy {
                army: "Crovax".into(),
                square: sq("19H"),
                reason: "marches on Benalia".into(),
            },
            judge(),
        )
        .expect("moved");
    let battle = the_battle(&round.play(&[("crovax", "Crovax: 19H > 20H; engage Benalish Guard")], vec![]));
    let killed = custom_result(
        &battle.battle,
        Some(SideId::A),
        &[("Crovax", SideId::A, vec![0], false, false, None), ("Benalish Guard", SideId::B, vec![], true, true, None)],
    );
    round.play(&[], vec![killed]);
    assert_eq!(round.state.mercenaries["Forest Wardens"].at_war, vec![Team::Coalition]);
    round.open();
    assert_eq!(
        mercenary_judge_posts(&mut round, "Forest Wardens: 27G > 29G").expect_err("next to Green Base"),
        "coalition.campaign.at_war_near_base"
    );
    assert_eq!(
        mercenary_judge_posts(&mut round, "Forest Wardens: 27G > 30G; engage Gerrard").expect_err("into Green Base"),
        "coalition.campaign.at_war_near_base"
    );
    mercenary_judge_posts(&mut round, "Forest Wardens: 27G > 24G").expect("away from bases");
    round.assert_replays();
}

#[test]
fn a_raider_never_moves_next_to_a_base_portal_or_town_seed_003_6_3_1() {
    let mut round = mercenary_round(vec![]);
    round.open();
    let refused = mercenary_judge_posts(&mut round, "Raider 1: 13C > 11C").expect_err("next to Mercadia");
    assert_eq!(refused, "coalition.campaign.raider_near_site");
    mercenary_judge_posts(&mut round, "Raider 1: 13C > 13E").expect("open country");
}

#[test]
fn the_spawn_chance_depends_on_the_raiders_on_the_map_seed_003_6_3_2() {
    assert_eq!((0..=5).map(spawn_chance).collect::<Vec<_>>(), vec![3, 3, 2, 1, 1, 0]);
}

#[test]
fn raiders_spawn_on_a_d20_at_each_update_as_2_2_rank_on_7_in_20_away_from_sites_seed_003_6_3_2() {
    let mut round = mercenary_round(vec![]);
    let mut spawned = 0;
    for _ in 0..40 {
        let events = round.play(&[], vec![]);
        let rolled = of_kind(&events, |e| match e {
            CampaignEvent::RaiderSpawnRolled(rolled) => Some(rolled.clone()),
            _ => None,
        });
        assert_eq!(rolled.len(), 1, "one d20 each movement update");
        let rolled = &rolled[0];
        let raiders = round
            .state
            .mercenaries
            .iter()
            .filter(|(n, m)| m.faction == MercenaryFaction::Raider && round.state.armies.contains_key(*n))
            .count();
        let draw = rolled.draw.as_ref().expect("fewer than 5 raiders: a die");
        assert_eq!(draw.sides, 20);
        assert_eq!(rolled.chance, spawn_chance(usize::try_from(rolled.raiders).expect("small")));
        assert_eq!(rolled.spawned.is_some(), draw.value <= rolled.chance, "{rolled:?}");
        if let Some(raider) = &rolled.spawned {
            spawned += 1;
            let expected =
                if raider.rank_draw.value <= 7 { RankClass::CplLtCommander } else { RankClass::CenturionLieutenant };
            assert_eq!(raider.army.rank, expected);
            let near_site = towns().sites.values().any(|site| {
                site.square == raider.square || site.square.surrounding(towns().bounds).contains(&raider.square)
            });
            assert!(!near_site, "{} is away from bases, portals and towns", raider.square);
            let state = &round.state.armies[&raider.army.name];
            assert_eq!(state.army.team, Team::Mercenary);
            assert!(state.controllers.contains(MERCENARY_JUDGE));
            assert_eq!(raiders, usize::try_from(rolled.raiders).expect("small") + 1);
        }
        if spawned >= 2 {
            break;
        }
    }
    assert!(spawned >= 2, "3 in 20 a turn should spawn within 40 turns");
    round.assert_replays();
}

#[test]
fn no_raider_spawns_with_five_on_the_map_nor_in_a_round_without_mercenaries_seed_003_6_3_2() {
    let more: Vec<MercenaryEntry> = (2..=5)
        .map(|n| {
            hired(
                MercenaryFaction::Raider,
                merc(
                    &format!("Raider {n}"),
                    RankClass::CenturionLieutenant,
                    raider_troops(RankClass::CenturionLieutenant),
                ),
                &format!("{}M", 20 + n),
                false,
            )
        })
        .collect();
    let mut round = mercenary_round(more);
    let events = round.play(&[], vec![]);
    let rolled = of_kind(&events, |e| match e {
        CampaignEvent::RaiderSpawnRolled(rolled) => Some(rolled.clone()),
        _ => None,
    });
    assert_eq!((rolled[0].raiders, rolled[0].draw.clone(), rolled[0].chance), (5, None, 0));
    let mut plain = Round::create(map(), vec![on(mages("Gerrard", RankClass::EvincarCaptain), "20A")]);
    let events = plain.play(&[], vec![]);
    assert!(!events.iter().any(|e| matches!(e, CampaignEvent::RaiderSpawnRolled(_))));
}

#[test]
fn a_raider_disbands_by_taking_its_movement_turn_seed_003_6_3_2() {
    let mut round = mercenary_round(vec![]);
    round.open();
    assert_eq!(
        mercenary_judge_posts(&mut round, "Benalish Guard: disband").expect_err("not a raider"),
        "coalition.campaign.disband_not_raider"
    );
    assert_eq!(
        round.post("sai rei", "Sai Rei: disband").expect_err("not a raider"),
        "coalition.campaign.disband_not_raider"
    );
    mercenary_judge_posts(&mut round, "Raider 1: disband").expect("posted");
    let events = round.adjudicate(vec![]).expect("adjudicated");
    assert!(events.iter().any(|e| matches!(e, CampaignEvent::RaiderDisbanded(d) if d.army == "Raider 1")));
    assert!(!round.state.armies.contains_key("Raider 1") && round.state.disbanded.contains("Raider 1"));
    round.assert_replays();
}

#[test]
fn the_after_lock_edit_changes_one_raiders_move_to_engage_an_army_without_passing_through_any_seed_003_6_3_2() {
    let mut round = mercenary_round(vec![]);
    round.open();
    let edit = |to: &str, annotation: Option<Annotation>, route: Option<Vec<&str>>| CampaignCommand::EditRaiderOrder {
        army: "Raider 1".into(),
        order: Order::Move {
            legs: vec![Leg {
                from: sq("13C"),
                to: sq(to),
                route: route.map(|r| r.into_iter().map(sq).collect()),
                annotation,
            }],
        },
    };
    let engage = || Some(Annotation::Engage("Sai Rei".into()));
    assert_eq!(
        round.run(edit("13F", engage(), None), judge()).expect_err("before the lock"),
        "coalition.campaign.edit_not_after_lock"
    );
    round.run(CampaignCommand::LockTurn, judge()).expect("locked");
    assert_eq!(
        round.run(edit("13E", None, None), judge()).expect_err("avoids engagement"),
        "coalition.campaign.edit_not_engage"
    );
    // Sai Rei at 13F: every shortest route from 13C passes 13D and 13E; put an army on 13E.
    let rule = |square: &str| CampaignCommand::RuleOnArmy {
        army: "Gerrard".into(),
        square: sq(square),
        reason: "in the way".into(),
    };
    round.run(rule("13E"), judge()).expect("moved");
    assert_eq!(
        round.run(edit("13F", engage(), None), judge()).expect_err("through Gerrard"),
        "coalition.campaign.edit_through_army"
    );
    round.run(rule("35A"), judge()).expect("moved back");
    round.run(edit("13F", engage(), None), judge()).expect("edited");
    assert_eq!(
        round.run(edit("13F", engage(), None), judge()).expect_err("once a turn"),
        "coalition.campaign.edit_used"
    );
    let events = round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Raider 1"), sq("13F"));
    let battle = the_battle(&events);
    assert_eq!(battle.square, sq("13F"));
    round.assert_replays();
}
