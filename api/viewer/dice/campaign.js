// Verifying a campaign round's dice in the browser (docs/DICE.md "Keys" and "Campaign keys"):
// every key of the round — the root (`stream`), each turn's `turn:N` and each `interval:N` — is
// gathered with its commitment from the round's events, its revealed seed checked against that
// commitment, its effective seed recomputed from the stream name and the contributions to its
// turn (in the order they were appended), and, once the root is revealed, its seed checked to be
// the derivation from the root. Every draw of the dice ledger (`GET /v1/streams/{stream}/dice`,
// which names each draw's key) is then recomputed with the page's own ChaCha20. Keys still
// sealed are listed with when they open.

import { sha256, toHex, fromHex, utf8, concat } from './sha256.js';
import { Tape, effectiveSeed } from './chacha20.js';

const kind = (event) => String(event.type ?? '').split('.').pop();

const LABELS = { turn: 'herald/turn-seed/v1', interval: 'herald/interval-seed/v1' };

/** `sha256(label ‖ root ‖ campaign stream ‖ n as 4 bytes big-endian)` (docs/DICE.md "Keys"). */
export function derivedSeed(root, stream, id) {
  const [family, n] = id.split(':');
  const label = LABELS[family];
  if (!label || !/^\d+$/.test(n ?? '')) return null;
  const number = new Uint8Array(4);
  new DataView(number.buffer).setUint32(0, Number(n), false);
  return sha256(concat([utf8(label), root, utf8(stream), number]));
}

/** When a sealed key is published, as docs/DICE.md's keys table says. */
export function opens(id) {
  const [family, n] = id.split(':');
  if (family === 'turn') return `with turn ${n}'s adjudication`;
  if (family === 'interval') return `with turn ${Number(n) + 1}'s adjudication`;
  if (family === 'stream') return 'when the round ends';
  return 'when it is revealed';
}

const hex32 = (value) => (typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value) ? value.toLowerCase() : null);

/**
 * Check a campaign's events (oldest first) and its dice ledger (`draws` as the ledger pages
 * them). The report: `status` `verified` (every draw recomputed and every key checked),
 * `partial` (some keys still sealed, every draw that can be checked is), `mismatch` or `no-dice`;
 * `keys` lists each key with `commitment`, `seed`, `commitmentMatches`, `effectiveSeedMatches`,
 * `derived` (true/false once the root is revealed, else null), `sealed` and `opens`; `draws`
 * each draw with `computed` and `verified` (null while its key is sealed).
 */
export function verifyCampaign(events, ledger) {
  const stream = events[0]?.stream ?? '';
  const keys = new Map();
  const key = (id) => {
    if (!keys.has(id)) {
      keys.set(id, {
        id, commitment: null, seed: null, publishedEffectiveSeed: null, effectiveSeed: null,
        contributions: [], commitmentMatches: null, effectiveSeedMatches: null, derived: null,
        sealed: true, opens: opens(id), draws: 0, problems: [],
      });
    }
    return keys.get(id);
  };
  const contributions = new Map(); // turn → entropy texts, in append order
  let root = null;
  for (const event of events) {
    const d = event.data ?? {};
    switch (kind(event)) {
      case 'CampaignCreated':
        if (d.seed_commitment) key('stream').commitment = d.seed_commitment.toLowerCase();
        if (d.interval_commitment) key('interval:0').commitment = d.interval_commitment.toLowerCase();
        break;
      case 'TurnOpened':
        if (d.seed_commitment) key(`turn:${d.turn}`).commitment = d.seed_commitment.toLowerCase();
        if (d.interval_commitment) key(`interval:${d.turn}`).commitment = d.interval_commitment.toLowerCase();
        break;
      case 'TurnEntropyContributed':
        if (!contributions.has(d.turn)) contributions.set(d.turn, []);
        contributions.get(d.turn).push(d.entropy);
        break;
      case 'TurnSeedRevealed':
        Object.assign(key(`turn:${d.turn}`), { seed: hex32(d.seed), publishedEffectiveSeed: hex32(d.effective_seed) });
        break;
      case 'IntervalSeedRevealed':
        Object.assign(key(`interval:${d.after_turn}`), { seed: hex32(d.seed), publishedEffectiveSeed: hex32(d.effective_seed) });
        break;
      case 'RootSeedRevealed':
        root = hex32(d.seed);
        key('stream').seed = root;
        break;
      default:
    }
  }
  for (const draw of ledger) key(draw.key ?? 'stream').draws += 1;

  const rootBytes = root ? fromHex(root) : null;
  const tapes = new Map();
  for (const k of keys.values()) {
    const [family, n] = k.id.split(':');
    // A turn's key and the interval key after it mix the contributions to that turn; interval:0
    // and the root mix none (docs/DICE.md "Campaign keys").
    k.contributions = family === 'stream' || n === '0' ? [] : contributions.get(Number(n)) ?? [];
    if (rootBytes && family !== 'stream') {
      const derived = derivedSeed(rootBytes, stream, k.id);
      if (derived) {
        k.derived = k.seed ? toHex(derived) === k.seed : k.commitment ? toHex(sha256(derived)) === k.commitment : null;
        if (!k.seed && k.derived) k.seed = toHex(derived); // the root opens a key never revealed on its own
        if (k.derived === false) k.problems.push(`key ${k.id} does not derive from the revealed root`);
      }
    }
    if (!k.seed) continue;
    k.sealed = false;
    const seed = fromHex(k.seed);
    if (k.commitment) {
      k.commitmentMatches = toHex(sha256(seed)) === k.commitment;
      if (!k.commitmentMatches) k.problems.push(`sha256 of key ${k.id}'s seed is not its commitment`);
    } else {
      k.problems.push(`key ${k.id} has no published commitment`);
    }
    if (k.contributions.some((c) => typeof c !== 'string')) k.problems.push(`a contribution to key ${k.id} is hidden`);
    const effective = effectiveSeed(seed, stream, k.contributions.map(String));
    k.effectiveSeed = toHex(effective);
    if (k.publishedEffectiveSeed) {
      k.effectiveSeedMatches = k.publishedEffectiveSeed === k.effectiveSeed;
      if (!k.effectiveSeedMatches) k.problems.push(`the effective seed Herald published for key ${k.id} is not the one computed here`);
    }
    tapes.set(k.id, new Tape(effective));
  }

  const draws = ledger.map((d) => {
    const tape = tapes.get(d.key ?? 'stream');
    let computed = null;
    let verified = null;
    if (tape) {
      if (Number.isInteger(d.word) && Number.isInteger(d.sides) && d.sides >= 1) {
        computed = tape.die(d.word, d.sides).value;
        verified = computed === d.value;
      } else {
        verified = false;
      }
    }
    return { ...d, computed, verified };
  });
  const problems = [...keys.values()].flatMap((k) => k.problems);
  const firstMismatch = draws.findIndex((d) => d.verified === false);
  if (firstMismatch >= 0) {
    const d = draws[firstMismatch];
    problems.push(`version ${d.version} ${d.pointer}: recorded ${d.value}, computed ${d.computed} (key ${d.key})`);
  }
  const sealed = [...keys.values()].filter((k) => k.sealed);
  const status = problems.length ? 'mismatch'
    : draws.length === 0 ? 'no-dice'
      : sealed.length || draws.some((d) => d.verified === null) ? 'partial' : 'verified';
  return {
    stream, status, problems, root, keys: [...keys.values()], draws,
    firstMismatch: firstMismatch >= 0 ? firstMismatch : null,
  };
}
