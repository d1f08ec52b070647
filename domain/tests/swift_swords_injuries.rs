//! The General Injury Table (seed 004): the location roll, the effect table and what each
//! effect does — bleeders each round until treated, action dice burnt, rank losses, roll
//! penalties, the rolls against unconsciousness and death, weapons dropped.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    battle::{command::SwiftSwordsCommand as C, event::SwiftSwordsEvent as E, pending::AttackOptions},
    figure::{FigureSpec, Weight},
    injury::{effect, locate, shift_toward, InjuryEffect, Location},
    options::LocationTable,
    ranks::RankSide,
};
use support::*;

fn trauma(figure: &str) -> C {
    C::Inflict {
        figure: figure.into(),
        damage: 4,
        ranks: RankSide::Physical,
        magic: false,
        massive: false,
        reason: "a great blow".into(),
    }
}

fn setup() -> Setup {
    let aria = FigureSpec { controller: Some("alice".into()), ..figure("aria", "heroes", "b") };
    Setup::of(vec![FigureSpec { physical: 3, mental: 6, ..roland("a") }, aria, goblin("goblin-1", "d")])
}

fn injury(events: &[E]) -> Option<(Location, InjuryEffect, u32)> {
    events.iter().find_map(|event| match event {
        E::InjuryRolled { location, effect, modifier, .. } => Some((location.location, *effect, *modifier)),
        _ => None,
    })
}

/// The first seed where a trauma on roland (holding `hand`) gives `wanted`, with the battle and
/// the trauma's events.
fn trauma_giving(wanted: InjuryEffect, hand: &[u8], also: impl Fn(Location) -> bool) -> (Battle, Vec<E>) {
    let (_, found) = find_seed(5_000, |n| {
        let mut battle = Battle::begun(&setup(), n);
        battle.hand("roland", hand);
        let events = battle.gm(trauma("roland"));
        let (location, effect, _) = injury(&events)?;
        (effect == wanted && also(location)).then_some((battle, events))
    });
    found
}

#[test]
fn the_effect_table_reads_by_location_with_seven_and_up_the_worst_per_seed_004_general_injury_table() {
    assert_eq!(effect(Location::Head, 1), (InjuryEffect::Stun, 0));
    assert_eq!(effect(Location::Head, 2), (InjuryEffect::Unconscious, 2), "Unconscious -2d");
    assert_eq!(effect(Location::Head, 7), (InjuryEffect::Kill, 0));
    assert_eq!(effect(Location::Neck, 2), (InjuryEffect::Bleeder, 2), "Bleeder -2d");
    assert_eq!(effect(Location::Neck, 5), (InjuryEffect::Paralysed, 0));
    assert_eq!(effect(Location::Chest, 6), (InjuryEffect::Puncture, 0));
    assert_eq!(effect(Location::LeftLeg, 5), (InjuryEffect::Foot, 0));
    assert_eq!(effect(Location::RightLeg, 7), (InjuryEffect::Sever, 0));
    assert_eq!(effect(Location::LeftArm, 4), (InjuryEffect::Hand, 0));
    assert_eq!(effect(Location::RightArm, 3), (InjuryEffect::Bleeder, 0));
    assert_eq!(effect(Location::Groin, 6), (InjuryEffect::Maim, 0));
    assert_eq!(effect(Location::Groin, 7), (InjuryEffect::Kill, 0));
}

#[test]
fn the_most_common_face_is_hit_and_a_draw_goes_to_the_highest_per_seed_004_general_injury_table() {
    let table = LocationTable::default();
    assert_eq!(locate(&[2, 2, 5, 6], &table).rolled, Location::RightLeg, "the pair of 2s");
    assert_eq!(locate(&[2, 2, 5, 5], &table).rolled, Location::Chest, "two pairs: the highest");
    assert_eq!(locate(&[1, 2, 3, 6], &table).rolled, Location::Head, "four singles: the 6");
    let mut quadruple = locate(&[3, 3, 3, 3], &table);
    assert_eq!(quadruple.shifts, 2, "a quadruple shifts two areas");
    shift_toward(&mut quadruple, Some(Location::Neck), true);
    assert_eq!(quadruple.location, Location::Neck, "left arm, chest, neck");
    let mut without = locate(&[3, 3, 3, 3], &table);
    shift_toward(&mut without, Some(Location::Head), false);
    assert_eq!(without.location, Location::Head, "without a neck the head joins the chest");
}

#[test]
fn the_attacker_shifts_a_triple_toward_its_aim_through_the_decider_per_seed_004_general_injury_table() {
    let strong = FigureSpec { weapons: vec![weapon("Maul", 9, Weight::Heavy)], ..roland("a") };
    let setup = Setup::of(vec![
        grouped(strong, "melee"),
        grouped(FigureSpec { physical: 3, ..goblin("goblin-1", "a") }, "melee"),
        goblin("goblin-2", "d"),
    ]);
    let options = AttackOptions { aim: Some(Location::Chest), ..AttackOptions::default() };
    let (_, (faces, rolled, location)) = find_seed(20_000, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.hand("roland", &[6, 6]);
        battle.hand("goblin-1", &[]);
        battle.hand("goblin-2", &[]);
        let events = battle.by(alice(), attack_with("roland", "Maul", &["goblin-1"], options.clone()));
        events.iter().find_map(|event| match event {
            E::InjuryRolled { location, .. } if location.count == 3 && location.face == 4 => {
                Some((location.faces.clone(), location.rolled, location.location))
            }
            _ => None,
        })
    });
    assert_eq!(faces.iter().filter(|face| **face == 4).count(), 3);
    assert_eq!((rolled, location), (Location::RightArm, Location::Chest));
}

#[test]
fn a_bleeder_calls_for_a_body_roll_each_round_until_treated_per_seed_004_general_injury_table() {
    let (mut battle, _) = trauma_giving(InjuryEffect::Bleeder, &[6, 6], |_| true);
    assert!(battle.figure("roland").injuries.iter().any(|injury| injury.bleeding));
    battle.hand("aria", &[]);
    battle.hand("goblin-1", &[]);
    let from = battle.events.len();
    battle.gm(C::CallRefresh { figure: None });
    for figure in ["roland", "aria", "goblin-1"] {
        let refresh = battle.state.phase == herald_domain::swift_swords::battle::state::Phase::Refresh;
        if refresh && battle.state.figure(figure).is_some_and(|found| !found.done && !found.hand.is_empty()) {
            battle.by(gm(), C::Pass { figure: figure.into() });
        }
    }
    let checks: Vec<bool> = battle
        .since(from)
        .iter()
        .filter_map(|event| match event {
            E::BleederChecked { roll, .. } => Some(roll.passed()),
            _ => None,
        })
        .collect();
    assert_eq!(checks.len(), 1, "one BODY roll at the start of the round");
    battle.gm(C::Heal {
        figure: "roland".into(),
        physical: 0,
        mental: 0,
        states: false,
        injuries: vec![],
        bleeders: true,
        reason: "first aid and rest".into(),
    });
    assert!(!battle.figure("roland").injuries.iter().any(|injury| injury.bleeding), "treated");
}

#[test]
fn a_second_bleeder_at_the_same_location_does_not_accumulate_per_seed_004_general_injury_table() {
    let (_, (repeated, bleeding)) = find_seed(20_000, |n| {
        let mut battle = Battle::begun(&setup(), n);
        let first = injury(&battle.gm(trauma("roland")))?;
        battle.gm(C::Heal {
            figure: "roland".into(),
            physical: 3,
            mental: 3,
            states: true,
            injuries: vec![],
            bleeders: false,
            reason: "magic".into(),
        });
        let events = battle.gm(trauma("roland"));
        let second = injury(&events)?;
        let same = first.1 == InjuryEffect::Bleeder && second.1 == InjuryEffect::Bleeder && first.0 == second.0;
        same.then(|| {
            let repeated = events.iter().any(|event| matches!(event, E::InjuryRolled { repeated_bleeder: true, .. }));
            (repeated, battle.figure("roland").injuries.iter().filter(|injury| injury.bleeding).count())
        })
    });
    assert!(repeated);
    assert_eq!(bleeding, 1);
}

#[test]
fn an_injury_that_burns_action_dice_turns_them_into_ones_at_once_and_every_round_per_seed_004_general_injury_table() {
    let (mut battle, _) = trauma_giving(InjuryEffect::Wind, &[6, 5, 4], |_| true);
    assert_eq!(battle.figure("roland").hand, vec![6, 1, 1], "burn 2: the lowest turned to 1s");
    assert_eq!(battle.figure("roland").mental.lost, 1, "Wind: a mental rank");
    battle.hand("aria", &[]);
    battle.hand("goblin-1", &[]);
    battle.hand("roland", &[]);
    let from = battle.events.len();
    battle.gm(C::CallRefresh { figure: None });
    let burnt = battle.since(from).iter().find_map(|event| match event {
        E::ActionDiceRolled { figure, burnt, hand, .. } if figure == "roland" => {
            Some((*burnt, hand.iter().filter(|face| **face == 1).count()))
        }
        _ => None,
    });
    let (burnt, ones) = burnt.expect("a new round");
    assert_eq!(burnt, 2);
    assert!(ones >= 2);
}

#[test]
fn a_flesh_wound_costs_an_extra_physical_rank_per_seed_004_general_injury_table() {
    let (battle, _) = trauma_giving(InjuryEffect::FleshWound, &[6], |_| true);
    let roland = battle.figure("roland");
    assert!(
        roland.states.contains(&herald_domain::swift_swords::battle::state::StateKind::Stun),
        "the hit itself: a Stun"
    );
    assert_eq!(roland.physical.lost, 1, "the flesh wound: a rank");
}

#[test]
fn a_disabled_hand_drops_what_it_holds_unless_strapped_per_seed_004_general_injury_table() {
    let (battle, _) = trauma_giving(InjuryEffect::Hand, &[6, 6], |_| true);
    assert!(battle.figure("roland").dropped.contains("Broadsword"));
}

#[test]
fn unconsciousness_on_the_head_is_resisted_with_will_at_minus_two_dice_per_seed_004_general_injury_table() {
    let (battle, events) = trauma_giving(InjuryEffect::Unconscious, &[6, 6], |location| location == Location::Head);
    let (dice, passed) = events
        .iter()
        .find_map(|event| match event {
            E::Resisted { roll, .. } => Some((roll.dice, roll.passed())),
            _ => None,
        })
        .expect("a Will roll");
    assert_eq!(dice, 2, "Will 4d at -2d");
    assert_eq!(battle.figure("roland").out_of_action, !passed);
}

#[test]
fn a_puncture_costs_a_rank_and_a_die_off_every_roll_per_seed_004_general_injury_table() {
    let (mut battle, _) = trauma_giving(InjuryEffect::Puncture, &[6, 6, 6], |_| true);
    assert_eq!(battle.figure("roland").physical.lost, 1);
    battle.hand("aria", &[]);
    battle.hand("goblin-1", &[]);
    battle.hand("roland", &[6, 6, 6]);
    let events = battle.by(
        alice(),
        C::SkillRoll {
            figure: "roland".into(),
            skill: "body".into(),
            cost: 2,
            purpose: "catch his breath".into(),
            casting: false,
            from_pool: false,
            effort: false,
            bump: false,
            pay: None,
        },
    );
    let dice = events.iter().find_map(|event| match event {
        E::SkillRolled { roll, .. } => Some(roll.dice),
        E::StateRolled { .. } => None,
        _ => None,
    });
    if let Some(dice) = dice {
        assert_eq!(dice, 3, "BODY 4d at -1d");
    }
}
