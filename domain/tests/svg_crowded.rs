//! Crowded pictures of every ruleset that draws one: minis in melee base to base, a zone full of
//! characters, a zone tile full of figures. Every text with a box (`textLength`, the box the
//! shared placer reserved, measured with the font the picture names) is read back out of the SVG
//! and checked against every other one and against the marks it must not hide; nothing goes
//! unnamed (what finds no room is listed under the picture). The campaign map and the warmachine
//! table are crowded the same way in `svg_labels.rs`.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

#[path = "percentile_skirmish_support.rs"]
mod skirmish;
#[path = "swift_swords_support.rs"]
mod swords;
#[path = "zone_rpg_support.rs"]
mod zones;

use herald_domain::{
    percentile_skirmish::{battle::PercentileSkirmish, rules::BattleOptions},
    registry,
    svg::labels::{box_of, text_width, Rect, FONT_FAMILY},
    swift_swords::battle::SwiftSwords,
    zone_rpg::ZoneRpg,
    Ruleset, Viewer,
};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|error| panic!("not well-formed XML: {error}\n{svg}"))
}

fn number(node: roxmltree::Node<'_, '_>, name: &str) -> f64 {
    node.attribute(name).unwrap_or_else(|| panic!("no {name}")).parse().unwrap()
}

fn has_class(node: roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// The text drawn by a node, without its hover `<title>`.
fn shown(node: roxmltree::Node<'_, '_>) -> String {
    node.children().filter(|c| c.is_text()).filter_map(|c| c.text()).collect()
}

/// Every text given a box, with its box, class and shown text.
fn text_boxes(doc: &roxmltree::Document<'_>) -> Vec<(Rect, String, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("textLength").is_some())
        .map(|n| {
            let rect = box_of(number(n, "x"), number(n, "y"), number(n, "font-size"), number(n, "textLength"));
            (rect, n.attribute("class").unwrap_or_default().to_string(), shown(n))
        })
        .collect()
}

/// No two boxes share any area, each box is within the drawing, and each is as wide as its
/// text measured in the picture's font (nothing stretched: regular weight unless bold).
fn assert_apart_and_unstretched(doc: &roxmltree::Document<'_>) -> Vec<(Rect, String, String)> {
    let root = doc.root_element();
    assert_eq!(root.attribute("font-family"), Some(FONT_FAMILY), "the font whose metrics are used");
    let canvas = Rect::new(0.0, 0.0, number(root, "width"), number(root, "height"));
    let boxes = text_boxes(doc);
    assert!(!boxes.is_empty());
    for (i, (a, class_a, text_a)) in boxes.iter().enumerate() {
        assert!(a.within(&canvas), "{text_a:?} {a:?} leaves the drawing {canvas:?}");
        for (b, class_b, text_b) in &boxes[i + 1..] {
            assert!(!a.overlaps(b), "labels overlap: {class_a} {text_a:?} {a:?} and {class_b} {text_b:?} {b:?}");
        }
    }
    for node in doc.descendants().filter(|n| n.has_tag_name("text") && n.attribute("textLength").is_some()) {
        if node.attribute("font-weight") != Some("bold") {
            let measured = text_width(&shown(node), number(node, "font-size"));
            assert!((measured - number(node, "textLength")).abs() < 0.01, "{:?} is stretched", shown(node));
        }
    }
    boxes
}

fn unplaced(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants().filter(|n| has_class(*n, "unplaced-label")).map(shown).collect()
}

#[test]
fn percentile_skirmish_minis_in_melee_never_share_a_label_box_or_hide_a_disc() {
    use skirmish::*;
    // Two ranks of six minis base to base (medium bases are 0.9″ across), with long names, and
    // a large one in the middle; a road and a stream through them.
    let mut minis = Vec::new();
    for k in 0..6 {
        let x = 10.0 + f64::from(k) * 0.95;
        minis.push(mini(&format!("red-spearman-{k}"), RED, card("Spearman", 1, 8, 20), x, 10.0, 90.0));
        minis.push(mini(&format!("blue-halberdier-{k}"), BLUE, card("Halberdier", 1, 8, 20), x, 10.95, 270.0));
    }
    minis.push(mini(
        "blue-ogre",
        BLUE,
        sized(card("Ogre", 3, 6, 60), herald_domain::percentile_skirmish::mini::Size::Large),
        13.0,
        12.6,
        270.0,
    ));
    let table = table_with(vec![stream("The Mill Stream", 12.0, 1.0), road("The King's Road", 11.0)]);
    let battle = Battle::with(
        table,
        minis,
        BattleOptions::default(),
        herald_domain::percentile_skirmish::battle::command::Summons::default(),
        0,
    );
    let svg = PercentileSkirmish::picture(STREAM, 1, &battle.state, &Viewer::public()).unwrap();
    let doc = parse(&svg);
    let boxes = assert_apart_and_unstretched(&doc);
    let table = doc.descendants().find(|n| has_class(*n, "table")).unwrap();
    let table = Rect::new(number(table, "x"), number(table, "y"), number(table, "width"), number(table, "height"));
    let discs: Vec<(String, Rect)> = doc
        .descendants()
        .filter(|n| has_class(*n, "disc"))
        .map(|n| {
            let (cx, cy, r) = (number(n, "cx"), number(n, "cy"), number(n, "r"));
            (n.attribute("data-mini").unwrap().to_string(), Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r))
        })
        .collect();
    assert_eq!(discs.len(), 13);
    let mut labelled = 0;
    for (rect, class, text) in &boxes {
        if class == "mini-label" || class == "terrain-label" {
            labelled += 1;
            assert!(rect.within(&table), "{text:?} leaves the table");
            for (id, disc) in &discs {
                assert!(!rect.overlaps(disc), "{text:?} hides the disc of {id}");
            }
        }
    }
    assert!(labelled > 6, "most labels find room near their mark: {labelled}");
    // Every mini is named: beside its disc or under the table.
    let unplaced = unplaced(&doc);
    for (id, _) in &discs {
        let named = boxes.iter().any(|(_, class, text)| class == "mini-label" && text.starts_with(&format!("{id} ")))
            || unplaced.iter().any(|text| text.starts_with(&format!("{id} ")));
        assert!(named, "{id} is named nowhere");
    }
}

#[test]
fn a_zone_full_of_characters_keeps_every_line_apart_and_names_everyone() {
    use zones::*;
    let mut characters = Vec::new();
    for k in 0..14 {
        characters.push(pc(&format!("Balthasar the Unusually Wide Named {k}"), "alice", "Market"));
        characters.push(npc(&format!("Iiiil bandit {k}"), "Market"));
    }
    let mut table = table(characters);
    table.zones = vec![
        with_hazard(
            with_feature(zone("Market"), "a long low stone wall", herald_domain::zone_rpg::map::Protection::Cover),
            "pit",
            None,
            true,
        ),
        zone("Alley"),
        dark("Cellar"),
    ];
    table.borders = vec![border("Market", "Alley"), border("Alley", "Cellar")];
    let fight = given(&table, 0);
    let svg = ZoneRpg::picture(STREAM, 1, &fight.state, &Viewer::public()).unwrap();
    let doc = parse(&svg);
    let boxes = assert_apart_and_unstretched(&doc);
    let unplaced = unplaced(&doc);
    assert!(!unplaced.is_empty(), "a zone holds fewer than 28 characters");
    for character in &fight.state.characters {
        let id = character.id();
        let named = boxes.iter().any(|(_, _, text)| unmarked(text).starts_with(id))
            || doc.descendants().filter(|n| n.has_tag_name("title")).any(|n| unmarked(&shown(n)).starts_with(id))
            || unplaced.iter().any(|text| text.contains(id));
        assert!(named, "{id} is named nowhere");
    }
}

/// A character's or figure's line without its side's mark (`A Balthasar 10/10` → `Balthasar 10/10`):
/// sides are told apart by a letter as well as a colour.
fn unmarked(text: &str) -> &str {
    match text.split_once(' ') {
        Some((mark, rest)) if !mark.is_empty() && mark.chars().all(|c| c.is_ascii_uppercase()) => rest,
        _ => text,
    }
}

#[test]
fn a_zone_tile_full_of_figures_keeps_every_line_inside_it_and_apart() {
    use swords::*;
    let mut figures = vec![grouped(roland("a"), "melee")];
    for k in 0..30 {
        figures.push(grouped(goblin(&format!("goblin-with-a-very-long-name-{k}"), "a"), "melee"));
    }
    let battle = Battle::begun(&Setup::of(figures), 0);
    let svg = SwiftSwords::picture(STREAM, 1, &battle.state, &Viewer::public()).unwrap();
    let doc = parse(&svg);
    let boxes = assert_apart_and_unstretched(&doc);
    let tiles: Vec<Rect> = doc
        .descendants()
        .filter(|n| has_class(*n, "zone"))
        .map(|g| {
            let rect = g.children().find(|c| c.has_tag_name("rect")).unwrap();
            Rect::new(number(rect, "x"), number(rect, "y"), number(rect, "width"), number(rect, "height"))
        })
        .collect();
    for (rect, _, text) in boxes.iter().filter(|(_, class, _)| class != "unplaced-label") {
        assert!(tiles.iter().any(|tile| rect.within(tile)), "{text:?} {rect:?} leaves its tile");
    }
    let unplaced = unplaced(&doc);
    assert!(!unplaced.is_empty(), "one tile holds fewer than 31 figures");
    for id in battle.state.figures.keys() {
        let named = boxes.iter().any(|(_, _, text)| unmarked(text).starts_with(&format!("{id} ")))
            || unplaced.iter().any(|text| text.contains(&format!("{id} ")));
        assert!(named, "{id} is named nowhere");
    }
}

#[test]
fn every_ruleset_that_draws_a_picture_is_crowded_in_a_test() {
    // Here: percentile-skirmish, zone-rpg, swift-swords; in svg_labels.rs: the campaign map
    // and the warmachine table.
    let covered = ["percentile-skirmish", "zone-rpg", "swift-swords", "coalition-campaign", "warmachine"];
    for ruleset in registry::all().filter(|r| r.picture_name().is_some()) {
        let name = ruleset.rules().split('@').next().unwrap_or_default();
        assert!(covered.contains(&name), "{name} draws a picture no crowded test checks");
    }
}
