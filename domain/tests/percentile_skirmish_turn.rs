//! Turns and initiative rounds (seed 002 "TURN", "INITIATIVE"): rounds in descending initiative
//! value, declarations at the start of each round, a mini acting at most once a turn, never in
//! a round above its initiative nor undeclared, waiting for a later round, percentile ties with
//! the level added, and actions split within the round.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::percentile_skirmish::{
    battle::{state::Phase, SkirmishCommand, SkirmishEvent},
    rules::{acting_order, BattleOptions, Declarations},
};
use support::*;

/// Red: a knight (initiative 10, level 3) and a squire (initiative 5); blue: an archer
/// (initiative 8, level 1) and a scout (initiative 5, level 2).
fn four() -> Vec<herald_domain::percentile_skirmish::mini::MiniSpec> {
    vec![
        mini("red-knight", RED, card("Knight", 3, 10, 20), 10.0, 10.0, 90.0),
        mini("red-squire", RED, card("Squire", 0, 5, 8), 12.0, 10.0, 90.0),
        mini("blue-archer", BLUE, card("Archer", 1, 8, 10), 10.0, 30.0, 270.0),
        mini("blue-scout", BLUE, card("Scout", 2, 5, 8), 14.0, 30.0, 270.0),
    ]
}

#[test]
fn the_first_round_of_a_turn_is_the_highest_initiative_per_seed_002_initiative() {
    let battle = Battle::new(four());
    assert_eq!(battle.state.turn, 1);
    assert_eq!(battle.state.phase, Phase::Declaring);
    let round = battle.state.round.clone().expect("a round");
    assert_eq!(round.value, 10);
    // Only red has a mini of initiative 10 or more: blue is not awaited.
    assert_eq!(round.declarations.len(), 1);
    assert_eq!(round.declarations[0].participant, RED);
    assert_eq!(round.declarations[0].eligible, vec!["red-knight".to_string()]);
}

#[test]
fn rounds_follow_in_descending_initiative_order_per_seed_002_initiative() {
    let mut battle = Battle::new(four());
    let mut rounds = vec![battle.state.round.as_ref().map(|r| r.value)];
    battle.judge(declare(RED, &[]));
    rounds.push(battle.state.round.as_ref().map(|r| r.value));
    // Round 8 awaits both: blue's archer, and red's knight that waited.
    let round = battle.state.round.clone().expect("round 8");
    assert_eq!(round.declarations.iter().map(|d| d.participant.as_str()).collect::<Vec<_>>(), vec![RED, BLUE]);
    battle.judge(declare(RED, &[]));
    battle.judge(declare(BLUE, &[]));
    rounds.push(battle.state.round.as_ref().map(|r| r.value));
    assert_eq!(rounds, vec![Some(10), Some(8), Some(5)]);
}

#[test]
fn a_mini_cannot_act_in_a_round_above_its_initiative_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(four()),
        when: vec![(alice(), declare(RED, &["red-squire"]))],
        then: Then::Refused("percentile-skirmish.initiative_too_low", "TURN"),
    });
}

#[test]
fn a_mini_that_acted_in_an_earlier_round_cannot_act_again_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(four()),
        when: vec![
            (alice(), declare(RED, &["red-knight"])),
            (alice(), done("red-knight")),
            (bob(), declare(BLUE, &[])),
            (alice(), declare(RED, &["red-knight"])),
        ],
        then: Then::Refused("percentile-skirmish.already_acted", "TURN"),
    });
}

#[test]
fn a_mini_not_declared_before_the_round_cannot_act_in_it_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(four()),
        // Round 10: red declares nothing, so round 8 opens; the knight was not declared.
        when: vec![(alice(), declare(RED, &[])), (alice(), walk("red-knight", &[(10.0, 12.0)]))],
        then: Then::Refused("percentile-skirmish.not_acting", "TURN"),
    });
}

#[test]
fn a_mini_may_wait_for_a_later_round_per_seed_002_initiative() {
    check(Case {
        rule: "INITIATIVE",
        given: Given::minis(four()),
        when: vec![
            (alice(), declare(RED, &[])),
            (alice(), declare(RED, &[])),
            (bob(), declare(BLUE, &[])),
            (alice(), declare(RED, &["red-knight"])),
            (bob(), declare(BLUE, &[])),
        ],
        then: holds(|battle, events| {
            assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(5), "the knight acts in round 5");
            assert_eq!(battle.acting().as_deref(), Some("red-knight"));
            assert!(has(events, "percentile-skirmish.RoundDeclared"));
        }),
    });
}

#[test]
fn several_minis_in_a_round_act_by_percentile_plus_level_per_seed_002_initiative() {
    let mut battle = Battle::new(four());
    battle.judge(declare(RED, &[]));
    battle.judge(declare(RED, &[]));
    battle.judge(declare(BLUE, &[]));
    battle.by(alice(), declare(RED, &["red-squire", "red-knight"]));
    let events = battle.by(bob(), declare(BLUE, &["blue-scout"]));
    let SkirmishEvent::RoundDeclared { initiative, order, .. } = find(&events, "percentile-skirmish.RoundDeclared")
    else {
        unreachable!()
    };
    assert_eq!(initiative.len(), 3);
    for roll in initiative {
        let level = battle.mini(&roll.mini).spec.profile.level;
        assert_eq!(roll.level, level);
        for (draw, score) in roll.draws.iter().zip(&roll.scores) {
            assert_eq!(draw.sides, 100, "percentile dice");
            assert_eq!(*score, draw.value + level, "the level is added");
        }
    }
    assert_eq!(*order, acting_order(initiative));
    let firsts: Vec<u32> =
        order.iter().map(|id| initiative.iter().find(|r| r.mini == *id).map_or(0, |r| r.scores[0])).collect();
    assert!(firsts.windows(2).all(|pair| pair[0] >= pair[1]), "descending adjusted rolls: {firsts:?}");
    assert_eq!(battle.acting().as_deref(), Some(order[0].as_str()));
}

#[test]
fn equal_initiative_scores_roll_again_per_herald_reading_of_seed_002_initiative() {
    // Two level-0 minis of initiative 5 on each side: find a seed where the first rolls tie.
    let minis = vec![
        mini("red-a", RED, card("A", 0, 5, 8), 10.0, 10.0, 90.0),
        mini("blue-b", BLUE, card("B", 0, 5, 8), 10.0, 30.0, 270.0),
    ];
    let play = |n: u64| {
        let mut battle =
            Battle::with(Default::default(), minis.clone(), BattleOptions::default(), Default::default(), n);
        battle.judge(declare(RED, &["red-a"]));
        let events = battle.judge(declare(BLUE, &["blue-b"]));
        match find(&events, "percentile-skirmish.RoundDeclared") {
            SkirmishEvent::RoundDeclared { initiative, order, .. } => (initiative.clone(), order.clone()),
            _ => unreachable!(),
        }
    };
    let n = find_seed(|n| play(n).0.iter().all(|roll| roll.draws.len() > 1));
    let (initiative, order) = play(n);
    assert_eq!(initiative[0].scores[0], initiative[1].scores[0], "the first rolls tie");
    assert_eq!(order, acting_order(&initiative));
}

#[test]
fn actions_may_be_split_within_the_round_per_seed_002_turn() {
    // "move 2″, attack another mini, then move 2″ and attack again".
    let mut knight = card("Knight", 3, 10, 20);
    knight.attacks = 2;
    let minis = vec![
        mini("red-knight", RED, knight, 10.0, 10.0, 90.0),
        mini("blue-archer", BLUE, card("Archer", 1, 8, 40), 10.0, 30.0, 270.0),
    ];
    check(Case {
        rule: "TURN",
        given: Given::minis(minis).acting("red-knight"),
        when: vec![
            (alice(), walk("red-knight", &[(10.0, 12.0)])),
            (alice(), shoot("red-knight", "blue-archer", "Bow")),
            (alice(), walk("red-knight", &[(10.0, 14.0)])),
            (alice(), shoot("red-knight", "blue-archer", "Bow")),
        ],
        then: holds(|battle, _| {
            let knight = battle.mini("red-knight");
            assert_eq!(knight.position, p(10.0, 14.0));
            assert_eq!(knight.this_turn.moved, 4.0);
            assert_eq!(knight.this_turn.attacks, 2);
        }),
    });
}

#[test]
fn a_third_attack_is_refused_when_the_mini_has_two_per_seed_002_turn() {
    let mut knight = card("Knight", 3, 10, 20);
    knight.attacks = 2;
    let minis = vec![
        mini("red-knight", RED, knight, 10.0, 10.0, 90.0),
        mini("blue-archer", BLUE, card("Archer", 1, 8, 60), 10.0, 30.0, 270.0),
    ];
    check(Case {
        rule: "TURN",
        given: Given::minis(minis).acting("red-knight"),
        when: vec![
            (alice(), shoot("red-knight", "blue-archer", "Bow")),
            (alice(), shoot("red-knight", "blue-archer", "Bow")),
            (alice(), shoot("red-knight", "blue-archer", "Bow")),
        ],
        then: Then::Refused("percentile-skirmish.no_attacks_left", "TURN"),
    });
}

#[test]
fn minis_act_one_after_the_other_in_their_order_per_seed_002_initiative() {
    let mut battle = Battle::new(four());
    battle.judge(declare(RED, &[]));
    battle.judge(declare(RED, &["red-knight"]));
    battle.judge(declare(BLUE, &["blue-archer"]));
    let order = battle.state.round.clone().expect("round 8").order;
    let second = order[1].clone();
    let participant = battle.mini(&second).spec.participant.clone();
    battle.refused_by(controller(&participant), turn_to(&second, 0.0), "percentile-skirmish.not_acting", "TURN");
    battle.judge(done(&order[0]));
    assert_eq!(battle.acting(), Some(second));
}

/// Plays `four()` until the lowest initiative round (5) is over: the knight waits through
/// rounds 10, 8 and 5, the archer acts in 8, the squire and the scout in 5.
fn the_knight_waits_past_round_5() -> Battle {
    let mut battle = Battle::new(four());
    battle.by(alice(), declare(RED, &[]));
    battle.by(alice(), declare(RED, &[]));
    battle.by(bob(), declare(BLUE, &["blue-archer"]));
    battle.judge(done("blue-archer"));
    assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(5));
    battle.by(alice(), declare(RED, &["red-squire"]));
    battle.by(bob(), declare(BLUE, &["blue-scout"]));
    for _ in 0..2 {
        let acting = battle.acting().expect("the squire and the scout act in round 5");
        battle.judge(done(&acting));
    }
    battle
}

#[test]
fn a_mini_waiting_past_the_lowest_initiative_is_offered_a_later_round_per_seed_002_initiative() {
    // Seed 002 "INITIATIVE": a mini "can decide to wait to peform actions on a later inititiave
    // round". No mini has an initiative below 5, yet the knight waited: round 4 is his.
    let mut battle = the_knight_waits_past_round_5();
    assert_eq!(battle.state.turn, 1, "the turn is not over while the knight may still act");
    let round = battle.state.round.clone().expect("a later round");
    assert_eq!(round.value, 4);
    assert_eq!(round.declarations.len(), 1);
    assert_eq!(round.declarations[0].participant, RED);
    assert_eq!(round.declarations[0].eligible, vec!["red-knight".to_string()]);
    battle.by(alice(), declare(RED, &["red-knight"]));
    assert_eq!(battle.acting().as_deref(), Some("red-knight"));
    battle.by(alice(), walk("red-knight", &[(10.0, 12.0)]));
    let events = battle.judge(done("red-knight"));
    // Everyone has acted: the turn ends.
    assert!(has(&events, "percentile-skirmish.TurnEnded"), "{:?}", types(&events));
    assert_eq!(battle.state.turn, 2);
}

#[test]
fn a_later_round_every_waiting_mini_lets_go_ends_the_turn_per_herald_reading_of_seed_002_initiative() {
    let mut battle = the_knight_waits_past_round_5();
    let events = battle.by(alice(), declare(RED, &[]));
    assert!(has(&events, "percentile-skirmish.TurnEnded"), "{:?}", types(&events));
    assert_eq!(battle.state.turn, 2);
    assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(10));
}

#[test]
fn waiting_rounds_go_no_lower_than_the_lowest_round_per_herald_reading_of_seed_002_initiative() {
    use herald_domain::percentile_skirmish::{battle::LOWEST_ROUND, mini::MAX_INITIATIVE};
    assert_eq!(LOWEST_ROUND, -MAX_INITIATIVE - 3, "the lowest card initiative, slowed");
    // Five minis of the lowest initiative: one acts in each round from -1000 down to -1003;
    // the fifth, still waiting, has no round below that, and the turn ends.
    let ids = ["red-1", "red-2", "red-3", "red-4", "red-5"];
    let minis = ids
        .iter()
        .enumerate()
        .map(|(n, id)| mini(id, RED, card("Pikeman", 0, -MAX_INITIATIVE, 8), 10.0 + 2.0 * n as f64, 10.0, 90.0))
        .collect();
    let mut battle = Battle::new(minis);
    let rounds = [-MAX_INITIATIVE, -MAX_INITIATIVE - 1, -MAX_INITIATIVE - 2, LOWEST_ROUND];
    for (id, round) in ids.iter().zip(rounds) {
        assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(round), "{id}'s round");
        battle.by(alice(), declare(RED, &[id]));
        battle.judge(done(id));
    }
    assert_eq!(battle.state.turn, 2, "no round below {LOWEST_ROUND}: the turn ended");
    assert!(has(&battle.events, "percentile-skirmish.TurnEnded"));
}

#[test]
fn declaring_a_mini_whose_initiative_is_too_low_names_that_reason_per_seed_002_turn() {
    // Round 10 awaits only red: blue has nothing to declare, but its archer is refused for the
    // real reason.
    let mut battle = Battle::new(four());
    battle.refused_by(bob(), declare(BLUE, &["blue-archer"]), "percentile-skirmish.initiative_too_low", "TURN");
    battle.refused_by(bob(), declare(BLUE, &[]), "percentile-skirmish.nothing_to_declare", "TURN");
}

#[test]
fn declaring_a_mini_that_already_acted_names_that_reason_per_seed_002_turn() {
    // Round 8 awaits red too? No: the knight acted in round 10 and the squire's initiative is 5.
    let mut battle = Battle::new(four());
    battle.by(alice(), declare(RED, &["red-knight"]));
    battle.judge(done("red-knight"));
    assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(8));
    battle.refused_by(alice(), declare(RED, &["red-knight"]), "percentile-skirmish.already_acted", "TURN");
}

#[test]
fn a_participant_declares_once_a_round_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(four()),
        when: vec![(alice(), declare(RED, &[])), (alice(), declare(RED, &[]))],
        // Round 8 now awaits red again (the knight waited): a second declaration for it is
        // fine; a third in the same round is not.
        then: holds(|battle, _| assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(8))),
    });
    let mut battle = Battle::new(four());
    battle.judge(declare(RED, &[]));
    battle.by(alice(), declare(RED, &["red-knight"]));
    battle.refused_by(alice(), declare(RED, &[]), "percentile-skirmish.nothing_to_declare", "TURN");
}

#[test]
fn only_a_participants_controller_or_a_judge_declares_for_it() {
    let mut battle = Battle::new(four());
    let error = battle.refused_by(bob(), declare(RED, &[]), "percentile-skirmish.not_your_participant", "herald");
    assert!(error.forbidden, "a 403");
    battle.refused_by(bob(), walk("red-knight", &[(1.0, 1.0)]), "percentile-skirmish.not_your_mini", "herald");
}

#[test]
fn declarations_are_refused_while_minis_act_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(four()).acting("red-knight"),
        when: vec![(bob(), declare(BLUE, &["blue-archer"]))],
        then: Then::Refused("percentile-skirmish.not_declaring", "TURN"),
    });
}

#[test]
fn the_turn_ends_after_its_last_round_and_every_mini_may_act_again_per_seed_002_turn() {
    let mut battle = Battle::new(four());
    battle.until_acting("red-knight");
    battle.judge(done("red-knight"));
    battle.next_turn();
    assert_eq!(battle.state.turn, 2);
    assert!(has(&battle.events, "percentile-skirmish.TurnEnded"));
    assert!(battle.state.minis.values().all(|mini| !mini.this_turn.acted));
    assert_eq!(battle.state.round.as_ref().map(|r| r.value), Some(10));
}

#[test]
fn open_declarations_are_an_option_and_sealed_ones_the_default() {
    assert_eq!(BattleOptions::default().declarations, Declarations::Sealed);
    let options = BattleOptions { declarations: Declarations::Open, ..BattleOptions::default() };
    let battle = Given::minis(four()).options(options).battle();
    assert_eq!(battle.state.options.declarations, Declarations::Open);
}

/// The command opening `four()` with `change` made to it.
fn opening(
    change: impl FnOnce(
        &mut herald_domain::percentile_skirmish::table::Table,
        &mut Vec<herald_domain::percentile_skirmish::mini::MiniSpec>,
        &mut String,
    ),
) -> SkirmishCommand {
    let (mut table, mut minis, mut commitment) = (Default::default(), four(), commitment_hex(0));
    change(&mut table, &mut minis, &mut commitment);
    SkirmishCommand::CreateBattle {
        table,
        participants: participants(),
        minis,
        options: BattleOptions::default(),
        summons: Default::default(),
        seed_commitment: commitment,
    }
}

#[test]
fn every_set_up_and_service_refusal_names_its_code_and_rule() {
    // Issue 26: a test triggers each code. Set-up first: each case breaks one thing.
    let cases: Vec<(&str, SkirmishCommand, &str)> = vec![
        ("no mini", opening(|_, minis, _| minis.clear()), "percentile-skirmish.mini_count"),
        (
            "a mini twice",
            opening(|_, minis, _| minis[1].id = "red-knight".into()),
            "percentile-skirmish.duplicate_mini",
        ),
        (
            "a mini of nobody",
            opening(|_, minis, _| minis[0].participant = "green".into()),
            "percentile-skirmish.unknown_participant",
        ),
        (
            "a nameless card",
            opening(|_, minis, _| minis[0].profile.name = " ".into()),
            "percentile-skirmish.bad_profile",
        ),
        ("a table of no size", opening(|table, _, _| table.width = 0.0), "percentile-skirmish.table_size"),
        (
            "an unsealed seed",
            opening(|_, _, seed| *seed = "not hex".into()),
            "percentile-skirmish.seed_commitment_malformed",
        ),
        (
            "a nameless road",
            opening(|table, _, _| table.terrain = vec![road(" ", 20.0)]),
            "percentile-skirmish.bad_name",
        ),
        (
            "two roads of a name",
            opening(|table, _, _| table.terrain = vec![road("north", 20.0), road("north", 30.0)]),
            "percentile-skirmish.duplicate_terrain",
        ),
        (
            "a road of no width",
            opening(|table, _, _| {
                table.terrain = vec![rect(
                    "flat",
                    herald_domain::percentile_skirmish::table::TerrainKind::Road,
                    (5.0, 5.0),
                    (5.0, f64::NAN),
                )]
            }),
            "percentile-skirmish.bad_terrain",
        ),
    ];
    for (what, command, code) in cases {
        let mut battle = Battle::empty(0);
        let error = battle.attempt(judge(), command).expect_err(what);
        assert_eq!(error.code, code, "{what}: {}", error.message);
        assert!(error.rule.starts_with("herald"), "{what}: {}", error.rule);
    }
    let mut twice = SkirmishCommand::CreateBattle {
        table: Default::default(),
        participants: participants(),
        minis: four(),
        options: BattleOptions::default(),
        summons: Default::default(),
        seed_commitment: commitment_hex(0),
    };
    if let SkirmishCommand::CreateBattle { participants, .. } = &mut twice {
        participants[1].name = RED.into();
    }
    let mut battle = Battle::empty(0);
    assert_eq!(battle.attempt(judge(), twice).expect_err("two reds").code, "percentile-skirmish.duplicate_participant");
    // Then the service's refusals in play.
    let mut battle = Battle::new(four());
    battle.refused(opening(|_, _, _| ()), "percentile-skirmish.already_exists", "herald");
    battle.refused(declare("green", &[]), "percentile-skirmish.unknown_participant", "herald");
    battle.refused(declare(RED, &["red-dragon"]), "percentile-skirmish.unknown_mini", "herald");
    let life =
        |life, reason: &str| SkirmishCommand::SetLifePoints { mini: "red-squire".into(), life, reason: reason.into() };
    battle.refused(life(9, "a potion"), "percentile-skirmish.bad_life", "herald");
    battle.refused(life(4, ""), "percentile-skirmish.reason_required", "herald");
    battle.judge(life(0, "a stray arrow"));
    battle.refused(life(4, "a miracle"), "percentile-skirmish.mini_out_of_play", "herald");
    battle.by(alice(), declare(RED, &["red-knight"]));
    battle.refused(walk("red-knight", &[]), "percentile-skirmish.empty_move", "herald");
    let facing = |facing: f64| SkirmishCommand::Move {
        mini: "red-knight".into(),
        path: vec![],
        run: false,
        facing: Some(facing),
    };
    battle.refused(facing(f64::NAN), "percentile-skirmish.bad_facing", "herald");
    let far = vec![(10.0, 10.5); herald_domain::percentile_skirmish::limits::MAX_WAYPOINTS + 1];
    battle.refused(walk("red-knight", &far), "percentile-skirmish.path_too_long", "herald");
    battle.refused(strike("red-knight", "blue-archer", "Halberd"), "percentile-skirmish.unknown_weapon", "herald");
}
