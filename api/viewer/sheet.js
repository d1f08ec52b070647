// A battle's sheets, for any ruleset: `GET /v1/battles/{id}/sheet?at=` gives groups (a side, a
// player, a faction) of cards (an army, a model, a character, a figure, a mini), each card a few
// sections — stats, a track, a list, a table, a grid — and this draws them all the same way.
// Every group carries a letter mark, shown on each of its cards, so sides are told apart by more
// than colour. Each card is a <details>: opened and closed from the keyboard (Enter or Space on
// its name). Cards the step's event names are marked. Nothing here names a ruleset.

import { h, count } from './render.js';

/** A number out of a most, as a meter and in words: `7 / 10`. */
function track(section) {
  const max = Math.max(section.max, 0);
  const current = Math.min(Math.max(section.current, 0), max);
  return h('div', { class: 'track' },
    h('span', { class: 'label' }, section.label), ' ',
    h('meter', { min: 0, max: max || 1, value: current, 'aria-label': `${section.label}: ${current} of ${max}` }),
    ' ', h('b', {}, `${count(current)} / ${count(max)}`));
}

function stats(section) {
  if (!section.stats.length) return null;
  return h('div', { class: 'stats' },
    section.label ? h('h5', {}, section.label) : null,
    h('dl', { class: 'stat-line' }, section.stats.map((s) => h('div', {}, h('dt', {}, s.label), h('dd', {}, s.value)))));
}

function list(section) {
  return h('div', { class: 'list' },
    h('h5', {}, section.label),
    section.items.length ? h('ul', {}, section.items.map((item) => h('li', {}, item))) : h('p', { class: 'muted' }, 'none'));
}

function table(section) {
  return h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': section.label },
    h('table', { class: 'data sheet-table' },
      h('caption', {}, section.label),
      h('thead', {}, h('tr', {}, section.columns.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, section.rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell)))))));
}

/** A damage grid: columns of boxes; a marked box is filled and crossed, and says so to a reader. */
function grid(section) {
  const rows = Math.max(0, ...section.columns.map((c) => c.length));
  const marked = section.columns.flat().filter((b) => b.marked).length;
  const boxes = section.columns.flat().length;
  return h('div', { class: 'grid' },
    h('h5', {}, `${section.label}: ${marked} of ${boxes} boxes marked`),
    h('table', { class: 'damage-grid' },
      h('thead', {}, h('tr', {}, section.columns.map((_, i) => h('th', { scope: 'col' }, String(i + 1))))),
      h('tbody', {}, Array.from({ length: rows }, (_, r) => h('tr', {}, section.columns.map((column) => {
        const box = column[r];
        if (!box) return h('td', { class: 'none' });
        return h('td', { class: `box${box.marked ? ' marked' : ''}${box.text ? '' : ' blank'}`, title: box.marked ? 'marked' : 'open' },
          box.text || '·', box.marked ? h('span', { class: 'visually-hidden' }, ' marked') : null);
      }))))));
}

const SECTIONS = { stats, track, list, table, grid };

/** One card, open, marked when the step's event names it (`named` holds the names). */
function card(item, group, named) {
  const acted = named.has(item.id) || named.has(item.name) || named.has(`side:${group.mark}`);
  return h('details', { class: `card${item.out ? ' out' : ''}${acted ? ' acted' : ''}`, open: true, dataset: { card: item.id, group: group.mark } },
    h('summary', {},
      h('span', { class: 'side-mark', title: `side ${group.mark}` }, group.mark), ' ',
      h('b', { class: 'name' }, item.name),
      item.subtitle ? h('span', { class: 'muted' }, ` · ${item.subtitle}`) : null,
      item.out ? h('span', { class: 'out-badge' }, ` ${item.out}`) : null,
      acted ? h('span', { class: 'acted-badge' }, ' ◆ this step') : null),
    item.sections.map((section) => SECTIONS[section.kind]?.(section) ?? null));
}

/**
 * The sheets as HTML. `named`: the names the step's event mentions (its ids, models, targets),
 * whose cards are marked.
 */
export function sheetView(sheet, named = new Set()) {
  return h('div', { class: 'sheets', dataset: { kind: sheet.kind } },
    sheet.groups.map((group) => h('section', { class: 'sheet-group', dataset: { mark: group.mark }, 'aria-label': group.name },
      h('h3', {}, h('span', { class: 'side-mark' }, group.mark), ' ', group.name, group.player ? h('span', { class: 'muted' }, ` (${group.player})`) : null),
      group.cards.length ? group.cards.map((item) => card(item, group, named)) : h('p', { class: 'muted' }, 'nothing on the table'))));
}

/**
 * Every string an event's payload holds, short ones only: the ids and names it mentions, to mark
 * on the sheets and the picture. A side named `a` also names the group marked `A`.
 */
export function namesIn(data) {
  const names = new Set();
  const walk = (v, key) => {
    if (typeof v === 'string' && v.length <= 80) {
      names.add(v);
      if (key === 'side' && v.length <= 2) names.add(`side:${v.toUpperCase()}`);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(data, '');
  return names;
}
