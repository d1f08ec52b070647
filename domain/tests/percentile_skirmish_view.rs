//! What readers see of a percentile-skirmish battle: the view of every mini (position, life,
//! lasting spells with turns left, resistances with their costs), sealed declarations (seed
//! 002 "TURN") and sealed open-combat picks (seed 002 "Open combat") hidden in views and event
//! payloads until revealed, the table picture as well-formed SVG whatever names users choose,
//! the listing line and the outcome a campaign battle takes over.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::{
    percentile_skirmish::{
        battle::{command::Summons, PercentileSkirmish, SkirmishCommand},
        mini::{MiniSpec, Resistance},
        rules::{BattleOptions, CombatChoice, Declarations},
        spells::Spell,
        view::SkirmishView,
    },
    viewer::{Viewer, HIDDEN},
    Role, Ruleset,
};
use serde_json::Value;
use support::*;

fn reader(player: &str) -> Viewer {
    Viewer { role: Role::Player, player: Some(player.into()) }
}

fn judge_view() -> Viewer {
    Viewer { role: Role::Judge, player: None }
}

fn minis() -> Vec<MiniSpec> {
    vec![
        mini(
            "red-a",
            RED,
            resisting(card("Fighter", 2, 8, 20), &[Resistance::Fire, Resistance::Spells]),
            10.0,
            10.0,
            0.0,
        ),
        mini("blue-b", BLUE, card("Guard", 1, 8, 20), 11.0, 10.0, 180.0),
    ]
}

fn view(battle: &Battle, viewer: &Viewer) -> SkirmishView {
    PercentileSkirmish::view(STREAM, battle.events.len() as u64, &battle.state, &battle.state, viewer)
}

fn payload(battle: &Battle, index: usize, viewer: &Viewer) -> Value {
    let mut data = serde_json::to_value(&battle.events[index]).expect("an event");
    PercentileSkirmish::redact_event(&mut data, &battle.state, viewer);
    data
}

#[test]
fn a_declaration_is_sealed_from_the_other_participants_until_everyone_has_declared_per_seed_002_turn() {
    let mut battle = Battle::new(minis());
    battle.by(alice(), declare(RED, &["red-a"]));
    let declared = battle.events.len() - 1;
    let for_bob = view(&battle, &reader("bob"));
    let red = for_bob
        .round
        .as_ref()
        .expect("a round")
        .declarations
        .iter()
        .find(|d| d.participant == RED)
        .cloned()
        .expect("red");
    assert!(red.declared && red.minis.is_none(), "bob sees that red declared, not what");
    let for_alice = view(&battle, &reader("alice"));
    let red = for_alice.round.as_ref().expect("a round").declarations[0].clone();
    assert_eq!(red.minis, Some(vec!["red-a".to_string()]));
    assert!(view(&battle, &judge_view()).round.expect("a round").declarations[0].minis.is_some());
    assert_eq!(payload(&battle, declared, &reader("bob"))["minis"], HIDDEN);
    assert_eq!(payload(&battle, declared, &Viewer::public())["minis"], HIDDEN);
    assert_eq!(payload(&battle, declared, &reader("alice"))["minis"][0], "red-a");
    // Once blue declares, everything is public: the event and the view as of before.
    battle.by(bob(), declare(BLUE, &[]));
    assert_eq!(payload(&battle, declared, &Viewer::public())["minis"][0], "red-a");
    let mut before = Battle::new(minis());
    before.by(alice(), declare(RED, &["red-a"]));
    let past = PercentileSkirmish::view(STREAM, 3, &before.state, &battle.state, &Viewer::public());
    assert!(past.round.expect("a round").declarations[0].minis.is_some(), "public now, so public as of then");
}

#[test]
fn open_declarations_hide_nothing() {
    let options = BattleOptions { declarations: Declarations::Open, ..BattleOptions::default() };
    let mut battle = Given::minis(minis()).options(options).battle();
    battle.by(alice(), declare(RED, &["red-a"]));
    let index = battle.events.len() - 1;
    assert_eq!(payload(&battle, index, &Viewer::public())["minis"][0], "red-a");
    assert!(view(&battle, &Viewer::public()).round.expect("a round").declarations[0].minis.is_some());
}

#[test]
fn an_open_combat_pick_is_sealed_from_the_other_side_until_both_have_picked_per_seed_002_open_combat() {
    let mut battle = Given::minis(minis()).acting("red-a").battle();
    battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    battle.by(alice(), pick("red-a", CombatChoice::ThrustToTheBody));
    let chosen = battle.events.len() - 1;
    assert_eq!(payload(&battle, chosen, &reader("bob"))["choice"], HIDDEN);
    assert_eq!(payload(&battle, chosen, &reader("alice"))["choice"], "thrust_to_the_body");
    let combat = view(&battle, &reader("bob")).combat.expect("a combat");
    assert!(combat.attacker_chosen && combat.attacker_choice.is_none());
    let combat = view(&battle, &reader("alice")).combat.expect("a combat");
    assert_eq!(combat.attacker_choice, Some(CombatChoice::ThrustToTheBody));
    battle.by(bob(), pick("blue-b", CombatChoice::SwingToTheHead));
    assert_eq!(payload(&battle, chosen, &reader("bob"))["choice"], "thrust_to_the_body", "revealed once both picked");
}

#[test]
fn the_view_shows_every_mini_with_life_spells_turns_left_and_resistances() {
    let minis = vec![
        mini("red-w", RED, resisting(caster("Wizard", 20, 20, &[Spell::Speed]), &[Resistance::Fire]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 8, 20), 30.0, 10.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-w").battle();
    battle.by(alice(), cast_at("red-w", Spell::Speed, "red-w"));
    let view = view(&battle, &Viewer::public());
    assert_eq!((view.ruleset.as_str(), view.rules.as_str()), ("percentile-skirmish", "percentile-skirmish@1"));
    let wizard = view.minis.iter().find(|m| m.id == "red-w").expect("the wizard");
    assert_eq!((wizard.life, wizard.max_life, wizard.spell_points), (20, 20, 195));
    assert_eq!((wizard.movement_now, wizard.initiative_now), (5.0, 23));
    assert_eq!(wizard.effects.len(), 1);
    assert_eq!((wizard.effects[0].spell, wizard.effects[0].turns_left), (Spell::Speed, 21));
    assert_eq!(
        (wizard.resistances[0].resistance, wizard.resistances[0].cost, wizard.resistance_cost),
        (Resistance::Fire, 50, 50)
    );
    assert_eq!(wizard.position, p(10.0, 10.0));
    assert_eq!(view.round.as_ref().and_then(|r| r.acting.as_deref()), Some("red-w"));
    let json = serde_json::to_value(&view).expect("a view");
    assert!(json["minis"][0]["this_turn"]["allowance"]["inches"].is_number());
}

#[test]
fn the_table_picture_is_well_formed_svg_whatever_the_names() {
    let odd = "<b>&\"' ]]>";
    let mut spec = mini(odd, RED, card(odd, 1, 8, 20), 10.0, 10.0, 0.0);
    spec.participant = RED.into();
    let table = table_with(vec![
        stream("Brook <&>", 20.0, 0.5),
        road("Road \"1\"", 12.0),
        band("River", herald_domain::percentile_skirmish::table::TerrainKind::Water, &[(0.0, 30.0), (48.0, 34.0)], 2.0),
    ]);
    let battle = Battle::with(
        table,
        vec![spec, mini("blue-b", BLUE, card("Guard", 1, 8, 20), 30.0, 10.0, 180.0)],
        BattleOptions::default(),
        Summons::default(),
        0,
    );
    let svg = PercentileSkirmish::picture(STREAM, 3, &battle.state, &Viewer::public()).expect("a picture");
    let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(document.root_element().tag_name().name(), "svg");
    assert!(svg.contains("blue-b") && svg.contains("Brook &lt;&amp;&gt;") && svg.contains("polyline"));
}

#[test]
fn the_outcome_counts_each_participants_own_minis_fielded_and_lost() {
    let mut archer = card("Archer", 20, 10, 30);
    archer.weapons = vec![ranged("Bow", 24.0, "50")];
    let minis = vec![
        mini("red-a", RED, archer, 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Target", 1, 5, 30), 14.0, 10.0, 180.0),
        mini("blue-c", BLUE, card("Target", 1, 5, 30), 40.0, 40.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-a").battle();
    battle.by(alice(), shoot("red-a", "blue-b", "Bow"));
    let outcome = PercentileSkirmish::outcome(&battle.state).expect("a tactical ruleset");
    assert!(!outcome.ended);
    let blue = outcome.participants.iter().find(|p| p.name == BLUE).expect("blue");
    assert_eq!((blue.controller.as_str(), blue.fielded, blue.lost), ("bob", 2, 1));
    battle.by(bob(), SkirmishCommand::EndBattle { winner: Some(RED.into()), reason: "blue concedes".into() });
    let outcome = PercentileSkirmish::outcome(&battle.state).expect("a tactical ruleset");
    assert!(outcome.ended);
    assert_eq!(outcome.winner.as_deref(), Some(RED));
    let summary = PercentileSkirmish::summary(&battle.state);
    assert_eq!((summary.status.as_str(), summary.ended, summary.turn), ("ended", true, Some(1)));
}

#[test]
fn a_participant_may_only_concede_and_only_a_judge_ends_the_battle_otherwise() {
    let mut battle = Battle::new(minis());
    battle.refused_by(
        alice(),
        SkirmishCommand::EndBattle { winner: Some(RED.into()), reason: "I win".into() },
        "percentile-skirmish.judge_only",
        "herald",
    );
    battle.judge(SkirmishCommand::EndBattle { winner: None, reason: "rain".into() });
    battle.refused(done("red-a"), "percentile-skirmish.ended", "herald");
}
