// The audit view of a campaign: every event of the round, filterable by actor (named by the
// server's `who`: the player, or the role, docs/API.md "Actors and who sees a token's label"),
// role, army, type and turn, each with links to the map just before and just after it (`?at=` version − 1 and
// version), and its payload in words.

import { streamEvents } from './api.js';
import { h, fill, value, when } from './render.js';
import { title, actor, actorOf, actorTitle, headline } from './describe.js';
import { turnOf } from './campaign.js';
import { setParams } from './route.js';

/** Whether `army` is named anywhere in an event's payload. */
export function mentions(data, army) {
  if (typeof data === 'string') return data === army || data.startsWith(`${army}:`);
  if (Array.isArray(data)) return data.some((v) => mentions(v, army));
  if (data && typeof data === 'object') return Object.values(data).some((v) => mentions(v, army));
  return false;
}

export async function mount(main, id, params) {
  const stream = id.startsWith('campaign-') ? id : `campaign-${id}`;
  const campaignId = stream.slice('campaign-'.length);
  const events = await streamEvents(stream);
  const turns = turnOf(events);
  const name = events[0]?.data?.name ?? stream;
  const armies = [...new Set(events.filter((e) => e.type.endsWith('.ArmyPlaced')).map((e) => e.data.army?.name).filter(Boolean))].sort();
  const unique = (list) => [...new Set(list)].sort();

  // Options are values, or `[value, text]` pairs (an actor's id, shown by name).
  const select = (key, label, options) => {
    const element = h('select', { name: key, 'aria-label': label },
      h('option', { value: '' }, `any ${label}`),
      options.map((o) => (Array.isArray(o) ? h('option', { value: o[0] }, o[1]) : h('option', { value: o }, String(o)))));
    element.value = params.get(key) ?? '';
    element.addEventListener('change', () => { setParams({ [key]: element.value }); draw(); });
    return element;
  };
  const filters = {
    actor: select('actor', 'actor', unique(events.map((e) => e.actor)).map((id) => [id, actor(actorOf(events.find((e) => e.actor === id)))])),
    role: select('role', 'role', unique(events.map((e) => e.who?.role).filter(Boolean))),
    army: select('army', 'army', armies),
    type: select('type', 'type', unique(events.map((e) => e.type))),
    turn: select('turn', 'turn', unique([...turns.values()]).map(String)),
  };
  const table = h('tbody', {});
  const counter = h('p', { class: 'muted' });

  const draw = () => {
    const f = Object.fromEntries(Object.entries(filters).map(([k, el]) => [k, el.value]));
    const shown = events.filter((e) => (!f.actor || e.actor === f.actor) && (!f.role || e.who?.role === f.role) &&
      (!f.type || e.type === f.type) &&
      (!f.turn || String(turns.get(e.version)) === f.turn) && (!f.army || mentions(e.data, f.army)));
    fill(counter, `${shown.length} of ${events.length} events`);
    fill(table, shown.map((e) => h('tr', { dataset: { version: e.version } },
      h('td', {}, String(e.version)),
      h('td', {}, String(turns.get(e.version))),
      h('td', {}, when(e.recorded_at)),
      h('td', { class: 'actor', title: actorTitle(actorOf(e)) }, actor(actorOf(e))),
      h('td', {}, h('details', {}, h('summary', {}, title(e.type), headline(e.data) ? h('span', { class: 'muted' }, ` — ${headline(e.data)}`) : ''),
        h('p', { class: 'muted' }, h('code', {}, e.type), ` · rules ${e.rules} · command ${e.command_id ?? '—'} · request ${e.correlation_id ?? '—'}`),
        value(e.data))),
      h('td', { class: 'links' },
        e.version > 0 ? h('a', { href: `#/campaigns/${campaignId}?at=${e.version - 1}`, class: 'before' }, 'before') : h('span', { class: 'muted' }, '—'),
        ' ', h('a', { href: `#/campaigns/${campaignId}?at=${e.version}`, class: 'after' }, 'after')))));
  };

  fill(main,
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'All campaigns and battles'), ' › ',
      h('a', { href: `#/campaigns/${campaignId}` }, name), ' › audit'),
    h('h1', {}, `${name}: every event`),
    h('form', { class: 'filters', onsubmit: (e) => e.preventDefault() }, Object.values(filters)),
    counter,
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'every event' }, h('table', { class: 'data audit' },
      h('thead', {}, h('tr', {}, ['version', 'turn', 'recorded', 'actor', 'what happened', 'map'].map((t) => h('th', { scope: 'col' }, t)))),
      table)));
  draw();
  return null;
}
