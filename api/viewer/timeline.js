// The scrubber over a stream's versions (`?at=`): first / back / play / forward / last, a
// slider, a jump list of marks (turns, or commands), and the label of the version shown.
// Playing steps from mark to mark when there are marks (a campaign replays turn by turn), or
// event by event.

import { h, fill } from './render.js';

/**
 * `options`: `max` (last version), `value`, `marks` ([{version, label}]), `describe(version)`
 * (a caption), `onChange(version)`, `playBy` ('mark' or 'event'), `interval` (ms).
 */
export function timeline(options) {
  let { max, value, marks = [] } = options;
  const playBy = options.playBy ?? 'event';
  let timer = null;

  const slider = h('input', { type: 'range', min: 0, max, value, step: 1, 'aria-label': 'version', class: 'slider' });
  const caption = h('span', { class: 'caption' });
  const jump = h('select', { 'aria-label': 'jump to', class: 'jump' });
  const play = h('button', { type: 'button', class: 'play', title: 'play' }, '▶ play');
  const button = (label, tip, action, cls) => h('button', { type: 'button', title: tip, class: cls, onclick: action }, label);

  const set = (version, notify = true) => {
    const next = Math.max(0, Math.min(max, version));
    value = next;
    slider.value = String(next);
    fill(caption, `version ${next} of ${max}`, options.describe ? ` — ${options.describe(next)}` : '');
    const current = [...marks].reverse().find((m) => m.version <= next);
    jump.value = current ? String(current.version) : '';
    if (notify) options.onChange(next);
  };
  const nextMark = () => marks.find((m) => m.version > value)?.version;
  const previousMark = () => [...marks].reverse().find((m) => m.version < value)?.version;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    fill(play, '▶ play');
  };
  const start = () => {
    if (value >= max) set(0);
    fill(play, '❚❚ pause');
    timer = setInterval(() => {
      const target = playBy === 'mark' && marks.length ? nextMark() ?? max : value + 1;
      set(target);
      if (value >= max) stop();
    }, options.interval ?? 900);
  };

  slider.addEventListener('input', () => { stop(); set(Number(slider.value)); });
  jump.addEventListener('change', () => { stop(); if (jump.value !== '') set(Number(jump.value)); });
  play.addEventListener('click', () => (timer ? stop() : start()));

  const renderMarks = () => {
    fill(jump, h('option', { value: '' }, 'jump to…'), marks.map((m) => h('option', { value: m.version }, m.label)));
  };
  renderMarks();

  const element = h('div', { class: 'timeline' },
    h('div', { class: 'controls' },
      button('first', 'first version', () => { stop(); set(0); }, 'first'),
      button('◀◀', 'previous turn or command', () => { stop(); set(previousMark() ?? 0); }, 'prev-mark'),
      button('◀', 'one event back', () => { stop(); set(value - 1); }, 'back'),
      play,
      button('▶', 'one event forward', () => { stop(); set(value + 1); }, 'forward'),
      button('▶▶', 'next turn or command', () => { stop(); set(nextMark() ?? max); }, 'next-mark'),
      button('latest', 'latest version', () => { stop(); set(max); }, 'last'),
      jump),
    slider, caption);
  set(value, false);

  return {
    element,
    get value() { return value; },
    get max() { return max; },
    set,
    stop,
    /** A new last version (live updates); follows it when the reader was at the end. */
    extend(newMax, newMarks) {
      const atEnd = value === max;
      max = newMax;
      marks = newMarks ?? marks;
      slider.max = String(max);
      renderMarks();
      set(atEnd && !timer ? max : value, atEnd && !timer);
    },
  };
}
