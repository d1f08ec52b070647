// The first page: finding a campaign or a battle. Each campaign round with its dates, turn and
// players, and its battles under it; then every battle of every registered ruleset with its
// rules, date, players and a short id. Filters (ruleset, status, player, campaign) go to the
// API's own list filters; the search box narrows what is loaded by name or id; pages follow the
// lists' `Link: rel="next"` (docs/API.md "Paging"). The filters live in the route's query, so a
// filtered list is a link. Refreshed live as streams are created or move on.

import { getJSON, getPage, rulesetList } from './api.js';
import { h, fill, problem, humanize, date } from './render.js';
import { follow } from './live.js';
import { setParams } from './route.js';

/** Battles and rounds shown per page (`?limit=` in the route changes it). */
const PAGE = 25;

/**
 * `01936f3e-…-0c64d1f3a002` → `d1f3a002`: enough to tell battles apart on a page. The end of the
 * id, not its start: ids begin with the time they were made (UUIDv7), so battles opened the same
 * minute share their first digits.
 */
export const shortId = (id) => String(id).slice(-8);

/** A round's or a battle's link name: its name, or who fights in it. */
const battleName = (b) => (b.participants?.length ? b.participants.join(' vs ') : `battle ${shortId(b.id)}`);

export async function mount(main, _id, params) {
  const filters = {
    q: params.get('q') ?? '',
    ruleset: params.get('ruleset') ?? '',
    status: params.get('status') ?? '',
    player: params.get('player') ?? '',
    campaign: params.get('campaign') ?? '',
  };
  const pageSize = Math.max(1, Math.min(1000, Number.parseInt(params.get('limit') ?? '', 10) || PAGE));
  const campaigns = h('section', { class: 'list campaigns', 'aria-labelledby': 'campaigns-heading' });
  const battles = h('section', { class: 'list battles', 'aria-labelledby': 'battles-heading' });
  const form = h('form', { class: 'filters find', role: 'search', onsubmit: (e) => e.preventDefault() });
  fill(main,
    h('h1', {}, 'Campaigns and battles'),
    h('p', { class: 'lead' }, 'Pick a campaign to watch its map turn by turn, or a battle to replay it event by event with every die checked in this page.'),
    form, campaigns, battles);

  const rulesets = await rulesetList();
  // A ruleset's name is its title up to a colon (`Warmachine: miniatures on…` → `Warmachine`);
  // the whole title is the cell's tooltip.
  const fullTitles = Object.fromEntries(rulesets.filter((r) => r.kind === 'battle').map((r) => [r.id, r.title]));
  const titles = Object.fromEntries(Object.entries(fullTitles).map(([id, title]) => [id, title.split(':')[0]]));
  let rounds = [];
  let roundsNext = null;
  let fights = [];
  let fightsNext = null;
  const underRound = new Map();

  const matches = (text) => !filters.q || String(text).toLowerCase().includes(filters.q.toLowerCase());

  const battleQuery = () => {
    const q = new URLSearchParams({ limit: String(pageSize) });
    if (filters.ruleset) q.set('ruleset', filters.ruleset);
    if (filters.status) q.set('ended', filters.status === 'over' ? 'true' : 'false');
    if (filters.player) q.set('player', filters.player);
    if (filters.campaign) q.set('campaign', filters.campaign);
    return `/v1/battles?${q}`;
  };

  const select = (name, label, options) => h('label', {},
    `${label} `,
    h('select', { name, onchange: (e) => { filters[name] = e.target.value; changed(); } },
      options.map(([value, text]) => h('option', { value, selected: filters[name] === value }, text))));

  const renderForm = () => {
    const players = [...new Set([...rounds.flatMap((r) => r.players ?? []), ...fights.flatMap((b) => b.players ?? []), filters.player].filter(Boolean))].sort();
    const search = h('input', { type: 'search', name: 'q', value: filters.q, placeholder: 'a name or an id', autocomplete: 'off' });
    search.addEventListener('input', () => { filters.q = search.value; setParams({ q: filters.q }); renderLists(); });
    fill(form,
      h('label', {}, 'Search ', search),
      select('ruleset', 'Rules', [['', 'any'], ...Object.entries(titles)]),
      select('status', 'Status', [['', 'any'], ['running', 'running'], ['over', 'over']]),
      select('player', 'Player', [['', 'anyone'], ...players.map((p) => [p, p])]),
      select('campaign', 'Campaign', [['', 'any or none'], ...rounds.map((r) => [r.stream.replace(/^campaign-/, ''), `${r.name || 'round'} (${shortId(r.stream)})`])]));
  };

  const roundRow = (c) => {
    const id = shortId(c.stream);
    const own = underRound.get(c.stream) ?? [];
    return h('li', { class: 'round', dataset: { campaign: c.stream } },
      h('h3', { class: 'round-name' }, h('a', { href: `#/campaigns/${c.stream.replace(/^campaign-/, '')}`, class: 'campaign-link' }, c.name || c.stream),
        ' ', h('span', { class: 'short-id', title: c.stream }, id)),
      h('p', { class: 'facts' },
        `turn ${c.turn}`, ' · ', humanize(c.phase?.phase ?? ''), ' · ',
        c.players?.length ? `players ${c.players.join(', ')}` : 'no players yet', ' · ',
        'set up ', date(c.created_at), ' · last move ', date(c.last_event_at),
        c.victory ? ` · won by ${c.victory.team ?? JSON.stringify(c.victory)}` : ''),
      own.length ? h('ul', { class: 'round-battles', 'aria-label': `battles of ${c.name || id}` }, own.map((b) => h('li', {},
        h('a', { href: `#/battles/${b.id}`, class: 'battle-link' }, battleName(b)), ' ',
        h('span', { class: 'muted' }, `${b.status}${b.winner ? `, winner ${b.winner}` : ''} · ${shortId(b.id)}`)))) :
        h('p', { class: 'muted' }, 'No battle announced yet.'));
  };

  const renderLists = () => {
    const shownRounds = rounds.filter((c) => matches(c.name) || matches(c.stream) || (c.players ?? []).some(matches));
    fill(campaigns, h('h2', { id: 'campaigns-heading' }, 'Campaigns'),
      shownRounds.length === 0 ? h('p', { class: 'muted' }, rounds.length ? 'No campaign matches.' : 'No campaign yet.') :
        h('ul', { class: 'rounds' }, shownRounds.map(roundRow)),
      roundsNext ? h('button', { type: 'button', class: 'more', onclick: () => more('rounds') }, 'More campaigns') : null);
    const shown = fights.filter((b) => matches(battleName(b)) || matches(b.id) || (b.players ?? []).some(matches));
    fill(battles, h('h2', { id: 'battles-heading' }, 'Battles'),
      shown.length === 0 ? h('p', { class: 'muted' }, fights.length ? 'No battle matches.' : 'No battle yet.') :
        h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'battles' }, h('table', { class: 'data battles-table' },
          h('thead', {}, h('tr', {}, ['Battle', 'Rules', 'Status', 'Last move', 'Players', 'Id'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, shown.map((b) => h('tr', { dataset: { ruleset: b.ruleset } },
            h('td', { dataset: { label: 'battle' } }, h('a', { href: `#/battles/${b.id}`, class: 'battle-link' }, battleName(b))),
            h('td', { title: `${fullTitles[b.ruleset] ?? b.ruleset} (${b.rules})`, dataset: { label: 'rules' } }, titles[b.ruleset] ?? b.ruleset),
            h('td', { dataset: { label: 'status' } }, humanize(b.status), b.winner ? ` · winner ${b.winner}` : ''),
            h('td', { dataset: { label: 'last move' } }, date(b.last_event_at ?? b.created_at)),
            h('td', { dataset: { label: 'players' } }, (b.players ?? []).join(', ') || '—'),
            h('td', { class: 'short-id', title: b.id, dataset: { label: 'id' } }, shortId(b.id))))))),
      h('p', { class: 'muted count' }, `${shown.length} shown${fightsNext ? '; more on the next page' : ''}`),
      fightsNext ? h('button', { type: 'button', class: 'more', onclick: () => more('battles') }, 'More battles') : null);
  };

  const battlesOf = async (list) => {
    await Promise.all(list.map(async (c) => {
      try { underRound.set(c.stream, await getJSON(`/v1/battles?campaign=${c.stream.replace(/^campaign-/, '')}`)); } catch { underRound.set(c.stream, []); }
    }));
  };

  const more = async (which) => {
    try {
      if (which === 'rounds' && roundsNext) {
        const page = await getPage(roundsNext);
        await battlesOf(page.items);
        rounds = [...rounds, ...page.items];
        roundsNext = page.next;
      } else if (which === 'battles' && fightsNext) {
        const page = await getPage(fightsNext);
        fights = [...fights, ...page.items];
        fightsNext = page.next;
      }
      renderLists();
    } catch (error) {
      fill(battles, problem(error));
    }
  };

  const load = async () => {
    try {
      const [roundPage, battlePage] = await Promise.all([getPage(`/v1/campaigns?limit=${pageSize}`), getPage(battleQuery())]);
      await battlesOf(roundPage.items);
      rounds = roundPage.items;
      roundsNext = roundPage.next;
      fights = battlePage.items;
      fightsNext = battlePage.next;
      renderForm();
      renderLists();
    } catch (error) {
      fill(campaigns, problem(error));
    }
  };

  const changed = () => {
    setParams({ ruleset: filters.ruleset, status: filters.status, player: filters.player, campaign: filters.campaign });
    load();
  };

  const from = await headPosition();
  await load();
  let pending = null;
  return follow(from, () => {
    // Many events arrive together; one refresh answers them all.
    clearTimeout(pending);
    pending = setTimeout(load, 300);
  });
}

/**
 * The `$all` position after the last event, to follow from (`/readyz` tells the head). Taken
 * before a page reads its stream, so nothing appended in between is missed.
 */
export async function headPosition() {
  const response = await fetch('/readyz', { headers: { Accept: 'application/json' } });
  const readiness = await response.json();
  return readiness.head === null || readiness.head === undefined ? 0 : readiness.head + 1;
}
