// A real Herald server for the browser test: the `herald` binary built by cargo, on a free
// port, with a fresh data directory and a known admin token; and the HTTP calls that fill it
// with a campaign (two turns and the battle they open), an open coalition battle with sealed
// strategies, and a warmachine battle with an attack, as a user of the API would.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');
export const ADMIN = 'browser-test-admin-token';

/** Start `herald` and wait until it answers `/readyz`. */
export async function startHerald() {
  const binary = process.env.HERALD_BIN ?? join(TARGET, 'debug', 'herald');
  if (!existsSync(binary)) throw new Error(`no herald binary at ${binary}: run cargo build --bin herald first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-browser-'));
  const child = spawn(binary, ['--port', '0', '--data-dir', dataDir, '--admin-token', ADMIN, '--log-format', 'json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'info' },
  });
  // Never leave a server behind, however the test run ends.
  const killChild = () => { if (child.exitCode === null) child.kill('SIGKILL'); };
  process.on('exit', killChild);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { killChild(); process.exit(1); });
  const port = await new Promise((resolvePort, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`herald did not report its port:\n${seen}`)), 60_000);
    const read = (chunk) => {
      seen += chunk;
      const match = seen.match(/"port":\s*(\d+)/);
      if (match) { clearTimeout(timer); resolvePort(Number(match[1])); }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`herald exited with ${code}:\n${seen}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok).catch(() => false);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => { if (child.exitCode !== null) r(); else child.on('exit', r); });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small client: `call(method, path, token, body)` → the JSON answer, failing on an error. */
export function client(base) {
  return async function call(method, path, token, body) {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

const army = (name, team, controller, creature, colors, troops) => ({
  army: {
    name, team, rank: 'cpl_lt_commander', creator: null,
    colors: team === 'coalition' ? [colors[0], ...['green', 'blue', 'black'].filter((c) => c !== colors[0]).slice(0, 2)] : [],
    troops: [{ creature, colors, power: 1, toughness: 1, slot: 0, full: 5000, troops }],
  },
  controllers: [controller],
});

/** Fill the server: tokens, a campaign of two turns with the battle it opened, more battles. */
export async function seed(base) {
  const call = client(base);
  const token = async (body) => (await call('POST', '/v1/tokens', ADMIN, body)).token;
  const judge = await token({ role: 'judge', label: 'Battle Judge' });
  const alice = await token({ role: 'player', player: 'alice' });
  const bob = await token({ role: 'player', player: 'bob' });

  // A campaign (the README's walk-through): two armies meet at 8E.
  const created = await call('POST', '/v1/campaigns', judge, {
    name: 'Round 1',
    map: {
      terrain: { '6E': 'forest', '7E': 'forest', '9F': 'mountain', '3B': 'swamp', '1A': 'ocean', '2A': 'ocean', '12C': 'islands' },
      sites: {
        '20K': { name: 'Red Base', square: '20K', kind: { kind: 'base', color: 'red' } },
        '10E': { name: 'Portal of Yawgmoth', square: '10E', kind: { kind: 'portal' } },
        '4D': { name: 'Benalia', square: '4D', kind: { kind: 'town' } },
      },
    },
    armies: [
      { ...army('Sai Rei', 'coalition', 'alice', 'Kris Mage', ['red'], 4000), start: { by: 'square', square: '5E' } },
      { ...army('Plague Host', 'phyrexia', 'bob', 'Phyrexian Broodling', ['black'], 4000), start: { by: 'square', square: '9E' } },
      { ...army('Gerrard', 'coalition', 'alice', 'Benalish Hero', ['white'], 5000), start: { by: 'square', square: '5G' } },
      { ...army('Negator Horde', 'phyrexia', 'bob', 'Phyrexian Negator', ['black'], 5000), start: { by: 'square', square: '14J' } },
    ],
    options: { enforce_army_counts: false, enforce_site_counts: false },
  });
  const campaign = created.stream.replace(/^campaign-/, '');
  const c = `/v1/campaigns/${campaign}`;
  await call('POST', `${c}/turns`, judge, { deadline: '2030-12-01T05:00:00Z' });
  // Entropy for turn 1's key (docs/DICE.md "Campaign keys"), sealed until the lock.
  await call('POST', `${c}/entropy`, alice, { entropy: 'alice turn 1' });
  await call('POST', `${c}/entropy`, bob, { entropy: 'bob turn 1' });
  await call('POST', `${c}/orders`, alice, { text: 'Sai Rei: 5E > 8E\nGerrard: 5G > 8G' });
  await call('POST', `${c}/orders`, bob, { text: 'Plague Host: 9E > 8E', private: true });
  await call('POST', `${c}/lock`, judge);
  const adjudicated = await call('POST', `${c}/adjudicate`, judge);
  const announced = adjudicated.events.find((e) => e.type === 'coalition.BattleAnnounced');
  const campaignBattle = announced.data.battle.replace(/^battle-/, '');

  // The battle the adjudication opened, fought out: entropy, sealed strategies, bonuses, dice.
  const b = `/v1/battles/${campaignBattle}`;
  const view = await call('GET', b, judge);
  const sideOf = (player) => Object.entries(view.sides).find(([, s]) => s.army.controller === player)?.[0];
  await call('POST', `${b}/entropy`, alice, { entropy: 'alice 42' });
  await call('POST', `${b}/strategies`, alice, { side: sideOf('alice'), strategy: 'Hold the ridge; the mages volley from the rocks' });
  await call('POST', `${b}/strategies`, bob, { side: sideOf('bob'), strategy: 'Swarm them at night' });
  await call('POST', `${b}/strategy-bonuses`, judge, { side: sideOf('alice'), bonus: 7 });
  await call('POST', `${b}/strategy-bonuses`, judge, { side: sideOf('bob'), bonus: 4 });
  await call('POST', `${b}/resolve`, judge, {});

  // A judge's roll between turns: drawn from interval:1, revealed with turn 2's adjudication.
  await call('POST', `/v1/streams/campaign-${campaign}/rolls`, judge, { expression: '2d6', purpose: 'sanction: late orders from Gerrard' });

  // Turn 2 applies the battle's casualties and moves the loser off the square.
  await call('POST', `${c}/turns`, judge, { deadline: '2030-12-02T05:00:00Z' });
  await call('POST', `${c}/orders`, alice, { text: 'Gerrard: 8G > 11G' });
  await call('POST', `${c}/lock`, judge);
  await call('POST', `${c}/adjudicate`, judge);

  // A coalition battle still open: both strategies sealed.
  const open = await call('POST', '/v1/battles', judge, {
    armies: {
      a: { name: 'Weatherlight', team: 'coalition', rank: 'cpl_lt_commander', controller: 'alice',
        slots: [{ creature: 'Kris Mage', colors: ['red'], power: 1, toughness: 1, troops: 5000 }] },
      b: { name: 'Rathi Fleet', team: 'phyrexia', rank: 'cpl_lt_commander', controller: 'bob',
        slots: [{ creature: 'Phyrexian Broodlings', colors: ['black'], power: 2, toughness: 2, troops: 5000 }] },
    },
    engagement: { kind: 'attack', attacker: 'a' }, terrain: 'plains', strategy_deadline: '2030-12-01T18:00:00Z',
  });
  const openBattle = open.stream.replace(/^battle-/, '');
  await call('POST', `/v1/battles/${openBattle}/strategies`, alice, { side: 'a', strategy: 'Board them from the clouds' });
  await call('POST', `/v1/battles/${openBattle}/strategies`, bob, { side: 'b', strategy: 'Ram the flagship' });

  // A warmachine battle: a rifle shot, then the judge reveals the seed.
  const wm = await call('POST', '/v1/battles', judge, warmachineSetup());
  const warmachine = wm.stream.replace(/^battle-/, '');
  const act = (tokenValue, body) => call('POST', `/v1/battles/${warmachine}/actions`, tokenValue, body);
  await call('POST', `/v1/battles/${warmachine}/entropy`, alice, { entropy: 'red dice' });
  await act(alice, { type: 'start_turn', control: { allocate: [{ warjack: 'red-jack', focus: 1 }] } });
  await act(alice, { type: 'activate', activation: 'red-jack' });
  await act(alice, { type: 'move', model: 'red-jack', movement: { kind: 'aim' } });
  await act(alice, { type: 'attack', attacker: 'red-jack', weapon: 'Rifle', target: 'blue-jack' });
  await act(alice, { type: 'end_activation' });
  await call('POST', `/v1/battles/${warmachine}/reveal`, judge, {});

  // A zone-rpg fight (seed 001): two zones, a blow struck on the road.
  const zr = await call('POST', '/v1/battles', judge, {
    ruleset: 'zone-rpg',
    zones: [{ name: 'road' }, { name: 'thicket' }],
    borders: [{ a: 'road', b: 'thicket' }],
    factions: [{ name: 'party' }, { name: 'bandits' }],
    initiative: { kind: 'faction', faction: 'party' },
    characters: [
      { id: 'Balthasar', faction: 'party', controller: 'alice', health: 10, wit: 12, agi: 10, str: 14, zone: 'road',
        weapons: [{ name: 'sword', damage: 'd6' }] },
      { id: 'Theobald', faction: 'party', controller: 'alice', health: 9, wit: 11, agi: 12, str: 10, zone: 'thicket',
        weapons: [{ name: 'bow', damage: 'd6', range: 8 }] },
      { id: 'bandit', faction: 'bandits', health: 30, wit: 9, agi: 8, str: 10, zone: 'road', weapons: [{ name: 'axe', damage: 'd6' }] },
    ],
  });
  const zoneRpg = zr.stream.replace(/^battle-/, '');
  const zact = (tokenValue, body) => call('POST', `/v1/battles/${zoneRpg}/actions`, tokenValue, body);
  await zact(judge, { type: 'start_round', first_faction: 'party' });
  await zact(alice, { type: 'take_turn', character: 'Balthasar' });
  await zact(alice, { type: 'attack', attacker: 'Balthasar', weapon: 'sword', target: { kind: 'character', character: 'bandit' } });
  await zact(judge, { type: 'decline', character: 'bandit' });

  // A swift-swords skirmish (seed 004): two zones, the countdown begun.
  const fighter = (id, side, controller, zone) => ({ id, side, controller, start: { zone, group: `${zone}-melee` },
    action_dice: { kind: 'roll', dice: 3 }, physical: 9, mental: 9, weapons: [{ name: 'Sword', dice: 4, weight: 'medium' }] });
  const ss = await call('POST', '/v1/battles', judge, {
    ruleset: 'swift-swords',
    map: { zones: [{ id: 'ford', column: 0, row: 0, terrain: 'river ford' }, { id: 'bank', column: 1, row: 0, terrain: 'muddy bank' }] },
    sides: [{ name: 'heroes', controller: 'alice' }, { name: 'goblins', controller: 'bob' }],
    figures: [fighter('roland', 'heroes', 'alice', 'ford'), fighter('grik', 'goblins', 'bob', 'ford'), fighter('snag', 'goblins', 'bob', 'bank')],
  });
  const swiftSwords = ss.stream.replace(/^battle-/, '');
  await call('POST', `/v1/battles/${swiftSwords}/actions`, judge, { type: 'begin' });

  // A percentile skirmish (seed 002): declarations, a move and an open combat.
  const card = (name) => ({ name, level: 2, movement: 4.0, initiative: 10, life: 20, weapons: [{ name: 'Sword', kind: 'melee', damage: 'd6' }] });
  const ps = await call('POST', '/v1/battles', judge, {
    ruleset: 'percentile-skirmish',
    table: { width: 36.0, depth: 24.0, terrain: [] },
    participants: [{ name: 'red', controller: 'alice' }, { name: 'blue', controller: 'bob' }],
    minis: [
      { id: 'red-knight', participant: 'red', position: { x: 10.0, y: 10.0 }, facing: 0.0, profile: card('Knight') },
      { id: 'blue-guard', participant: 'blue', position: { x: 14.0, y: 10.0 }, facing: 180.0, profile: card('Guard') },
    ],
  });
  const skirmish = ps.stream.replace(/^battle-/, '');
  const pact = (tokenValue, body) => call('POST', `/v1/battles/${skirmish}/actions`, tokenValue, body);
  await pact(alice, { type: 'declare', participant: 'red', minis: ['red-knight'] });
  await pact(bob, { type: 'declare', participant: 'blue', minis: [] });
  await pact(alice, { type: 'move', mini: 'red-knight', path: [{ x: 13.2, y: 10.0 }] });
  await pact(alice, { type: 'melee_attack', attacker: 'red-knight', target: 'blue-guard', weapon: 'Sword' });
  await pact(alice, { type: 'choose_combat_option', mini: 'red-knight', choice: 'swing_to_the_head' });
  await pact(bob, { type: 'choose_combat_option', mini: 'blue-guard', choice: 'thrust_to_the_body' });

  return { call, judge, alice, bob, campaign, campaignBattle, openBattle, warmachine, zoneRpg, swiftSwords, skirmish };
}

function grid() {
  const letters = ['--LLM', '--LLM', '--CHM', '--CHS', '--RRS', '--RRS'];
  const systems = { L: 'left_arm', R: 'right_arm', H: 'head', S: 'superstructure', M: 'movement', C: 'cortex' };
  return { kind: 'grid', grid: { columns: letters.map((c) => [...c].map((l) => ({ system: systems[l] ?? null, damaged: false }))) } };
}

function warmachineSetup() {
  const melee = (name, pow) => ({ name, kind: 'melee', rng: { kind: 'inches', inches: 0.5 }, pow });
  const caster = (id, player, x, y) => ({ id, player, position: { x, y }, profile: {
    name: 'Captain', model_type: 'warcaster', base: 'small',
    stats: { spd: 6, mat: 6, rat: 5, def: 15, arm: 15, arc: 6, ctrl: 12 },
    damage: { kind: 'boxes', boxes: 17 }, weapons: [melee('Sword', 7)] } });
  const jack = (id, player, battlegroup, x, y) => ({ id, player, battlegroup, position: { x, y }, profile: {
    name: 'Ironclad', model_type: 'warjack', base: 'medium',
    stats: { spd: 6, str: 11, mat: 7, rat: 4, def: 12, arm: 18 }, damage: grid(),
    weapons: [
      { name: 'Fist', kind: 'melee', rng: { kind: 'inches', inches: 0.5 }, pow: 12, location: 'left' },
      { name: 'Rifle', kind: 'ranged', rng: { kind: 'inches', inches: 24.0 }, rof: 1, pow: 12, location: 'right' },
    ] } });
  return {
    ruleset: 'warmachine',
    table: { width: 30.0, depth: 30.0, terrain: [
      { name: 'wall', kind: 'obstruction', height: 3.0, shape: { kind: 'rect', min: { x: 2.0, y: 14.0 }, max: { x: 8.0, y: 15.0 } } },
      { name: 'Hill', kind: 'elevated_surface', height: 2.0, shape: { kind: 'rect', min: { x: 20.0, y: 12.0 }, max: { x: 26.0, y: 18.0 } } },
    ] },
    players: [{ name: 'red', controller: 'alice' }, { name: 'blue', controller: 'bob' }],
    models: [
      caster('red-caster', 'red', 15.0, 4.0),
      jack('red-jack', 'red', 'red-caster', 14.0, 8.0),
      caster('blue-caster', 'blue', 15.0, 27.0),
      jack('blue-jack', 'blue', 'blue-caster', 15.2, 21.0),
    ],
  };
}
