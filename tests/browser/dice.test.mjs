// The viewer's own ChaCha20, die rule, SHA-256 and effective seed against the test vectors of
// docs/DICE.md, read out of that file (as domain/tests/dice_vectors.rs does) so the page cannot
// drift from the spec. Run with `node --test tests/browser/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

import { Tape, effectiveSeed } from '../../api/viewer/dice/chacha20.js';
import { sha256, toHex, fromHex, utf8 } from '../../api/viewer/dice/sha256.js';
import { verifyEvents, recordedDraws } from '../../api/viewer/dice/verify.js';
import { verifyCampaign, derivedSeed } from '../../api/viewer/dice/campaign.js';

const dice = readFileSync(fileURLToPath(new URL('../../docs/DICE.md', import.meta.url)), 'utf8');

/** The rows of the table after `<!-- vectors:NAME -->`, as arrays of cells (backticks removed). */
function table(name) {
  const start = dice.indexOf(`<!-- vectors:${name} -->`);
  assert.ok(start >= 0, `DICE.md has a ${name} table`);
  const rows = [];
  for (const line of dice.slice(start).split('\n').slice(1)) {
    if (!line.startsWith('|')) { if (rows.length) break; else continue; }
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replaceAll('`', '')));
  }
  return rows.slice(2); // header and separator
}
const numbers = (cell) => cell.split(',').map((n) => Number(n.trim()));

test('the raw output words match the vectors of DICE.md', () => {
  const rows = table('words');
  assert.ok(rows.length >= 2);
  for (const [key, words, values] of rows) {
    const tape = new Tape(fromHex(key));
    assert.deepEqual(numbers(words).map((n) => tape.word(n)), numbers(values), `words ${words}`);
  }
});

test('dice derived by rejection match the vectors of DICE.md, rejected words included', () => {
  const rows = table('dice');
  assert.ok(rows.length >= 4);
  for (const [key, sides, words, values] of rows) {
    const tape = new Tape(fromHex(key));
    let next = 0;
    const got = [];
    const at = [];
    for (let i = 0; i < numbers(values).length; i++) {
      const die = tape.die(next, Number(sides));
      at.push(next);
      got.push(die.value);
      next = die.next;
    }
    assert.deepEqual(got, numbers(values), `d${sides}`);
    assert.deepEqual(at, numbers(words), `d${sides} words`);
  }
});

test('the commitment and the effective seed match the vectors of DICE.md', () => {
  const fields = Object.fromEntries(table('seed').map(([field, value]) => [field, value]));
  const seed = fromHex(fields.seed);
  assert.equal(toHex(sha256(seed)), fields.commitment);
  const contributions = fields.contributions.split(',').map((c) => c.trim());
  const key = effectiveSeed(seed, fields.stream, contributions);
  assert.equal(toHex(key), fields['effective seed']);
  const tape = new Tape(key);
  const d20 = [0, 1, 2, 3].map((n) => tape.die(n, 20).value);
  assert.deepEqual(d20, numbers(fields['d20 at words 0, 1, 2, 3']));
});

test('sha256 agrees with the FIPS 180-4 example and with Node at every padding length', () => {
  assert.equal(toHex(sha256(utf8('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (let length = 0; length < 200; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 7 + length) & 0xff);
    assert.equal(toHex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'), `${length} bytes`);
  }
});

/** A tiny stream with a revealed seed and draws taken from the vectors' tape. */
function stream(tamper) {
  const seed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const name = 'battle-00000000-0000-0000-0000-000000000000';
  const commitment = toHex(sha256(fromHex(seed)));
  const key = effectiveSeed(fromHex(seed), name, ['alice', 'bob']);
  const d20 = (word) => ({ word, sides: 20, value: new Tape(key).die(word, 20).value, purpose: `die ${word}` });
  const events = [
    { stream: name, version: 0, type: 'x.Created', data: { type: 'x.Created', seed_commitment: commitment } },
    { stream: name, version: 1, type: 'x.EntropyContributed', data: { entropy: 'alice' } },
    { stream: name, version: 2, type: 'x.EntropyContributed', data: { entropy: 'bob' } },
    { stream: name, version: 3, type: 'x.Resolved', data: { dice: { a: [{ draw: d20(0) }, { draw: d20(1) }], b: [d20(2), d20(3)] } } },
    { stream: name, version: 4, type: 'x.SeedRevealed', data: { seed, effective_seed: toHex(key) } },
  ];
  if (tamper) tamper(events);
  return events;
}

test('a stream whose draws follow from its revealed seed is verified, draw by draw', () => {
  const report = verifyEvents(stream());
  assert.equal(report.status, 'verified', report.problems.join('; '));
  assert.equal(report.draws.length, 4);
  assert.ok(report.draws.every((d) => d.verified));
  assert.deepEqual(report.draws.map((d) => d.value), [8, 19, 4, 13]);
  assert.equal(report.draws[0].pointer, '/dice/a/0/draw');
});

test('a tampered die is the first mismatch, and the dice after it are still checked', () => {
  const report = verifyEvents(stream((events) => { events[3].data.dice.a[1].draw.value = 20; }));
  assert.equal(report.status, 'mismatch');
  assert.equal(report.firstMismatch, 1);
  assert.deepEqual(report.draws.map((d) => d.verified), [true, false, true, true]);
});

test('a seed that is not the committed one, or entropy left out, is reported', () => {
  const wrongSeed = verifyEvents(stream((events) => { events[4].data.seed = 'ff'.repeat(32); }));
  assert.equal(wrongSeed.status, 'mismatch');
  assert.equal(wrongSeed.commitmentMatches, false);
  const missing = verifyEvents(stream((events) => { events.splice(2, 1); }));
  assert.equal(missing.status, 'mismatch');
  assert.equal(missing.effectiveSeedMatches, false);
});

test('a stream whose seed is still sealed lists its draws unchecked', () => {
  const report = verifyEvents(stream((events) => { events.pop(); }));
  assert.equal(report.status, 'sealed');
  assert.ok(report.draws.every((d) => d.verified === null));
  assert.equal(recordedDraws({ a: [{ word: 1, sides: 6, value: 2 }] })[0].pointer, '/a/0');
});

/** The worked campaign turn of DICE.md ("A campaign turn with players' entropy"), as events and a ledger. */
function campaignRound(tamper) {
  const fields = Object.fromEntries(workedTable('coalition-campaign').map(([field, value]) => [field, value]));
  const root = fromHex(fields['seed (key stream)']);
  const name = fields.stream;
  const commit = (bytes) => toHex(sha256(bytes));
  const turn1 = derivedSeed(root, name, 'turn:1');
  const events = [
    { stream: name, version: 0, type: 'coalition.CampaignCreated', data: { seed_commitment: commit(root), interval_commitment: commit(derivedSeed(root, name, 'interval:0')) } },
    { stream: name, version: 1, type: 'coalition.TurnOpened', data: { turn: 1, seed_commitment: commit(turn1), interval_commitment: commit(derivedSeed(root, name, 'interval:1')) } },
    { stream: name, version: 2, type: 'coalition.TurnEntropyContributed', data: { turn: 1, entropy: 'alice' } },
    { stream: name, version: 3, type: 'coalition.TurnEntropyContributed', data: { turn: 1, entropy: 'bob' } },
    { stream: name, version: 4, type: 'coalition.TurnSeedRevealed', data: { turn: 1, seed: toHex(turn1), effective_seed: fields['effective seed (key turn:1)'] } },
    { stream: name, version: 5, type: 'coalition.RootSeedRevealed', data: { seed: toHex(root) } },
  ];
  const ledger = [{ version: 4, pointer: '/draws/0', word: 0, sides: 3, value: 1, purpose: 'route Barrin: 13E > 11F', key: 'turn:1' }];
  if (tamper) tamper(events, ledger);
  return { events, ledger, fields };
}

/** The rows of the table after `<!-- worked:NAME -->` (backticks removed). */
function workedTable(name) {
  const start = dice.indexOf(`<!-- worked:${name} -->`);
  assert.ok(start >= 0, `DICE.md has a worked ${name} table`);
  const rows = [];
  for (const line of dice.slice(start).split('\n').slice(1)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replaceAll('`', '')));
  }
  return rows.slice(2);
}

test("the worked campaign turn of DICE.md verifies: keys from the root, the contributions mixed, the die recomputed", () => {
  const { events, ledger, fields } = campaignRound();
  assert.equal(toHex(derivedSeed(fromHex(fields['seed (key stream)']), fields.stream, 'turn:1')), fields['seed (key turn:1)']);
  const report = verifyCampaign(events, ledger);
  assert.equal(report.status, 'verified', report.problems.join('; '));
  const turn = report.keys.find((k) => k.id === 'turn:1');
  assert.equal(turn.effectiveSeed, fields['effective seed (key turn:1)']);
  assert.deepEqual([turn.commitmentMatches, turn.effectiveSeedMatches, turn.derived], [true, true, true]);
  assert.deepEqual(report.keys.filter((k) => k.id.startsWith('interval:')).map((k) => [k.id, k.derived, k.sealed]), [['interval:0', true, false], ['interval:1', true, false]]);
  assert.deepEqual(report.draws.map((d) => [d.computed, d.verified]), [[1, true]]);
});

test('a campaign turn key that does not derive from the root, a contribution left out, or a die changed is named', () => {
  const swapped = verifyCampaign(...Object.values(campaignRound((events) => {
    const seed = 'ab'.repeat(32);
    events[1].data.seed_commitment = toHex(sha256(fromHex(seed)));
    events[4].data.seed = seed;
  })).slice(0, 2));
  assert.equal(swapped.status, 'mismatch');
  assert.ok(swapped.problems.includes('key turn:1 does not derive from the revealed root'), swapped.problems.join('; '));
  const dropped = verifyCampaign(...Object.values(campaignRound((events) => { events.splice(3, 1); })).slice(0, 2));
  assert.equal(dropped.keys.find((k) => k.id === 'turn:1').effectiveSeedMatches, false);
  const changed = verifyCampaign(...Object.values(campaignRound((_, ledger) => { ledger[0].value = 2; })).slice(0, 2));
  assert.equal(changed.firstMismatch, 0);
});

test('while the round runs its root and the keys not yet revealed show as sealed, with when they open', () => {
  const { events, ledger } = campaignRound((evs) => { evs.splice(4, 2); });
  const report = verifyCampaign(events, ledger);
  assert.equal(report.status, 'partial');
  assert.deepEqual(report.keys.filter((k) => k.sealed).map((k) => [k.id, k.opens]), [
    ['stream', 'when the round ends'], ['interval:0', "with turn 1's adjudication"],
    ['turn:1', "with turn 1's adjudication"], ['interval:1', "with turn 2's adjudication"]]);
  assert.deepEqual(report.draws.map((d) => d.verified), [null]);
});
