//! The warmachine battle decider's movement (seed 000 "Movement"): full advances, runs, aiming,
//! charges, required charges and runs, "cannot" conditions, movement restrictions and unit
//! movement. Each test names the heading it checks.

#[path = "warmachine_battle_support.rs"]
mod support;

use herald_domain::warmachine::{
    battle::{
        command::{Movement, Placement, UnitPlacement},
        event::{AdvanceKind, Cost, Moved},
        state::Condition,
        WarmachineCommand, WarmachineEvent as E,
    },
    model::{BaseSize, ModelProfile, MovementRestriction},
    table::{overlaps, TerrainKind},
};
use support::*;

const SMALL: f64 = 0.590_551_181_102_362_2; // 30 mm / 25.4 / 2

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// A solo that cannot be hurt by these tests (ARM 40) and is hit by anything (DEF 5).
fn dummy() -> ModelProfile {
    let mut profile = solo();
    profile.stats.def = 5;
    profile.stats.arm = 40;
    profile
}

/// The red solo at (10, 10) with `others` around it; a far blue solo keeps blue on the table.
fn scene(
    others: Vec<herald_domain::warmachine::battle::command::ModelSpec>,
    terrain: Vec<herald_domain::warmachine::table::TerrainFeature>,
) -> Battle {
    let mut models = vec![model("red-solo", RED, solo(), 10.0, 10.0), model("blue-far", BLUE, dummy(), 44.0, 44.0)];
    models.extend(others);
    let mut battle = Battle::on(table_with(terrain), models, 0);
    battle.play(start_turn());
    battle
}

fn advanced(events: &[E]) -> (AdvanceKind, f64, Cost) {
    match find(events, "warmachine.Advanced") {
        E::Advanced { kind, distance, cost, .. } => (*kind, *distance, *cost),
        _ => unreachable!(),
    }
}

#[test]
fn a_full_advance_moves_up_to_spd_and_no_further_seed_000_full_advance() {
    let mut battle = scene(vec![], vec![]);
    battle.play(activate("red-solo"));
    battle.refused(advance("red-solo", &[(16.5, 10.0)]), "warmachine.movement.too_far", "Full Advance");
    // Every leg counts: 3″ + 4″ is more than SPD 6.
    battle.refused(advance("red-solo", &[(13.0, 10.0), (13.0, 14.0)]), "warmachine.movement.too_far", "Full Advance");
    let events = battle.play(advance("red-solo", &[(13.0, 10.0), (13.0, 13.0)]));
    let (kind, distance, cost) = advanced(&events);
    assert_eq!((kind, cost), (AdvanceKind::FullAdvance, Cost::Free));
    assert!(close(distance, 6.0));
    assert_eq!(battle.model("red-solo").position.centre(), p(13.0, 13.0));
    battle.refused(advance("red-solo", &[(13.0, 14.0)]), "warmachine.already_moved", "Movement");
    assert!(battle.state.activation.is_some(), "a full advance leaves the combat action to come");
}

#[test]
fn a_run_moves_up_to_spd_plus_5_then_ends_the_activation_and_forfeits_combat_seed_000_run() {
    let target = model("blue-target", BLUE, dummy(), 24.0, 12.0);
    let mut battle = scene(vec![target], vec![]);
    battle.play(activate("red-solo"));
    battle.refused(run("red-solo", &[(21.5, 10.0)]), "warmachine.movement.too_far", "\"Run\"");
    let events = battle.play(run("red-solo", &[(21.0, 10.0)]));
    let (kind, distance, cost) = advanced(&events);
    assert_eq!((kind, cost), (AdvanceKind::Run, Cost::Free));
    assert!(close(distance, 11.0));
    let E::ActivationEnded { activation, reason } = find(&events, "warmachine.ActivationEnded") else { unreachable!() };
    assert_eq!(activation, "red-solo");
    assert!(reason.contains(&heading("Run")), "{reason}");
    assert!(battle.state.activated.contains("red-solo"));
    // The activation is over, so no combat action follows (the target is in the Carbine's range).
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.no_activation", "Activation Phase");
}

#[test]
fn a_warjack_must_spend_1_focus_to_run_seed_000_run() {
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 10.0, 30.0),
            in_battlegroup(model("red-jack", RED, warjack(), 12.0, 30.0), "red-caster"),
            in_battlegroup(model("red-jack-far", RED, warjack(), 40.0, 30.0), "red-caster"),
            model("blue-far", BLUE, dummy(), 44.0, 4.0),
        ],
        0,
    );
    battle.play(start_turn());
    assert_eq!((battle.model("red-jack").focus, battle.model("red-jack-far").focus), (1, 0));
    battle.play(activate("red-jack-far"));
    battle.refused(run("red-jack-far", &[(40.0, 40.0)]), "warmachine.run_needs_focus", "Run");
    battle.play(advance("red-jack-far", &[(40.0, 35.0)])); // a full advance costs nothing
    battle.play(end_activation());
    battle.play(activate("red-jack"));
    let events = battle.play(run("red-jack", &[(12.0, 40.0)]));
    let (kind, distance, cost) = advanced(&events);
    assert_eq!((kind, cost), (AdvanceKind::Run, Cost::Focus));
    assert!(close(distance, 10.0), "SPD 5 + 5");
    assert_eq!(battle.model("red-jack").focus, 0);
}

#[test]
fn a_warbeast_must_be_forced_to_run_seed_000_run() {
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-lock", RED, warlock(), 10.0, 30.0),
            in_battlegroup(model("red-beast", RED, warbeast(), 14.0, 30.0), "red-lock"),
            model("blue-far", BLUE, dummy(), 44.0, 4.0),
        ],
        0,
    );
    battle.play(start_turn());
    battle.play(activate("red-beast"));
    let events = battle.play(run("red-beast", &[(14.0, 41.0)]));
    assert_eq!(advanced(&events).2, Cost::Forced);
    assert_eq!(battle.model("red-beast").fury, 1);
}

#[test]
fn a_warbeast_at_its_fury_cannot_be_forced_to_run_seed_000_run() {
    // A warbeast with FURY 1 runs once (forced to 1 fury), keeps its fury through the next
    // maintenance phase, and cannot be forced again.
    let scenario = |n: u64| {
        let mut beast = warbeast();
        beast.stats.fury = Some(1);
        let mut battle = Battle::on(
            table_with(vec![]),
            vec![
                model("red-lock", RED, warlock(), 10.0, 30.0),
                in_battlegroup(model("red-beast", RED, beast, 14.0, 30.0), "red-lock"),
                model("blue-far", BLUE, dummy(), 44.0, 4.0),
            ],
            n,
        );
        battle.play(start_turn());
        battle.play(activate("red-beast"));
        battle.play(run("red-beast", &[(14.0, 36.0)]));
        battle.finish_turn();
        battle.pass_turn();
        battle.play(start_turn());
        battle
    };
    // A seed whose threshold check does not frenzy the beast (a frenzied beast must charge).
    let n = find_seed(|n| !scenario(n).model("red-beast").has(&Condition::Frenzied));
    let mut battle = scenario(n);
    assert_eq!(battle.model("red-beast").fury, 1);
    battle.play(activate("red-beast"));
    battle.refused(run("red-beast", &[(14.0, 41.0)]), "warmachine.run_cannot_force", "Run");
    battle.play(advance("red-beast", &[(14.0, 40.0)]));
}

#[test]
fn aiming_gives_plus_2_to_ranged_attack_rolls_but_not_while_engaged_seed_000_aim() {
    // Not engaged: +2 on both ranged attacks of the activation.
    let mut battle = scene(vec![model("blue-target", BLUE, solo(), 18.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    assert_eq!(battle.play(aim("red-solo")), [E::Aimed { model: "red-solo".into() }]);
    for _ in 0..2 {
        let events = battle.play(attack("red-solo", "Carbine", "blue-target"));
        let E::AttackResolved { roll, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
        assert_eq!(roll.aim_bonus, 2);
        assert_eq!(roll.roll.expression.to_string(), "2d6+6+2");
        assert_eq!(roll.total, dice_sum(&roll.roll) + 6 + 2);
        assert_eq!(roll.hit, roll.total >= 14);
        assert!(roll.rule.contains(&heading("Aim")));
        if battle.model("blue-target").destroyed {
            break;
        }
    }

    // Engaged: an enemy with a melee weapon has the solo in its melee range.
    let brute = model("blue-brute", BLUE, dummy(), 10.0, 11.3);
    let mut battle = scene(vec![model("blue-target", BLUE, solo(), 18.0, 10.0), brute], vec![]);
    battle.play(activate("red-solo"));
    battle.play(aim("red-solo"));
    let events = battle.play(attack("red-solo", "Carbine", "blue-target"));
    let E::AttackResolved { roll, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert_eq!(roll.aim_bonus, 0);
    assert_eq!(roll.total, dice_sum(&roll.roll) + 6);

    // Not aiming: no bonus.
    let mut battle = scene(vec![model("blue-target", BLUE, solo(), 18.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    battle.play(forfeit("red-solo"));
    let events = battle.play(attack("red-solo", "Carbine", "blue-target"));
    let E::AttackResolved { roll, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert_eq!(roll.aim_bonus, 0);
}

#[test]
fn a_model_that_cannot_run_is_refused_a_run_because_cannot_beats_can_seed_000_rule_priority() {
    let mut battle = scene(vec![], vec![]);
    battle.judge(set_condition("red-solo", Condition::CannotRun, None));
    battle.play(activate("red-solo"));
    battle.refused(run("red-solo", &[(12.0, 10.0)]), "warmachine.cannot_run", "Rule Priority");
    battle.play(advance("red-solo", &[(16.0, 10.0)]));
}

#[test]
fn a_model_required_to_run_that_cannot_run_makes_a_full_advance_and_its_activation_ends_seed_000_run() {
    let target = model("blue-target", BLUE, dummy(), 20.0, 12.0);
    let mut battle = scene(vec![target], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustRun, None));
    battle.judge(set_condition("red-solo", Condition::CannotRun, None));
    battle.play(activate("red-solo"));
    battle.refused(advance("red-solo", &[(16.0, 10.0)]), "warmachine.run_required", "Run");
    // Instead of running (SPD + 5) it makes a full advance (SPD).
    battle.refused(run("red-solo", &[(21.0, 10.0)]), "warmachine.movement.too_far", "Full Advance");
    let events = battle.play(run("red-solo", &[(16.0, 10.0)]));
    let (kind, distance, cost) = advanced(&events);
    assert_eq!((kind, cost), (AdvanceKind::RunFallback, Cost::Free));
    assert!(close(distance, 6.0));
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "then its activation ends");
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.no_activation", "Activation Phase");
}

#[test]
fn a_model_required_to_run_must_run_seed_000_run() {
    let mut battle = scene(vec![], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustRun, None));
    battle.play(activate("red-solo"));
    battle.refused(forfeit("red-solo"), "warmachine.run_required", "Run");
    let events = battle.play(run("red-solo", &[(21.0, 10.0)]));
    assert_eq!(advanced(&events).0, AdvanceKind::Run);
}

#[test]
fn a_warjack_required_to_run_without_focus_to_run_makes_a_full_advance_instead_seed_000_run() {
    // "If a model cannot run due to some effect and is required to use its normal movement to
    // run, instead of running it forfeits its combat action and makes a full advance": a warjack
    // with no focus cannot run.
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 4.0, 40.0),
            in_battlegroup(model("red-jack", RED, warjack(), 10.0, 10.0), "red-caster"),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        0,
    );
    battle.play(start_turn());
    assert_eq!(battle.model("red-jack").focus, 0);
    battle.judge(set_condition("red-jack", Condition::MustRun, None));
    battle.play(activate("red-jack"));
    battle.refused(forfeit("red-jack"), "warmachine.run_required", "Run");
    battle.refused(run("red-jack", &[(10.0, 20.0)]), "warmachine.movement.too_far", "Full Advance");
    let events = battle.play(run("red-jack", &[(10.0, 15.0)]));
    assert_eq!(advanced(&events), (AdvanceKind::RunFallback, 5.0, Cost::Free));
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })));
}

#[test]
fn ending_the_activation_does_not_escape_a_required_charge_or_run_seed_000_required_charges() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustCharge, None));
    battle.play(activate("red-solo"));
    battle.refused(end_activation(), "warmachine.charge_required", "Required Charges");
    battle.play(charge("red-solo", "blue-target", 16.0, 10.0));
    // "With a successful charge the model must use its combat action to make ... initial melee
    // attacks" (seed 000 "Charge"): not end its activation first.
    battle.refused(end_activation(), "warmachine.charge_attack_required", "Charge");
    battle.play(attack("red-solo", "Blade", "blue-target"));
    battle.play(end_activation());

    let mut battle = scene(vec![], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustRun, None));
    battle.play(activate("red-solo"));
    battle.refused(end_activation(), "warmachine.run_required", "Run");

    // With no charge target in sight the model forfeits, so ending the activation is fine.
    let wall = feature("wall", TerrainKind::Obstruction, (12.9, 0.0), (13.1, 48.0), 3.0);
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![wall]);
    battle.judge(set_condition("red-solo", Condition::MustCharge, None));
    battle.play(activate("red-solo"));
    battle.play(end_activation());
}

#[test]
fn a_charge_needs_line_of_sight_to_its_target_seed_000_independent_model_charges() {
    let wall = feature("wall", TerrainKind::Obstruction, (12.9, 8.0), (13.1, 12.0), 3.0);
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![wall]);
    battle.play(activate("red-solo"));
    battle.refused(
        charge("red-solo", "blue-target", 16.0, 10.0),
        "warmachine.charge_no_line_of_sight",
        "Independent model charges",
    );
}

#[test]
fn a_model_cannot_charge_a_friendly_model_seed_000_charge() {
    let mut battle = scene(vec![model("red-pal", RED, dummy(), 16.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    battle.refused(charge("red-solo", "red-pal", 16.0, 10.0), "warmachine.charge_friendly", "Charge");
}

#[test]
fn a_charge_of_3_inches_or_more_makes_a_charge_attack_whose_damage_roll_is_boosted_seed_000_charge() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    let events = battle.play(charge("red-solo", "blue-target", 16.0, 10.0));
    let E::Charged { travelled, stopped_by, in_melee_range, charge_attack, cost, to, .. } =
        find(&events, "warmachine.Charged")
    else {
        unreachable!()
    };
    // It stops on contact with its target, 6″ − two small radii away.
    assert!(close(*travelled, 6.0 - 2.0 * SMALL));
    assert_eq!(stopped_by.as_deref(), Some("blue-target"));
    assert!(*in_melee_range && *charge_attack);
    assert_eq!(*cost, Cost::Free);
    assert!(close(to.x, 16.0 - 2.0 * SMALL));
    // The seed's EXAMPLE: the damage roll is already boosted, so it cannot be boosted again.
    battle.refused(
        boosted_attack("red-solo", "Blade", "blue-target", false, true),
        "warmachine.damage.charge_already_boosted",
        "Additional Dice and Boosted Rolls",
    );
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.charge_melee_only", "Charge");
    let events = battle.play(attack("red-solo", "Blade", "blue-target"));
    let E::AttackResolved { charge_attack, roll, damage, damage_boost, .. } =
        find(&events, "warmachine.AttackResolved")
    else {
        unreachable!()
    };
    assert!(*charge_attack && roll.hit, "DEF 5 is always hit");
    assert_eq!(*damage_boost, None, "nothing was paid for the automatic boost");
    let damage = &damage[0].roll;
    assert!(damage.roll.options.auto_boosted && !damage.roll.options.boosted);
    assert_eq!(damage.roll.draws.len(), 3, "2d6 + the boost die");
    assert_eq!(damage.total, dice_sum(&damage.roll) + 11);
    assert!(damage.roll.draws[0].purpose.contains("charge attack damage roll"));
}

#[test]
fn a_charge_of_less_than_3_inches_is_not_a_charge_attack_seed_000_charge() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 12.5, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    let events = battle.play(charge("red-solo", "blue-target", 12.5, 10.0));
    let E::Charged { travelled, in_melee_range, charge_attack, .. } = find(&events, "warmachine.Charged") else {
        unreachable!()
    };
    assert!(close(*travelled, 2.5 - 2.0 * SMALL));
    assert!(*in_melee_range && !*charge_attack);
    let events = battle.play(attack("red-solo", "Blade", "blue-target"));
    let E::AttackResolved { charge_attack, damage, .. } = find(&events, "warmachine.AttackResolved") else {
        unreachable!()
    };
    assert!(!*charge_attack);
    let damage = &damage[0].roll;
    assert!(!damage.roll.options.auto_boosted);
    assert_eq!(damage.roll.draws.len(), 2);
}

#[test]
fn a_charge_that_does_not_reach_melee_range_fails_and_ends_the_activation_seed_000_charge() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 30.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    // It cannot stop voluntarily short of SPD + 3 while the target is out of melee range.
    battle.refused(
        charge("red-solo", "blue-target", 18.0, 10.0),
        "warmachine.movement.charge_stopped_short",
        "Independent model charges",
    );
    let events = battle.play(charge("red-solo", "blue-target", 19.0, 10.0));
    let E::Charged { travelled, in_melee_range, charge_attack, .. } = find(&events, "warmachine.Charged") else {
        unreachable!()
    };
    assert!(close(*travelled, 9.0) && !*in_melee_range && !*charge_attack);
    let E::ActivationEnded { reason, .. } = find(&events, "warmachine.ActivationEnded") else { unreachable!() };
    assert!(reason.contains("charge failed"), "{reason}");
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.no_activation", "Activation Phase");
}

#[test]
fn a_model_required_to_charge_must_charge_a_target_in_line_of_sight_seed_000_required_charges() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustCharge, None));
    let events = battle.play(activate("red-solo"));
    assert_eq!(
        events,
        [E::Activated { activation: "red-solo".into(), models: vec!["red-solo".into()], required_charge: true }]
    );
    for movement in [advance("red-solo", &[(12.0, 10.0)]), forfeit("red-solo"), aim("red-solo")] {
        battle.refused(movement, "warmachine.charge_required", "Required Charges");
    }
    battle.play(charge("red-solo", "blue-target", 16.0, 10.0));
}

#[test]
fn a_model_required_to_charge_with_no_target_in_sight_forfeits_movement_and_combat_seed_000_required_charges() {
    // A wall across the table hides every blue model.
    let wall = feature("wall", TerrainKind::Obstruction, (12.9, 0.0), (13.1, 48.0), 3.0);
    let pal = model("red-pal", RED, dummy(), 10.0, 11.3);
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0), pal], vec![wall]);
    battle.judge(set_condition("red-solo", Condition::MustCharge, None));
    battle.play(activate("red-solo"));
    battle.refused(advance("red-solo", &[(12.0, 10.0)]), "warmachine.required_charge_forfeit", "Required Charges");
    let events = battle.play(forfeit("red-solo"));
    let E::MovementForfeited { combat_forfeited, rule, .. } = &events[0] else { panic!("{events:?}") };
    assert!(*combat_forfeited);
    assert!(rule.contains(&heading("Required Charges")));
    battle.refused(
        attack("red-solo", "Blade", "red-pal"),
        "warmachine.combat_forfeited",
        "Forfeiting Normal Movement or Combat Actions",
    );
    battle.play(end_activation());
}

#[test]
fn a_warjack_required_to_charge_without_focus_to_charge_forfeits_movement_and_combat_seed_000_required_charges() {
    // "If a model is required to charge and either it cannot ...": a warjack with no focus cannot
    // charge, so it forfeits rather than being told to charge.
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 4.0, 40.0),
            in_battlegroup(model("red-jack", RED, warjack(), 10.0, 10.0), "red-caster"),
            model("blue-target", BLUE, dummy(), 16.0, 10.0),
        ],
        0,
    );
    battle.play(start_turn());
    assert_eq!(battle.model("red-jack").focus, 0, "out of its caster's control range: no power up");
    battle.judge(set_condition("red-jack", Condition::MustCharge, None));
    battle.play(activate("red-jack"));
    battle.refused(charge("red-jack", "blue-target", 16.0, 10.0), "warmachine.charge_needs_focus", "Charge");
    let events = battle.play(forfeit("red-jack"));
    assert!(matches!(&events[0], E::MovementForfeited { combat_forfeited: true, .. }), "{events:?}");
}

#[test]
fn a_model_that_must_move_away_cannot_advance_toward_the_other_model_seed_000_movement_restrictions() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    let away = Condition::Restricted { restriction: MovementRestriction::Away, relative_to: "blue-target".into() };
    battle.judge(set_condition("red-solo", away, None));
    battle.play(activate("red-solo"));
    battle.refused(advance("red-solo", &[(13.0, 10.0)]), "warmachine.movement.not_away", "Movement Restrictions");
    battle.refused(
        advance("red-solo", &[(7.0, 10.0), (12.0, 10.0)]),
        "warmachine.movement.not_away",
        "Movement Restrictions",
    );
    // A charge is movement too: it cannot rush toward the model it must move away from.
    battle.refused(
        charge("red-solo", "blue-target", 16.0, 10.0),
        "warmachine.movement.not_away",
        "Movement Restrictions",
    );
    battle.play(advance("red-solo", &[(7.0, 10.0), (5.0, 9.0)]));
}

#[test]
fn a_model_that_must_move_toward_cannot_move_away_but_may_stay_still_seed_000_movement_restrictions() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    let toward = Condition::Restricted { restriction: MovementRestriction::Toward, relative_to: "blue-target".into() };
    battle.judge(set_condition("red-solo", toward.clone(), None));
    battle.play(activate("red-solo"));
    battle.refused(advance("red-solo", &[(7.0, 10.0)]), "warmachine.movement.not_toward", "Movement Restrictions");
    battle.play(advance("red-solo", &[(13.0, 11.0)]));
    battle.play(end_activation());
    // "In all of these scenarios a model can still forfeit its movement or choose not to move."
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.judge(set_condition("red-solo", toward, None));
    battle.play(activate("red-solo"));
    battle.play(forfeit("red-solo"));
}

// ---------------------------------------------------------------------------------------------
// Unit movement
// ---------------------------------------------------------------------------------------------

/// Red's unit of three troopers at (10, 20), (11.5, 20), (13, 20); a blue target beside the
/// unit's destination.
fn unit_scene(terrain: Vec<herald_domain::warmachine::table::TerrainFeature>, t1: (f64, f64)) -> Battle {
    let mut battle = Battle::on(
        table_with(terrain),
        vec![
            in_unit(model("red-t1", RED, trooper(), t1.0, t1.1), "red-unit"),
            in_unit(model("red-t2", RED, trooper(), 11.5, 20.0), "red-unit"),
            in_unit(model("red-t3", RED, trooper(), 13.0, 20.0), "red-unit"),
            model("blue-target", BLUE, dummy(), 14.0, 30.0),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        0,
    );
    battle.play(start_turn());
    battle
}

fn placed(entries: &[(&str, f64, f64)], cannot: &[&str]) -> UnitPlacement {
    UnitPlacement {
        placed: entries.iter().map(|(id, x, y)| Placement { model: (*id).into(), at: p(*x, *y) }).collect(),
        cannot_place: cannot.iter().map(|id| (*id).to_string()).collect(),
    }
}

#[test]
fn a_unit_moves_one_trooper_and_places_the_others_within_2_inches_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.refused(activate("red-t1"), "warmachine.activate_unit", "Activation Phase");
    let events = battle.play(activate("red-unit"));
    assert_eq!(
        events,
        [E::Activated {
            activation: "red-unit".into(),
            models: vec!["red-t1".into(), "red-t2".into(), "red-t3".into()],
            required_charge: false
        }]
    );
    let events = battle.play(mv_placed(
        "red-t1",
        Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
        placed(&[("red-t2", 11.5, 26.0), ("red-t3", 8.5, 26.0)], &[]),
    ));
    assert_eq!(
        events[1],
        E::TroopersPlaced {
            unit: "red-unit".into(),
            moved: "red-t1".into(),
            placed: vec![
                Moved { model: "red-t2".into(), to: p(11.5, 26.0) },
                Moved { model: "red-t3".into(), to: p(8.5, 26.0) }
            ],
            destroyed: vec![],
            forfeit_combat: vec![],
        }
    );
    assert_eq!(battle.model("red-t3").position.centre(), p(8.5, 26.0));
    assert!(battle.state.activation.as_ref().is_some_and(|a| a.movement_done));
    // Every trooper may now make its combat action.
    battle.play(attack("red-t2", "Rifle", "blue-target"));
}

#[test]
fn troopers_placed_further_than_2_inches_are_refused_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.play(activate("red-unit"));
    // (14, 26) is 4″ from (10, 26) centre to centre: 2.82″ edge to edge.
    battle.refused(
        mv_placed(
            "red-t1",
            Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
            placed(&[("red-t2", 14.0, 26.0), ("red-t3", 8.5, 26.0)], &[]),
        ),
        "warmachine.movement.unit_coherency",
        "Unit Movement",
    );
    // Moving first and placing later: the activation cannot end with troopers unplaced.
    battle.play(advance("red-t1", &[(10.0, 26.0)]));
    battle.refused(end_activation(), "warmachine.troopers_unplaced", "Unit Movement");
    battle.refused(
        herald_domain::warmachine::battle::WarmachineCommand::PlaceTroopers {
            placement: placed(&[("red-t2", 10.0, 28.5), ("red-t3", 12.5, 28.5)], &[]),
        },
        "warmachine.movement.unit_coherency",
        "Unit Movement",
    );
    battle.play(herald_domain::warmachine::battle::WarmachineCommand::PlaceTroopers {
        placement: placed(&[("red-t2", 10.0, 27.5), ("red-t3", 8.6, 26.0)], &[]),
    });
}

#[test]
fn a_trooper_that_can_be_placed_is_not_destroyed_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.play(activate("red-unit"));
    let error = battle.refused(
        mv_placed(
            "red-t1",
            Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
            placed(&[("red-t2", 11.5, 26.0)], &["red-t3"]),
        ),
        "warmachine.trooper_can_be_placed",
        "Unit Movement",
    );
    assert!(error.message.contains("red-t3"));
    assert!(!battle.model("red-t3").destroyed);
}

#[test]
fn troopers_that_cannot_be_placed_within_2_inches_with_line_of_sight_are_destroyed_seed_000_unit_movement() {
    // The trooper that moves stands in a walled pen just wider than its base: every spot within
    // 2″ is either on it or behind a wall.
    let walls = vec![
        feature("west", TerrainKind::Obstruction, (29.15, 29.15), (29.35, 30.85), 3.0),
        feature("east", TerrainKind::Obstruction, (30.65, 29.15), (30.85, 30.85), 3.0),
        feature("south", TerrainKind::Obstruction, (29.15, 29.15), (30.85, 29.35), 3.0),
        feature("north", TerrainKind::Obstruction, (29.15, 30.65), (30.85, 30.85), 3.0),
    ];
    let mut battle = unit_scene(walls, (30.0, 30.0));
    battle.play(activate("red-unit"));
    let movement = Movement::FullAdvance { path: path(&[(30.03, 30.0)]) };
    battle.refused(
        mv_placed("red-t1", movement.clone(), placed(&[("red-t2", 32.0, 30.0)], &["red-t3"])),
        "warmachine.movement.unit_line_of_sight",
        "Unit Movement",
    );
    let events = battle.play(mv_placed("red-t1", movement, placed(&[], &["red-t2", "red-t3"])));
    let E::TroopersPlaced { destroyed, placed, .. } = &events[1] else { panic!("{events:?}") };
    assert_eq!(destroyed, &["red-t2".to_string(), "red-t3".to_string()]);
    assert!(placed.is_empty());
    // Each leaves play through its own ModelDestroyed, so the log says why.
    let destroyed_events: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            E::ModelDestroyed { model, cause } if cause.contains("Unit Movement") => Some(model.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(destroyed_events, ["red-t2", "red-t3"]);
    assert!(battle.model("red-t2").destroyed && battle.model("red-t3").destroyed);
    assert!(battle.model("red-t1").in_play());
}

#[test]
fn troopers_that_cannot_advance_are_placed_but_forfeit_their_combat_action_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.judge(set_condition("red-t2", Condition::CannotAdvance, None));
    battle.play(activate("red-unit"));
    let events = battle.play(mv_placed(
        "red-t1",
        Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
        placed(&[("red-t2", 11.5, 26.0), ("red-t3", 8.5, 26.0)], &[]),
    ));
    let E::TroopersPlaced { forfeit_combat, .. } = &events[1] else { panic!("{events:?}") };
    assert_eq!(forfeit_combat, &["red-t2".to_string()]);
    assert_eq!(battle.model("red-t2").position.centre(), p(11.5, 26.0), "placed normally");
    battle.refused(
        attack("red-t2", "Rifle", "blue-target"),
        "warmachine.combat_forfeited",
        "Forfeiting Normal Movement or Combat Actions",
    );
    battle.play(attack("red-t3", "Rifle", "blue-target"));
}

#[test]
fn bases_never_overlap_after_unit_placement_seed_000_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.play(activate("red-unit"));
    battle.refused(
        mv_placed(
            "red-t1",
            Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
            placed(&[("red-t2", 11.0, 26.0), ("red-t3", 8.5, 26.0)], &[]),
        ),
        "warmachine.movement.unit_overlapping",
        "Movement",
    );
    battle.play(mv_placed(
        "red-t1",
        Movement::FullAdvance { path: path(&[(10.0, 26.0)]) },
        placed(&[("red-t2", 10.0 + 2.0 * SMALL, 26.0), ("red-t3", 8.5, 26.0)], &[]),
    ));
    let bases: Vec<_> = battle.state.models.values().filter(|m| m.in_play()).map(|m| m.circle()).collect();
    for (i, a) in bases.iter().enumerate() {
        for b in &bases[i + 1..] {
            assert!(!overlaps(a, b));
        }
    }
    assert!(close(BaseSize::Small.radius_inches(), SMALL));
}

#[test]
fn if_the_trooper_that_moved_is_destroyed_before_placement_another_trooper_moves_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.play(activate("red-unit"));
    battle.play(advance("red-t1", &[(10.0, 24.0)]));
    // A judge resolves an effect that destroys it (a 0″ slam at POW 50 against ARM 12, one box).
    battle.judge(displace("red-t1", Kind::Slam, (0.0, 0.0), 0.0, Some(50), Some(0)));
    assert!(battle.model("red-t1").destroyed);
    battle.refused(
        WarmachineCommand::PlaceTroopers { placement: placed(&[("red-t2", 11.5, 24.0), ("red-t3", 8.5, 24.0)], &[]) },
        "warmachine.mover_destroyed",
        "Unit Movement",
    );
    // "the controlling player can select another model to move and choose any normal movement option"
    let events = battle.play(mv_placed(
        "red-t2",
        Movement::FullAdvance { path: path(&[(11.5, 25.0)]) },
        placed(&[("red-t3", 13.0, 25.0)], &[]),
    ));
    let E::TroopersPlaced { moved, placed, .. } = find(&events, "warmachine.TroopersPlaced") else { unreachable!() };
    assert_eq!(moved, "red-t2");
    assert_eq!(placed, &[Moved { model: "red-t3".into(), to: p(13.0, 25.0) }]);
    battle.refused(advance("red-t3", &[(13.0, 26.0)]), "warmachine.already_moved", "Movement");
    battle.play(end_activation());
}

#[test]
fn a_unit_whose_moving_trooper_was_destroyed_before_placement_may_end_its_activation_seed_000_unit_movement() {
    let mut battle = unit_scene(vec![], (10.0, 20.0));
    battle.play(activate("red-unit"));
    battle.play(advance("red-t1", &[(10.0, 24.0)]));
    battle.judge(displace("red-t1", Kind::Slam, (0.0, 0.0), 0.0, Some(50), Some(0)));
    // The player may choose another trooper to move, but need not: the others forfeit.
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
}

#[test]
fn after_a_unit_charge_troopers_with_an_enemy_in_melee_range_make_melee_attacks_seed_000_unit_charges() {
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            in_unit(model("red-t1", RED, trooper(), 10.0, 20.0), "red-unit"),
            in_unit(model("red-t2", RED, trooper(), 11.5, 20.0), "red-unit"),
            in_unit(model("red-t3", RED, trooper(), 13.0, 20.0), "red-unit"),
            model("blue-target", BLUE, dummy(), 10.0, 26.0),
            // Engages red-t3 where it starts.
            model("blue-guard", BLUE, dummy(), 13.0, 21.3),
        ],
        0,
    );
    battle.play(start_turn());
    battle.play(activate("red-unit"));
    let events = battle.play(mv_placed(
        "red-t1",
        Movement::Charge { target: "blue-target".into(), to: p(10.0, 26.0) },
        placed(&[("red-t2", 11.2, 26.0), ("red-t3", 8.5, 24.0)], &[]),
    ));
    let E::Charged { charge_attack, in_melee_range, .. } = find(&events, "warmachine.Charged") else { unreachable!() };
    assert!(*charge_attack && *in_melee_range);
    let E::TroopersPlaced { forfeit_combat, .. } = find(&events, "warmachine.TroopersPlaced") else { unreachable!() };
    // red-t3 was engaged by the guard and is not placed in its melee range: it forfeits.
    assert_eq!(forfeit_combat, &["red-t3".to_string()]);
    battle.refused(attack("red-t2", "Rifle", "blue-target"), "warmachine.unit_charge_melee", "Unit Charges");
    let events = battle.play(attack("red-t2", "Spear", "blue-target"));
    assert!(matches!(find(&events, "warmachine.AttackResolved"), E::AttackResolved { charge_attack: false, .. }));
    let events = battle.play(attack("red-t1", "Spear", "blue-target"));
    let E::AttackResolved { charge_attack, damage, .. } = find(&events, "warmachine.AttackResolved") else {
        unreachable!()
    };
    assert!(*charge_attack);
    assert!(damage[0].roll.roll.options.auto_boosted);
    battle.refused(
        attack("red-t3", "Spear", "blue-guard"),
        "warmachine.combat_forfeited",
        "Forfeiting Normal Movement or Combat Actions",
    );
}

#[test]
fn an_action_with_an_unknown_field_is_refused_not_half_understood() {
    // A typo such as `boost_atack` must not be ignored: the roll would be made unboosted and the
    // dice spent (herald: docs/rulesets/warmachine.md).
    let typo =
        serde_json::json!({"type": "attack", "attacker": "a", "weapon": "w", "target": "t", "boost_atack": true});
    let error = serde_json::from_value::<WarmachineCommand>(typo).expect_err("unknown fields are refused");
    assert!(error.to_string().contains("boost_atack"), "{error}");
    let extra = serde_json::json!({"type": "end_turn", "extra": true});
    assert!(serde_json::from_value::<WarmachineCommand>(extra).is_err());
    let fine =
        serde_json::json!({"type": "attack", "attacker": "a", "weapon": "w", "target": "t", "boost_attack": true});
    assert!(serde_json::from_value::<WarmachineCommand>(fine).is_ok());
}

/// What creating a battle with these models and table answers.
fn create_code(
    table: herald_domain::warmachine::table::Table,
    models: Vec<herald_domain::warmachine::battle::command::ModelSpec>,
) -> Option<String> {
    use herald_domain::Decider;
    let state = herald_domain::warmachine::battle::WarmachineState::default();
    let mut ctx = context(&state, judge(), 0);
    herald_domain::warmachine::battle::Warmachine::decide(&state, &create_command(table, models, 0), &mut ctx)
        .err()
        .map(|error| error.code)
}

#[test]
fn a_battle_is_refused_when_its_set_up_could_not_be_played() {
    use herald_domain::warmachine::{
        model::{Mechanic, SpecialRule},
        table::{Table, TerrainKind},
    };
    let solo_at = |x: f64, y: f64| model("red-solo", RED, solo(), x, y);
    let enemy = model("blue-solo", BLUE, solo(), 40.0, 40.0);
    // Standing inside a wall (an obstruction) — seed 000 "Movement".
    let wall = feature("wall", TerrainKind::Obstruction, (9.0, 9.0), (11.0, 11.0), 3.0);
    assert_eq!(
        create_code(table_with(vec![wall]), vec![solo_at(10.0, 10.0), enemy.clone()]).as_deref(),
        Some("warmachine.inside_obstruction")
    );
    // Standing 1e308″ up, on a 1e308″ table.
    assert_eq!(
        create_code(Table::default(), vec![raised(solo_at(10.0, 10.0), 1e308), enemy.clone()]).as_deref(),
        Some("warmachine.bad_position")
    );
    let huge = Table { width: 1e308, depth: 1e308, terrain: vec![] };
    assert_eq!(create_code(huge, vec![solo_at(10.0, 10.0), enemy.clone()]).as_deref(), Some("warmachine.table.size"));
    // An end-of-activation advance of -5″.
    let mut backwards = solo();
    backwards.special_rules.push(SpecialRule::with("Retreat", vec![Mechanic::EndOfActivationAdvance { inches: -5.0 }]));
    let spec = model("red-solo", RED, backwards, 10.0, 10.0);
    assert_eq!(
        create_code(Table::default(), vec![spec, enemy.clone()]).as_deref(),
        Some("warmachine.model.advance_distance")
    );
    // And the same battle without those faults opens.
    assert_eq!(create_code(Table::default(), vec![solo_at(10.0, 10.0), enemy]), None);
}

#[test]
fn a_profile_with_an_unknown_field_is_refused() {
    let mut profile = serde_json::to_value(solo()).expect("serializes");
    profile["stats"]["armour"] = serde_json::json!(20);
    let error = serde_json::from_value::<herald_domain::warmachine::model::ModelProfile>(profile).expect_err("refused");
    assert!(error.to_string().contains("armour"), "{error}");
}

#[test]
fn a_required_charge_no_restriction_allows_is_forfeited_and_the_activation_ends_seed_000_required_charges() {
    // Its only enemy is the model it must move directly away from: no charge at it keeps the
    // restriction, so the required charge is one it "cannot" make.
    let scenario = || {
        let mut battle = Battle::on(
            table_with(vec![]),
            vec![model("red-solo", RED, solo(), 10.0, 10.0), model("blue-target", BLUE, dummy(), 16.0, 10.0)],
            0,
        );
        battle.play(start_turn());
        let away =
            Condition::Restricted { restriction: MovementRestriction::DirectlyAway, relative_to: "blue-target".into() };
        battle.judge(set_condition("red-solo", Condition::MustCharge, None));
        battle.judge(set_condition("red-solo", away, None));
        let events = battle.play(activate("red-solo"));
        assert!(matches!(&events[0], E::Activated { required_charge: true, .. }), "{events:?}");
        battle
    };
    let mut battle = scenario();
    battle.refused(
        charge("red-solo", "blue-target", 16.0, 10.0),
        "warmachine.movement.not_directly_away",
        "Movement Restrictions",
    );
    battle.refused(advance("red-solo", &[(7.0, 10.0)]), "warmachine.required_charge_forfeit", "Required Charges");
    let events = battle.play(forfeit("red-solo"));
    let E::MovementForfeited { model, combat_forfeited, rule } = &events[0] else { panic!("{events:?}") };
    assert_eq!(model, "red-solo");
    assert!(*combat_forfeited, "it forfeits its normal movement and combat action");
    assert!(rule.contains(&heading("Required Charges")), "{rule}");
    battle.refused(
        attack("red-solo", "Carbine", "blue-target"),
        "warmachine.combat_forfeited",
        "Forfeiting Normal Movement or Combat Actions",
    );
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
    assert!(battle.state.activated.contains("red-solo"));

    // Ending the activation at once is a forfeit too, and allowed.
    let mut battle = scenario();
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
}

#[test]
fn a_model_required_to_charge_and_to_run_may_run_seed_000_required_charges() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustCharge, None));
    battle.judge(set_condition("red-solo", Condition::MustRun, None));
    let events = battle.play(activate("red-solo"));
    assert!(matches!(&events[0], E::Activated { required_charge: true, .. }), "{events:?}");
    battle.refused(charge("red-solo", "blue-target", 16.0, 10.0), "warmachine.run_required", "Run");
    battle.refused(forfeit("red-solo"), "warmachine.run_required", "Run");
    let events = battle.play(run("red-solo", &[(10.0, 21.0)]));
    let (kind, distance, cost) = advanced(&events);
    assert_eq!((kind, cost), (AdvanceKind::Run, Cost::Free));
    assert!(close(distance, 11.0));
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
    assert_eq!(battle.model("red-solo").position.centre(), p(10.0, 21.0));
    assert!(battle.state.activation.is_none());
}

#[test]
fn a_charger_already_in_melee_range_may_not_charge_out_of_it_seed_000_independent_model_charges() {
    // 0.3″ edge to edge: inside the Blade's 0.5″ melee range before the charge.
    let x = 10.0 + 2.0 * SMALL + 0.3;
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), x, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    // SPD 6 + 3″ straight away from the target, or square to it: the target ends out of range.
    for (to_x, to_y) in [(1.0, 10.0), (10.0, 1.0)] {
        battle.refused(
            charge("red-solo", "blue-target", to_x, to_y),
            "warmachine.movement.charge_direction",
            "Independent model charges",
        );
    }
    assert_eq!(battle.model("red-solo").position.centre(), p(10.0, 10.0));
    // Toward it: it contacts the target at once and stays in melee range.
    let events = battle.play(charge("red-solo", "blue-target", x, 10.0));
    let E::Charged { travelled, in_melee_range, charge_attack, stopped_by, .. } = find(&events, "warmachine.Charged")
    else {
        unreachable!()
    };
    assert!(close(*travelled, 0.3));
    assert!(*in_melee_range && !*charge_attack);
    assert_eq!(stopped_by.as_deref(), Some("blue-target"));
    battle.play(attack("red-solo", "Blade", "blue-target"));
}

#[test]
fn a_model_required_to_run_that_cannot_advance_may_not_move_but_its_run_ends_the_activation_seed_000_rule_priority() {
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 20.0, 12.0)], vec![]);
    battle.judge(set_condition("red-solo", Condition::MustRun, None));
    battle.judge(set_condition("red-solo", Condition::CannotAdvance, None));
    battle.play(activate("red-solo"));
    // "Cannot" beats "must": no advance of any length.
    battle.refused(run("red-solo", &[(16.0, 10.0)]), "warmachine.cannot_advance", "Rule Priority");
    battle.refused(run("red-solo", &[(10.5, 10.0)]), "warmachine.cannot_advance", "Rule Priority");
    battle.refused(forfeit("red-solo"), "warmachine.run_required", "Run");
    // A run of no movement at all is accepted, and it still ends the activation.
    let events = battle.play(run("red-solo", &[]));
    let (kind, distance, _) = advanced(&events);
    assert_eq!(kind, AdvanceKind::Run);
    assert!(close(distance, 0.0));
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
    assert_eq!(battle.model("red-solo").position.centre(), p(10.0, 10.0));
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.no_activation", "Activation Phase");
}

#[test]
fn a_charger_must_attack_before_ending_its_activation_unless_its_target_cannot_be_attacked_seed_000_charge() {
    // The charged model is destroyed before the attack (a judge's 0″ slam at POW 50 against a
    // solo's ARM 13 and 5 boxes).
    let mut battle = scene(vec![model("blue-target", BLUE, solo(), 16.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    battle.play(charge("red-solo", "blue-target", 16.0, 10.0));
    battle.refused(end_activation(), "warmachine.charge_attack_required", "Charge");
    battle.judge(displace("blue-target", Kind::Slam, (22.0, 10.0), 0.0, Some(50), Some(0)));
    assert!(battle.model("blue-target").destroyed);
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");

    // The charged model is pushed out of melee range before the attack.
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 16.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    battle.play(charge("red-solo", "blue-target", 16.0, 10.0));
    battle.refused(end_activation(), "warmachine.charge_attack_required", "Charge");
    battle.judge(displace("blue-target", Kind::Push, (10.0, 10.0), 3.0, None, None));
    assert!(battle.model("blue-target").in_play());
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");

    // A failed charge never had a charge attack to make.
    let mut battle = scene(vec![model("blue-target", BLUE, dummy(), 30.0, 10.0)], vec![]);
    battle.play(activate("red-solo"));
    let events = battle.play(charge("red-solo", "blue-target", 19.0, 10.0));
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
}

#[test]
fn a_unit_whose_moving_trooper_died_may_aim_or_forfeit_with_another_then_attack_seed_000_unit_movement() {
    let destroyed_mover = || {
        let mut battle = unit_scene(vec![], (10.0, 20.0));
        battle.play(activate("red-unit"));
        battle.play(advance("red-t1", &[(10.0, 24.0)]));
        battle.judge(displace("red-t1", Kind::Slam, (0.0, 0.0), 0.0, Some(50), Some(0)));
        assert!(battle.model("red-t1").destroyed);
        battle
    };

    // Aim.
    let mut battle = destroyed_mover();
    let events = battle.play(aim("red-t2"));
    for trooper in ["red-t2", "red-t3"] {
        assert!(events.contains(&E::Aimed { model: trooper.into() }), "{events:?}");
    }
    let activation = battle.state.activation.as_ref().expect("still activating");
    assert!(activation.movement_done && activation.awaiting_placement.is_none());
    battle.refused(advance("red-t3", &[(13.0, 21.0)]), "warmachine.already_moved", "Movement");
    for trooper in ["red-t2", "red-t3"] {
        let events = battle.play(attack(trooper, "Rifle", "blue-target"));
        let E::AttackResolved { roll, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
        assert_eq!(roll.aim_bonus, 2, "{trooper} aimed");
        assert_eq!(roll.total, dice_sum(&roll.roll) + 5 + 2);
    }
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");

    // Forfeit.
    let mut battle = destroyed_mover();
    let events = battle.play(forfeit("red-t3"));
    assert!(events
        .iter()
        .any(|e| matches!(e, E::MovementForfeited { model, combat_forfeited: false, .. } if model == "red-t2")));
    let events = battle.play(attack("red-t3", "Rifle", "blue-target"));
    let E::AttackResolved { roll, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert_eq!(roll.aim_bonus, 0);
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
}
