// Building the page: a small element helper, and any JSON value (a ruleset's view, an event's
// payload) drawn as readable lists and tables instead of JSON text — keys in words, sealed
// fields marked as sealed, recorded dice as dice with their verification mark.

/** `h('p', {class: 'x', onclick}, 'text', child)`: an element. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** `seed_commitment` → `seed commitment`, `pairsWon` → `pairs won`. */
export function humanize(key) {
  return String(key).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replaceAll('_', ' ').toLowerCase();
}

/** A number with thousands separated: 12500 → 12,500. */
export const count = (n) => (typeof n === 'number' ? n.toLocaleString('en') : String(n));

/** A time as the reader's local date and time. */
export function when(text) {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? String(text) : date.toLocaleString();
}

/** A date for people, in a `<time>` element carrying the exact instant (`—` when unknown). */
export function date(text) {
  if (!text) return h('span', { class: 'muted' }, '—');
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) return String(text);
  const shown = at.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  return h('time', { datetime: at.toISOString(), title: at.toISOString() }, shown);
}

/** Whether a value is a recorded draw. */
export const isDraw = (v) => v && typeof v === 'object' && 'word' in v && 'sides' in v && 'value' in v;

/**
 * A die as the page shows it: `d20 14`, its purpose, and its mark — verified (✓), differs (✗,
 * with the value the page computed) or not checked (the seed is still sealed).
 */
export function die(draw, check) {
  const state = check?.verified === true ? 'verified' : check?.verified === false ? 'mismatch' : 'unchecked';
  const mark = state === 'verified' ? '✓' : state === 'mismatch' ? '✗' : '·';
  const tip = `${draw.purpose ?? 'die'} — word ${draw.word}` +
    (state === 'verified' ? ', recomputed in this page: same face' :
      state === 'mismatch' ? `, recomputed in this page: ${check.computed ?? 'invalid'}` : ', not checked: the seed is sealed');
  return h('span', { class: `die ${state}`, title: tip, dataset: { word: draw.word, verified: state } },
    h('span', { class: 'sides' }, `d${draw.sides}`), ' ', h('b', {}, String(draw.value)), ' ', h('span', { class: 'mark' }, mark),
    check?.verified === false && check.computed !== null ? h('span', { class: 'computed' }, ` should be ${check.computed}`) : null);
}

const SEALED = 'hidden';

const check = (checks, pointer, draw) => (typeof checks === 'function' ? checks(draw) : checks.get(pointer));

/**
 * Any JSON value as readable HTML. `checks` maps a draw's JSON pointer (within the value) to
 * its verification (or is a function of the draw); `pointer` is where `value` sits.
 */
export function value(v, checks = new Map(), pointer = '') {
  if (v === null || v === undefined) return h('span', { class: 'muted' }, '—');
  if (v === SEALED) return h('span', { class: 'sealed', title: 'sealed: your role may not see this yet' }, 'sealed');
  if (typeof v === 'boolean') return document.createTextNode(v ? 'yes' : 'no');
  if (typeof v === 'number') return document.createTextNode(count(v));
  if (typeof v === 'string') return document.createTextNode(v);
  if (isDraw(v)) {
    const rest = Object.entries(v).filter(([k]) => !['word', 'sides', 'value', 'purpose'].includes(k));
    const chip = die(v, check(checks, pointer, v));
    return rest.length ? h('span', {}, chip, ' ', object(Object.fromEntries(rest), checks, pointer)) : chip;
  }
  if (Array.isArray(v)) return list(v, checks, pointer);
  return object(v, checks, pointer);
}

function isScalar(v) {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function list(items, checks, pointer) {
  if (items.length === 0) return h('span', { class: 'muted' }, 'none');
  if (items.every(isScalar)) return document.createTextNode(items.map((i) => (i === null ? '—' : typeof i === 'number' ? count(i) : i)).join(', '));
  if (items.every(isDraw)) return h('span', { class: 'dice' }, items.map((d, i) => [die(d, check(checks, `${pointer}/${i}`, d)), ' ']));
  // Rows of plain objects with the same scalar fields read best as a table.
  const keys = items.every((i) => i && typeof i === 'object' && !Array.isArray(i)) ? Object.keys(items[0]) : null;
  const tabular = keys && keys.length <= 8 && items.every((i) =>
    Object.keys(i).length === keys.length && keys.every((k) => k in i && (isScalar(i[k]) || isDraw(i[k]))));
  if (tabular) {
    return h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, keys.map((k) => h('th', {}, humanize(k))))),
      h('tbody', {}, items.map((item, i) => h('tr', {}, keys.map((k) => h('td', {}, value(item[k], checks, `${pointer}/${i}/${escapeKey(k)}`)))))));
  }
  return h('ol', { class: 'values' }, items.map((item, i) => h('li', {}, value(item, checks, `${pointer}/${i}`))));
}

function object(o, checks, pointer) {
  const entries = Object.entries(o).filter(([k]) => k !== 'type');
  if (entries.length === 0) return h('span', { class: 'muted' }, 'nothing');
  return h('dl', { class: 'values' }, entries.map(([k, v]) => [
    h('dt', {}, humanize(k)),
    h('dd', {}, value(v, checks, `${pointer}/${escapeKey(k)}`)),
  ]));
}

const escapeKey = (k) => String(k).replaceAll('~', '~0').replaceAll('/', '~1');

/** Parse an SVG document from the server and return its root, ready to insert. */
export function svg(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.nodeName !== 'svg') return h('p', { class: 'error' }, 'the picture could not be read');
  // Scripts never run in parsed markup, but nothing that could is kept either.
  root.querySelectorAll('script, foreignObject').forEach((n) => n.remove());
  return document.importNode(root, true);
}

/** A message saying what went wrong. */
export function problem(error) {
  return h('p', { class: 'error' }, error?.status ? `${error.message} (HTTP ${error.status})` : String(error?.message ?? error));
}
