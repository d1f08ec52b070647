//! The battle's pure rules with given numbers: the color bonus with the seed's own examples
//! (seed 003 §4.2.3), the size formula (§4.2.2), pair comparison and tie rules (§4.2.4), and the
//! casualty formula (§4.2.5–4.2.6).

#[path = "coalition_battle_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{ArmySpec, Color, RankClass, Slot, Team},
        battle::{
            bonus::{color_bonus, size_bonus},
            casualties::{battle_casualties, battle_rates, casualty_rate, pairs_lost, PairsLost},
            command::Engagement,
            event::{ModifiedDie, PairWinner},
            roll::{break_tie, compare_pairs, count_pairs_won, decide_winner, pair_winner, roll_off},
            BattleCommand, BattleOptions, CasualtyFormula, SideId, Sides, SizeFormula, SizeWeighting, TieRule,
        },
    },
    dice::{DiceTape, Draw},
};
use support::*;

fn army_of(slots: &[(u32, &[Color])]) -> ArmySpec {
    ArmySpec {
        name: "Test".into(),
        team: Team::Coalition,
        rank: RankClass::ChiefPraetorGeneral,
        controller: "p".into(),
        slots: slots
            .iter()
            .enumerate()
            .map(|(i, (troops, colors))| Slot {
                creature: format!("creature {i}"),
                colors: colors.to_vec(),
                power: 6,
                toughness: 6,
                troops: *troops,
                slot: None,
            })
            .collect(),
        contingency: None,
        mercenary: None,
    }
}

const R: Color = Color::Red;
const G: Color = Color::Green;
const U: Color = Color::Blue;

// ---------------------------------------------------------------------------------------------
// Color bonus (seed 003 §4.2.3), the seed's own examples

#[test]
fn five_thousand_red_and_so_on_with_a_red_green_slot_get_the_color_bonus_seed_003_4_2_3() {
    let army = army_of(&[(5000, &[R]), (2500, &[R]), (1500, &[R]), (1000, &[R, G])]);
    assert_eq!(color_bonus(&army), 1);
}

#[test]
fn red_green_red_green_blue_green_red_blue_gets_no_color_bonus_seed_003_4_2_3() {
    let army = army_of(&[(5000, &[R, G]), (2500, &[R, G]), (1500, &[U, G]), (1000, &[R, U])]);
    assert_eq!(color_bonus(&army), 0);
}

#[test]
fn the_same_army_after_battles_with_its_blue_green_slot_dead_gets_the_bonus_seed_003_4_2_3() {
    let army = army_of(&[(3000, &[R, G]), (1600, &[R, G]), (0, &[U, G]), (400, &[R, U])]);
    assert_eq!(color_bonus(&army), 1);
}

#[test]
fn an_all_artifact_army_gets_the_color_bonus_but_artifacts_with_a_colored_slot_do_not_seed_003_4_2_3() {
    let artifacts = army_of(&[(5000, &[Color::Artifact]), (2500, &[Color::Artifact])]);
    assert_eq!(color_bonus(&artifacts), 1);
    let mixed = army_of(&[(5000, &[Color::Artifact]), (2500, &[R])]);
    assert_eq!(color_bonus(&mixed), 0);
}

#[test]
fn an_army_whose_creatures_are_all_dead_gets_no_color_bonus_seed_003_4_2_3() {
    assert_eq!(color_bonus(&army_of(&[(0, &[R]), (0, &[R])])), 0);
}

// ---------------------------------------------------------------------------------------------
// Size bonus (seed 003 §4.2.2)

#[test]
fn the_size_formula_gives_the_larger_army_round_scale_times_one_minus_the_ratio_seed_003_4_2_2() {
    let formula = SizeFormula::default();
    let cases = [
        ((1000, 1000), (0, 0)),
        ((1000, 950), (1, 0)), // 0.5 rounds up
        ((1000, 960), (0, 0)), // 0.4 rounds down
        ((500, 1000), (0, 5)),
        ((137_000, 37_000), (7, 0)),
        ((0, 1), (0, 10)),
        ((0, 0), (0, 0)),
    ];
    for ((a, b), (bonus_a, bonus_b)) in cases {
        assert_eq!(size_bonus(&formula, &Sides { a, b }), Sides { a: bonus_a, b: bonus_b }, "{a} against {b}");
    }
    let steep = SizeFormula { weighting: SizeWeighting::Troops, scale: 20 };
    assert_eq!(size_bonus(&steep, &Sides { a: 1000, b: 400 }), Sides { a: 10, b: 0 }, "capped at 10");
    assert_eq!(size_bonus(&steep, &Sides { a: 1000, b: 800 }), Sides { a: 4, b: 0 });
}

// ---------------------------------------------------------------------------------------------
// Pairs and ties (seed 003 §4.2.4)

fn die(total: u32) -> ModifiedDie {
    ModifiedDie { draw: Draw { word: 0, sides: 20, value: total.clamp(1, 20), purpose: "given".into() }, total }
}

fn dice(a: [u32; 4], b: [u32; 4]) -> Sides<Vec<ModifiedDie>> {
    Sides { a: a.into_iter().map(die).collect(), b: b.into_iter().map(die).collect() }
}

fn tape() -> DiceTape {
    DiceTape::new([7; 32], 0)
}

#[test]
fn die_i_of_a_meets_die_i_of_b_and_equal_totals_win_nothing_seed_003_4_2_4() {
    assert_eq!(pair_winner(12, 11), PairWinner::A);
    assert_eq!(pair_winner(3, 20), PairWinner::B);
    assert_eq!(pair_winner(9, 9), PairWinner::Tie);
    let pairs = compare_pairs(&dice([15, 4, 9, 20], [10, 12, 9, 1]));
    assert_eq!(pairs, [PairWinner::A, PairWinner::B, PairWinner::Tie, PairWinner::A]);
    assert_eq!(count_pairs_won(&pairs), Sides { a: 2, b: 1 });
}

#[test]
fn higher_total_breaks_a_tie_in_pairs_without_more_dice_seed_003_4_2_4() {
    let given = dice([20, 1, 5, 5], [2, 15, 5, 5]); // one pair each, two tied; sums 31 and 27
    let mut tape = tape();
    let (winner, tie) =
        break_tie(TieRule::HigherTotal, Engagement::NoAttacker, &given, &Sides { a: 0, b: 0 }, &mut tape)
            .expect("no dice needed");
    assert_eq!(winner, SideId::A);
    assert_eq!(tie.rule, TieRule::HigherTotal);
    assert_eq!(tie.decided_by, "higher total: side a 31 to side b 27");
    assert!(tie.roll_off.is_empty());
    assert!(tape.draws().is_empty());
}

#[test]
fn equal_totals_under_higher_total_roll_off_seed_003_4_2_4() {
    let given = dice([20, 1, 5, 5], [1, 20, 5, 5]);
    let mut tape = tape();
    let (winner, tie) =
        break_tie(TieRule::HigherTotal, Engagement::NoAttacker, &given, &Sides { a: 3, b: 3 }, &mut tape)
            .expect("a tape to roll from");
    assert!(tie.decided_by.starts_with("equal totals 31 to 31, then roll-off: side"), "{}", tie.decided_by);
    assert_roll_off_is_consistent(&tie.roll_off, winner, &Sides { a: 3, b: 3 });
    assert_eq!(tape.draws().len(), tie.roll_off.len() * 2);
}

#[test]
fn the_defender_wins_a_tie_under_the_defender_rule_seed_003_4_1_2_3() {
    let given = dice([20, 1, 5, 5], [2, 15, 5, 5]);
    for attacker in SideId::BOTH {
        let mut tape = tape();
        let (winner, tie) =
            break_tie(TieRule::Defender, Engagement::Attack { attacker }, &given, &Sides { a: 0, b: 0 }, &mut tape)
                .expect("no dice needed");
        assert_eq!(winner, attacker.other());
        assert!(tie.decided_by.starts_with("defender"), "{}", tie.decided_by);
        assert!(tape.draws().is_empty());
    }
}

#[test]
fn a_no_attacker_battle_under_the_defender_rule_rolls_off_seed_003_4_1_2_3() {
    let given = dice([20, 1, 5, 5], [2, 15, 5, 5]);
    let mut tape = tape();
    let (winner, tie) = break_tie(TieRule::Defender, Engagement::NoAttacker, &given, &Sides { a: 0, b: 0 }, &mut tape)
        .expect("a tape to roll from");
    assert!(tie.decided_by.starts_with("no attacker"), "{}", tie.decided_by);
    assert_roll_off_is_consistent(&tie.roll_off, winner, &Sides { a: 0, b: 0 });
}

#[test]
fn a_roll_off_repeats_until_the_modified_dice_differ_a_then_b_seed_003_4_2_4() {
    // Equal modifiers tie 1 in 20 rounds; try seeds until a roll-off needs a second round.
    let modifiers = Sides { a: 4, b: 4 };
    let long = (0..=255u8)
        .map(|n| {
            let mut tape = DiceTape::new([n; 32], 0);
            roll_off(&mut tape, &modifiers).expect("a tape to roll from")
        })
        .find(|outcome| outcome.rounds.len() > 1)
        .expect("some seed ties the first round");
    assert_roll_off_is_consistent(&long.rounds, long.winner, &modifiers);
    let purposes: Vec<&str> =
        long.rounds.iter().flat_map(|round| [round.a.draw.purpose.as_str(), round.b.draw.purpose.as_str()]).collect();
    assert_eq!(purposes[..4], ["roll-off 1 side a", "roll-off 1 side b", "roll-off 2 side a", "roll-off 2 side b"]);
}

fn assert_roll_off_is_consistent(rounds: &[Sides<ModifiedDie>], winner: SideId, modifiers: &Sides<u32>) {
    let (last, earlier) = rounds.split_last().expect("at least one round");
    for round in earlier {
        assert_eq!(round.a.total, round.b.total, "earlier rounds tied");
    }
    assert_ne!(last.a.total, last.b.total);
    assert_eq!(winner, if last.a.total > last.b.total { SideId::A } else { SideId::B });
    for round in rounds {
        assert_eq!(round.a.total, round.a.draw.value + modifiers.a);
        assert_eq!(round.b.total, round.b.draw.value + modifiers.b);
        assert!(round.a.draw.word < round.b.draw.word, "A's die first");
    }
}

#[test]
fn a_lone_stratless_side_loses_whatever_the_pairs_say_seed_003_4_2_4() {
    let given = dice([20, 20, 20, 20], [1, 1, 1, 1]);
    let pairs_won = count_pairs_won(&compare_pairs(&given));
    let verdict = decide_winner(
        &[SideId::A],
        &pairs_won,
        TieRule::HigherTotal,
        Engagement::NoAttacker,
        &given,
        &Sides { a: 0, b: 10 },
        &mut tape(),
    )
    .expect("no dice needed");
    assert_eq!(verdict.winner, SideId::B);
    assert!(verdict.tie_break.is_none());
}

/// A seed under which two equal armies with equal bonuses win as many pairs each.
fn seed_with_tied_pairs(tie_rule: TieRule, engagement: Engagement) -> (u64, Resolved) {
    seed_where(tie_rule, engagement, |_| true)
}

/// A seed under which the pairs tie and `also` holds of the resolution.
fn seed_where(tie_rule: TieRule, engagement: Engagement, also: impl Fn(&Resolved) -> bool) -> (u64, Resolved) {
    let options = BattleOptions { tie_rule, ..BattleOptions::default() };
    let events = |n| {
        vec![
            created_with(armies(), options.clone(), engagement, n),
            strategy_submitted(SideId::A),
            strategy_submitted(SideId::B),
            bonus_assigned(SideId::A, 5),
            bonus_assigned(SideId::B, 5),
        ]
    };
    (0..20_000)
        .find_map(|n| {
            let then =
                given(events(n)).seed(n).when(BattleCommand::ResolveBattle { running_away: None }, judge(), after());
            let resolved = resolution(&then.events());
            (resolved.pairs_won.a == resolved.pairs_won.b && also(&resolved)).then_some((n, resolved))
        })
        .expect("ties in pairs won are common")
}

#[test]
fn a_resolved_tie_in_pairs_records_the_tie_rule_it_used_seed_003_4_2_4() {
    let cases = [
        (TieRule::HigherTotal, Engagement::NoAttacker),
        (TieRule::Defender, Engagement::Attack { attacker: SideId::A }),
        (TieRule::Defender, Engagement::Attack { attacker: SideId::B }),
        (TieRule::Defender, Engagement::NoAttacker),
        (TieRule::RollOff, Engagement::NoAttacker),
    ];
    for (rule, engagement) in cases {
        let (n, resolved) = seed_with_tied_pairs(rule, engagement);
        let tie = resolved.tie_break.clone().expect("a tie break");
        assert_eq!(tie.rule, rule, "seed {n}");
        assert!(resolved.decided_by.starts_with("pairs tied"), "{}", resolved.decided_by);
        let roll_off_words = tie.roll_off.iter().map(|round| round.b.draw.word).max();
        let dice_words = resolved.dice.b.last().map(|die| die.draw.word);
        assert!(resolved.next_word > roll_off_words.or(dice_words).unwrap_or_default());
        match (rule, engagement) {
            (TieRule::HigherTotal, _) => {
                let sum = |dice: &[ModifiedDie]| dice.iter().map(|die| die.total).sum::<u32>();
                let (a, b) = (sum(&resolved.dice.a), sum(&resolved.dice.b));
                if a != b {
                    assert_eq!(resolved.winner, if a > b { SideId::A } else { SideId::B });
                    assert!(tie.roll_off.is_empty());
                } else {
                    assert!(!tie.roll_off.is_empty());
                }
            }
            (TieRule::Defender, Engagement::Attack { attacker }) => {
                assert_eq!(resolved.winner, attacker.other());
                assert!(tie.roll_off.is_empty());
            }
            _ => assert_roll_off_is_consistent(&tie.roll_off, resolved.winner, &Sides { a: 6, b: 6 }),
        }
    }
}

#[test]
fn a_resolved_tie_with_equal_totals_rolls_off_under_higher_total_seed_003_4_2_4() {
    let sum = |dice: &[ModifiedDie]| dice.iter().map(|die| die.total).sum::<u32>();
    let (n, resolved) = seed_where(TieRule::HigherTotal, Engagement::NoAttacker, |r| sum(&r.dice.a) == sum(&r.dice.b));
    let tie = resolved.tie_break.clone().expect("a tie break");
    assert!(tie.decided_by.starts_with("equal totals"), "seed {n}: {}", tie.decided_by);
    assert_roll_off_is_consistent(&tie.roll_off, resolved.winner, &Sides { a: 6, b: 6 });
    let last_roll_off = tie.roll_off.last().map(|round| round.b.draw.word).unwrap_or_default();
    assert!(resolved.next_word > last_roll_off);
    assert!(tie.roll_off[0].a.draw.word > resolved.dice.b[3].draw.word, "roll-off after the battle dice");
}

// ---------------------------------------------------------------------------------------------
// Casualties (seed 003 §4.2.5–4.2.6)

/// A loses pairs 1, 3 and 4 by 4, 7 and 2; B loses pair 2 by 3.
fn three_one() -> Sides<Vec<ModifiedDie>> {
    dice([10, 15, 8, 11], [14, 12, 15, 13])
}

#[test]
fn the_rate_adds_base_pairs_lost_and_margins_in_tenths_of_a_percent_seed_003_4_2_5() {
    let given = three_one();
    assert_eq!(pairs_lost(SideId::A, &given), PairsLost { count: 3, margin: 13 });
    assert_eq!(pairs_lost(SideId::B, &given), PairsLost { count: 1, margin: 3 });
    let formula = CasualtyFormula::default();
    // 50 + 3 × 50 + 13 × 5 = 265 (26.5%); 50 + 50 + 15 = 115 (11.5%).
    assert_eq!(casualty_rate(&formula, pairs_lost(SideId::A, &given)), 265);
    assert_eq!(casualty_rate(&formula, pairs_lost(SideId::B, &given)), 115);
    assert_eq!(battle_rates(&formula, &given, None), Sides { a: 265, b: 115 });
}

#[test]
fn losses_per_slot_are_rounded_down_to_tens_seed_003_4_2_5() {
    let given = three_one();
    let casualties = battle_casualties(&CasualtyFormula::default(), &armies(), &given, None);
    // 5000 × 26.5% = 1325 → 1320; 2500 → 662.5 → 660; 1500 → 397.5 → 390; 1000 → 265 → 260.
    assert_eq!(casualties.a.losses, [1320, 660, 390, 260]);
    assert_eq!(casualties.a.total, 2630);
    assert_eq!(casualties.a.rate_tenths_percent, Some(265));
    // 5000 × 11.5% = 575 → 570; 287.5 → 280; 172.5 → 170; 115 → 110.
    assert_eq!(casualties.b.losses, [570, 280, 170, 110]);
    assert_eq!(casualties.b.total, 1130);
}

#[test]
fn a_sweep_is_capped_at_the_formula_max_seed_003_4_2_5() {
    let sweep = dice([1, 1, 1, 1], [30, 30, 30, 30]);
    let rates = battle_rates(&CasualtyFormula::default(), &sweep, None);
    assert_eq!(rates, Sides { a: 600, b: 50 }, "capped at 60%; the winner still takes base");
}

#[test]
fn running_away_halves_the_runners_rate_rounded_up_and_spares_the_enemy_seed_003_4_2_6() {
    let given = three_one();
    let formula = CasualtyFormula::default();
    assert_eq!(battle_rates(&formula, &given, Some(SideId::A)), Sides { a: 133, b: 0 });
    // B runs after winning three pairs: half of its 115 is 58, above base.
    let reversed = Sides { a: given.b.clone(), b: given.a.clone() };
    assert_eq!(battle_rates(&formula, &reversed, Some(SideId::A)), Sides { a: 58, b: 0 });
    // A runner that lost nothing still takes base: at least some damage is always done.
    let flawless = dice([20, 20, 20, 20], [1, 1, 1, 1]);
    assert_eq!(battle_rates(&formula, &flawless, Some(SideId::A)), Sides { a: 50, b: 0 });
    let casualties = battle_casualties(&formula, &armies(), &given, Some(SideId::A));
    assert_eq!(casualties.a.losses, [660, 330, 190, 130]);
    assert_eq!(casualties.b.losses, [0, 0, 0, 0]);
}
