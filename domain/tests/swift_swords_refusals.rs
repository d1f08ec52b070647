//! Issue 26 item 5: every code of the swift-swords error table is triggered by a test. These are
//! the refusals no rule test reached: each case breaks exactly one rule of seed 004 (cited by
//! its heading, as the decider cites it) through the decider, and changes nothing.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::{
    dice::Draw,
    swift_swords::{
        battle::{
            command::{DefenceChoice, GrappleChoice, OneUse, PoolKind, SwiftSwordsCommand as C},
            event::SwiftSwordsEvent as E,
            pending::Destination,
        },
        chariot::{ChariotKind, ChariotSpec, DriveStep},
        figure::{DefenceSkills, FigureSpec, SkillSpec, WeaponKind, Weight},
        flight::{FlightSpec, FlightStep},
        injury::{InjuryEffect, Location, LocationRoll},
        ranks::RankSide,
        zones::{CoverArea, CoverLevel, CoverShape, Direction, ZoneMap},
    },
};
use support::*;

/// Roland and goblin-1 InContact in zone a, and goblin-2 Alone beside them.
fn melee() -> Setup {
    let armed = FigureSpec {
        weapons: vec![
            weapon("Broadsword", 4, Weight::Medium),
            weapon("Great Sword", 5, Weight::Heavy),
            missile("Bow", 5, WeaponKind::Fired, 3),
            missile("Pike", 4, WeaponKind::Reach, 0),
        ],
        skills: vec![SkillSpec { name: "fire".into(), dice: 3 }],
        ..roland("a")
    };
    Setup::of(vec![grouped(armed, "melee"), grouped(goblin("goblin-1", "a"), "melee"), goblin("goblin-2", "a")])
}

/// A battle of `setup` where only roland holds dice (four 6s): the countdown gives him the action.
fn roland_acts(setup: &Setup) -> Battle {
    let mut battle = Battle::begun(setup, 0);
    for figure in &setup.figures {
        battle.hand(&figure.id, &[]);
    }
    battle.hand("roland", &[6, 6, 6, 6]);
    battle
}

/// Refuse each of `cases` (command, code, cited heading) for alice, with the state untouched.
fn refuse_all(battle: &mut Battle, cases: Vec<(C, &str, &str)>) {
    let before = battle.state.clone();
    for (command, code, rule) in cases {
        assert_refused(battle.attempt(alice(), command), code, rule);
        assert_eq!(battle.state, before, "{code} changed nothing");
    }
}

#[test]
fn refusals_of_movement_and_status_name_their_code_and_rule() {
    let mut battle = roland_acts(&melee());
    let skill = |purpose: &str| C::SkillRoll {
        figure: "roland".into(),
        skill: "fire".into(),
        cost: 1,
        purpose: purpose.into(),
        casting: false,
        from_pool: false,
        effort: false,
        bump: false,
        pay: None,
    };
    refuse_all(
        &mut battle,
        vec![
            // seed 004 "Status": a figure moves alongside another figure of its zone, not
            // alongside itself.
            (move_to("roland", Destination::Join { figure: "roland".into() }), "swift-swords.cannot_join", "Status"),
            // seed 004 "Cover": only a cover area of one's own zone can be entered.
            (move_to("roland", Destination::Occupy { cover: "hedge".into() }), "swift-swords.bad_cover", "Cover"),
            // seed 004 "InClose Combat": a knock-down is made on an opponent one is InClose with.
            (
                C::KnockDown { figure: "roland".into(), target: "goblin-1".into(), pay: None },
                "swift-swords.not_in_close",
                "InClose Combat",
            ),
            // seed 004 "InClose Combat": only the holder of a hold grapples with it.
            (
                C::Grapple { figure: "roland".into(), choice: GrappleChoice::Damage, pay: None },
                "swift-swords.no_hold",
                "InClose Combat",
            ),
            // seed 004 "AD = 1 (1-AD)": a 1 is spent only by a figure holding one.
            (C::UseOne { figure: "roland".into(), on: OneUse::RemoveState }, "swift-swords.no_one", "AD = 1"),
            // seed 004 "Status": a charge is made from Alone; roland is InContact.
            (charge("roland", "Broadsword", "goblin-1"), "swift-swords.cannot_charge", "Status"),
            // seed 004 "Status": InContact in one melee, roland must leave it to strike goblin-2.
            (attack("roland", "Broadsword", "goblin-2"), "swift-swords.leave_contact_first", "Status"),
            // seed 004 "Attacks": one attacks an enemy (roland is no enemy of himself).
            (attack("roland", "Broadsword", "roland"), "swift-swords.not_an_enemy", "Attacks"),
            // Herald's rule for skill rolls: say what the roll is for.
            (skill("  "), "swift-swords.bad_skill_roll", "herald"),
        ],
    );
    // seed 004 "Held Actions": an action is held once.
    battle.by(alice(), C::Hold { figure: "roland".into() });
    assert_refused(
        battle.attempt(alice(), C::Hold { figure: "roland".into() }),
        "swift-swords.already_holding",
        "Held Actions",
    );
    // seed 004 "Actions & Refresh": a figure with no dice left has no action this round.
    assert_refused(
        battle.attempt(gm(), attack("goblin-2", "Spear", "roland")),
        "swift-swords.no_dice",
        "Actions & Refresh",
    );
}

#[test]
fn refusals_of_a_figure_alone_name_their_code_and_rule() {
    let mut setup = melee();
    setup.figures[0].start.group = None;
    setup.figures[1].start.zone = "b".into();
    setup.figures[1].start.group = None;
    let mut battle = roland_acts(&setup);
    let mut one = battle.clone();
    refuse_all(
        &mut battle,
        vec![
            // seed 004 "Status": a figure Alone cannot move out of its group to Alone.
            (move_to("roland", Destination::Alone), "swift-swords.already_alone", "Status"),
            // seed 004 "Status": Withdraw gets a figure out of contact; Alone, there is none.
            (C::Withdraw { figure: "roland".into(), pay: None }, "swift-swords.nothing_to_withdraw_from", "Status"),
            // seed 004 "Reach Weapons.": a reach weapon strikes into its own zone only.
            (attack("roland", "Pike", "goblin-1"), "swift-swords.out_of_reach", "Reach Weapons."),
        ],
    );
    // seed 004 "Mental Damage": a 1 buys a new Spirit roll only against a panic.
    one.hand("roland", &[6, 1]);
    assert_refused(
        one.attempt(alice(), C::UseOne { figure: "roland".into(), on: OneUse::Rally }),
        "swift-swords.not_panicked",
        "Mental Damage",
    );
    // seed 004 "InClose Combat": a prone figure stands up before it moves or withdraws.
    let mut prone = roland_acts(&melee());
    prone.inject(E::ProneChanged { figure: "roland".into(), prone: true, reason: "test".into() });
    refuse_all(
        &mut prone,
        vec![
            (move_to("roland", Destination::Alone), "swift-swords.stand_up_first", "InClose Combat"),
            (C::Withdraw { figure: "roland".into(), pay: None }, "swift-swords.stand_up_first", "InClose Combat"),
        ],
    );
}

#[test]
fn refusals_inclose_name_their_code_and_rule() {
    let mut setup = melee();
    setup.figures[2].start.group = Some("melee".into());
    let mut battle = roland_acts(&setup);
    battle.by(alice(), C::CloseIn { figure: "roland".into(), target: "goblin-1".into(), pay: Some(vec![6]) });
    assert!(battle.figure("goblin-1").prone, "two men close: both go down");
    battle.hand("roland", &[6, 6, 6]);
    refuse_all(
        &mut battle,
        vec![
            // seed 004 "InClose Combat": a figure already down is not knocked down.
            (
                C::KnockDown { figure: "roland".into(), target: "goblin-1".into(), pay: None },
                "swift-swords.already_prone",
                "InClose Combat",
            ),
            // seed 004 "InClose Combat": one closes with an enemy one is not yet InClose with.
            (
                C::CloseIn { figure: "roland".into(), target: "goblin-1".into(), pay: None },
                "swift-swords.cannot_close",
                "InClose Combat",
            ),
            // seed 004 "InClose Combat": InClose, a figure strikes only those InClose with it.
            (attack("roland", "Broadsword", "goblin-2"), "swift-swords.in_close", "InClose Combat"),
            // seed 004 "InClose Combat": a fired weapon cannot be shot InClose.
            (attack("roland", "Bow", "goblin-1"), "swift-swords.weapon_not_for_close", "InClose Combat"),
            // seed 004 "InClose Combat" (Heavy weapons are dropped) and "General Injury Table"
            // (taking a weapon up): the dropped Great Sword cannot be taken up InClose.
            (
                C::ReadyWeapon { figure: "roland".into(), weapon: "Great Sword".into(), pay: None },
                "swift-swords.cannot_ready",
                "General Injury Table",
            ),
        ],
    );
}

#[test]
fn refusals_of_defences_pools_and_the_refresh_name_their_code_and_rule() {
    // seed 004 "Defences.": a defence the target is not trained in is not available (the goblin
    // dodges but has no Parry skill).
    let mut setup = melee();
    setup.figures[1].defences = DefenceSkills { dodge: Some(3), ..DefenceSkills::default() };
    let mut battle = roland_acts(&setup);
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    assert_refused(
        battle.attempt(gm(), defend("goblin-1", DefenceChoice::Parry)),
        "swift-swords.defence_unavailable",
        "Defences.",
    );
    // seed 004 "Pools.": a pool holds no more dice than the figure would normally roll (Dodge 5).
    let mut battle = roland_acts(&melee());
    battle.inject(E::Pooled { figure: "roland".into(), into: PoolKind::Dodge, size: 5 });
    assert_refused(
        battle.attempt(alice(), C::Pool { figure: "roland".into(), into: PoolKind::Dodge, pay: None }),
        "swift-swords.pool_full",
        "Pools.",
    );
    // seed 004 "Actions & Refresh": once a figure calls the refresh, a figure with no dice has no
    // last option.
    let mut battle = roland_acts(&melee());
    battle.hand("goblin-2", &[3]);
    battle.by(alice(), C::CallRefresh { figure: Some("roland".into()) });
    assert_refused(
        battle.attempt(gm(), C::CarryOver { figure: "goblin-1".into() }),
        "swift-swords.no_option_left",
        "Actions & Refresh",
    );
    // seed 004 "Status" and "Attacks": an opportunity attack is made with a melee weapon in hand.
    let mut battle = Battle::begun(&melee(), 0);
    for id in ["roland", "goblin-1", "goblin-2"] {
        battle.hand(id, &[]);
    }
    battle.hand("goblin-1", &[6, 6]);
    battle.hand("roland", &[5]);
    battle.gm(move_to("goblin-1", Destination::Alone));
    assert_refused(
        battle.attempt(alice(), C::OpportunityAttack { figure: "roland".into(), weapon: "Bow".into(), pay: None }),
        "swift-swords.bad_weapon",
        "Attacks",
    );
}

fn grid() -> ZoneMap {
    let mut zones = Vec::new();
    for row in 0..4u8 {
        for column in 0..4u8 {
            zones.push(zone(&format!("z{column}{row}"), column, row));
        }
    }
    ZoneMap { zones, ..ZoneMap::default() }
}

/// Only `figure` holds dice.
fn only(battle: &mut Battle, figure: &str, hand: &[u8]) {
    let ids: Vec<String> = battle.state.figures.keys().cloned().collect();
    for id in ids {
        battle.hand(&id, &[]);
    }
    battle.hand(figure, hand);
}

/// A light two-horse chariot in z00 facing east, its team and driver, roland far off in z33.
fn chariot_setup() -> Setup {
    let team = FigureSpec { physical: 4, legs: 4, ..goblin("team", "z00") };
    let driver = FigureSpec { skills: vec![SkillSpec { name: "driving".into(), dice: 5 }], ..goblin("driver", "z00") };
    let chariot = ChariotSpec {
        id: "chariot".into(),
        kind: ChariotKind::Light,
        horses: 2,
        team: "team".into(),
        driver: "driver".into(),
        crew: vec!["driver".into()],
        facing: Direction::E,
    };
    Setup { map: grid(), chariots: vec![chariot], ..Setup::of(vec![team, driver, roland("z33")]) }
}

fn drive(steps: Vec<DriveStep>) -> C {
    C::Drive { chariot: "chariot".into(), steps, dash: false, pay: None }
}

#[test]
fn refusals_of_chariots_name_their_code_and_rule() {
    let mut battle = Battle::begun(&chariot_setup(), 0);
    only(&mut battle, "driver", &[6, 6]);
    let before = battle.state.clone();
    let cases: Vec<(C, &str, &str)> = vec![
        // seed 004 "Chariots.": the crew moves with the chariot.
        (move_to("driver", Destination::Zone { zone: "z10".into() }), "swift-swords.aboard_chariot", "Chariots."),
        // seed 004 "Chariot Movement.": a light two-horse chariot (pace 9) drives 1 zone of 6".
        (drive(vec![DriveStep::Forward; 2]), "swift-swords.drive_too_far", "Chariot Movement."),
        // Herald's cap on a request: at most 64 steps.
        (drive(vec![DriveStep::Forward; 65]), "swift-swords.drive_too_long", "Chariot Movement."),
    ];
    for (command, code, rule) in cases {
        assert_refused(battle.attempt(gm(), command), code, rule);
        assert_eq!(battle.state, before, "{code} changed nothing");
    }
    // seed 004 "Chariot Movement.": a chariot cannot drive off the battlefield (facing north from
    // the top row).
    let mut setup = chariot_setup();
    setup.chariots[0].facing = Direction::N;
    let mut north = Battle::begun(&setup, 0);
    only(&mut north, "driver", &[6, 6]);
    assert_refused(
        north.attempt(gm(), drive(vec![DriveStep::Forward])),
        "swift-swords.off_the_map",
        "Chariot Movement.",
    );
    // seed 004 "Chariot Movement.": a chariot that has flipped over drives no more.
    let mut flipped = battle.clone();
    let next_word = flipped.state.dice.next_word;
    flipped.inject(E::Driven {
        chariot: "chariot".into(),
        zones: Vec::new(),
        facing: Direction::E,
        roll: None,
        flipped: true,
        next_word,
    });
    assert_refused(
        flipped.attempt(gm(), drive(vec![DriveStep::Forward])),
        "swift-swords.chariot_wrecked",
        "Chariot Movement.",
    );
    // seed 004 "Chariots.": a chariot whose team is out of action is not driven.
    let mut lamed = battle.clone();
    lamed.inject(E::OutOfAction { figure: "team".into(), cause: "test".into() });
    assert_refused(lamed.attempt(gm(), drive(vec![DriveStep::Forward])), "swift-swords.team_down", "Chariots.");
}

#[test]
fn refusals_of_a_chariots_set_up_name_their_code_and_rule() {
    let create = |setup: &Setup| {
        let mut fresh = Battle::empty(0);
        fresh.attempt(gm(), setup.command(0))
    };
    let mut twice = chariot_setup();
    twice.chariots.push(twice.chariots[0].clone());
    assert_refused(create(&twice), "swift-swords.duplicate_chariot", "herald");
    // seed 004 "Chariots.": a chariot is drawn by 2 or 4 horses.
    let mut three = chariot_setup();
    three.chariots[0].horses = 3;
    assert_refused(create(&three), "swift-swords.bad_chariot", "Chariots.");
    // seed 004 "Cover": a cover area lies in a zone of the battlefield.
    let mut cover = chariot_setup();
    cover.map.cover = vec![CoverArea {
        id: "hedge".into(),
        zone: "nowhere".into(),
        shape: CoverShape::Area,
        cover: CoverLevel::SoftMedium,
    }];
    assert_refused(create(&cover), "swift-swords.bad_cover", "Cover");
}

#[test]
fn refusals_of_flyers_name_their_code_and_rule() {
    let mut griffon = FigureSpec {
        flight: Some(FlightSpec { speed: 2, turn_rate: 2, dive: 3 }),
        weapons: vec![weapon("Talons", 4, Weight::Medium)],
        ..goblin("griffon", "z00")
    };
    griffon.start.flying = true;
    griffon.start.facing = Some(Direction::N);
    let setup = Setup { map: grid(), ..Setup::of(vec![roland("z33"), griffon]) };
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "griffon", &[6, 6]);
    let before = battle.state.clone();
    let fly =
        |steps: Vec<FlightStep>| C::Fly { figure: "griffon".into(), steps, dive: false, circle: false, pay: None };
    let cases: Vec<(C, &str, &str)> = vec![
        // seed 004 "Flying": a figure in the air flies; it does not walk.
        (move_to("griffon", Destination::Zone { zone: "z10".into() }), "swift-swords.flying", "Flying"),
        // seed 004 "Flying": facing north on the top row, the flight leaves the battlefield.
        (fly(vec![FlightStep::Forward]), "swift-swords.off_the_map", "Flying"),
        // Herald's cap on a request: at most 64 steps.
        (fly(vec![FlightStep::Forward; 65]), "swift-swords.flight_too_long", "Flying"),
    ];
    for (command, code, rule) in cases {
        assert_refused(battle.attempt(gm(), command), code, rule);
        assert_eq!(battle.state, before, "{code} changed nothing");
    }
}

#[test]
fn a_two_handed_weapon_with_a_broken_arm_is_refused_per_seed_004_general_injury_table() {
    // seed 004 "General Injury Table": a broken arm leaves one good hand, too few for the
    // Heavy Great Sword (two-handed).
    let mut setup = melee();
    setup.figures[0].start.group = None;
    setup.figures[1].start.group = None;
    let mut battle = roland_acts(&setup);
    let next_word = battle.state.dice.next_word;
    battle.inject(E::InjuryRolled {
        figure: "roland".into(),
        location_draws: Vec::new(),
        location: LocationRoll {
            faces: vec![5, 5, 2, 1],
            face: 5,
            count: 2,
            rolled: Location::RightArm,
            shifts: 0,
            location: Location::RightArm,
        },
        effect_draw: Draw { word: next_word, sides: 6, value: 4, purpose: "test".into() },
        modifier: 0,
        effect: InjuryEffect::Broken,
        roll_penalty: 0,
        repeated_bleeder: false,
        next_word,
    });
    assert_eq!(battle.figure("roland").disabled_arms(), 1);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Great Sword", "goblin-2")),
        "swift-swords.needs_two_hands",
        "General Injury Table",
    );
    // The one-handed Broadsword still serves.
    battle.by(alice(), attack("roland", "Broadsword", "goblin-2"));
}

#[test]
fn refusals_of_the_fallen_and_of_a_missing_battle_name_their_code_and_rule() {
    // Herald's rule: a battle is created before anything else is asked of it.
    let mut none = Battle::empty(0);
    assert_refused(none.attempt(gm(), begin()), "swift-swords.not_found", "herald");
    // seed 004 "Combat": an encounter is fought between at least two sides.
    let mut lonely = Setup::of(vec![goblin("goblin-1", "a")]);
    lonely.sides.retain(|side| side.name == "goblins");
    assert_refused(none.attempt(gm(), lonely.command(0)), "swift-swords.sides", "Combat");
    // seed 004 "OoA and KIA": a figure out of action acts no more, and is fatigued no more.
    let mut battle = roland_acts(&melee());
    battle.hand("goblin-2", &[6, 6, 6, 6, 6]);
    battle.inject(E::OutOfAction { figure: "goblin-2".into(), cause: "test".into() });
    assert_refused(
        battle.attempt(gm(), attack("goblin-2", "Spear", "roland")),
        "swift-swords.out_of_action",
        "OoA and KIA",
    );
    let fatigue =
        C::Fatigue { figure: "goblin-2".into(), ranks: RankSide::Physical, roll: false, reason: "a march".into() };
    assert_refused(battle.attempt(gm(), fatigue), "swift-swords.out_of_action", "Fatigue");
    // seed 004 "OoA and KIA": a figure killed in action is beyond the encounter's healing.
    battle.inject(E::Killed { figure: "goblin-2".into(), cause: "test".into() });
    let heal = C::Heal {
        figure: "goblin-2".into(),
        physical: 1,
        mental: 0,
        states: false,
        injuries: Vec::new(),
        bleeders: false,
        reason: "a potion".into(),
    };
    assert_refused(battle.attempt(gm(), heal), "swift-swords.killed", "OoA and KIA");
}
