//! Status and movement (seed 004 "Status", "Contact example.", "Cover", "InClose Combat"):
//! Alone, InContact and InClose; moving, charging, withdrawing and the opportunity attack;
//! friends standing alone together; cover areas; holds, breaking and reversing them, subdual.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    battle::{
        command::{GrappleChoice, SwiftSwordsCommand as C},
        event::SwiftSwordsEvent as E,
        pending::{Destination, Pending},
    },
    figure::{FigureSpec, Natural, Weight},
    view::{status, Status},
    zones::{CoverArea, CoverLevel, CoverShape},
};
use support::*;

fn status_of(battle: &Battle, id: &str) -> Status {
    status(&battle.state, battle.figure(id))
}

fn only(battle: &mut Battle, figure: &str, hand: &[u8]) {
    let ids: Vec<String> = battle.state.figures.keys().cloned().collect();
    for id in ids {
        battle.hand(&id, &[]);
    }
    battle.hand(figure, hand);
}

#[test]
fn entering_a_zone_leaves_a_figure_alone_unless_it_charges_per_seed_004_status() {
    let setup = Setup::of(vec![roland("a"), FigureSpec { physical: 9, ..goblin("goblin-1", "b") }]);
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6]);
    battle.by(alice(), move_to("roland", Destination::Zone { zone: "b".into() }));
    assert_eq!((battle.figure("roland").zone.as_str(), status_of(&battle, "roland")), ("b", Status::Alone));
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.not_in_zone",
        "Status",
    );
    battle.by(alice(), charge("roland", "Broadsword", "goblin-1"));
    assert_eq!((battle.figure("roland").zone.as_str(), status_of(&battle, "roland")), ("b", Status::InContact));
    assert_refused(
        battle.attempt(alice(), move_to("roland", Destination::Zone { zone: "d".into() })),
        "swift-swords.not_adjacent",
        "Zone Combat",
    );
}

#[test]
fn moving_out_of_contact_risks_the_opportunity_attacks_of_the_enemies_left_per_seed_004_status() {
    let setup = Setup::of(vec![
        grouped(roland("a"), "melee"),
        grouped(FigureSpec { physical: 9, ..goblin("goblin-1", "a") }, "melee"),
    ]);
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6]);
    battle.hand("goblin-1", &[3]);
    battle.by(alice(), move_to("roland", Destination::Zone { zone: "b".into() }));
    assert!(
        matches!(battle.state.pending.last(), Some(Pending::Move(waiting)) if waiting.waiting == vec!["goblin-1".to_string()])
    );
    assert_eq!(battle.figure("roland").zone, "a", "not gone yet");
    assert_refused(
        battle.attempt(alice(), C::Hold { figure: "roland".into() }),
        "swift-swords.awaiting_opportunity",
        "Status",
    );
    battle.gm(C::OpportunityAttack { figure: "goblin-1".into(), weapon: "Spear".into(), pay: None });
    assert_eq!(battle.figure("goblin-1").hand, Vec::<u8>::new(), "one die of any value but 1");
    if let Some(Pending::Attack(_)) = battle.state.pending.last() {
        battle.by(alice(), no_defence("roland"));
    }
    let opportunity = attacks(&battle.events).into_iter().any(|record| record.attacker == "goblin-1");
    assert!(opportunity);
    if battle.figure("roland").active() {
        assert_eq!((battle.figure("roland").zone.as_str(), status_of(&battle, "roland")), ("b", Status::Alone));
    }
}

#[test]
fn an_enemy_may_let_the_mover_go_and_a_withdrawal_risks_nothing_per_seed_004_status() {
    let setup = Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")]);
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6]);
    battle.hand("goblin-1", &[3]);
    battle.by(alice(), move_to("roland", Destination::Alone));
    battle.gm(C::LetGo { figure: "goblin-1".into() });
    assert_eq!(status_of(&battle, "roland"), Status::Alone);
    assert_eq!(battle.figure("goblin-1").group, None, "a group of one is no group");
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6]);
    battle.hand("goblin-1", &[3]);
    let events = battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    assert!(!events.iter().any(|event| matches!(event, E::OpportunityOffered { .. })));
    assert_eq!(status_of(&battle, "roland"), Status::Alone);
}

#[test]
fn friends_standing_alone_together_all_become_in_contact_when_an_enemy_joins_them_per_seed_004_status() {
    let aria = FigureSpec { controller: Some("alice".into()), ..grouped(figure("aria", "heroes", "a"), "band") };
    let setup = Setup::of(vec![grouped(roland("a"), "band"), aria, goblin("goblin-1", "a")]);
    let mut battle = Battle::begun(&setup, 0);
    assert_eq!((status_of(&battle, "roland"), status_of(&battle, "aria")), (Status::Alone, Status::Alone));
    only(&mut battle, "goblin-1", &[6, 6]);
    battle.gm(move_to("goblin-1", Destination::Join { figure: "roland".into() }));
    assert_eq!((status_of(&battle, "roland"), status_of(&battle, "aria")), (Status::InContact, Status::InContact));
}

#[test]
fn entering_area_cover_held_by_enemies_puts_a_figure_in_contact_with_its_holders_per_seed_004_cover() {
    let mut holder = goblin("goblin-1", "a");
    holder.start.cover = Some("farmhouse".into());
    let mut setup = Setup::of(vec![roland("a"), holder]);
    setup.map.cover = vec![CoverArea {
        id: "farmhouse".into(),
        zone: "a".into(),
        shape: CoverShape::Area,
        cover: CoverLevel::HardHeavy,
    }];
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6]);
    battle.by(alice(), move_to("roland", Destination::Occupy { cover: "farmhouse".into() }));
    assert_eq!(status_of(&battle, "roland"), Status::InContact);
    assert_eq!(battle.figure("roland").cover, None, "it entered the melee, it does not hold the cover");
    assert_eq!(battle.figure("goblin-1").cover.as_deref(), Some("farmhouse"));
}

#[test]
fn inclose_a_figure_must_withdraw_to_leave_and_stands_up_doing_so_per_seed_004_inclose_combat() {
    let setup = Setup::of(vec![
        grouped(roland("a"), "melee"),
        grouped(FigureSpec { physical: 9, ..goblin("goblin-1", "a") }, "melee"),
    ]);
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6, 6, 6]);
    battle.by(alice(), C::CloseIn { figure: "roland".into(), target: "goblin-1".into(), pay: None });
    assert_eq!(status_of(&battle, "roland"), Status::InClose);
    assert_refused(
        battle.attempt(alice(), move_to("roland", Destination::Alone)),
        "swift-swords.withdraw_first",
        "InClose Combat",
    );
    assert_refused(
        battle.attempt(alice(), C::StandUp { figure: "roland".into(), pay: None }),
        "swift-swords.withdraw_to_stand",
        "InClose Combat",
    );
    battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    assert_eq!(status_of(&battle, "roland"), Status::InContact);
    assert!(!battle.figure("roland").prone);
    assert!(battle.figure("goblin-1").prone, "the goblin is still on the ground");
}

fn wrestlers() -> Setup {
    let wrestler = FigureSpec {
        weapons: vec![
            weapon("Broadsword", 4, Weight::Medium),
            herald_domain::swift_swords::figure::WeaponSpec {
                grapple: true,
                natural: Natural::Human,
                ..weapon("Wrestling", 8, Weight::Light)
            },
        ],
        ..grouped(roland("a"), "melee")
    };
    Setup::of(vec![
        wrestler,
        grouped(FigureSpec { physical: 6, mental: 6, ..goblin("goblin-1", "a") }, "melee"),
        goblin("goblin-2", "d"),
    ])
}

/// Roland holds the goblin (a seed where the hold attack succeeds).
fn held() -> Battle {
    let (_, battle) = find_seed(500, |n| {
        let mut battle = Battle::begun(&wrestlers(), n);
        only(&mut battle, "roland", &[6, 6, 6, 6, 6]);
        battle.by(alice(), C::CloseIn { figure: "roland".into(), target: "goblin-1".into(), pay: Some(vec![6]) });
        battle.by(alice(), attack("roland", "Wrestling", "goblin-1"));
        battle.state.hold_on("goblin-1").is_some().then_some(battle)
    });
    battle
}

#[test]
fn a_successful_attack_with_a_grappling_skill_inflicts_a_light_hold_per_seed_004_inclose_combat() {
    let battle = held();
    let hold = battle.state.hold_on("goblin-1").expect("a hold");
    assert_eq!((hold.holder.as_str(), hold.level), ("roland", Weight::Light));
    let mut battle = Battle::begun(&wrestlers(), 0);
    only(&mut battle, "roland", &[6, 6]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Wrestling", "goblin-1")),
        "swift-swords.cannot_hold",
        "InClose Combat",
    );
}

#[test]
fn a_held_victim_may_only_break_reverse_or_yield_per_seed_004_inclose_combat() {
    let mut battle = held();
    only(&mut battle, "goblin-1", &[6, 6, 6]);
    assert_refused(battle.attempt(gm(), attack("goblin-1", "Spear", "roland")), "swift-swords.held", "InClose Combat");
    let events = battle.gm(C::BreakHold { figure: "goblin-1".into(), reverse: false, pay: None });
    let margin = events.iter().find_map(|event| match event {
        E::ContestRolled { roll, opponent_roll, .. } => Some(roll.successes.saturating_sub(opponent_roll.successes)),
        _ => None,
    });
    assert!(margin.is_some(), "BODY against BODY");
    assert_eq!(battle.state.hold_on("goblin-1").is_none(), margin > Some(0), "a Light hold breaks at one level down");
    let mut battle = held();
    only(&mut battle, "goblin-1", &[6]);
    battle.gm(C::Yield { figure: "goblin-1".into() });
    assert!(battle.figure("goblin-1").out_of_action);
}

#[test]
fn the_holder_inflicts_light_damage_or_improves_the_hold_one_class_per_seed_004_inclose_combat() {
    let (_, level) = find_seed(500, |n| {
        let mut battle = held();
        battle.seed = n;
        only(&mut battle, "roland", &[6, 6]);
        battle.by(alice(), C::Grapple { figure: "roland".into(), choice: GrappleChoice::Improve, pay: None });
        battle.state.hold_on("goblin-1").map(|hold| hold.level).filter(|level| *level != Weight::Light)
    });
    assert_eq!(level, Weight::Medium);
    let mut battle = held();
    only(&mut battle, "roland", &[6, 6]);
    let events = battle.by(alice(), C::Grapple { figure: "roland".into(), choice: GrappleChoice::Damage, pay: None });
    let rolled = events.iter().find_map(|event| match event {
        E::GrappleRolled { level, roll, damage, .. } => Some((*level, roll.successes, *damage)),
        _ => None,
    });
    let (level, successes, damage) = rolled.expect("a damage roll");
    assert_eq!(level, Weight::Light);
    assert_eq!(damage, successes.div_ceil(2), "a base hold does Light damage");
}

#[test]
fn subdual_sets_the_holds_damage_against_the_victims_body_and_size_per_seed_004_inclose_combat() {
    let mut battle = held();
    only(&mut battle, "roland", &[6, 6]);
    let events = battle.by(alice(), C::Grapple { figure: "roland".into(), choice: GrappleChoice::Subdue, pay: None });
    let (damage, resisted, won) = events
        .iter()
        .find_map(|event| match event {
            E::ContestRolled { damage: Some(damage), opponent_roll, won, .. } => {
                Some((*damage, opponent_roll.successes, *won))
            }
            _ => None,
        })
        .expect("a subdual");
    assert_eq!(won, damage > resisted);
    assert_eq!(battle.figure("goblin-1").out_of_action, won, "subdued: out of action");
}

#[test]
fn an_unsteady_figure_rolls_dex_to_move_or_falls_prone_per_seed_004_general_injury_table() {
    let (_, (fell, zone)) = find_seed(500, |n| {
        let mut battle = Battle::begun(&Setup::of(vec![roland("a"), goblin("goblin-1", "d")]), n);
        battle.inject(E::FigureMarked {
            figure: "roland".into(),
            armour_lost: 0,
            hamstrung: true,
            defence_limit: Default::default(),
            swooped: false,
            reason: "hamstrung".into(),
        });
        only(&mut battle, "roland", &[6, 6]);
        let events = battle.by(alice(), move_to("roland", Destination::Zone { zone: "b".into() }));
        let fell = events.iter().any(|event| matches!(event, E::ProneChanged { prone: true, .. }));
        fell.then(|| (battle.figure("roland").prone, battle.figure("roland").zone.clone()))
    });
    assert!(fell);
    assert_eq!(zone, "a", "it fell instead of moving");
}
