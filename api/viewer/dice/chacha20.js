// The dice tape of docs/DICE.md in plain JavaScript: the ChaCha20 block function (RFC 7539 §2.3)
// in the original layout (64-bit counter in state words 12–13, 64-bit nonce 0), output word n =
// the little-endian u32 at byte 4n of the keystream, dice derived by rejection, and the
// effective seed. Written here rather than taken from the server so that a reader's browser
// checks Herald's dice with code Herald did not run.

import { sha256, utf8, concat } from './sha256.js';

const CONSTANTS = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];
const rotl = (x, n) => (x << n) | (x >>> (32 - n));

function quarter(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16) >>> 0;
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12) >>> 0;
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8) >>> 0;
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7) >>> 0;
}

/** Block `counter` of the keystream keyed by 8 little-endian key words: 16 output words. */
export function block(keyWords, counter) {
  const init = new Uint32Array(16);
  init.set(CONSTANTS, 0);
  init.set(keyWords, 4);
  init[12] = counter % 2 ** 32;
  init[13] = Math.floor(counter / 2 ** 32);
  const s = Uint32Array.from(init);
  for (let round = 0; round < 10; round++) {
    quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15);
    quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14);
  }
  for (let i = 0; i < 16; i++) s[i] = (s[i] + init[i]) >>> 0;
  return s;
}

/** A stream's dice tape keyed by its 32-byte effective seed. */
export class Tape {
  constructor(key) {
    if (!(key instanceof Uint8Array) || key.length !== 32) throw new Error('a tape key is 32 bytes');
    const view = new DataView(key.buffer, key.byteOffset, 32);
    this.keyWords = Uint32Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i, true));
    this.blocks = new Map();
  }

  /** Output word `n` (from 0). */
  word(n) {
    const index = Math.floor(n / 16);
    let words = this.blocks.get(index);
    if (!words) {
      words = block(this.keyWords, index);
      this.blocks.set(index, words);
    }
    return words[n % 16];
  }

  /**
   * The die of `sides` whose first examined word is `n` (docs/DICE.md "Deriving a die"):
   * `{ value, accepted, next }` — the face, the word it came from, the word after it.
   */
  die(n, sides) {
    if (!Number.isInteger(sides) || sides < 1 || sides >= 2 ** 32) throw new Error(`no die of ${sides} sides`);
    const limit = 2 ** 32 - (2 ** 32 % sides);
    let at = n;
    // Rejection is rare (about 1 in 10^9 for a d6); the bound only guards a broken key.
    while (this.word(at) >= limit) {
      at += 1;
      if (at - n > 10_000) throw new Error('too many rejected words');
    }
    return { value: 1 + (this.word(at) % sides), accepted: at, next: at + 1 };
  }
}

/** `sha256(seed ‖ sha256(stream) ‖ sha256(c1) ‖ … ‖ sha256(cn))` (docs/DICE.md "Seeds"). */
export function effectiveSeed(seed, stream, contributions) {
  return sha256(concat([seed, sha256(utf8(stream)), ...contributions.map((c) => sha256(utf8(c)))]));
}
