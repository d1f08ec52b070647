#!/usr/bin/env python3
"""Recompute Herald dice from a revealed seed (docs/DICE.md). Python 3, standard library only.

  verify_dice.py --key HEX --sides 6 --count 10             dice from a tape key, word 0 on
  verify_dice.py --seed HEX --stream S --contribution alice --contribution bob --sides 20 --word 0 1 2 3
  verify_dice.py --events events.json [--seed HEX]           check every draw of a battle
  verify_dice.py --url http://localhost:8080 --stream S       any stream: its events, the dice
                                                              ledger and every revealed key
  verify_dice.py --events events.json --ledger dice.json      the same from saved pages
  verify_dice.py --opening opening.json [--events events.json]
                                  check a formula opening (GET /v1/battles/{id}/formulas) against
                                  its commitment, and that commitment against the one in force
                                  when the battle's first die was drawn
"""
import argparse, hashlib, json, struct, urllib.request

M = 0xFFFFFFFF

def quarter(s, a, b, c, d):
    for x, y, z, r in ((a, b, d, 16), (c, d, b, 12), (a, b, d, 8), (c, d, b, 7)):
        s[x] = (s[x] + s[y]) & M
        s[z] ^= s[x]
        s[z] = ((s[z] << r) | (s[z] >> (32 - r))) & M

def block(key, counter):
    """ChaCha20 block `counter` (64-bit counter, 64-bit nonce 0) as 16 output words."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *struct.unpack("<8I", key),
            counter & M, counter >> 32, 0, 0]
    s = init[:]
    for _ in range(10):
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            quarter(s, a, b, c, d)
    return [(x + y) & M for x, y in zip(s, init)]

def word(key, n):
    """Output word n: the little-endian u32 at byte 4n of the keystream."""
    return block(key, n // 16)[n % 16]

def die(key, n, sides):
    """The die whose first examined word is n: (value, next word)."""
    limit = 2**32 - 2**32 % sides
    while word(key, n) >= limit:
        n += 1
    return 1 + word(key, n) % sides, n + 1

def effective_seed(seed, stream, contributions):
    parts = [seed, hashlib.sha256(stream.encode()).digest()]
    parts += [hashlib.sha256(c.encode()).digest() for c in contributions]
    return hashlib.sha256(b"".join(parts)).digest()

def draws(value):
    """Every recorded draw ({word, sides, value, purpose}) anywhere in a JSON value."""
    if isinstance(value, dict):
        if {"word", "sides", "value"} <= value.keys():
            yield value
        for v in value.values():
            yield from draws(v)
    elif isinstance(value, list):
        for v in value:
            yield from draws(v)

def check_events(events, seed_hex):
    events = events["events"] if isinstance(events, dict) else events
    # Any ruleset: `coalition.SeedRevealed`, `warmachine.EntropyContributed`, `dice.SeedRevealed`…
    data = lambda kind: [e["data"] for e in events if e["type"].split(".")[-1] == kind]
    commitment = events[0]["data"]["seed_commitment"]
    revealed = data("SeedRevealed")
    seed = bytes.fromhex(seed_hex or revealed[0]["seed"])
    ok = hashlib.sha256(seed).hexdigest() == commitment
    print("commitment", commitment, "matches" if ok else "DOES NOT MATCH")
    key = effective_seed(seed, events[0]["stream"], [d["entropy"] for d in data("EntropyContributed")])
    if revealed and revealed[0].get("effective_seed") not in (None, key.hex()):
        ok = False
        print("effective seed DOES NOT MATCH", revealed[0]["effective_seed"])
    for d in draws(events):
        value = die(key, d["word"], d["sides"])[0]
        ok &= value == d["value"]
        print(f'word {d["word"]:>6} d{d["sides"]:<4} recorded {d["value"]:>4} computed {value:>4}  {d.get("purpose", "")}')
    print("VERIFIED" if ok else "MISMATCH")
    return ok

def keys_of(events):
    """Every key a stream committed to and, once revealed, its tape key (docs/DICE.md "Keys").

    `stream`: the first event's `seed_commitment`; `turn:N`: a campaign's `TurnOpened`;
    `reseal:N`: the `next_commitment` of an early `SeedRevealed`. A `SeedRevealed` reveals the
    key in force; a `TurnSeedRevealed` the turn's key."""
    commitments, revealed, in_force, contributions, reseals = {}, {}, "stream", [], 0
    stream = events[0]["stream"]
    commitments["stream"] = events[0]["data"].get("seed_commitment")
    ok = True
    for e in events:
        kind, d = e["type"].split(".")[-1], e["data"]
        if kind == "EntropyContributed":
            contributions.append(d["entropy"])
        elif kind == "TurnOpened" and d.get("seed_commitment"):
            commitments[f'turn:{d["turn"]}'] = d["seed_commitment"]
        elif kind in ("SeedRevealed", "TurnSeedRevealed"):
            key_id = f'turn:{d["turn"]}' if kind == "TurnSeedRevealed" else in_force
            seed = bytes.fromhex(d["seed"])
            key = effective_seed(seed, stream, [] if kind == "TurnSeedRevealed" else contributions)
            good = hashlib.sha256(seed).hexdigest() == commitments.get(key_id) and d["effective_seed"] == key.hex()
            print(f"key {key_id:<10} seed {d['seed']} {'matches its commitment' if good else 'DOES NOT MATCH'}")
            ok &= good
            revealed[key_id] = key
            if kind == "SeedRevealed" and d.get("next_commitment"):
                reseals += 1
                in_force = f"reseal:{reseals}"
                commitments[in_force] = d["next_commitment"]
    for key_id in commitments:
        if key_id not in revealed:
            print(f"key {key_id:<10} still sealed")
    return revealed, ok

def check_ledger(events, ledger):
    """Check every draw of the dice ledger against the revealed key it names."""
    revealed, ok = keys_of(events)
    sealed = 0
    for d in ledger:
        key = revealed.get(d["key"])
        if key is None:
            sealed += 1
            continue
        value = die(key, d["word"], d["sides"])[0]
        ok &= value == d["value"]
        print(f'v{d["version"]:<5} {d["pointer"]:<28} {d["key"]:<9} word {d["word"]:>6} d{d["sides"]:<4} '
              f'recorded {d["value"]:>4} computed {value:>4}  {d["purpose"]}')
    if sealed:
        print(f"{sealed} draws from keys still sealed, not checked")
    print("VERIFIED" if ok else "MISMATCH")
    return ok

def fetch_all(url, field):
    """Every item of a paged listing (`next` is the `from` of the next page)."""
    items, start = [], 0
    while start is not None:
        sep = "&" if "?" in url else "?"
        with urllib.request.urlopen(f"{url}{sep}limit=1000&from={start}") as response:
            page = json.load(response)
        items += page[field]
        start = page["next"]
    return items

FORMULA_FIELDS = [
    ("size_formula", ["weighting", "scale"]),
    ("casualty_formula", ["base", "per_pair_lost", "per_margin", "max"]),
    ("kill_formula", ["defence", "damage_step", "max_damage_bonus", "overkill", "capture_penalty", "spare"]),
    ("joint_formula", [("size_formula", ["weighting", "scale"]), "casualty_percent", "retreat_penalty"]),
]

def canonical(value, fields):
    """The canonical JSON of docs/DICE.md "Commitments to hidden formulas": fields in this order."""
    parts = []
    for field in fields:
        name, inner = field if isinstance(field, tuple) else (field, None)
        text = canonical(value[name], inner) if inner else json.dumps(value[name])
        parts.append(json.dumps(name) + ":" + text)
    return "{" + ",".join(parts) + "}"

def check_opening(opening, events):
    text = canonical(opening["formulas"], FORMULA_FIELDS)
    digest = hashlib.sha256(b"herald/formulas/v1" + bytes.fromhex(opening["salt"]) + text.encode()).hexdigest()
    ok = text == opening["canonical"] and digest == opening["commitment"].lower()
    print("canonical text", "is" if text == opening["canonical"] else "is NOT", "of the formulas shown")
    print("sha256(opening)", digest, "==" if ok else "!=", opening["commitment"])
    if events is not None:
        in_force = None
        for event in events:
            if any(True for _ in draws(event.get("data"))):
                break
            in_force = event.get("data", {}).get("formula_commitment", in_force)
        print("commitment in force at the first die:", in_force)
        ok = ok and in_force == opening["commitment"]
    print("MATCHES" if ok else "DIFFERS")
    return ok

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--key", help="tape key (effective seed), 64 hex digits")
    p.add_argument("--seed", help="server seed, 64 hex digits")
    p.add_argument("--stream", help="stream name, e.g. battle-<uuid>")
    p.add_argument("--contribution", action="append", default=[], help="entropy, in order (repeat)")
    p.add_argument("--sides", type=int, default=6)
    p.add_argument("--word", type=int, nargs="+", default=[0], help="first word of each die")
    p.add_argument("--count", type=int, default=1, help="dice in a row from the last --word")
    p.add_argument("--events", help="a JSON page from GET /v1/streams/{stream}/events")
    p.add_argument("--ledger", help="a JSON page from GET /v1/streams/{stream}/dice (with --events)")
    p.add_argument("--url", help="the server: fetch --stream's events and dice ledger")
    p.add_argument("--opening", help="a formula opening (JSON from GET /v1/battles/{id}/formulas)")
    a = p.parse_args()
    if a.opening:
        with open(a.opening) as f:
            opening = json.load(f)
        events = None
        if a.events:
            with open(a.events) as f:
                events = json.load(f)
            events = events["events"] if isinstance(events, dict) else events
        raise SystemExit(0 if check_opening(opening, events) else 1)
    if a.url:
        base = f"{a.url.rstrip('/')}/v1/streams/{a.stream}"
        events, ledger = fetch_all(f"{base}/events", "events"), fetch_all(f"{base}/dice", "draws")
        raise SystemExit(0 if check_ledger(events, ledger) else 1)
    if a.events and a.ledger:
        with open(a.events) as f, open(a.ledger) as g:
            events, ledger = json.load(f), json.load(g)
        events = events["events"] if isinstance(events, dict) else events
        ledger = ledger["draws"] if isinstance(ledger, dict) else ledger
        raise SystemExit(0 if check_ledger(events, ledger) else 1)
    if a.events:
        with open(a.events) as f:
            raise SystemExit(0 if check_events(json.load(f), a.seed) else 1)
    if a.key:
        key = bytes.fromhex(a.key)
    else:
        seed = bytes.fromhex(a.seed)
        print("commitment", hashlib.sha256(seed).hexdigest())
        key = effective_seed(seed, a.stream, a.contribution)
    print("key", key.hex())
    for i, n in enumerate(a.word):
        for _ in range(a.count if i == len(a.word) - 1 else 1):
            value, next_word = die(key, n, a.sides)
            print(f"word {n}: d{a.sides} = {value}")
            n = next_word

if __name__ == "__main__":
    main()
