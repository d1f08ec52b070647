"""Play every registered ruleset through the generated Python client (Herald issue 17).

A worked example of what a third-party developer does with the committed spec: generate a
client with openapi-python-client (clients/check does it, with no patches), then call the API
with nothing but the generated functions (`herald_client.api.<tag>.<operation>.sync_detailed`)
and models. No raw HTTP is sent for an API call: if the client cannot express a call, the spec
is wrong and is fixed at its source (api/src/routes, api/src/openapi).

The script starts the real server binary on a free port with a fresh data directory and a known
admin token, lists the rulesets (`GET /v1/rulesets`), and plays a battle of every battle ruleset
from creation to its end: the tokens it needs, the battle, the commands until the view says it
ended, the events, and `verify` once the seed is revealed. Every action goes with `If-Match`
(the version last written) and an `Idempotency-Key`. The coalition campaign plays a turn of
orders whose armies meet, fights the battle the turn announces, and applies its result the next
turn. A ruleset the server lists and this script has no scenario for is a failure, so a new
ruleset cannot slip in untested.

Run (clients/check does this after generating the client):

    PYTHONPATH=target/clients/python target/clients/venv/bin/python clients/python/play_test.py

The dice are seeded per battle by the server, so outcomes are checked by the rules (the battle
ended, its winner is one of its sides), never against fixed numbers.
"""

from __future__ import annotations

import datetime
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from herald_client import AuthenticatedClient, Client
from herald_client.api.auth import create_token
from herald_client.api.battles import (
    contribute_entropy,
    create_battle,
    get_battle,
    post_action,
    verify_battle,
)
from herald_client.api.campaigns import (
    adjudicate_turn,
    create_campaign,
    get_campaign,
    lock_turn,
    open_turn,
    post_orders,
)
from herald_client.api.coalition_battles import (
    assign_strategy_bonus,
    resolve_battle,
    submit_strategy,
)
from herald_client.api.disputes import file_dispute, rule_on_dispute, what_if
from herald_client.api.events import stream_events, verify_stream
from herald_client.api.operations import readyz
from herald_client.api.rulesets import list_rulesets
from herald_client.models import (
    CreateCoalitionBattle,
    CreateCoalitionCampaign,
    CreatePercentileSkirmishBattle,
    CreateSwiftSwordsBattle,
    CreateTokenRequest,
    CreateWarmachineBattle,
    CreateZoneRpgBattle,
    EntropyRequest,
    FileDisputeRequest,
    OpenTurnRequest,
    OrdersRequest,
    Problem,
    ResolveRequest,
    Role,
    RulingBody,
    SideId,
    SkirmishCommandChooseCombatOption,
    SkirmishCommandDeclare,
    SkirmishCommandEndActions,
    SkirmishCommandEndBattle,
    SkirmishCommandMeleeAttack,
    SkirmishCommandMove,
    StrategyBonusRequest,
    StrategyRequest,
    SwiftSwordsAwaiting,
    SwiftSwordsCommandAttack,
    SwiftSwordsCommandBegin,
    SwiftSwordsCommandCallRefresh,
    SwiftSwordsCommandDefend,
    SwiftSwordsCommandEndBattle,
    WarmachineCommandActivate,
    WarmachineCommandAttack,
    WarmachineCommandEndActivation,
    WarmachineCommandEndBattle,
    WarmachineCommandMove,
    WarmachineCommandStartTurn,
    WhatIfRequest,
    ZoneRpgCommandAttack,
    ZoneRpgCommandDecline,
    ZoneRpgCommandEndFight,
    ZoneRpgCommandEndTurn,
    ZoneRpgCommandStartRound,
    ZoneRpgCommandTakeTurn,
)
from herald_client.types import Response

ADMIN_TOKEN = "play-test-admin-token-0123456789abcdef"


class PlayTestFailure(Exception):
    """A step of a scenario did not go as the rules say it should."""


# ---- Talking to the server through the generated client ------------------------------------


def ok(response: Response[Any], what: str) -> Any:
    """The parsed body of a 2xx answer; anything else (a problem+json, a status the spec does not
    document) fails the play test naming the step."""
    parsed = response.parsed
    if not 200 <= response.status_code < 300 or parsed is None or isinstance(parsed, Problem):
        if isinstance(parsed, Problem):
            said = f"{parsed.code}: {parsed.detail}"
        else:
            said = response.content.decode(errors="replace")[:500]
        raise PlayTestFailure(f"{what}: HTTP {int(response.status_code)} {said}")
    return parsed


def event_types(answer: Any) -> list[str]:
    """The types of the events a command answered with (a `CommandResponse`)."""
    return [event.type_ for event in answer.events]


@dataclass
class Table:
    """The people at a table: a judge (also the GM) and two players, each with its own client."""

    base_url: str
    admin: AuthenticatedClient
    judge: AuthenticatedClient
    alice: AuthenticatedClient
    bob: AuthenticatedClient
    anyone: Client

    @classmethod
    def seat(cls, base_url: str) -> Table:
        admin = AuthenticatedClient(base_url=base_url, token=ADMIN_TOKEN)

        def issue(role: Role, player: str | None = None) -> AuthenticatedClient:
            request = CreateTokenRequest(role=role, label=f"play test {player or role}")
            if player is not None:
                request.player = player
            issued = ok(create_token.sync_detailed(client=admin, body=request), f"issue a {role} token")
            return AuthenticatedClient(base_url=base_url, token=issued.token)

        return cls(
            base_url=base_url,
            admin=admin,
            judge=issue(Role.JUDGE),
            alice=issue(Role.PLAYER, "alice"),
            bob=issue(Role.PLAYER, "bob"),
            anyone=Client(base_url=base_url),
        )


@dataclass
class Played:
    """What a scenario did, for the summary."""

    ruleset: str
    stream: str = ""
    commands: int = 0
    winner: str = "?"
    events: int = 0
    verified: str = "not run"
    notes: list[str] = field(default_factory=list)


class Battle:
    """One battle being played: its id, the stream version last written (sent back as `If-Match`
    so no command acts on a state it has not seen), and a count of the commands posted to it."""

    def __init__(self, table: Table, played: Played, ruleset: str, stream: str, version: int) -> None:
        self.table = table
        self.played = played
        self.ruleset = ruleset
        self.stream = stream
        self.id = stream.removeprefix("battle-")
        self.version = version
        self.sent = 0

    @classmethod
    def create(cls, table: Table, played: Played, body: Any) -> Battle:
        """`POST /v1/battles` as the judge, with the ruleset's `Create…Battle` model."""
        created = ok(create_battle.sync_detailed(client=table.judge, body=body), f"create a {played.ruleset} battle")
        played.stream = created.stream
        played.commands += 1
        return cls(table, played, str(body.ruleset), created.stream, created.version)

    def wrote(self, answer: Any) -> list[str]:
        """Note a command's answer (a `CommandResponse`): the new version; its events' types."""
        self.version = answer.version
        self.played.commands += 1
        return event_types(answer)

    def act(self, who: AuthenticatedClient, command: Any) -> list[str]:
        """`POST /v1/battles/{id}/actions` with one of the ruleset's command models, on the
        version last seen (`If-Match`) and with an `Idempotency-Key`, so a retry is safe."""
        return self.wrote(ok(self.send(who, command), f"{self.played.ruleset}: {command.type_}"))

    def attempt(self, who: AuthenticatedClient, command: Any) -> Problem | list[str]:
        """`act`, but a refusal is answered as its `Problem` (for a scenario to branch on)."""
        answer = self.send(who, command)
        return answer.parsed if isinstance(answer.parsed, Problem) else self.act_answered(answer, command)

    def act_answered(self, answer: Response[Any], command: Any) -> list[str]:
        return self.wrote(ok(answer, f"{self.played.ruleset}: {command.type_}"))

    def send(self, who: AuthenticatedClient, command: Any, key: str | None = None) -> Response[Any]:
        """Post `command` on the version last written, under a new `Idempotency-Key` (or `key`)."""
        self.sent += 1
        return post_action.sync_detailed(
            self.id,
            client=who,
            body=command,
            if_match=f'"{self.version}"',
            idempotency_key=key or f"{self.stream}/{self.sent}",
        )

    def act_and_retry(self, who: AuthenticatedClient, command: Any) -> list[str]:
        """`act`, then send the very same request again, as a client does when the answer was
        lost: the server answers the first result again (`replayed`) and writes nothing."""
        key = f"{self.stream}/retried"
        first = ok(self.send(who, command, key), f"{self.played.ruleset}: {command.type_}")
        # The same request: the same key, and the same If-Match (the version is noted only below).
        again = ok(self.send(who, command, key), f"{self.played.ruleset}: {command.type_} retried")
        if first.replayed or not again.replayed or again.version != first.version:
            raise PlayTestFailure(f"{self.played.ruleset}: a retry was not answered with the first result")
        self.played.notes.append(f"a retried {command.type_} was replayed, not written twice")
        return self.wrote(first)

    def entropy(self, who: AuthenticatedClient, text: str) -> None:
        answer = contribute_entropy.sync_detailed(self.id, client=who, body=EntropyRequest(entropy=text))
        self.wrote(ok(answer, f"{self.played.ruleset}: entropy"))

    def view(self, who: AuthenticatedClient | None = None) -> Any:
        """The battle as `who` (the judge by default) sees it: the ruleset's own view model (the
        answer is a union of every ruleset's view; the parsed one must be this ruleset's)."""
        view = ok(get_battle.sync_detailed(self.id, client=who or self.table.judge), f"{self.played.ruleset}: view")
        if str(view.ruleset) != self.ruleset:
            raise PlayTestFailure(f"{self.played.ruleset}: the view was parsed as {type(view).__name__}")
        if view.version < self.version:
            raise PlayTestFailure(f"{self.played.ruleset}: view at version {view.version}, written {self.version}")
        return view

    def ended(self) -> bool:
        """Whether the view says the battle is over: a tactical ruleset's `phase` is `ended`, a
        coalition battle's `status` is `resolved` (or `killed`)."""
        view = self.view()
        if hasattr(view, "phase"):
            return str(view.phase) == "ended"
        return str(view.status) in {"resolved", "killed"}

    def finish(self, winners: set[str]) -> None:
        """Check the battle ended with a winner among `winners`, read its events as anyone, and
        verify it as anyone (its seed is revealed when it ends)."""
        if not self.ended():
            raise PlayTestFailure(f"{self.played.ruleset}: the battle has not ended")
        view = self.view()
        winner = getattr(view, "winner", None)
        if not isinstance(winner, str) or winner not in winners:
            raise PlayTestFailure(f"{self.played.ruleset}: winner {winner!r} is not one of {sorted(winners)}")
        self.played.winner = winner
        self.played.events = len(read_events(self.table.anyone, self.stream))
        report = ok(verify_battle.sync_detailed(self.id, client=self.table.anyone), f"{self.played.ruleset}: verify")
        self.played.verified = f"{report.result} ({report.events_checked} events, seed {report.seed})"
        if not report.verified:
            raise PlayTestFailure(f"{self.played.ruleset}: verification failed: {report.to_dict()}")


def read_events(client: AuthenticatedClient | Client, stream: str) -> list[Any]:
    """Every event of a stream, page by page (`from` / `next`)."""
    events: list[Any] = []
    start = 0
    while True:
        page = ok(stream_events.sync_detailed(stream, client=client, from_=start, limit=100), f"events of {stream}")
        events.extend(page.events)
        if not isinstance(page.next_, int):
            return events
        start = page.next_


def tomorrow() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=1)


# ---- coalition (seed 003 ch. 4): sealed strategies, bonuses, eight d20 -----------------------


def play_coalition_battle(table: Table) -> Played:
    played = Played("battle coalition")
    army = lambda name, team, controller, creature, color: {  # noqa: E731
        "name": name,
        "team": team,
        "rank": "cpl_lt_commander",
        "controller": controller,
        "slots": [{"creature": creature, "colors": [color], "power": 2, "toughness": 2, "troops": 5000}],
    }
    setup = CreateCoalitionBattle.from_dict(
        {
            "ruleset": "coalition",
            "armies": {
                "a": army("Sai Rei", "coalition", "alice", "Kris Mage", "red"),
                "b": army("Plague Host", "phyrexia", "bob", "Phyrexian Broodlings", "black"),
            },
            "engagement": {"kind": "attack", "attacker": "a"},
            "terrain": "plains",
            "strategy_deadline": tomorrow().isoformat(),
        }
    )
    battle = Battle.create(table, played, setup)
    battle.entropy(table.alice, "alice's lucky string")
    battle.entropy(table.bob, "bob rolls for the Host")
    fight_coalition_battle(table, battle)
    dispute_coalition_battle(table, battle)
    return played


def dispute_coalition_battle(table: Table, battle: Battle) -> None:
    """Bob disputes side a's strategy bonus; the judge runs the what-if with it read as 2, rules
    the dispute corrected on that what-if; the events (with the dispute records) still parse,
    and the battle still verifies, listing the ruling (docs/API.md "Disputes")."""
    events = [event.to_dict() for event in read_events(table.judge, battle.stream)]
    version = next(
        e["version"] for e in events if e["type"] == "coalition.StrategyBonusAssigned" and e["data"]["side"] == "a"
    )
    claim = FileDisputeRequest(version=version, claim="The high ground was not in side a's strategy: 2, not 6.")
    filed = ok(file_dispute.sync_detailed(battle.stream, client=table.bob, body=claim), "coalition: file a dispute")
    change = {"version": version, "command": {"type": "assign_strategy_bonus", "side": "a", "bonus": 2}}
    report = ok(
        what_if.sync_detailed(battle.stream, client=table.judge, body=WhatIfRequest.from_dict(change)),
        "coalition: what-if",
    )
    if not report.differs:
        raise PlayTestFailure(f"coalition: the what-if with another bonus changed nothing: {report.to_dict()}")
    ruling = RulingBody.from_dict(
        {"ruling": "corrected", "reason": "graded again", "what_if": change, "what_if_hash": report.hash_}
    )
    ruled = ok(
        rule_on_dispute.sync_detailed(battle.stream, filed.id, client=table.judge, body=ruling), "coalition: rule"
    )
    if str(ruled.status) != "corrected":
        raise PlayTestFailure(f"coalition: the dispute was not corrected: {ruled.to_dict()}")
    read_events(table.anyone, battle.stream)
    verified = ok(verify_stream.sync_detailed(battle.stream, client=table.alice), "coalition: verify the correction")
    if not verified.verified or not verified.rulings:
        raise PlayTestFailure(f"coalition: the corrected battle does not verify with its ruling: {verified.to_dict()}")


def fight_coalition_battle(table: Table, battle: Battle) -> None:
    """Each side's controller sends a sealed strategy, the judge grades both, and resolves: four
    d20 a side; the battle ends with a winner and the service reveals the seed."""
    sides = battle.view().sides
    players = {"alice": table.alice, "bob": table.bob}
    for side, army in [(SideId.A, sides.a.army), (SideId.B, sides.b.army)]:
        strategy = StrategyRequest(side=side, strategy=f"{army.name} holds the high ground.")
        who = players[army.controller]
        battle.wrote(ok(submit_strategy.sync_detailed(battle.id, client=who, body=strategy), f"strategy {side}"))
    for side, bonus in [(SideId.A, 6), (SideId.B, 4)]:
        request = StrategyBonusRequest(side=side, bonus=bonus, note="graded by the play test")
        battle.wrote(ok(assign_strategy_bonus.sync_detailed(battle.id, client=table.judge, body=request), "bonus"))
    resolved = battle.wrote(
        ok(resolve_battle.sync_detailed(battle.id, client=table.judge, body=ResolveRequest()), "coalition: resolve")
    )
    if "coalition.SeedRevealed" not in resolved:
        raise PlayTestFailure(f"coalition: resolving did not reveal the seed: {resolved}")
    battle.finish({"a", "b"})


# ---- warmachine (seed 000): a turn with an aimed shot, then the other player concedes --------


def play_warmachine(table: Table) -> Played:
    played = Played("battle warmachine")
    boxes = lambda n: {"kind": "boxes", "boxes": n}  # noqa: E731
    sword = {"name": "Sword", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 7}
    rifle = {"name": "Rifle", "kind": "ranged", "rng": {"kind": "inches", "inches": 24.0}, "rof": 1, "pow": 12}
    stats = {"spd": 6, "mat": 6, "rat": 5, "def": 13, "arm": 13}

    def solo(model_id: str, player: str, y: float, weapon: dict[str, Any]) -> dict[str, Any]:
        profile = {"name": model_id, "model_type": "solo", "base": "small", "stats": stats, "damage": boxes(5)}
        return {
            "id": model_id,
            "player": player,
            "position": {"x": 24.0, "y": y},
            "profile": profile | {"weapons": [weapon]},
        }

    setup = CreateWarmachineBattle.from_dict(
        {
            "ruleset": "warmachine",
            "table": {"width": 48.0, "depth": 48.0, "terrain": []},
            "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
            "models": [solo("red-gunner", "red", 10.0, rifle), solo("blue-guard", "blue", 30.0, sword)],
        }
    )
    battle = Battle.create(table, played, setup)
    battle.act_and_retry(table.alice, WarmachineCommandStartTurn.from_dict({"type": "start_turn"}))
    battle.act(table.alice, WarmachineCommandActivate.from_dict({"type": "activate", "activation": "red-gunner"}))
    battle.act(
        table.alice,
        WarmachineCommandMove.from_dict({"type": "move", "model": "red-gunner", "movement": {"kind": "aim"}}),
    )
    shot = {"type": "attack", "attacker": "red-gunner", "weapon": "Rifle", "target": "blue-guard"}
    if "warmachine.AttackResolved" not in battle.act(table.alice, WarmachineCommandAttack.from_dict(shot)):
        raise PlayTestFailure("warmachine: the shot was not resolved")
    if battle.ended():
        # The shot destroyed blue's only model: the battle ends by itself, red the winner.
        played.notes.append("blue's last model fell to the shot")
    else:
        battle.act(table.alice, WarmachineCommandEndActivation.from_dict({"type": "end_activation"}))
        concede = {"type": "end_battle", "winner": "red", "reason": "blue concedes"}
        battle.act(table.bob, WarmachineCommandEndBattle.from_dict(concede))
        played.notes.append("blue's guard survived the shot; blue conceded")
    battle.finish({"red", "blue"})
    return played


# ---- zone-rpg (seed 001): a round with an attack let through, then the GM ends the fight -----


def play_zone_rpg(table: Table) -> Played:
    played = Played("battle zone-rpg")
    setup = CreateZoneRpgBattle.from_dict(
        {
            "ruleset": "zone-rpg",
            "zones": [{"name": "road"}, {"name": "thicket"}],
            "borders": [{"a": "road", "b": "thicket"}],
            "factions": [{"name": "party"}, {"name": "bandits"}],
            "initiative": {"kind": "faction", "faction": "party"},
            "characters": [
                {
                    "id": "Balthasar",
                    "faction": "party",
                    "controller": "alice",
                    "health": 10,
                    "wit": 12,
                    "agi": 10,
                    "str": 14,
                    "zone": "road",
                    "weapons": [{"name": "sword", "damage": "d6"}],
                },
                {
                    "id": "bandit",
                    "faction": "bandits",
                    "health": 8,
                    "wit": 9,
                    "agi": 8,
                    "str": 10,
                    "zone": "road",
                    "weapons": [{"name": "axe", "damage": "d6"}],
                },
            ],
        }
    )
    battle = Battle.create(table, played, setup)
    battle.entropy(table.alice, "alice rolls for the party")
    battle.act(table.judge, ZoneRpgCommandStartRound.from_dict({"type": "start_round", "first_faction": "party"}))
    battle.act(table.alice, ZoneRpgCommandTakeTurn.from_dict({"type": "take_turn", "character": "Balthasar"}))
    swing = {
        "type": "attack",
        "attacker": "Balthasar",
        "weapon": "sword",
        "target": {"kind": "character", "character": "bandit"},
    }
    battle.act(table.alice, ZoneRpgCommandAttack.from_dict(swing))
    # The bandit (the GM's) may react; the GM lets the blow through, and the attack resolves.
    if "zone-rpg.AttackResolved" not in battle.act(
        table.judge, ZoneRpgCommandDecline.from_dict({"type": "decline", "character": "bandit"})
    ):
        raise PlayTestFailure("zone-rpg: the attack did not resolve once the bandit declined")
    if battle.ended():
        played.notes.append("the bandit fell to the first blow")
    else:
        battle.act(table.alice, ZoneRpgCommandEndTurn.from_dict({"type": "end_turn"}))
        end = {"type": "end_fight", "winner": "party", "reason": "the bandit flees"}
        battle.act(table.judge, ZoneRpgCommandEndFight.from_dict(end))
        played.notes.append("the bandit survived the blow; the GM ended the fight")
    battle.finish({"party", "bandits"})
    return played


# ---- percentile-skirmish (seed 002): sealed declarations, open combat, then the judge ends it -


def play_percentile_skirmish(table: Table) -> Played:
    played = Played("battle percentile-skirmish")
    sword = [{"name": "Sword", "kind": "melee", "damage": "d6"}]
    card = lambda name, initiative: {  # noqa: E731
        "name": name,
        "level": 2,
        "movement": 4.0,
        "initiative": initiative,
        "life": 20,
        "weapons": sword,
    }
    setup = CreatePercentileSkirmishBattle.from_dict(
        {
            "ruleset": "percentile-skirmish",
            "table": {"width": 36.0, "depth": 24.0, "terrain": []},
            "participants": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
            "minis": [
                {
                    "id": "red-knight",
                    "participant": "red",
                    "position": {"x": 10.0, "y": 10.0},
                    "facing": 0.0,
                    "profile": card("Knight", 10),
                },
                {
                    "id": "blue-guard",
                    "participant": "blue",
                    "position": {"x": 14.0, "y": 10.0},
                    "facing": 180.0,
                    "profile": card("Guard", 10),
                },
            ],
        }
    )
    battle = Battle.create(table, played, setup)
    battle.entropy(table.alice, "alice rolls for the knights")
    battle.entropy(table.bob, "bob rolls for the guard")
    # Round 10: both minis have initiative 10; each side declares who acts, sealed until both have
    # (the guard waits).
    battle.act(
        table.alice,
        SkirmishCommandDeclare.from_dict({"type": "declare", "participant": "red", "minis": ["red-knight"]}),
    )
    battle.act(table.bob, SkirmishCommandDeclare.from_dict({"type": "declare", "participant": "blue", "minis": []}))
    battle.act(
        table.alice,
        SkirmishCommandMove.from_dict({"type": "move", "mini": "red-knight", "path": [{"x": 13.2, "y": 10.0}]}),
    )
    attack = {"type": "melee_attack", "attacker": "red-knight", "target": "blue-guard", "weapon": "Sword"}
    battle.act(table.alice, SkirmishCommandMeleeAttack.from_dict(attack))
    # Open combat: each side picks a combat option, sealed; the second pick resolves the exchange.
    pick = lambda mini, choice: SkirmishCommandChooseCombatOption.from_dict(  # noqa: E731
        {"type": "choose_combat_option", "mini": mini, "choice": choice}
    )
    battle.act(table.alice, pick("red-knight", "swing_to_the_head"))
    if "percentile-skirmish.OpenCombatResolved" not in battle.act(table.bob, pick("blue-guard", "thrust_to_the_body")):
        raise PlayTestFailure("percentile-skirmish: the open combat did not resolve")
    battle.act(table.alice, SkirmishCommandEndActions.from_dict({"type": "end_actions", "mini": "red-knight"}))
    end = {"type": "end_battle", "winner": "red", "reason": "one exchange fought"}
    battle.act(table.judge, SkirmishCommandEndBattle.from_dict(end))
    battle.finish({"red", "blue"})
    return played


# ---- swift-swords (seed 004): the countdown begins, the first to act attacks, the GM ends it -


def play_swift_swords(table: Table) -> Played:
    played = Played("battle swift-swords")
    fighter = lambda figure_id, side, controller: {  # noqa: E731
        "id": figure_id,
        "side": side,
        "controller": controller,
        "start": {"zone": "ford", "group": "melee"},
        "action_dice": {"kind": "roll", "dice": 3},
        "physical": 9,
        "mental": 9,
        "weapons": [{"name": "Sword", "dice": 4, "weight": "medium"}],
    }
    setup = CreateSwiftSwordsBattle.from_dict(
        {
            "ruleset": "swift-swords",
            "map": {"zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford"}]},
            "sides": [{"name": "heroes", "controller": "alice"}, {"name": "goblins", "controller": "bob"}],
            "figures": [fighter("roland", "heroes", "alice"), fighter("grik", "goblins", "bob")],
        }
    )
    players = {"roland": table.alice, "grik": table.bob}
    battle = Battle.create(table, played, setup)
    battle.entropy(table.alice, "alice rolls for Roland")
    if "swift-swords.ActionDiceRolled" not in battle.act(
        table.judge, SwiftSwordsCommandBegin.from_dict({"type": "begin"})
    ):
        raise PlayTestFailure("swift-swords: beginning rolled no action dice")
    # The countdown names who acts next: that figure attacks the other. A hand that cannot pay
    # for the attack is a rule refusal (422 `swift-swords.cannot_afford`): then it calls a refresh.
    attacker = battle.view().next_to_act[0]
    target = "grik" if attacker == "roland" else "roland"
    attack = SwiftSwordsCommandAttack.from_dict(
        {"type": "attack", "figure": attacker, "weapon": "Sword", "targets": [target]}
    )
    answer = battle.attempt(players[attacker], attack)
    if not isinstance(answer, Problem):
        played.notes.append(f"{attacker} attacked {target}")
    else:
        if answer.code != "swift-swords.cannot_afford":
            raise PlayTestFailure(f"swift-swords: attack: {answer.code}: {answer.detail}")
        played.notes.append(f"{attacker} could not afford an attack and called a refresh")
        battle.act(
            players[attacker], SwiftSwordsCommandCallRefresh.from_dict({"type": "call_refresh", "figure": attacker})
        )
    # If the attack waits for the target's defence, it declares none and takes the blow.
    awaiting = battle.view().awaiting
    if isinstance(awaiting, SwiftSwordsAwaiting) and awaiting.kind == "defence":
        defender = awaiting.from_[0]
        defend = {"type": "defend", "figure": defender, "defence": "none", "take_rank": True}
        battle.act(players[defender], SwiftSwordsCommandDefend.from_dict(defend))
        played.notes.append(f"{defender} took the blow without a defence")
    if not battle.ended():
        end = {"type": "end_battle", "winner": "heroes", "reason": "the goblins flee the ford"}
        battle.act(table.judge, SwiftSwordsCommandEndBattle.from_dict(end))
    battle.finish({"heroes", "goblins"})
    return played


# ---- the coalition campaign (seed 003 ch. 1-3): a turn of orders, adjudicated ----------------


def play_coalition_campaign(table: Table) -> Played:
    played = Played("campaign coalition")
    army = lambda name, team, colors, creature, color: {  # noqa: E731
        "name": name,
        "team": team,
        "rank": "cpl_lt_commander",
        "colors": colors,
        "troops": [
            {
                "creature": creature,
                "colors": [color],
                "power": 1,
                "toughness": 1,
                "slot": 0,
                "full": 5000,
                "troops": 4000,
            }
        ],
    }
    setup = CreateCoalitionCampaign.from_dict(
        {
            "ruleset": "coalition",
            "name": "Play test round",
            "map": {"bounds": {"columns": 14, "rows": 38}, "default_terrain": "plains"},
            "armies": [
                {
                    "army": army("Sai Rei", "coalition", ["red", "green", "blue"], "Kris Mage", "red"),
                    "controllers": ["alice"],
                    "start": {"by": "square", "square": "5E"},
                },
                {
                    "army": army("Plague Host", "phyrexia", [], "Phyrexian Broodling", "black"),
                    "controllers": ["bob"],
                    "start": {"by": "square", "square": "9E"},
                },
            ],
            "options": {"enforce_army_counts": False, "enforce_site_counts": False},
        }
    )
    created = ok(create_campaign.sync_detailed(client=table.judge, body=setup), "create a coalition campaign")
    played.stream = created.stream
    played.commands += 1
    campaign = created.stream.removeprefix("campaign-")
    # Turn 1: both armies march into 8E, so the turn announces the battle they meet in and the
    # service opens its stream (seed 003 §4.1.2.3, a no-attacker battle).
    first = play_campaign_turn(table, played, campaign, {"alice": "Sai Rei: 5E > 8E", "bob": "Plague Host: 9E > 8E"})
    announced = [event.data for event in first.events if event.type_ == "coalition.BattleAnnounced"]
    if len(announced) != 1:
        raise PlayTestFailure(f"campaign: expected one battle announced, got {event_types(first)}")
    # The battle is fought in its own stream, like any coalition battle.
    battle = Battle(table, Played("campaign battle"), "coalition", announced[0].battle, version=0)
    fight_coalition_battle(table, battle)
    played.commands += battle.played.commands
    played.notes.append(
        f"turn 1 opened {battle.stream}: {battle.played.commands} commands, winner side {battle.played.winner}"
    )
    # Turn 2: adjudication applies the battle's result to the campaign (seed 003 §4.2.5).
    second = play_campaign_turn(table, played, campaign, {})
    if "coalition.BattleResultApplied" not in event_types(second):
        raise PlayTestFailure(f"campaign: turn 2 did not apply the battle's result: {event_types(second)}")
    view = ok(get_campaign.sync_detailed(campaign, client=table.anyone), "campaign view")
    played.winner = "none yet (a round runs for many turns)"
    played.notes.append(f"turn {view.turn} applied the result; battles pending: {len(view.pending_battles)}")
    played.events = len(read_events(table.anyone, played.stream))
    report = ok(verify_stream.sync_detailed(played.stream, client=table.judge), "verify the campaign")
    played.verified = f"{report.result} ({report.events_checked} events, seed {report.seed}, as the judge)"
    if not report.verified:
        raise PlayTestFailure(f"campaign: verification failed: {report.to_dict()}")
    return played


def play_campaign_turn(table: Table, played: Played, campaign: str, orders: dict[str, str]) -> Any:
    """Open a turn, post each player's orders in the seed's text format, lock and adjudicate it;
    the adjudication's `CommandResponse`."""
    deadline = OpenTurnRequest(deadline=tomorrow())
    ok(open_turn.sync_detailed(campaign, client=table.judge, body=deadline), "open a turn")
    players = {"alice": table.alice, "bob": table.bob}
    for player, text in orders.items():
        ok(
            post_orders.sync_detailed(campaign, client=players[player], body=OrdersRequest(text=text)),
            f"orders {text!r}",
        )
    ok(lock_turn.sync_detailed(campaign, client=table.judge), "lock the turn")
    # No body: every battle of the turn is read from its own stream.
    adjudicated = ok(adjudicate_turn.sync_detailed(campaign, client=table.judge), "adjudicate the turn")
    played.commands += 3 + len(orders)
    return adjudicated


# ---- The scenarios, by (kind, id) as GET /v1/rulesets lists them -----------------------------

SCENARIOS: dict[tuple[str, str], Callable[[Table], Played]] = {
    ("battle", "coalition"): play_coalition_battle,
    ("battle", "warmachine"): play_warmachine,
    ("battle", "zone-rpg"): play_zone_rpg,
    ("battle", "percentile-skirmish"): play_percentile_skirmish,
    ("battle", "swift-swords"): play_swift_swords,
    ("campaign", "coalition"): play_coalition_campaign,
}


# ---- The server under test ------------------------------------------------------------------


def free_port() -> int:
    """A port nobody listens on now (bind to port 0 and let the OS choose)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def herald_binary() -> Path:
    root = Path(__file__).resolve().parents[2]
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    binary = target / "debug" / "herald"
    if not binary.is_file():
        raise PlayTestFailure(f"{binary} is missing: build it first (cargo build -p herald-api --bin herald)")
    return binary


@contextmanager
def running_server() -> Iterator[str]:
    """Start `herald serve` on a free port with a fresh data directory; yield its base URL once
    `/readyz` answers 200; stop it (and remove the data) whatever happens."""
    binary = herald_binary()
    data_dir = tempfile.mkdtemp(prefix="herald-play-test-")
    port = free_port()
    log = open(Path(data_dir) / "server.log", "w+b")  # noqa: SIM115
    command = [
        str(binary),
        "serve",
        "--data-dir",
        str(Path(data_dir) / "data"),
        "--port",
        str(port),
        "--admin-token",
        ADMIN_TOKEN,
        "--log-format",
        "json",
    ]
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base_url, server, log)
        yield base_url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        shutil.rmtree(data_dir, ignore_errors=True)


def wait_until_ready(base_url: str, server: subprocess.Popen[bytes], log: Any) -> None:
    probe = Client(base_url=base_url, timeout=None)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log.seek(0)
            raise PlayTestFailure(f"herald exited with {server.returncode}:\n{log.read().decode(errors='replace')}")
        try:
            if readyz.sync_detailed(client=probe).status_code == 200:
                return
        except Exception:  # noqa: BLE001 - not listening yet
            pass
        time.sleep(0.2)
    raise PlayTestFailure(f"{base_url}/readyz did not answer 200 within 60 s")


# ---- Main -----------------------------------------------------------------------------------


def play_all(base_url: str) -> int:
    """Play every listed ruleset, printing a line for each as it ends; how many were played."""
    table = Table.seat(base_url)
    rulesets = ok(list_rulesets.sync_detailed(client=table.anyone), "list the rulesets")
    listed = [(str(ruleset.kind), ruleset.id) for ruleset in rulesets]
    untested = [f"{kind} {ruleset_id}" for kind, ruleset_id in listed if (kind, ruleset_id) not in SCENARIOS]
    if untested:
        raise PlayTestFailure(
            f"GET /v1/rulesets lists {', '.join(untested)} with no scenario in clients/python/play_test.py: add one"
        )
    for key in listed:
        report(SCENARIOS[key](table))
    return len(listed)


def report(played: Played) -> None:
    print(
        f"{played.ruleset:28} {played.commands:3} commands  winner {played.winner}  "
        f"{played.events} events  verify: {played.verified}"
    )
    for note in played.notes:
        print(f"{'':28} {note}")


def main() -> int:
    try:
        with running_server() as base_url:
            count = play_all(base_url)
    except PlayTestFailure as failure:
        print(f"play test FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"played {count} rulesets through the generated client")
    return 0


if __name__ == "__main__":
    sys.exit(main())
