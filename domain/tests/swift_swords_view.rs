//! The swift-swords view and zones picture: every figure's dice, pools, status, group, ranks,
//! states and injuries; what the encounter waits for; an SVG that parses whatever names users
//! choose.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::{
    ruleset::Ruleset,
    swift_swords::{
        battle::{event::SwiftSwordsEvent as E, SwiftSwords},
        figure::FigureSpec,
        ranks::RankSide,
        view::{Status, SwiftSwordsView},
        zones::{BorderCover, CoverArea, CoverLevel, CoverShape},
    },
    viewer::Viewer,
};
use support::*;

fn melee() -> Setup {
    Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee"), goblin("goblin-2", "c")])
}

#[test]
fn the_view_shows_each_figures_dice_pools_status_group_ranks_and_states() {
    let mut battle = Battle::begun(&melee(), 0);
    battle.hand("roland", &[6, 1, 4]);
    battle.inject(E::DefencePoolsChanged { figure: "roland".into(), dodge: 3, block: 0, reason: "test".into() });
    battle.gm(herald_domain::swift_swords::battle::command::SwiftSwordsCommand::Inflict {
        figure: "roland".into(),
        damage: 1,
        ranks: RankSide::Physical,
        magic: false,
        massive: false,
        reason: "a scratch".into(),
    });
    let view = SwiftSwordsView::new(STREAM, 7, &battle.state);
    assert_eq!((view.ruleset.as_str(), view.rules.as_str(), view.version), ("swift-swords", "swift-swords@1", 7));
    let roland = view.figures.iter().find(|figure| figure.id == "roland").expect("roland");
    assert_eq!((roland.action_dice.clone(), roland.usable_dice), (vec![6, 1, 4], 2));
    assert_eq!(roland.status, Status::InContact);
    assert_eq!(roland.pools.dodge, 0, "a State loses the pools");
    assert_eq!(roland.states.len(), 1);
    assert_eq!((roland.physical.rank, roland.physical.total, roland.physical.remaining), (3, 3, 3));
    let zone = view.zones.iter().find(|zone| zone.id == "a").expect("zone a");
    assert_eq!(zone.groups.len(), 1);
    assert!(zone.groups[0].in_contact);
    assert_eq!(view.sides.iter().map(|side| side.in_action).sum::<u32>(), 3);
    let json = serde_json::to_value(&view).expect("the view serializes");
    assert!(json["figures"][0]["physical"]["remaining"].is_number());
}

#[test]
fn the_view_says_what_is_awaited_and_whom_the_countdown_gives_the_next_action() {
    let mut battle = Battle::begun(&melee(), 0);
    battle.hand("roland", &[5, 5]);
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.hand("goblin-2", &[]);
    assert_eq!(SwiftSwordsView::new(STREAM, 1, &battle.state).next_to_act, vec!["goblin-1".to_string()]);
    battle.gm(attack("goblin-1", "Spear", "roland"));
    let view = SwiftSwordsView::new(STREAM, 2, &battle.state);
    let awaiting = view.awaiting.expect("a defence awaited");
    assert_eq!((awaiting.kind.as_str(), awaiting.from), ("defence", vec!["roland".to_string()]));
    assert!(view.next_to_act.is_empty());
}

#[test]
fn the_zones_picture_parses_as_xml_whatever_names_users_choose() {
    let hostile = "<&\"'>\u{1}]]>";
    let mut setup = Setup::of(vec![
        FigureSpec { name: Some("<&\"'>]]>".into()), ..grouped(roland("a"), "melee") },
        grouped(goblin("goblin-1", "a"), "melee"),
    ]);
    setup.map.zones[0].terrain = hostile.into();
    setup.map.borders =
        vec![BorderCover { a: "a".into(), b: "b".into(), cover: CoverLevel::HardHeavy, name: hostile.into() }];
    setup.map.cover =
        vec![CoverArea { id: "x<y".into(), zone: "b".into(), shape: CoverShape::Linear, cover: CoverLevel::SoftLight }];
    let battle = Battle::begun(&setup, 0);
    let svg = SwiftSwords::picture(STREAM, 3, &battle.state, &Viewer::public()).expect("a picture");
    let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(document.root_element().tag_name().name(), "svg");
    assert!(svg.contains("goblin-1") && svg.contains("melee"));
    assert_eq!(SwiftSwords::PICTURE, Some("zones.svg"));
}

#[test]
fn the_listing_line_and_the_outcome_name_the_sides() {
    let battle = Battle::begun(&melee(), 0);
    let summary = SwiftSwords::summary(&battle.state);
    assert_eq!((summary.status.as_str(), summary.turn, summary.ended), ("countdown", Some(1), false));
    assert_eq!(summary.participants, vec!["heroes".to_string(), "goblins".to_string()]);
    // The heroes' player, once though she also controls Roland; the goblins are the GM's.
    assert_eq!(summary.players, ["alice"]);
    let outcome = SwiftSwords::outcome(&battle.state).expect("a tactical ruleset");
    let goblins = outcome.participants.iter().find(|participant| participant.name == "goblins").expect("goblins");
    assert_eq!((goblins.controller.as_str(), goblins.fielded, goblins.lost), ("judge", 2, 0));
}
