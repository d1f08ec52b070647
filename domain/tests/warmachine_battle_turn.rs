//! The warmachine battle decider's turn sequence (seed 000 "Gameplay, Turn Sequence, Movement &
//! Actions"): markers expiring, the maintenance phase, the control phase and the activation
//! phase. Each test names the heading it checks.

#[path = "warmachine_battle_support.rs"]
mod support;

use herald_domain::warmachine::{
    battle::{
        command::{ControlChoices, FocusAllocation, FuryLeech},
        state::Condition,
        WarmachineEvent as E,
    },
    model::{ModelProfile, System},
};
use support::*;

/// Red: a warcaster with a warjack in its control range and one far outside it, and a solo.
/// Blue: a solo.
fn battlegroup(n: u64) -> Battle {
    Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 10.0, 10.0),
            in_battlegroup(model("red-jack", RED, warjack(), 12.0, 10.0), "red-caster"),
            in_battlegroup(model("red-jack-far", RED, warjack(), 40.0, 40.0), "red-caster"),
            model("red-solo", RED, solo(), 10.0, 14.0),
            model("blue-solo", BLUE, solo(), 40.0, 10.0),
        ],
        n,
    )
}

/// A solo no attack of these tests can damage: ARM 40.
fn wall() -> ModelProfile {
    let mut profile = solo();
    profile.stats.arm = 40;
    profile.stats.def = 5;
    profile
}

/// Red: a warlock (ARC 3) with two warbeasts in control range, each in base contact with a blue
/// wall, and a third warbeast far away. Blue: two walls.
fn warlock_battlegroup(n: u64) -> Battle {
    Battle::on(
        table_with(vec![]),
        vec![
            model("red-lock", RED, warlock(), 10.0, 30.0),
            in_battlegroup(model("red-beast-a", RED, warbeast(), 14.0, 30.0), "red-lock"),
            in_battlegroup(model("red-beast-b", RED, warbeast(), 14.0, 34.0), "red-lock"),
            in_battlegroup(model("red-beast-far", RED, warbeast(), 44.0, 44.0), "red-lock"),
            model("blue-wall-a", BLUE, wall(), 15.6, 30.0),
            model("blue-wall-b", BLUE, wall(), 15.6, 34.0),
        ],
        n,
    )
}

fn point_events(events: &[E], id: &str) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            E::PointsRemoved { model, focus, fury, .. } if model == id => Some((*focus, *fury)),
            _ => None,
        })
        .collect()
}

fn position(events: &[E], kind: &str) -> usize {
    events
        .iter()
        .position(|e| herald_domain::EventType::event_type(e) == kind)
        .unwrap_or_else(|| panic!("no {kind} in {:?}", types(events)))
}

#[test]
fn the_first_turn_replenishes_focus_to_arc_then_powers_up_warjacks_in_control_range_seed_000_control_phase() {
    let mut battle = battlegroup(0);
    let events = battle.play(start_turn());
    assert_eq!(events[0], E::TurnStarted { turn: 1, player: RED.into() });
    assert!(events.contains(&E::FocusReplenished { model: "red-caster".into(), focus: 6 }));
    // Step 1 (replenish) comes before step 3 (power up).
    assert!(position(&events, "warmachine.FocusReplenished") < position(&events, "warmachine.PoweredUp"));
    let powered: Vec<&E> = events.iter().filter(|e| matches!(e, E::PoweredUp { .. })).collect();
    assert_eq!(powered, [&E::PoweredUp { warjack: "red-jack".into() }], "the far warjack is out of CTRL 14");
    assert_eq!(battle.model("red-caster").focus, 6);
    assert_eq!(battle.model("red-jack").focus, 1);
    assert_eq!(battle.model("red-jack-far").focus, 0);
    assert_eq!(battle.model("red-solo").focus, 0, "a solo has no focus manipulation");
}

#[test]
fn control_range_is_measured_base_edge_to_base_edge_seed_000_control_phase() {
    // A medium base exactly 14″ from the caster's small base, edge to edge, is in control range.
    let small = herald_domain::warmachine::model::BaseSize::Small.radius_inches();
    let medium = herald_domain::warmachine::model::BaseSize::Medium.radius_inches();
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 10.0, 10.0),
            in_battlegroup(model("red-jack-edge", RED, warjack(), 10.0 + 14.0 + small + medium, 10.0), "red-caster"),
            in_battlegroup(model("red-jack-out", RED, warjack(), 10.0, 10.0 + 14.05 + small + medium), "red-caster"),
            model("blue-solo", BLUE, solo(), 40.0, 40.0),
        ],
        0,
    );
    battle.play(start_turn());
    assert_eq!(battle.model("red-jack-edge").focus, 1);
    assert_eq!(battle.model("red-jack-out").focus, 0);
}

#[test]
fn focus_allocation_moves_focus_from_the_caster_to_its_warjack_seed_000_control_phase() {
    let mut battle = battlegroup(0);
    let control = ControlChoices {
        allocate: vec![FocusAllocation { warjack: "red-jack".into(), focus: 3 }],
        ..ControlChoices::default()
    };
    let events = battle.play(start_turn_with(control));
    assert!(events.contains(&E::FocusAllocated {
        warcaster: "red-caster".into(),
        warjack: "red-jack".into(),
        focus: 3
    }));
    assert!(position(&events, "warmachine.PoweredUp") < position(&events, "warmachine.FocusAllocated"));
    assert_eq!((battle.model("red-caster").focus, battle.model("red-jack").focus), (3, 4));
}

#[test]
fn focus_cannot_be_allocated_beyond_what_the_caster_has_seed_000_control_phase() {
    let mut battle = battlegroup(0);
    let control = ControlChoices {
        allocate: vec![FocusAllocation { warjack: "red-jack".into(), focus: 7 }],
        ..ControlChoices::default()
    };
    battle.refused(start_turn_with(control), "warmachine.allocate_focus", "Control Phase");
}

#[test]
fn focus_cannot_be_allocated_to_a_warjack_outside_control_range_seed_000_control_phase() {
    let mut battle = battlegroup(0);
    let control = ControlChoices {
        allocate: vec![FocusAllocation { warjack: "red-jack-far".into(), focus: 1 }],
        ..ControlChoices::default()
    };
    let error = battle.refused(start_turn_with(control), "warmachine.allocate_out_of_control_range", "Control Phase");
    assert!(error.rule.contains("step 4"));
    assert_eq!(battle.state.turn, 0, "a refused choice leaves the turn unstarted");
}

#[test]
fn the_maintenance_phase_removes_all_focus_from_warjacks_before_the_control_phase_seed_000_maintenance_phase() {
    let mut battle = battlegroup(0);
    let control = ControlChoices {
        allocate: vec![FocusAllocation { warjack: "red-jack".into(), focus: 3 }],
        ..ControlChoices::default()
    };
    battle.play(start_turn_with(control));
    battle.finish_turn();
    assert_eq!(battle.model("red-jack").focus, 4, "unspent focus stays on the warjack until maintenance");
    battle.pass_turn(); // blue
    let events = battle.play(start_turn());
    assert_eq!(events[0], E::TurnStarted { turn: 3, player: RED.into() });
    assert_eq!(point_events(&events, "red-jack"), [(4, 0)]);
    let E::PointsRemoved { rule, .. } = find(&events, "warmachine.PointsRemoved") else { unreachable!() };
    assert!(rule.contains(&heading("Maintenance Phase")), "{rule}");
    // The caster's 3 focus is not above ARC 6: nothing removed, then replenished to 6.
    assert!(point_events(&events, "red-caster").is_empty());
    assert!(position(&events, "warmachine.PointsRemoved") < position(&events, "warmachine.FocusReplenished"));
    assert!(position(&events, "warmachine.PointsRemoved") < position(&events, "warmachine.PoweredUp"));
    assert_eq!((battle.model("red-caster").focus, battle.model("red-jack").focus), (6, 1));
}

#[test]
fn the_maintenance_phase_removes_only_focus_in_excess_of_arc_from_a_warcaster_seed_000_maintenance_phase() {
    let mut battle = battlegroup(0);
    battle.pass_turn();
    // No command gives a warcaster more focus than ARC; a feat the service does not model would.
    battle.inject(E::FocusReplenished { model: "red-caster".into(), focus: 9 });
    battle.pass_turn(); // blue
    let events = battle.play(start_turn());
    assert_eq!(point_events(&events, "red-caster"), [(3, 0)], "9 focus on ARC 6: 3 removed");
    assert!(position(&events, "warmachine.PointsRemoved") < position(&events, "warmachine.FocusReplenished"));
    assert_eq!(battle.model("red-caster").focus, 6);
}

#[test]
fn the_maintenance_phase_removes_warlock_fury_above_arc_but_leaves_fury_on_warbeasts_seed_000_maintenance_phase() {
    let mut battle = warlock_battlegroup(0);
    battle.play(start_turn());
    battle.play(activate("red-beast-a"));
    battle.play(run("red-beast-a", &[(14.0, 26.0)]));
    battle.finish_turn();
    assert_eq!(battle.model("red-beast-a").fury, 1, "a warbeast is forced to run");
    // A warlock never leeches above ARC; an effect the service does not model could give it more.
    battle.inject(E::SpiritBond { warlock: "red-lock".into(), fury: 5 });
    battle.pass_turn(); // blue
    let events = battle.play(start_turn());
    assert_eq!(point_events(&events, "red-lock"), [(0, 2)], "5 fury on ARC 3: 2 removed");
    assert!(point_events(&events, "red-beast-a").is_empty(), "fury stays on warbeasts at this time");
    assert_eq!(battle.model("red-lock").fury, 3);
    assert_eq!(battle.model("red-beast-a").fury, 1);
}

/// Each near warbeast forfeits its movement and attacks its wall with both weapons, boosting
/// both attack rolls: forced twice, 2 fury each.
fn beasts_gain_two_fury(battle: &mut Battle) {
    battle.play(start_turn());
    for (beast, wall) in [("red-beast-a", "blue-wall-a"), ("red-beast-b", "blue-wall-b")] {
        battle.play(activate(beast));
        battle.play(forfeit(beast));
        for weapon in ["Claws", "Jaws"] {
            let events = battle.play(boosted_attack(beast, weapon, wall, true, false));
            let E::AttackResolved { attack_boost, .. } = find(&events, "warmachine.AttackResolved") else {
                unreachable!()
            };
            assert_eq!(*attack_boost, Some(herald_domain::warmachine::battle::event::Cost::Forced));
        }
        battle.play(end_activation());
        assert_eq!(battle.model(beast).fury, 2);
    }
    battle.finish_turn();
    battle.pass_turn(); // blue
}

#[test]
fn a_warlock_leeches_fury_from_its_warbeasts_but_not_above_its_arc_seed_000_control_phase() {
    let mut battle = warlock_battlegroup(0);
    beasts_gain_two_fury(&mut battle);
    let too_much = ControlChoices {
        leech: vec![
            FuryLeech { warbeast: "red-beast-a".into(), fury: 2 },
            FuryLeech { warbeast: "red-beast-b".into(), fury: 2 },
        ],
        ..ControlChoices::default()
    };
    battle.refused(start_turn_with(too_much), "warmachine.leech_above_arc", "Control Phase");
    let up_to_arc = ControlChoices {
        leech: vec![
            FuryLeech { warbeast: "red-beast-a".into(), fury: 2 },
            FuryLeech { warbeast: "red-beast-b".into(), fury: 1 },
        ],
        ..ControlChoices::default()
    };
    let events = battle.play(start_turn_with(up_to_arc));
    assert!(events.contains(&E::FuryLeeched { warlock: "red-lock".into(), warbeast: "red-beast-a".into(), fury: 2 }));
    assert_eq!(battle.model("red-lock").fury, 3, "exactly ARC 3");
    assert_eq!((battle.model("red-beast-a").fury, battle.model("red-beast-b").fury), (0, 1));
    // Step 6: only the warbeast with fury left makes a threshold check, after leeching.
    let checks: Vec<&E> = events.iter().filter(|e| matches!(e, E::ThresholdChecked { .. })).collect();
    assert_eq!(checks.len(), 1);
    let E::ThresholdChecked { warbeast, fury, thr, roll, frenzied, .. } = checks[0] else { unreachable!() };
    assert_eq!((warbeast.as_str(), *fury, *thr), ("red-beast-b", 1, 9));
    assert_eq!(roll.draws.len(), 2, "2d6 + fury");
    assert_eq!(roll.total, dice_sum(roll) + 1);
    assert_eq!(*frenzied, roll.total > 9);
    assert!(position(&events, "warmachine.FuryLeeched") < position(&events, "warmachine.ThresholdChecked"));
}

#[test]
fn a_warlock_cannot_leech_from_a_warbeast_outside_its_control_range_seed_000_control_phase() {
    let mut battle = warlock_battlegroup(0);
    battle.play(start_turn());
    battle.play(activate("red-beast-far"));
    battle.play(run("red-beast-far", &[(44.0, 40.0)]));
    battle.finish_turn();
    battle.pass_turn();
    let control = ControlChoices {
        leech: vec![FuryLeech { warbeast: "red-beast-far".into(), fury: 1 }],
        ..ControlChoices::default()
    };
    battle.refused(start_turn_with(control), "warmachine.leech_out_of_control_range", "Control Phase");
}

#[test]
fn a_warbeast_that_fails_its_threshold_check_frenzies_and_must_charge_seed_000_control_phase() {
    let frenzy = |battle: &Battle| {
        battle
            .events
            .iter()
            .any(|e| matches!(e, E::ThresholdChecked { frenzied: true, warbeast, .. } if warbeast == "red-beast-a"))
    };
    let calm = |battle: &Battle| {
        battle
            .events
            .iter()
            .any(|e| matches!(e, E::ThresholdChecked { frenzied: false, warbeast, .. } if warbeast == "red-beast-a"))
    };
    let scenario = |n: u64| {
        let mut battle = warlock_battlegroup(n);
        beasts_gain_two_fury(&mut battle);
        battle.play(start_turn());
        battle
    };
    // 2d6 + 2 against THR 9 frenzies on 8 or more: a seed with each outcome.
    let frenzied = scenario(find_seed(|n| frenzy(&scenario(n))));
    assert!(has(&frenzied, "red-beast-a", &Condition::Frenzied));
    let events = frenzied.clone().play(activate("red-beast-a"));
    assert_eq!(
        events,
        [E::Activated { activation: "red-beast-a".into(), models: vec!["red-beast-a".into()], required_charge: true }]
    );
    let calm_battle = scenario(find_seed(|n| calm(&scenario(n))));
    assert!(!has(&calm_battle, "red-beast-a", &Condition::Frenzied));
    for battle in [&frenzied, &calm_battle] {
        let E::ThresholdChecked { roll, frenzied, fury, .. } = find(&battle.events, "warmachine.ThresholdChecked")
        else {
            unreachable!()
        };
        assert_eq!(*fury, 2);
        assert_eq!(roll.total, dice_sum(roll) + 2);
        assert_eq!(*frenzied, roll.total > 9);
    }
}

/// A slam of 0″ is the judge's way to deal damage the service does not model: here enough to
/// cripple the warjack's cortex without destroying it.
fn crippled_cortex(n: u64) -> Battle {
    let mut battle = battlegroup(n);
    battle.judge(displace("red-jack", Kind::Slam, (0.0, 0.0), 0.0, Some(30), Some(0)));
    battle
}

#[test]
fn a_warjack_with_a_crippled_cortex_does_not_power_up_and_cannot_be_allocated_focus_seed_000_warjacks() {
    let n = find_seed(|n| {
        let battle = crippled_cortex(n);
        let jack = battle.model("red-jack");
        jack.in_play() && jack.crippled().contains(&System::Cortex)
    });
    let mut battle = crippled_cortex(n);
    assert!(!battle.model("red-jack").functional_cortex());
    let control = ControlChoices {
        allocate: vec![FocusAllocation { warjack: "red-jack".into(), focus: 1 }],
        ..ControlChoices::default()
    };
    let error = battle.refused(start_turn_with(control), "warmachine.allocate_crippled_cortex", "Warjacks");
    assert!(error.rule.contains(&heading("Control Phase")));
    let events = battle.play(start_turn());
    assert!(!events.contains(&E::PoweredUp { warjack: "red-jack".into() }));
    assert_eq!(battle.model("red-jack").focus, 0);
    assert_eq!(battle.model("red-caster").focus, 6);
}

#[test]
fn markers_expire_at_the_start_of_their_players_turn_before_maintenance_seed_000_gameplay_turn_sequence() {
    let mut battle = battlegroup(0);
    battle.judge(set_condition("red-solo", Condition::CannotRun, Some(RED)));
    battle.judge(set_condition("red-solo", Condition::KnockedDown, Some(BLUE)));
    battle.judge(set_condition("blue-solo", Condition::CannotCharge, Some(RED)));
    let events = battle.play(start_turn());
    assert_eq!(
        events[1],
        E::MarkersExpired {
            removed: vec![expired("blue-solo", Condition::CannotCharge), expired("red-solo", Condition::CannotRun)]
        },
        "removed right after the turn starts, before any maintenance or control event"
    );
    assert!(!has(&battle, "red-solo", &Condition::CannotRun));
    assert!(!has(&battle, "blue-solo", &Condition::CannotCharge));
    assert!(has(&battle, "red-solo", &Condition::KnockedDown), "blue's marker waits for blue's turn");
    // The solo may now run.
    battle.play(activate("red-solo"));
    battle.play(run("red-solo", &[(10.0, 24.0)]));
    battle.finish_turn();
    let events = battle.play(start_turn());
    assert!(events.contains(&E::MarkersExpired { removed: vec![expired("red-solo", Condition::KnockedDown)] }));
    assert!(!has(&battle, "red-solo", &Condition::KnockedDown));
}

#[test]
fn a_turn_cannot_end_until_every_model_and_unit_has_activated_seed_000_activation_phase() {
    let mut battle = battlegroup(0);
    battle.play(start_turn());
    let error = battle.refused(end_turn(), "warmachine.not_all_activated", "Activation Phase");
    for id in ["red-caster", "red-jack", "red-jack-far", "red-solo"] {
        assert!(error.message.contains(id), "{}", error.message);
    }
    for id in ["red-caster", "red-jack", "red-jack-far"] {
        battle.play(activate(id));
        battle.play(end_activation());
    }
    let error = battle.refused(end_turn(), "warmachine.not_all_activated", "Activation Phase");
    assert!(error.message.contains("red-solo") && !error.message.contains("red-caster"));
    battle.play(activate("red-solo"));
    battle.refused(end_turn(), "warmachine.activation_open", "Activation Phase");
    battle.play(end_activation());
    assert_eq!(battle.play(end_turn()), [E::TurnEnded { turn: 1, player: RED.into() }]);
    // Blue's turn next.
    assert_eq!(battle.play(start_turn())[0], E::TurnStarted { turn: 2, player: BLUE.into() });
}

#[test]
fn a_model_activates_once_per_turn_seed_000_activation_phase() {
    let mut battle = battlegroup(0);
    battle.play(start_turn());
    battle.play(activate("red-solo"));
    battle.refused(activate("red-caster"), "warmachine.activation_open", "Activation Phase");
    battle.play(end_activation());
    battle.refused(activate("red-solo"), "warmachine.already_activated", "Activation Phase");
    battle.refused(activate("blue-solo"), "warmachine.not_your_unit", "Activation Phase");
    battle.finish_turn();
    battle.pass_turn();
    battle.play(start_turn());
    battle.play(activate("red-solo")); // a new turn: it activates again
}

#[test]
fn only_the_players_controller_or_a_judge_runs_their_turn() {
    let mut battle = battlegroup(0);
    let error = battle.attempt(bob(), start_turn()).expect_err("bob cannot start red's turn");
    assert!(error.forbidden);
    assert_eq!(error.code, "warmachine.not_your_turn");
    assert!(error.message.contains("red's turn"), "{}", error.message);
    battle.by(judge(), start_turn());
    let error = battle.attempt(bob(), activate("red-solo")).expect_err("bob cannot activate red's solo");
    assert!(error.forbidden);
}

#[test]
fn continuous_effects_are_checked_for_expiry_and_those_that_remain_deal_damage_seed_000_maintenance_phase() {
    let scenario = |n: u64| {
        let mut battle = battlegroup(n);
        let fire = Condition::ContinuousEffect { name: "fire".into(), pow: 12 };
        battle.judge(set_condition("red-solo", fire, None));
        let events = battle.play(start_turn());
        (battle, events)
    };
    let checked = |events: &[E]| match find(events, "warmachine.ContinuousEffectChecked") {
        E::ContinuousEffectChecked { model, effect, roll, expired, damage, .. } => {
            (model.clone(), effect.clone(), roll.clone(), *expired, damage.clone())
        }
        _ => unreachable!(),
    };
    let expires = find_seed(|n| checked(&scenario(n).1).3);
    let stays = find_seed(|n| !checked(&scenario(n).1).3);
    for n in [expires, stays] {
        let (battle, events) = scenario(n);
        let (model, effect, roll, expired, damage) = checked(&events);
        assert_eq!((model.as_str(), effect.as_str()), ("red-solo", "fire"));
        assert_eq!(roll.draws.len(), 1);
        assert_eq!(expired, roll.total <= 2, "herald's reading: a d6 of 1 or 2 ends it");
        let on = battle.model("red-solo").conditions.iter().any(|c| matches!(c, Condition::ContinuousEffect { .. }));
        assert_eq!(on, !expired);
        match damage {
            Some(dealt) => {
                assert!(!expired);
                assert_eq!(dealt.roll.total, dice_sum(&dealt.roll.roll) + 12, "its POW 12 damage roll");
                assert_eq!(u32::from(battle.model("red-solo").damage), dealt.roll.damage.min(5));
            }
            None => assert!(expired),
        }
        // Step 2 comes before the control phase.
        assert!(
            position(&events, "warmachine.ContinuousEffectChecked") < position(&events, "warmachine.FocusReplenished")
        );
    }
}

#[test]
fn upkeep_spells_are_paid_for_with_focus_or_expire_seed_000_control_phase() {
    let caster = {
        let mut caster = warcaster();
        caster.special_rules.push(rule(
            "Arcane Shield",
            vec![
                herald_domain::warmachine::model::Mechanic::AnyTime,
                herald_domain::warmachine::model::Mechanic::UpkeepSpell,
            ],
        ));
        caster
    };
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, caster, 10.0, 10.0),
            model("red-solo", RED, solo(), 10.0, 14.0),
            model("blue-solo", BLUE, solo(), 40.0, 10.0),
        ],
        0,
    );
    battle.play(start_turn());
    battle.play(activate("red-caster"));
    let upkeep = herald_domain::warmachine::battle::WarmachineCommand::UseSpecialRule {
        model: "red-caster".into(),
        rule: "Arcane Shield".into(),
        target: Some("red-solo".into()),
    };
    battle.play(upkeep);
    assert_eq!(battle.state.upkeeps.len(), 1);
    battle.finish_turn();
    battle.pass_turn();
    let keep = ControlChoices { upkeep: vec!["Arcane Shield".into()], ..ControlChoices::default() };
    let events = battle.play(start_turn_with(keep));
    assert!(events.contains(&E::UpkeepPaid { caster: "red-caster".into(), spell: "Arcane Shield".into() }));
    assert_eq!(battle.model("red-caster").focus, 5, "replenished to 6, 1 spent on the upkeep");
    battle.finish_turn();
    battle.pass_turn();
    let events = battle.play(start_turn());
    assert!(events.contains(&E::UpkeepExpired { caster: "red-caster".into(), spell: "Arcane Shield".into() }));
    assert!(battle.state.upkeeps.is_empty());
    assert_eq!(battle.model("red-caster").focus, 6);
}

#[test]
fn a_warlock_gains_a_fury_point_for_each_destroyed_warbeast_of_its_battlegroup_seed_000_control_phase() {
    let mut battle = warlock_battlegroup(0);
    // A judge resolves an attack the service does not model: a 0″ slam at POW 60 destroys the
    // far warbeast (ARM 16, 20 boxes).
    battle.judge(displace("red-beast-far", Kind::Slam, (0.0, 0.0), 0.0, Some(60), Some(0)));
    assert!(battle.model("red-beast-far").destroyed);
    let two = ControlChoices {
        spirit_bond: vec![herald_domain::warmachine::battle::command::SpiritBondGain {
            warlock: "red-lock".into(),
            fury: 2,
        }],
        ..ControlChoices::default()
    };
    battle.refused(start_turn_with(two), "warmachine.spirit_bond_fury", "Control Phase");
    let one = ControlChoices {
        spirit_bond: vec![herald_domain::warmachine::battle::command::SpiritBondGain {
            warlock: "red-lock".into(),
            fury: 1,
        }],
        ..ControlChoices::default()
    };
    let events = battle.play(start_turn_with(one));
    assert!(events.contains(&E::SpiritBond { warlock: "red-lock".into(), fury: 1 }));
    assert_eq!(battle.model("red-lock").fury, 1);
}

#[test]
fn a_player_concedes_only_by_naming_another_winner() {
    // A player may not end the battle as a draw or in their own favour; a judge may
    // (herald: docs/rulesets/warmachine.md).
    let mut battle = battlegroup(0);
    let end = |winner: Option<&str>| herald_domain::warmachine::battle::WarmachineCommand::EndBattle {
        winner: winner.map(str::to_string),
        reason: "I give up".into(),
    };
    for winner in [None, Some(RED)] {
        let error = battle.attempt(alice(), end(winner)).expect_err("no draw, no self-declared win");
        assert!(error.forbidden);
    }
    battle.by(alice(), end(Some(BLUE)));
    assert_eq!(battle.state.winner.as_deref(), Some(BLUE));
}

#[test]
fn spirit_bond_gives_at_most_1_fury_per_destroyed_warbeast_however_the_choices_are_split_seed_000_control_phase() {
    let mut battle = warlock_battlegroup(0);
    // One medium-or-larger warbeast of the battlegroup destroyed (a judge's 0″ slam at POW 60).
    battle.judge(displace("red-beast-far", Kind::Slam, (0.0, 0.0), 0.0, Some(60), Some(0)));
    assert!(battle.model("red-beast-far").destroyed);
    let gain =
        |fury: u8| herald_domain::warmachine::battle::command::SpiritBondGain { warlock: "red-lock".into(), fury };
    let split = ControlChoices { spirit_bond: vec![gain(1), gain(1)], ..ControlChoices::default() };
    let error = battle.refused(start_turn_with(split), "warmachine.spirit_bond_fury", "Control Phase");
    assert!(error.rule.contains("step 2"), "{}", error.rule);
    assert_eq!(battle.model("red-lock").fury, 0);
    let one = ControlChoices { spirit_bond: vec![gain(1)], ..ControlChoices::default() };
    let events = battle.play(start_turn_with(one));
    let bonds: Vec<&E> = events.iter().filter(|e| matches!(e, E::SpiritBond { .. })).collect();
    assert_eq!(bonds, [&E::SpiritBond { warlock: "red-lock".into(), fury: 1 }]);
    assert_eq!(battle.model("red-lock").fury, 1);
}

/// Red: a warcaster beside its warjack, and a solo that keeps red in the battle once the
/// warjack is inert. Blue: a solo in the warjack's Cannon range.
fn inert_scene() -> Battle {
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 10.0, 10.0),
            in_battlegroup(model("red-jack", RED, warjack(), 12.0, 10.0), "red-caster"),
            model("red-solo", RED, solo(), 10.0, 14.0),
            model("blue-solo", BLUE, wall(), 20.0, 10.0),
        ],
        0,
    );
    battle.play(start_turn());
    battle.play(activate("red-jack"));
    battle
}

/// A judge destroys the warcaster (a 0″ slam at POW 60 against ARM 15 and 15 boxes): its
/// warjack becomes inert.
fn destroy_caster(battle: &mut Battle) {
    let events = battle.judge(displace("red-caster", Kind::Slam, (0.0, 0.0), 0.0, Some(60), Some(0)));
    assert!(battle.model("red-caster").destroyed);
    assert!(
        events.contains(&E::WarjacksInert { warcaster: "red-caster".into(), warjacks: vec!["red-jack".into()] }),
        "{:?}",
        types(&events)
    );
    assert!(battle.model("red-jack").inert && battle.model("red-jack").in_play());
}

#[test]
fn a_warjack_made_inert_during_its_activation_cannot_move_or_attack_seed_000_warjacks() {
    // The warcaster falls before the warjack moves.
    let mut battle = inert_scene();
    destroy_caster(&mut battle);
    battle.refused(advance("red-jack", &[(12.0, 13.0)]), "warmachine.inert", "Warjacks");
    battle.refused(charge("red-jack", "blue-solo", 20.0, 10.0), "warmachine.inert", "Warjacks");
    battle.refused(aim("red-jack"), "warmachine.inert", "Warjacks");
    battle.refused(attack("red-jack", "Cannon", "blue-solo"), "warmachine.inert", "Warjacks");
    assert_eq!(battle.model("red-jack").position.centre(), p(12.0, 10.0));
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");

    // The warcaster falls after the warjack moved, before its attack.
    let mut battle = inert_scene();
    battle.play(advance("red-jack", &[(12.0, 12.0)]));
    destroy_caster(&mut battle);
    battle.refused(attack("red-jack", "Cannon", "blue-solo"), "warmachine.inert", "Warjacks");
    battle.refused(attack("red-jack", "Arm Blade", "blue-solo"), "warmachine.inert", "Warjacks");
    let events = battle.play(end_activation());
    assert!(matches!(events.last(), Some(E::ActivationEnded { .. })), "{events:?}");
}

/// A marker as `MarkersExpired` records it.
fn expired(model: &str, condition: Condition) -> herald_domain::warmachine::battle::event::ExpiredMarker {
    herald_domain::warmachine::battle::event::ExpiredMarker { model: model.into(), condition }
}
