//! The coalition battle decider, rule by rule (seed 003 ch. 4; service rules in
//! docs/rulesets/coalition-battle.md). Each test names the section it checks.

#[path = "coalition_battle_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{Color, RankClass, Team},
        battle::{
            command::Engagement, event::Casualties, state::BattleStatus, BattleCommand, BattleEvent, BattleOptions,
            CoalitionBattle, SideId, Sides,
        },
    },
    dice::seed,
    Actor, Decider, RuleError,
};
use support::*;

fn submit(side: SideId) -> BattleCommand {
    BattleCommand::SubmitStrategy {
        side,
        strategy: format!("side {side} flanks through the forest"),
        army: None,
        attempt: None,
        departure: None,
    }
}

fn assign(side: SideId, bonus: u8) -> BattleCommand {
    BattleCommand::AssignStrategyBonus { side, bonus, note: Some("sound plan".into()) }
}

fn resolve() -> BattleCommand {
    BattleCommand::ResolveBattle { running_away: None }
}

fn default_create() -> BattleCommand {
    create(armies(), BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0)
}

fn resolved_events(a: u8, b: u8) -> Vec<BattleEvent> {
    let mut events = judged(a, b);
    events.extend(given(judged(a, b)).when(resolve(), judge(), after()).events());
    events
}

// ---------------------------------------------------------------------------------------------
// A data-driven table of refusals: given, when, by whom, at what time, then which code.

struct Refusal {
    name: &'static str,
    given: Vec<BattleEvent>,
    when: BattleCommand,
    actor: Actor,
    time: chrono::DateTime<chrono::Utc>,
    code: &'static str,
    forbidden: bool,
}

fn refusal(
    name: &'static str,
    given: Vec<BattleEvent>,
    when: BattleCommand,
    actor: Actor,
    time: chrono::DateTime<chrono::Utc>,
    code: &'static str,
) -> Refusal {
    let forbidden = matches!(
        code,
        "coalition.battle.judge_only" | "coalition.battle.not_controller" | "coalition.battle.not_participant"
    );
    Refusal { name, given, when, actor, time, code, forbidden }
}

#[test]
fn every_refusal_carries_its_stable_code_and_rule() {
    let killed = vec![created_with(
        Sides { a: armies().a, b: emptied(armies().b) },
        BattleOptions::default(),
        Engagement::NoAttacker,
        0,
    )];
    let killed = {
        let mut events = killed;
        events.push(BattleEvent::ArmyKilled { side: SideId::B, rule: "seed 003 §4.3.1".into() });
        events
    };
    let one_strategy = vec![created(), strategy_submitted(SideId::A)];
    let table = vec![
        // Service rules: a battle must exist, and only once.
        refusal(
            "strategy before the battle exists",
            vec![],
            submit(SideId::A),
            player_a(),
            before(),
            "coalition.battle.not_found",
        ),
        refusal("resolve before the battle exists", vec![], resolve(), judge(), after(), "coalition.battle.not_found"),
        refusal(
            "reveal before the battle exists",
            vec![],
            BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None },
            judge(),
            after(),
            "coalition.battle.not_found",
        ),
        refusal(
            "a second creation",
            vec![created()],
            default_create(),
            judge(),
            before(),
            "coalition.battle.already_exists",
        ),
        // seed 003 §1.3: the battle judge operates the battle system.
        refusal(
            "a player opens a battle",
            vec![],
            default_create(),
            player_a(),
            before(),
            "coalition.battle.judge_only",
        ),
        refusal(
            "an observer opens a battle",
            vec![],
            default_create(),
            observer(),
            before(),
            "coalition.battle.judge_only",
        ),
        refusal(
            "a player assigns a bonus",
            one_strategy.clone(),
            assign(SideId::A, 5),
            player_a(),
            before(),
            "coalition.battle.judge_only",
        ),
        refusal("a player resolves", judged(5, 5), resolve(), player_a(), after(), "coalition.battle.judge_only"),
        refusal("the service resolves", judged(5, 5), resolve(), system(), after(), "coalition.battle.judge_only"),
        // seed 003 §4.1.1, §5.4.1: a strategy comes from the army's controller.
        refusal(
            "A's controller writes B's strategy",
            vec![created()],
            submit(SideId::B),
            player_a(),
            before(),
            "coalition.battle.not_controller",
        ),
        refusal(
            "a bystander writes a strategy",
            vec![created()],
            submit(SideId::A),
            bystander(),
            before(),
            "coalition.battle.not_controller",
        ),
        refusal(
            "an observer writes a strategy",
            vec![created()],
            submit(SideId::A),
            observer(),
            before(),
            "coalition.battle.not_controller",
        ),
        refusal(
            "a strategy after the deadline",
            vec![created()],
            submit(SideId::A),
            player_a(),
            after(),
            "coalition.battle.strategy_after_deadline",
        ),
        refusal(
            "a judge's strategy after the deadline",
            vec![created()],
            submit(SideId::A),
            judge(),
            after(),
            "coalition.battle.strategy_after_deadline",
        ),
        refusal(
            "an empty strategy",
            vec![created()],
            BattleCommand::SubmitStrategy {
                side: SideId::A,
                strategy: "  \n".into(),
                army: None,
                attempt: None,
                departure: None,
            },
            player_a(),
            before(),
            "coalition.battle.strategy_empty",
        ),
        refusal(
            "a strategy after resolution",
            resolved_events(5, 5),
            submit(SideId::A),
            player_a(),
            before(),
            "coalition.battle.already_ended",
        ),
        // seed 003 §4.2.1: bonuses are 0 to 10, for strategies that were sent.
        refusal(
            "a bonus of 11",
            one_strategy.clone(),
            assign(SideId::A, 11),
            judge(),
            before(),
            "coalition.battle.bonus_out_of_range",
        ),
        refusal(
            "a bonus for a side without a strategy",
            one_strategy.clone(),
            assign(SideId::B, 3),
            judge(),
            before(),
            "coalition.battle.strategy_missing",
        ),
        refusal(
            "a bonus after resolution",
            resolved_events(5, 5),
            assign(SideId::A, 3),
            judge(),
            after(),
            "coalition.battle.already_ended",
        ),
        // seed 003 §4.1.1: resolved once both strategies are in, or after the deadline.
        refusal(
            "resolve with one strategy before the deadline",
            one_strategy.clone(),
            resolve(),
            judge(),
            before(),
            "coalition.battle.resolve_too_early",
        ),
        refusal(
            "resolve with no strategy before the deadline",
            vec![created()],
            resolve(),
            judge(),
            deadline(),
            "coalition.battle.resolve_too_early",
        ),
        refusal(
            "resolve before a bonus is assigned",
            vec![created(), strategy_submitted(SideId::A), strategy_submitted(SideId::B), bonus_assigned(SideId::A, 4)],
            resolve(),
            judge(),
            after(),
            "coalition.battle.strategy_bonus_missing",
        ),
        refusal("resolve twice", resolved_events(5, 5), resolve(), judge(), after(), "coalition.battle.already_ended"),
        refusal(
            "resolve a battle ended by a kill",
            killed.clone(),
            resolve(),
            judge(),
            after(),
            "coalition.battle.already_ended",
        ),
        refusal(
            "a strategy in a battle ended by a kill",
            killed.clone(),
            submit(SideId::A),
            player_a(),
            before(),
            "coalition.battle.already_ended",
        ),
        // Entropy (DESIGN.md "Dice that anyone can check").
        refusal(
            "a bystander contributes entropy",
            vec![created()],
            BattleCommand::ContributeEntropy { entropy: "x".into() },
            bystander(),
            before(),
            "coalition.battle.not_participant",
        ),
        refusal(
            "an observer contributes entropy",
            vec![created()],
            BattleCommand::ContributeEntropy { entropy: "x".into() },
            observer(),
            before(),
            "coalition.battle.not_participant",
        ),
        refusal(
            "entropy after the first roll",
            resolved_events(5, 5),
            BattleCommand::ContributeEntropy { entropy: "x".into() },
            player_a(),
            after(),
            "coalition.battle.entropy_after_first_roll",
        ),
        refusal(
            "entropy in a battle ended by a kill",
            killed.clone(),
            BattleCommand::ContributeEntropy { entropy: "x".into() },
            judge(),
            before(),
            "coalition.battle.already_ended",
        ),
        refusal(
            "empty entropy",
            vec![created()],
            BattleCommand::ContributeEntropy { entropy: String::new() },
            player_a(),
            before(),
            "coalition.battle.entropy_empty",
        ),
        refusal(
            "entropy of 1025 characters",
            vec![created()],
            BattleCommand::ContributeEntropy { entropy: "é".repeat(1025) },
            player_a(),
            before(),
            "coalition.battle.entropy_too_long",
        ),
        // Overrides (seed 003 §4.2.5–4.2.6).
        refusal(
            "an override before resolution",
            judged(5, 5),
            BattleCommand::OverrideCasualties { side: SideId::A, losses: vec![0, 0, 0, 0], reason: "r".into() },
            judge(),
            after(),
            "coalition.battle.not_resolved",
        ),
        refusal(
            "an override of a kill",
            killed.clone(),
            BattleCommand::OverrideCasualties { side: SideId::A, losses: vec![0, 0, 0, 0], reason: "r".into() },
            judge(),
            after(),
            "coalition.battle.not_resolved",
        ),
        refusal(
            "an override by a player",
            resolved_events(5, 5),
            BattleCommand::OverrideCasualties { side: SideId::A, losses: vec![0, 0, 0, 0], reason: "r".into() },
            player_a(),
            after(),
            "coalition.battle.judge_only",
        ),
        refusal(
            "an override with three losses for four slots",
            resolved_events(5, 5),
            BattleCommand::OverrideCasualties { side: SideId::A, losses: vec![0, 0, 0], reason: "r".into() },
            judge(),
            after(),
            "coalition.battle.losses_slot_count",
        ),
        refusal(
            "an override above a slot's troops",
            resolved_events(5, 5),
            BattleCommand::OverrideCasualties { side: SideId::B, losses: vec![0, 0, 0, 1001], reason: "r".into() },
            judge(),
            after(),
            "coalition.battle.losses_exceed_troops",
        ),
        refusal(
            "an override without a reason",
            resolved_events(5, 5),
            BattleCommand::OverrideCasualties { side: SideId::A, losses: vec![0, 0, 0, 0], reason: " ".into() },
            judge(),
            after(),
            "coalition.battle.reason_required",
        ),
        // Seeds (DESIGN.md "Dice that anyone can check").
        refusal(
            "a reveal by a player",
            resolved_events(5, 5),
            BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None },
            player_a(),
            after(),
            "coalition.battle.judge_only",
        ),
        refusal(
            "a reveal by an observer",
            resolved_events(5, 5),
            BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None },
            observer(),
            after(),
            "coalition.battle.judge_only",
        ),
        refusal(
            "a reveal of the wrong seed",
            resolved_events(5, 5),
            BattleCommand::RevealSeed { seed: hex::encode(server_seed(1)), next_commitment: None },
            judge(),
            after(),
            "coalition.battle.seed_mismatch",
        ),
        refusal(
            "a reveal of a malformed seed",
            resolved_events(5, 5),
            BattleCommand::RevealSeed { seed: "not hex".into(), next_commitment: None },
            system(),
            after(),
            "coalition.battle.seed_malformed",
        ),
    ];
    for case in table {
        let result = given(case.given).when(case.when, case.actor, case.time).result;
        let error: RuleError = match result {
            Ok(events) => panic!("{}: expected {}, got {events:?}", case.name, case.code),
            Err(error) => error,
        };
        assert_eq!(error.code, case.code, "{}: {}", case.name, error.message);
        assert_eq!(error.forbidden, case.forbidden, "{}: forbidden flag", case.name);
        assert!(
            error.rule.starts_with("seed 003 §")
                || error.rule.starts_with("seed 003 ch.")
                || error.rule.starts_with("herald: "),
            "{}: rule reference {}",
            case.name,
            error.rule
        );
    }
}

fn emptied(mut army: herald_domain::coalition::army::ArmySpec) -> herald_domain::coalition::army::ArmySpec {
    army.slots.iter_mut().for_each(|slot| slot.troops = 0);
    army
}

// ---------------------------------------------------------------------------------------------
// Opening a battle

#[test]
fn a_judge_opens_a_battle_and_commits_the_seed_seed_003_4_1_1() {
    given([]).when(default_create(), judge(), at(0)).then(vec![created()]);
}

#[test]
fn a_battle_whose_strategy_deadline_has_passed_is_refused_at_creation_seed_003_4_1_1() {
    // The deadline is hour 24 of the test day; the time is the command's recorded time.
    let error = given([]).when(default_create(), judge(), after()).then_error("coalition.battle.deadline_passed");
    assert_eq!(error.rule, "seed 003 §4.1.1");
    // At the deadline itself a strategy may still arrive (as `submit_strategy` reads it).
    given([]).when(default_create(), judge(), deadline()).then(vec![created()]);
}

#[test]
fn an_admin_may_stand_in_for_the_judge_to_open_a_battle_seed_003_1_3() {
    given([]).when(default_create(), admin(), at(0)).then(vec![created()]);
}

#[test]
fn an_uppercase_commitment_is_stored_in_lowercase_herald_service_rule() {
    let BattleCommand::CreateBattle {
        armies, engagement, terrain, strategy_deadline, options, seed_commitment, ..
    } = default_create()
    else {
        panic!("default_create builds a CreateBattle");
    };
    let command = BattleCommand::CreateBattle {
        armies,
        partners: vec![],
        weather: None,
        engagement,
        terrain,
        strategy_deadline,
        options,
        seed_commitment: seed_commitment.to_ascii_uppercase(),
        formula_opening: Default::default(),
        formula_salt: None,
    };
    given([]).when(command, judge(), at(0)).then(vec![created()]);
}

#[test]
fn army_validation_refuses_what_a_battle_cannot_use_seed_003_2_1_and_3_3_1() {
    let cases: Vec<(&str, Sides<herald_domain::coalition::army::ArmySpec>, BattleOptions, &str, &str)> = vec![
        (
            "a nameless army",
            with_a(|army| army.name = " ".into()),
            BattleOptions::default(),
            "coalition.battle.army_name_required",
            "seed 003 §2.5.2.2",
        ),
        (
            "an army without a controller",
            with_a(|army| army.controller = String::new()),
            BattleOptions::default(),
            "coalition.battle.controller_required",
            "seed 003 §4.1.1",
        ),
        (
            "an army without slots",
            with_a(|army| army.slots.clear()),
            BattleOptions::default(),
            "coalition.battle.army_without_slots",
            "seed 003 §2.1",
        ),
        (
            "seven creature types",
            with_a(|army| {
                let extra: Vec<_> = (0..3).map(|i| slot(&format!("extra {i}"), &[Color::Red], 1, 10)).collect();
                army.slots.extend(extra);
            }),
            BattleOptions::default(),
            "coalition.battle.too_many_creature_types",
            "seed 003 §2.1",
        ),
        (
            "a slot without a creature",
            with_a(|army| army.slots[0].creature = String::new()),
            BattleOptions::default(),
            "coalition.battle.creature_name_required",
            "seed 003 §2.1",
        ),
        (
            "an army against itself",
            with_a(|army| army.name = "Darkhand".into()),
            BattleOptions::default(),
            "coalition.battle.same_army",
            "seed 003 §3.3.1",
        ),
        (
            "two Coalition armies",
            with_a(|army| army.team = Team::Phyrexia),
            BattleOptions::default(),
            "coalition.battle.friendly_armies",
            "seed 003 §3.3.1",
        ),
        (
            "two mercenaries",
            Sides { a: merc("Raider 1"), b: merc("Raider 2") },
            BattleOptions::default(),
            "coalition.battle.friendly_armies",
            "seed 003 ch. 6",
        ),
        (
            "a casualty cap above 100%",
            armies(),
            options_with_max(1001),
            "coalition.battle.casualty_formula_invalid",
            "herald: docs/rulesets/coalition-battle.md",
        ),
        (
            "a casualty base above the cap",
            armies(),
            options_with_max(40),
            "coalition.battle.casualty_formula_invalid",
            "herald: docs/rulesets/coalition-battle.md",
        ),
    ];
    for (name, armies, options, code, rule) in cases {
        let command = create(armies, options, Engagement::NoAttacker, 0);
        let error = given([]).when(command, judge(), at(0)).then_error(code);
        assert_eq!(error.rule, rule, "{name}");
    }
}

fn with_a(
    change: impl FnOnce(&mut herald_domain::coalition::army::ArmySpec),
) -> Sides<herald_domain::coalition::army::ArmySpec> {
    let mut sides = armies();
    change(&mut sides.a);
    sides
}

fn merc(name: &str) -> herald_domain::coalition::army::ArmySpec {
    full_army(name, Team::Mercenary, RankClass::CenturionLieutenant, "mercenary-judge", &[Color::Black])
}

fn options_with_max(max: u32) -> BattleOptions {
    let mut options = BattleOptions::default();
    options.casualty_formula.max = max;
    options
}

#[test]
fn a_mercenary_may_fight_either_team_seed_003_ch_6() {
    for army in [armies().a, armies().b] {
        let sides = Sides { a: army, b: merc("Raider 1") };
        let command = create(sides.clone(), BattleOptions::default(), Engagement::NoAttacker, 0);
        given([]).when(command, judge(), at(0)).then(vec![created_with(
            sides,
            BattleOptions::default(),
            Engagement::NoAttacker,
            0,
        )]);
    }
}

#[test]
fn a_seed_commitment_must_be_64_hex_digits_herald_service_rule() {
    for bad in ["", "abc", &"g".repeat(64), &"a".repeat(63), &"a".repeat(65)] {
        let command = BattleCommand::CreateBattle {
            armies: armies(),
            partners: vec![],
            weather: None,
            engagement: Engagement::NoAttacker,
            terrain: None,
            strategy_deadline: deadline(),
            options: BattleOptions::default(),
            seed_commitment: bad.to_string(),
            formula_opening: Default::default(),
            formula_salt: None,
        };
        given([]).when(command, judge(), at(0)).then_error("coalition.battle.seed_commitment_malformed");
    }
}

#[test]
fn an_empty_army_is_killed_on_engagement_without_dice_seed_003_4_3_1() {
    let sides = Sides { a: armies().a, b: emptied(armies().b) };
    let command = create(sides.clone(), BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0);
    let then = given([]).when(command, judge(), at(0));
    let state = then.state_after();
    assert_eq!(state.status, BattleStatus::Killed);
    assert_eq!(state.winner, Some(SideId::A));
    assert_eq!(state.killed, vec![SideId::B]);
    assert_eq!(state.next_word, 0, "no dice for a kill");
    let command = create(sides.clone(), BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0);
    given([]).when(command, judge(), at(0)).then(vec![
        created_with(sides, BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0),
        BattleEvent::ArmyKilled { side: SideId::B, rule: "seed 003 §4.3.1".into() },
    ]);
}

#[test]
fn two_empty_armies_are_both_killed_and_nobody_wins_seed_003_4_3_1() {
    let sides = Sides { a: emptied(armies().a), b: emptied(armies().b) };
    let command = create(sides.clone(), BattleOptions::default(), Engagement::NoAttacker, 0);
    let events = given([]).when(command, judge(), at(0)).events();
    assert_eq!(
        events[1..],
        [
            BattleEvent::ArmyKilled { side: SideId::A, rule: "seed 003 §4.3.1".into() },
            BattleEvent::ArmyKilled { side: SideId::B, rule: "seed 003 §4.3.1".into() },
        ]
    );
    let state = <CoalitionBattle as Decider>::fold(&events);
    assert_eq!(state.winner, None);
    assert_eq!(state.killed, vec![SideId::A, SideId::B]);
}

#[test]
fn an_army_with_troops_left_in_one_slot_is_not_killed_seed_003_4_3_1() {
    let mut b = emptied(armies().b);
    b.slots[3].troops = 10;
    let sides = Sides { a: armies().a, b };
    let command = create(sides, BattleOptions::default(), Engagement::NoAttacker, 0);
    assert_eq!(given([]).when(command, judge(), at(0)).events().len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Entropy

#[test]
fn controllers_and_judges_may_contribute_entropy_before_the_first_roll() {
    for (actor, id) in [(player_a(), "player:gazetzot"), (player_b(), "player:vorn"), (judge(), "judge:alice")] {
        given([created()])
            .when(BattleCommand::ContributeEntropy { entropy: "é".repeat(1024) }, actor, before())
            .then(vec![BattleEvent::EntropyContributed { by: id.into(), entropy: "é".repeat(1024) }]);
    }
}

#[test]
fn entropy_changes_the_dice() {
    let plain = resolution(&given(judged(5, 5)).when(resolve(), judge(), after()).events());
    let mut events = judged(5, 5);
    events.push(BattleEvent::EntropyContributed { by: "player:vorn".into(), entropy: "lucky".into() });
    let mixed = resolution(&given(events).when(resolve(), judge(), after()).events());
    assert_ne!(plain.dice, mixed.dice);
}

#[test]
fn no_entropy_once_the_seed_is_revealed() {
    let mut events = vec![created()];
    events.extend(
        given(events.clone())
            .when(
                BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None },
                judge(),
                before(),
            )
            .events(),
    );
    given(events)
        .when(BattleCommand::ContributeEntropy { entropy: "chosen".into() }, player_a(), before())
        .then_error("coalition.battle.entropy_after_reveal");
}

// ---------------------------------------------------------------------------------------------
// Strategies (seed 003 §4.1.1)

#[test]
fn the_controller_sends_a_strategy_before_the_deadline_seed_003_4_1_1() {
    given([created()]).when(submit(SideId::A), player_a(), before()).then(vec![BattleEvent::StrategySubmitted {
        side: SideId::A,
        strategy: "side a flanks through the forest".into(),
        by: "player:gazetzot".into(),
        at: before(),
        army: None,
        attempt: None,
        departure: None,
        contingency: false,
    }]);
}

#[test]
fn a_strategy_at_the_deadline_itself_is_in_time_seed_003_4_1_1() {
    assert_eq!(given([created()]).when(submit(SideId::B), player_b(), deadline()).events().len(), 1);
}

#[test]
fn a_judge_may_enter_a_strategy_for_a_side_seed_003_4_1_1() {
    let events = given([created()]).when(submit(SideId::B), judge(), before()).events();
    assert!(matches!(&events[..], [BattleEvent::StrategySubmitted { side: SideId::B, by, .. }] if by == "judge:alice"));
}

#[test]
fn a_resubmission_before_the_deadline_replaces_the_earlier_strategy_and_its_bonus_seed_003_3_3_6() {
    let given_events = vec![created(), strategy_submitted(SideId::A), bonus_assigned(SideId::A, 7)];
    let command = BattleCommand::SubmitStrategy {
        side: SideId::A,
        strategy: "second thoughts".into(),
        army: None,
        attempt: None,
        departure: None,
    };
    let state = given(given_events).when(command, player_a(), at(20)).state_after();
    let side = &state.sides.a;
    assert_eq!(side.strategy.as_ref().map(|strategy| strategy.text.as_str()), Some("second thoughts"));
    assert_eq!(side.strategy_bonus, None, "the bonus judged the replaced strategy");
}

// ---------------------------------------------------------------------------------------------
// Strategy bonus (seed 003 §4.2.1)

#[test]
fn the_judge_assigns_a_strategy_bonus_from_0_to_10_seed_003_4_2_1() {
    for bonus in [0, 10] {
        given([created(), strategy_submitted(SideId::A)])
            .when(BattleCommand::AssignStrategyBonus { side: SideId::A, bonus, note: None }, judge(), before())
            .then(vec![bonus_assigned(SideId::A, bonus)]);
    }
}

// ---------------------------------------------------------------------------------------------
// Resolution (seed 003 §4.2)

#[test]
fn with_both_strategies_in_the_judge_may_resolve_before_the_deadline_seed_003_4_1_1() {
    let resolved = resolution(&given(judged(6, 4)).when(resolve(), judge(), before()).events());
    assert_eq!(resolved.bonuses.a.strategy, 6);
    assert_eq!(resolved.bonuses.b.strategy, 4);
}

#[test]
fn four_d20_per_side_are_drawn_a_first_then_b_and_modified_by_all_bonuses_seed_003_4_2_4() {
    let then = given(judged(6, 4)).when(resolve(), judge(), after());
    let resolved = resolution(&then.events());
    assert_eq!(resolved.dice.a.len(), 4);
    assert_eq!(resolved.dice.b.len(), 4);
    let purposes: Vec<&str> =
        resolved.dice.a.iter().chain(&resolved.dice.b).map(|die| die.draw.purpose.as_str()).collect();
    assert_eq!(
        purposes,
        [
            "side a die 1",
            "side a die 2",
            "side a die 3",
            "side a die 4",
            "side b die 1",
            "side b die 2",
            "side b die 3",
            "side b die 4"
        ]
    );
    let words: Vec<u64> = resolved.dice.a.iter().chain(&resolved.dice.b).map(|die| die.draw.word).collect();
    assert!(words.windows(2).all(|pair| pair[0] < pair[1]), "drawn in order: {words:?}");
    // Equal armies, both mono-red: no size bonus, +1 color each (§4.2.2, §4.2.3).
    assert_eq!(resolved.bonuses.a.size, 0);
    assert_eq!(resolved.bonuses.a.color, 1);
    assert_eq!(resolved.bonuses.b.color, 1);
    for (side, dice) in [(SideId::A, &resolved.dice.a), (SideId::B, &resolved.dice.b)] {
        for die in dice {
            assert_eq!(die.draw.sides, 20);
            assert!((1..=20).contains(&die.draw.value));
            assert_eq!(die.total, die.draw.value + resolved.bonuses.get(side).total());
        }
    }
    for (i, pair) in resolved.pairs.iter().enumerate() {
        let (a, b) = (resolved.dice.a[i].total, resolved.dice.b[i].total);
        let expected = match a.cmp(&b) {
            std::cmp::Ordering::Greater => herald_domain::coalition::battle::event::PairWinner::A,
            std::cmp::Ordering::Less => herald_domain::coalition::battle::event::PairWinner::B,
            std::cmp::Ordering::Equal => herald_domain::coalition::battle::event::PairWinner::Tie,
        };
        assert_eq!(*pair, expected, "pair {i}: {a} against {b}");
    }
}

#[test]
fn the_resolution_records_where_the_tape_stopped() {
    let resolved = resolution(&given(judged(5, 5)).when(resolve(), judge(), after()).events());
    let last = resolved.dice.b.last().map(|die| die.draw.word).unwrap_or_default();
    let roll_off_words = resolved.tie_break.iter().flat_map(|tie| &tie.roll_off).count() as u64 * 2;
    assert!(resolved.next_word > last);
    assert!(resolved.next_word >= 8 + roll_off_words);
    let state = given(resolved_events(5, 5)).when(resolve(), judge(), after()).state;
    assert_eq!(state.next_word, resolved.next_word);
}

#[test]
fn the_side_that_wins_more_pairs_wins_seed_003_4_2_4() {
    // A +10 strategy against 0 is not a sure thing, but over a few seeds each winner must match the pairs.
    for n in 0..20 {
        let resolved = resolution(&given(judged(10, 0)).seed(n).when(resolve(), judge(), after()).events());
        if resolved.pairs_won.a != resolved.pairs_won.b {
            let expected = if resolved.pairs_won.a > resolved.pairs_won.b { SideId::A } else { SideId::B };
            assert_eq!(resolved.winner, expected, "seed {n}");
            assert!(resolved.tie_break.is_none());
            assert!(resolved.decided_by.contains("pairs to"), "{}", resolved.decided_by);
        }
    }
}

#[test]
fn a_stratless_side_loses_its_enemy_gets_ten_and_it_still_rolls_seed_003_4_2_1_and_4_2_4() {
    for n in 0..12 {
        let events = vec![created(), strategy_submitted(SideId::A)];
        let resolved = resolution(&given(events).seed(n).when(resolve(), judge(), after()).events());
        assert_eq!(resolved.stratless, vec![SideId::B]);
        assert_eq!(resolved.bonuses.a.strategy, 10, "§4.2.1: the full +10, no assignment needed");
        assert_eq!(resolved.bonuses.b.strategy, 0);
        assert_eq!(resolved.dice.b.len(), 4, "§4.2.4: rolls anyway, for damage");
        assert_eq!(resolved.winner, SideId::A, "seed {n}: automatic loss regardless of dice");
        assert!(resolved.tie_break.is_none());
        assert!(resolved.decided_by.contains("no strategy"), "{}", resolved.decided_by);
        assert!(resolved.casualties.b.rate_tenths_percent.is_some(), "damage from the dice");
    }
}

#[test]
fn the_full_bonus_for_a_stratless_enemy_replaces_the_judges_assignment_seed_003_4_2_1() {
    let events = vec![created(), strategy_submitted(SideId::B), bonus_assigned(SideId::B, 3)];
    let resolved = resolution(&given(events).when(resolve(), judge(), after()).events());
    assert_eq!(resolved.bonuses.b.strategy, 10);
    assert_eq!(resolved.winner, SideId::B);
}

#[test]
fn a_stratless_side_that_wins_the_dice_still_loses_seed_003_4_2_4() {
    // Find a seed where stratless B wins more pairs despite A's +10.
    let found = (0..2000).find_map(|n| {
        let events = vec![created(), strategy_submitted(SideId::A)];
        let resolved = resolution(&given(events).seed(n).when(resolve(), judge(), after()).events());
        (resolved.pairs_won.b > resolved.pairs_won.a).then_some(resolved)
    });
    let resolved = found.expect("some seed lets the stratless side win the dice");
    assert_eq!(resolved.winner, SideId::A);
}

#[test]
fn when_both_sides_are_stratless_both_get_0_and_the_dice_decide_herald_default() {
    for n in 0..12 {
        let resolved = resolution(&given([created()]).seed(n).when(resolve(), judge(), after()).events());
        assert_eq!(resolved.stratless, vec![SideId::A, SideId::B]);
        assert_eq!((resolved.bonuses.a.strategy, resolved.bonuses.b.strategy), (0, 0));
        if resolved.tie_break.is_none() {
            assert_ne!(resolved.pairs_won.a, resolved.pairs_won.b);
            let more = if resolved.pairs_won.a > resolved.pairs_won.b { SideId::A } else { SideId::B };
            assert_eq!(resolved.winner, more);
        } else {
            assert_eq!(resolved.pairs_won.a, resolved.pairs_won.b);
        }
    }
}

#[test]
fn the_larger_army_gets_the_size_bonus_at_resolution_seed_003_4_2_2() {
    let sides = Sides {
        a: full_army("General", Team::Coalition, RankClass::ChiefPraetorGeneral, "gazetzot", &[Color::Red]),
        b: full_army("Centurion", Team::Phyrexia, RankClass::CenturionLieutenant, "vorn", &[Color::Black, Color::Red]),
    };
    let mut events = vec![created_with(sides, BattleOptions::default(), Engagement::Attack { attacker: SideId::B }, 0)];
    events.extend([strategy_submitted(SideId::A), strategy_submitted(SideId::B)]);
    events.extend([bonus_assigned(SideId::A, 2), bonus_assigned(SideId::B, 8)]);
    let resolved = resolution(&given(events).when(resolve(), judge(), after()).events());
    // 137000 against 37000 weighted troops: round(10 × (1 − 37/137)) = 7.
    assert_eq!((resolved.bonuses.a.size, resolved.bonuses.b.size), (7, 0));
    assert_eq!(resolved.bonuses.a.total(), 2 + 7 + 1);
    assert_eq!(resolved.bonuses.b.total(), 8 + 1);
}

#[test]
fn the_color_bonus_at_resolution_ignores_dead_slots_seed_003_4_2_3() {
    // The seed's third example as side A: 3000 R/G, 1600 R/G, 0 U/G, 400 R/U.
    let mut a = armies().a;
    a.slots = vec![
        slot("Kird Ape", &[Color::Red, Color::Green], 4, 3000),
        slot("Rubblebelt Raiders", &[Color::Red, Color::Green], 5, 1600),
        slot("Coiling Oracle", &[Color::Blue, Color::Green], 6, 0),
        slot("Izzet Chronarch", &[Color::Red, Color::Blue], 7, 400),
    ];
    let mut b = armies().b;
    b.slots[0].colors = vec![Color::Blue];
    let mut events = vec![created_with(Sides { a, b }, BattleOptions::default(), Engagement::NoAttacker, 0)];
    events.extend([strategy_submitted(SideId::A), strategy_submitted(SideId::B)]);
    events.extend([bonus_assigned(SideId::A, 5), bonus_assigned(SideId::B, 5)]);
    let resolved = resolution(&given(events).when(resolve(), judge(), after()).events());
    assert_eq!(resolved.bonuses.a.color, 1);
    assert_eq!(resolved.bonuses.b.color, 0);
}

// ---------------------------------------------------------------------------------------------
// Casualties (seed 003 §4.2.5–4.2.6)

#[test]
fn both_sides_take_formula_casualties_from_the_dice_seed_003_4_2_5() {
    let resolved = resolution(&given(judged(5, 5)).when(resolve(), judge(), after()).events());
    for side in SideId::BOTH {
        let casualties = resolved.casualties.get(side);
        let rate = casualties.rate_tenths_percent.expect("a formula rate");
        assert!((50..=600).contains(&rate), "base 5% to max 60%: {rate}");
        let troops: Vec<u32> = armies().get(side).slots.iter().map(|slot| slot.troops).collect();
        for (loss, troops) in casualties.losses.iter().zip(&troops) {
            assert_eq!(*loss, (troops * rate / 1000) / 10 * 10);
        }
        assert_eq!(casualties.total, casualties.losses.iter().map(|loss| u64::from(*loss)).sum::<u64>());
    }
}

#[test]
fn a_side_that_runs_away_deals_no_damage_and_takes_half_but_at_least_base_seed_003_4_2_6() {
    for n in 0..8 {
        let normal = resolution(&given(judged(5, 5)).seed(n).when(resolve(), judge(), after()).events());
        let ran = resolution(
            &given(judged(5, 5))
                .seed(n)
                .when(BattleCommand::ResolveBattle { running_away: Some(SideId::A) }, judge(), after())
                .events(),
        );
        assert_eq!(ran.dice, normal.dice, "running away changes casualties, not dice");
        assert_eq!(ran.winner, normal.winner);
        assert_eq!(ran.running_away, Some(SideId::A));
        assert_eq!(ran.casualties.b.rate_tenths_percent, Some(0));
        assert!(ran.casualties.b.losses.iter().all(|loss| *loss == 0));
        let full = normal.casualties.a.rate_tenths_percent.unwrap_or_default();
        let expected = full.div_ceil(2).max(50);
        assert_eq!(ran.casualties.a.rate_tenths_percent, Some(expected), "seed {n}");
        assert!(ran.casualties.a.total > 0, "at least some damage will always be done");
    }
}

#[test]
fn the_judge_overrides_casualties_with_a_reason_seed_003_4_2_6() {
    let command = BattleCommand::OverrideCasualties {
        side: SideId::B,
        losses: vec![500, 0, 250, 1000],
        reason: "the ambush at the ford caught B's rear guard".into(),
    };
    let casualties = Casualties { losses: vec![500, 0, 250, 1000], total: 1750, rate_tenths_percent: None };
    let then = given(resolved_events(5, 5)).when(command, judge(), after());
    let events = then.result.clone().expect("the override is accepted");
    assert_eq!(
        events,
        vec![BattleEvent::CasualtiesOverridden {
            side: SideId::B,
            casualties: casualties.clone(),
            reason: "the ambush at the ford caught B's rear guard".into(),
        }]
    );
    let state = then.state_after();
    assert_eq!(state.sides.b.casualties, Some(casualties));
    assert_eq!(state.status, BattleStatus::Resolved);
}

#[test]
fn an_override_may_take_a_whole_slot_but_no_more_seed_003_4_2_5() {
    let command = BattleCommand::OverrideCasualties {
        side: SideId::A,
        losses: vec![5000, 2500, 1500, 1000],
        reason: "rout".into(),
    };
    assert_eq!(given(resolved_events(5, 5)).when(command, judge(), after()).events().len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Seeds

#[test]
fn the_committed_seed_is_revealed_with_the_effective_key() {
    let mut events = resolved_events(5, 5);
    events.insert(1, BattleEvent::EntropyContributed { by: "player:vorn".into(), entropy: "salt".into() });
    let expected_key = seed::effective_seed(&server_seed(0), STREAM, &["salt".to_string()]);
    for actor in [judge(), admin(), system()] {
        given(events.clone())
            .when(
                BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)).to_uppercase(), next_commitment: None },
                actor,
                after(),
            )
            .then(vec![BattleEvent::SeedRevealed {
                seed: hex::encode(server_seed(0)),
                effective_seed: hex::encode(expected_key),
                next_commitment: None,
            }]);
    }
}

#[test]
fn a_seed_is_revealed_only_once() {
    let mut events = resolved_events(5, 5);
    let reveal = BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None };
    events.extend(given(events.clone()).when(reveal.clone(), system(), after()).events());
    given(events).when(reveal, judge(), after()).then_error("coalition.battle.seed_already_revealed");
}

#[test]
fn a_battle_ended_by_a_kill_can_still_reveal_its_seed() {
    let sides = Sides { a: emptied(armies().a), b: armies().b };
    let mut events = vec![created_with(sides, BattleOptions::default(), Engagement::NoAttacker, 0)];
    events.push(BattleEvent::ArmyKilled { side: SideId::A, rule: "seed 003 §4.3.1".into() });
    let state = given(events.clone()).when(resolve(), judge(), after()).state;
    assert!(state.dice_cursor().is_some_and(|cursor| cursor.reveal_due));
    let reveal = BattleCommand::RevealSeed { seed: hex::encode(server_seed(0)), next_commitment: None };
    assert_eq!(given(events).when(reveal, system(), after()).events().len(), 1);
}

#[test]
fn a_battle_fought_out_tactically_takes_its_winner_and_losses_in_proportion_to_models_lost() {
    // Side A lost 2 of 6 models: every slot loses a third, rounded half up (5000 → 1667,
    // 2500 → 833, 1500 → 500, 1000 → 333); side B lost none of 4. Only a judge applies it, once.
    use herald_domain::coalition::battle::command::TacticalLosses;
    let command = BattleCommand::ApplyTacticalResult {
        source: "battle-0190f0a4-0000-7000-8000-0000000000aa@40".into(),
        source_rules: "warmachine@1".into(),
        winner: SideId::B,
        models_lost: Sides {
            a: TacticalLosses { fielded: 6, destroyed: 2 },
            b: TacticalLosses { fielded: 4, destroyed: 0 },
        },
        reason: "fought out on the table".into(),
    };
    let refused = given(vec![created()]).when(command.clone(), player_a(), before());
    assert!(refused.result.clone().expect_err("players may not").forbidden);
    let then = given(vec![created()]).when(command.clone(), judge(), before());
    let events = then.result.clone().expect("a judge applies it");
    let BattleEvent::TacticalResultApplied { casualties, winner, .. } = &events[0] else { panic!("{events:?}") };
    assert_eq!(*winner, SideId::B);
    assert_eq!(casualties.a.losses, vec![1667, 833, 500, 333]);
    assert_eq!(casualties.a.total, 3333);
    assert_eq!(casualties.b.total, 0);
    let state = then.state_after();
    assert_eq!((state.status, state.winner), (BattleStatus::Resolved, Some(SideId::B)));
    let mut history = vec![created()];
    history.extend(events);
    assert!(given(history).when(command, judge(), before()).result.is_err(), "a battle is decided once");
}

/// The salt of docs/DICE.md's formula test vector: the bytes 0, 1, …, 31.
fn vector_salt() -> String {
    (0u8..32).map(|byte| format!("{byte:02x}")).collect()
}

fn salted_create(opening: herald_domain::coalition::battle::FormulaOpening, salt: &str) -> BattleCommand {
    let mut command = default_create();
    if let BattleCommand::CreateBattle { formula_opening, formula_salt, .. } = &mut command {
        *formula_opening = opening;
        *formula_salt = Some(salt.to_string());
    }
    command
}

#[test]
fn opening_a_battle_and_setting_formulas_commit_to_them_before_any_die_seed_003_4_2_2() {
    use herald_domain::coalition::battle::{commitment, FormulaOpening, HiddenFormulas, KillFormula};
    let created = given([]).when(salted_create(FormulaOpening::OpenAtEnd, &vector_salt()), judge(), at(0)).events();
    let BattleEvent::BattleCreated { formula_commitment, formula_salt, formula_opening, .. } = &created[0] else {
        panic!("a BattleCreated: {created:?}");
    };
    // docs/DICE.md's test vector: the default formulas under the salt 00 01 … 1f.
    assert_eq!(formula_commitment.as_deref(), Some("80036e1a135d2d73ca31331ea9230214c9b78e070ee3b1a873c1886d26a85c61"));
    assert_eq!(formula_salt.as_deref(), Some(vector_salt().as_str()));
    assert_eq!(*formula_opening, FormulaOpening::OpenAtEnd);

    let options =
        BattleOptions { kill_formula: KillFormula { defence: 9, ..KillFormula::default() }, ..Default::default() };
    let salt = "ab".repeat(32);
    let set = BattleCommand::SetFormulas { options: options.clone(), formula_salt: Some(salt.clone()) };
    let events = given(created.clone()).when(set, judge(), before()).events();
    let BattleEvent::FormulasSet { formula_commitment, .. } = &events[0] else { panic!("a FormulasSet: {events:?}") };
    let expected = commitment::commitment(&HiddenFormulas::from(&options), &[0xab; 32]);
    assert_eq!(formula_commitment.as_deref(), Some(expected.as_str()));

    for bad in ["", "abcd", &"zz".repeat(32), &"ab".repeat(33)] {
        let set = BattleCommand::SetFormulas { options: options.clone(), formula_salt: Some(bad.to_string()) };
        given(created.clone()).when(set, judge(), before()).then_error("coalition.battle.formula_salt_malformed");
    }
}

#[test]
fn formulas_open_to_everyone_at_the_end_only_when_the_battle_chose_it_seed_003_4_2_2() {
    use herald_domain::{
        coalition::battle::{redact::redact_battle_event, FormulaOpening},
        viewer::Viewer,
    };
    for (opening, open_at_end) in [(FormulaOpening::OpenAtEnd, true), (FormulaOpening::Secret, false)] {
        let mut events = given([]).when(salted_create(opening, &vector_salt()), judge(), at(0)).events();
        events.extend(judged(7, 4).into_iter().skip(1));
        let resolve = BattleCommand::ResolveBattle { running_away: None };
        let open = CoalitionBattle::fold(&events);
        let resolved = given(events.clone()).when(resolve, judge(), after()).events();
        let mut ended_events = events.clone();
        ended_events.extend(resolved.clone());
        let ended = CoalitionBattle::fold(&ended_events);
        let seen = |event: &BattleEvent, state| {
            let mut data = serde_json::to_value(event).expect("json");
            redact_battle_event(&mut data, state, &Viewer::public());
            data
        };
        // Before the end, nobody but a judge sees the formulas, the salt or the size bonus.
        let created = seen(&events[0], &open);
        assert_eq!(created["formula_salt"], "hidden");
        assert_eq!(created["options"]["size_formula"], "hidden");
        assert!(created["formula_commitment"].is_string(), "the commitment is public");
        // After it, everyone does under open_at_end; nobody does under secret.
        let created = seen(&events[0], &ended);
        let result = seen(&resolved[0], &ended);
        assert_eq!(created["formula_salt"] != "hidden", open_at_end, "{created}");
        assert_eq!(created["options"]["size_formula"] != "hidden", open_at_end, "{created}");
        assert_eq!(result["bonuses"]["a"]["size"] != "hidden", open_at_end, "{result}");
        assert_eq!(result["dice"]["a"][0]["total"] != "hidden", open_at_end, "{result}");
        assert!(ended.formula_opening_record().is_some_and(|record| record.matches()), "the judge's opening matches");
    }
}
