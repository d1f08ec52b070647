#!/usr/bin/env bash
# docs/API.md "Disputes", run end to end with curl and jq: a coalition battle whose side a got a
# strategy bonus of 7 (seed 003 §4.2.1) is resolved; bob (side b) disputes the bonus; the judge
# reads the dispute's file, runs the what-if with the bonus read as 0, rules `corrected`;
# `verify` stays `verified` and lists the ruling; an outsider re-runs the what-if from public
# data and gets the same hash.
#
#   H=http://127.0.0.1:8080 ADMIN=<the server's --admin-token> docs/examples/disputes.sh
#
# Every command prints what the server answered (trimmed by jq to what the step is about).
set -euo pipefail
H=${H:-http://127.0.0.1:8080}
: "${ADMIN:?set ADMIN to the admin token of the server}"

# POST/GET with an optional bearer token ("" for none); fails on any error answer.
call() {
  local method=$1 token=$2 path=$3 body=${4:-}
  local args=(-sS --fail-with-body -X "$method" "$H$path" -H 'Content-Type: application/json')
  [ -n "$token" ] && args+=(-H "Authorization: Bearer $token")
  [ -n "$body" ] && args+=(-d "$body")
  curl "${args[@]}"
}
step() { printf '\n== %s\n' "$*"; }

token() { call POST "$ADMIN" /v1/tokens "$1" | jq -r .token; }
JUDGE=$(token '{"role": "judge", "label": "walk-through judge"}')
ALICE=$(token '{"role": "player", "player": "alice"}')
BOB=$(token '{"role": "player", "player": "bob"}')

step "A coalition battle, fought out: strategies, bonuses a 7 and b 4, resolved"
B=$(call POST "$JUDGE" /v1/battles '{
  "armies": {
    "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
          "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000}]},
    "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
          "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}},
  "engagement": {"kind": "attack", "attacker": "a"}, "terrain": "plains",
  "strategy_deadline": "2030-12-01T18:00:00Z"}' | jq -r .stream)
ID=${B#battle-}
call POST "$ALICE" "/v1/battles/$ID/strategies" '{"side": "a", "strategy": "Hold the ridge at dawn"}' >/dev/null
call POST "$BOB" "/v1/battles/$ID/strategies" '{"side": "b", "strategy": "Swarm the left flank"}' >/dev/null
V=$(call POST "$JUDGE" "/v1/battles/$ID/strategy-bonuses" '{"side": "a", "bonus": 7}' | jq '.events[0].version')
call POST "$JUDGE" "/v1/battles/$ID/strategy-bonuses" '{"side": "b", "bonus": 4}' >/dev/null
call POST "$JUDGE" "/v1/battles/$ID/resolve" '{}' | jq -c '{version, winner: (.events[] | select(.type == "coalition.BattleResolved") | .data.winner)}'
echo "battle $B; side a's bonus is event $V"

# From here on, the requests as docs/API.md "Disputes" shows them (plain curl; -f fails the
# script on any error answer).
J='Content-Type: application/json'
step "Bob disputes side a's bonus"
FILED=$(curl -sSf -X POST $H/v1/streams/$B/disputes -H "Authorization: Bearer $BOB" -H "$J" \
  -d '{"version": '$V', "claim": "Side a never mentions the ridge: its bonus should be 0, not 7."}')
echo "$FILED" | jq -c '{id, status, version, filed_by}'
D=$(echo "$FILED" | jq -r .id)

step "Everyone sees the dispute; the judge also sees the contested event, its command, dice and rule"
curl -sSf $H/v1/streams/$B/disputes | jq -c '.disputes[] | {id, status, claim}'
curl -sSf $H/v1/streams/$B/disputes/$D -H "Authorization: Bearer $JUDGE" | jq -c '.contested | {event_type, command: .command.command, rule}'

step "The judge's what-if: the same command with the bonus read as 0 (writes nothing)"
CHANGE='{"version": '$V', "command": {"type": "assign_strategy_bonus", "side": "a", "bonus": 0}}'
WHATIF=$(curl -sSf -X POST $H/v1/streams/$B/what-if -H "Authorization: Bearer $JUDGE" -H "$J" -d "$CHANGE")
echo "$WHATIF" | jq -c '{hash, differs, first_difference: .first_difference.version, recorded: .recorded.summary.winner, what_if: .what_if.summary.winner, differing_events: (.diff | length)}'
HASH=$(echo "$WHATIF" | jq -r .hash)
echo "$WHATIF" | jq -j -c .inputs | sha256sum   # the hash is the SHA-256 of its inputs

step "The judge rules corrected: the battle continues from the what-if's state"
curl -sSf -X POST $H/v1/streams/$B/disputes/$D/ruling -H "Authorization: Bearer $JUDGE" -H "$J" \
  -d '{"ruling": "corrected", "reason": "no ridge in the strategy", "what_if": '"$CHANGE"', "what_if_hash": "'$HASH'"}' \
  | jq -c '{status, ruling: .ruling | {ruling, what_if_hash, version}}'
curl -sSf $H/v1/battles/${B#battle-} -H "Authorization: Bearer $JUDGE" | jq -c '{status, winner}'

step "verify stays verified and lists the ruling"
curl -sSf $H/v1/streams/$B/verify | jq -c '{result, rulings: [.rulings[] | {dispute, ruling, what_if_hash}]}'

step "An outsider (no token) re-runs the what-if once the seed is revealed: the same hash"
curl -sSf -X POST $H/v1/streams/$B/what-if -H "$J" -d "$CHANGE" | jq -r .hash
