//! Action dice, the countdown, paying for actions, 1s, holding, the refresh and carrying a die
//! over (seed 004 "Initiative, ActionDice(AD) & Actions", "The Countdown", "Actions & Refresh",
//! "Action Costs.", "Held Actions", "AD = 1 (1-AD)").

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    action_dice::{self, dice_to_roll},
    battle::{
        command::{OneUse, SwiftSwordsCommand as C},
        event::SwiftSwordsEvent as E,
        pending::AttackOptions,
        state::{Phase, StateKind},
    },
    countdown,
    figure::{ActionDiceSpec, FigureSpec},
};
use support::*;

/// What an `ActionDiceRolled` records: dice, extra, draws, hand, set values, minimum, carried.
type Rolled = (u32, u32, usize, Vec<u8>, bool, bool, bool);

fn rolled(events: &[E], figure: &str) -> Option<Rolled> {
    events.iter().rev().find_map(|event| match event {
        E::ActionDiceRolled { figure: who, dice, extra, draws, hand, set_values, minimum, carried, .. }
            if who == figure =>
        {
            Some((*dice, *extra, draws.len(), hand.clone(), *set_values, *minimum, *carried))
        }
        _ => None,
    })
}

/// Roland and one goblin face to face in zone a.
fn duel() -> Setup {
    Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")])
}

#[test]
fn a_hero_rolls_four_dice_and_each_six_adds_one_extra_die_that_earns_no_more_per_seed_004_initiative() {
    let (n, battle) = find_seed(5_000, |n| {
        let battle = Battle::begun(&duel(), n);
        let (_, extra, draws, hand, ..) = rolled(&battle.events, "roland")?;
        // An extra die that itself shows a 6 earns nothing more.
        let _ = draws;
        (extra >= 1 && hand[4..].contains(&6)).then_some(battle)
    });
    let (dice, extra, draws, hand, set_values, ..) = rolled(&battle.events, "roland").expect("roland rolled");
    assert_eq!(dice, 4, "seed {n}");
    assert_eq!(extra, u32::try_from(hand[..4].iter().filter(|face| **face == 6).count()).unwrap_or(0));
    assert_eq!(draws, 4 + extra as usize);
    assert_eq!(hand.len(), draws, "every die drawn is in hand");
    assert!(!set_values);
}

#[test]
fn a_minor_npc_is_given_its_set_values_without_rolling_per_seed_004_initiative() {
    let battle = Battle::begun(&duel(), 3);
    let (dice, extra, draws, hand, set_values, ..) = rolled(&battle.events, "goblin-1").expect("the goblin's dice");
    assert_eq!((dice, extra, draws, set_values), (0, 0, 0, true));
    assert_eq!(hand, vec![5, 4, 3]);
}

#[test]
fn fewer_than_one_die_still_gives_one_die_set_at_three_per_seed_004_initiative() {
    assert_eq!(dice_to_roll(1, -2, false), None);
    assert_eq!(dice_to_roll(2, -1, false), Some(1));
    let weak = FigureSpec { action_dice: ActionDiceSpec::Roll { dice: 1 }, ..figure("peasant", "heroes", "a") };
    let mut battle = Battle::seeded(&Setup::of(vec![weak, goblin("goblin-1", "b")]), 1);
    battle.gm(C::SetActionDice { figure: "peasant".into(), modifier: -2, reason: "terrified".into() });
    battle.gm(begin());
    let (_, _, draws, hand, _, minimum, _) = rolled(&battle.events, "peasant").expect("its dice");
    assert_eq!((draws, hand, minimum), (0, vec![3], true));
}

#[test]
fn no_figure_rolls_more_than_six_dice_before_its_extra_dice_per_seed_004_initiative() {
    assert_eq!(dice_to_roll(6, 2, true), Some(6));
    let strong = FigureSpec { action_dice: ActionDiceSpec::Roll { dice: 6 }, ..roland("a") };
    let mut battle = Battle::seeded(&Setup::of(vec![strong, goblin("goblin-1", "b")]), 2);
    battle.gm(C::SetActionDice { figure: "roland".into(), modifier: 2, reason: "a blessing".into() });
    battle.gm(begin());
    let (dice, extra, draws, ..) = rolled(&battle.events, "roland").expect("its dice");
    assert_eq!(dice, 6);
    assert_eq!(draws, 6 + extra as usize);
}

#[test]
fn the_most_dice_act_first_and_a_player_before_an_npc_with_as_many_per_seed_004_the_countdown() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[4, 4, 4]);
    battle.hand("goblin-1", &[4, 4, 4]);
    assert_eq!(countdown::next_to_act(&battle.state), vec!["roland".to_string()], "tied: the player first");
    assert_refused(
        battle.attempt(gm(), attack("goblin-1", "Spear", "roland")),
        "swift-swords.not_in_turn",
        "The Countdown",
    );
    battle.hand("goblin-1", &[2, 2, 2, 2]);
    assert_eq!(countdown::next_to_act(&battle.state), vec!["goblin-1".to_string()], "actual dice, not scores");
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.not_in_turn",
        "The Countdown",
    );
}

#[test]
fn dice_other_than_ones_combine_to_meet_a_cost_and_waste_is_allowed_per_seed_004_action_costs() {
    assert_eq!(action_dice::check(&[2, 3, 6], &[2, 3], 4), Ok(()));
    assert_eq!(action_dice::choose(&[2, 3, 6], 4), Ok(vec![6]), "the fewest dice");
    assert_eq!(action_dice::choose(&[2, 3, 5, 6], 4), Ok(vec![5]), "then the fewest pips");
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[2, 3, 6]);
    battle.hand("goblin-1", &[]);
    let events = battle.by(
        alice(),
        C::Attack {
            figure: "roland".into(),
            weapon: "Broadsword".into(),
            targets: vec!["goblin-1".into()],
            charge: false,
            tactic: Default::default(),
            options: AttackOptions::default(),
            pay: Some(vec![2, 3]),
        },
    );
    assert!(events.iter().any(|event| matches!(event, E::ActionBegun { paid, .. } if *paid == vec![2, 3])));
    assert_eq!(battle.figure("roland").hand, vec![6]);
}

#[test]
fn ones_cannot_pay_and_unneeded_dice_are_refused_per_seed_004_actions_and_refresh() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[1, 3, 6, 5]);
    let pay = |dice: Vec<u8>| C::Attack {
        figure: "roland".into(),
        weapon: "Broadsword".into(),
        targets: vec!["goblin-1".into()],
        charge: false,
        tactic: Default::default(),
        options: AttackOptions::default(),
        pay: Some(dice),
    };
    assert_refused(battle.attempt(alice(), pay(vec![1, 3])), "swift-swords.ones_cannot_pay", "Actions & Refresh");
    assert_refused(battle.attempt(alice(), pay(vec![6, 5])), "swift-swords.die_not_needed", "Action Costs.");
    assert_refused(battle.attempt(alice(), pay(vec![3])), "swift-swords.cost_not_met", "Action Costs.");
    assert_refused(battle.attempt(alice(), pay(vec![4])), "swift-swords.die_not_in_hand", "Initiative");
    battle.hand("roland", &[1, 1, 3]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.cannot_afford",
        "Actions & Refresh",
    );
}

#[test]
fn spending_the_last_die_calls_the_refresh_and_everyone_else_gets_one_last_option_per_seed_004_actions_and_refresh() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[6, 1]);
    battle.hand("goblin-1", &[5, 4, 3]);
    battle.hand("goblin-1", &[5]);
    battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    if !battle.figure("goblin-1").active() {
        return;
    }
    assert_eq!(battle.state.phase, Phase::Refresh);
    assert_eq!(battle.state.refresh_called_by.as_deref(), Some("roland"));
    assert!(battle.figure("roland").done && battle.figure("roland").hand.is_empty(), "its 1 goes with it");
    // The goblin's one more option: it acts once, and its remaining dice are removed.
    battle.hand("goblin-1", &[5, 4]);
    let acted = battle.attempt(gm(), attack("goblin-1", "Spear", "roland"));
    assert!(acted.is_ok(), "{acted:?}");
    if let Some(herald_domain::swift_swords::battle::pending::Pending::Attack(_)) = battle.state.pending.last() {
        battle.by(alice(), no_defence("roland"));
    }
    if battle.state.ended() {
        return;
    }
    assert_eq!(battle.state.round, 2, "everyone has had their last option: new dice for all");
    assert_eq!(battle.state.phase, Phase::Countdown);
}

#[test]
fn a_die_carried_over_is_added_to_the_next_roll_per_seed_004_actions_and_refresh() {
    let aria = FigureSpec { controller: Some("alice".into()), ..figure("aria", "heroes", "b") };
    let mut battle = Battle::begun(
        &Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee"), aria]),
        4,
    );
    battle.hand("goblin-1", &[]);
    battle.hand("aria", &[2, 2]);
    battle.hand("roland", &[4, 4, 4]);
    battle.by(alice(), C::CallRefresh { figure: Some("roland".into()) });
    assert_eq!(battle.state.phase, Phase::Refresh);
    assert_refused(
        battle.attempt(alice(), C::Hold { figure: "aria".into() }),
        "swift-swords.not_countdown",
        "Actions & Refresh",
    );
    let from = battle.events.len();
    battle.by(alice(), C::CarryOver { figure: "aria".into() });
    let (dice, .., carried) = rolled(battle.since(from), "aria").expect("a new round");
    assert!(carried);
    assert_eq!(dice, 5, "four dice and the carried one");
}

#[test]
fn a_held_action_steps_out_of_the_countdown_and_may_be_taken_later_per_seed_004_held_actions() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[4, 4, 4]);
    battle.hand("goblin-1", &[5, 5]);
    battle.by(alice(), C::Hold { figure: "roland".into() });
    assert_eq!(countdown::next_to_act(&battle.state), vec!["goblin-1".to_string()]);
    assert!(countdown::may_act(&battle.state, "roland"), "a held action can be taken at any moment");
    battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    assert!(!battle.figure("roland").holding, "acting ends the hold");
}

#[test]
fn effort_spends_a_one_for_one_more_attack_die_per_seed_004_ad_equals_one() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[1, 4, 4]);
    battle.hand("goblin-1", &[]);
    let options = AttackOptions { effort: true, ..AttackOptions::default() };
    let events = battle.by(alice(), attack_with("roland", "Broadsword", &["goblin-1"], options));
    let record = attacks(&events)[0];
    assert_eq!((record.dice.weapon, record.dice.effort), (4, 1), "4d would become 5d");
    assert!(events.iter().any(|event| matches!(event, E::OneSpent { figure, .. } if figure == "roland")));
    assert_eq!(battle.figure("roland").hand, vec![4]);
}

#[test]
fn only_one_one_may_be_used_on_a_roll_per_seed_004_ad_equals_one() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[1, 1, 4]);
    let options = AttackOptions { effort: true, bump: true, ..AttackOptions::default() };
    assert_refused(
        battle.attempt(alice(), attack_with("roland", "Broadsword", &["goblin-1"], options)),
        "swift-swords.one_at_a_time",
        "AD = 1 (1-AD)",
    );
}

#[test]
fn a_one_buys_an_extra_roll_to_remove_a_stun_between_actions_per_seed_004_state() {
    let mut battle = Battle::begun(&duel(), 5);
    battle.inject(E::StateTaken { figure: "roland".into(), state: StateKind::Stun, cause: "test".into() });
    battle.hand("roland", &[1, 4]);
    let events = battle.by(alice(), C::UseOne { figure: "roland".into(), on: OneUse::RemoveState });
    let passed = events.iter().find_map(|event| match event {
        E::StateRolled { roll, .. } => Some(roll.passed()),
        _ => None,
    });
    assert!(passed.is_some(), "a BODY roll was made");
    assert_eq!(battle.figure("roland").states.contains(&StateKind::Stun), passed == Some(false));
    assert_eq!(battle.figure("roland").hand, vec![4], "the 1 was spent");
}

#[test]
fn when_nobody_can_act_the_refresh_is_called_for_them_per_seed_004_actions_and_refresh() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("goblin-1", &[1, 1]);
    battle.hand("roland", &[4]);
    battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    // roland spent its last die: it called the refresh; the goblin's 1s may still be carried.
    assert_eq!(battle.state.phase, Phase::Refresh);
    battle.gm(C::Pass { figure: "goblin-1".into() });
    assert_eq!(battle.state.round, 2);
}

#[test]
fn every_set_up_refusal_names_its_code_and_rule() {
    // Issue 26: a test triggers each code. Each case breaks one thing an encounter needs.
    use herald_domain::swift_swords::zones::{BorderCover, CoverLevel};
    let base = || Setup::of(vec![roland("a"), goblin("goblin-1", "b")]);
    let mut cases: Vec<(&str, Setup, &str, &str)> = Vec::new();
    let mut s = base();
    s.map.zones.clear();
    cases.push(("no zone", s, "swift-swords.zone_count", "Zone Combat"));
    let mut s = base();
    s.map.zones[1].id = "a".into();
    cases.push(("two zones a", s, "swift-swords.duplicate_zone", "swift-swords"));
    let mut s = base();
    s.map.zones[1].column = 0;
    cases.push(("two zones on one square", s, "swift-swords.zone_square_taken", "Zone Combat"));
    let mut s = base();
    s.map.zones[0].id = " ".into();
    cases.push(("a blank zone id", s, "swift-swords.bad_name", "swift-swords"));
    let mut s = base();
    s.map.borders.push(BorderCover {
        a: "a".into(),
        b: "d".into(),
        cover: CoverLevel::SoftLight,
        name: "hedge".into(),
    });
    cases.push(("cover between zones apart", s, "swift-swords.border_not_adjacent", "Cover"));
    let mut s = base();
    s.sides[1].name = "heroes".into();
    cases.push(("two sides of heroes", s, "swift-swords.duplicate_side", "swift-swords"));
    let mut s = base();
    s.figures.clear();
    cases.push(("nobody", s, "swift-swords.figure_count", "swift-swords"));
    let mut s = base();
    s.figures[1].id = "roland".into();
    cases.push(("two Rolands", s, "swift-swords.duplicate_figure", "swift-swords"));
    let mut s = base();
    s.figures[1].side = "trolls".into();
    cases.push(("a figure of no side", s, "swift-swords.unknown_side", "swift-swords"));
    let mut s = base();
    s.options.superiority = 1;
    cases.push(("a superiority of 1", s, "swift-swords.bad_options", "swift-swords"));
    for (what, setup, code, rule) in cases {
        let mut battle = Battle::empty(0);
        let error = battle.attempt(gm(), setup.command(0)).expect_err(what);
        assert_eq!(error.code, code, "{what}: {}", error.message);
        assert!(error.rule.contains(rule), "{what}: {} should cite {rule}", error.rule);
    }
    let mut battle = Battle::new(&base());
    assert_refused(battle.attempt(gm(), base().command(0)), "swift-swords.already_exists", "swift-swords");
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.not_begun",
        "swift-swords",
    );
    battle.by(gm(), begin());
    assert_refused(battle.attempt(gm(), begin()), "swift-swords.already_begun", "Sequence of Play");
}

#[test]
fn every_refusal_of_the_gms_commands_names_its_code_and_rule() {
    // Issue 26: a test triggers each code. Each command breaks one thing; none changes anything.
    use herald_domain::swift_swords::{figure::FearLevel, injury::Location, ranks::RankSide};
    let fearless_goblin = FigureSpec { fearless: true, ..goblin("goblin-1", "b") };
    let setup = Setup::of(vec![roland("a"), fearless_goblin]);
    let mut battle = Battle::new(&setup);
    let inflict = |figure: &str, damage: u32, reason: &str| C::Inflict {
        figure: figure.into(),
        damage,
        ranks: RankSide::Physical,
        magic: false,
        massive: false,
        reason: reason.into(),
    };
    assert_refused(
        battle.attempt(gm(), C::Begin { surprised: vec![], surprise_dice: 7 }),
        "swift-swords.surprise_dice",
        "Surprise",
    );
    battle.by(gm(), begin());
    let before = battle.state.clone();
    let cases: Vec<(C, &str, &str)> = vec![
        (inflict("roland", 3, ""), "swift-swords.reason", "swift-swords"),
        (inflict("roland", 0, "a fall"), "swift-swords.damage", "Damage"),
        (inflict("nobody", 3, "a fall"), "swift-swords.unknown_figure", "swift-swords"),
        (
            C::SetBonusRanks { figure: "roland".into(), physical: 10, mental: 0, reason: "a wall".into() },
            "swift-swords.bonus_ranks",
            "Total Ranks",
        ),
        (
            C::SetActionDice { figure: "roland".into(), modifier: 7, reason: "a blessing".into() },
            "swift-swords.action_dice_modifier",
            "Initiative",
        ),
        (
            C::FearAttack { figure: "goblin-1".into(), level: FearLevel::Scary, reason: "a roar".into() },
            "swift-swords.fearless",
            "Fear",
        ),
        (C::FirstAid { figure: "roland".into() }, "swift-swords.first_aid", "Fast Healing"),
        (
            C::Heal {
                figure: "roland".into(),
                physical: 0,
                mental: 0,
                states: false,
                injuries: vec![Location::Head],
                bleeders: false,
                reason: "rest".into(),
            },
            "swift-swords.no_injury",
            "General Injury Table",
        ),
        (
            C::HealWeek {
                figure: "roland".into(),
                good_food_and_water: true,
                no_travel: true,
                healer: Some("goblin-1".into()),
            },
            "swift-swords.not_a_healer",
            "Slow Healing",
        ),
        (no_defence("roland"), "swift-swords.no_attack_to_defend", "Defences."),
    ];
    for (command, code, rule) in cases {
        let actor = if matches!(command, C::Defend { .. }) { alice() } else { gm() };
        assert_refused(battle.attempt(actor, command), code, rule);
        assert_eq!(battle.state, before, "{code} changed nothing");
    }
}
