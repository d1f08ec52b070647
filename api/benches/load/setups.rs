//! A set-up of each battle ruleset, for the load test's create phase (figure 7) and the soak's
//! battles: the black-box tests' sample battles (tests/tests/api/*.rs), without their fixed seed, so the server seals a
//! fresh one as for any client's create.

use serde_json::{json, Value};

/// `(ruleset, set-up)` for every battle ruleset.
pub fn all(coalition: Value) -> Vec<(&'static str, Value)> {
    vec![
        ("coalition", coalition),
        ("zone-rpg", zone_rpg()),
        ("swift-swords", swift_swords()),
        ("percentile-skirmish", percentile_skirmish()),
        ("warmachine", warmachine()),
    ]
}

/// The black-box tests' coalition battle (tests/src/lib.rs, seed 003), its strategies due at
/// `deadline`.
#[allow(dead_code)] // the soak plays the README's battle instead
pub fn coalition(deadline: &str) -> Value {
    json!({
        "armies": {
            "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                  "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000},
                            {"creature": "Grizzly Bears", "colors": ["green"], "power": 2, "toughness": 2, "troops": 2500}]},
            "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                  "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000},
                            {"creature": "Phyrexian Ghoul", "colors": ["black"], "power": 2, "toughness": 2, "troops": 2500}]}
        },
        "engagement": {"kind": "attack", "attacker": "a"},
        "terrain": "plains",
        "strategy_deadline": deadline,
    })
}

/// tests/tests/api/zone_rpg.rs `fight`.
fn zone_rpg() -> Value {
    json!({
        "ruleset": "zone-rpg",
        "zones": [{"name": "road"}, {"name": "thicket"}, {"name": "hill"}],
        "borders": [{"a": "road", "b": "thicket"}, {"a": "thicket", "b": "hill"}],
        "factions": [{"name": "party"}, {"name": "bandits"}],
        "initiative": {"kind": "faction", "faction": "bandits"},
        "characters": [
            {"id": "Balthasar", "faction": "party", "controller": "alice", "health": 10, "wit": 12, "agi": 10, "str": 14,
             "zone": "road", "weapons": [{"name": "sword", "damage": "d6"}], "armour": {"name": "light armour", "value": 1}},
            {"id": "Sybilla", "faction": "party", "controller": "bob", "health": 20, "wit": 13, "agi": 12, "str": 9,
             "zone": "road", "weapons": [{"name": "dagger", "damage": "d4"},
                {"name": "musket", "damage": "d8", "range": 6, "hands": "two", "held": false}]},
            {"id": "bandit leader", "faction": "bandits", "group": "band", "health": 8, "wit": 10, "agi": 9, "str": 12,
             "zone": "road", "weapons": [{"name": "battleaxe", "damage": "d8", "hands": "two"}]},
            {"id": "lookout", "faction": "bandits", "group": "band", "health": 6, "wit": 12, "agi": 12, "str": 8,
             "zone": "hill", "concealed": true, "weapons": [{"name": "bow", "damage": "d6", "range": 8, "hands": "two"}]}
        ]
    })
}

/// tests/tests/api/swift_swords.rs `encounter`.
fn swift_swords() -> Value {
    let goblin = |id: &str| {
        json!({"id": id, "side": "goblins", "start": {"zone": "ford", "group": "melee"},
               "action_dice": {"kind": "set", "values": [5, 4, 3]}, "physical": 9, "mental": 9,
               "weapons": [{"name": "Spear", "dice": 4, "weight": "medium"}]})
    };
    json!({
        "ruleset": "swift-swords",
        "map": {
            "zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford", "going": "rough"},
                      {"id": "bank", "column": 1, "row": 0, "terrain": "wooded bank"}],
            "borders": [{"a": "ford", "b": "bank", "cover": "soft_light", "name": "reeds"}]
        },
        "sides": [{"name": "heroes", "controller": "alice"}, {"name": "goblins"}],
        "figures": [
            {"id": "roland", "side": "heroes", "controller": "alice", "start": {"zone": "ford", "group": "melee"},
             "action_dice": {"kind": "roll", "dice": 4}, "physical": 9, "mental": 9, "heroic": true,
             "weapons": [{"name": "Broadsword", "dice": 4, "weight": "medium"}],
             "defences": {"dodge": 5, "block": 5, "parry": 4},
             "shield": {"name": "Medium Shield", "block": 2}},
            goblin("goblin-1"),
            goblin("goblin-2")
        ],
        "options": {"minor_advantage_dice": 0, "major_advantage_dice": 0}
    })
}

/// tests/tests/api/percentile_skirmish.rs `battle`.
fn percentile_skirmish() -> Value {
    let card = |name: &str, level: u32, initiative: i32, life: u32, weapons: Value| json!({"name": name, "level": level, "movement": 4.0, "initiative": initiative, "life": life, "weapons": weapons});
    let sword = json!([{"name": "Sword", "kind": "melee", "damage": "d6"}]);
    let bow = json!([{"name": "Bow", "kind": "ranged", "range": 24.0, "damage": "d8"}, {"name": "Dagger", "kind": "melee", "damage": "d4"}]);
    let mut knight = card("Knight", 3, 10, 20, sword.clone());
    knight["armour"] = json!([{"name": "Mail", "slot": "body", "protection": 2, "metal": true}]);
    knight["points"] = json!(60);
    json!({
        "ruleset": "percentile-skirmish",
        "table": {"width": 36.0, "depth": 24.0, "terrain": [
            {"name": "King's road", "kind": "road", "shape": {"kind": "rect", "min": {"x": 0.0, "y": 9.0}, "max": {"x": 36.0, "y": 11.0}}}
        ]},
        "participants": [{"name": "red", "controller": "alice", "points_limit": 200}, {"name": "blue", "controller": "bob"}],
        "minis": [
            {"id": "red-knight", "participant": "red", "position": {"x": 10.0, "y": 10.0}, "facing": 0.0, "profile": knight},
            {"id": "red-archer", "participant": "red", "position": {"x": 14.0, "y": 11.0}, "facing": 90.0, "profile": card("Archer", 2, 8, 10, bow)},
            {"id": "blue-guard", "participant": "blue", "position": {"x": 14.0, "y": 10.0}, "facing": 180.0, "profile": card("Guard", 1, 10, 16, sword)}
        ]
    })
}

/// tests/tests/api/warmachine.rs `battle`, with a warcaster and a trooper a side.
fn warmachine() -> Value {
    let caster = |id: &str, player: &str, y: f64| {
        json!({"id": id, "player": player, "position": {"x": 24.0, "y": y}, "profile": {
            "name": "Captain", "model_type": "warcaster", "base": "small",
            "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 15, "arm": 15, "arc": 6, "ctrl": 12},
            "damage": {"kind": "boxes", "boxes": 17},
            "weapons": [{"name": "Sword", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 7}]}})
    };
    let trooper = |id: &str, player: &str, unit: &str, y: f64| {
        json!({"id": id, "player": player, "unit": unit, "position": {"x": 10.0, "y": y}, "profile": {
            "name": "Grunt", "model_type": "trooper", "base": "small",
            "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 13, "arm": 13},
            "damage": {"kind": "boxes", "boxes": 1},
            "weapons": [{"name": "Spear", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 10}]}})
    };
    json!({
        "ruleset": "warmachine",
        "table": {"width": 48.0, "depth": 48.0, "terrain": []},
        "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
        "models": [
            caster("red-caster", "red", 8.0),
            trooper("red-grunt-1", "red", "red-grunts", 10.0),
            caster("blue-caster", "blue", 40.0),
            trooper("blue-grunt-1", "blue", "blue-grunts", 30.0),
        ]
    })
}
