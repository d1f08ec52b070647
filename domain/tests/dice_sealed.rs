//! The dice every stream shares: entropy before the first roll, reveals checked against the
//! commitment, and a judge's rolls (docs/DICE.md "A judge's roll"; seed 000 "Dice and Rounding"
//! for d3 and halving).
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

#[path = "dice_support.rs"]
mod support;

use chrono::Utc;
use herald_domain::{
    dice::{judge::halved, seed, DiceExpr, DiceTape, Halving, JudgeRoll, RollOptions, SealedDice},
    Actor, Context, Role,
};
use support::key;

const STREAM: &str = "battle-0190f0a4-3333-7000-8000-00000000d1ce";

fn context(actor: Actor) -> Context {
    Context { stream: STREAM.into(), actor, recorded_at: Utc::now(), dice: DiceTape::new(key(), 0) }
}

fn judge() -> Actor {
    Actor::new("token:judge", Role::Judge)
}

fn roll(expression: &str, halve: Option<Halving>) -> JudgeRoll {
    JudgeRoll {
        expression: DiceExpr::parse(expression).unwrap(),
        purpose: "what the judge decides".into(),
        halve,
        options: RollOptions::default(),
    }
}

fn dice() -> SealedDice {
    SealedDice::committed(&hex::encode(seed::commitment(&key())))
}

#[test]
fn a_judge_rolls_any_expression_on_the_stream_tape_and_the_draws_are_recorded() {
    let mut ctx = context(judge());
    let rolled = dice().judge_roll(&roll("2d6+3", None), &mut ctx, "test").unwrap();
    // The test-vector key's first d6 are 2 and 6 (docs/DICE.md).
    assert_eq!(rolled.roll.draws.iter().map(|d| d.value).collect::<Vec<_>>(), [2, 6]);
    assert_eq!(rolled.roll.total, 11);
    assert_eq!(rolled.result, 11.0);
    assert_eq!(rolled.next_word, ctx.dice.next_word());
    assert_eq!(rolled.by, "token:judge");
    assert!(rolled.roll.draws.iter().all(|draw| draw.purpose.starts_with("what the judge decides")));
}

#[test]
fn a_d3_is_a_d6_halved_and_rounded_up_per_seed_000_dice_and_rounding() {
    let mut ctx = context(judge());
    let rolled = dice().judge_roll(&roll("d3", None), &mut ctx, "test").unwrap();
    // The first d6 is a 2: a d3 of 1.
    assert_eq!((rolled.roll.draws[0].value, rolled.roll.total), (2, 1));
}

#[test]
fn a_halved_total_rounds_up_except_for_distances_per_seed_000_dice_and_rounding() {
    assert_eq!(halved(7, Some(Halving::RoundUp)), 4.0);
    assert_eq!(halved(7, Some(Halving::Exact)), 3.5);
    assert_eq!(halved(8, Some(Halving::RoundUp)), 4.0);
    assert_eq!(halved(-3, Some(Halving::RoundUp)), -1.0);
    let mut ctx = context(judge());
    let rolled = dice().judge_roll(&roll("2d6+3", Some(Halving::RoundUp)), &mut ctx, "test").unwrap();
    assert_eq!((rolled.roll.total, rolled.result), (11, 6.0));
}

#[test]
fn only_judges_roll_for_the_judge_and_only_while_the_seed_is_sealed() {
    for actor in [Actor::player("token:alice", "alice"), Actor::new("token:o", Role::Observer)] {
        let refused = dice().judge_roll(&roll("d6", None), &mut context(actor), "test").unwrap_err();
        assert_eq!(refused.code, "test.judge_roll.not_a_judge");
        assert!(refused.forbidden);
    }
    let mut revealed = dice();
    revealed.revealed_seed = Some(hex::encode(key()));
    let refused = revealed.judge_roll(&roll("d6", None), &mut context(judge()), "test").unwrap_err();
    assert_eq!(refused.code, "test.judge_roll.seed_revealed");
    let mut blank = roll("d6", None);
    blank.purpose = "  ".into();
    assert_eq!(dice().judge_roll(&blank, &mut context(judge()), "test").unwrap_err().code, "test.judge_roll.purpose");
}

#[test]
fn entropy_is_taken_from_participants_before_the_first_roll_only() {
    let alice = Actor::player("token:alice", "alice");
    let taken = dice().contribute("lucky", true, &context(alice.clone()), "test").unwrap();
    assert_eq!((taken.entropy.as_str(), taken.by.as_str()), ("lucky", "token:alice"));
    let stranger = dice().contribute("lucky", false, &context(alice.clone()), "test").unwrap_err();
    assert_eq!(stranger.code, "test.not_participant");
    let mut rolled = dice();
    rolled.advance(3);
    assert_eq!(
        rolled.contribute("late", true, &context(alice), "test").unwrap_err().code,
        "test.entropy_after_first_roll"
    );
    assert_eq!(dice().contribute("", true, &context(judge()), "test").unwrap_err().code, "test.entropy_size");
}

#[test]
fn a_revealed_seed_must_match_the_commitment() {
    let revealed = dice().reveal(&hex::encode(key()), None, true, &context(judge()), "test").unwrap();
    assert_eq!(revealed.seed, hex::encode(key()));
    assert_eq!(revealed.effective_seed, hex::encode(seed::effective_seed(&key(), STREAM, &[])));
    let wrong = dice().reveal(&"ab".repeat(32), None, true, &context(judge()), "test").unwrap_err();
    assert_eq!(wrong.code, "test.seed_mismatch");
    let player =
        dice().reveal(&hex::encode(key()), None, true, &context(Actor::player("t", "alice")), "test").unwrap_err();
    assert!(player.forbidden);
    let mut twice = dice();
    twice.revealed(&revealed);
    assert_eq!(
        twice.reveal(&hex::encode(key()), None, true, &context(judge()), "test").unwrap_err().code,
        "test.seed_already_revealed"
    );
    assert!(twice.cursor(true).unwrap().revealed.is_some());
    assert!(!twice.cursor(true).unwrap().reveal_due, "a revealed seed is not due again");
}

/// Issue 15 (limits on what clients write): a participant may not lengthen a stream at will by
/// contributing entropy again and again before the first roll.
#[test]
fn a_participant_contributes_at_most_four_times_and_a_stream_takes_at_most_thirty_two() {
    use herald_domain::dice::{MAX_CONTRIBUTIONS, MAX_CONTRIBUTIONS_EACH};
    let alice = Actor::player("token:alice", "alice");
    let mut dice = dice();
    for _ in 0..MAX_CONTRIBUTIONS_EACH {
        let taken = dice.contribute("lucky", true, &context(alice.clone()), "test").unwrap();
        dice.contributed(&taken);
    }
    let refused = dice.contribute("again", true, &context(alice.clone()), "test").unwrap_err();
    assert_eq!(refused.code, "test.entropy_limit");
    assert!(refused.message.contains("4 times"), "{}", refused.message);
    let mut n = 0;
    while dice.contributions.len() < MAX_CONTRIBUTIONS {
        let other = Actor::player(format!("token:{n}"), format!("player-{n}"));
        let taken = dice.contribute("x", true, &context(other), "test").unwrap();
        dice.contributed(&taken);
        n += 1;
    }
    let full = dice.contribute("one more", true, &context(Actor::player("token:new", "newcomer")), "test").unwrap_err();
    assert_eq!(full.code, "test.entropy_limit");
    assert_eq!(dice.contributors.len(), MAX_CONTRIBUTIONS);
}
