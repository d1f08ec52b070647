//! The warmachine table as SVG: well-formed whatever users name things, every model drawn with
//! its id, terrain by kind, melee and control ranges, conditions marked.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_test_support::warmachine as support;

use herald_domain::warmachine::battle::{state::WarmachineState, Warmachine, WarmachineEvent};
use herald_domain::warmachine::picture::table_svg;
use herald_domain::Decider;
use support::*;

/// The parsed drawing (a parse failure fails the test with the parser's message).
fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|error| panic!("not well-formed XML: {error}\n{svg}"))
}

fn with_class<'a, 'i>(doc: &'a roxmltree::Document<'i>, class: &str) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|node| node.attribute("class").is_some_and(|c| c.split(' ').any(|word| word == class)))
        .collect()
}

fn model_group<'a, 'i>(doc: &'a roxmltree::Document<'i>, id: &str) -> roxmltree::Node<'a, 'i> {
    with_class(doc, "model")
        .into_iter()
        .find(|node| node.attribute("data-model") == Some(id))
        .unwrap_or_else(|| panic!("no model group for {id}"))
}

fn title_of(node: roxmltree::Node<'_, '_>) -> String {
    node.children().find(|c| c.has_tag_name("title")).and_then(|t| t.text()).unwrap_or_default().to_string()
}

fn number(node: roxmltree::Node<'_, '_>, attribute: &str) -> f64 {
    node.attribute(attribute).unwrap().parse().unwrap()
}

#[test]
fn every_model_is_drawn_with_its_id_and_the_drawing_is_well_formed() {
    let battle = Battle::skirmish();
    let svg = table_svg(&battle.state, "battle <1> & co");
    let doc = parse(&svg);
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(title_of(doc.root_element()), "battle <1> & co");
    let labels: Vec<&str> = with_class(&doc, "label").iter().filter_map(|n| n.text()).collect();
    for id in battle.state.models.keys() {
        model_group(&doc, id);
        assert!(labels.contains(&id.as_str()), "{id} is labelled");
    }
    // The hostile id is text, never markup.
    assert!(!svg.contains("<script"));
    assert!(svg.contains("&lt;script&gt;"));
    assert!(doc.descendants().all(|node| !node.has_tag_name("script")));
}

#[test]
fn hover_text_tells_type_damage_points_and_conditions() {
    let battle = Battle::with_knockdown();
    let doc_text = table_svg(&battle.state, "t");
    let doc = parse(&doc_text);
    let jack = title_of(model_group(&doc, JACK));
    assert!(jack.starts_with("red-jack (Ironclad): warjack of red"), "{jack}");
    assert!(jack.contains("of 30 grid boxes left"), "{jack}");
    assert!(jack.contains(&format!("focus {}", battle.state.model(JACK).unwrap().focus)), "{jack}");
    assert!(jack.contains(&format!("engaged by {HOSTILE}")), "{jack}");
    let hostile_group = model_group(&doc, HOSTILE);
    let hostile = title_of(hostile_group);
    assert!(hostile.contains("solo of blue") && hostile.contains("knocked down"), "{hostile}");
    assert!(hostile_group.attribute("class").unwrap().contains("knocked-down"));
    assert!(with_class(&doc, "kd").len() == 1);
    let jack_group = model_group(&doc, JACK);
    assert!(jack_group.attribute("class").unwrap().contains("activating"), "the activating model is ringed");
    let trooper = title_of(model_group(&doc, TROOPERS[0]));
    assert!(trooper.contains(&format!("unit {UNIT}")) && trooper.contains("1 damage boxes left"), "{trooper}");
}

#[test]
fn terrain_is_drawn_by_kind_with_the_height_of_elevated_surfaces() {
    let battle = Battle::created();
    let doc_text = table_svg(&battle.state, "t");
    let doc = parse(&doc_text);
    let terrain = with_class(&doc, "terrain");
    // The group and the four features.
    let features: Vec<_> = terrain.iter().filter(|n| !n.has_tag_name("g")).collect();
    assert_eq!(features.len(), 4);
    for class in ["obstacle", "obstruction", "hazard", "elevated"] {
        assert_eq!(with_class(&doc, class).len(), 1, "{class}");
    }
    assert!(with_class(&doc, "obstruction")[0].has_tag_name("circle"));
    assert!(with_class(&doc, "elevated")[0].has_tag_name("rect"));
    let labels: Vec<&str> = with_class(&doc, "terrain-label").iter().filter_map(|n| n.text()).collect();
    assert!(labels.contains(&"Hill (2″)"), "{labels:?}");
    // The control character in the hazard's name is replaced, not written raw.
    assert!(labels.contains(&"Ruin"), "{labels:?}");
    // The hill's rectangle: 6″ × 6″ at 16 px to the inch, its top edge at y = 42″.
    let hill = with_class(&doc, "elevated")[0];
    assert_eq!((number(hill, "width"), number(hill, "height")), (96.0, 96.0));
    let obstacle = with_class(&doc, "obstacle")[0];
    assert!(number(hill, "y") < number(obstacle, "y"), "y grows upward on the table, downward on screen");
}

#[test]
fn ranges_are_circles_of_base_radius_plus_range() {
    let battle = Battle::created();
    let doc_text = table_svg(&battle.state, "t");
    let doc = parse(&doc_text);
    let melee = with_class(&doc, "melee-range");
    let melee_ids: Vec<&str> = melee.iter().filter_map(|n| n.attribute("data-model")).collect();
    assert_eq!(melee_ids, [HOSTILE, CASTER, JACK], "the riflemen have no melee weapon");
    let control = with_class(&doc, "control-range");
    assert_eq!(control.len(), 1);
    assert_eq!(control[0].attribute("data-model"), Some(CASTER));
    let caster = battle.state.model(CASTER).unwrap();
    let radius = (caster.spec.profile.base.radius_inches() + 14.0) * 16.0;
    assert!((number(control[0], "r") - radius).abs() < 0.01);
    assert_eq!(control[0].attribute("stroke-dasharray"), Some("1,3"));
    assert_eq!(melee[0].attribute("stroke-dasharray"), Some("5,3"));
    let jack = melee.iter().find(|n| n.attribute("data-model") == Some(JACK)).unwrap();
    let jack_radius = (herald_domain::warmachine::model::BaseSize::Medium.radius_inches() + 0.5) * 16.0;
    assert!((number(*jack, "r") - jack_radius).abs() < 0.01);
}

#[test]
fn destroyed_models_are_faint_and_have_no_ranges() {
    let battle = Battle::skirmish();
    let mut state: WarmachineState = Warmachine::fold(&battle.events());
    Warmachine::evolve(&mut state, &WarmachineEvent::ModelDestroyed { model: HOSTILE.into(), cause: "test".into() });
    let svg = table_svg(&state, "t");
    let doc = parse(&svg);
    let hostile = model_group(&doc, HOSTILE);
    assert!(hostile.attribute("class").unwrap().contains("destroyed"));
    assert_eq!(hostile.attribute("opacity"), Some("0.3"));
    assert!(title_of(hostile).contains("destroyed"));
    assert!(with_class(&doc, "melee-range").iter().all(|n| n.attribute("data-model") != Some(HOSTILE)));
    assert!(!title_of(model_group(&doc, JACK)).contains("engaged by"));
}

#[test]
fn caption_and_legend_tell_the_turn_and_the_players() {
    let battle = Battle::skirmish();
    let svg = table_svg(&battle.state, "t");
    let doc = parse(&svg);
    let turn = with_class(&doc, "turn")[0].text().unwrap();
    assert_eq!(turn, "turn 1, red's turn: activation phase; red-jack activating");
    let legend: String =
        with_class(&doc, "legend")[0].descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect();
    assert!(legend.contains("red (alice): 2 models in play"), "{legend}");
    assert!(legend.contains("blue (bob): 3 models in play"), "{legend}");
    assert!(legend.contains("melee range") && legend.contains("control range"), "{legend}");
    // Player colours differ.
    let fill = |id: &str| {
        model_group(&doc, id).children().find(|c| c.attribute("class") == Some("base")).unwrap().attribute("fill")
    };
    assert_ne!(fill(JACK), fill(HOSTILE));
    assert_eq!(fill(JACK), fill(CASTER));
}

#[test]
fn an_empty_state_still_draws() {
    let svg = table_svg(&WarmachineState::default(), "nothing yet");
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "turn")[0].text(), Some("before the first turn: not created"));
}
