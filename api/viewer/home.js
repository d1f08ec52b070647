// The first page: every campaign round and every battle of every registered ruleset, each a
// link to its page, refreshed live as streams are created or move on.

import { getAll, rulesetList } from './api.js';
import { h, fill, problem, humanize } from './render.js';
import { follow } from './live.js';

export async function mount(main) {
  const campaigns = h('section', { class: 'list campaigns' });
  const battles = h('section', { class: 'list battles' });
  fill(main,
    h('h1', {}, 'Campaigns and battles'),
    h('p', { class: 'lead' }, 'Pick a campaign to watch its map turn by turn, or a battle to replay it event by event with every die checked in this page.'),
    campaigns, battles);

  const load = async () => {
    try {
      const [rounds, fights, rulesets] = await Promise.all([getAll('/v1/campaigns'), getAll('/v1/battles'), rulesetList()]);
      const titles = Object.fromEntries(rulesets.filter((r) => r.kind === 'battle').map((r) => [r.id, r.title]));
      fill(campaigns, h('h2', {}, 'Campaigns'), rounds.length === 0 ? h('p', { class: 'muted' }, 'No campaign yet.') :
        h('table', { class: 'data' },
          h('thead', {}, h('tr', {}, ['Round', 'Turn', 'Phase', 'Armies', 'Pending battles', 'Winner'].map((t) => h('th', {}, t)))),
          h('tbody', {}, rounds.map((c) => h('tr', {},
            h('td', {}, h('a', { href: `#/campaigns/${c.stream.replace(/^campaign-/, '')}`, class: 'campaign-link' }, c.name || c.stream)),
            h('td', {}, String(c.turn)),
            h('td', {}, humanize(c.phase?.phase ?? '')),
            h('td', {}, Object.entries(c.armies).map(([team, n]) => `${n} ${team}`).join(', ')),
            h('td', {}, String(c.pending_battles.length)),
            h('td', {}, c.victory ? (c.victory.team ?? JSON.stringify(c.victory)) : '—'))))));
      fill(battles, h('h2', {}, 'Battles'), fights.length === 0 ? h('p', { class: 'muted' }, 'No battle yet.') :
        h('table', { class: 'data' },
          h('thead', {}, h('tr', {}, ['Battle', 'Rules', 'Status', 'Turn', 'Winner', 'Events'].map((t) => h('th', {}, t)))),
          h('tbody', {}, fights.map((b) => h('tr', { dataset: { ruleset: b.ruleset } },
            h('td', {}, h('a', { href: `#/battles/${b.id}`, class: 'battle-link' }, b.participants.join(' vs ') || b.id)),
            h('td', { title: b.rules }, titles[b.ruleset] ?? b.ruleset),
            h('td', {}, b.status),
            h('td', {}, b.turn ?? '—'),
            h('td', {}, b.winner ?? (b.ended ? 'none' : '—')),
            h('td', {}, String(b.version + 1)))))));
    } catch (error) {
      fill(campaigns, problem(error));
    }
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
