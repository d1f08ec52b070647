// The viewer's entry point: the token field, and a router over the location's hash
// (`#/campaigns/<id>?at=12`, `#/campaigns/<id>/audit`, `#/battles/<id>?at=3`) so every view
// is a link that can be shared and reloaded. Each page mounts into <main> and returns a
// function that stops what it started (live updates, playback).

import { token, getJSON } from './api.js';
import { fill, h, problem } from './render.js';
import { location } from './route.js';
import * as home from './home.js';
import * as campaign from './campaign.js';
import * as audit from './audit.js';
import * as battle from './battle.js';

const routes = [
  [/^\/campaigns\/([^/]+)\/audit$/, audit.mount],
  [/^\/campaigns\/([^/]+)$/, campaign.mount],
  [/^\/battles\/([^/]+)$/, battle.mount],
  [/^\/?$/, home.mount],
];

let unmount = null;

async function render() {
  if (unmount) { try { unmount(); } catch { /* already stopped */ } }
  unmount = null;
  const main = document.getElementById('main');
  const { path, params } = location();
  const route = routes.find(([pattern]) => pattern.test(path));
  if (!route) {
    fill(main, h('h1', {}, 'Not found'), h('p', {}, 'No page here. ', h('a', { href: '#/' }, 'Back to the list.')));
    return;
  }
  const [pattern, mount] = route;
  const match = path.match(pattern);
  try {
    fill(main, h('p', { class: 'muted' }, 'Loading…'));
    unmount = (await mount(main, decodeURIComponent(match[1] ?? ''), params)) ?? null;
  } catch (error) {
    fill(main, problem(error));
  }
}

async function showWho() {
  const who = document.getElementById('whoami');
  if (!token.get()) { fill(who, 'public view'); return; }
  try {
    const me = await getJSON('/v1/tokens/me');
    fill(who, `${me.role}${me.player ? ` (${me.player})` : ''}${me.label ? ` — ${me.label}` : ''}`);
  } catch (error) {
    fill(who, h('span', { class: 'error' }, `token refused: ${error.message}`));
  }
}

function setUpToken() {
  const form = document.getElementById('token-form');
  const input = document.getElementById('token');
  input.value = token.get();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    token.set(input.value.trim());
    showWho();
    render();
  });
  showWho();
}

window.addEventListener('hashchange', render);
setUpToken();
render();
