// A stream's disputes and rulings (docs/API.md "Disputes"), shared by the battle and campaign
// pages: the list, and for a ruling that rests on a what-if, the what-if beside the record. The
// record is the stream as it stood when the judge ruled — its view at the version just before the
// ruling, uncorrected — not the stream now (after a correction the stream's state is the
// what-if's, so the two would be the same). The what-if is run again and its hash compared with
// the one the ruling names. Nothing here names a ruleset: views are drawn generically.

import { getJSON, postJSON } from './api.js';
import { h, fill, problem, value, when } from './render.js';
import { title, actor } from './describe.js';

/** A view's status and winner where it has them, shaped like a what-if's `summary`. */
function summaryOf(view) {
  const status = typeof view?.status === 'string' ? view.status : view?.status?.status;
  const winner = typeof view?.winner === 'string' ? view.winner : null;
  return status || winner ? { status: status ?? '', winner } : null;
}

/**
 * The disputes section of a stream's page. `viewAt(version)` reads the stream's view at a version
 * (the page's own `?at=` read); `goTo(version)` shows a version on the page's timeline.
 */
export function disputesSection({ stream, viewAt, goTo }) {
  let disputes = [];
  const panel = h('section', { class: 'disputes' });
  const whatIfPanel = h('section', { class: 'what-if' });

  const load = async () => {
    try { disputes = (await getJSON(`/v1/streams/${stream}/disputes`)).disputes ?? []; } catch { disputes = []; }
  };

  // One side: a summary line and the view, drawn generically.
  const endState = (label, end) => h('div', { class: 'end-state' },
    h('h3', {}, `${label} (version ${end.version})`),
    end.summary ? h('p', { class: 'end-summary' }, `${end.summary.status}${end.summary.winner ? ` · winner ${end.summary.winner}` : ''}`) : null,
    value(end.view));

  const showWhatIf = async (dispute) => {
    fill(whatIfPanel, h('p', { class: 'muted' }, 'Running the what-if…'));
    try {
      const before = dispute.ruling.version - 1;
      const [result, recordView] = await Promise.all([
        postJSON(`/v1/streams/${stream}/what-if`, dispute.ruling.change),
        viewAt(before),
      ]);
      const record = { version: before, summary: summaryOf(recordView), view: recordView };
      fill(whatIfPanel,
        h('h2', {}, `What-if beside the record: dispute on version ${dispute.version}`),
        h('p', {}, `Ruled ${dispute.ruling.ruling} at version ${dispute.ruling.version}: ${dispute.ruling.reason}`),
        h('p', {}, result.hash === dispute.ruling.what_if_hash
          ? `Hash ${result.hash} ✓ the one the ruling rests on.`
          : `Hash ${result.hash} — the ruling names ${dispute.ruling.what_if_hash ?? 'none'}.`),
        h('div', { class: 'what-if-sides' },
          endState('The record, as it stood when ruled on', record), endState('The what-if', result.what_if)),
        h('h3', {}, `${result.diff.length} events differ`),
        h('ol', { class: 'what-if-diff' }, result.diff.map((d) => h('li', {},
          `${d.version ?? '—'}: ${title(d.recorded_type ?? '')} → ${title(d.what_if_type ?? '')} `,
          h('span', { class: 'muted' }, d.fields.map((f) => `${f.path}: ${JSON.stringify(f.stored)} → ${JSON.stringify(f.replayed)}`).join('; '))))),
        result.refusals.length ? h('p', {}, `Refused in the what-if: ${result.refusals.map((r) => `${r.version} ${r.code}`).join(', ')}`) : null);
    } catch (error) {
      fill(whatIfPanel, problem(error));
    }
  };

  // A dispute's filer or judge (an `Actor`: id, role, player) as people read it, never a token id.
  const person = (who) => actor(who?.role ? { ...who, name: who.player ?? who.role } : who?.id);

  const streams = (label, list) => (list?.length ? h('p', { class: 'muted' }, `${label}: ${list.join(', ')}`) : null);

  const render = () => {
    if (!disputes.length) { fill(panel); return; }
    fill(panel, h('h2', {}, 'Disputes'),
      h('ul', { class: 'dispute-list' }, disputes.map((d) => h('li', { class: d.status, dataset: { dispute: d.id } },
        h('a', { href: '#', onclick: (e) => { e.preventDefault(); goTo(d.version); } }, `version ${d.version}`),
        ` · ${d.status} · `, h('q', {}, d.claim), h('span', { class: 'muted' }, ` (${person(d.filed_by)}, ${when(d.filed_at)})`),
        d.ruling ? h('p', {}, `Ruled ${d.ruling.ruling} by ${person(d.ruling.ruled_by)}: ${d.ruling.reason}`,
          d.ruling.what_if_hash ? h('span', { class: 'muted' }, ` · what-if ${d.ruling.what_if_hash.slice(0, 16)}…`) : null) : null,
        d.ruling ? streams('Carried from', d.ruling.carried_from ? [d.ruling.carried_from] : []) : null,
        d.ruling ? streams('Carried to', d.ruling.carried_to) : null,
        d.ruling ? streams('Battles opened by the correction', d.ruling.streams_opened) : null,
        d.ruling ? streams('Battles the correction dropped (left as they are, never applied)', d.ruling.streams_dropped) : null,
        d.ruling?.change ? h('button', { type: 'button', onclick: () => showWhatIf(d) }, 'Show the what-if beside the record') : null))),
      whatIfPanel);
  };

  return {
    element: panel,
    load,
    render,
    /** The disputes of the event at `version`. */
    of: (version) => disputes.filter((d) => d.version === version),
  };
}
