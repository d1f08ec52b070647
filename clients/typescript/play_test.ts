/**
 * Play every registered ruleset through the generated TypeScript client (Herald issue 31 item 5).
 *
 * The TypeScript twin of clients/python/play_test.py: what a third-party developer does with the
 * committed spec. clients/check generates a client with @hey-api/openapi-ts (pinned in
 * package.json, no patches) into target/clients/typescript/client; this script calls the API with
 * nothing but its SDK functions (`createBattle`, `postAction`, …) and types. No raw `fetch` is
 * sent for an API call: if the client cannot express a call, the spec is wrong and is fixed at its
 * source (api/src/routes, api/src/openapi).
 *
 * The script starts the real server binary on a free port with a fresh data directory and a known
 * admin token, lists the rulesets (`GET /v1/rulesets`), and plays a battle of every battle
 * ruleset from creation to its end: the tokens it needs, the battle, the commands until the view
 * says it ended, the events, and `verify` once the seed is revealed. Every battle action goes with
 * `If-Match` (the version last written) and an `Idempotency-Key`; every other write sends the
 * `If-Match` and `Idempotency-Key` its operation declares. The coalition campaign plays a turn of
 * orders whose armies meet, fights the battle the turn announces, and applies its result the next
 * turn. A ruleset the server lists and this script has no scenario for is a failure, so a new
 * ruleset cannot slip in untested.
 *
 * Run (clients/check does this after generating the client and type-checking this file under
 * `strict` with tsconfig.json):
 *
 *     cd clients/typescript && npm run --silent play
 *
 * The dice are seeded per battle by the server, so outcomes are checked by the rules (the battle
 * ended, its winner is one of its sides), never against fixed numbers.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createClient, type Client } from '../../target/clients/typescript/client/client';
import {
  adjudicateTurn,
  assignStrategyBonus,
  contributeEntropy,
  createBattle,
  createCampaign,
  createToken,
  getBattle,
  getCampaign,
  listRulesets,
  lockTurn,
  openTurn,
  postAction,
  postOrders,
  readyz,
  resolveBattle,
  streamEvents,
  submitStrategy,
  verifyBattle,
  verifyStream,
  type ArmySpec,
  type BattleCommand,
  type Color,
  type CommandResponse,
  type CreateBattleData,
  type CreateCoalitionCampaign,
  type EventView,
  type Faction,
  type GetBattleResponses,
  type Problem,
  type Role,
  type SideId,
  type SkirmishCommand,
  type SkirmishMiniProfile,
  type SwiftSwordsCommand,
  type SwiftSwordsFigure,
  type Team,
  type WarmachineCommand,
  type Weapon,
  type ZoneRpgCommand,
} from '../../target/clients/typescript/client';

const ADMIN_TOKEN = 'play-test-admin-token-0123456789abcdef';

/** A step of a scenario did not go as the rules say it should. */
class PlayTestFailure extends Error {}

// ---- Talking to the server through the generated client ------------------------------------

/** What every generated SDK function resolves to (`responseStyle: 'fields'`, no throwing). */
type Answer<T> = { data?: T; error?: unknown; response?: Response };

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { detail?: unknown }).detail === 'string'
  );
}

/** What went wrong with an answer, for a failure message. */
function said(answer: Answer<unknown>): string {
  const status = answer.response ? `HTTP ${answer.response.status}` : 'no answer';
  if (isProblem(answer.error)) {
    return `${status} ${answer.error.code}: ${answer.error.detail}`;
  }
  const error = answer.error instanceof Error ? answer.error.message : JSON.stringify(answer.error);
  return `${status} ${(error ?? '').slice(0, 500)}`;
}

/** The parsed body of a 2xx answer; anything else (a problem+json, a status the spec does not
 * document, no answer at all) fails the play test naming the step. */
async function ok<T>(pending: Promise<Answer<T>>, what: string): Promise<T> {
  const answer = await pending;
  if (answer.response === undefined || !answer.response.ok || answer.data === undefined) {
    throw new PlayTestFailure(`${what}: ${said(answer)}`);
  }
  return answer.data;
}

/** The types of the events a command answered with (a `CommandResponse`). */
function eventTypes(answer: CommandResponse): string[] {
  return answer.events.map((event) => event.type);
}

/** A client for `token` (none: an anonymous reader). */
function clientFor(baseUrl: string, token?: string): Client {
  return createClient({ baseUrl, auth: token });
}

/** The people at a table: a judge (also the GM) and two players, each with its own client. */
class Table {
  constructor(
    readonly judge: Client,
    readonly alice: Client,
    readonly bob: Client,
    readonly anyone: Client,
  ) {}

  static async seat(baseUrl: string): Promise<Table> {
    const admin = clientFor(baseUrl, ADMIN_TOKEN);
    const issue = async (role: Role, player?: string): Promise<Client> => {
      const label = `play test ${player ?? role}`;
      const issued = await ok(
        createToken({
          client: admin,
          body: player === undefined ? { role, label } : { role, label, player },
          headers: { 'Idempotency-Key': `ts play test token ${label}` },
        }),
        `issue a ${role} token`,
      );
      return clientFor(baseUrl, issued.token);
    };
    return new Table(
      await issue('judge'),
      await issue('player', 'alice'),
      await issue('player', 'bob'),
      clientFor(baseUrl),
    );
  }

  players(): Record<string, Client> {
    return { alice: this.alice, bob: this.bob };
  }
}

/** What a scenario did, for the summary. */
class Played {
  stream = '';
  commands = 0;
  winner = '?';
  events = 0;
  verified = 'not run';
  notes: string[] = [];

  constructor(readonly ruleset: string) {}
}

/** The battle views, one per ruleset, as `GET /v1/battles/{id}` answers them. */
type AnyBattleView = GetBattleResponses[200];
type BattleRuleset = AnyBattleView['ruleset'];
type ViewOf<R extends BattleRuleset> = Extract<AnyBattleView, { ruleset: R }>;
type SetupOf<R extends BattleRuleset> = Extract<CreateBattleData['body'], { ruleset: R }>;

/** Each ruleset's command language, as `POST /v1/battles/{id}/actions` takes it. */
type Commands = {
  coalition: BattleCommand;
  warmachine: WarmachineCommand;
  'zone-rpg': ZoneRpgCommand;
  'percentile-skirmish': SkirmishCommand;
  'swift-swords': SwiftSwordsCommand;
};

function isViewOf<R extends BattleRuleset>(view: AnyBattleView, ruleset: R): view is ViewOf<R> {
  return view.ruleset === ruleset;
}

/** One battle being played: its id, the stream version last written (sent back as `If-Match` so
 * no command acts on a state it has not seen), and a count of the requests sent to it (each
 * write's `Idempotency-Key`). */
class Battle<R extends BattleRuleset> {
  readonly id: string;
  private sent = 0;

  constructor(
    readonly table: Table,
    readonly played: Played,
    readonly ruleset: R,
    readonly stream: string,
    public version: number,
  ) {
    this.id = stream.replace(/^battle-/, '');
  }

  /** `POST /v1/battles` as the judge, with the ruleset's `Create…Battle` set-up. */
  static async create<R extends BattleRuleset>(table: Table, played: Played, setup: SetupOf<R>): Promise<Battle<R>> {
    const created = await ok(
      createBattle({ client: table.judge, body: setup, headers: { 'Idempotency-Key': `ts create ${played.ruleset}` } }),
      `create a ${played.ruleset} battle`,
    );
    played.stream = created.stream;
    played.commands += 1;
    return new Battle(table, played, setup.ruleset as R, created.stream, created.version);
  }

  /** A battle the service opened (a campaign's): read it before writing, as a client does. */
  static async opened<R extends BattleRuleset>(table: Table, played: Played, ruleset: R, stream: string): Promise<Battle<R>> {
    const battle = new Battle(table, played, ruleset, stream, 0);
    battle.version = (await battle.view()).version;
    played.stream = stream;
    return battle;
  }

  /** A new `Idempotency-Key` for the next write to this battle. */
  key(): string {
    this.sent += 1;
    return `${this.stream}/${this.sent}`;
  }

  /** The `If-Match` of the version last written. */
  ifMatch(): string {
    return `"${this.version}"`;
  }

  /** Note a command's answer: the new version; its events' types. */
  wrote(answer: CommandResponse): string[] {
    this.version = answer.version;
    this.played.commands += 1;
    return eventTypes(answer);
  }

  /** `POST /v1/battles/{id}/actions` with one of the ruleset's commands, on the version last
   * seen (`If-Match`) and with an `Idempotency-Key`, so a retry is safe. */
  async act(who: Client, command: Commands[R]): Promise<string[]> {
    return this.wrote(await ok(this.send(who, command, this.key()), `${this.played.ruleset}: ${command.type}`));
  }

  /** `act`, but a refusal is answered as its `Problem` (for a scenario to branch on). */
  async attempt(who: Client, command: Commands[R]): Promise<Problem | string[]> {
    const answer = await this.send(who, command, this.key());
    if (isProblem(answer.error)) {
      return answer.error;
    }
    return this.wrote(await ok(Promise.resolve(answer), `${this.played.ruleset}: ${command.type}`));
  }

  send(who: Client, command: Commands[R], key: string): Promise<Answer<CommandResponse>> {
    return postAction({
      client: who,
      path: { battle_id: this.id },
      body: command,
      headers: { 'If-Match': this.ifMatch(), 'Idempotency-Key': key },
    });
  }

  /** `act`, then send the very same request again, as a client does when the answer was lost:
   * the server answers the first result again (`replayed`) and writes nothing. */
  async actAndRetry(who: Client, command: Commands[R]): Promise<string[]> {
    const key = `${this.stream}/retried`;
    const what = `${this.played.ruleset}: ${command.type}`;
    const first = await ok(this.send(who, command, key), what);
    // The same request: the same key, and the same If-Match (the version is noted only below).
    const again = await ok(this.send(who, command, key), `${what} retried`);
    if (first.replayed || !again.replayed || again.version !== first.version) {
      throw new PlayTestFailure(`${this.played.ruleset}: a retry was not answered with the first result`);
    }
    this.played.notes.push(`a retried ${command.type} was replayed, not written twice`);
    return this.wrote(first);
  }

  async entropy(who: Client, entropy: string): Promise<void> {
    const answer = contributeEntropy({
      client: who,
      path: { battle_id: this.id },
      body: { entropy },
      headers: { 'Idempotency-Key': this.key() },
    });
    this.wrote(await ok(answer, `${this.played.ruleset}: entropy`));
  }

  /** The battle as `who` (the judge by default) sees it: the ruleset's own view (the answer is a
   * union of every ruleset's view, told apart by `ruleset`). */
  async view(who?: Client): Promise<ViewOf<R>> {
    const view = await ok(
      getBattle({ client: who ?? this.table.judge, path: { battle_id: this.id } }),
      `${this.played.ruleset}: view`,
    );
    if (!isViewOf(view, this.ruleset)) {
      throw new PlayTestFailure(`${this.played.ruleset}: the view is of ruleset ${view.ruleset}`);
    }
    if (view.version < this.version) {
      throw new PlayTestFailure(`${this.played.ruleset}: view at version ${view.version}, written ${this.version}`);
    }
    return view;
  }

  /** Whether the view says the battle is over: a tactical ruleset's `phase` is `ended`, a
   * coalition battle's `status` is `resolved` (or `killed`). */
  async ended(): Promise<boolean> {
    const view: AnyBattleView = await this.view();
    if (view.ruleset === 'coalition') {
      return view.status === 'resolved' || view.status === 'killed';
    }
    return view.phase === 'ended';
  }

  /** Check the battle ended with a winner among `winners`, read its events as anyone, and verify
   * it as anyone (its seed is revealed when it ends). */
  async finish(winners: string[]): Promise<void> {
    if (!(await this.ended())) {
      throw new PlayTestFailure(`${this.played.ruleset}: the battle has not ended`);
    }
    const winner = (await this.view()).winner;
    if (typeof winner !== 'string' || !winners.includes(winner)) {
      throw new PlayTestFailure(`${this.played.ruleset}: winner ${JSON.stringify(winner)} is not one of ${winners.join(', ')}`);
    }
    this.played.winner = winner;
    this.played.events = (await readEvents(this.table.anyone, this.stream)).length;
    const report = await ok(
      verifyBattle({ client: this.table.anyone, path: { battle_id: this.id } }),
      `${this.played.ruleset}: verify`,
    );
    this.played.verified = `${report.result} (${report.events_checked} events, seed ${report.seed})`;
    if (!report.verified) {
      throw new PlayTestFailure(`${this.played.ruleset}: verification failed: ${JSON.stringify(report)}`);
    }
  }
}

/** Every event of a stream, page by page (`from` / `next`). */
async function readEvents(client: Client, stream: string): Promise<EventView[]> {
  const events: EventView[] = [];
  let from = 0;
  for (;;) {
    const page = await ok(streamEvents({ client, path: { stream }, query: { from, limit: 100 } }), `events of ${stream}`);
    events.push(...page.events);
    if (typeof page.next !== 'number') {
      return events;
    }
    from = page.next;
  }
}

function tomorrow(): string {
  return new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
}

// ---- coalition (seed 003 ch. 4): sealed strategies, bonuses, eight d20 -----------------------

async function playCoalitionBattle(table: Table): Promise<Played> {
  const played = new Played('battle coalition');
  const army = (name: string, team: Team, controller: string, creature: string, color: Color) => ({
    name,
    team,
    rank: 'cpl_lt_commander' as const,
    controller,
    slots: [{ creature, colors: [color], power: 2, toughness: 2, troops: 5000 }],
  });
  const battle = await Battle.create<'coalition'>(table, played, {
    ruleset: 'coalition',
    armies: {
      a: army('Sai Rei', 'coalition', 'alice', 'Kris Mage', 'red'),
      b: army('Plague Host', 'phyrexia', 'bob', 'Phyrexian Broodlings', 'black'),
    },
    engagement: { kind: 'attack', attacker: 'a' },
    terrain: 'plains',
    strategy_deadline: tomorrow(),
  });
  await battle.entropy(table.alice, "alice's lucky string");
  await battle.entropy(table.bob, 'bob rolls for the Host');
  await fightCoalitionBattle(table, battle);
  return played;
}

/** Each side's controller sends a sealed strategy, the judge grades both, and resolves: four d20
 * a side; the battle ends with a winner and the service reveals the seed. */
async function fightCoalitionBattle(table: Table, battle: Battle<'coalition'>): Promise<void> {
  const sides = (await battle.view()).sides;
  const players = table.players();
  const armies: [SideId, ArmySpec | null | undefined][] = [
    ['a', sides.a.army],
    ['b', sides.b.army],
  ];
  for (const [side, army] of armies) {
    if (!army) {
      throw new PlayTestFailure(`coalition: the judge's view shows no army on side ${side}`);
    }
    const who = players[army.controller];
    if (who === undefined) {
      throw new PlayTestFailure(`coalition: side ${side} is controlled by ${army.controller}, not at the table`);
    }
    const answer = submitStrategy({
      client: who,
      path: { battle_id: battle.id },
      body: { side, strategy: `${army.name} holds the high ground.` },
      headers: { 'If-Match': battle.ifMatch(), 'Idempotency-Key': battle.key() },
    });
    battle.wrote(await ok(answer, `strategy ${side}`));
  }
  const bonuses: [SideId, number][] = [
    ['a', 6],
    ['b', 4],
  ];
  for (const [side, bonus] of bonuses) {
    const answer = assignStrategyBonus({
      client: table.judge,
      path: { battle_id: battle.id },
      body: { side, bonus, note: 'graded by the play test' },
      headers: { 'Idempotency-Key': battle.key() },
    });
    battle.wrote(await ok(answer, `bonus ${side}`));
  }
  const resolved = battle.wrote(
    await ok(
      resolveBattle({
        client: table.judge,
        path: { battle_id: battle.id },
        body: {},
        headers: { 'Idempotency-Key': battle.key() },
      }),
      'coalition: resolve',
    ),
  );
  if (!resolved.includes('coalition.SeedRevealed')) {
    throw new PlayTestFailure(`coalition: resolving did not reveal the seed: ${resolved.join(', ')}`);
  }
  await battle.finish(['a', 'b']);
}

// ---- warmachine (seed 000): a turn with an aimed shot, then the other player concedes --------

async function playWarmachine(table: Table): Promise<Played> {
  const played = new Played('battle warmachine');
  const sword: Weapon = { name: 'Sword', kind: 'melee', rng: { kind: 'inches', inches: 0.5 }, pow: 7 };
  const rifle: Weapon = { name: 'Rifle', kind: 'ranged', rng: { kind: 'inches', inches: 24.0 }, rof: 1, pow: 12 };
  const solo = (id: string, player: string, y: number, weapon: Weapon) => ({
    id,
    player,
    position: { x: 24.0, y },
    profile: {
      name: id,
      model_type: 'solo' as const,
      base: 'small' as const,
      stats: { spd: 6, mat: 6, rat: 5, def: 13, arm: 13 },
      damage: { kind: 'boxes' as const, boxes: 5 },
      weapons: [weapon],
    },
  });
  const battle = await Battle.create<'warmachine'>(table, played, {
    ruleset: 'warmachine',
    table: { width: 48.0, depth: 48.0, terrain: [] },
    players: [
      { name: 'red', controller: 'alice' },
      { name: 'blue', controller: 'bob' },
    ],
    models: [solo('red-gunner', 'red', 10.0, rifle), solo('blue-guard', 'blue', 30.0, sword)],
  });
  await battle.actAndRetry(table.alice, { type: 'start_turn' });
  await battle.act(table.alice, { type: 'activate', activation: 'red-gunner' });
  await battle.act(table.alice, { type: 'move', model: 'red-gunner', movement: { kind: 'aim' } });
  const shot = await battle.act(table.alice, {
    type: 'attack',
    attacker: 'red-gunner',
    weapon: 'Rifle',
    target: 'blue-guard',
  });
  if (!shot.includes('warmachine.AttackResolved')) {
    throw new PlayTestFailure('warmachine: the shot was not resolved');
  }
  if (await battle.ended()) {
    // The shot destroyed blue's only model: the battle ends by itself, red the winner.
    played.notes.push("blue's last model fell to the shot");
  } else {
    await battle.act(table.alice, { type: 'end_activation' });
    await battle.act(table.bob, { type: 'end_battle', winner: 'red', reason: 'blue concedes' });
    played.notes.push("blue's guard survived the shot; blue conceded");
  }
  await battle.finish(['red', 'blue']);
  return played;
}

// ---- zone-rpg (seed 001): a round with an attack let through, then the GM ends the fight -----

async function playZoneRpg(table: Table): Promise<Played> {
  const played = new Played('battle zone-rpg');
  const battle = await Battle.create<'zone-rpg'>(table, played, {
    ruleset: 'zone-rpg',
    zones: [{ name: 'road' }, { name: 'thicket' }],
    borders: [{ a: 'road', b: 'thicket' }],
    factions: [{ name: 'party' }, { name: 'bandits' }],
    initiative: { kind: 'faction', faction: 'party' },
    characters: [
      {
        id: 'Balthasar',
        faction: 'party',
        controller: 'alice',
        health: 10,
        wit: 12,
        agi: 10,
        str: 14,
        zone: 'road',
        weapons: [{ name: 'sword', damage: 'd6' }],
      },
      {
        id: 'bandit',
        faction: 'bandits',
        health: 8,
        wit: 9,
        agi: 8,
        str: 10,
        zone: 'road',
        weapons: [{ name: 'axe', damage: 'd6' }],
      },
    ],
  });
  await battle.entropy(table.alice, 'alice rolls for the party');
  await battle.act(table.judge, { type: 'start_round', first_faction: 'party' });
  await battle.act(table.alice, { type: 'take_turn', character: 'Balthasar' });
  await battle.act(table.alice, {
    type: 'attack',
    attacker: 'Balthasar',
    weapon: 'sword',
    target: { kind: 'character', character: 'bandit' },
  });
  // The bandit (the GM's) may react; the GM lets the blow through, and the attack resolves.
  const declined = await battle.act(table.judge, { type: 'decline', character: 'bandit' });
  if (!declined.includes('zone-rpg.AttackResolved')) {
    throw new PlayTestFailure('zone-rpg: the attack did not resolve once the bandit declined');
  }
  if (await battle.ended()) {
    played.notes.push('the bandit fell to the first blow');
  } else {
    await battle.act(table.alice, { type: 'end_turn' });
    await battle.act(table.judge, { type: 'end_fight', winner: 'party', reason: 'the bandit flees' });
    played.notes.push('the bandit survived the blow; the GM ended the fight');
  }
  await battle.finish(['party', 'bandits']);
  return played;
}

// ---- percentile-skirmish (seed 002): sealed declarations, open combat, then the judge ends it -

async function playPercentileSkirmish(table: Table): Promise<Played> {
  const played = new Played('battle percentile-skirmish');
  const card = (name: string, initiative: number): SkirmishMiniProfile => ({
    name,
    level: 2,
    movement: 4.0,
    initiative,
    life: 20,
    weapons: [{ name: 'Sword', kind: 'melee', damage: 'd6' }],
  });
  const battle = await Battle.create<'percentile-skirmish'>(table, played, {
    ruleset: 'percentile-skirmish',
    table: { width: 36.0, depth: 24.0, terrain: [] },
    participants: [
      { name: 'red', controller: 'alice' },
      { name: 'blue', controller: 'bob' },
    ],
    minis: [
      { id: 'red-knight', participant: 'red', position: { x: 10.0, y: 10.0 }, facing: 0.0, profile: card('Knight', 10) },
      { id: 'blue-guard', participant: 'blue', position: { x: 14.0, y: 10.0 }, facing: 180.0, profile: card('Guard', 10) },
    ],
  });
  await battle.entropy(table.alice, 'alice rolls for the knights');
  await battle.entropy(table.bob, 'bob rolls for the guard');
  // Round 10: both minis have initiative 10; each side declares who acts, sealed until both have
  // (the guard waits).
  await battle.act(table.alice, { type: 'declare', participant: 'red', minis: ['red-knight'] });
  await battle.act(table.bob, { type: 'declare', participant: 'blue', minis: [] });
  await battle.act(table.alice, { type: 'move', mini: 'red-knight', path: [{ x: 13.2, y: 10.0 }] });
  await battle.act(table.alice, { type: 'melee_attack', attacker: 'red-knight', target: 'blue-guard', weapon: 'Sword' });
  // Open combat: each side picks a combat option, sealed; the second pick resolves the exchange.
  await battle.act(table.alice, { type: 'choose_combat_option', mini: 'red-knight', choice: 'swing_to_the_head' });
  const exchange = await battle.act(table.bob, {
    type: 'choose_combat_option',
    mini: 'blue-guard',
    choice: 'thrust_to_the_body',
  });
  if (!exchange.includes('percentile-skirmish.OpenCombatResolved')) {
    throw new PlayTestFailure('percentile-skirmish: the open combat did not resolve');
  }
  await battle.act(table.alice, { type: 'end_actions', mini: 'red-knight' });
  await battle.act(table.judge, { type: 'end_battle', winner: 'red', reason: 'one exchange fought' });
  await battle.finish(['red', 'blue']);
  return played;
}

// ---- swift-swords (seed 004): the countdown begins, the first to act attacks, the GM ends it -

async function playSwiftSwords(table: Table): Promise<Played> {
  const played = new Played('battle swift-swords');
  const fighter = (id: string, side: string, controller: string): SwiftSwordsFigure => ({
    id,
    side,
    controller,
    start: { zone: 'ford', group: 'melee' },
    action_dice: { kind: 'roll', dice: 3 },
    physical: 9,
    mental: 9,
    weapons: [{ name: 'Sword', dice: 4, weight: 'medium' }],
  });
  const battle = await Battle.create<'swift-swords'>(table, played, {
    ruleset: 'swift-swords',
    map: { zones: [{ id: 'ford', column: 0, row: 0, terrain: 'river ford' }] },
    sides: [
      { name: 'heroes', controller: 'alice' },
      { name: 'goblins', controller: 'bob' },
    ],
    figures: [fighter('roland', 'heroes', 'alice'), fighter('grik', 'goblins', 'bob')],
  });
  const players: Record<string, Client> = { roland: table.alice, grik: table.bob };
  const playerOf = (figure: string): Client => {
    const who = players[figure];
    if (who === undefined) {
      throw new PlayTestFailure(`swift-swords: no player for figure ${figure}`);
    }
    return who;
  };
  await battle.entropy(table.alice, 'alice rolls for Roland');
  if (!(await battle.act(table.judge, { type: 'begin' })).includes('swift-swords.ActionDiceRolled')) {
    throw new PlayTestFailure('swift-swords: beginning rolled no action dice');
  }
  // The countdown names who acts next: that figure attacks the other. A hand that cannot pay for
  // the attack is a rule refusal (422 `swift-swords.cannot_afford`): then it calls a refresh.
  const attacker = (await battle.view()).next_to_act[0];
  if (attacker === undefined) {
    throw new PlayTestFailure('swift-swords: nobody is next to act after the beginning');
  }
  const target = attacker === 'roland' ? 'grik' : 'roland';
  const answer = await battle.attempt(playerOf(attacker), {
    type: 'attack',
    figure: attacker,
    weapon: 'Sword',
    targets: [target],
  });
  if (Array.isArray(answer)) {
    played.notes.push(`${attacker} attacked ${target}`);
  } else {
    if (answer.code !== 'swift-swords.cannot_afford') {
      throw new PlayTestFailure(`swift-swords: attack: ${answer.code}: ${answer.detail}`);
    }
    played.notes.push(`${attacker} could not afford an attack and called a refresh`);
    await battle.act(playerOf(attacker), { type: 'call_refresh', figure: attacker });
  }
  // If the attack waits for the target's defence, it declares none and takes the blow.
  const awaiting = (await battle.view()).awaiting;
  if (awaiting && awaiting.kind === 'defence') {
    const defender = awaiting.from[0];
    if (defender === undefined) {
      throw new PlayTestFailure('swift-swords: a defence is awaited from nobody');
    }
    await battle.act(playerOf(defender), { type: 'defend', figure: defender, defence: 'none', take_rank: true });
    played.notes.push(`${defender} took the blow without a defence`);
  }
  if (!(await battle.ended())) {
    await battle.act(table.judge, { type: 'end_battle', winner: 'heroes', reason: 'the goblins flee the ford' });
  }
  await battle.finish(['heroes', 'goblins']);
  return played;
}

// ---- the coalition campaign (seed 003 ch. 1-3): a turn of orders, adjudicated ----------------

/** A campaign being played: its id and the stream version last written (`If-Match`). */
class Campaign {
  readonly id: string;
  private sent = 0;

  constructor(
    readonly table: Table,
    readonly played: Played,
    readonly stream: string,
    public version: number,
  ) {
    this.id = stream.replace(/^campaign-/, '');
  }

  key(): string {
    this.sent += 1;
    return `${this.stream}/${this.sent}`;
  }

  wrote(answer: CommandResponse): CommandResponse {
    this.version = answer.version;
    this.played.commands += 1;
    return answer;
  }

  /** Open a turn, post each player's orders in the seed's text format, lock and adjudicate it;
   * the adjudication's `CommandResponse`. */
  async turn(orders: Record<string, string>): Promise<CommandResponse> {
    const campaign_id = this.id;
    this.wrote(
      await ok(
        openTurn({
          client: this.table.judge,
          path: { campaign_id },
          body: { deadline: tomorrow() },
          headers: { 'If-Match': `"${this.version}"`, 'Idempotency-Key': this.key() },
        }),
        'open a turn',
      ),
    );
    const players = this.table.players();
    for (const [player, text] of Object.entries(orders)) {
      const who = players[player];
      if (who === undefined) {
        throw new PlayTestFailure(`campaign: ${player} is not at the table`);
      }
      this.wrote(
        await ok(
          postOrders({
            client: who,
            path: { campaign_id },
            body: { text },
            headers: { 'If-Match': `"${this.version}"`, 'Idempotency-Key': this.key() },
          }),
          `orders ${JSON.stringify(text)}`,
        ),
      );
    }
    this.wrote(
      await ok(
        lockTurn({ client: this.table.judge, path: { campaign_id }, headers: { 'Idempotency-Key': this.key() } }),
        'lock the turn',
      ),
    );
    // No body: every battle of the turn is read from its own stream.
    return this.wrote(
      await ok(
        adjudicateTurn({ client: this.table.judge, path: { campaign_id }, headers: { 'Idempotency-Key': this.key() } }),
        'adjudicate the turn',
      ),
    );
  }
}

async function playCoalitionCampaign(table: Table): Promise<Played> {
  const played = new Played('campaign coalition');
  const army = (name: string, team: Team, colors: Faction[], creature: string, color: Color) => ({
    name,
    team,
    rank: 'cpl_lt_commander' as const,
    colors,
    troops: [{ creature, colors: [color], power: 1, toughness: 1, slot: 0, full: 5000, troops: 4000 }],
  });
  const setup: CreateCoalitionCampaign = {
    ruleset: 'coalition',
    name: 'Play test round (TypeScript)',
    map: { bounds: { columns: 14, rows: 38 }, default_terrain: 'plains' },
    armies: [
      {
        army: army('Sai Rei', 'coalition', ['red', 'green', 'blue'], 'Kris Mage', 'red'),
        controllers: ['alice'],
        start: { by: 'square', square: '5E' },
      },
      {
        army: army('Plague Host', 'phyrexia', [], 'Phyrexian Broodling', 'black'),
        controllers: ['bob'],
        start: { by: 'square', square: '9E' },
      },
    ],
    options: { enforce_army_counts: false, enforce_site_counts: false },
  };
  const created = await ok(
    createCampaign({ client: table.judge, body: setup, headers: { 'Idempotency-Key': 'ts create campaign' } }),
    'create a coalition campaign',
  );
  played.stream = created.stream;
  played.commands += 1;
  const campaign = new Campaign(table, played, created.stream, created.version);
  // Turn 1: both armies march into 8E, so the turn announces the battle they meet in and the
  // service opens its stream (seed 003 §4.1.2.3, a no-attacker battle).
  const first = await campaign.turn({ alice: 'Sai Rei: 5E > 8E', bob: 'Plague Host: 9E > 8E' });
  const announced = first.events.flatMap((event) =>
    event.data.type === 'coalition.BattleAnnounced' ? [event.data.battle] : [],
  );
  const [announcedStream] = announced;
  if (announced.length !== 1 || announcedStream === undefined) {
    throw new PlayTestFailure(`campaign: expected one battle announced, got ${eventTypes(first).join(', ')}`);
  }
  // The battle is fought in its own stream, like any coalition battle.
  const battle = await Battle.opened(table, new Played('campaign battle'), 'coalition', announcedStream);
  await fightCoalitionBattle(table, battle);
  played.commands += battle.played.commands;
  played.notes.push(
    `turn 1 opened ${battle.stream}: ${battle.played.commands} commands, winner side ${battle.played.winner}`,
  );
  // Turn 2: adjudication applies the battle's result to the campaign (seed 003 §4.2.5).
  const second = await campaign.turn({});
  if (!eventTypes(second).includes('coalition.BattleResultApplied')) {
    throw new PlayTestFailure(`campaign: turn 2 did not apply the battle's result: ${eventTypes(second).join(', ')}`);
  }
  const view = await ok(getCampaign({ client: table.anyone, path: { campaign_id: campaign.id } }), 'campaign view');
  played.winner = 'none yet (a round runs for many turns)';
  played.notes.push(`turn ${view.turn} applied the result; battles pending: ${view.pending_battles.length}`);
  played.events = (await readEvents(table.anyone, played.stream)).length;
  const report = await ok(verifyStream({ client: table.judge, path: { stream: played.stream } }), 'verify the campaign');
  played.verified = `${report.result} (${report.events_checked} events, seed ${report.seed}, as the judge)`;
  if (!report.verified) {
    throw new PlayTestFailure(`campaign: verification failed: ${JSON.stringify(report)}`);
  }
  return played;
}

// ---- The scenarios, by "kind id" as GET /v1/rulesets lists them -----------------------------

const SCENARIOS: Record<string, (table: Table) => Promise<Played>> = {
  'battle coalition': playCoalitionBattle,
  'battle warmachine': playWarmachine,
  'battle zone-rpg': playZoneRpg,
  'battle percentile-skirmish': playPercentileSkirmish,
  'battle swift-swords': playSwiftSwords,
  'campaign coalition': playCoalitionCampaign,
};

// ---- The server under test ------------------------------------------------------------------

/** A port nobody listens on now (bind to port 0 and let the OS choose). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolvePort(port) : reject(new Error('no port'))));
    });
  });
}

function heraldBinary(): string {
  const root = resolve(__dirname, '..', '..');
  const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
  const binary = join(resolve(root, target), 'debug', 'herald');
  if (!existsSync(binary)) {
    throw new PlayTestFailure(`${binary} is missing: build it first (cargo build -p herald-api --bin herald)`);
  }
  return binary;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Start `herald serve` on a free port with a fresh data directory; run `body` with its base URL
 * once `/readyz` answers 200; stop it (and remove the data) whatever happens. */
async function withServer<T>(body: (baseUrl: string) => Promise<T>): Promise<T> {
  const binary = heraldBinary();
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-ts-play-test-'));
  const logPath = join(dataDir, 'server.log');
  const log = openSync(logPath, 'w');
  const port = await freePort();
  const args = ['serve', '--data-dir', join(dataDir, 'data'), '--port', String(port)];
  args.push('--admin-token', ADMIN_TOKEN, '--log-format', 'json');
  const server = spawn(binary, args, { stdio: ['ignore', log, log] });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseUrl, server, logPath);
    return await body(baseUrl);
  } finally {
    await stop(server);
    closeSync(log);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  server.kill('SIGTERM');
  const killer = setTimeout(() => server.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

async function waitUntilReady(baseUrl: string, server: ChildProcess, logPath: string): Promise<void> {
  const probe = clientFor(baseUrl);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      const log = readFileSync(logPath, 'utf8');
      throw new PlayTestFailure(`herald exited with ${server.exitCode ?? server.signalCode}:\n${log}`);
    }
    // Not listening yet is an answer with no response: try again shortly.
    const answer = await readyz({ client: probe });
    if (answer.response?.status === 200) {
      return;
    }
    await sleep(200);
  }
  throw new PlayTestFailure(`${baseUrl}/readyz did not answer 200 within 60 s`);
}

// ---- Main -----------------------------------------------------------------------------------

/** Play every listed ruleset, printing a line for each as it ends; how many were played. */
async function playAll(baseUrl: string): Promise<number> {
  const table = await Table.seat(baseUrl);
  const rulesets = await ok(listRulesets({ client: table.anyone }), 'list the rulesets');
  const listed = rulesets.map((ruleset) => `${ruleset.kind} ${ruleset.id}`);
  const untested = listed.filter((name) => !(name in SCENARIOS));
  if (untested.length > 0) {
    throw new PlayTestFailure(
      `GET /v1/rulesets lists ${untested.join(', ')} with no scenario in clients/typescript/play_test.ts: add one`,
    );
  }
  for (const name of listed) {
    const scenario = SCENARIOS[name];
    if (scenario === undefined) {
      throw new PlayTestFailure(`no scenario for ${name}`);
    }
    report(await scenario(table));
  }
  return listed.length;
}

function report(played: Played): void {
  console.log(
    `${played.ruleset.padEnd(28)} ${String(played.commands).padStart(3)} commands  winner ${played.winner}  ` +
      `${played.events} events  verify: ${played.verified}`,
  );
  for (const note of played.notes) {
    console.log(`${''.padEnd(28)} ${note}`);
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  try {
    const count = await withServer(playAll);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`played ${count} rulesets through the generated TypeScript client in ${seconds} s`);
    return 0;
  } catch (failure) {
    if (failure instanceof PlayTestFailure) {
      console.error(`play test FAILED: ${failure.message}`);
      return 1;
    }
    throw failure;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
