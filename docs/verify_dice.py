#!/usr/bin/env python3
"""Recompute Herald dice from a revealed seed (docs/DICE.md). Python 3, standard library only.

  verify_dice.py --key HEX --sides 6 --count 10             dice from a tape key, word 0 on
  verify_dice.py --seed HEX --stream S --contribution alice --contribution bob --sides 20 --word 0 1 2 3
  verify_dice.py --events events.json [--seed HEX]           check every draw of a battle
"""
import argparse, hashlib, json, struct

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
    # Any ruleset's events: coalition.BattleCreated, percentile-skirmish.BattleCreated,
    # dice.EntropyContributed, dice.SeedRevealed, ...
    data = lambda kind: [e["data"] for e in events if e["type"].split(".")[-1] == kind]
    commitment = data("BattleCreated")[0]["seed_commitment"]
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
    a = p.parse_args()
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
