// Events in words, for any ruleset: the type as a phrase ("coalition.BattleResolved" → "battle
// resolved"), who did it and when, the facts that decide what happened (winner, side, army,
// reason, rule…) in one line, and the command each event came from. Nothing here names a
// ruleset's events: a new ruleset reads the same way.

import { h, humanize, count, when, isDraw } from './render.js';

/** `coalition.BattleResolved` → `Battle resolved`; `dice.JudgeRolled` → `Judge rolled`. */
export function title(type) {
  const phrase = humanize(String(type).split('.').pop());
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** The ruleset part of a type: `coalition.BattleResolved` → `coalition`. */
export const family = (type) => String(type).split('.')[0];

/** A token id shortened for people: `token:01a21917-883…`. */
const shortId = (text) => (text.length > 22 ? `${text.slice(0, 18)}…` : text);

/**
 * Who acted, for people: the event's `who` (docs/API.md "Actors and who sees a token's label")
 * as its name, with the role beside a name that is not the role (`alice (player)`, `judge`,
 * `Herald (automatic)`); a bare actor id (an older server) is shortened.
 */
export function actor(who) {
  if (!who) return 'someone';
  if (typeof who === 'string') return who === 'system' ? 'Herald (automatic)' : shortId(who);
  if (who.role === 'system') return 'Herald (automatic)';
  if (!who.role) return `unknown token ${shortId(who.id)}`;
  const name = who.name && who.name !== who.role ? `${who.name} (${who.role})` : who.role;
  return who.token === 'revoked' || who.token === 'expired' ? `${name}, token ${who.token}` : name;
}

/** The long form, for a tooltip: id, role, player, label (where shown) and the token's state. */
export function actorTitle(who) {
  if (!who || typeof who === 'string') return who ?? '';
  return [who.id, who.role, who.player && `player ${who.player}`, who.label && `label ${who.label}`,
    who.token && `token ${who.token}`].filter(Boolean).join(' · ');
}

/** The actor of an event: its `who` when the server names it, else its actor id. */
export const actorOf = (event) => event.who ?? event.actor;

/** The fields that say what happened, in the order people ask for them. */
const HEADLINE = [
  'winner', 'winners', 'decided_by', 'result', 'total', 'side', 'army', 'armies', 'model', 'target', 'player',
  'turn', 'square', 'from', 'to', 'bonus', 'pairs_won', 'entropy', 'expression', 'purpose', 'cause', 'reason', 'rule',
];

function short(v) {
  if (v === 'hidden') return 'sealed';
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return count(v);
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 77)}…` : v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object' || x === null) ? v.map(short).join(', ') : `${v.length} entries`;
  if (isDraw(v)) return `d${v.sides} ${v.value}`;
  // Something named (an army, a model) reads as its name.
  if (typeof v.name === 'string') return short(v.name);
  // Per-side pairs `{a: …, b: …}` read as "a 3, b 1".
  const entries = Object.entries(v);
  if (entries.length <= 4 && entries.every(([, x]) => typeof x !== 'object' || x === null)) {
    return entries.map(([k, x]) => `${humanize(k)} ${short(x)}`).join(', ');
  }
  return `${entries.length} fields`;
}

/** One line of the facts that matter: `winner a · decided by pairs · rule seed 003 §4.2.3`. */
export function headline(data) {
  if (!data || typeof data !== 'object') return '';
  return HEADLINE.filter((key) => key in data && data[key] !== null && data[key] !== undefined)
    .map((key) => `${humanize(key)}: ${short(data[key])}`)
    .join(' · ');
}

/** `Battle resolved — by alice (player), 1 Dec 2030, 18:00`. */
export function summary(event) {
  return h('span', { class: 'summary' },
    h('b', {}, title(event.type)), ' ',
    h('span', { class: 'muted', title: actorTitle(actorOf(event)) }, `by ${actor(actorOf(event))}, ${when(event.recorded_at)}`));
}

/**
 * Events grouped by the command that produced them (`command_id`), in order: each step a
 * battle or campaign took, with the events it caused.
 */
export function commands(events) {
  const groups = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    if (last && event.command_id && last.command_id === event.command_id) last.events.push(event);
    else groups.push({ command_id: event.command_id, actor: actorOf(event), recorded_at: event.recorded_at, events: [event] });
  }
  return groups;
}

/** How many dice an event drew. */
export function diceIn(data) {
  let n = 0;
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') { if (isDraw(v)) n += 1; Object.values(v).forEach(walk); }
  };
  walk(data);
  return n;
}
