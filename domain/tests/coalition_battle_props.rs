//! Invariants of a coalition battle over random armies, bonuses and seeds, and replay
//! determinism (DESIGN.md "Dice that anyone can check", "Testing"; seed 003 §4.2).

#[path = "coalition_battle_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{ArmySpec, Color, RankClass, Slot, Team},
        battle::{
            command::Engagement, event::PairWinner, BattleCommand, BattleEvent, BattleOptions, BattleState,
            CasualtyFormula, CoalitionBattle, SideId, Sides, SizeFormula, SizeWeighting, TieRule,
        },
    },
    dice::{seed, DiceTape},
    Actor, Context, Decider,
};
use proptest::prelude::*;
use support::*;

fn a_full_battle(n: u64) -> Vec<(BattleCommand, Actor, chrono::DateTime<chrono::Utc>)> {
    vec![
        (create(armies(), BattleOptions::default(), Engagement::Attack { attacker: SideId::B }, n), judge(), at(0)),
        (BattleCommand::ContributeEntropy { entropy: "vorn's lucky number 7".into() }, player_b(), at(1)),
        (
            BattleCommand::SubmitStrategy {
                side: SideId::A,
                strategy: "hold the pass".into(),
                army: None,
                attempt: None,
                departure: None,
            },
            player_a(),
            at(2),
        ),
        (
            BattleCommand::SubmitStrategy {
                side: SideId::B,
                strategy: "burn the bridge".into(),
                army: None,
                attempt: None,
                departure: None,
            },
            player_b(),
            at(3),
        ),
        (
            BattleCommand::SubmitStrategy {
                side: SideId::A,
                strategy: "hold the pass at night".into(),
                army: None,
                attempt: None,
                departure: None,
            },
            player_a(),
            at(4),
        ),
        (BattleCommand::AssignStrategyBonus { side: SideId::A, bonus: 6, note: None }, judge(), at(25)),
        (BattleCommand::AssignStrategyBonus { side: SideId::B, bonus: 4, note: None }, judge(), at(25)),
        (BattleCommand::ResolveBattle { running_away: None }, judge(), at(26)),
        (BattleCommand::RevealSeed { seed: hex::encode(server_seed(n)), next_commitment: None }, system(), at(26)),
    ]
}

#[test]
fn the_same_seed_and_commands_give_identical_events_byte_for_byte() {
    let first = run(&a_full_battle(3), 3).expect("a legal battle");
    let second = run(&a_full_battle(3), 3).expect("a legal battle");
    assert_eq!(first, second);
    let json = |events: &[BattleEvent]| serde_json::to_string(events).expect("events serialize");
    assert_eq!(json(&first), json(&second));
    assert!(first.iter().any(|event| matches!(event, BattleEvent::BattleResolved { .. })));
}

#[test]
fn a_different_seed_gives_different_dice() {
    let dice = |n| {
        run(&a_full_battle(n), n).expect("a legal battle").into_iter().find_map(|event| match event {
            BattleEvent::BattleResolved { dice, .. } => Some(dice),
            _ => None,
        })
    };
    assert_ne!(dice(3), dice(4));
}

/// What replay verification does: re-run every stored command against the state before it, keyed
/// by the revealed seed alone, and compare with the stored events.
#[test]
fn a_third_party_replays_the_stream_from_the_revealed_seed() {
    let commands = a_full_battle(9);
    let stored = run(&commands, 9).expect("a legal battle");
    let Some(BattleEvent::SeedRevealed { seed: revealed, effective_seed, .. }) = stored.last().cloned() else {
        panic!("the battle ends with the reveal");
    };
    let revealed = seed::parse_hex32(&revealed).expect("hex seed");
    let mut state = BattleState::default();
    let mut replayed = Vec::new();
    for (command, actor, time) in commands {
        let key = seed::effective_seed(&revealed, STREAM, &state.contributions);
        let mut ctx =
            Context { stream: STREAM.into(), actor, recorded_at: time, dice: DiceTape::new(key, state.next_word) };
        let events = CoalitionBattle::decide(&state, &command, &mut ctx).expect("the same decisions");
        for event in &events {
            CoalitionBattle::evolve(&mut state, event);
        }
        replayed.extend(events);
    }
    assert_eq!(serde_json::to_value(&replayed).ok(), serde_json::to_value(&stored).ok());
    let key = seed::effective_seed(&revealed, STREAM, &["vorn's lucky number 7".to_string()]);
    assert_eq!(effective_seed, hex::encode(key));
}

// ---------------------------------------------------------------------------------------------
// Properties

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![
        Just(Color::White),
        Just(Color::Blue),
        Just(Color::Black),
        Just(Color::Red),
        Just(Color::Green),
        Just(Color::Artifact)
    ]
}

fn slot_strategy() -> impl Strategy<Value = Slot> {
    (prop::collection::vec(color(), 0..3), 0u32..=12, 0u32..=12, prop_oneof![Just(0u32), 0u32..=6000, Just(u32::MAX)])
        .prop_map(|(colors, power, toughness, troops)| Slot {
            creature: format!("{power}/{toughness}"),
            colors,
            power,
            toughness,
            troops,
            slot: None,
        })
}

fn army_strategy(name: &'static str, team: Team, controller: &'static str) -> impl Strategy<Value = ArmySpec> {
    prop::collection::vec(slot_strategy(), 1..=6).prop_map(move |slots| ArmySpec {
        name: name.into(),
        team,
        rank: RankClass::PlaguelordCommander,
        controller: controller.into(),
        slots,
        contingency: None,
        mercenary: None,
    })
}

fn options_strategy() -> impl Strategy<Value = BattleOptions> {
    let tie_rule = prop_oneof![Just(TieRule::HigherTotal), Just(TieRule::Defender), Just(TieRule::RollOff)];
    let weighting = prop_oneof![Just(SizeWeighting::PowerToughness), Just(SizeWeighting::Troops)];
    (tie_rule, weighting, 0u32..=40, 0u32..=1000, 0u32..=1000, 0u32..=300, 0u32..=60).prop_map(
        |(tie_rule, weighting, scale, max, base, per_pair_lost, per_margin)| BattleOptions {
            tie_rule,
            size_formula: SizeFormula { weighting, scale },
            casualty_formula: CasualtyFormula { base: base.min(max), per_pair_lost, per_margin, max },
            ..BattleOptions::default()
        },
    )
}

fn engagement_strategy() -> impl Strategy<Value = Engagement> {
    prop_oneof![
        Just(Engagement::NoAttacker),
        Just(Engagement::Attack { attacker: SideId::A }),
        Just(Engagement::Attack { attacker: SideId::B })
    ]
}

fn side_strategy() -> impl Strategy<Value = Option<SideId>> {
    prop_oneof![Just(None), Just(Some(SideId::A)), Just(Some(SideId::B))]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// For any armies, bonuses, options and seed: losses never exceed a slot's troops (troops
    /// never go negative), every die is a d20, four per side, bonuses stay in range, and the
    /// winner is the side with more pairs unless a lone stratless side lost automatically or a
    /// tie was broken (seed 003 §4.2.1–4.2.6, §4.3.1).
    #[test]
    fn resolution_keeps_troops_dice_and_winner_consistent(
        a in army_strategy("Sai Rei", Team::Coalition, "gazetzot"),
        b in army_strategy("Darkhand", Team::Phyrexia, "vorn"),
        bonus_a in prop::option::of(0u8..=10),
        bonus_b in prop::option::of(0u8..=10),
        options in options_strategy(),
        engagement in engagement_strategy(),
        running_away in side_strategy(),
        n in any::<u64>(),
    ) {
        let sides = Sides { a, b };
        let mut commands = vec![(create(sides.clone(), options, engagement, n), judge(), at(0))];
        for (side, bonus) in [(SideId::A, bonus_a), (SideId::B, bonus_b)] {
            if let Some(bonus) = bonus {
                let actor = if side == SideId::A { player_a() } else { player_b() };
                commands.push((BattleCommand::SubmitStrategy { side, strategy: "advance".into(), army: None, attempt: None, departure: None }, actor, at(1)));
                commands.push((BattleCommand::AssignStrategyBonus { side, bonus, note: None }, judge(), at(2)));
            }
        }
        let empties: Vec<SideId> = SideId::BOTH.into_iter().filter(|side| sides.get(*side).is_empty()).collect();
        if !empties.is_empty() {
            // §4.3.1: killed on engagement, nothing left to resolve.
            let created = run(&commands[..1], n).expect("a legal creation");
            let killed: Vec<SideId> = created.iter().filter_map(|event| match event {
                BattleEvent::ArmyKilled { side, .. } => Some(*side),
                _ => None,
            }).collect();
            prop_assert_eq!(killed, empties);
            return Ok(());
        }
        commands.push((BattleCommand::ResolveBattle { running_away }, judge(), after()));
        let events = run(&commands, n).expect("a legal resolution");
        let resolved = resolution(&events[events.len() - 1..]);

        for side in SideId::BOTH {
            let dice = resolved.dice.get(side);
            prop_assert_eq!(dice.len(), 4);
            let bonuses = resolved.bonuses.get(side);
            prop_assert!(bonuses.strategy <= 10 && bonuses.size <= 10 && bonuses.color <= 1);
            for die in dice {
                prop_assert_eq!(die.draw.sides, 20);
                prop_assert!((1..=20).contains(&die.draw.value));
                prop_assert_eq!(die.total, die.draw.value + bonuses.total());
            }
            let casualties = resolved.casualties.get(side);
            let army = sides.get(side);
            prop_assert_eq!(casualties.losses.len(), army.slots.len());
            for (loss, slot) in casualties.losses.iter().zip(&army.slots) {
                prop_assert!(slot.troops.checked_sub(*loss).is_some(), "loss {} of {}", loss, slot.troops);
                prop_assert_eq!(loss % 10, 0);
            }
            prop_assert_eq!(casualties.total, casualties.losses.iter().map(|loss| u64::from(*loss)).sum::<u64>());
        }
        if let Some(runner) = running_away {
            prop_assert!(resolved.casualties.get(runner.other()).losses.iter().all(|loss| *loss == 0));
        }
        let pairs_a = resolved.pairs.iter().filter(|pair| **pair == PairWinner::A).count();
        let pairs_b = resolved.pairs.iter().filter(|pair| **pair == PairWinner::B).count();
        prop_assert_eq!((usize::from(resolved.pairs_won.a), usize::from(resolved.pairs_won.b)), (pairs_a, pairs_b));
        match resolved.stratless.as_slice() {
            [loser] => {
                prop_assert_eq!(resolved.winner, loser.other());
                prop_assert_eq!(resolved.bonuses.get(loser.other()).strategy, 10);
                prop_assert_eq!(resolved.bonuses.get(*loser).strategy, 0);
            }
            _ if resolved.tie_break.is_some() => prop_assert_eq!(pairs_a, pairs_b),
            _ => {
                prop_assert_ne!(pairs_a, pairs_b);
                prop_assert_eq!(resolved.winner, if pairs_a > pairs_b { SideId::A } else { SideId::B });
            }
        }
        let last_word = resolved.tie_break.iter().flat_map(|tie| &tie.roll_off).map(|round| round.b.draw.word)
            .chain(resolved.dice.b.iter().map(|die| die.draw.word)).max().unwrap_or_default();
        prop_assert!(resolved.next_word > last_word);

        // Replaying the same commands under the same seed gives the same events.
        prop_assert_eq!(run(&commands, n).expect("a legal resolution"), events);
    }
}
