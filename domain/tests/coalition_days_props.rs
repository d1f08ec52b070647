//! Properties of the days rules over random turns (seed 003 §1.5, §2.3.1): the events always fold
//! into the state `count_turn` returns, healing never lowers a line nor raises it above full,
//! and a count never exceeds the turns it has run.

#[path = "coalition_days_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{RankClass, Team},
    days::{ArmyTurn, DaysEvent, Fight},
    map::Faction,
};
use proptest::prelude::*;
use support::*;

const SQUARES: [&str; 6] = [PORTAL, RED_BASE, GREEN_BASE, TOWN, OPEN, BLACK_BASE];

fn fight() -> impl Strategy<Value = Fight> {
    prop_oneof![
        4 => Just(Fight::NotAttacked),
        1 => Just(Fight::Undecided),
        1 => Just(Fight::Won),
        1 => Just(Fight::Lost),
    ]
}

fn turn() -> impl Strategy<Value = (usize, bool, Fight, u32, u32)> {
    (0..SQUARES.len(), prop::bool::weighted(0.3), fight(), 0u32..1500, 0u32..800)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn healing_stays_between_the_troops_left_and_full_strength_and_folds_exactly(
        phyrexian in any::<bool>(),
        turns in prop::collection::vec(turn(), 1..24),
    ) {
        let mut army = if phyrexian { phyrexian_example() } else { kris_mages_example() };
        let mut game = Campaign::on(map());
        let mut here = OPEN;
        let mut turns_here = 0u32;
        for (square, moved, fight, small, large) in turns {
            let target = SQUARES[square];
            let moved = moved || target != here;
            here = target;
            turns_here = if moved { 1 } else { turns_here + 1 };
            let losses = if matches!(fight, Fight::Won | Fight::Lost) { vec![small, large] } else { vec![] };
            let before = troops(&army);
            lose(&mut army, &losses);
            let taken: Vec<u32> = before.iter().zip(troops(&army)).map(|(was, now)| was - now).collect();
            let turn = ArmyTurn { ended_at: sq(here), moved, fight, losses: taken };
            let (events, _) = game.turn(&[(&army, turn)]);
            let wounded = troops(&army);
            apply_heals(&mut army, &events);
            for ((line, after), wounded) in army.troops.iter().zip(troops(&army)).zip(wounded) {
                prop_assert!(after >= wounded && after <= line.full, "{after} outside {wounded}..={}", line.full);
            }
            prop_assert!(game.days(&army.name) <= turns_here);
            let healed = events.iter().any(|event| matches!(event, DaysEvent::ArmyHealed { .. }));
            prop_assert!(!healed || matches!(here, PORTAL | RED_BASE | GREEN_BASE | TOWN));
            if fight == Fight::Lost {
                prop_assert_eq!(game.days(&army.name), 0);
            }
        }
    }

    #[test]
    fn a_siege_destroys_its_site_only_after_four_days_and_a_held_turn(
        turns in prop::collection::vec((prop::bool::weighted(0.2), fight()), 1..16),
    ) {
        let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[Faction::Red]);
        let mut game = Campaign::on(map());
        let mut previous_days = 0u32;
        for (moved, fight) in turns {
            let turn = ArmyTurn { ended_at: sq(RED_BASE), moved, fight, losses: vec![] };
            let (events, _) = game.turn(&[(&army, turn)]);
            let fell = events.iter().any(|event| matches!(event, DaysEvent::SiteDestroyed { .. }));
            if fell {
                prop_assert!(previous_days >= 4 && !moved && matches!(fight, Fight::NotAttacked | Fight::Won));
                break;
            }
            previous_days = game.siege_days("Crovax");
        }
    }
}
