//! The warmachine view of a battle folded from the decider's own events.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_test_support::warmachine as support;

use herald_domain::warmachine::view::{ModelView, WarmachineView};
use herald_domain::warmachine::{
    battle::{
        state::{Condition, Phase},
        Warmachine, WarmachineCommand, WarmachineEvent,
    },
    model::{ModelType, WeaponKind},
};
use herald_domain::{Decider, EventType};
use support::*;

fn model<'a>(view: &'a WarmachineView, id: &str) -> &'a ModelView {
    view.models.iter().find(|m| m.id == id).unwrap_or_else(|| panic!("no model {id} in the view"))
}

#[test]
fn the_view_shows_the_turn_the_activation_and_every_model() {
    let battle = Battle::skirmish();
    let state = Warmachine::fold(&battle.events());
    let view = WarmachineView::new(STREAM, battle.version(), &state);

    assert_eq!(view.id, STREAM.trim_start_matches("battle-"));
    assert_eq!(view.stream, STREAM);
    assert_eq!(view.version, battle.version());
    assert_eq!((view.ruleset.as_str(), view.rules.as_str()), ("warmachine", Warmachine::RULES));
    assert_eq!(view.phase, Phase::Activation);
    assert_eq!(view.turn, 1);
    assert_eq!(view.current_player.as_deref(), Some("red"));
    assert_eq!(view.players.len(), 2);
    assert_eq!(view.table, table());
    assert!(view.activated.is_empty(), "the warjack's activation is still open");
    assert_eq!(view.to_activate, [CASTER, JACK]);
    assert!(view.pending_triggers.is_empty() && view.upkeeps.is_empty());
    assert_eq!((view.winner.as_ref(), view.ended_reason.as_ref()), (None, None));
    assert!(!view.seed_revealed && view.seed.is_none());
    assert_eq!(view.seed_commitment, Some(hex(&herald_domain::dice::seed::commitment(&server_seed()))));
    assert!(view.next_word > 0, "the attack drew dice");

    let activation = view.activation.as_ref().expect("the warjack is activating");
    assert_eq!((activation.id.as_str(), activation.unit), (JACK, false));
    assert!(activation.movement_done && !activation.charged && !activation.required_charge);
    let doing = &activation.models[0];
    assert_eq!(doing.model, JACK);
    assert!(
        doing.doing.moved
            && doing.doing.attacked
            && !doing.doing.ran
            && !doing.doing.aiming
            && !doing.doing.combat_forfeited
    );
    assert_eq!(doing.doing.charge_target, None);
    assert_eq!(doing.doing.combat, Some(WeaponKind::Melee));
    assert_eq!(doing.doing.attacks.get("Fist"), Some(&1));

    let ids: Vec<&str> = view.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), 5);
    for id in [CASTER, JACK, HOSTILE, TROOPERS[0], TROOPERS[1]] {
        assert!(ids.contains(&id), "{id}");
    }
    for m in &view.models {
        let folded = state.model(&m.id).unwrap();
        assert_eq!(m.damage.taken + m.damage.left, m.damage.capacity, "{}", m.id);
        assert_eq!(m.damage.left, folded.boxes_left(), "{}", m.id);
        assert_eq!((m.focus, m.fury), (folded.focus, folded.fury), "{}", m.id);
        assert_eq!(m.position, folded.position);
        assert_eq!(m.base.radius, folded.spec.profile.base.radius_inches());
        assert_eq!(m.stats, folded.spec.profile.stats);
        assert_eq!(m.weapons, folded.spec.profile.weapons);
    }
}

#[test]
fn models_show_engagement_ranges_damage_and_battlegroups() {
    let battle = Battle::skirmish();
    let view = WarmachineView::new(STREAM, battle.version(), &battle.state);

    let jack = model(&view, JACK);
    assert_eq!((jack.model_type, jack.player.as_str()), (ModelType::Warjack, "red"));
    assert_eq!(jack.battlegroup.as_deref(), Some(CASTER));
    assert!(jack.engaged && jack.activating && !jack.activated);
    assert_eq!(jack.engaged_by, [HOSTILE]);
    assert_eq!(jack.engaging, [HOSTILE]);
    assert_eq!(jack.melee_range, Some(0.5));
    assert_eq!(jack.control_range, None);
    assert_eq!(jack.damage.capacity, 30);
    assert!(jack.damage.grid.is_some(), "a warjack shows its grid");
    assert_eq!(jack.focus, battle.state.model(JACK).unwrap().focus);

    let caster = model(&view, CASTER);
    assert_eq!(caster.control_range, Some(14));
    assert!(caster.damage.grid.is_none() && caster.damage.crippled.is_empty());
    assert_eq!(caster.damage.capacity, 15);
    assert!(!caster.engaged);

    let hostile = model(&view, HOSTILE);
    assert_eq!(hostile.melee_range, Some(2.0));
    assert_eq!(hostile.engaged_by, [JACK]);
    let dealt: u32 = battle
        .events()
        .iter()
        .filter_map(|e| match e {
            WarmachineEvent::AttackResolved { damage, .. } => {
                Some(damage.iter().map(|d| u32::from(d.marked)).sum::<u32>())
            }
            _ => None,
        })
        .sum();
    assert_eq!(hostile.damage.taken, dealt.min(20), "the Fist's damage is on the solo's boxes");

    for id in TROOPERS {
        let trooper = model(&view, id);
        assert_eq!(trooper.unit.as_deref(), Some(UNIT));
        assert_eq!(trooper.melee_range, None, "no melee weapon, no melee range");
        assert!(!trooper.engaged && trooper.engaging.is_empty());
        assert_eq!(trooper.damage.capacity, 1);
    }
}

#[test]
fn conditions_destruction_and_the_end_of_the_battle_show() {
    let mut battle = Battle::with_knockdown();
    battle.run(
        alice(),
        WarmachineCommand::EndActivation { advance_model: None, advance_rule: None, advance_path: Vec::new() },
    );
    let view = WarmachineView::new(STREAM, battle.version(), &battle.state);
    let hostile = model(&view, HOSTILE);
    assert!(hostile.knocked_down);
    assert_eq!(hostile.conditions, [Condition::KnockedDown]);
    assert_eq!(view.activation, None);
    assert_eq!(view.activated, [JACK]);
    assert!(model(&view, JACK).activated && !model(&view, JACK).activating);
    assert_eq!(view.to_activate, [CASTER]);

    // A model removed from play engages nobody, wherever its base was left.
    let mut state = battle.state.clone();
    Warmachine::evolve(&mut state, &WarmachineEvent::ModelDestroyed { model: HOSTILE.into(), cause: "test".into() });
    let view = WarmachineView::new(STREAM, battle.version() + 1, &state);
    let hostile = model(&view, HOSTILE);
    assert!(hostile.destroyed && !hostile.engaged && hostile.engaging.is_empty());
    assert!(model(&view, JACK).engaged_by.is_empty());

    battle.run(
        judge(),
        WarmachineCommand::EndBattle { winner: Some("red".into()), reason: "caster assassinated".into() },
    );
    let revealed =
        battle.run(judge(), WarmachineCommand::RevealSeed { seed: hex(&server_seed()), next_commitment: None });
    assert_eq!(revealed[0].event_type(), "warmachine.SeedRevealed");
    let view = WarmachineView::new(STREAM, battle.version(), &battle.state);
    assert_eq!(view.phase, Phase::Ended);
    assert_eq!(view.winner.as_deref(), Some("red"));
    assert_eq!(view.ended_reason.as_deref(), Some("caster assassinated"));
    assert!(view.seed_revealed);
    assert_eq!(view.seed, Some(hex(&server_seed())));
    assert!(view.to_activate.is_empty());
}

#[test]
fn the_view_serializes_with_the_documented_field_names() {
    let battle = Battle::skirmish();
    let json = serde_json::to_value(WarmachineView::new(STREAM, battle.version(), &battle.state)).unwrap();
    assert_eq!(json["ruleset"], "warmachine");
    assert_eq!(json["phase"], "activation");
    let jack = json["models"].as_array().unwrap().iter().find(|m| m["id"] == JACK).unwrap();
    assert_eq!(jack["type"], "warjack");
    assert_eq!(jack["base"]["size"], "medium");
    assert_eq!(jack["base"]["mm"], 40);
    assert_eq!(jack["position"]["facing"], 90.0);
    assert!(jack["damage"]["grid"]["columns"].is_array());
    assert_eq!(json["activation"]["models"][0]["attacks"]["Fist"], 1);
    // And reads back.
    let back: WarmachineView = serde_json::from_value(json).unwrap();
    assert_eq!(back, WarmachineView::new(STREAM, battle.version(), &battle.state));
}
