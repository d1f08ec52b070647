//! Kill and capture attempts (seed 003 §4.3.2–4.3.4, §4.5), Hellbent raiders (§6.3.2), the
//! formulas per battle, contingencies (§5.2.3), sanctions in battle (§5.4.1) and the weather
//! (§4.1.2.5), through `CoalitionBattle::decide`/`evolve` only.

#[path = "coalition_battle_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{ArmySpec, Color, RankClass, Team},
        battle::{
            redact::redact_battle_event, view::BattleView, Attempt, AttemptKind, AttemptOutcome, AttemptResolved,
            BattleCommand, BattleEvent, BattleOptions, BattleState, CoalitionBattle, KillFormula, SideId, Sides,
        },
        setup::MercenaryFaction,
    },
    Actor, Decider, RuleError, Viewer,
};
use support::*;

/// A battle played command by command under server seed `seed`.
struct Play {
    state: BattleState,
    events: Vec<BattleEvent>,
    seed: u64,
}

impl Play {
    fn new(armies: Sides<ArmySpec>, seed: u64) -> Self {
        let mut play = Self { state: BattleState::default(), events: Vec::new(), seed };
        let create = create(
            armies,
            BattleOptions::default(),
            herald_domain::coalition::battle::command::Engagement::NoAttacker,
            seed,
        );
        play.run(create, judge(), at(0)).expect("the battle opens");
        play
    }

    fn run(
        &mut self,
        command: BattleCommand,
        actor: Actor,
        time: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<BattleEvent>, RuleError> {
        let mut ctx = context(&self.state, actor, time, self.seed);
        let events = CoalitionBattle::decide(&self.state, &command, &mut ctx)?;
        for event in &events {
            CoalitionBattle::evolve(&mut self.state, event);
        }
        self.events.extend(events.clone());
        Ok(events)
    }

    fn strategy(&mut self, side: SideId, attempt: Option<Attempt>) -> Result<Vec<BattleEvent>, RuleError> {
        let actor = if side == SideId::A { player_a() } else { player_b() };
        self.run(strategy_for(side, attempt), actor, before())
    }

    /// Both strategies (A with `attempt`), bonuses `a` and `b`, resolved.
    fn fight(&mut self, attempt: Option<Attempt>, a: u8, b: u8) -> Vec<BattleEvent> {
        self.strategy(SideId::A, attempt).expect("A's strategy");
        self.strategy(SideId::B, None).expect("B's strategy");
        for (side, bonus) in [(SideId::A, a), (SideId::B, b)] {
            self.run(BattleCommand::AssignStrategyBonus { side, bonus, note: None }, judge(), before()).expect("bonus");
        }
        self.run(BattleCommand::ResolveBattle { running_away: None }, judge(), after()).expect("resolved")
    }
}

fn strategy_for(side: SideId, attempt: Option<Attempt>) -> BattleCommand {
    BattleCommand::SubmitStrategy {
        side,
        strategy: format!("side {side} charges"),
        army: None,
        attempt,
        departure: None,
    }
}

fn kill() -> Option<Attempt> {
    Some(Attempt { kind: AttemptKind::Kill, target: None })
}

fn capture() -> Option<Attempt> {
    Some(Attempt { kind: AttemptKind::Capture, target: None })
}

fn the_attempt(events: &[BattleEvent]) -> AttemptResolved {
    let found: Vec<&AttemptResolved> = events
        .iter()
        .filter_map(|event| match event {
            BattleEvent::KillAttempted(attempt) | BattleEvent::CaptureAttempted(attempt) => Some(attempt),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{events:?}");
    found[0].clone()
}

fn casualties_of(events: &[BattleEvent]) -> Sides<Vec<u32>> {
    let resolved = events.iter().find_map(|event| match event {
        BattleEvent::BattleResolved { casualties, .. } => Some(casualties.map(|_, c| c.losses.clone())),
        _ => None,
    });
    resolved.expect("a BattleResolved")
}

/// Two CPL/Lt Cmdr armies with the slot ranks the campaign gives them (seed 003 §2.1.5).
fn low_armies() -> Sides<ArmySpec> {
    let with_ranks = |mut army: ArmySpec| {
        for (index, slot) in army.slots.iter_mut().enumerate() {
            slot.slot = u8::try_from(index).ok();
        }
        army
    };
    Sides {
        a: with_ranks(full_army("Sai Rei", Team::Coalition, RankClass::CplLtCommander, "gazetzot", &[Color::Red])),
        b: with_ranks(full_army("Darkhand", Team::Phyrexia, RankClass::CplLtCommander, "vorn", &[Color::Black])),
    }
}

#[test]
fn a_kill_attempt_needs_500_troops_in_the_largest_slot_seed_003_4_3_2() {
    let mut short = armies();
    short.a.slots[3].troops = 499;
    let mut play = Play::new(short, 0);
    let refused = play.strategy(SideId::A, kill()).expect_err("refused");
    assert_eq!(refused.code, "coalition.battle.kill_needs_500");
    assert_eq!(refused.rule, "seed 003 §4.3.2");
    // 5000 of the smallest creatures are no substitute: the largest slot is the top rank.
    assert!(play.state.sides.a.army.as_ref().is_some_and(|army| army.slots[0].troops == 5000));
    let mut enough = armies();
    enough.a.slots[3].troops = 500;
    Play::new(enough, 0).strategy(SideId::A, kill()).expect("500 are enough");
}

#[test]
fn the_500_risked_troops_sit_out_the_battle_and_only_500_are_risked_seed_003_4_3_3_and_4_3_4() {
    let events = Play::new(armies(), 3).fight(kill(), 5, 5);
    let resolved = resolution(&events[..1]);
    // Side A fought with 500 of its 1000 top-rank troops: smaller than B, B gets the size bonus.
    assert!(resolved.bonuses.b.size > 0 && resolved.bonuses.a.size == 0, "{:?}", resolved.bonuses);
    let rate = resolved.casualties.a.rate_tenths_percent.expect("a rate");
    let lost = casualties_of(&events).a;
    assert_eq!(
        lost[3],
        herald_domain::coalition::battle::casualties::slot_loss(500, rate),
        "losses of the 500 who fought"
    );
    assert_eq!(lost[0], herald_domain::coalition::battle::casualties::slot_loss(5000, rate));
    let attempt = the_attempt(&events);
    assert_eq!(attempt.risked, vec![0, 0, 0, 500], "500 of the largest slot, however many there are");
    assert_eq!(attempt.target, "Darkhand");
}

/// Whether `attempt` obeys §4.3.3: a lost battle rolls no pair; a won one rolls the pair and
/// succeeds on a higher attacker's total; a failure kills the squad unless the spare die shows
/// 19 or 20 (the default `spare` of 2).
fn follows_the_rules(attempt: &AttemptResolved, won: bool) {
    match (won, attempt.outcome) {
        (false, AttemptOutcome::BattleLost) => {
            assert!(attempt.attacker_roll.is_none() && attempt.target_roll.is_none())
        }
        (true, AttemptOutcome::Succeeded) => {
            let (mine, theirs) =
                (attempt.attacker_roll.as_ref().expect("die"), attempt.target_roll.as_ref().expect("die"));
            assert!(mine.total > theirs.total);
            assert!(attempt.spare.is_none() && attempt.risked_lost.iter().all(|t| *t == 0));
        }
        (true, AttemptOutcome::Failed) => {
            let (mine, theirs) =
                (attempt.attacker_roll.as_ref().expect("die"), attempt.target_roll.as_ref().expect("die"));
            assert!(mine.total <= theirs.total);
        }
        other => panic!("won {won} but {other:?}"),
    }
    if matches!(attempt.outcome, AttemptOutcome::Failed | AttemptOutcome::BattleLost) {
        let spare = attempt.spare.as_ref().expect("a spare die");
        assert_eq!(spare.sides, 20);
        if spare.value >= 19 {
            assert!(attempt.risked_lost.iter().all(|t| *t == 0), "spared on {}", spare.value);
        } else {
            assert_eq!(attempt.risked_lost, attempt.risked, "killed on {}", spare.value);
        }
    }
}

#[test]
fn a_kill_needs_the_battle_won_then_the_judges_pair_of_rolls_seed_003_4_3_3() {
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..60 {
        for (a, b) in [(10, 0), (0, 10)] {
            let mut play = Play::new(armies(), seed);
            let events = play.fight(kill(), a, b);
            let won = resolution(&events[..1]).winner == SideId::A;
            let attempt = the_attempt(&events);
            follows_the_rules(&attempt, won);
            outcomes.insert(format!(
                "{:?} spared {}",
                attempt.outcome,
                attempt.spare.as_ref().is_some_and(|d| d.value >= 19)
            ));
            if attempt.outcome == AttemptOutcome::Succeeded {
                assert_eq!(play.state.killed_by_attempt(), vec!["Darkhand"]);
            }
            let next = events.last().map(|event| match event {
                BattleEvent::KillAttempted(attempt) => attempt.next_word,
                _ => 0,
            });
            assert_eq!(Some(play.state.next_word), next, "the tape continues after the attempt's dice");
        }
    }
    for seen in ["Succeeded spared false", "Failed spared false", "BattleLost spared false", "Failed spared true"] {
        assert!(outcomes.contains(seen), "{seen} never happened in 120 battles: {outcomes:?}");
    }
}

#[test]
fn damage_done_and_overkill_make_the_kill_easier_seed_003_4_3_3_and_4_3_4() {
    for seed in 0..40 {
        let events = Play::new(armies(), seed).fight(kill(), 10, 0);
        let attempt = the_attempt(&events);
        let (Some(mine), Some(theirs)) = (&attempt.attacker_roll, &attempt.target_roll) else { continue };
        let lost = casualties_of(&events);
        let fought_b: u32 = 10_000;
        let damage = (lost.b.iter().sum::<u32>() * 1000 / fought_b / 100).min(10);
        // A's top rank left: 1000 less its losses among the 500 that fought; B's: 1000 less losses.
        let overkill = 1000 - lost.a[3] > 1000 - lost.b[3];
        assert_eq!(mine.modifier, damage + if overkill { 3 } else { 0 }, "seed {seed}");
        assert_eq!(theirs.modifier, KillFormula::default().defence);
    }
}

#[test]
fn a_capture_risks_2000_of_the_lowest_rank_and_is_slightly_harder_than_a_kill_seed_003_4_5() {
    let mut short = low_armies();
    short.a.slots[0].troops = 1990;
    let refused = Play::new(short, 0).strategy(SideId::A, capture()).expect_err("refused");
    assert_eq!(
        (refused.code.as_str(), refused.rule.as_str()),
        ("coalition.battle.capture_needs_2000", "seed 003 §4.5")
    );
    let mut won_any = false;
    for seed in 0..30 {
        let events = Play::new(low_armies(), seed).fight(capture(), 10, 0);
        let attempt = the_attempt(&events);
        assert!(matches!(&events[1], BattleEvent::CaptureAttempted(_)));
        assert_eq!(attempt.risked, vec![2000, 0, 0, 0], "2000 of the lowest rank");
        if let Some(theirs) = &attempt.target_roll {
            won_any = true;
            assert_eq!(theirs.modifier, 6 + 2, "the target's defence plus the capture penalty");
        }
    }
    assert!(won_any);
}

#[test]
fn only_lieutenant_centurion_and_lt_cmdr_cpl_armies_can_be_captured_seed_003_4_5() {
    // The usual armies are Captain/Evincar class.
    let refused = Play::new(armies(), 0).strategy(SideId::A, capture()).expect_err("refused");
    assert_eq!(refused.code, "coalition.battle.capture_rank");
    let mut lieutenant = low_armies();
    lieutenant.b.rank = RankClass::CenturionLieutenant;
    Play::new(lieutenant, 0).strategy(SideId::A, capture()).expect("a Lieutenant army can be captured");
}

#[test]
fn a_captured_army_is_recorded_as_captured_by_its_captor_seed_003_4_5() {
    let captured = (0..80).find_map(|seed| {
        let mut play = Play::new(low_armies(), seed);
        let events = play.fight(capture(), 10, 0);
        (the_attempt(&events).outcome == AttemptOutcome::Succeeded).then_some(play)
    });
    let play = captured.expect("some seed captures");
    assert_eq!(play.state.captured(), vec![("Darkhand", "Sai Rei")]);
    assert!(play.state.killed_by_attempt().is_empty());
}

#[test]
fn raiders_are_hellbent_and_keep_their_kill_squads_seed_003_6_3_2() {
    let mut armies = low_armies();
    armies.a.team = Team::Mercenary;
    armies.a.mercenary = Some(MercenaryFaction::Raider);
    armies.a.controller = "gazetzot".into();
    let mut failures = 0;
    for seed in 0..40 {
        let events = Play::new(armies.clone(), seed).fight(kill(), 0, 10);
        let attempt = the_attempt(&events);
        if attempt.outcome != AttemptOutcome::Succeeded {
            failures += 1;
            assert!(attempt.hellbent && attempt.spare.is_none(), "{attempt:?}");
            assert!(attempt.risked_lost.iter().all(|t| *t == 0));
        }
    }
    assert!(failures > 0);
    // Raiders kill; they do not capture (no base or town to take an army to).
    let refused = Play::new(armies, 0).strategy(SideId::A, capture()).expect_err("refused");
    assert_eq!(refused.code, "coalition.battle.capture_by_mercenary");
}

#[test]
fn the_kill_formula_is_configurable_per_battle_before_the_dice_and_by_the_judge_only_seed_003_4_3_3() {
    let mut play = Play::new(armies(), 1);
    let options = BattleOptions {
        kill_formula: KillFormula { defence: 100, ..KillFormula::default() },
        ..BattleOptions::default()
    };
    let set = BattleCommand::SetFormulas { options: options.clone(), formula_salt: None };
    assert!(play.run(set.clone(), player_a(), before()).expect_err("a player may not").forbidden);
    play.run(set.clone(), judge(), before()).expect("the judge sets the formula");
    let events = play.fight(kill(), 10, 0);
    let attempt = the_attempt(&events);
    assert_ne!(attempt.outcome, AttemptOutcome::Succeeded, "no d20 beats a defence of 100");
    let refused = play.run(set, judge(), after()).expect_err("refused after the battle");
    assert_eq!(refused.code, "coalition.battle.already_ended");
}

#[test]
fn the_kill_formula_and_the_pairs_modifiers_are_hidden_from_non_judges_seed_003_4_3_3() {
    let mut play = Play::new(armies(), 2);
    // Before the battle, A's declaration is sealed from B with its strategy.
    play.strategy(SideId::A, kill()).expect("A's strategy");
    let submitted = play.events.last().cloned().expect("submitted");
    let mut seen_by_b = serde_json::to_value(&submitted).expect("json");
    redact_battle_event(&mut seen_by_b, &play.state, &Viewer::from(&player_b()));
    assert_eq!(seen_by_b["attempt"], "hidden");
    let mut seen_by_a = serde_json::to_value(&submitted).expect("json");
    redact_battle_event(&mut seen_by_a, &play.state, &Viewer::from(&player_a()));
    assert_eq!(seen_by_a["attempt"]["kind"], "kill");
    play.strategy(SideId::B, None).expect("B's strategy");
    let mut no_attempt = serde_json::to_value(play.events.last().expect("submitted")).expect("json");
    redact_battle_event(&mut no_attempt, &play.state, &Viewer::from(&player_a()));
    assert_eq!(no_attempt["attempt"], "hidden", "that B declared nothing is sealed too");
    for (side, bonus) in [(SideId::A, 10), (SideId::B, 0)] {
        play.run(BattleCommand::AssignStrategyBonus { side, bonus, note: None }, judge(), before()).expect("bonus");
    }
    play.run(BattleCommand::ResolveBattle { running_away: None }, judge(), after()).expect("resolved");
    for event in &play.events {
        for viewer in [Viewer::public(), Viewer::from(&player_a()), Viewer::from(&player_b())] {
            let mut data = serde_json::to_value(event).expect("json");
            redact_battle_event(&mut data, &play.state, &viewer);
            let text = data.to_string();
            match data["type"].as_str() {
                Some("coalition.BattleCreated") => assert_eq!(data["options"]["kill_formula"], "hidden", "{text}"),
                Some("coalition.KillAttempted") if data["attacker_roll"].is_object() => {
                    assert_eq!(data["attacker_roll"]["total"], "hidden");
                    assert_eq!(data["target_roll"]["modifier"], "hidden");
                }
                _ => {}
            }
        }
    }
    let public = BattleView::new(STREAM, 9, &play.state, &play.state, &Viewer::public());
    assert!(public.attempts.iter().all(|attempt| attempt.totals.is_none()));
    let judged = BattleView::new(STREAM, 9, &play.state, &play.state, &Viewer::from(&judge()));
    assert_eq!(judged.attempts.len(), 1);
}

#[test]
fn a_contingency_may_send_the_strategy_in_the_last_24_hours_and_the_controllers_wins_seed_003_5_2_3() {
    let mut sides = armies();
    sides.a.contingency = Some("mallory".into());
    let mut play = Play::new(sides, 0);
    let early = play.run(strategy_for(SideId::A, None), bystander(), at(0) - chrono::Duration::minutes(1));
    let early = early.expect_err("too early");
    assert_eq!(early.code, "coalition.battle.contingency_too_early");
    let outsider = Actor::player("player:eve", "eve");
    assert!(play.run(strategy_for(SideId::A, None), outsider, at(12)).expect_err("not hers").forbidden);
    let sent = play.run(strategy_for(SideId::A, None), bystander(), at(12)).expect("in the last 24 hours");
    assert!(matches!(&sent[..], [BattleEvent::StrategySubmitted { contingency: true, .. }]));
    assert!(play.state.sides.a.has_strategy(), "the contingency's strategy counts while the controller sends none");
    play.run(BattleCommand::AssignStrategyBonus { side: SideId::A, bonus: 4, note: None }, judge(), at(13))
        .expect("judged");
    play.run(strategy_for(SideId::A, None), player_a(), at(14)).expect("the controller's own");
    assert_eq!(play.state.sides.a.strategy_bonus, None, "the controller's strategy is the one to judge now");
    play.run(strategy_for(SideId::A, None), bystander(), at(15)).expect("the contingency again");
    let counting = play.state.sides.a.counting_strategy().expect("a strategy");
    assert_eq!(counting.by, "player:gazetzot", "if both send, the controller's is used");
}

#[test]
fn a_sanction_in_the_last_24_hours_reduces_the_army_and_extends_that_sides_deadline_seed_003_5_4_1() {
    let mut play = Play::new(armies(), 0);
    let sanction = |losses: Vec<u32>| BattleCommand::ApplySanction {
        army: "Sai Rei".into(),
        losses,
        extension: true,
        reason: "posted orders for Darkhand".into(),
    };
    play.run(sanction(vec![200, 100, 50, 20]), judge(), at(0) - chrono::Duration::hours(2)).expect("applied early");
    assert_eq!(play.state.deadline_of(SideId::A), Some(deadline()), "no extension more than 24 hours out");
    let applied = play.run(sanction(vec![100, 50, 25, 10]), judge(), at(20)).expect("applied late");
    let BattleEvent::SanctionApplied { extended_to, .. } = &applied[0] else { panic!("{applied:?}") };
    assert_eq!(*extended_to, Some(deadline() + chrono::Duration::hours(24)));
    let troops: Vec<u32> = play.state.sides.a.army.as_ref().expect("army").slots.iter().map(|s| s.troops).collect();
    assert_eq!(troops, vec![4700, 2350, 1425, 970], "the real controller fights with the reduced numbers");
    // A rewrites after the battle's deadline, within the extension; B may not.
    play.run(strategy_for(SideId::A, None), player_a(), deadline() + chrono::Duration::hours(10)).expect("extended");
    let late = play.run(strategy_for(SideId::B, None), player_b(), deadline() + chrono::Duration::hours(10));
    assert_eq!(late.expect_err("B has no extension").code, "coalition.battle.strategy_after_deadline");
    assert!(play.run(sanction(vec![0, 0, 0, 0]), player_b(), at(21)).expect_err("judges only").forbidden);
}

#[test]
fn the_weather_is_posted_with_the_battle_seed_003_4_1_2_5() {
    let mut play = Play::new(armies(), 0);
    play.run(BattleCommand::SetWeather { weather: "fog until noon".into() }, judge(), at(1)).expect("posted");
    assert_eq!(play.state.weather.as_deref(), Some("fog until noon"));
    let view = BattleView::new(STREAM, 2, &play.state, &play.state, &Viewer::public());
    assert_eq!(view.weather.as_deref(), Some("fog until noon"));
    let refused = play.run(BattleCommand::SetWeather { weather: " ".into() }, judge(), at(1)).expect_err("empty");
    assert_eq!(refused.code, "coalition.battle.weather_text");
}

#[test]
fn a_battle_with_attempts_replays_to_the_same_state() {
    let mut play = Play::new(armies(), 7);
    play.fight(kill(), 6, 3);
    assert_eq!(CoalitionBattle::fold(&play.events), play.state);
}

/// docs/DICE.md, "Coalition battle" step 5: the damage bonus reads the troops the target lost,
/// not the casualty rate (seed 003 §4.3.3). Slots of 4,995 and 5,005 at a rate of 200 (20 %) lose
/// 990 + 1,000 = 1,990 troops (each slot rounded down to a multiple of 10): 199 tenths of a
/// percent, a bonus of 1 with `damage_step` 100, where the rate would give 2.
#[test]
fn the_damage_bonus_reads_the_troops_lost_not_the_casualty_rate() {
    use herald_domain::{
        coalition::battle::attempt::{resolve, AttackerAfter, TargetAfter},
        dice::DiceTape,
    };
    let armies = armies();
    let mut target = armies.b.clone();
    target.slots.truncate(2);
    target.slots[0].troops = 4_995;
    target.slots[1].troops = 5_005;
    let formula = KillFormula { defence: 0, overkill: 0, ..KillFormula::default() };
    let attacker =
        AttackerAfter { army: &armies.a, side: SideId::A, risked: &[500, 0, 0, 0], losses: &[0, 0, 0, 0], won: true };
    let target = TargetAfter { army: &target, fought: &[4_995, 5_005], losses: &[990, 1_000] };
    let resolved =
        resolve(&formula, AttemptKind::Kill, attacker, target, &mut DiceTape::new([7; 32], 0)).expect("the dice roll");
    assert_eq!(resolved.attacker_roll.expect("the pair was rolled").modifier, 1);
}
