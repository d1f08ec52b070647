// A campaign round through time: the server's map (`map.svg?at=`) inlined so its armies can be
// clicked, the scrubber over the round's versions that replays it turn by turn, the Movement
// Judge's report of the turn shown beside it, and an army's troops by slot, losses by day, day
// counts and controller history at the version shown. Follows the live feed.

import { getAll, getJSON, getText, streamEvents } from './api.js';
import { h, fill, problem, svg, count, humanize, value, when } from './render.js';
import { title, summary, headline } from './describe.js';
import { timeline } from './timeline.js';
import { follow } from './live.js';
import { headPosition } from './home.js';
import { setParams } from './route.js';
import { clampAt } from './battle.js';
import { verifyCampaign } from './dice/campaign.js';
import { disputesSection } from './disputes.js';

/** Every draw of a stream's dice ledger, each naming its key, following `next` page by page. */
export async function ledgerDraws(stream) {
  const draws = [];
  let next = 0;
  while (next !== null && next !== undefined) {
    const page = await getJSON(`/v1/streams/${encodeURIComponent(stream)}/dice?from=${next}&limit=1000`);
    draws.push(...page.draws);
    next = page.next;
  }
  return draws;
}

/** Turn boundaries as marks: where each turn opens and where it is adjudicated. */
export function turnMarks(events) {
  return events.flatMap((e) => {
    if (e.type.endsWith('.TurnOpened')) return [{ version: e.version, label: `Turn ${e.data.turn} opened` }];
    if (e.type.endsWith('.TurnAdjudicated')) return [{ version: e.version, label: `Turn ${e.data.turn} adjudicated` }];
    return [];
  });
}

/** The turn each event belongs to: 0 before the first turn opens. */
export function turnOf(events) {
  const turns = new Map();
  let turn = 0;
  for (const e of events) {
    if (e.type.endsWith('.TurnOpened') && Number.isInteger(e.data.turn)) turn = e.data.turn;
    turns.set(e.version, turn);
  }
  return turns;
}

export async function mount(main, id, params) {
  const stream = id.startsWith('campaign-') ? id : `campaign-${id}`;
  const campaignId = stream.slice('campaign-'.length);
  const from = await headPosition();
  let events = await streamEvents(stream);
  let selected = params.get('army') ?? null;
  const cache = { armies: new Map(), reports: new Map() };

  const heading = h('h1', {}, 'Campaign');
  const status = h('p', { class: 'status' });
  const live = h('span', { class: 'live' }, '● live');
  const mapBox = h('div', { class: 'map', tabindex: 0, role: 'region', 'aria-label': 'the campaign map' });
  const eventLine = h('div', { class: 'event-line' });
  const armyPanel = h('section', { class: 'army-panel' }, h('h2', {}, 'Army'), h('p', { class: 'muted' }, 'Click an army on the map.'));
  const reportPanel = h('section', { class: 'report-panel' });
  const dicePanel = h('section', { class: 'dice-panel', tabindex: 0, 'aria-label': 'dice, checked in this browser' });
  let requested = 0;
  // The round's disputes (a movement adjudication, a bump, a sanction, a battle's carried
  // correction) and a ruling's what-if beside the record as it stood when ruled on.
  const disputes = disputesSection({
    stream,
    viewAt: (version) => getJSON(`/v1/campaigns/${campaignId}?at=${version}`),
    goTo: (version) => { scrubber.stop(); scrubber.set(version); },
  });

  const scrubber = timeline({
    max: Math.max(0, events.length - 1),
    value: clampAt(params.get('at'), events.length - 1),
    marks: turnMarks(events),
    playBy: 'mark',
    interval: 1500,
    describe: (v) => (events[v] ? title(events[v].type) : ''),
    onChange: (v) => { setParams({ at: v }); show(v); },
  });

  const armiesAt = (version) => {
    if (!cache.armies.has(version)) cache.armies.set(version, getAll(`/v1/campaigns/${campaignId}/armies?at=${version}`));
    return cache.armies.get(version);
  };
  const reportOf = (turn) => {
    if (!cache.reports.has(turn)) cache.reports.set(turn, getText(`/v1/campaigns/${campaignId}/turns/${turn}/report?format=text`, 'text/plain'));
    return cache.reports.get(turn);
  };

  const show = async (version) => {
    const ticket = ++requested;
    const event = events[version];
    fill(eventLine, event ? [h('span', { class: 'version' }, `v${version}`), ' ', summary(event),
      headline(event.data) ? h('span', { class: 'headline' }, ` — ${headline(event.data)}`) : null,
      ' ', h('a', { href: `#/campaigns/${campaignId}/audit`, class: 'muted' }, 'audit every event')] : '');
    try {
      const [view, map, armies] = await Promise.all([
        getJSON(`/v1/campaigns/${campaignId}?at=${version}`),
        getText(`/v1/campaigns/${campaignId}/map.svg?at=${version}`),
        armiesAt(version),
      ]);
      if (ticket !== requested) return;
      fill(heading, view.name || stream);
      fill(status, `turn ${view.turn}, ${humanize(view.phase?.phase ?? '')}`, ' · ',
        Object.entries(view.armies).map(([team, n]) => `${n} ${team}`).join(', ') || 'no armies', ' · ',
        view.pending_battles.length ? `${view.pending_battles.length} battles pending` : 'no battle pending',
        view.victory ? ` · won by ${view.victory.team ?? JSON.stringify(view.victory)}` : '', ' ', live);
      fill(mapBox, svg(map));
      markSelected();
      renderArmy(armies, version);
      renderReport(version);
    } catch (error) {
      if (ticket === requested) fill(mapBox, problem(error));
    }
  };

  const markSelected = () => {
    mapBox.querySelectorAll('.selected').forEach((n) => n.classList.remove('selected'));
    if (!selected) return;
    mapBox.querySelectorAll('[data-army]').forEach((n) => { if (n.dataset.army === selected) n.classList.add('selected'); });
  };

  const renderReport = async (version) => {
    const adjudicated = events.filter((e) => e.version <= version && e.type.endsWith('.TurnAdjudicated'));
    const last = adjudicated[adjudicated.length - 1];
    if (!last) {
      fill(reportPanel, h('h2', {}, 'Turn report'), h('p', { class: 'muted' }, 'No turn adjudicated yet at this version.'));
      return;
    }
    try {
      const text = await reportOf(last.data.turn);
      fill(reportPanel, h('h2', {}, `Turn ${last.data.turn}: the Movement Judge's report`),
        h('p', { class: 'muted' }, `adjudicated at version ${last.version}, ${when(last.recorded_at)}`),
        h('pre', { class: 'report', tabindex: 0 }, text));
    } catch (error) {
      fill(reportPanel, h('h2', {}, 'Turn report'), problem(error));
    }
  };

  /** Controllers of `army` over time, from its placing and every change, up to `version`. */
  const controllerHistory = (army, version) => events
    .filter((e) => e.version <= version)
    .flatMap((e) => {
      const d = e.data;
      if (e.type.endsWith('.ArmyPlaced') && d.army?.name === army) return [{ version: e.version, at: e.recorded_at, controllers: d.controllers, why: 'placed' }];
      if (e.type.endsWith('.ControllersSet') && d.army === army) return [{ version: e.version, at: e.recorded_at, controllers: d.controllers, why: 'changed' }];
      return [];
    });

  const renderArmy = (armies, version) => {
    if (!selected) return;
    const army = armies.find((a) => a.name === selected);
    if (!army) {
      fill(armyPanel, h('h2', {}, selected), h('p', { class: 'muted' }, `Not on the map at version ${version} (not yet placed, or killed).`));
      return;
    }
    const lines = army.lines;
    fill(armyPanel,
      h('h2', {}, army.name),
      h('p', {}, h('span', { class: `team ${army.team}` }, army.team), ` ${humanize(army.rank)} army at `, h('b', {}, army.square),
        `, ${count(army.troops)} troops`, army.battle ? [' · in ', h('a', { href: `#/battles/${army.battle}` }, 'a battle')] : ''),
      h('h3', {}, 'Troops by slot'),
      h('table', { class: 'data troops' },
        h('thead', {}, h('tr', {}, ['slot', 'creature', 'colors', 'P/T', 'troops', 'of'].map((t) => h('th', {}, t)))),
        h('tbody', {}, lines.map((l) => h('tr', {},
          h('td', {}, String(l.slot)), h('td', {}, l.creature), h('td', {}, l.colors.join(', ')),
          h('td', {}, `${l.power}/${l.toughness}`), h('td', {}, count(l.troops)), h('td', {}, count(l.full)))))),
      h('h3', {}, 'Losses by day'),
      army.losses_by_day.length
        ? h('table', { class: 'data' }, h('thead', {}, h('tr', {}, ['day', 'creature', 'troops lost'].map((t) => h('th', {}, t)))),
          h('tbody', {}, army.losses_by_day.map((e) => h('tr', {}, h('td', {}, String(e.day)),
            h('td', {}, lines[e.line]?.creature ?? `line ${e.line}`), h('td', {}, count(e.troops))))))
        : h('p', { class: 'muted' }, 'None during the current day count.'),
      h('h3', {}, 'Day counts'),
      h('p', {}, army.day_count ? `${army.day_count.days} days counted at ${army.day_count.square}` : 'Not counting days in a base, portal or town.',
        army.siege ? ` · besieging ${army.siege.square} for ${army.siege.days} days` : ''),
      army.pending_long_move.length ? [h('h3', {}, 'Long move still to do'), value(army.pending_long_move)] : null,
      h('h3', {}, 'Controllers'),
      h('ol', { class: 'history' }, controllerHistory(army.name, version).map((c) => h('li', {},
        h('a', { href: '#', onclick: (e) => { e.preventDefault(); scrubber.set(c.version); } }, `v${c.version}`),
        ` ${c.why}: ${c.controllers.join(', ') || 'nobody'}`))));
  };

  // The round's dice, checked here as a battle's are (docs/DICE.md "Campaign keys").
  const renderDice = async () => {
    try {
      const report = verifyCampaign(events, await ledgerDraws(stream));
      const checked = report.draws.filter((d) => d.verified).length;
      const sealedKeys = report.keys.filter((k) => k.sealed);
      const message = {
        verified: `All ${report.draws.length} dice verified: this page recomputed every one from its revealed key with its own ChaCha20, and checked every key against its commitment and the revealed root.`,
        partial: `${checked} of ${report.draws.length} dice verified from their revealed keys; ${sealedKeys.length} ${sealedKeys.length === 1 ? 'key is' : 'keys are'} still sealed.`,
        mismatch: `Mismatch: ${report.problems.join('; ')}`,
        'no-dice': 'No dice drawn yet.',
      }[report.status];
      const mark = (v) => (v === true ? '✓' : v === false ? '✗' : '—');
      fill(dicePanel,
        h('h2', {}, 'Dice, checked in this browser'),
        h('p', { class: `dice-status ${report.status}` }, message),
        h('table', { class: 'data keys' },
          h('thead', {}, h('tr', {}, ['key', 'dice', 'commitment', 'effective seed', 'from the root', 'state'].map((t) => h('th', {}, t)))),
          h('tbody', {}, report.keys.map((k) => h('tr', { dataset: { key: k.id }, class: k.problems.length ? 'mismatch' : k.sealed ? 'sealed' : 'checked' },
            h('td', {}, h('code', {}, k.id)), h('td', {}, String(k.draws)),
            h('td', { title: k.commitment ?? '' }, mark(k.commitmentMatches)),
            h('td', { title: k.effectiveSeed ?? '' }, k.sealed ? '—' : k.publishedEffectiveSeed ? mark(k.effectiveSeedMatches) : 'computed'),
            h('td', {}, k.id === 'stream' ? (k.sealed ? 'sealed' : 'the root') : k.derived === null ? 'root sealed' : mark(k.derived)),
            h('td', { class: 'state' }, k.problems.length ? k.problems.join('; ') : k.sealed ? `sealed: opens ${k.opens}` : 'checked'))))),
        h('details', {}, h('summary', {}, `${report.draws.length} draws`),
          h('table', { class: 'data draws' },
            h('thead', {}, h('tr', {}, ['version', 'key', 'purpose', 'word', 'sides', 'recorded', 'computed', ''].map((t) => h('th', {}, t)))),
            h('tbody', {}, report.draws.map((d) => h('tr', { class: d.verified ? 'verified' : d.verified === false ? 'mismatch' : 'sealed' },
              h('td', {}, String(d.version)), h('td', {}, d.key ?? 'stream'), h('td', {}, d.purpose ?? ''),
              h('td', {}, String(d.word)), h('td', {}, String(d.sides)), h('td', {}, String(d.value)),
              h('td', {}, d.computed === null ? '—' : String(d.computed)), h('td', {}, mark(d.verified))))))));
    } catch (error) {
      fill(dicePanel, h('h2', {}, 'Dice, checked in this browser'), problem(error));
    }
  };

  mapBox.addEventListener('click', (event) => {
    const mark = event.target.closest?.('g.battle[data-square]');
    if (mark) {
      // A battle mark opens the battle fought on that square.
      armiesAt(scrubber.value).then((armies) => {
        const fighting = armies.find((a) => a.square === mark.dataset.square && a.battle);
        if (fighting) window.location.hash = `#/battles/${fighting.battle}`;
      });
      return;
    }
    const target = event.target.closest?.('[data-army]');
    if (!target) return;
    selected = target.dataset.army;
    setParams({ army: selected });
    markSelected();
    armiesAt(scrubber.value).then((armies) => renderArmy(armies, scrubber.value)).catch((e) => fill(armyPanel, problem(e)));
  });

  fill(main,
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'All campaigns and battles'), ' › campaign · ',
      h('a', { href: `#/campaigns/${campaignId}/audit` }, 'audit')),
    heading, status, scrubber.element, eventLine,
    h('div', { class: 'campaign-grid' }, mapBox, h('div', { class: 'side' }, armyPanel, reportPanel, dicePanel)),
    disputes.element);
  show(scrubber.value);
  renderDice();
  disputes.load().then(disputes.render);

  let pending = null;
  const stopLive = follow(from, (event) => {
    if (event.stream !== stream) return;
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try {
        events = await streamEvents(stream);
        scrubber.extend(events.length - 1, turnMarks(events));
        renderDice();
        await disputes.load();
        disputes.render();
      } catch { /* the next event retries */ }
    }, 200);
  }, (state) => live.classList.toggle('off', state !== 'live'));
  return () => { scrubber.stop(); stopLive(); };
}
