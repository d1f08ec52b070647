//! The warmachine battle decider's triggered effects, "any time" special rules and unintentional
//! movement (seed 000 "Triggers", "Active or Inactive player", "Use of Any Tie Special Rules"
//! [sic], "Slammed", "Thrown", "Beyond the Play Area", "Falling", "Rule of Least Disturbance").

#[path = "warmachine_battle_support.rs"]
mod support;

use herald_domain::warmachine::{
    battle::{
        command::{ModelSpec, Movement, Placement, UnitPlacement},
        event::DamageDealt,
        state::Condition,
        WarmachineCommand, WarmachineEvent as E,
    },
    model::{BaseSize, Mechanic, ModelProfile, SpecialRule, TriggerCondition},
    table::{overlaps, Point, TerrainKind},
};
use herald_domain::RuleError;
use support::*;

const SMALL: f64 = 0.590_551_181_102_362_2;
const LARGE: f64 = 0.984_251_968_503_937;
/// The decider's citation of the seed's "Use of Any Tie Special Rules" (the seed's typo corrected).
const ANY_TIME: &str = "Use of Any Time Special Rules";

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn dummy() -> ModelProfile {
    let mut profile = solo();
    profile.stats.def = 5;
    profile.stats.arm = 40;
    profile
}

fn trigger(name: &str, condition: TriggerCondition, optional: bool) -> SpecialRule {
    SpecialRule::with(name, vec![Mechanic::Trigger { condition, optional }])
}

fn any_time(name: &str) -> SpecialRule {
    SpecialRule::with(name, vec![Mechanic::AnyTime])
}

fn battle_of(models: Vec<ModelSpec>, terrain: Vec<herald_domain::warmachine::table::TerrainFeature>) -> Battle {
    Battle::on(table_with(terrain), models, 0)
}

// ---------------------------------------------------------------------------------------------
// Triggers
// ---------------------------------------------------------------------------------------------

/// Red's solo (Follow Up: an optional AttackHit trigger; Quick Work: any time) beside a blue
/// target (Retaliate: an AttackHit trigger without an optional part) it always hits.
fn triggers_scene() -> Battle {
    let attacker = with_special(
        with_special(solo(), trigger("Follow Up", TriggerCondition::AttackHit, true)),
        any_time("Quick Work"),
    );
    let target = with_special(dummy(), trigger("Retaliate", TriggerCondition::AttackHit, false));
    let mut battle = battle_of(
        vec![
            model("red-solo", RED, attacker, 10.0, 10.0),
            model("blue-target", BLUE, target, 10.0 + 2.0 * SMALL + 0.1, 10.0),
        ],
        vec![],
    );
    battle.play(start_turn());
    battle.play(activate("red-solo"));
    battle.play(forfeit("red-solo"));
    battle
}

#[test]
fn the_active_players_triggered_effects_resolve_before_the_inactive_players_seed_000_triggers() {
    let mut battle = triggers_scene();
    let events = battle.play(attack("red-solo", "Blade", "blue-target"));
    let E::AttackResolved { roll, triggers, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert!(roll.hit);
    assert_eq!(triggers, &[triggered("red-solo", "Follow Up"), triggered("blue-target", "Retaliate")]);
    assert_eq!(battle.state.pending_triggers.len(), 2);
    // Blue's controller may resolve blue's trigger, but not before red's.
    battle.refused_by(bob(), resolve("blue-target", "Retaliate", false), "warmachine.active_player_first", "Triggers");
    let error = battle.attempt(alice(), resolve("blue-target", "Retaliate", false)).expect_err("not alice's");
    assert!(error.forbidden);
    battle.refused_by(alice(), resolve("red-solo", "Retaliate", false), "warmachine.no_such_trigger", "Triggers");
    let events = battle.by(alice(), resolve("red-solo", "Follow Up", false));
    assert_eq!(
        events,
        [E::TriggerResolved {
            model: "red-solo".into(),
            rule: "Follow Up".into(),
            resolved: true,
            declined_optional: false,
            reason: format!("resolved ({})", heading("Triggers")),
        }]
    );
    let events = battle.by(bob(), resolve("blue-target", "Retaliate", false));
    assert!(matches!(&events[0], E::TriggerResolved { resolved: true, .. }));
    assert!(battle.state.pending_triggers.is_empty());
    battle.play(end_activation());
}

#[test]
fn an_optional_part_may_be_declined_and_the_trigger_still_counts_as_resolved_seed_000_triggers() {
    let mut battle = triggers_scene();
    battle.play(attack("red-solo", "Blade", "blue-target"));
    let events = battle.by(alice(), resolve("red-solo", "Follow Up", true));
    assert!(matches!(&events[0], E::TriggerResolved { resolved: true, declined_optional: true, .. }), "{events:?}");
    assert_eq!(battle.state.pending_triggers.len(), 1, "it counts as resolved");
    // Retaliate has no optional part to decline.
    battle.refused_by(bob(), resolve("blue-target", "Retaliate", true), "warmachine.not_optional", "Triggers");
    battle.by(bob(), resolve("blue-target", "Retaliate", false));
}

#[test]
fn nothing_else_happens_while_triggered_effects_are_pending_seed_000_triggers() {
    let mut battle = triggers_scene();
    battle.play(attack("red-solo", "Blade", "blue-target"));
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.triggers_pending", "Triggers");
    battle.refused(end_activation(), "warmachine.triggers_pending", "Triggers");
    battle.refused(advance("red-solo", &[(9.0, 10.0)]), "warmachine.triggers_pending", "Triggers");
    battle.refused(use_rule("red-solo", "Quick Work"), "warmachine.during_trigger", ANY_TIME);
    battle.refused(end_turn(), "warmachine.activation_open", "Activation Phase");
    battle.by(alice(), resolve("red-solo", "Follow Up", false));
    battle.refused(end_activation(), "warmachine.triggers_pending", "Triggers");
    battle.by(bob(), resolve("blue-target", "Retaliate", false));
    battle.play(use_rule("red-solo", "Quick Work"));
    battle.play(end_activation());
}

#[test]
fn attack_hit_triggers_need_a_hit_while_after_attack_triggers_fire_on_a_miss_seed_000_triggers() {
    let mut blade = melee("Blade", 11);
    blade.special_rules.push(trigger("Recoil", TriggerCondition::AfterAttackResolved, false));
    let mut attacker = with_special(solo(), trigger("Follow Up", TriggerCondition::AttackHit, true));
    attacker.weapons = vec![blade];
    let mut target = with_special(dummy(), trigger("Retaliate", TriggerCondition::AttackHit, false));
    target.stats.def = 30; // never hit
    let mut battle = battle_of(
        vec![
            model("red-solo", RED, attacker, 10.0, 10.0),
            model("blue-target", BLUE, target, 10.0 + 2.0 * SMALL + 0.1, 10.0),
        ],
        vec![],
    );
    battle.play(start_turn());
    battle.play(activate("red-solo"));
    battle.play(forfeit("red-solo"));
    let events = battle.play(attack("red-solo", "Blade", "blue-target"));
    let E::AttackResolved { roll, triggers, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert!(!roll.hit);
    assert_eq!(triggers, &[triggered("red-solo", "Recoil")]);
}

#[test]
fn a_trigger_whose_model_was_destroyed_does_not_resolve_seed_000_triggers() {
    let mut fragile = with_special(solo(), trigger("Death Throes", TriggerCondition::AttackHit, false));
    fragile.stats.def = 5;
    fragile.stats.arm = 5;
    fragile.damage = herald_domain::warmachine::model::DamageCapacity::Boxes { boxes: 1 };
    let mut battle = battle_of(
        vec![
            model("red-solo", RED, solo(), 10.0, 10.0),
            model("blue-fragile", BLUE, fragile, 10.0 + 2.0 * SMALL + 0.1, 10.0),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        vec![],
    );
    battle.play(start_turn());
    battle.play(activate("red-solo"));
    battle.play(forfeit("red-solo"));
    let events = battle.play(attack("red-solo", "Blade", "blue-fragile"));
    assert!(events.iter().any(|e| matches!(e, E::ModelDestroyed { model, .. } if model == "blue-fragile")));
    assert_eq!(battle.state.pending_triggers.len(), 1);
    let events = battle.by(bob(), resolve("blue-fragile", "Death Throes", false));
    let E::TriggerResolved { resolved, declined_optional, reason, .. } = &events[0] else { panic!("{events:?}") };
    assert!(!*resolved && !*declined_optional);
    assert!(reason.contains("no longer"), "{reason}");
    assert!(battle.state.pending_triggers.is_empty());
    battle.play(end_activation());
}

// ---------------------------------------------------------------------------------------------
// "Any time" special rules
// ---------------------------------------------------------------------------------------------

#[test]
fn an_any_time_rule_is_used_before_or_after_moving_and_attacking_seed_000_use_of_any_time_special_rules() {
    let profile = with_special(with_special(solo(), any_time("Quick Work")), SpecialRule::named("Pathfinder"));
    let mut battle = battle_of(
        vec![model("red-solo", RED, profile, 10.0, 10.0), model("blue-target", BLUE, dummy(), 18.0, 10.0)],
        vec![],
    );
    battle.play(start_turn());
    battle.refused(use_rule("red-solo", "Quick Work"), "warmachine.no_activation", "Activation Phase");
    battle.play(activate("red-solo"));
    assert_eq!(
        battle.play(use_rule("red-solo", "Quick Work")),
        [E::SpecialRuleUsed { model: "red-solo".into(), rule: "Quick Work".into(), target: None }]
    );
    battle.play(advance("red-solo", &[(12.0, 10.0)]));
    battle.play(use_rule("red-solo", "Quick Work"));
    battle.play(attack("red-solo", "Carbine", "blue-target"));
    battle.play(use_rule("red-solo", "Quick Work"));
    battle.refused(use_rule("red-solo", "Pathfinder"), "warmachine.not_any_time", ANY_TIME);
}

#[test]
fn an_any_time_rule_cannot_be_used_after_running_seed_000_use_of_any_time_special_rules() {
    // A unit's trooper that ran while the others wait to be placed: its activation is still open.
    let profile = with_special(trooper(), any_time("Quick Work"));
    let mut battle = battle_of(
        vec![
            in_unit(model("red-t1", RED, profile.clone(), 10.0, 20.0), "red-unit"),
            in_unit(model("red-t2", RED, profile, 11.5, 20.0), "red-unit"),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        vec![],
    );
    battle.play(start_turn());
    battle.play(activate("red-unit"));
    battle.play(run("red-t1", &[(10.0, 31.0)]));
    battle.refused(use_rule("red-t1", "Quick Work"), "warmachine.after_running", ANY_TIME);
    battle.refused(use_rule("red-t2", "Quick Work"), "warmachine.during_movement", ANY_TIME);
    let events = battle.play(WarmachineCommand::PlaceTroopers {
        placement: UnitPlacement {
            placed: vec![Placement { model: "red-t2".into(), at: Point::new(11.5, 31.0) }],
            cannot_place: vec![],
        },
    });
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "the unit ran: its activation ends");
    battle.refused(use_rule("red-t1", "Quick Work"), "warmachine.no_activation", "Activation Phase");
}

#[test]
fn an_independent_model_that_ran_has_no_activation_left_to_use_rules_in_seed_000_run() {
    let mut battle = battle_of(
        vec![
            model("red-solo", RED, with_special(solo(), any_time("Quick Work")), 10.0, 10.0),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        vec![],
    );
    battle.play(start_turn());
    battle.play(activate("red-solo"));
    battle.play(mv("red-solo", Movement::Run { path: path(&[(10.0, 21.0)]) }));
    battle.refused(use_rule("red-solo", "Quick Work"), "warmachine.no_activation", "Activation Phase");
}

// ---------------------------------------------------------------------------------------------
// Unintentional movement
// ---------------------------------------------------------------------------------------------

fn displaced(events: &[E]) -> &E {
    find(events, "warmachine.Displaced")
}

fn damage_of(events: &[E]) -> Vec<DamageDealt> {
    match displaced(events) {
        E::Displaced { damage, .. } => damage.clone(),
        _ => unreachable!(),
    }
}

fn no_overlaps(battle: &Battle) {
    let bases: Vec<_> =
        battle.state.models.values().filter(|m| m.in_play()).map(|m| (m.id().to_string(), m.circle())).collect();
    for (i, (a, ca)) in bases.iter().enumerate() {
        for (b, cb) in &bases[i + 1..] {
            assert!(!overlaps(ca, cb), "{a} overlaps {b}");
        }
    }
}

#[test]
fn a_model_slammed_into_an_equal_base_stops_and_its_damage_roll_gains_a_die_seed_000_slammed() {
    let mut battle =
        battle_of(vec![model("blue-a", BLUE, dummy(), 20.0, 20.0), model("red-b", RED, dummy(), 23.0, 20.0)], vec![]);
    let error = battle.attempt(alice(), displace("blue-a", Kind::Slam, (18.0, 20.0), 5.0, Some(10), Some(8)));
    assert!(error.expect_err("judges only").forbidden);
    let events = battle.judge(displace("blue-a", Kind::Slam, (18.0, 20.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, stopped_by, contacted, knocked_down, relocated, .. } = displaced(&events) else {
        unreachable!()
    };
    assert!(close(to.x, 23.0 - 2.0 * SMALL) && close(to.y, 20.0));
    assert_eq!(stopped_by.as_deref(), Some("red-b"));
    assert_eq!(contacted, &["red-b".to_string()]);
    assert_eq!(knocked_down, &["blue-a".to_string(), "red-b".to_string()]);
    assert!(relocated.is_empty());
    let damage = damage_of(&events);
    let slam = &damage[0];
    assert_eq!((slam.model.as_str(), slam.source.as_str()), ("blue-a", "slam"));
    assert_eq!(slam.roll.roll.options.additional_dice, [format!("{} contact", heading("Slammed"))]);
    assert_eq!(slam.roll.roll.draws.len(), 3);
    assert_eq!(slam.roll.total, dice_sum(&slam.roll.roll) + 10);
    // An equal base contacted suffers collateral damage, never boosted.
    let collateral = &damage[1];
    assert_eq!((collateral.model.as_str(), collateral.source.as_str()), ("red-b", "collateral"));
    assert_eq!(collateral.roll.roll.expression.to_string(), "2d6+8");
    assert_eq!(collateral.roll.roll.draws.len(), 2);
    assert!(has(&battle, "blue-a", &Condition::KnockedDown) && has(&battle, "red-b", &Condition::KnockedDown));
    assert_eq!(battle.model("red-b").position.centre(), p(23.0, 20.0));
    no_overlaps(&battle);
}

#[test]
fn a_model_slammed_through_a_smaller_base_deals_it_collateral_damage_without_an_extra_die_seed_000_slammed() {
    let mut battle = battle_of(
        vec![model("red-beast", RED, warbeast(), 20.0, 30.0), model("blue-small", BLUE, dummy(), 22.5, 30.0)],
        vec![],
    );
    let events = battle.judge(displace("red-beast", Kind::Slam, (18.0, 30.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, stopped_by, contacted, knocked_down, .. } = displaced(&events) else { unreachable!() };
    assert!(close(to.x, 25.0), "it moves through the smaller base");
    assert_eq!(*stopped_by, None);
    assert_eq!(contacted, &["blue-small".to_string()]);
    assert_eq!(knocked_down, &["red-beast".to_string(), "blue-small".to_string()]);
    let damage = damage_of(&events);
    assert!(damage[0].roll.roll.options.additional_dice.is_empty(), "a smaller base adds no die");
    assert_eq!(damage[0].roll.roll.draws.len(), 2);
    assert_eq!((damage[1].model.as_str(), damage[1].source.as_str()), ("blue-small", "collateral"));
    assert_eq!(damage[1].roll.roll.expression.to_string(), "2d6+8");
    no_overlaps(&battle);
}

#[test]
fn a_slam_stops_at_the_table_edge_without_an_extra_die_seed_000_beyond_the_play_area() {
    let mut battle =
        battle_of(vec![model("blue-a", BLUE, dummy(), 46.0, 10.0), model("red-b", RED, dummy(), 4.0, 4.0)], vec![]);
    let events = battle.judge(displace("blue-a", Kind::Slam, (40.0, 10.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, stopped_by, contacted, .. } = displaced(&events) else { unreachable!() };
    assert!(close(to.x, 48.0 - SMALL));
    assert_eq!(stopped_by.as_deref(), Some("the table edge"));
    assert!(contacted.is_empty());
    let damage = damage_of(&events);
    assert_eq!(damage.len(), 1);
    assert!(damage[0].roll.roll.options.additional_dice.is_empty());
    assert_eq!(damage[0].roll.roll.draws.len(), 2);
    assert!(battle.model("blue-a").in_play(), "it remains in play");
}

#[test]
fn a_thrown_models_damage_is_labelled_a_throw_not_a_slam_seed_000_thrown() {
    let mut battle =
        battle_of(vec![model("blue-a", BLUE, dummy(), 20.0, 20.0), model("red-b", RED, dummy(), 23.0, 20.0)], vec![]);
    // A throw without its POW is refused under the rule for throws, naming a throw.
    let error = battle.refused_by(
        judge(),
        displace("blue-a", Kind::Throw, (18.0, 20.0), 5.0, None, None),
        "warmachine.slam_pow_required",
        "Thrown",
    );
    assert!(error.message.contains("a throw needs") && !error.message.contains("slam"), "{}", error.message);
    let events = battle.judge(displace("blue-a", Kind::Throw, (18.0, 20.0), 5.0, Some(10), Some(8)));
    let damage = damage_of(&events);
    let (thrown, collateral) = (&damage[0], &damage[1]);
    assert_eq!((thrown.model.as_str(), thrown.source.as_str()), ("blue-a", "throw"));
    assert_eq!((collateral.model.as_str(), collateral.source.as_str()), ("red-b", "collateral"));
    assert!(thrown.roll.rule.contains(&heading("Thrown")) && !thrown.roll.rule.contains("Slammed"));
    assert_eq!(thrown.roll.roll.options.additional_dice, [format!("{} contact", heading("Thrown"))]);
    for hit in &damage {
        for draw in &hit.roll.roll.draws {
            assert!(draw.purpose.starts_with("throw ") && !draw.purpose.contains("slam"), "{}", draw.purpose);
        }
    }
}

/// An elevated surface `height` inches high from (30, 30) to (36, 36).
fn ledge(height: f64) -> Vec<herald_domain::warmachine::table::TerrainFeature> {
    vec![feature("ledge", TerrainKind::ElevatedSurface, (30.0, 30.0), (36.0, 36.0), height)]
}

#[test]
fn a_model_thrown_off_a_2_inch_ledge_falls_and_suffers_a_pow_12_damage_roll_seed_000_falling() {
    let mut battle = battle_of(
        vec![raised(model("blue-a", BLUE, dummy(), 33.0, 33.0), 2.0), model("red-b", RED, dummy(), 4.0, 4.0)],
        ledge(2.0),
    );
    let events = battle.judge(displace("blue-a", Kind::Throw, (31.0, 33.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, elevation, knocked_down, .. } = displaced(&events) else { unreachable!() };
    assert!(close(to.x, 38.0) && *elevation == 0.0);
    assert_eq!(knocked_down, &["blue-a".to_string()]);
    let damage = damage_of(&events);
    let sources: Vec<&str> = damage.iter().map(|d| d.source.as_str()).collect();
    assert_eq!(sources, ["throw", "fall"]);
    let fall = &damage[1].roll;
    assert_eq!(fall.roll.expression.to_string(), "2d6+12", "a fall of up to 2″: 2d6 + 12");
    assert_eq!(fall.total, dice_sum(&fall.roll) + 12);
    assert!(fall.rule.contains(&heading("Falling")));
    assert_eq!(battle.model("blue-a").position.elevation, 0.0);
}

#[test]
fn a_fall_of_5_inches_is_a_4d6_plus_12_damage_roll_seed_000_falling() {
    let mut battle = battle_of(
        vec![raised(model("blue-a", BLUE, dummy(), 33.0, 33.0), 5.0), model("red-b", RED, dummy(), 4.0, 4.0)],
        ledge(5.0),
    );
    let events = battle.judge(displace("blue-a", Kind::Push, (31.0, 33.0), 5.0, None, None));
    let damage = damage_of(&events);
    assert_eq!(damage.len(), 1, "a push has no damage roll of its own, only the fall's");
    assert_eq!(damage[0].roll.roll.expression.to_string(), "4d6+12");
}

#[test]
fn a_model_thrown_onto_another_stays_put_and_the_other_is_moved_the_least_seed_000_rule_of_least_disturbance() {
    let mut battle = battle_of(
        vec![
            raised(model("red-beast", RED, warbeast(), 33.0, 33.0), 2.0),
            model("blue-small", BLUE, dummy(), 38.0, 33.0),
        ],
        ledge(2.0),
    );
    let events = battle.judge(displace("red-beast", Kind::Throw, (31.0, 33.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, relocated, tie_break, knocked_down, contacted, .. } = displaced(&events) else {
        unreachable!()
    };
    assert_eq!(*to, p(38.0, 33.0), "the model that was moving stays in its final position");
    assert_eq!(relocated.len(), 1);
    assert_eq!(relocated[0].model, "blue-small");
    // Centred over it: every direction is as short, so a recorded die chose one.
    assert!(close(relocated[0].to.distance(p(38.0, 33.0)), LARGE + SMALL));
    assert!(tie_break.is_some());
    assert_eq!(contacted, &["blue-small".to_string()]);
    assert!(knocked_down.contains(&"blue-small".to_string()));
    let damage = damage_of(&events);
    let hits: Vec<(&str, &str)> = damage.iter().map(|d| (d.model.as_str(), d.source.as_str())).collect();
    assert_eq!(
        hits,
        [("red-beast", "throw"), ("blue-small", "collateral"), ("red-beast", "fall"), ("blue-small", "fall")]
    );
    assert_eq!(battle.model("blue-small").position.centre(), relocated[0].to);
    no_overlaps(&battle);
}

#[test]
fn a_model_moved_out_of_the_way_never_ends_inside_an_obstruction_seed_000_rule_of_least_disturbance() {
    // Thrown 5″ east, the warbeast lands overlapping the small model; straight on east would put
    // the small model into the wall, so it goes round: against the warbeast and the wall at once,
    // north or south (a tie, broken by a recorded die).
    let wall = feature("wall", TerrainKind::Obstruction, (39.9, 20.0), (41.0, 46.0), 3.0);
    let mut battle = battle_of(
        vec![model("red-beast", RED, warbeast(), 33.0, 33.0), model("blue-small", BLUE, dummy(), 38.5, 33.0)],
        vec![wall],
    );
    let events = battle.judge(displace("red-beast", Kind::Throw, (31.0, 33.0), 5.0, Some(10), Some(8)));
    let E::Displaced { to, relocated, tie_break, .. } = displaced(&events) else { unreachable!() };
    assert_eq!(*to, p(38.0, 33.0));
    assert_eq!(relocated.len(), 1);
    let x = 39.9 - SMALL;
    let y = ((LARGE + SMALL).powi(2) - (x - 38.0).powi(2)).sqrt();
    assert!(close(relocated[0].to.x, x) && close((relocated[0].to.y - 33.0).abs(), y), "{:?}", relocated[0]);
    assert_eq!(tie_break.as_ref().map(|roll| roll.expression.to_string()).as_deref(), Some("d2"), "two options tie");
    let small = battle.model("blue-small");
    assert!(!battle.state.table.terrain[0].overlaps_base(&small.circle()));
    no_overlaps(&battle);
}

#[test]
fn a_falling_model_damages_a_smaller_model_it_lands_base_to_base_with_seed_000_falling() {
    // Contact is base to base: the small model is touched, not landed on, and is not moved.
    let mut battle = battle_of(
        vec![
            raised(model("red-beast", RED, warbeast(), 33.0, 33.0), 2.0),
            model("blue-small", BLUE, dummy(), 38.0 + LARGE + SMALL, 33.0),
        ],
        ledge(2.0),
    );
    let events = battle.judge(displace("red-beast", Kind::Throw, (31.0, 33.0), 5.0, Some(10), Some(8)));
    let E::Displaced { relocated, .. } = displaced(&events) else { unreachable!() };
    assert!(relocated.is_empty());
    let damage = damage_of(&events);
    let hits: Vec<(&str, &str)> = damage.iter().map(|d| (d.model.as_str(), d.source.as_str())).collect();
    assert_eq!(
        hits,
        [("red-beast", "throw"), ("blue-small", "collateral"), ("red-beast", "fall"), ("blue-small", "fall")]
    );
    assert_eq!(damage[3].roll.roll.expression.to_string(), "2d6+12", "the same damage roll as the falling model");
    assert!(has(&battle, "blue-small", &Condition::KnockedDown));
    assert!(close(BaseSize::Large.radius_inches(), LARGE));
}

#[test]
fn a_larger_model_a_falling_model_lands_beside_suffers_no_fall_damage_seed_000_falling() {
    let mut battle = battle_of(
        vec![
            raised(model("blue-a", BLUE, dummy(), 33.0, 33.0), 2.0),
            model("red-beast", RED, warbeast(), 38.0 + LARGE + SMALL, 33.0),
        ],
        ledge(2.0),
    );
    let events = battle.judge(displace("blue-a", Kind::Push, (31.0, 33.0), 5.0, None, None));
    let damage = damage_of(&events);
    let hits: Vec<(&str, &str)> = damage.iter().map(|d| (d.model.as_str(), d.source.as_str())).collect();
    assert_eq!(hits, [("blue-a", "fall")]);
    assert!(!has(&battle, "red-beast", &Condition::KnockedDown));
}

// ---------------------------------------------------------------------------------------------
// Falling after normal movement
// ---------------------------------------------------------------------------------------------

/// The `warmachine.Fell` event among `events`: the model, how far it dropped, its damage.
fn fell(events: &[E]) -> (String, f64, Vec<DamageDealt>) {
    match find(events, "warmachine.Fell") {
        E::Fell { model, drop_inches, damage, .. } => (model.clone(), *drop_inches, damage.clone()),
        _ => unreachable!(),
    }
}

/// The fall's damage roll against `id`: `dice`d6 + POW 12.
fn assert_fall_roll(damage: &[DamageDealt], id: &str, dice: usize) {
    assert_eq!(damage.len(), 1, "{damage:?}");
    assert_eq!((damage[0].model.as_str(), damage[0].source.as_str()), (id, "fall"));
    let roll = &damage[0].roll;
    assert_eq!(roll.pow, 12, "a fall is a POW 12 damage roll");
    assert_eq!(roll.roll.draws.len(), dice);
    assert_eq!(roll.roll.expression.to_string(), format!("{dice}d6+12"));
    assert_eq!(roll.total, dice_sum(&roll.roll) + 12);
    assert_eq!(roll.target_arm, 40);
    assert!(roll.rule.contains(&heading("Falling")), "{}", roll.rule);
}

#[test]
fn a_model_that_full_advances_off_an_elevated_surface_falls_and_stands_on_the_table_seed_000_falling() {
    let mut battle = battle_of(
        vec![raised(model("red-a", RED, dummy(), 33.0, 33.0), 2.0), model("blue-b", BLUE, dummy(), 4.0, 4.0)],
        ledge(2.0),
    );
    battle.play(start_turn());
    battle.play(activate("red-a"));
    let events = battle.play(advance("red-a", &[(33.0, 38.0)]));
    assert_eq!(types(&events), ["warmachine.Advanced", "warmachine.Fell"]);
    let (model, drop_inches, damage) = fell(&events);
    assert_eq!(model, "red-a");
    assert!(close(drop_inches, 2.0), "{drop_inches}");
    assert_fall_roll(&damage, "red-a", 2);
    assert!(has(&battle, "red-a", &Condition::KnockedDown));
    assert_eq!(battle.model("red-a").position.centre(), p(33.0, 38.0));
    assert_eq!(battle.model("red-a").position.elevation, 0.0, "it stands on the table now");
    battle.play(end_activation());

    // Standing on the table: a later 1″ push across flat ground is no fall.
    let events = battle.judge(displace("red-a", Kind::Push, (33.0, 37.0), 1.0, None, None));
    let E::Displaced { to, elevation, .. } = displaced(&events) else { unreachable!() };
    assert!(close(to.y, 39.0) && *elevation == 0.0);
    assert!(damage_of(&events).is_empty(), "no fall, no damage roll");
    assert_eq!(battle.model("red-a").position.elevation, 0.0);
}

#[test]
fn a_model_that_charges_off_an_elevated_surface_falls_seed_000_falling() {
    // A 5″ ledge: a fall of 5″ is 2 dice + 2 more (one per further 2″, rounded up). The charge
    // ends in melee range of its target but not in base contact with it, so nobody is fallen on.
    let mut battle = battle_of(
        vec![raised(model("red-a", RED, dummy(), 33.0, 33.0), 5.0), model("blue-b", BLUE, dummy(), 33.0, 39.5)],
        ledge(5.0),
    );
    battle.play(start_turn());
    battle.play(activate("red-a"));
    let events = battle.play(charge("red-a", "blue-b", 33.0, 38.0));
    assert_eq!(types(&events), ["warmachine.Charged", "warmachine.Fell"]);
    let E::Charged { to, travelled, in_melee_range, charge_attack, stopped_by, .. } =
        find(&events, "warmachine.Charged")
    else {
        unreachable!()
    };
    assert_eq!(*to, p(33.0, 38.0), "off the ledge, which ends at y = 36");
    assert!(close(*travelled, 5.0) && *in_melee_range && *charge_attack && stopped_by.is_none());
    let (model, drop_inches, damage) = fell(&events);
    assert_eq!(model, "red-a");
    assert!(close(drop_inches, 5.0), "{drop_inches}");
    assert_fall_roll(&damage, "red-a", 4);
    assert!(has(&battle, "red-a", &Condition::KnockedDown));
    assert_eq!(battle.model("red-a").position.elevation, 0.0);
    // The charge attack is still to be made.
    battle.refused(end_activation(), "warmachine.charge_attack_required", "Charge");
    let events = battle.play(attack("red-a", "Blade", "blue-b"));
    assert!(matches!(find(&events, "warmachine.AttackResolved"), E::AttackResolved { charge_attack: true, .. }));
    battle.play(end_activation());
}

#[test]
fn a_model_that_advances_on_flat_ground_or_onto_an_elevated_surface_does_not_fall_seed_000_falling() {
    let mut battle = battle_of(
        vec![
            model("red-a", RED, dummy(), 20.0, 33.0),
            model("red-c", RED, dummy(), 26.0, 33.0),
            model("blue-b", BLUE, dummy(), 4.0, 4.0),
        ],
        ledge(2.0),
    );
    battle.play(start_turn());
    battle.play(activate("red-a"));
    let events = battle.play(advance("red-a", &[(20.0, 38.0)]));
    assert_eq!(types(&events), ["warmachine.Advanced"]);
    assert_eq!(battle.model("red-a").position.elevation, 0.0);
    assert!(!has(&battle, "red-a", &Condition::KnockedDown));
    battle.play(end_activation());
    // Onto the ledge: it stands 2″ up, and does not fall.
    battle.play(activate("red-c"));
    let events = battle.play(advance("red-c", &[(31.0, 33.0)]));
    assert_eq!(types(&events), ["warmachine.Advanced"]);
    assert_eq!(battle.model("red-c").position.elevation, 2.0);
    assert!(!has(&battle, "red-c", &Condition::KnockedDown));
    battle.play(end_activation());
    battle.play(end_turn());
    battle.pass_turn();
    // And stepping back off it is a 2″ fall.
    battle.play(start_turn());
    battle.play(activate("red-c"));
    let events = battle.play(advance("red-c", &[(27.0, 33.0)]));
    let (model, drop_inches, damage) = fell(&events);
    assert_eq!(model, "red-c");
    assert!(close(drop_inches, 2.0));
    assert_fall_roll(&damage, "red-c", 2);
    assert_eq!(battle.model("red-c").position.elevation, 0.0);
}

#[test]
fn a_charger_that_falls_onto_the_model_it_contacts_knocks_it_down_with_the_same_damage_roll_seed_000_falling() {
    // "If a falling model contacts a model with an equal or smaller base, the contacted model
    // becomes knocked down and suffers the same damage roll as the falling model."
    let mut battle = battle_of(
        vec![raised(model("red-a", RED, dummy(), 33.0, 33.0), 2.0), model("blue-b", BLUE, dummy(), 33.0, 39.0)],
        ledge(2.0),
    );
    battle.play(start_turn());
    battle.play(activate("red-a"));
    let events = battle.play(charge("red-a", "blue-b", 33.0, 39.0));
    let E::Charged { stopped_by, .. } = find(&events, "warmachine.Charged") else { unreachable!() };
    assert_eq!(stopped_by.as_deref(), Some("blue-b"), "it stops in base contact");
    let E::Fell { knocked_down, damage, .. } = find(&events, "warmachine.Fell") else { unreachable!() };
    assert_eq!(knocked_down, &["red-a".to_string(), "blue-b".to_string()]);
    assert_eq!(damage.iter().map(|d| d.model.as_str()).collect::<Vec<_>>(), ["red-a", "blue-b"]);
    assert!(damage.iter().all(|d| d.roll.pow == 12 && d.roll.roll.draws.len() == 2));
    assert!(has(&battle, "blue-b", &Condition::KnockedDown));
}

#[test]
fn a_trooper_killed_by_its_own_fall_leaves_the_unit_to_move_another_seed_000_unit_movement() {
    // A 1-box trooper walking off a 2″ ledge takes 2d6 + 12 against ARM 12: at least 2 damage.
    // The move is recorded (not refused for its placement), and another trooper moves instead.
    let trooper_at = |id: &str, x: f64, y: f64| in_unit(model(id, RED, trooper(), x, y), "red-unit");
    let mut battle = battle_of(
        vec![
            raised(trooper_at("red-t1", 33.0, 33.0), 2.0),
            trooper_at("red-t2", 20.0, 20.0),
            trooper_at("red-t3", 21.5, 20.0),
            model("blue-b", BLUE, dummy(), 4.0, 44.0),
        ],
        ledge(2.0),
    );
    battle.play(start_turn());
    battle.play(activate("red-unit"));
    let placement = UnitPlacement {
        placed: vec![
            Placement { model: "red-t2".into(), at: p(33.0, 39.5) },
            Placement { model: "red-t3".into(), at: p(34.5, 39.5) },
        ],
        cannot_place: vec![],
    };
    let events = battle.play(mv_placed("red-t1", Movement::FullAdvance { path: path(&[(33.0, 38.0)]) }, placement));
    assert_eq!(types(&events), ["warmachine.Advanced", "warmachine.Fell", "warmachine.ModelDestroyed"]);
    assert!(battle.model("red-t1").destroyed);
    battle.play(advance("red-t2", &[(20.0, 24.0)]));
    let placement =
        UnitPlacement { placed: vec![Placement { model: "red-t3".into(), at: p(21.5, 24.0) }], cannot_place: vec![] };
    battle.play(herald_domain::warmachine::battle::WarmachineCommand::PlaceTroopers { placement });
    battle.play(end_activation());
}

// ---------------------------------------------------------------------------------------------
// Standing on elevated surfaces at creation
// ---------------------------------------------------------------------------------------------

/// `spec` with no elevation given, as a JSON request that leaves it out reads.
fn on_surface(spec: ModelSpec) -> ModelSpec {
    let mut json = serde_json::to_value(&spec).expect("serializes");
    json["position"].as_object_mut().expect("a position").remove("elevation");
    serde_json::from_value(json).expect("a position without an elevation is accepted")
}

/// The error creating a battle on `terrain` with `models` is refused with.
fn creation_refused(
    models: Vec<ModelSpec>,
    terrain: Vec<herald_domain::warmachine::table::TerrainFeature>,
) -> RuleError {
    use herald_domain::Decider;
    let state = herald_domain::warmachine::battle::WarmachineState::default();
    let mut ctx = context(&state, judge(), 0);
    let command = create_command(table_with(terrain), models, 0);
    herald_domain::warmachine::battle::Warmachine::decide(&state, &command, &mut ctx).expect_err("refused")
}

#[test]
fn a_model_placed_on_an_elevated_surface_without_an_elevation_stands_on_it_seed_000_falling() {
    let mut battle = battle_of(
        vec![
            on_surface(model("blue-a", BLUE, dummy(), 33.0, 33.0)),
            on_surface(model("red-b", RED, dummy(), 4.0, 4.0)),
            // Its base reaches over the ledge, but its centre is on the table.
            on_surface(model("red-c", RED, dummy(), 29.8, 20.0)),
        ],
        ledge(2.0),
    );
    let E::BattleCreated { models, .. } = &battle.events[0] else { unreachable!() };
    let created: Vec<(&str, f64)> = models.iter().map(|m| (m.id.as_str(), m.position.elevation)).collect();
    assert_eq!(created, [("blue-a", 2.0), ("red-b", 0.0), ("red-c", 0.0)]);
    assert!(models.iter().all(|m| m.position.elevation_given()), "the event records where each stands");
    assert_eq!(battle.model("blue-a").position.elevation, 2.0);
    assert!(battle.model("red-b").position.elevation.is_sign_positive());
    // Standing 2″ up, it falls 2″ when pushed off.
    let events = battle.judge(displace("blue-a", Kind::Push, (31.0, 33.0), 5.0, None, None));
    let damage = damage_of(&events);
    assert_eq!(damage.len(), 1);
    assert_eq!((damage[0].source.as_str(), damage[0].roll.roll.expression.to_string()), ("fall", "2d6+12".into()));
    // The highest surface under the centre is the one it stands on.
    let tower = feature("tower", TerrainKind::ElevatedSurface, (32.0, 32.0), (34.0, 34.0), 5.0);
    let battle = battle_of(
        vec![on_surface(model("blue-a", BLUE, dummy(), 33.0, 33.0)), model("red-b", RED, dummy(), 4.0, 4.0)],
        vec![ledge(2.0).remove(0), tower],
    );
    assert_eq!(battle.model("blue-a").position.elevation, 5.0);
}

#[test]
fn an_elevation_that_contradicts_the_surface_under_the_base_is_refused_at_creation_seed_000_falling() {
    let enemy = || model("red-b", RED, dummy(), 4.0, 4.0);
    // Given 0″ on a 2″ ledge: it would be sunk into the hill.
    let error = creation_refused(vec![model("blue-a", BLUE, dummy(), 33.0, 33.0), enemy()], ledge(2.0));
    assert_eq!(error.code, "warmachine.elevation_mismatch");
    assert_eq!(error.rule, heading("Falling"));
    for needed in ["blue-a", "ledge", "2″", "0″"] {
        assert!(error.message.contains(needed), "{needed} missing from: {}", error.message);
    }
    // Given 3″ where there is only the table: it would float.
    let error = creation_refused(vec![raised(model("blue-a", BLUE, dummy(), 20.0, 20.0), 3.0), enemy()], ledge(2.0));
    assert_eq!(error.code, "warmachine.elevation_mismatch");
    for needed in ["blue-a", "3″", "no elevated surface", "0″"] {
        assert!(error.message.contains(needed), "{needed} missing from: {}", error.message);
    }
    // Given 2″ on a 5″ tower standing on the 2″ ledge: the highest surface is the one under it.
    let tower = feature("tower", TerrainKind::ElevatedSurface, (32.0, 32.0), (34.0, 34.0), 5.0);
    let error = creation_refused(
        vec![raised(model("blue-a", BLUE, dummy(), 33.0, 33.0), 2.0), enemy()],
        vec![ledge(2.0).remove(0), tower],
    );
    assert!(error.code == "warmachine.elevation_mismatch" && error.message.contains("tower, 5″ high"));
    // The surface's height is accepted, within a billionth of an inch, and is what it stands at.
    let battle = battle_of(vec![raised(model("blue-a", BLUE, dummy(), 33.0, 33.0), 2.0 + 1e-10), enemy()], ledge(2.0));
    assert_eq!(battle.model("blue-a").position.elevation, 2.0);
    // On the ledge's edge it is on the ledge; with only the base over the ledge it is not.
    let battle = battle_of(vec![raised(model("blue-a", BLUE, dummy(), 30.0, 33.0), 2.0), enemy()], ledge(2.0));
    assert_eq!(battle.model("blue-a").position.elevation, 2.0);
    let battle = battle_of(vec![model("blue-a", BLUE, dummy(), 29.8, 33.0), enemy()], ledge(2.0));
    assert_eq!(battle.model("blue-a").position.elevation, 0.0);
}

/// A pending trigger as an attack records it.
fn triggered(model: &str, rule: &str) -> herald_domain::warmachine::battle::event::TriggeredRule {
    herald_domain::warmachine::battle::event::TriggeredRule { model: model.into(), rule: rule.into() }
}
