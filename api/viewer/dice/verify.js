// Verifying a stream's dice in the browser (docs/DICE.md "Verify a battle yourself"): the
// revealed seed against the commitment of the first event, the effective seed from the stream
// name and the contributions in event order, then every recorded draw `{word, sides, value}`
// recomputed from the page's own ChaCha20. Works on the events of any ruleset: draws are found
// wherever they sit in a payload, as docs/verify_dice.py finds them.

import { sha256, toHex, fromHex } from './sha256.js';
import { Tape, effectiveSeed } from './chacha20.js';

/** Every recorded draw in a JSON value, with its JSON pointer: `[{ pointer, draw }]`. */
export function recordedDraws(value, pointer = '') {
  const found = [];
  const walk = (node, at) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${at}/${i}`));
    } else if (node && typeof node === 'object') {
      if ('word' in node && 'sides' in node && 'value' in node) found.push({ pointer: at, draw: node });
      for (const [key, child] of Object.entries(node)) {
        walk(child, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }
    }
  };
  walk(value, pointer);
  return found;
}

/** The last part of an event type: `coalition.SeedRevealed` → `SeedRevealed`. */
const kind = (event) => String(event.type ?? '').split('.').pop();

function findKey(value, key) {
  if (!value || typeof value !== 'object') return undefined;
  if (key in value && typeof value[key] === 'string') return value[key];
  for (const child of Object.values(value)) {
    const found = findKey(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Check a stream's events (oldest first, as `GET /v1/streams/{stream}/events` pages them).
 * `seed` (64 hex digits) stands in for a seed not yet revealed, as a judge holding it would.
 *
 * The report: `status` is `verified`, `mismatch`, `sealed` (no seed to check with) or
 * `no-dice`; `draws` lists every draw with `computed` and `verified` (true, false, or null when
 * it could not be checked); `firstMismatch` is the index of the first draw that differs.
 */
export function verifyEvents(events, { seed: suppliedSeed } = {}) {
  const report = {
    stream: events[0]?.stream ?? null,
    status: 'no-dice',
    problems: [],
    commitment: null,
    commitmentMatches: null,
    seed: null,
    effectiveSeed: null,
    effectiveSeedMatches: null,
    contributions: [],
    draws: [],
    firstMismatch: null,
  };
  if (events.length === 0) return report;
  report.commitment = findKey(events[0].data, 'seed_commitment') ?? null;
  report.contributions = events.filter((e) => kind(e) === 'EntropyContributed').map((e) => e.data?.entropy);
  const revealed = events.find((e) => kind(e) === 'SeedRevealed')?.data;
  report.seed = suppliedSeed || revealed?.seed || null;
  for (const event of events) {
    for (const { pointer, draw } of recordedDraws(event.data)) {
      report.draws.push({
        version: event.version, type: event.type, pointer,
        word: draw.word, sides: draw.sides, value: draw.value, purpose: draw.purpose ?? '',
        computed: null, verified: null,
      });
    }
  }
  if (report.seed === null || report.seed === 'hidden') {
    report.seed = null;
    report.status = report.draws.length ? 'sealed' : 'no-dice';
    return report;
  }
  const seedBytes = fromHex(report.seed);
  if (!seedBytes || seedBytes.length !== 32) {
    report.problems.push('the seed is not 64 hexadecimal digits');
    report.status = 'mismatch';
    return report;
  }
  if (report.commitment) {
    report.commitmentMatches = toHex(sha256(seedBytes)) === report.commitment.toLowerCase();
    if (!report.commitmentMatches) report.problems.push('sha256(seed) is not the commitment published in the first event');
  } else {
    report.problems.push('the first event publishes no seed commitment');
  }
  if (report.contributions.some((c) => typeof c !== 'string')) {
    report.problems.push('an entropy contribution is hidden or missing');
  }
  const key = effectiveSeed(seedBytes, report.stream, report.contributions.map(String));
  report.effectiveSeed = toHex(key);
  if (revealed?.effective_seed && !suppliedSeed) {
    report.effectiveSeedMatches = revealed.effective_seed.toLowerCase() === report.effectiveSeed;
    if (!report.effectiveSeedMatches) report.problems.push('the effective seed Herald published is not the one computed here');
  }
  const tape = new Tape(key);
  report.draws.forEach((draw, index) => {
    if (!Number.isInteger(draw.word) || !Number.isInteger(draw.sides) || draw.sides < 1) {
      draw.verified = false;
    } else {
      draw.computed = tape.die(draw.word, draw.sides).value;
      draw.verified = draw.computed === draw.value;
    }
    if (!draw.verified && report.firstMismatch === null) report.firstMismatch = index;
  });
  if (report.firstMismatch !== null) {
    const d = report.draws[report.firstMismatch];
    report.problems.push(`version ${d.version} ${d.pointer}: recorded ${d.value}, computed ${d.computed}`);
  }
  report.status = report.problems.length ? 'mismatch' : report.draws.length ? 'verified' : 'no-dice';
  return report;
}
