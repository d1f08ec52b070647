//! What readers get of a zone-rpg fight: the view (health, conditions, gear, zones, whose go it
//! is), the zone map picture (well-formed whatever names the GM chooses), the listing line, the
//! outcome a campaign battle takes over, and the registration the service finds it by.
#![allow(clippy::unwrap_used)]

#[path = "zone_rpg_support.rs"]
mod support;

use herald_domain::{
    registry,
    ruleset::Ruleset,
    viewer::Viewer,
    zone_rpg::{
        state::{character::TurnUse, Phase},
        view::Status,
        ZoneRpg, ZoneRpgCommand as C,
    },
    Decider, Role, StreamKind,
};
use serde_json::json;
use support::*;

fn gm_view() -> Viewer {
    Viewer { role: Role::Judge, player: None }
}

fn skirmish() -> Fight {
    let setup = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)).armour(1).health(10),
        npc("bandit 1", "road").health(30),
        npc("bandit 2", "road"),
    ]);
    let mut fight = given(&setup, 0);
    fight.start_round(PARTY);
    fight.gm(take_turn("Balthasar"));
    fight.gm(attack("Balthasar", Some("sword"), "bandit 1"));
    fight.gm(decline("bandit 1"));
    fight
}

#[test]
fn the_view_shows_every_character_with_health_conditions_and_gear() {
    let fight = skirmish();
    let view = ZoneRpg::view(STREAM, 7, &fight.state, &fight.state, &Viewer::public());
    assert_eq!(
        (view.id.as_str(), view.version, view.ruleset.as_str(), view.rules.as_str()),
        (&STREAM[7..], 7, "zone-rpg", ZoneRpg::RULES)
    );
    assert_eq!((view.phase, view.round, view.current_faction.as_deref()), (Phase::Round, 1, Some(PARTY)));
    assert_eq!(view.turn.as_ref().unwrap().members[0].character, "Balthasar");
    let balthasar = view.characters.iter().find(|c| c.id == "Balthasar").unwrap();
    assert_eq!((balthasar.health, balthasar.max_health, balthasar.armour_value), (10, 10, 1));
    assert_eq!(
        (balthasar.status, balthasar.turn, balthasar.zone.as_deref()),
        (Status::Fighting, TurnUse::InTurn, Some("road"))
    );
    assert!(balthasar.weapons[0].used);
    assert_eq!(balthasar.controller.as_deref(), Some("alice"));
    let bandit = view.characters.iter().find(|c| c.id == "bandit 1").unwrap();
    assert!(bandit.health < 30);
    assert!(view.seed_commitment.is_some() && !view.seed_revealed && view.next_word > 0);
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["characters"][0]["weapons"][0]["weapon"]["damage"], "d6");
}

#[test]
fn the_zone_map_is_well_formed_svg_whatever_the_names() {
    let mut hostile = table(vec![
        pc("<Bal&thasar \"the\" 'bold'>", "alice", "<road & \"ford\">").armed(weapon("sword]]>", 6)),
        npc("bandit\u{FFFE}", "<road & \"ford\">"),
    ]);
    hostile.zones = vec![
        with_hazard(
            with_feature(zone("<road & \"ford\">"), "<wall>", herald_domain::zone_rpg::map::Protection::Cover),
            "pit&",
            None,
            true,
        ),
        dark("d'ark"),
    ];
    hostile.borders = vec![border("<road & \"ford\">", "d'ark")];
    let fight = given(&hostile, 0);
    for viewer in [gm_view(), Viewer::public()] {
        let svg = ZoneRpg::picture(STREAM, 1, &fight.state, &viewer).unwrap();
        let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert_eq!(document.root_element().tag_name().name(), "svg");
        assert!(svg.contains("&lt;Bal&amp;thasar"));
    }
}

#[test]
fn the_listing_names_the_factions_the_round_and_the_winner() {
    let mut fight = skirmish();
    let summary = ZoneRpg::summary(&fight.state);
    assert_eq!((summary.status.as_str(), summary.turn, summary.ended), ("round", Some(1), false));
    assert_eq!(summary.participants, [PARTY, BANDITS]);
    // No faction has a player, but alice controls Balthasar: she plays in it.
    assert_eq!(summary.players, ["alice"]);
    fight.gm(C::EndFight { winner: Some(PARTY.into()), reason: "the bandits flee".into() });
    let summary = ZoneRpg::summary(&fight.state);
    assert_eq!((summary.status.as_str(), summary.ended, summary.winner.as_deref()), ("ended", true, Some(PARTY)));
    assert!(ZoneRpg::dice(&fight.state).unwrap().reveal_due, "the seed is due to be revealed");
}

#[test]
fn a_campaign_battle_takes_over_who_fielded_and_lost_what() {
    let mut setup = table(vec![pc("Balthasar", "alice", "road"), npc("bandit 1", "road"), npc("bandit 2", "road")]);
    setup.factions[0].controller = Some("alice".into());
    setup.factions[1].controller = Some("bob".into());
    let mut fight = given(&setup, 0);
    fight.gm(C::AdjustHealth { character: "bandit 1".into(), change: -10, reason: "slain".into() });
    fight.gm(C::EndFight { winner: Some(PARTY.into()), reason: "won".into() });
    let outcome = ZoneRpg::outcome(&fight.state).unwrap();
    assert!(outcome.ended);
    assert_eq!(outcome.winner.as_deref(), Some(PARTY));
    let lines: Vec<(String, String, u32, u32)> =
        outcome.participants.iter().map(|p| (p.name.clone(), p.controller.clone(), p.fielded, p.lost)).collect();
    assert_eq!(lines, [(PARTY.into(), "alice".into(), 1, 0), (BANDITS.into(), "bob".into(), 2, 1)]);
}

#[test]
fn the_registry_finds_zone_rpg_and_plays_it_from_json() {
    let ruleset = registry::find(StreamKind::Battle, "zone-rpg").expect("registered");
    assert_eq!(
        (ruleset.rules(), ruleset.picture_name(), ruleset.code_prefix()),
        ("zone-rpg@1", Some("zones.svg"), "zone-rpg")
    );
    assert!(ruleset.tactical());
    let setup = json!({
        "zones": [{"name": "road"}],
        "factions": [{"name": "party", "controller": "alice"}, {"name": "bandits"}],
        "initiative": {"kind": "faction", "faction": "bandits"},
        "characters": [
            {"id": "Balthasar", "faction": "party", "health": 10, "wit": 12, "agi": 10, "str": 14, "zone": "road",
             "weapons": [{"name": "sword", "damage": "d6"}]},
            {"id": "bandit", "faction": "bandits", "health": 8, "wit": 9, "agi": 8, "str": 10, "zone": "road"}
        ]
    });
    let create = ruleset.set_up(&setup, commitment_hex(0)).unwrap();
    assert!(!ruleset.is_action(&create), "create_battle has its own route");
    let mut state = ruleset.new_state();
    let mut ctx = context(&ZoneRpg::fold(&[]), gm(), 0);
    let events = ruleset.decide(state.as_ref(), &create, &mut ctx).unwrap();
    assert_eq!(events[0]["type"], "zone-rpg.BattleCreated");
    let state = std::sync::Arc::get_mut(&mut state).unwrap();
    ruleset.evolve(state, "zone-rpg.BattleCreated", 2, &events[0].to_string()).unwrap();
    let bad = json!({"type": "take_turn", "character": "Balthasar", "extra": 1});
    assert!(ruleset.decide(state, &bad, &mut ctx).is_err(), "unknown fields are refused");
    let malformed = ruleset.set_up(
        &json!({"zones": [], "factions": [], "characters": [], "initiative": {"kind": "random"}, "weather": "rain"}),
        String::new(),
    );
    assert!(malformed.is_err());
}

#[test]
fn a_fight_that_cannot_be_played_is_refused_at_set_up_per_seed_001_combat_procedure() {
    let mut one_faction = table(vec![pc("Balthasar", "alice", "road")]);
    one_faction.factions.truncate(1);
    let mut fight = Fight::empty(0);
    fight.refused(one_faction.create(0), "zone-rpg.faction_count", "Combat procedure");
    let nowhere = table(vec![pc("Balthasar", "alice", "moon")]);
    fight.refused(nowhere.create(0), "zone-rpg.unknown_zone", "herald: docs/rulesets/zone-rpg.md");
    let overloaded = table(vec![pc("Balthasar", "alice", "road").armed(ranged("bow", 6, 8)).shield()]);
    fight.refused(overloaded.create(0), "zone-rpg.hands", "Taking a turn");
    let refused = fight.when(player("alice"), table(vec![pc("B", "alice", "road")]).create(0)).unwrap_err();
    assert!(refused.forbidden);
}

#[test]
fn every_set_up_refusal_names_its_code_and_rule() {
    // Each case breaks one thing a fight needs; the refusal names that (issue 26: a test
    // triggers each code).
    let base = || table(vec![pc("Balthasar", "alice", "road"), npc("bandit", "road")]);
    let mut cases: Vec<(&str, Table, &str, &str)> = Vec::new();
    let mut t = base();
    t.zones.clear();
    cases.push(("no zone", t, "zone-rpg.zone_count", "herald"));
    let mut t = base();
    t.zones.push(zone("road"));
    cases.push(("two roads", t, "zone-rpg.duplicate_zone", "herald"));
    let mut t = base();
    t.zones[0].name = " ".into();
    cases.push(("a blank zone name", t, "zone-rpg.bad_name", "herald"));
    let mut t = base();
    t.zones[0] = with_feature(zone("road"), "cart", herald_domain::zone_rpg::map::Protection::None);
    cases.push(("a feature protecting from nothing", t, "zone-rpg.feature_protection", "Cover"));
    let mut t = base();
    let cart = || herald_domain::zone_rpg::map::Protection::Cover;
    t.zones[0] = with_feature(with_feature(zone("road"), "cart", cart()), "cart", cart());
    cases.push(("two carts", t, "zone-rpg.duplicate_feature", "herald"));
    let (zones, mut borders) = chain(&["road", "ford"]);
    borders.push(border("road", "road"));
    cases.push(("a border to itself", base().zones(zones, borders), "zone-rpg.border_loop", "herald"));
    let (zones, mut borders) = chain(&["road", "ford"]);
    borders[0].length = 0;
    cases.push(("a border of no length", base().zones(zones, borders), "zone-rpg.border_length", "herald"));
    let (zones, mut borders) = chain(&["road", "ford"]);
    borders.push(border("ford", "road"));
    cases.push(("a border twice", base().zones(zones, borders), "zone-rpg.duplicate_border", "herald"));
    let mut t = base();
    t.factions[1].name = PARTY.into();
    cases.push(("a faction twice", t, "zone-rpg.duplicate_faction", "herald"));
    let mut t = base();
    t.initiative = herald_domain::zone_rpg::character::InitiativeSpec::Faction { faction: "nobody".into() };
    cases.push(("the initiative to no faction", t, "zone-rpg.unknown_faction", "Combat procedure"));
    let mut t = base();
    t.characters.clear();
    cases.push(("nobody", t, "zone-rpg.character_count", "herald"));
    let mut t = base();
    t.characters[1].id = "Balthasar".into();
    cases.push(("two Balthasars", t, "zone-rpg.duplicate_character", "herald"));
    let mut t = base();
    t.characters[1].wit = 21;
    cases.push(("a WIT of 21", t, "zone-rpg.save_value", "herald"));
    let mut t = base();
    t.characters[0].health = 0;
    t.characters[0].max_health = Some(0);
    cases.push(("no health", t, "zone-rpg.health", "herald"));
    let mut t = base();
    t.characters[0].speed = 101;
    cases.push(("a speed of 101", t, "zone-rpg.limit", "herald"));
    let t = table(vec![pc("Balthasar", "alice", "road").armour(4), npc("bandit", "road")]);
    cases.push(("armour 4", t, "zone-rpg.armour_value", "Cover"));
    let mut t = base();
    t.characters[0].weapons =
        (0..=herald_domain::zone_rpg::limits::MAX_WEAPONS).map(|n| weapon(&format!("knife {n}"), 4)).collect();
    cases.push(("too many weapons", t, "zone-rpg.weapon_count", "herald"));
    let t = table(vec![
        pc("Balthasar", "alice", "road").armed(weapon("sword", 6)).armed(weapon("sword", 8)),
        npc("bandit", "road"),
    ]);
    cases.push(("two swords", t, "zone-rpg.duplicate_weapon", "herald"));
    let mut t = base();
    t.characters[0].at_border = Some("ford".into());
    cases.push(("a border the road does not have", t, "zone-rpg.not_a_border", "herald"));
    let mut t = base();
    t.characters[0].behind = Some("cart".into());
    cases.push(("behind no cart", t, "zone-rpg.unknown_feature", "Cover"));
    let mut t = base();
    t.characters[0].riding = Some("pegasus".into());
    cases.push(("riding nobody", t, "zone-rpg.unknown_character", "herald"));
    let mut t = base();
    t.characters[0].riding = Some("bandit".into());
    cases.push(("riding an enemy", t, "zone-rpg.cannot_ride", "Mounts and vehicles in combat"));
    let mut t = base();
    t.zones[0].at = Some(herald_domain::zone_rpg::map::MapPoint { x: 101, y: 0 });
    cases.push(("a zone off the picture", t, "zone-rpg.map_point", "herald"));
    let mut t = base();
    t.options.durability.die = 1;
    cases.push(("a durability die of one face", t, "zone-rpg.durability_die", "Combat gear degradation"));
    for (what, t, code, rule) in cases {
        let mut fight = Fight::empty(0);
        let error = fight.when(gm(), t.create(0)).expect_err(what);
        assert_eq!(error.code, code, "{what}: {}", error.message);
        assert!(error.rule.contains(rule), "{what}: {} should cite {rule}", error.rule);
    }
    // The stream's state and the seed's commitment.
    let mut fight = given(&base(), 0);
    fight.refused(base().create(0), "zone-rpg.already_exists", "herald");
    let mut fight = Fight::empty(0);
    let C::CreateBattle { zones, borders, factions, characters, initiative, options, .. } = base().create(0) else {
        unreachable!()
    };
    let unsealed = C::CreateBattle {
        zones,
        borders,
        factions,
        characters,
        initiative,
        options,
        seed_commitment: "not hex".into(),
    };
    fight.refused(unsealed, "zone-rpg.seed_commitment_malformed", "herald");
}

/// Issue 31 item 3: every character of a small fight is drawn in its zone (none left for the list
/// under the map), marked with its faction's letter and its id for the viewer to highlight.
#[test]
fn the_zone_map_draws_every_character_in_its_zone_with_its_factions_letter() {
    let fight = skirmish();
    let svg = ZoneRpg::picture(STREAM, 7, &fight.state, &Viewer::public()).unwrap();
    let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert!(!svg.contains("No room on the map"), "{svg}");
    for (id, mark) in [("Balthasar", "A"), ("bandit 1", "B"), ("bandit 2", "B")] {
        let line = document.descendants().find(|n| n.attribute("data-figure") == Some(id)).expect(id);
        let text: String = line.children().filter_map(|c| c.text()).collect();
        assert!(text.starts_with(&format!("{mark} {id} ")), "{text}");
    }
}

/// Issue 31 item 2: the character sheet shows health as a track, the three saves, where the
/// character stands and its gear, for each faction in turn.
#[test]
fn the_character_sheets_show_health_saves_zone_and_gear_by_faction() {
    use herald_domain::ruleset::sheet::Section;
    let fight = skirmish();
    let view = ZoneRpg::view(STREAM, 7, &fight.state, &fight.state, &Viewer::public());
    let sheet = ZoneRpg::sheet(&view).unwrap();
    assert_eq!(sheet.kind, "character sheets");
    assert_eq!(sheet.groups.iter().map(|g| (g.mark.as_str(), g.cards.len())).collect::<Vec<_>>(), [("A", 1), ("B", 2)]);
    let balthasar = &sheet.groups[0].cards[0];
    assert_eq!(balthasar.name, "Balthasar");
    assert!(balthasar.sections.contains(&Section::Track { label: "health".into(), current: 10, max: 10 }));
    let Some(Section::Stats { stats, .. }) = balthasar
        .sections
        .iter()
        .find(|s| matches!(s, Section::Stats { label: Some(l), .. } if l.starts_with("saves")))
    else {
        panic!("no saves: {balthasar:?}")
    };
    assert_eq!(stats.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), ["WIT", "AGI", "STR", "armour"]);
    let Some(Section::List { items, .. }) =
        balthasar.sections.iter().find(|s| matches!(s, Section::List { label, .. } if label == "gear"))
    else {
        panic!("no gear: {balthasar:?}")
    };
    assert!(items[0].starts_with("sword (d6 damage"), "{items:?}");
    let bandit = &sheet.groups[1].cards[0];
    let Some(Section::Track { current, max, .. }) = bandit.sections.first() else { panic!("{bandit:?}") };
    assert!(current < max, "the blow shows on the bandit's health");
}
