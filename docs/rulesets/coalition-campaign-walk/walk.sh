#!/usr/bin/env bash
# The coalition campaign walk-through (docs/rulesets/coalition-campaign.md), run against a server
# started with HERALD_ADMIN_TOKEN=walkthrough-admin on port 8787.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
URL=localhost:8787
H='content-type: application/json'
ADMIN=walkthrough-admin
token() { curl -s -X POST $URL/v1/tokens -H "Authorization: Bearer $ADMIN" -H "$H" -d "$1" | jq -r .token; }
JUDGE=$(token '{"role":"judge"}')
declare -A T
for p in gerrard hanna sisay tahngarth orim crovax rag vorn; do T[$p]=$(token '{"role":"player","player":"'$p'"}'); done
post() { local body="${3:-}"; [ -n "$body" ] || body="{}"; curl -s -X POST "$URL$1" -H "Authorization: Bearer $2" -H "$H" -d "$body"; }

echo '# 1. The judge sets up the round (a roster, the armies, a Town Defender and a raider).'
C=$(post /v1/campaigns "$JUDGE" @$HERE/round.json | jq -r .stream | sed 's/^campaign-//')
echo "campaign $C"
curl -s $URL/v1/campaigns/$C/control | jq -c '.authority'

echo '# 2. Turn 1: orders in the seed text format; orim posts for Proxy, which Sisay controls.'
post /v1/campaigns/$C/turns "$JUDGE" '{"deadline":"2030-12-01T05:00:00Z"}' | jq -c '.events[].data | {type, turn}'
post /v1/campaigns/$C/orders "${T[tahngarth]}" '{"text":"Sai Rei: 10D > 10E; engage Plague Host\nTahngarth: 15E > 15G; Joint Engage"}' | jq -c '.version'
post /v1/campaigns/$C/orders "${T[orim]}" '{"text":"Barrin: 20D > 20E; engage Vorn\nOrim: 15I > 15G; Joint Engage\nProxy: 25F > 26F"}' | jq -c '[.events[].data.orders[] | {army, uncontrolled}]'
echo '# Refusals: the other side'"'"'s army (403), no authority (403), a rank too low (422).'
post /v1/campaigns/$C/orders "${T[orim]}" '{"text":"Vorn: 20E > 21E"}' | jq -c '{status, code, rule}'
post /v1/campaigns/$C/control-requests "${T[sisay]}" '{"army":"Proxy","controllers":["orim"]}' | jq -c '{status, code, rule}'
post /v1/campaigns/$C/control-requests "${T[hanna]}" '{"army":"Gerrard","controllers":["orim"]}' | jq -c '{status, code, rule}'
echo '# Hanna (who holds the Coalition authority) gives Proxy to orim before the lock, back after it.'
post /v1/campaigns/$C/control-requests "${T[hanna]}" '{"army":"Proxy","controllers":["orim"],"reason":"Sisay is away"}' | jq -c '.events[].data | {type, army, controllers}'
post /v1/campaigns/$C/lock "$JUDGE" | jq -c '.events[].data.type'
post /v1/campaigns/$C/control-requests "${T[hanna]}" '{"army":"Proxy","controllers":["sisay"]}' | jq -c '.events[].data | {type, army, controllers}'
curl -s $URL/v1/campaigns/$C/control | jq -c '.armies[] | select(.army=="Proxy") | {controllers, at_lock}'
TURN1=$(post /v1/campaigns/$C/adjudicate "$JUDGE")
echo "$TURN1" | jq -c '.events[].data | select(.type=="coalition.MovementAdjudicated") | .moves[] | select(.army=="Proxy") | {army, from, to, outcome}'
echo "$TURN1" | jq -c '.events[].data | select(.type=="coalition.WeatherRolled" or .type=="coalition.BattleAnnounced") | {type, square, weather, joint, automatic}'
echo "$TURN1" | jq -c '.events[].data | select(.type=="coalition.RaiderSpawnRolled") | {type, raiders, chance, die: .draw.value, spawned: (.spawned | if . then .army.name else null end)}'
battle() { echo "$TURN1" | jq -r --arg s "$1" '.events[].data | select(.type=="coalition.BattleAnnounced" and .square==$s) | .battle' | sed 's/^battle-//'; }
CAPTURE=$(battle 10E); KILL=$(battle 20E); JOINT=$(battle 15G)

echo '# 3. The battles. The judge sets this demonstration'"'"'s formulas so each outcome is certain.'
FORMULAS='{"type":"set_formulas","options":{"size_formula":{"weighting":"troops","scale":1000},"kill_formula":{"defence":0,"damage_step":1,"max_damage_bonus":100,"overkill":3,"capture_penalty":0,"spare":2},"joint_formula":{"size_formula":{"weighting":"troops","scale":1000},"casualty_percent":125,"retreat_penalty":2}}}'
side() { curl -s $URL/v1/battles/$1 | jq -r --arg a "$2" 'if .sides.a.army.name==$a or .sides.a.partner.army.name==$a then "a" else "b" end'; }
bonuses() { post /v1/battles/$1/strategy-bonuses "$JUDGE" '{"side":"'$2'","bonus":10}' >/dev/null; post /v1/battles/$1/strategy-bonuses "$JUDGE" '{"side":"'$3'","bonus":0}' >/dev/null; }
for B in $CAPTURE $KILL $JOINT; do post /v1/battles/$B/actions "$JUDGE" "$FORMULAS" | jq -c '.events[0].data.type'; done

echo '## The capture (seed 003 §4.5): Sai Rei risks 2000 of its lowest rank.'
S=$(side $CAPTURE "Sai Rei"); O=$(side $CAPTURE "Plague Host")
post /v1/battles/$CAPTURE/strategies "${T[tahngarth]}" '{"side":"'$S'","strategy":"Surround them and take their banners","attempt":{"kind":"capture"}}' | jq -c '.events[0].data | {type, attempt}'
post /v1/battles/$CAPTURE/strategies "${T[rag]}" '{"side":"'$O'","strategy":"Break out to the north"}' | jq -c '.events[0].data.type'
bonuses $CAPTURE $S $O
post /v1/battles/$CAPTURE/resolve "$JUDGE" | jq -c '.events[].data | select(.type=="coalition.CaptureAttempted") | {type, army, target, risked, outcome, attacker_roll}'
echo '## What rag sees of the capture (the formula and the totals are the judge'"'"'s):'
curl -s "$URL/v1/streams/battle-$CAPTURE/events?type=coalition.CaptureAttempted" -H "Authorization: Bearer ${T[rag]}" | jq -c '.events[].data | {attacker_roll, target_roll}'

echo '## The kill (seed 003 §4.3.2–4.3.4): Barrin risks 500 of its largest slot; Vorn has too few.'
S=$(side $KILL Barrin); O=$(side $KILL Vorn)
post /v1/battles/$KILL/strategies "${T[vorn]}" '{"side":"'$O'","strategy":"Kill their commander","attempt":{"kind":"kill"}}' | jq -c '{status, code, detail, rule}'
post /v1/battles/$KILL/strategies "${T[orim]}" '{"side":"'$S'","strategy":"Dragons dive on their commander","attempt":{"kind":"kill"}}' >/dev/null
post /v1/battles/$KILL/strategies "${T[vorn]}" '{"side":"'$O'","strategy":"Hide in the swamp"}' >/dev/null
bonuses $KILL $S $O
post /v1/battles/$KILL/resolve "$JUDGE" | jq -c '.events[].data | select(.type=="coalition.KillAttempted") | {type, army, target, risked, outcome}'

echo '## The joint battle (seed 003 §4.4): Tahngarth and Orim against Dauthi; Tahngarth names Orim to leave north.'
S=$(side $JOINT Tahngarth); O=$(side $JOINT Dauthi)
post /v1/battles/$JOINT/strategies "${T[tahngarth]}" '{"side":"'$S'","army":"Tahngarth","strategy":"Pin them from the west","departure":{"army":"Orim","direction":"north"}}' >/dev/null
post /v1/battles/$JOINT/strategies "${T[orim]}" '{"side":"'$S'","army":"Orim","strategy":"Sweep in from the east"}' >/dev/null
post /v1/battles/$JOINT/strategies "${T[crovax]}" '{"side":"'$O'","strategy":"Dig in"}' >/dev/null
bonuses $JOINT $S $O
post /v1/battles/$JOINT/resolve "$JUDGE" | jq -c '.events[].data | select(.type=="coalition.JointBattleResolved") | {winner, departure, armies: [.armies[] | {army, participated, lost: .casualties.total}]}'

echo '# 4. Turn 2: the results come back to the campaign.'
post /v1/campaigns/$C/turns "$JUDGE" '{"deadline":"2030-12-02T05:00:00Z"}' >/dev/null
post /v1/campaigns/$C/lock "$JUDGE" >/dev/null
post /v1/campaigns/$C/adjudicate "$JUDGE" | jq -c '.events[].data | select(.type=="coalition.ArmyCaptured" or .type=="coalition.ArmyKilledInCampaign" or .type=="coalition.ArmyBumped" or .type=="coalition.RaiderSpawnRolled") | del(.conversion, .draw) | if .type=="coalition.RaiderSpawnRolled" then {type, raiders, chance, spawned: (.spawned | if . then .army.name else null end)} else . end'
curl -s $URL/v1/campaigns/$C/armies | jq -c '.[] | select(.name=="Plague Host") | {name, team, colors, square, controllers, conversion}'

echo '# 5. A sanction (seed 003 §5.4.1): severity 1 × d6 × (100, 50, 25, 10) from Proxy, a reprimand for sisay.'
post /v1/campaigns/$C/sanctions "$JUDGE" '{"player":"sisay","army":"Proxy","severity":1,"reason":"posted for Barrin"}' | jq -c '.events[].data | {type, call: .call.call, draw: .draw.value, losses}'

echo '# 6. A vote (seed 003 §1.4): the General counts 3, the Admiral 2, the Captain 1.'
CLOSES=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)
VOTE=$(post /v1/campaigns/$C/votes "${T[hanna]}" '{"topic":"Attack the Portal of Rath?","options":["yes","no"],"closes_at":"'$CLOSES'"}' | jq -r '.events[0].data.vote')
for v in gerrard:yes hanna:no sisay:yes; do post /v1/campaigns/$C/votes/$VOTE/ballots "${T[${v%%:*}]}" '{"option":"'${v##*:}'"}' | jq -c '.events[0].data | {player, option, points}'; done
post /v1/campaigns/$C/votes/$VOTE/ballots "${T[sisay]}" '{"option":"no"}' | jq -c '{status, code, rule}'
sleep 4
post /v1/campaigns/$C/votes/$VOTE/close "${T[orim]}" | jq -c '.events[0].data | {tally, winners}'

echo '# 7. Turns until a raider spawns (seed 003 §6.3.2: 3 in 20 with one raider on the map, 2 in 20 with two).'
for n in $(seq 3 60); do
  post /v1/campaigns/$C/turns "$JUDGE" '{"deadline":"2031-01-01T05:00:00Z"}' >/dev/null
  post /v1/campaigns/$C/lock "$JUDGE" >/dev/null
  ROLL=$(post /v1/campaigns/$C/adjudicate "$JUDGE" | jq -c '.events[].data | select(.type=="coalition.RaiderSpawnRolled") | {raiders, chance, die: .draw.value, spawned: (.spawned | if . then {army: .army.name, rank: .army.rank, square} else null end)}')
  echo "turn $n: $ROLL"
  if echo "$ROLL" | jq -e '.spawned' >/dev/null; then break; fi
done

echo '# 8. The judge verifies the whole round by replay.'
curl -s $URL/v1/streams/campaign-$C/verify -H "Authorization: Bearer $JUDGE" | jq -c '{result, rules, commands_checked, events_checked}'
