//! Damage and its effects (seed 004 "State.", "Physical Damage", "Mental Damage", "CrossOver
//! Damage.", "OoA and KIA", "Level 9.", "Total Ranks: Real Ranks vs Bonus Ranks.", "Fear",
//! "Levels of Fear:", "Fatigue").

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    battle::{
        command::SwiftSwordsCommand as C,
        event::SwiftSwordsEvent as E,
        state::{Morale, StateKind},
    },
    figure::{FearLevel, FigureSpec},
    ranks::{mark, RankSide, RankTrack},
};
use support::*;

fn inflict(figure: &str, damage: u32, ranks: RankSide) -> C {
    C::Inflict { figure: figure.into(), damage, ranks, magic: false, massive: false, reason: "a falling rock".into() }
}

fn apart() -> Setup {
    Setup::of(vec![roland("a"), goblin("goblin-1", "d"), goblin("goblin-2", "d")])
}

#[test]
fn damage_may_be_taken_as_a_stun_unless_already_stunned_then_it_costs_a_rank_per_seed_004_state() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.gm(inflict("roland", 1, RankSide::Physical));
    assert!(battle.figure("roland").states.contains(&StateKind::Stun));
    assert_eq!(battle.figure("roland").physical.lost, 0);
    battle.gm(inflict("roland", 1, RankSide::Physical));
    assert_eq!(battle.figure("roland").physical.lost, 1, "already stunned: a rank loss");
}

#[test]
fn stateless_minor_npcs_always_take_a_rank_loss_per_seed_004_damage() {
    let setup = Setup::of(vec![roland("a"), FigureSpec { stateless: true, physical: 3, ..goblin("goblin-1", "d") }]);
    let mut battle = Battle::begun(&setup, 0);
    battle.gm(inflict("goblin-1", 1, RankSide::Physical));
    assert!(battle.figure("goblin-1").states.is_empty());
    assert_eq!(battle.figure("goblin-1").physical.lost, 1);
}

#[test]
fn a_state_loses_every_pool_and_must_be_shaken_off_before_acting_per_seed_004_state() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.inject(E::DefencePoolsChanged { figure: "roland".into(), dodge: 3, block: 2, reason: "test".into() });
    battle.gm(inflict("roland", 1, RankSide::Physical));
    assert_eq!((battle.figure("roland").dodge_pool, battle.figure("roland").block_pool), (0, 0));
    battle.hand("roland", &[6, 6]);
    for figure in ["goblin-1", "goblin-2"] {
        battle.hand(figure, &[]);
    }
    let events = battle.by(
        alice(),
        move_to("roland", herald_domain::swift_swords::battle::pending::Destination::Zone { zone: "b".into() }),
    );
    let passed = events.iter().find_map(|event| match event {
        E::StateRolled { state: StateKind::Stun, roll, .. } => Some(roll.passed()),
        _ => None,
    });
    assert!(passed.is_some(), "a BODY roll before acting");
    let lost = events.iter().any(|event| matches!(event, E::ActionLost { .. }));
    assert_eq!(lost, passed == Some(false), "a failed roll loses the action and its cost");
    assert_eq!(battle.figure("roland").zone == "b", passed == Some(true));
}

#[test]
fn expending_a_die_and_doing_nothing_removes_a_state_per_seed_004_state() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.gm(inflict("roland", 1, RankSide::Physical));
    battle.hand("roland", &[2, 6]);
    for figure in ["goblin-1", "goblin-2"] {
        battle.hand(figure, &[]);
    }
    battle.by(alice(), C::Recover { figure: "roland".into(), pay: None });
    assert!(battle.figure("roland").states.is_empty());
    assert_eq!(battle.figure("roland").hand, vec![6], "the lowest die expended");
}

#[test]
fn trauma_loses_the_pools_and_calls_for_an_injury_roll_per_seed_004_physical_damage() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.inject(E::DefencePoolsChanged { figure: "roland".into(), dodge: 3, block: 0, reason: "test".into() });
    let events = battle.gm(inflict("roland", 4, RankSide::Physical));
    assert_eq!(battle.figure("roland").dodge_pool, 0);
    let injury = events.iter().find_map(|event| match event {
        E::InjuryRolled { modifier, location_draws, .. } => Some((*modifier, location_draws.len())),
        _ => None,
    });
    assert_eq!(injury, Some((0, 4)), "4d6 for the location, no +1 below a killing blow");
}

#[test]
fn a_killing_blow_puts_the_figure_out_of_action_and_adds_one_to_the_effect_roll_per_seed_004_physical_damage() {
    let mut battle = Battle::begun(&apart(), 0);
    let events = battle.gm(inflict("roland", 7, RankSide::Physical));
    assert!(battle.figure("roland").out_of_action);
    assert!(events.iter().any(|event| matches!(event, E::InjuryRolled { modifier: 1, .. })));
}

#[test]
fn massive_damage_is_a_killing_blow_and_a_body_roll_against_death_per_seed_004_physical_damage() {
    let mut battle = Battle::begun(&apart(), 0);
    let massive = C::Inflict {
        figure: "roland".into(),
        damage: 1,
        ranks: RankSide::Physical,
        magic: false,
        massive: true,
        reason: "a giant's club".into(),
    };
    let events = battle.gm(massive);
    assert!(battle.figure("roland").out_of_action);
    let death = events.iter().find_map(|event| match event {
        E::DeathRolled { roll, .. } => Some(roll.passed()),
        _ => None,
    });
    assert_eq!(battle.figure("roland").killed, death == Some(false));
}

#[test]
fn an_out_of_action_figure_hit_again_rolls_body_or_is_killed_in_action_per_seed_004_ooa_and_kia() {
    let aria = FigureSpec { controller: Some("alice".into()), ..figure("aria", "heroes", "b") };
    let setup = Setup::of(vec![roland("a"), aria, goblin("goblin-1", "d")]);
    let (_, killed) = find_seed(200, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.gm(inflict("roland", 7, RankSide::Physical));
        let events = battle.gm(inflict("roland", 1, RankSide::Physical));
        let roll = events.iter().find_map(|event| match event {
            E::DeathRolled { roll, .. } => Some(roll.clone()),
            _ => None,
        })?;
        (!roll.passed()).then(|| battle.figure("roland").killed)
    });
    assert!(killed, "no success on the BODY roll: killed in action");
}

#[test]
fn every_second_rank_loss_crosses_over_and_crossover_never_chains_per_seed_004_crossover_damage() {
    let physical = RankTrack { rank: 6, ..RankTrack::default() };
    let mental = RankTrack { rank: 6, ..RankTrack::default() };
    let marked = mark(&physical, &mental, 4, 2, false);
    assert_eq!((marked.lost, marked.crossover), (4, 2));
    assert_eq!(mark(&physical, &mental, 3, 3, false).crossover, 1, "every 3rd with the advantage");
    let setup =
        Setup::of(vec![FigureSpec { stateless: true, physical: 6, mental: 6, ..roland("a") }, goblin("goblin-1", "d")]);
    let mut battle = Battle::begun(&setup, 0);
    for _ in 0..2 {
        battle.gm(inflict("roland", 1, RankSide::Physical));
    }
    let roland = battle.figure("roland");
    assert_eq!(
        (roland.physical.lost, roland.mental.crossover, roland.mental.lost, roland.physical.crossover),
        (2, 1, 0, 0)
    );
    for _ in 0..2 {
        battle.gm(inflict("roland", 1, RankSide::Mental));
    }
    let roland = battle.figure("roland");
    assert_eq!(roland.physical.crossover, 1, "two mental losses cross back once; the crossover loss itself did not");
}

#[test]
fn a_normal_creature_is_out_of_action_at_zero_ranks_and_a_heroic_one_at_minus_three_per_seed_004_ooa_and_kia() {
    let setup = Setup::of(vec![
        FigureSpec { stateless: true, physical: 2, mental: 9, ..roland("a") },
        FigureSpec { stateless: true, physical: 2, mental: 9, heroic: false, ..goblin("goblin-1", "d") },
        goblin("goblin-2", "d"),
    ]);
    let mut battle = Battle::begun(&setup, 0);
    for _ in 0..2 {
        battle.gm(inflict("goblin-1", 1, RankSide::Physical));
        battle.gm(inflict("roland", 1, RankSide::Physical));
    }
    assert!(battle.figure("goblin-1").out_of_action, "0 ranks");
    assert!(!battle.figure("roland").out_of_action, "the heroic go on below 0");
    for _ in 0..3 {
        battle.gm(inflict("roland", 1, RankSide::Physical));
    }
    assert_eq!(battle.figure("roland").physical.remaining(), -3);
    assert!(battle.figure("roland").out_of_action);
}

#[test]
fn level_nine_is_not_knocked_off_without_a_bane_per_seed_004_level_9() {
    let dragon = FigureSpec { physical: 9, stateless: true, ..goblin("dragon", "d") };
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), dragon]), 0);
    battle.gm(inflict("dragon", 5, RankSide::Physical));
    assert_eq!(battle.figure("dragon").physical.remaining(), 9);
}

#[test]
fn bonus_ranks_raise_thresholds_but_absorb_no_damage_per_seed_004_total_ranks() {
    let walled = FigureSpec { physical: 2, bonus_physical: 3, stateless: true, ..goblin("goblin-1", "d") };
    let frail = FigureSpec { physical: 1, bonus_physical: 3, stateless: true, ..goblin("goblin-2", "d") };
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), walled, frail, goblin("goblin-3", "d")]), 0);
    let events = battle.gm(inflict("goblin-1", 5, RankSide::Physical));
    assert!(!events.iter().any(|event| matches!(event, E::InjuryRolled { .. })), "5 is not more than 2 + 3: no trauma");
    assert_eq!(battle.figure("goblin-1").physical.remaining(), 1);
    battle.gm(inflict("goblin-2", 1, RankSide::Physical));
    assert!(battle.figure("goblin-2").out_of_action, "its one real rank is gone: bonus ranks absorb nothing");
}

#[test]
fn more_mental_damage_than_the_rank_panics_and_more_than_twice_crushes_per_seed_004_mental_damage() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.gm(inflict("roland", 4, RankSide::Mental));
    assert_eq!(battle.figure("roland").morale, Morale::Panicked { fled: false });
    battle.hand("roland", &[6, 6, 6]);
    for figure in ["goblin-1", "goblin-2"] {
        battle.hand(figure, &[]);
    }
    assert_refused(
        battle.attempt(alice(), C::Rally { figure: "roland".into(), pay: None }),
        "swift-swords.panicked",
        "Mental Damage",
    );
    let mut battle = Battle::begun(&apart(), 0);
    battle.gm(inflict("roland", 7, RankSide::Mental));
    assert_eq!(battle.figure("roland").morale, Morale::Crushed { waited: false });
    battle.hand("roland", &[6, 6, 6]);
    for figure in ["goblin-1", "goblin-2"] {
        battle.hand(figure, &[]);
    }
    assert_refused(
        battle.attempt(
            alice(),
            move_to("roland", herald_domain::swift_swords::battle::pending::Destination::Zone { zone: "b".into() }),
        ),
        "swift-swords.crushed",
        "Mental Damage",
    );
    let events = battle.by(alice(), C::Rally { figure: "roland".into(), pay: None });
    assert!(
        events.iter().any(|event| matches!(
            event,
            E::MoraleChanged { roll: None, morale: Morale::Crushed { waited: true }, .. }
        )),
        "no roll on the first action"
    );
    let events = battle.by(alice(), C::Rally { figure: "roland".into(), pay: None });
    assert!(
        events.iter().any(|event| matches!(event, E::MoraleChanged { roll: Some(_), .. })),
        "a Spirit roll after it"
    );
}

#[test]
fn a_panicked_figure_must_flee_with_its_first_action_per_seed_004_mental_damage() {
    let mut battle =
        Battle::begun(&Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")]), 0);
    battle.gm(inflict("roland", 4, RankSide::Mental));
    battle.hand("roland", &[6, 6, 6]);
    battle.hand("goblin-1", &[]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.panicked",
        "Mental Damage",
    );
    battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    assert_eq!(battle.figure("roland").morale, Morale::Panicked { fled: true });
}

fn troll(level: FearLevel, zone: &str) -> FigureSpec {
    FigureSpec { fear: Some(level), physical: 6, ..goblin("troll", zone) }
}

fn fear_checks(events: &[E]) -> Vec<(FearLevel, u32, bool)> {
    events
        .iter()
        .filter_map(|event| match event {
            E::FearChecked { level, roll, .. } => Some((*level, roll.dice, roll.passed())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_fearsome_creature_costs_a_mental_rank_on_a_failed_spirit_roll_and_a_pass_ends_the_rolls_per_seed_004_levels_of_fear(
) {
    let setup = Setup::of(vec![roland("a"), troll(FearLevel::Fearsome, "a")]);
    let (_, (first, second, lost)) = find_seed(500, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.hand("roland", &[6, 6, 6, 6]);
        battle.hand("troll", &[]);
        let first = fear_checks(&battle.by(alice(), skill("roland")));
        let second = fear_checks(&battle.by(alice(), skill("roland")));
        (first.len() == 1 && !first[0].2).then(|| (first, second, battle.figure("roland").mental.lost))
    });
    assert_eq!(first[0].0, FearLevel::Fearsome);
    assert_eq!(first[0].1, 4, "Spirit 4d");
    assert_eq!(lost, 1 + u32::from(second.iter().any(|check| !check.2)));
    let (_, after) = find_seed(500, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.hand("roland", &[6, 6, 6, 6]);
        battle.hand("troll", &[]);
        let first = fear_checks(&battle.by(alice(), skill("roland")));
        (first.len() == 1 && first[0].2).then(|| fear_checks(&battle.by(alice(), skill("roland"))))
    });
    assert!(after.is_empty(), "once passed, no further rolls");
}

fn skill(figure: &str) -> C {
    C::SkillRoll {
        figure: figure.into(),
        skill: "will".into(),
        cost: 2,
        purpose: "steady the breath".into(),
        casting: false,
        from_pool: false,
        effort: false,
        bump: false,
        pay: None,
    }
}

#[test]
fn a_scary_creature_costs_the_action_on_a_failed_roll_per_seed_004_levels_of_fear() {
    let setup = Setup::of(vec![roland("a"), troll(FearLevel::Scary, "a")]);
    let (_, events) = find_seed(500, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.hand("roland", &[6, 6, 6]);
        battle.hand("troll", &[]);
        let events = battle.by(alice(), skill("roland"));
        fear_checks(&events).first().is_some_and(|check| !check.2).then_some(events)
    });
    assert!(events.iter().any(|event| matches!(event, E::ActionLost { .. })));
    assert!(!events.iter().any(|event| matches!(event, E::SkillRolled { .. })), "it does nothing this action");
}

#[test]
fn dread_rolls_at_minus_one_die_and_terror_reaches_the_adjacent_zones_per_seed_004_levels_of_fear() {
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), troll(FearLevel::Dread, "a")]), 0);
    battle.hand("roland", &[6, 6, 6]);
    battle.hand("troll", &[]);
    let checks = fear_checks(&battle.by(alice(), skill("roland")));
    assert_eq!(checks[0].1, 3, "Spirit 4d at -1d");
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), troll(FearLevel::Dread, "b")]), 0);
    battle.hand("roland", &[6, 6, 6]);
    battle.hand("troll", &[]);
    assert!(fear_checks(&battle.by(alice(), skill("roland"))).is_empty(), "dread keeps to its zone");
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), troll(FearLevel::Terror, "b")]), 0);
    battle.hand("roland", &[6, 6, 6]);
    battle.hand("troll", &[]);
    assert_eq!(fear_checks(&battle.by(alice(), skill("roland"))).first().map(|check| check.0), Some(FearLevel::Terror));
    let fearless = FigureSpec { fearless: true, ..roland("a") };
    let mut battle = Battle::begun(&Setup::of(vec![fearless, troll(FearLevel::Terror, "a")]), 0);
    battle.hand("roland", &[6, 6, 6]);
    battle.hand("troll", &[]);
    assert!(fear_checks(&battle.by(alice(), skill("roland"))).is_empty());
}

#[test]
fn fell_fear_is_rolled_again_and_again_until_passed_or_broken_per_seed_004_levels_of_fear() {
    let setup = Setup::of(vec![FigureSpec { mental: 6, ..roland("a") }, troll(FearLevel::Fell, "b")]);
    let (_, checks) = find_seed(500, |n| {
        let mut battle = Battle::begun(&setup, n);
        battle.hand("roland", &[6, 6, 6]);
        battle.hand("troll", &[]);
        let checks = fear_checks(&battle.by(alice(), skill("roland")));
        (checks.len() >= 2).then_some(checks)
    });
    assert!(checks[..checks.len() - 1].iter().all(|check| !check.2), "rolled again after each failure");
}

#[test]
fn fatigue_costs_a_rank_unless_a_body_roll_avoids_it_per_seed_004_fatigue() {
    let mut battle = Battle::begun(&apart(), 0);
    battle.gm(C::Fatigue {
        figure: "roland".into(),
        ranks: RankSide::Physical,
        roll: false,
        reason: "a forced march".into(),
    });
    assert_eq!(battle.figure("roland").physical.lost, 1);
    let events = battle.gm(C::Fatigue {
        figure: "roland".into(),
        ranks: RankSide::Mental,
        roll: true,
        reason: "a long night".into(),
    });
    let passed = events.iter().find_map(|event| match event {
        E::FatigueRolled { roll, .. } => Some(roll.passed()),
        _ => None,
    });
    assert_eq!(battle.figure("roland").mental.lost, u32::from(passed == Some(false)));
}

#[test]
fn the_battle_ends_when_one_side_alone_has_figures_in_action_per_seed_004_ooa_and_kia() {
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), goblin("goblin-1", "d")]), 0);
    battle.gm(inflict("goblin-1", 5, RankSide::Physical));
    assert!(battle.state.ended());
    assert_eq!(battle.state.winner.as_deref(), Some("heroes"));
}
