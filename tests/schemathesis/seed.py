"""Seed a fresh Herald through its API so schemathesis has real ids to hit.

Writes a JSON file of fixtures: the tokens of each role, and for each path parameter of the
OpenAPI document the values that name something (a battle of every ruleset, a campaign with an
open turn and a vote, a token to revoke, streams, pictures). Usage: seed.py BASE_URL ADMIN OUT.
"""

import json
import sys
import urllib.request

BASE, ADMIN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
DEADLINE = "2099-12-01T18:00:00Z"


def call(method, path, token, body=None, expect=(200, 201)):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    if status not in expect:
        sys.exit(f"seeding: {method} {path} answered {status}: {text[:500]!r}")
    return json.loads(text) if text else None


def token(role, **extra):
    return call("POST", "/v1/tokens", ADMIN, {"role": role, **extra})


def uuid_of(stream):
    return stream.split("-", 1)[1]


def coalition():
    return {
        "armies": {
            "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                  "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000}]},
            "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                  "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2,
                             "troops": 5000}]},
        },
        "engagement": {"kind": "attack", "attacker": "a"},
        "terrain": "plains",
        "strategy_deadline": DEADLINE,
        "seed": SEED,
    }


def warmachine():
    def caster(ident, player, x, y):
        return {"id": ident, "player": player, "position": {"x": x, "y": y}, "profile": {
            "name": "Captain", "model_type": "warcaster", "base": "small",
            "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 15, "arm": 15, "arc": 6, "ctrl": 12},
            "damage": {"kind": "boxes", "boxes": 17},
            "weapons": [{"name": "Sword", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 7}]}}
    return {"ruleset": "warmachine", "seed": SEED, "table": {"width": 48.0, "depth": 48.0, "terrain": []},
            "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
            "models": [caster("red-caster", "red", 24.0, 8.0), caster("blue-caster", "blue", 24.0, 40.0)]}


def zone_rpg():
    return {"ruleset": "zone-rpg", "seed": SEED, "zones": [{"name": "road"}, {"name": "hill"}],
            "borders": [{"a": "road", "b": "hill"}], "factions": [{"name": "party"}, {"name": "bandits"}],
            "initiative": {"kind": "faction", "faction": "party"},
            "characters": [
                {"id": "Balthasar", "faction": "party", "controller": "alice", "health": 10, "wit": 12, "agi": 10,
                 "str": 14, "zone": "road", "weapons": [{"name": "sword", "damage": "d6"}]},
                {"id": "bandit", "faction": "bandits", "health": 8, "wit": 9, "agi": 8, "str": 10, "zone": "road",
                 "weapons": [{"name": "axe", "damage": "d6"}]}]}


def percentile_skirmish():
    def card(name):
        return {"name": name, "level": 2, "movement": 4.0, "initiative": 9, "life": 12,
                "weapons": [{"name": "Sword", "kind": "melee", "damage": "d6"}]}
    return {"ruleset": "percentile-skirmish", "seed": SEED, "table": {"width": 36.0, "depth": 24.0, "terrain": []},
            "participants": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
            "minis": [
                {"id": "red-knight", "participant": "red", "position": {"x": 10.0, "y": 10.0}, "facing": 0.0,
                 "profile": card("Knight")},
                {"id": "blue-guard", "participant": "blue", "position": {"x": 14.0, "y": 10.0}, "facing": 180.0,
                 "profile": card("Guard")}]}


def swift_swords():
    def figure(ident, side, controller=None):
        body = {"id": ident, "side": side, "start": {"zone": "ford", "group": "melee"},
                "action_dice": {"kind": "set", "values": [5, 4, 3]}, "physical": 9, "mental": 9,
                "weapons": [{"name": "Spear", "dice": 4, "weight": "medium"}]}
        if controller:
            body["controller"] = controller
        return body
    return {"ruleset": "swift-swords", "seed": SEED,
            "map": {"zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford"},
                              {"id": "bank", "column": 1, "row": 0, "terrain": "wooded bank"}],
                    "borders": [{"a": "ford", "b": "bank", "cover": "soft_light", "name": "reeds"}]},
            "sides": [{"name": "heroes", "controller": "alice"}, {"name": "goblins"}],
            "figures": [figure("roland", "heroes", "alice"), figure("goblin-1", "goblins")]}


def campaign():
    def army(name, team, colors, creature, color):
        return {"name": name, "team": team, "rank": "cpl_lt_commander", "creator": None, "colors": colors,
                "legend": None, "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1,
                                            "slot": 0, "full": 5000, "troops": 4000}]}
    return {"name": "Round 1",
            "map": {"bounds": {"columns": 14, "rows": 38}, "terrain": {"8E": "swamp"}, "default_terrain": "plains",
                    "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"},
                                      "win_condition": True}}},
            "armies": [
                {"army": army("Sai Rei", "coalition", ["red", "green", "blue"], "Kris Mage", "red"),
                 "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
                {"army": army("Plague Host", "phyrexia", [], "Phyrexian Broodling", "black"),
                 "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}],
            "options": {"enforce_army_counts": False, "enforce_site_counts": False}}


judge = token("judge", label="schemathesis judge")["token"]
player = token("player", player="alice", label="schemathesis player")["token"]
observer = token("observer", label="schemathesis observer")["token"]
# A token only the admin run may revoke: the others' tokens must outlive it.
victim = token("observer", label="schemathesis: revoke me")

battles = []
for body in (coalition(), warmachine(), zone_rpg(), percentile_skirmish(), swift_swords()):
    battles.append(call("POST", "/v1/battles", judge, body)["stream"])
# A coalition battle that has ended, so its seed is public and verify answers 200.
ended = call("POST", "/v1/battles", judge, coalition())["stream"]
for side, text in (("a", "Hold the ridge"), ("b", "Swarm them")):
    call("POST", f"/v1/battles/{ended}/strategies", judge, {"side": side, "strategy": text})
for side in ("a", "b"):
    call("POST", f"/v1/battles/{ended}/strategy-bonuses", judge, {"side": side, "bonus": 5})
call("POST", f"/v1/battles/{ended}/resolve", judge, {})
battles.append(ended)

campaign_stream = call("POST", "/v1/campaigns", judge, campaign())["stream"]
call("POST", f"/v1/campaigns/{campaign_stream}/turns", judge, {"deadline": DEADLINE})
vote = call("POST", f"/v1/campaigns/{campaign_stream}/votes", judge,
            {"topic": "Attack Red Base first?", "options": ["yes", "no"], "closes_at": DEADLINE})
vote_id = next((e["data"].get("vote") for e in vote["events"] if "vote" in e["data"]), 1)

ids = [uuid_of(s) for s in battles]
fixtures = {
    "tokens": {"admin": ADMIN, "player": player, "observer": observer, "judge": judge},
    "path": {
        "battle_id": ids + battles[:2],
        "campaign_id": [uuid_of(campaign_stream), campaign_stream],
        "stream": battles[:3] + [campaign_stream, "tokens"],
        "side": ["a", "b"],
        "picture": ["table.svg", "map.svg"],
        "turn": [0, 1],
        "vote": [vote_id],
        "token_id": [victim["record"]["id"]],
    },
}
with open(OUT, "w") as out:
    json.dump(fixtures, out, indent=1)
print(f"seeded {len(battles)} battles, 1 campaign (turn 1 open, vote {vote_id}), 4 tokens")
