// A battle of any registered ruleset, replayed: the scrubber over its versions, the ruleset's
// picture and view at each one (`?at=`), the event of that version in words with its command and
// its dice, every die recomputed by this page's own ChaCha20 (first mismatch highlighted), and
// live updates while the battle goes on. Nothing here names a ruleset: the picture's file name
// comes from `GET /v1/rulesets`, the view is drawn generically.

import { getAll, getJSON, getText, streamEvents, rulesetList } from './api.js';
import { h, fill, problem, value, svg, when, die } from './render.js';
import { title, summary, headline, commands, actor, actorOf, diceIn } from './describe.js';
import { timeline } from './timeline.js';
import { verifyEvents } from './dice/verify.js';
import { follow } from './live.js';
import { headPosition } from './home.js';
import { setParams } from './route.js';
import { sheetView, namesIn } from './sheet.js';
import { disputesSection } from './disputes.js';

export async function mount(main, id, params) {
  const stream = id.startsWith('battle-') ? id : `battle-${id}`;
  const battleId = stream.slice('battle-'.length);
  const from = await headPosition();
  const [current, rulesets, listing] = await Promise.all([
    getJSON(`/v1/battles/${battleId}`), rulesetList(), getAll('/v1/battles'),
  ]);
  const ruleset = rulesets.find((r) => r.id === current.ruleset && r.kind === 'battle');
  const line = listing.find((b) => b.stream === stream);
  let events = await streamEvents(stream);
  let report = verifyEvents(events);
  // Disputes and rulings (docs/API.md "Disputes"): listed, their events marked in the list, a
  // ruling's what-if beside the record as it stood when ruled on (disputes.js).
  const disputes = disputesSection({
    stream,
    viewAt: (version) => getJSON(`/v1/battles/${battleId}?at=${version}`),
    goTo: (version) => { scrubber.stop(); scrubber.set(version); },
  });
  await disputes.load();
  let suppliedSeed = '';

  const heading = h('h1', {}, line?.participants?.join(' vs ') || stream);
  const status = h('p', { class: 'status' });
  const live = h('span', { class: 'live', title: 'follows the live event feed' }, '● live');
  const picture = h('div', { class: 'picture', tabindex: 0, role: 'region', 'aria-label': 'the picture at this step' });
  const sheetPanel = h('section', { class: 'sheet' });
  const eventPanel = h('section', { class: 'event' });
  const dicePanel = h('section', { class: 'dice-panel', tabindex: 0, 'aria-label': 'dice, checked in this browser' });
  const statePanel = h('section', { class: 'state', tabindex: 0, 'aria-label': 'the battle at this step' });
  const eventList = h('section', { class: 'event-list' });
  let requested = 0;

  const writeStatus = () => fill(status,
    ruleset?.title ?? current.ruleset, ' · ', h('code', {}, events[0]?.rules ?? ''), ' · ',
    line?.status ?? '', line?.winner ? ` · winner ${line.winner}` : '', ' · ', `${events.length} events`, ' ', live);

  // A draw shown in a view is the same die as in its event: looked up by its tape word.
  const drawCheck = (draw) => report.draws.find((d) => d.word === draw.word && d.sides === draw.sides && d.value === draw.value)
    ?? report.draws.find((d) => d.word === draw.word && d.sides === draw.sides);

  const checksAt = (version) => {
    const map = new Map();
    for (const draw of report.draws) if (draw.version === version) map.set(draw.pointer, draw);
    return map;
  };

  const marks = () => commands(events).map((group, i) => ({
    version: group.events[0].version,
    label: `${i + 1}. ${title(group.events[0].type)}${group.events.length > 1 ? ` (+${group.events.length - 1})` : ''}`,
  }));

  const scrubber = timeline({
    max: Math.max(0, events.length - 1),
    value: clampAt(params.get('at'), events.length - 1),
    marks: marks(),
    playBy: 'event',
    interval: 1100,
    describe: (v) => (events[v] ? title(events[v].type) : ''),
    onChange: (v) => { setParams({ at: v }); show(v); },
  });

  const show = async (version) => {
    const ticket = ++requested;
    const event = events[version];
    renderEvent(event);
    highlightList(version);
    try {
      const [view, picture_, sheet] = await Promise.all([
        getJSON(`/v1/battles/${battleId}?at=${version}`),
        ruleset?.picture ? getText(`/v1/battles/${battleId}/${ruleset.picture}?at=${version}`) : Promise.resolve(null),
        // Rulesets that keep no sheets answer 404: the raw view below is then all there is.
        getJSON(`/v1/battles/${battleId}/sheet?at=${version}`).catch(() => null),
      ]);
      if (ticket !== requested) return;
      // What the step's event names (models, characters, armies) is marked on the sheets and
      // the picture: the last action, highlighted.
      const named = event ? namesIn(event.data) : new Set();
      fill(statePanel, h('h2', {}, 'The battle at this step'),
        h('details', { class: 'raw' }, h('summary', {}, 'Everything the view holds'), value(view, drawCheck),
          h('details', {}, h('summary', {}, 'As JSON'), h('pre', { class: 'json', tabindex: 0 }, JSON.stringify(view, null, 2)))));
      if (sheet) {
        fill(sheetPanel, h('h2', { id: 'sheet-heading' }, `Sheets: ${sheet.kind}`),
          h('p', { class: 'muted' }, 'Letters mark the sides; ◆ marks what this step\'s event names.'),
          sheetView(sheet, named));
      } else fill(sheetPanel);
      if (picture_) {
        const drawing = svg(picture_);
        markActed(drawing, named);
        fill(picture, drawing);
      } else fill(picture);
    } catch (error) {
      if (ticket === requested) fill(statePanel, problem(error));
    }
  };

  const renderEvent = (event) => {
    if (!event) { fill(eventPanel, h('p', { class: 'muted' }, 'No event.')); return; }
    const group = commands(events).find((g) => g.events.includes(event));
    const index = group ? group.events.indexOf(event) : 0;
    const checks = checksAt(event.version);
    const drawn = report.draws.filter((d) => d.version === event.version);
    fill(eventPanel,
      h('h2', {}, `Version ${event.version}: ${title(event.type)}`),
      h('p', {}, summary(event)),
      group && group.events.length > 1
        ? h('p', { class: 'muted' }, `Event ${index + 1} of ${group.events.length} produced by one command of ${actor(group.actor)}.`)
        : h('p', { class: 'muted' }, `One command of ${actor(actorOf(event))}.`),
      headline(event.data) ? h('p', { class: 'headline' }, headline(event.data)) : null,
      drawn.length ? h('div', { class: 'event-dice' },
        h('h3', {}, `${drawn.length} ${drawn.length === 1 ? 'die' : 'dice'} drawn`),
        h('ul', { class: 'draws' }, drawn.map((d) => h('li', { class: d.verified === false ? 'bad' : '' },
          die(d, d), ' ', h('span', { class: 'purpose' }, d.purpose || d.pointer),
          h('span', { class: 'muted' }, ` (tape word ${d.word})`))))) : null,
      h('details', { open: true }, h('summary', {}, 'Everything this event records'), value(event.data, checks)));
  };

  const highlightList = (version) => {
    eventList.querySelectorAll('li.current').forEach((li) => li.classList.remove('current'));
    const li = eventList.querySelector(`li[data-version="${version}"]`);
    if (li) { li.classList.add('current'); }
  };

  const renderList = () => {
    fill(eventList, h('h2', {}, 'Every command and its events'),
      h('ol', { class: 'commands' }, commands(events).map((group) => h('li', {},
        h('span', { class: 'muted' }, `${actor(group.actor)}, ${when(group.recorded_at)}`),
        h('ul', {}, group.events.map((event) => {
          const dice = report.draws.filter((d) => d.version === event.version);
          const bad = dice.some((d) => d.verified === false);
          const disputed = disputes.of(event.version);
          return h('li', { dataset: { version: event.version }, class: [bad ? 'bad' : '', disputed.length ? 'disputed' : ''].join(' ').trim() },
            h('a', { href: '#', onclick: (e) => { e.preventDefault(); scrubber.stop(); scrubber.set(event.version); } },
              `${event.version}. ${title(event.type)}`),
            dice.length ? h('span', { class: `dice-count ${bad ? 'mismatch' : dice.every((d) => d.verified) ? 'verified' : ''}` },
              ` ${dice.length} ${dice.length === 1 ? 'die' : 'dice'}${bad ? ' ✗' : dice.every((d) => d.verified) ? ' ✓' : ''}`) : null,
            disputed.length ? h('span', { class: 'disputed-mark', title: disputed.map((d) => d.claim).join('\n') },
              ` ⚑ disputed (${disputed.map((d) => d.status).join(', ')})`) : null);
        }))))));
  };

  const renderDice = () => {
    const verified = report.draws.filter((d) => d.verified === true).length;
    const headlineText = {
      verified: `All ${report.draws.length} dice verified: this page recomputed every one from the revealed seed with its own ChaCha20.`,
      mismatch: report.firstMismatch !== null
        ? `Mismatch: ${verified} of ${report.draws.length} dice verified; the first that differs is highlighted.`
        : `Mismatch: ${report.problems.join('; ')}.`,
      sealed: `${report.draws.length} dice recorded; the seed is still sealed, so none can be checked yet (it is revealed when the battle ends).`,
      'no-dice': 'No dice drawn yet.',
    }[report.status];
    const seedInput = h('input', { type: 'text', placeholder: 'a judge may paste the sealed seed (64 hex digits)', value: suppliedSeed, class: 'seed', spellcheck: 'false', 'aria-label': 'the sealed seed, 64 hex digits' });
    const fileInput = h('input', { type: 'file', accept: 'application/json,.json', class: 'file' });
    fileInput.addEventListener('change', async () => {
      const file = fileInput.files?.[0];
      if (!file) return;
      try {
        const parsed = JSON.parse(await file.text());
        const fromFile = verifyEvents(Array.isArray(parsed) ? parsed : parsed.events ?? []);
        fill(fileResult, h('p', { class: `verdict ${fromFile.status}` }, `${file.name}: ${fromFile.status}, ` +
          `${fromFile.draws.filter((d) => d.verified).length} of ${fromFile.draws.length} dice verified` +
          (fromFile.problems.length ? ` — ${fromFile.problems.join('; ')}` : '')));
      } catch (error) {
        fill(fileResult, problem(error));
      }
    });
    const fileResult = h('div', {});
    fill(dicePanel,
      h('h2', {}, 'Dice, checked in this browser'),
      h('p', { class: `verdict ${report.status}`, dataset: { status: report.status } }, headlineText),
      report.seed ? h('dl', { class: 'values seed' },
        h('dt', {}, 'commitment'), h('dd', {}, h('code', {}, report.commitment ?? '—'), report.commitmentMatches ? ' ✓ sha256(seed)' : report.commitmentMatches === false ? ' ✗ not sha256(seed)' : ''),
        h('dt', {}, 'seed'), h('dd', {}, h('code', {}, report.seed)),
        h('dt', {}, 'contributions'), h('dd', {}, report.contributions.length ? report.contributions.join(', ') : 'none'),
        h('dt', {}, 'effective seed'), h('dd', {}, h('code', {}, report.effectiveSeed ?? '—'),
          report.effectiveSeedMatches === true ? ' ✓ as published' : report.effectiveSeedMatches === false ? ' ✗ differs from the published one' : '')) : null,
      report.draws.length ? h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'every die' }, h('table', { class: 'data draws-table' },
        h('thead', {}, h('tr', {}, ['check', 'version', 'die', 'word', 'recorded', 'computed', 'purpose'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, report.draws.map((d, i) => h('tr', {
          class: [d.verified === false ? 'mismatch' : d.verified ? 'verified' : 'unchecked', i === report.firstMismatch ? 'first-mismatch' : ''].join(' '),
          dataset: { version: d.version, verified: d.verified === null ? 'unchecked' : String(d.verified) },
          tabindex: 0,
          onclick: () => { scrubber.stop(); scrubber.set(d.version); },
          onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); scrubber.stop(); scrubber.set(d.version); } },
        },
        h('td', { class: 'mark' }, d.verified === true ? '✓' : d.verified === false ? '✗' : '·'),
        h('td', {}, String(d.version)), h('td', {}, `d${d.sides}`), h('td', {}, String(d.word)),
        h('td', {}, String(d.value)), h('td', {}, d.computed === null ? '—' : String(d.computed)),
        h('td', {}, d.purpose)))))) : null,
      h('details', {}, h('summary', {}, 'Check with a seed, or a saved copy of the events'),
        h('form', { class: 'inline', onsubmit: (e) => { e.preventDefault(); suppliedSeed = seedInput.value.trim(); refresh(); } },
          seedInput, h('button', { type: 'submit' }, 'Check')),
        h('p', {}, h('label', {}, 'Events saved from ', h('code', {}, `GET /v1/streams/${stream}/events`), ': ', fileInput)), fileResult));
    const first = dicePanel.querySelector('tr.first-mismatch');
    if (first) first.scrollIntoView({ block: 'nearest' });
  };

  const refresh = () => {
    report = verifyEvents(events, { seed: suppliedSeed || undefined });
    writeStatus();
    renderDice();
    renderList();
    disputes.render();
  };

  fill(main,
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'All campaigns and battles'), ' › battle'),
    heading, status, scrubber.element,
    h('div', { class: 'battle-grid' }, h('div', { class: 'stage' }, picture, eventPanel, sheetPanel), h('div', { class: 'side' }, dicePanel, statePanel)),
    disputes.element, eventList);
  refresh();
  show(scrubber.value);

  let pending = null;
  const stopLive = follow(from, (event) => {
    if (event.stream !== stream) return;
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try {
        events = await streamEvents(stream);
        await disputes.load();
        const [fresh] = await Promise.all([getAll('/v1/battles')]);
        Object.assign(line ?? {}, fresh.find((b) => b.stream === stream) ?? {});
        refresh();
        scrubber.extend(events.length - 1, marks());
      } catch { /* the next event retries */ }
    }, 200);
  }, (state) => live.classList.toggle('off', state !== 'live'));
  return () => { scrubber.stop(); stopLive(); };
}

/**
 * Mark in a picture the things an event names: every element whose `data-model`, `data-mini`,
 * `data-figure` or `data-army` is one of `named` gets the class `acted` (drawn bold, outlined).
 */
export function markActed(drawing, named) {
  for (const element of drawing.querySelectorAll('[data-model], [data-mini], [data-figure], [data-army]')) {
    const name = element.dataset.model ?? element.dataset.mini ?? element.dataset.figure ?? element.dataset.army;
    if (named.has(name)) element.classList.add('acted');
  }
}

/** `?at=` as a version within the stream, the latest when absent. */
export function clampAt(text, max) {
  const n = Number.parseInt(text ?? '', 10);
  if (Number.isNaN(n)) return Math.max(0, max);
  return Math.max(0, Math.min(max, n));
}
