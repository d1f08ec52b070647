// The viewer in a real browser: Debian's chromium (installed by .ci/browser-setup), driven by
// playwright-core over CDP, against the real `herald` binary filled through its API. Opens a
// campaign and scrubs its timeline, audits it, steps a battle, checks that the page's own dice
// verification reports every die verified — and a mismatch, first one highlighted, when a die
// is tampered on its way to the page — that sealed strategies show only to a judge, that pages
// follow the live feed, and that no two labels of the server's pictures overlap as rendered.
// Finding things on the first page (filters, search, paging by `Link`), every ruleset's sheets,
// the last action marked, axe-core (pinned in package-lock.json) on every page type with no
// serious or critical violation, the timeline and sheets by keyboard alone, and every page type
// at a phone's 390 px without sideways scrolling (issue 31). Screenshots are kept under
// target/viewer-screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

import { startHerald, seed, ROOT, TARGET, ADMIN } from './lib/herald.mjs';

const SHOTS = join(TARGET, 'viewer-screenshots');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let herald;
let data;
let context;
let profile;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  herald = await startHerald();
  data = await seed(herald.base);
  profile = mkdtempSync(join(tmpdir(), 'herald-chromium-'));
  // A persistent context is how playwright takes a fresh --user-data-dir of our choosing.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width: 1400, height: 1000 },
  });
  context.setDefaultTimeout(20_000);
});

after(async () => {
  await context?.close();
  await herald?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A new page that fails the test on any script error. */
async function open(path) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.errors = errors;
  await page.goto(`${herald.base}/${path}`);
  return page;
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, name), fullPage: true });

/** The version shown and the last one, from the scrubber's caption. */
async function versions(page) {
  const text = await page.locator('.timeline .caption').textContent();
  const [, at, max] = text.match(/version (\d+) of (\d+)/);
  return { at: Number(at), max: Number(max) };
}

/** Boxes of the drawn labels (`text[textLength]`) under `selector`, as chromium laid them out, that overlap. */
async function overlappingLabels(page, selector) {
  return page.evaluate((root) => {
    const boxes = [...document.querySelectorAll(`${root} text[textLength]`)].map((t) => {
      const b = t.getBBox();
      return { x: b.x, y: b.y, w: b.width, h: b.height, text: t.textContent };
    });
    const bad = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        const tol = 0.5;
        if (a.x < b.x + b.w - tol && b.x < a.x + a.w - tol && a.y < b.y + b.h - tol && b.y < a.y + a.h - tol) bad.push([a.text, b.text]);
      }
    }
    return { count: boxes.length, bad };
  }, selector);
}

test('the first page lists every campaign with its dates, players and battles, and every battle of every ruleset', async () => {
  const page = await open('');
  await page.locator('a.campaign-link', { hasText: 'Round 1' }).waitFor();
  const rows = page.locator('table.battles-table > tbody > tr');
  assert.equal(await rows.count(), 6);
  for (const ruleset of ['coalition', 'warmachine', 'zone-rpg', 'swift-swords', 'percentile-skirmish']) {
    assert.ok(await page.locator(`tr[data-ruleset="${ruleset}"]`).count() >= 1, ruleset);
  }
  // A round: its turn, players, dates, and the battle its adjudication opened under it.
  const round = page.locator('li.round', { hasText: 'Round 1' });
  assert.match(await round.locator('.facts').textContent(), /turn 2 .*players alice, bob .*set up .*last move/);
  assert.equal(await round.locator('.facts time').count(), 2);
  assert.equal(await round.locator('ul.round-battles a.battle-link').getAttribute('href'), `#/battles/${data.campaignBattle}`);
  // A battle: its rules, a date, its players and a short id — never a bare token.
  const wm = page.locator('tr[data-ruleset="warmachine"]');
  assert.match(await wm.textContent(), /Warmachine|warmachine/);
  assert.equal(await wm.locator('td time').count(), 1);
  assert.match(await wm.locator('td').nth(4).textContent(), /alice, bob/);
  assert.equal(await wm.locator('td.short-id').textContent(), data.warmachine.slice(-8));
  await shot(page, '01-home.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the first page filters by ruleset, status, player and campaign, searches by name, and pages by Link', async () => {
  const page = await open('#/?limit=2');
  await page.locator('a.campaign-link', { hasText: 'Round 1' }).waitFor();
  const rows = page.locator('table.battles-table > tbody > tr');
  // Two a page: "More battles" follows the list's Link header until the last page.
  assert.equal(await rows.count(), 2);
  for (let expected = 4; expected <= 6; expected += 2) {
    await page.getByRole('button', { name: 'More battles' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('table.battles-table > tbody > tr').length === n, expected);
  }
  assert.equal(await page.getByRole('button', { name: 'More battles' }).count(), 0, 'no next page after the last');
  const filter = async (name, value, count) => {
    await page.locator(`form.find select[name="${name}"]`).selectOption(value);
    await page.waitForFunction(([n]) => document.querySelectorAll('table.battles-table > tbody > tr').length === n
      || (n === 0 && document.querySelector('.battles p.muted')), [count]);
  };
  await page.goto(`${herald.base}/#/`);
  await page.locator('table.battles-table > tbody > tr').nth(5).waitFor();
  await filter('ruleset', 'zone-rpg', 1);
  assert.match(await rows.first().textContent(), /Zone|zone/);
  await filter('ruleset', '', 6);
  await filter('status', 'over', 1);
  assert.equal(await rows.first().getAttribute('data-ruleset'), 'coalition', 'only the campaign battle is resolved');
  await filter('status', '', 6);
  await filter('campaign', data.campaign, 1);
  await filter('campaign', '', 6);
  await filter('player', 'bob', 5);
  assert.match(page.url(), /player=bob/, 'a filtered list is a link');
  await filter('player', '', 6);
  await page.locator('form.find input[name="q"]').fill('weatherlight');
  await page.waitForFunction(() => document.querySelectorAll('table.battles-table > tbody > tr').length === 1);
  assert.match(await rows.first().textContent(), /Weatherlight vs Rathi Fleet/);
  await page.locator('form.find input[name="q"]').fill(data.zoneRpg.slice(-8));
  await page.waitForFunction(() => document.querySelectorAll('table.battles-table > tbody > tr').length === 1);
  assert.equal(await rows.first().getAttribute('data-ruleset'), 'zone-rpg', 'a short id finds its battle');
  await shot(page, '01b-home-search.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a campaign map is titled and labelled, and scrubbing the timeline replays its turns', async () => {
  const page = await open(`#/campaigns/${data.campaign}`);
  await page.locator('.map svg .army-label').first().waitFor();
  assert.match(await page.locator('.map svg .title').textContent(), /Round 1 \(turn 2\)/);
  for (const name of ['Benalia', 'Portal of Yawgmoth', 'Red Base']) {
    assert.equal(await page.locator('.map svg .site-label', { hasText: name }).count(), 1, name);
  }
  assert.match(await page.locator('.map svg .army-label[data-army="Gerrard"]').textContent(), /Gerrard 5,000/);
  assert.ok(await page.locator('.map svg .legend').count());

  // Back to the first version: the round exists, no army is placed yet.
  await page.getByRole('button', { name: 'first' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.map svg rect.army').length === 0);
  assert.equal((await versions(page)).at, 0);
  // Jump to the end of turn 1: the armies have moved and a battle is marked at 8E.
  await page.locator('.timeline select.jump').selectOption({ label: 'Turn 1 adjudicated' });
  await page.locator('.map svg g.battle[data-square="8E"]').waitFor();
  await page.locator('.report-panel h2', { hasText: 'Turn 1' }).waitFor();
  assert.match(await page.locator('.report-panel pre').textContent(), /Sai Rei/);
  assert.equal(await page.locator('.map svg rect.army').count(), 4);
  const { at: turnOne } = await versions(page);
  // Play: the page replays on by itself, turn by turn.
  await page.locator('.timeline button.play').click();
  await page.waitForFunction((from) => /version (\d+)/.exec(document.querySelector('.timeline .caption').textContent)[1] > from, turnOne);
  await page.locator('.timeline button.play').click();
  assert.ok((await versions(page)).at > turnOne);

  // An army's details: troops by slot, losses, day counts, controller history.
  await page.getByRole('button', { name: 'latest' }).click();
  await page.locator('.map svg rect.army[data-army="Sai Rei"]').click();
  await page.locator('.army-panel h2', { hasText: 'Sai Rei' }).waitFor();
  assert.match(await page.locator('.army-panel table.troops').textContent(), /Kris Mage/);
  assert.match(await page.locator('.army-panel ol.history').textContent(), /placed: alice/);
  assert.match(await page.locator('.army-panel').textContent(), /Losses by day/);

  const labels = await overlappingLabels(page, '.map svg');
  assert.ok(labels.count > 50, `labels drawn: ${labels.count}`);
  assert.deepEqual(labels.bad, [], 'no two labels of the map overlap as chromium draws them');
  await shot(page, '02-campaign.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the audit view filters every event and links to the state just before and after it', async () => {
  const page = await open(`#/campaigns/${data.campaign}/audit`);
  await page.locator('table.audit > tbody > tr').first().waitFor();
  const all = await page.locator('table.audit > tbody > tr').count();
  // Actors read as people (issue 28 item 1): a player's name or a role, never a token id; the
  // judge's label stays hidden from this anonymous reader; a role filters.
  const cells = page.locator('table.audit > tbody > tr > td.actor');
  const actors = await cells.allTextContents();
  assert.equal(actors.length, all);
  assert.ok(actors.every((a) => !a.includes('token:')), actors.join(', '));
  assert.ok(actors.includes('bob (player)') && actors.includes('judge'), [...new Set(actors)].join(', '));
  assert.match(await cells.filter({ hasText: /^judge$/ }).first().getAttribute('title'), /label hidden/);
  await page.locator('form.filters select[name="role"]').selectOption('player');
  const players = await cells.allTextContents();
  assert.ok(players.length > 0 && players.length < all && players.every((a) => a.endsWith('(player)')), players.join(', '));
  await page.locator('form.filters select[name="role"]').selectOption('');
  await page.locator('form.filters select[name="army"]').selectOption('Plague Host');
  const forArmy = await page.locator('table.audit > tbody > tr').count();
  assert.ok(forArmy > 0 && forArmy < all, `${forArmy} of ${all}`);
  await page.locator('form.filters select[name="turn"]').selectOption('1');
  await page.locator('form.filters select[name="type"]').selectOption('coalition.OrdersPosted');
  assert.equal(await page.locator('table.audit > tbody > tr').count(), 1, 'the one private post by Plague Host in turn 1');
  await page.locator('form.filters select[name="type"]').selectOption('');
  await page.locator('form.filters select[name="turn"]').selectOption('');
  // A named thing in a payload reads as its name, not as a count of its fields.
  await page.locator('table.audit > tbody > tr', { hasText: 'Army placed' }).filter({ hasText: 'army: Plague Host' }).waitFor();
  await shot(page, '03-audit.png');
  const row = page.locator('table.audit > tbody > tr').first();
  const version = Number(await row.getAttribute('data-version'));
  await row.locator('a.after').click();
  await page.locator('.map svg').waitFor();
  assert.equal((await versions(page)).at, version);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a campaign's dice are checked in the page: every revealed key and draw, the sealed keys with when they open", async () => {
  // The seeded round, two turns adjudicated: turn:1, turn:2, interval:0 and interval:1 are
  // revealed (turn 1 mixed two players' entropy; interval:1 drew the judge's roll between turns);
  // the root and interval:2 are sealed.
  const page = await open(`#/campaigns/${data.campaign}`);
  const status = page.locator('.dice-panel .dice-status');
  await status.waitFor();
  const ledger = await data.call('GET', `/v1/streams/campaign-${data.campaign}/dice?limit=1000`);
  const total = ledger.draws.length;
  assert.ok(ledger.draws.some((d) => d.key === 'interval:1') && ledger.draws.some((d) => d.key === 'turn:1'), JSON.stringify(ledger.draws.map((d) => d.key)));
  assert.equal(await status.getAttribute('class'), 'dice-status partial');
  assert.match(await status.textContent(), new RegExp(`^${total} of ${total} dice verified`));
  for (const key of ['turn:1', 'turn:2', 'interval:0', 'interval:1']) {
    assert.equal(await page.locator(`.dice-panel tr[data-key="${key}"] td.state`).textContent(), 'checked', key);
  }
  assert.equal(await page.locator('.dice-panel tr[data-key="stream"] td.state').textContent(), 'sealed: opens when the round ends');
  assert.equal(await page.locator('.dice-panel tr[data-key="interval:2"] td.state').textContent(), "sealed: opens with turn 3's adjudication");
  await shot(page, '03b-campaign-dice.png');
  assert.deepEqual(page.errors, []);
  await page.close();

  // A round played and closed by an admin: the root is revealed, every key derives from it.
  const created = await data.call('POST', '/v1/campaigns', data.judge, {
    name: 'Closed round', map: { terrain: {}, sites: {} },
    armies: [{ army: { name: 'Barrin', team: 'coalition', rank: 'cpl_lt_commander', creator: null, colors: ['blue', 'green', 'red'],
      troops: [{ creature: 'Merfolk', colors: ['blue'], power: 1, toughness: 1, slot: 0, full: 5000, troops: 5000 }] },
    controllers: ['alice'], start: { by: 'square', square: '13E' } }],
    options: { enforce_army_counts: false, enforce_site_counts: false },
  });
  const closed = created.stream.replace(/^campaign-/, '');
  const c = `/v1/campaigns/${closed}`;
  await data.call('POST', `${c}/turns`, data.judge, { deadline: '2030-12-01T05:00:00Z' });
  await data.call('POST', `${c}/entropy`, data.alice, { entropy: 'alice' });
  await data.call('POST', `${c}/orders`, data.alice, { text: 'Barrin: 13E > 11F' });
  await data.call('POST', `${c}/lock`, data.judge);
  await data.call('POST', `${c}/adjudicate`, data.judge);
  await data.call('POST', `/v1/streams/${created.stream}/rolls`, data.judge, { expression: 'd6', purpose: 'sanction: a judge roll after turn 1' });
  await data.call('POST', `${c}/close`, ADMIN, { reason: 'the test is over' });
  const done = await open(`#/campaigns/${closed}`);
  const verdict = done.locator('.dice-panel .dice-status');
  await verdict.waitFor();
  assert.equal(await verdict.getAttribute('class'), 'dice-status verified', await verdict.textContent());
  const rows = done.locator('.dice-panel table.keys > tbody > tr');
  assert.ok(await rows.count() >= 4);
  for (const row of await rows.all()) {
    const key = await row.getAttribute('data-key');
    assert.equal(await row.locator('td.state').textContent(), 'checked', key);
    if (key !== 'stream') assert.equal(await row.locator('td').nth(4).textContent(), '✓', `${key} derives from the root`);
  }
  assert.deepEqual(done.errors, []);
  await done.close();
});

test('a battle is stepped event by event and every die is verified by the page', async () => {
  // Reached from the campaign: the battle marked on the map at the end of turn 1.
  const page = await open(`#/campaigns/${data.campaign}`);
  await page.locator('.map svg .army-label').first().waitFor();
  await page.locator('.timeline select.jump').selectOption({ label: 'Turn 1 adjudicated' });
  await page.locator('.map svg g.battle[data-square="8E"]').click();
  await page.waitForURL((url) => url.hash === `#/battles/battle-${data.campaignBattle}`);
  await page.locator('.verdict[data-status]').waitFor();
  assert.equal(await page.locator('.verdict').getAttribute('data-status'), 'verified');
  const rows = page.locator('.draws-table tbody tr');
  assert.equal(await rows.count(), 8, 'four d20 a side');
  for (const verified of await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.verified))) assert.equal(verified, 'true');

  await page.getByRole('button', { name: 'first' }).click();
  await page.locator('.event h2', { hasText: 'Version 0: Battle created' }).waitFor();
  for (let i = 0; i < 6; i++) await page.getByRole('button', { name: '▶', exact: true }).click();
  await page.locator('.event h2', { hasText: 'Battle resolved' }).waitFor();
  assert.equal(await page.locator('.event .event-dice .die.verified').count(), 8);
  assert.match(await page.locator('.event .headline').textContent(), /winner/);
  await shot(page, '04-battle.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a die tampered on its way to the page is a mismatch, the first one highlighted', async () => {
  const page = await context.newPage();
  let tampered = null;
  await page.route(`**/v1/streams/battle-${data.campaignBattle}/events**`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const resolved = body.events.find((e) => e.type === 'coalition.BattleResolved');
    const draw = resolved.data.dice.a[2].draw;
    draw.value = (draw.value % draw.sides) + 1;
    tampered = draw.value;
    await route.fulfill({ response, json: body });
  });
  await page.goto(`${herald.base}/#/battles/${data.campaignBattle}`);
  await page.locator('.verdict[data-status]').waitFor();
  assert.equal(await page.locator('.verdict').getAttribute('data-status'), 'mismatch');
  const first = page.locator('.draws-table tr.first-mismatch');
  assert.equal(await first.count(), 1);
  assert.equal(await first.locator('td').nth(4).textContent(), String(tampered));
  assert.equal(await page.locator('.draws-table tr[data-verified="false"]').count(), 1, 'only the tampered die');
  await first.click();
  await page.locator('.event .die.mismatch').first().waitFor();
  await shot(page, '05-battle-tampered.png');
  await page.close();
});

test("the page's own ChaCha20 reproduces the vectors of DICE.md inside chromium", async () => {
  const page = await open('');
  const dice = readFileSync(join(ROOT, 'docs/DICE.md'), 'utf8');
  const row = dice.split('\n').find((line) => line.startsWith('| `000102') && line.includes('| 20 |'));
  const expected = row.split('|')[4].split(',').map((n) => Number(n.trim()));
  const computed = await page.evaluate(async () => {
    const { Tape } = await import('/viewer/dice/chacha20.js');
    const { fromHex } = await import('/viewer/dice/sha256.js');
    const tape = new Tape(fromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'));
    const out = [];
    let next = 0;
    for (let i = 0; i < 10; i++) { const d = tape.die(next, 20); out.push(d.value); next = d.next; }
    return out;
  });
  assert.deepEqual(computed, expected);
  await page.close();
});

test('a warmachine battle shows its table at each step with labels apart and its dice verified', async () => {
  const page = await open(`#/battles/${data.warmachine}`);
  await page.locator('.picture svg').waitFor();
  await page.locator('.verdict[data-status="verified"]').waitFor();
  assert.ok(await page.locator('.draws-table tbody tr[data-verified="true"]').count() >= 2);
  const labels = await overlappingLabels(page, '.picture svg');
  assert.ok(labels.count >= 6, `labels drawn: ${labels.count}`);
  assert.deepEqual(labels.bad, []);
  assert.match(await page.locator('.picture svg .label[data-model="blue-jack"]').textContent(), /blue-jack \d+\/30/);
  await page.getByRole('button', { name: 'first' }).click();
  await page.locator('.picture svg .turn', { hasText: 'before the first turn' }).waitFor();
  await shot(page, '06-warmachine-start.png');
  await page.getByRole('button', { name: 'latest' }).click();
  await page.locator('.picture svg .turn', { hasText: 'turn 1' }).waitFor();
  await shot(page, '07-warmachine.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('sealed strategies show as sealed to the public and in full to a judge', async () => {
  const page = await open(`#/battles/${data.openBattle}`);
  await page.locator('.state h2').waitFor();
  // The latest event is Rathi Fleet's strategy: sealed for the public, in the event and the view.
  await page.locator('.event .sealed').first().waitFor();
  assert.equal(await page.getByText('Ram the flagship').count(), 0);
  assert.equal(await page.getByText('Board them from the clouds').count(), 0);
  assert.equal(await page.locator('.verdict').getAttribute('data-status'), 'no-dice');
  await page.locator('#token').fill(data.judge);
  await page.locator('#token-form button').click();
  await page.locator('#whoami', { hasText: 'judge' }).waitFor();
  await page.locator('.event', { hasText: 'Ram the flagship' }).waitFor();
  await page.locator('.state details.raw > summary').click();
  await page.locator('.state', { hasText: 'Board them from the clouds' }).waitFor();
  await shot(page, '08-sealed-judge-view.png');
  await page.locator('#token').fill('');
  await page.locator('#token-form button').click();
  await page.locator('#whoami', { hasText: 'public view' }).waitFor();
  await page.locator('.event .sealed').first().waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an open campaign page follows the live feed without a reload', async () => {
  const page = await open(`#/campaigns/${data.campaign}`);
  await page.locator('.map svg .army-label').first().waitFor();
  const before = await versions(page);
  assert.equal(before.at, before.max);
  await data.call('POST', `/v1/campaigns/${data.campaign}/turns`, data.judge, { deadline: '2030-12-03T05:00:00Z' });
  await page.waitForFunction((max) => new RegExp(`version ${max + 1} of ${max + 1}`).test(document.querySelector('.timeline .caption').textContent), before.max);
  await page.locator('.map svg .title', { hasText: 'turn 3' }).waitFor();
  await shot(page, '09-campaign-live.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an open battle page follows the live feed without a reload', async () => {
  const page = await open(`#/battles/${data.openBattle}`);
  await page.locator('.state h2').waitFor();
  const before = await versions(page);
  assert.equal(before.at, before.max);
  await data.call('POST', `/v1/battles/${data.openBattle}/strategy-bonuses`, data.judge, { side: 'a', bonus: 5 });
  await page.waitForFunction((max) => new RegExp(`version ${max + 1} of ${max + 1}`).test(document.querySelector('.timeline .caption').textContent), before.max);
  await page.locator('.event', { hasText: 'Strategy bonus assigned' }).first().waitFor();
  await shot(page, '10-battle-live.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a battle's disputes are listed, the disputed event marked, and the ruling's what-if shown beside the record", async () => {
  const { call, judge, alice, bob } = data;
  const created = await call('POST', '/v1/battles', judge, {
    armies: {
      a: { name: 'Benalish Guard', team: 'coalition', rank: 'cpl_lt_commander', controller: 'alice',
        slots: [{ creature: 'Benalish Hero', colors: ['white'], power: 1, toughness: 1, troops: 5000 }] },
      b: { name: 'Skyshroud Raiders', team: 'phyrexia', rank: 'cpl_lt_commander', controller: 'bob',
        slots: [{ creature: 'Phyrexian Broodlings', colors: ['black'], power: 2, toughness: 2, troops: 5000 }] },
    },
    engagement: { kind: 'attack', attacker: 'a' }, terrain: 'plains', strategy_deadline: '2030-12-01T18:00:00Z',
  });
  const stream = created.stream;
  const b = `/v1/battles/${stream.replace(/^battle-/, '')}`;
  await call('POST', `${b}/strategies`, alice, { side: 'a', strategy: 'Shield wall on the road' });
  await call('POST', `${b}/strategies`, bob, { side: 'b', strategy: 'Raid the camp' });
  const bonus = await call('POST', `${b}/strategy-bonuses`, judge, { side: 'a', bonus: 8 });
  await call('POST', `${b}/strategy-bonuses`, judge, { side: 'b', bonus: 3 });
  await call('POST', `${b}/resolve`, judge, {});
  const version = bonus.events[0].version;
  const dispute = await call('POST', `/v1/streams/${stream}/disputes`, bob, { version, claim: 'A shield wall is no plan: 2, not 8.' });
  const change = { version, command: { type: 'assign_strategy_bonus', side: 'a', bonus: 2 } };
  const whatIf = await call('POST', `/v1/streams/${stream}/what-if`, judge, change);
  const ruled = await call('POST', `/v1/streams/${stream}/disputes/${dispute.id}/ruling`, judge,
    { ruling: 'corrected', reason: 'graded again', what_if: change, what_if_hash: whatIf.hash });

  const page = await open(`#/battles/${stream}`);
  await page.locator('.disputes .dispute-list li').first().waitFor();
  assert.match(await page.locator('.disputes .dispute-list li').first().textContent(), /corrected/);
  assert.equal(await page.locator(`.event-list li.disputed[data-version="${version}"]`).count(), 1);
  await page.getByRole('button', { name: 'Show the what-if beside the record' }).click();
  await page.locator('.what-if-sides .end-state').nth(1).waitFor();
  assert.equal(await page.locator('.what-if-sides .end-state').count(), 2, 'the record and the what-if');
  assert.match(await page.locator('.what-if').textContent(), /the one the ruling rests on/);
  // The record is the battle as it stood when the judge ruled (uncorrected), not the battle now.
  const [record, what] = [page.locator('.what-if-sides .end-state').nth(0), page.locator('.what-if-sides .end-state').nth(1)];
  assert.match(await record.locator('h3').textContent(), new RegExp(`version ${ruled.ruling.version - 1}\\)`));
  assert.match(await record.locator('.end-summary').textContent(), new RegExp(`winner ${whatIf.recorded.view.winner}$`));
  assert.match(await what.locator('.end-summary').textContent(), new RegExp(`winner ${whatIf.what_if.summary.winner}$`));
  const now = await call('GET', b, judge);
  assert.equal(now.winner, whatIf.what_if.view.winner, 'the battle now is the what-if');
  assert.notEqual(await record.textContent(), await what.textContent(), 'the record column is not the corrected battle');
  await shot(page, '10-dispute.png');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Open a battle at its latest step and wait for its sheets. */
async function battleWithSheets(id) {
  const page = await open(`#/battles/${id}`);
  await page.locator('.sheet .sheets').waitFor();
  return page;
}

test("every ruleset's battle reads as its players' sheets, the raw view one click away", async () => {
  const expect = [
    // [battle, kind, a card, what its card shows]
    [data.campaignBattle, 'army roster', 'Sai Rei', /Kris Mage/],
    [data.warmachine, 'model cards', 'red-jack', /DEF\s*12.*ARM\s*18/s],
    [data.zoneRpg, 'character sheets', 'Balthasar', /WIT\s*12.*AGI\s*10.*STR\s*14.*sword/s],
    [data.swiftSwords, 'figure cards', 'roland', /physical.*rank.*dodge/s],
    [data.skirmish, 'minis', 'red-knight', /life.*movement.*spells.*effects/s],
  ];
  for (const [id, kind, card, shows] of expect) {
    const page = await battleWithSheets(id);
    assert.equal(await page.locator('.sheets').getAttribute('data-kind'), kind);
    const marks = await page.locator('.sheet-group').evaluateAll((groups) => groups.map((g) => g.dataset.mark));
    assert.deepEqual(marks.slice(0, 2), ['A', 'B'], `${kind}: sides told apart by letters`);
    const cardEl = page.locator(`details.card[data-card="${card}"]`);
    assert.match(await cardEl.textContent(), shows, kind);
    assert.equal(await cardEl.locator('summary .side-mark').count(), 1, `${kind}: each card carries its side's mark`);
    // The raw view: closed, one click away.
    const raw = page.locator('.state details.raw');
    assert.equal(await raw.getAttribute('open'), null);
    await raw.locator('> summary').click();
    await raw.locator('dl.values').first().waitFor();
    await shot(page, `11-sheet-${kind.replaceAll(' ', '-')}.png`);
    assert.deepEqual(page.errors, [], kind);
    await page.close();
  }
  // The tracks and grids: a warjack's grid box by box, a character's health as a meter.
  const wm = await battleWithSheets(data.warmachine);
  assert.equal(await wm.locator('details.card[data-card="red-jack"] table.damage-grid thead th').count(), 6);
  assert.ok(await wm.locator('details.card[data-card="red-jack"] table.damage-grid td.box').count() >= 20);
  await wm.close();
  const zr = await battleWithSheets(data.zoneRpg);
  assert.match(await zr.locator('details.card[data-card="bandit"] meter').getAttribute('aria-label'), /^health: \d+ of 30$/);
  await zr.close();
});

test('zone pictures name their zones and the characters in each, and the last action is marked at each step', async () => {
  const zr = await open(`#/battles/${data.zoneRpg}`);
  await zr.locator('.picture svg .zone-name').first().waitFor();
  const zones = await zr.locator('.picture svg .zone-name').allTextContents();
  assert.deepEqual(zones.sort(), ['road', 'thicket']);
  for (const who of ['Balthasar', 'Theobald', 'bandit']) assert.equal(await zr.locator(`.picture svg [data-figure="${who}"]`).count(), 1, who);
  // Factions told apart by a letter on each character, not colour alone.
  assert.match(await zr.locator('.picture svg [data-figure="Balthasar"]').textContent(), /^A Balthasar/);
  assert.match(await zr.locator('.picture svg [data-figure="bandit"]').textContent(), /^B bandit/);
  // The attack: attacker and target marked on the picture and on the sheets; a later step moves the mark.
  await zr.locator('.event-list a', { hasText: 'Attack declared' }).first().click();
  await zr.locator('.picture svg .acted[data-figure="bandit"]').waitFor();
  assert.equal(await zr.locator('.picture svg .acted[data-figure="Theobald"]').count(), 0);
  assert.equal(await zr.locator('details.card.acted[data-card="Balthasar"]').count(), 1);
  assert.deepEqual((await overlappingLabels(zr, '.picture svg')).bad, []);
  await shot(zr, '12-zone-rpg-picture.png');
  assert.deepEqual(zr.errors, []);
  await zr.close();

  const ss = await open(`#/battles/${data.swiftSwords}`);
  await ss.locator('.picture svg .zone-name').first().waitFor();
  assert.deepEqual((await ss.locator('.picture svg .zone-name').allTextContents()).sort(), ['bank', 'ford']);
  assert.match(await ss.locator('.picture svg [data-figure="roland"]').textContent(), /^A roland/);
  assert.match(await ss.locator('.picture svg [data-figure="snag"]').textContent(), /^B snag/);
  assert.deepEqual((await overlappingLabels(ss, '.picture svg')).bad, []);
  await shot(ss, '13-swift-swords-picture.png');
  await ss.close();

  // Warmachine: the rifle shot marks the attacker and its target on the table.
  const wm = await open(`#/battles/${data.warmachine}`);
  await wm.locator('.picture svg').waitFor();
  await wm.locator('.event-list a', { hasText: /Attack/ }).first().click();
  await wm.locator('.picture svg .acted[data-model="blue-jack"]').first().waitFor();
  assert.ok(await wm.locator('.picture svg .acted[data-model="red-jack"]').count() >= 1);
  await shot(wm, '14-warmachine-last-action.png');
  await wm.close();

  // Percentile skirmish: the open combat marks both minis.
  const ps = await open(`#/battles/${data.skirmish}`);
  await ps.locator('.picture svg').waitFor();
  await ps.locator('.picture svg .acted[data-mini="blue-guard"]').first().waitFor();
  await ps.close();
});

test('the timeline and the sheets work by keyboard alone', async () => {
  const page = await battleWithSheets(data.zoneRpg);
  const { max } = await versions(page);
  // Tab from the top of the page to the slider, then step it with keys.
  await page.locator('a.brand').focus();
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.classList.contains('slider'))); i++) await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('slider')), 'the slider is reached by Tab');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /version 0 of/.test(document.querySelector('.timeline .caption').textContent));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /version 1 of/.test(document.querySelector('.timeline .caption').textContent));
  await page.keyboard.press('End');
  await page.waitForFunction((m) => new RegExp(`version ${m} of`).test(document.querySelector('.timeline .caption').textContent), max);
  // The step buttons answer Enter.
  await page.locator('.timeline button.back').focus();
  await page.keyboard.press('Enter');
  assert.equal((await versions(page)).at, max - 1);
  // Tab on to a sheet card: Enter closes it and opens it again.
  for (let i = 0; i < 80 && !(await page.evaluate(() => document.activeElement?.matches('details.card > summary'))); i++) await page.keyboard.press('Tab');
  const card = await page.evaluate(() => document.activeElement?.parentElement?.dataset.card);
  assert.ok(card, 'a sheet card is reached by Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator(`details.card[data-card="${card}"]`).getAttribute('open'), null, 'Enter closes the card');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator(`details.card[data-card="${card}"]`).getAttribute('open'), '', 'Enter opens it again');
  // A die in the dice table scrubs to its event by Enter.
  const row = page.locator('.draws-table tbody tr').first();
  const version = Number(await row.getAttribute('data-version'));
  await row.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => new RegExp(`version ${v} of`).test(document.querySelector('.timeline .caption').textContent), version);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** axe-core's serious and critical violations on the page as it stands. */
const AXE = readFileSync(join(ROOT, 'tests/browser/node_modules/axe-core/axe.min.js'), 'utf8');
async function axeViolations(page) {
  await page.evaluate(AXE);
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('axe-core finds no serious or critical violation on any page type', async () => {
  const pages = [
    ['home', '', 'a.campaign-link'],
    ['campaign', `#/campaigns/${data.campaign}`, '.map svg .army-label'],
    ['audit', `#/campaigns/${data.campaign}/audit`, 'table.audit > tbody > tr'],
    ['coalition battle', `#/battles/${data.campaignBattle}`, '.verdict[data-status]'],
    ['warmachine battle', `#/battles/${data.warmachine}`, '.sheet .sheets'],
    ['zone-rpg battle', `#/battles/${data.zoneRpg}`, '.sheet .sheets'],
    ['swift-swords battle', `#/battles/${data.swiftSwords}`, '.sheet .sheets'],
    ['percentile-skirmish battle', `#/battles/${data.skirmish}`, '.sheet .sheets'],
  ];
  const found = [];
  for (const [name, path, ready] of pages) {
    const page = await open(path);
    await page.locator(ready).first().waitFor();
    await page.locator('.picture svg, .map svg, table.audit, .sheets, .rounds').first().waitFor();
    for (const v of await axeViolations(page)) found.push(`${name}: ${v}`);
    await page.close();
  }
  // The dispute page: a battle with a ruled dispute, its what-if beside the record.
  const disputed = (await data.call('GET', '/v1/battles?ruleset=coalition')).find((b) => b.participants.includes('Benalish Guard'));
  if (disputed) {
    const page = await open(`#/battles/${disputed.id}`);
    await page.locator('.disputes .dispute-list li').first().waitFor();
    await page.getByRole('button', { name: 'Show the what-if beside the record' }).click();
    await page.locator('.what-if-sides .end-state').nth(1).waitFor();
    for (const v of await axeViolations(page)) found.push(`dispute: ${v}`);
    await page.close();
  } else {
    found.push('dispute: the disputed battle of the dispute test was not found (run the whole file)');
  }
  assert.deepEqual(found, []);
});

test('every page type is usable at a phone width of 390 px, with no sideways scrolling', async () => {
  const pages = [
    ['home', '', 'a.campaign-link'],
    ['campaign', `#/campaigns/${data.campaign}`, '.map svg .army-label'],
    ['audit', `#/campaigns/${data.campaign}/audit`, 'table.audit > tbody > tr'],
    ['battle', `#/battles/${data.zoneRpg}`, '.sheet .sheets'],
    ['warmachine', `#/battles/${data.warmachine}`, '.sheet .sheets'],
  ];
  for (const [name, path, ready] of pages) {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${herald.base}/${path}`);
    await page.locator(ready).first().waitFor();
    await shot(page, `15-phone-${name}.png`);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth }));
    assert.ok(widths.page <= widths.view && widths.body <= widths.view, `${name}: ${JSON.stringify(widths)}`);
    await page.close();
  }
});

test("a campaign's disputes are listed, and a corrected sanction's what-if shown beside the record as ruled on", async () => {
  const { call, judge, bob } = data;
  const army = (name, team, controller, creature, colors, square) => ({
    army: { name, team, rank: 'cpl_lt_commander', creator: null, colors: team === 'coalition' ? ['red', 'green', 'blue'] : [], legend: null,
      troops: [{ creature, colors, power: 1, toughness: 1, slot: 0, full: 5000, troops: 4000 }] },
    controllers: [controller], start: { by: 'square', square },
  });
  const created = await call('POST', '/v1/campaigns', judge, {
    name: 'Disputed round', map: { bounds: { columns: 14, rows: 38 }, default_terrain: 'plains' },
    armies: [army('Sai Rei', 'coalition', 'alice', 'Kris Mage', ['red'], '5E'),
      army('Plague Host', 'phyrexia', 'bob', 'Phyrexian Broodling', ['black'], '9E')],
    options: { enforce_army_counts: false, enforce_site_counts: false },
  });
  const stream = created.stream;
  const c = `/v1/campaigns/${stream.replace(/^campaign-/, '')}`;
  await call('POST', `${c}/turns`, judge, { deadline: '2030-12-01T05:00:00Z' });
  const sanctioned = await call('POST', `${c}/sanctions`, judge, { player: 'bob', army: 'Plague Host', severity: 2, reason: 'late orders' });
  const version = sanctioned.events.find((e) => e.type === 'coalition.SanctionImposed').version;
  const dispute = await call('POST', `/v1/streams/${stream}/disputes`, bob, { version, claim: 'A minute late: a reprimand, not troops.' });
  const change = { version, command: { type: 'impose_sanction', player: 'bob', army: 'Plague Host', severity: 0, reason: 'late orders' } };
  const whatIf = await call('POST', `/v1/streams/${stream}/what-if`, judge, change);
  const ruled = await call('POST', `/v1/streams/${stream}/disputes/${dispute.id}/ruling`, judge,
    { ruling: 'corrected', reason: 'a reprimand', what_if: change, what_if_hash: whatIf.hash });

  const page = await open(`#/campaigns/${stream}`);
  await page.locator('.disputes .dispute-list li').first().waitFor();
  const listed = await page.locator('.disputes .dispute-list li').first().textContent();
  assert.match(listed, /corrected.*A minute late.*bob \(player\).*Ruled corrected by judge/);
  assert.ok(!listed.includes('token:'), listed);
  // The round's keys are sealed until it closes: the public is told only a judge may run it.
  await page.getByRole('button', { name: 'Show the what-if beside the record' }).click();
  await page.locator('.what-if', { hasText: 'only a judge' }).waitFor();
  await page.locator('#token').fill(judge);
  await page.locator('#token-form button').click();
  await page.locator('#whoami', { hasText: 'judge' }).waitFor();
  await page.getByRole('button', { name: 'Show the what-if beside the record' }).click();
  await page.locator('.what-if-sides .end-state').nth(1).waitFor();
  assert.equal(await page.locator('.what-if-sides .end-state').count(), 2, 'the record and the what-if');
  assert.match(await page.locator('.what-if').textContent(), /the one the ruling rests on/);
  const record = page.locator('.what-if-sides .end-state').nth(0);
  assert.match(await record.locator('h3').textContent(), new RegExp(`version ${ruled.ruling.version - 1}\\)`));
  assert.notEqual(await record.textContent(), await page.locator('.what-if-sides .end-state').nth(1).textContent());
  await shot(page, '11-campaign-dispute.png');
  await page.locator('#token').fill('');
  await page.locator('#token-form button').click();
  await page.locator('#whoami', { hasText: 'public view' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});
