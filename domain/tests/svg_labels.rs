//! The labels of the server's pictures never overlap, over generated scenes: campaign maps
//! crowded with armies and sites of any name, and warmachine tables with models packed at
//! random. Every label's box is read back out of the SVG (`x`, `y`, `font-size`, `textLength`,
//! the box the placer reserved) and checked against every other label, every marker or base
//! it must not hide, and the area it must stay in; and nothing goes unnamed — a label with no
//! room near its mark is listed in the legend.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_test_support::warmachine as support;

use std::collections::BTreeMap;

use herald_domain::{
    coalition::{
        army::{RankClass, Team},
        map::{
            svg::{render, ArmyMarker},
            Faction, Map, Site, SiteKind, Square,
        },
    },
    svg::labels::{box_of, Rect},
    warmachine::picture::table_svg,
};
use proptest::prelude::*;

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|error| panic!("not well-formed XML: {error}\n{svg}"))
}

fn number(node: roxmltree::Node<'_, '_>, name: &str) -> f64 {
    node.attribute(name).unwrap_or_else(|| panic!("no {name}")).parse().unwrap()
}

fn has_class(node: roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// Every text given a box (`textLength`), with its box and its text.
fn text_boxes(doc: &roxmltree::Document<'_>) -> Vec<(Rect, String, roxmltree::NodeId)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("textLength").is_some())
        .map(|n| {
            let rect = box_of(number(n, "x"), number(n, "y"), number(n, "font-size"), number(n, "textLength"));
            let text: String = n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect();
            (rect, text, n.id())
        })
        .collect()
}

fn rect_of(node: roxmltree::Node<'_, '_>) -> Rect {
    Rect::new(number(node, "x"), number(node, "y"), number(node, "width"), number(node, "height"))
}

fn assert_apart(boxes: &[(Rect, String, roxmltree::NodeId)]) {
    for (i, (a, text_a, _)) in boxes.iter().enumerate() {
        for (b, text_b, _) in &boxes[i + 1..] {
            assert!(!a.overlaps(b), "labels overlap: {text_a:?} {a:?} and {text_b:?} {b:?}");
        }
    }
}

fn name_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Z][a-z]{2,8}( [A-Z][a-z]{1,6})?",
        "[A-Za-z<>&\" ]{1,24}",
        Just("The Exceedingly Long Named Army of the Western Marches".to_string()),
        Just("東京の軍".to_string()),
    ]
}

fn team_strategy() -> impl Strategy<Value = Team> {
    prop_oneof![Just(Team::Coalition), Just(Team::Phyrexia), Just(Team::Mercenary)]
}

fn square_strategy() -> impl Strategy<Value = Square> {
    (1u8..=38, 0u8..14).prop_map(|(row, column)| Square { row, column })
}

prop_compose! {
    fn army_strategy()(name in name_strategy(), team in team_strategy(), troops in 0u64..40_000,
                       square in square_strategy(), battle in any::<bool>()) -> ArmyMarker {
        ArmyMarker { name, team, rank: RankClass::CplLtCommander, troops, square, battle }
    }
}

prop_compose! {
    fn site_strategy()(name in name_strategy(), square in square_strategy(), kind in 0u8..3, destroyed in any::<bool>()) -> Site {
        let kind = match kind { 0 => SiteKind::Portal, 1 => SiteKind::Town, _ => SiteKind::Base { color: Faction::Blue } };
        Site { name, square, kind, destroyed, win_condition: false, description: String::new() }
    }
}

/// Armies with unique names, at most four to a square (the seed allows two; a judge's ruling
/// or a joint engagement can make more).
fn campaign_scene() -> impl Strategy<Value = (Vec<ArmyMarker>, Vec<Site>)> {
    (prop::collection::vec(army_strategy(), 0..70), prop::collection::vec(site_strategy(), 0..16)).prop_map(
        |(armies, sites)| {
            let mut seen = BTreeMap::new();
            let mut per_square: BTreeMap<Square, usize> = BTreeMap::new();
            let armies = armies
                .into_iter()
                .filter(|a| {
                    let room = per_square.entry(a.square).or_default();
                    *room += 1;
                    *room <= 4 && seen.insert(a.name.clone(), ()).is_none()
                })
                .collect();
            (armies, sites)
        },
    )
}

fn check_map(armies: &[ArmyMarker], sites: &[Site]) {
    let mut map = Map::default();
    for site in sites {
        map.sites.insert(site.square, site.clone());
    }
    let svg = render("Round <1> & the long title of a campaign that goes on", &map, armies);
    let doc = parse(&svg);
    let root = doc.root_element();
    let canvas = Rect::new(0.0, 0.0, number(root, "width"), number(root, "height"));
    let boxes = text_boxes(&doc);
    assert_apart(&boxes);
    for (rect, text, _) in &boxes {
        assert!(rect.within(&canvas), "{text:?} {rect:?} leaves the drawing {canvas:?}");
    }
    // Labels on the map stay off every army marker and battle mark.
    let markers: Vec<Rect> = doc.descendants().filter(|n| has_class(*n, "army")).map(rect_of).collect();
    for (rect, text, id) in &boxes {
        let node = doc.get_node(*id).unwrap();
        if has_class(node, "army-label") || has_class(node, "site-label") {
            for marker in &markers {
                assert!(!rect.overlaps(marker), "{text:?} hides a marker");
            }
        }
    }
    // Every army is named: on the map or in the legend.
    for army in armies {
        let named =
            doc.descendants().any(|n| n.has_tag_name("text") && n.attribute("data-army") == Some(army.name.as_str()));
        assert!(named, "{} is named nowhere", army.name);
    }
    assert_eq!(markers.len(), armies.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn campaign_map_labels_never_overlap_and_every_army_is_named((armies, sites) in campaign_scene()) {
        check_map(&armies, &sites);
    }

    #[test]
    fn warmachine_labels_never_overlap_each_other_or_a_base(
        spots in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 5..40),
        copies in 0usize..8,
    ) {
        let mut state = support::Battle::skirmish().state;
        // More models of the same kinds, under new ids, then everyone moved to random spots.
        let originals: Vec<_> = state.models.values().cloned().collect();
        for copy in 0..copies {
            for model in &originals {
                let mut twin = model.clone();
                twin.spec.id = format!("{}-{copy}", model.spec.id);
                state.models.insert(twin.spec.id.clone(), twin);
            }
        }
        let (width, depth) = (state.table.width, state.table.depth);
        for (model, (x, y)) in state.models.values_mut().zip(spots.iter().cycle()) {
            model.position.x = x * width;
            model.position.y = y * depth;
        }
        let svg = table_svg(&state, "t");
        let doc = parse(&svg);
        let boxes = text_boxes(&doc);
        assert_apart(&boxes);
        let table = rect_of(doc.descendants().find(|n| has_class(*n, "table")).unwrap());
        let bases: Vec<(String, Rect)> = doc
            .descendants()
            .filter(|n| has_class(*n, "model") && !has_class(*n, "destroyed"))
            .map(|group| {
                let base = group.children().find(|c| has_class(*c, "base")).unwrap();
                let (cx, cy, r) = (number(base, "cx"), number(base, "cy"), number(base, "r"));
                (group.attribute("data-model").unwrap().to_string(), Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r))
            })
            .collect();
        for (rect, text, _) in &boxes {
            prop_assert!(rect.within(&table), "{:?} leaves the table", text);
            for (id, base) in &bases {
                prop_assert!(!rect.overlaps(base), "{:?} hides the base of {}", text, id);
            }
        }
        // Every model is named, on the table or under the legend.
        let unplaced: String = doc.descendants().filter(|n| has_class(*n, "unplaced-label")).filter_map(|n| n.text()).collect::<Vec<_>>().join("\n");
        for id in state.models.keys() {
            let on_table = doc.descendants().any(|n| has_class(n, "label") && n.attribute("data-model") == Some(id.as_str()));
            prop_assert!(on_table || unplaced.lines().any(|line| line.starts_with(id.as_str())), "{} is named nowhere", id);
        }
    }
}

#[test]
fn a_crowded_square_block_sends_labels_to_the_legend_without_overlap() {
    // Every square of a 4 × 4 block full: not every label can sit nearby.
    let mut armies = Vec::new();
    for row in 10..14u8 {
        for column in 4..8u8 {
            for k in 0..2 {
                armies.push(ArmyMarker {
                    name: format!("Army {row}-{column}-{k} of the long name"),
                    team: if k == 0 { Team::Coalition } else { Team::Phyrexia },
                    rank: RankClass::CplLtCommander,
                    troops: 12_500,
                    square: Square { row, column },
                    battle: true,
                });
            }
        }
    }
    check_map(&armies, &[]);
    let svg = render("crowd", &Map::default(), &armies);
    assert!(svg.contains("Armies with no room for a label"), "some labels go to the legend");
}

#[test]
fn model_labels_show_damage_boxes_left() {
    let battle = support::Battle::skirmish();
    let svg = table_svg(&battle.state, "t");
    let doc = parse(&svg);
    let jack =
        doc.descendants().find(|n| has_class(*n, "label") && n.attribute("data-model") == Some(support::JACK)).unwrap();
    let damage = jack.children().find(|c| has_class(*c, "damage")).unwrap();
    assert_eq!(damage.text(), Some(" 30/30"));
}
