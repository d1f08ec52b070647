//! The worked verifications of docs/DICE.md ("Worked verifications"), played through the pure
//! deciders and checked against the tables the document shows, so the document cannot drift
//! from the code: every ruleset's short battle (and one campaign turn) under the public seed
//! `000102…1f`, a fixed stream name and fixed contributions, with each draw (event, JSON pointer,
//! word, sides, face, purpose) and the numbers that turn the dice into the outcome.
//!
//! To regenerate the tables after a deliberate change of the rules, run
//! `HERALD_PRINT_WORKED=1 cargo test -p herald-domain --test dice_worked -- --nocapture` and paste
//! each printed block between its markers in docs/DICE.md.

#[path = "coalition_campaign_support.rs"]
#[allow(unused_imports)]
mod campaign_support;
#[path = "coalition_battle_support.rs"]
#[allow(unused_imports)]
mod coalition_support;
#[path = "percentile_skirmish_support.rs"]
#[allow(unused_imports)]
mod percentile_support;
#[path = "swift_swords_support.rs"]
#[allow(unused_imports)]
mod swift_support;
#[path = "warmachine_battle_support.rs"]
#[allow(unused_imports)]
mod warmachine_support;
#[path = "zone_rpg_support.rs"]
#[allow(unused_imports)]
mod zone_support;

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    dice::{seed, DiceTape},
    Actor, Context, DiceKey, EventType, Ruleset,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

const DOC: &str = include_str!("../../docs/DICE.md");

/// The public seed of the worked examples: the bytes 0, 1, …, 31, as in the test vectors.
const SEED: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    31,
];

/// The contributions every worked example records, in this order.
const CONTRIBUTIONS: [&str; 2] = ["alice", "bob"];

fn commitment() -> String {
    hex::encode(seed::commitment(&SEED))
}

/// The seed of interval key `after_turn` (docs/DICE.md "Keys"), written out again here.
fn interval_seed(root: &[u8; 32], campaign: &str, after_turn: u32) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"herald/interval-seed/v1");
    hasher.update(root);
    hasher.update(campaign.as_bytes());
    hasher.update(after_turn.to_be_bytes());
    hasher.finalize().into()
}

/// The seed of campaign turn `turn` (docs/DICE.md "Keys"), written out again here.
fn turn_seed(root: &[u8; 32], campaign: &str, turn: u32) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"herald/turn-seed/v1");
    hasher.update(root);
    hasher.update(campaign.as_bytes());
    hasher.update(turn.to_be_bytes());
    hasher.finalize().into()
}

/// One recorded draw, where the dice ledger would list it.
struct Row {
    event: String,
    pointer: String,
    key: String,
    draw: Value,
}

/// Every object shaped like a draw in `value`, with its JSON pointer, in document order (the
/// walk the dice ledger makes, docs/DICE.md "The dice ledger").
fn draws_in(value: &Value, pointer: &str, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            let shaped = map.get("word").is_some_and(Value::is_u64)
                && map.get("sides").is_some_and(Value::is_u64)
                && map.get("value").is_some_and(Value::is_u64)
                && map.get("purpose").is_some_and(Value::is_string);
            if shaped {
                out.push((pointer.to_string(), value.clone()));
                return;
            }
            for (key, child) in map {
                draws_in(child, &format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                draws_in(child, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// A stream played from empty under [`SEED`], the way the application layer positions the tape.
struct Play<R: Ruleset> {
    stream: &'static str,
    state: R::State,
    events: Vec<Value>,
    rows: Vec<Row>,
    /// Each key a die was drawn from: its id, seed and effective seed.
    keys: Vec<(String, [u8; 32], [u8; 32])>,
    contributions: Vec<String>,
}

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 12, 0, 0).single().unwrap_or_default()
}

impl<R: Ruleset> Play<R> {
    fn new(stream: &'static str) -> Self {
        Self {
            stream,
            state: R::State::default(),
            events: Vec::new(),
            rows: Vec::new(),
            keys: Vec::new(),
            contributions: Vec::new(),
        }
    }

    /// The tape for the next command: the key in force (the stream's seed, or a turn's seed
    /// derived from it as root), the contributions so far, the word where the last draw ended.
    fn tape(&mut self) -> (DiceTape, (DiceKey, [u8; 32], [u8; 32])) {
        let Some(cursor) = R::dice(&self.state) else {
            let key = seed::effective_seed(&SEED, self.stream, &[]);
            return (DiceTape::new(key, 0), (DiceKey::Stream, SEED, key));
        };
        let base = match cursor.key {
            DiceKey::Stream => SEED,
            DiceKey::Turn(_) | DiceKey::Interval(_) => cursor.key.derive(&SEED, self.stream).expect("a derived key"),
            DiceKey::Reseal(_) => panic!("the worked examples never reveal early"),
        };
        assert_eq!(cursor.commitment, seed::commitment(&base), "the key in force is the one committed");
        let key = seed::effective_seed(&base, self.stream, &cursor.contributions);
        (DiceTape::new(key, cursor.next_word), (cursor.key, base, key))
    }

    fn by_at(&mut self, actor: Actor, command: R::Command, recorded_at: DateTime<Utc>) -> Vec<R::Event> {
        let (dice, key) = self.tape();
        let mut ctx = Context { stream: self.stream.into(), actor, recorded_at, dice };
        let shown = serde_json::to_string(&command).unwrap_or_default();
        let events = R::decide(&self.state, &command, &mut ctx)
            .unwrap_or_else(|error| panic!("{shown} was refused: {} [{}] ({})", error.message, error.code, error.rule));
        for event in &events {
            R::evolve(&mut self.state, event);
            let value = serde_json::to_value(event).expect("events serialize");
            let mut found = Vec::new();
            draws_in(&value, "", &mut found);
            for (pointer, draw) in found {
                if !self.keys.iter().any(|(id, _, _)| *id == key.0.id()) {
                    self.keys.push((key.0.id(), key.1, key.2));
                }
                self.rows.push(Row { event: event.event_type(), pointer, key: key.0.id(), draw });
            }
            self.events.push(value);
        }
        if let Some(cursor) = R::dice(&self.state) {
            self.contributions = cursor.contributions;
        }
        events
    }

    fn by(&mut self, actor: Actor, command: R::Command) -> Vec<R::Event> {
        self.by_at(actor, command, at())
    }

    /// The participants' entropy, in order (every worked example records the same two).
    fn contribute(&mut self, actor: Actor) {
        for entropy in CONTRIBUTIONS {
            let command = R::contribute_entropy(entropy.into()).expect("the ruleset takes entropy");
            self.by(actor.clone(), command);
        }
        assert_eq!(self.contributions, CONTRIBUTIONS.map(String::from), "the contributions are mixed in");
    }

    /// The `n`-th (from 0) event of `kind`.
    fn event(&self, kind: &str, n: usize) -> &Value {
        self.events
            .iter()
            .filter(|event| event["type"] == kind)
            .nth(n)
            .unwrap_or_else(|| panic!("no {kind} #{n} among {:?}", self.types()))
    }

    fn types(&self) -> Vec<String> {
        self.events.iter().map(|event| event["type"].as_str().unwrap_or_default().to_owned()).collect()
    }

    /// The markdown block the document shows: inputs, draws, outcome numbers.
    fn block(&self, outcome: &[(&str, &str, usize, &str)]) -> String {
        let mut out = String::new();
        out.push_str("| Input | Value |\n|---|---|\n");
        out.push_str(&format!("| seed (key `stream`) | `{}` |\n", hex::encode(SEED)));
        out.push_str(&format!("| commitment (key `stream`) | `{}` |\n", commitment()));
        out.push_str(&format!("| stream | `{}` |\n", self.stream));
        let contributions: Vec<String> = self.contributions.iter().map(|c| format!("`{c}`")).collect();
        let contributions = if contributions.is_empty() { "none".to_owned() } else { contributions.join(", ") };
        out.push_str(&format!("| contributions | {contributions} |\n"));
        assert!(!self.keys.is_empty(), "a die was drawn");
        for (id, base, effective) in &self.keys {
            if id != "stream" {
                out.push_str(&format!("| seed (key `{id}`) | `{}` |\n", hex::encode(base)));
                out.push_str(&format!("| commitment (key `{id}`) | `{}` |\n", hex::encode(seed::commitment(base))));
            }
            out.push_str(&format!("| effective seed (key `{id}`) | `{}` |\n", hex::encode(effective)));
        }
        out.push('\n');
        out.push_str("| Event | Pointer | Key | Word | Sides | Value | Purpose |\n|---|---|---|---|---|---|---|\n");
        for row in &self.rows {
            out.push_str(&format!(
                "| `{}` | `{}` | {} | {} | {} | {} | {} |\n",
                row.event,
                row.pointer,
                row.key,
                row.draw["word"],
                row.draw["sides"],
                row.draw["value"],
                row.draw["purpose"].as_str().unwrap_or_default().replace('|', "\\|"),
            ));
        }
        out.push_str("\n| Outcome | Event | Pointer | Value |\n|---|---|---|---|\n");
        for (label, kind, n, pointer) in outcome {
            let value = self.event(kind, *n).pointer(pointer).unwrap_or_else(|| panic!("{kind} #{n} has no {pointer}"));
            let shown = match value {
                Value::String(text) => text.replace('|', "\\|"),
                other => other.to_string(),
            };
            out.push_str(&format!("| {label} | `{kind}` | `{pointer}` | {shown} |\n"));
        }
        out
    }
}

/// The text between `<!-- worked:{name} -->` and `<!-- /worked:{name} -->` in docs/DICE.md.
fn documented(name: &str) -> &'static str {
    let (open, close) = (format!("<!-- worked:{name} -->"), format!("<!-- /worked:{name} -->"));
    let start = DOC.find(&open).unwrap_or_else(|| panic!("docs/DICE.md has no {open}")) + open.len();
    let end = DOC[start..].find(&close).unwrap_or_else(|| panic!("docs/DICE.md has no {close}")) + start;
    DOC[start..end].trim()
}

/// The generated block equals the documented one (or, with `HERALD_PRINT_WORKED`, is printed).
fn compare(name: &str, block: &str) {
    if std::env::var_os("HERALD_PRINT_WORKED").is_some() {
        println!("<!-- worked:{name} -->\n{block}<!-- /worked:{name} -->\n");
        return;
    }
    assert_eq!(documented(name), block.trim(), "docs/DICE.md's worked example {name} drifted from the code");
}

fn every_draw_recomputes<R: Ruleset>(play: &Play<R>) {
    // An outsider's check: each recorded face is the die rule applied at the recorded word of the
    // recorded key's tape.
    for row in &play.rows {
        let base = match row.key.split_once(':') {
            Some(("turn", turn)) => turn_seed(&SEED, play.stream, turn.parse().expect("a turn")),
            _ => SEED,
        };
        let key = seed::effective_seed(&base, play.stream, &play.contributions);
        let (word, sides) = (row.draw["word"].as_u64().expect("word"), row.draw["sides"].as_u64().expect("sides"));
        let draw = DiceTape::new(key, word).roll(u32::try_from(sides).expect("sides"), "check").expect("a draw");
        assert_eq!(u64::from(draw.value), row.draw["value"].as_u64().expect("value"), "{} {}", row.event, row.pointer);
    }
}

// ---------------------------------------------------------------------------------------------
// warmachine

#[test]
fn warmachine_worked_example() {
    use herald_domain::warmachine::battle::Warmachine;
    use warmachine_support::*;
    let small = 0.590_551_181_102_362_2;
    let mut target = solo();
    target.stats.def = 12;
    let mut play = Play::<Warmachine>::new("battle-00000000-0000-0000-0000-000000000002");
    let mut create = create_command(
        table_with(vec![]),
        vec![
            model("red-solo", RED, solo(), 10.0, 10.0),
            model("blue-target", BLUE, target, 10.0 + 2.0 * small + 0.2, 10.0),
        ],
        0,
    );
    if let herald_domain::warmachine::battle::command::WarmachineCommand::CreateBattle { seed_commitment, .. } =
        &mut create
    {
        *seed_commitment = commitment();
    }
    play.by(judge(), create);
    play.contribute(judge());
    play.by(controller(RED), start_turn());
    play.by(controller(RED), activate("red-solo"));
    play.by(controller(RED), forfeit("red-solo"));
    play.by(controller(RED), attack("red-solo", "Blade", "blue-target"));
    dump("warmachine", &play);
    every_draw_recomputes(&play);
    compare(
        "warmachine",
        &play.block(&[
            ("MAT of red-solo", "warmachine.AttackResolved", 0, "/roll/attack_stat"),
            ("attack total (2d6 + MAT)", "warmachine.AttackResolved", 0, "/roll/total"),
            ("DEF of blue-target", "warmachine.AttackResolved", 0, "/roll/target_def"),
            ("hit", "warmachine.AttackResolved", 0, "/roll/hit"),
            ("POW of the Blade", "warmachine.AttackResolved", 0, "/damage/0/roll/pow"),
            ("damage total (2d6 + POW)", "warmachine.AttackResolved", 0, "/damage/0/roll/total"),
            ("ARM of blue-target", "warmachine.AttackResolved", 0, "/damage/0/roll/target_arm"),
            ("damage points (total − ARM)", "warmachine.AttackResolved", 0, "/damage/0/roll/damage"),
            ("boxes marked (of 5)", "warmachine.AttackResolved", 0, "/damage/0/marked"),
            ("destroyed", "warmachine.AttackResolved", 0, "/damage/0/destroyed"),
        ]),
    );
}

/// In print mode, every event of `play` as JSON lines in target/worked-{name}.jsonl, to find
/// the pointers of the outcome numbers.
fn dump<R: Ruleset>(name: &str, play: &Play<R>) {
    if std::env::var_os("HERALD_PRINT_WORKED").is_some() {
        let lines: Vec<String> = play.events.iter().map(Value::to_string).collect();
        std::fs::write(format!("{}/../target/worked-{name}.jsonl", env!("CARGO_MANIFEST_DIR")), lines.join("\n"))
            .expect("written");
    }
}

// ---------------------------------------------------------------------------------------------
// coalition battle

#[test]
fn coalition_battle_worked_example() {
    use coalition_support::*;
    use herald_domain::coalition::battle::{
        attempt::{Attempt, AttemptKind},
        command::Engagement,
        BattleCommand, BattleOptions, CoalitionBattle, SideId,
    };
    let mut play = Play::<CoalitionBattle>::new("battle-00000000-0000-0000-0000-000000000001");
    let mut create = create(armies(), BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0);
    if let BattleCommand::CreateBattle { seed_commitment, .. } = &mut create {
        *seed_commitment = commitment();
    }
    play.by_at(judge(), create, before());
    play.contribute(judge());
    for (side, actor) in [(SideId::A, player_a()), (SideId::B, player_b())] {
        let strategy = BattleCommand::SubmitStrategy {
            side,
            strategy: format!("side {side} holds the ridge"),
            army: None,
            // Side a risks 500 of its largest slot to kill Darkhand (seed 003 §4.3.2).
            attempt: (side == SideId::A).then_some(Attempt { kind: AttemptKind::Kill, target: None }),
            departure: None,
        };
        play.by_at(actor, strategy, before());
    }
    for (side, bonus) in [(SideId::A, 4), (SideId::B, 2)] {
        play.by_at(judge(), BattleCommand::AssignStrategyBonus { side, bonus, note: None }, before());
    }
    play.by_at(judge(), BattleCommand::ResolveBattle { running_away: None }, after());
    dump("coalition-battle", &play);
    every_draw_recomputes(&play);
    compare(
        "coalition-battle",
        &play.block(&[
            ("bonuses of side a", "coalition.BattleResolved", 0, "/bonuses/a"),
            ("bonuses of side b", "coalition.BattleResolved", 0, "/bonuses/b"),
            ("side a die 1 + bonuses", "coalition.BattleResolved", 0, "/dice/a/0/total"),
            ("side a die 2 + bonuses", "coalition.BattleResolved", 0, "/dice/a/1/total"),
            ("side a die 3 + bonuses", "coalition.BattleResolved", 0, "/dice/a/2/total"),
            ("side a die 4 + bonuses", "coalition.BattleResolved", 0, "/dice/a/3/total"),
            ("side b die 1 + bonuses", "coalition.BattleResolved", 0, "/dice/b/0/total"),
            ("side b die 2 + bonuses", "coalition.BattleResolved", 0, "/dice/b/1/total"),
            ("side b die 3 + bonuses", "coalition.BattleResolved", 0, "/dice/b/2/total"),
            ("side b die 4 + bonuses", "coalition.BattleResolved", 0, "/dice/b/3/total"),
            ("pair winners", "coalition.BattleResolved", 0, "/pairs"),
            ("pairs won", "coalition.BattleResolved", 0, "/pairs_won"),
            ("winner", "coalition.BattleResolved", 0, "/winner"),
            ("decided by", "coalition.BattleResolved", 0, "/decided_by"),
            ("casualties of side a", "coalition.BattleResolved", 0, "/casualties/a"),
            ("casualties of side b", "coalition.BattleResolved", 0, "/casualties/b"),
            ("troops Sai Rei risked, per slot", "coalition.KillAttempted", 0, "/risked"),
            ("kill attempt", "coalition.KillAttempted", 0, "/outcome"),
            ("risked troops lost, per slot", "coalition.KillAttempted", 0, "/risked_lost"),
        ]),
    );
}

// ---------------------------------------------------------------------------------------------
// zone-rpg

#[test]
fn zone_rpg_worked_example() {
    use herald_domain::zone_rpg::{command::ZoneRpgCommand, ZoneRpg};
    use zone_support::*;
    let (zones, borders) = chain(&["z0", "z1", "z2", "z3", "z4", "z5"]);
    let table = table(vec![
        pc("Balthasar", "alice", "z5").health(10),
        npc("bandit", "z0").saves(10, 8, 10).armed(ranged("bow", 6, 8)),
    ])
    .zones(zones, borders);
    let mut create = table.create(0);
    if let ZoneRpgCommand::CreateBattle { seed_commitment, .. } = &mut create {
        *seed_commitment = commitment();
    }
    let mut play = Play::<ZoneRpg>::new("battle-00000000-0000-0000-0000-000000000003");
    play.by(gm(), create);
    play.contribute(gm());
    play.by(gm(), start_round(BANDITS));
    play.by(gm(), take_turn("bandit"));
    play.by(gm(), attack("bandit", Some("bow"), "Balthasar"));
    play.by(player("alice"), decline("Balthasar"));
    dump("zone-rpg", &play);
    every_draw_recomputes(&play);
    compare(
        "zone-rpg",
        &play.block(&[
            ("WIT of bandit", "zone-rpg.AttackDeclared", 0, "/wit_save/value"),
            ("WIT save passed (d20 < WIT)", "zone-rpg.AttackDeclared", 0, "/wit_save/passed"),
            ("hit", "zone-rpg.AttackDeclared", 0, "/hit"),
            ("damage die", "zone-rpg.AttackResolved", 0, "/rolls/0/die"),
            ("damage", "zone-rpg.AttackResolved", 0, "/rolls/0/damage"),
            ("armour", "zone-rpg.AttackResolved", 0, "/rolls/0/armour"),
            ("suffered", "zone-rpg.AttackResolved", 0, "/rolls/0/suffered"),
            ("Balthasar's health after (from 10)", "zone-rpg.CharacterHit", 0, "/health"),
        ]),
    );
}

// ---------------------------------------------------------------------------------------------
// percentile-skirmish

#[test]
fn percentile_skirmish_worked_example() {
    use herald_domain::percentile_skirmish::battle::{PercentileSkirmish, SkirmishCommand};
    use herald_domain::percentile_skirmish::mini::{ArmourSlot, MiniProfile};
    use percentile_support::*;
    let swordsman = |name: &str, level: u32, initiative: i32| MiniProfile {
        weapons: vec![melee("Sword", "d6+2")],
        ..card(name, level, initiative, 30)
    };
    let guard =
        MiniProfile { armour: vec![armour("Mail", ArmourSlot::Body, 2, true, false)], ..swordsman("Guard", 1, 5) };
    let minis = vec![
        mini("red-a", RED, swordsman("Fighter", 2, 10), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, guard, 11.0, 10.0, 180.0),
    ];
    let mut create = create_command(Default::default(), minis, Default::default(), Default::default(), 0);
    if let SkirmishCommand::CreateBattle { seed_commitment, .. } = &mut create {
        *seed_commitment = commitment();
    }
    let mut play = Play::<PercentileSkirmish>::new("battle-00000000-0000-0000-0000-000000000004");
    play.by(judge(), create);
    play.contribute(judge());
    play.by(alice(), declare(RED, &["red-a"]));
    play.by(alice(), strike("red-a", "blue-b", "Sword"));
    play.by(alice(), pick("red-a", herald_domain::percentile_skirmish::rules::CombatChoice::ThrustToTheBody));
    play.by(bob(), pick("blue-b", herald_domain::percentile_skirmish::rules::CombatChoice::ThrustToTheBody));
    dump("percentile-skirmish", &play);
    every_draw_recomputes(&play);
    compare(
        "percentile-skirmish",
        &play.block(&[
            ("red-a's option", "percentile-skirmish.OpenCombatResolved", 0, "/attacker_option"),
            ("blue-b's option", "percentile-skirmish.OpenCombatResolved", 0, "/defender_option"),
            ("exchange", "percentile-skirmish.OpenCombatResolved", 0, "/exchange"),
            ("red-a's blow on blue-b: d6+2", "percentile-skirmish.OpenCombatResolved", 0, "/damage/0/damage/rolled"),
            ("blue-b's armour (Mail)", "percentile-skirmish.OpenCombatResolved", 0, "/damage/0/damage/armour"),
            ("blue-b takes", "percentile-skirmish.OpenCombatResolved", 0, "/damage/0/damage/taken"),
            ("blue-b's life left (of 30)", "percentile-skirmish.OpenCombatResolved", 0, "/damage/0/life_left"),
            ("blue-b's blow on red-a: d6+2", "percentile-skirmish.OpenCombatResolved", 0, "/damage/1/damage/rolled"),
            ("red-a takes", "percentile-skirmish.OpenCombatResolved", 0, "/damage/1/damage/taken"),
            ("red-a's life left (of 30)", "percentile-skirmish.OpenCombatResolved", 0, "/damage/1/life_left"),
        ]),
    );
}

// ---------------------------------------------------------------------------------------------
// swift-swords

#[test]
fn swift_swords_worked_example() {
    use herald_domain::swift_swords::battle::{command::SwiftSwordsCommand, SwiftSwords};
    use swift_support::*;
    let setup = Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")]);
    let mut create = setup.command(0);
    if let SwiftSwordsCommand::CreateBattle { seed_commitment, .. } = &mut create {
        *seed_commitment = commitment();
    }
    let mut play = Play::<SwiftSwords>::new("battle-00000000-0000-0000-0000-000000000005");
    play.by(gm(), create);
    play.contribute(gm());
    play.by(gm(), begin());
    play.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    if !play.state.pending.is_empty() {
        play.by(gm(), no_defence("goblin-1"));
    }
    dump("swift-swords", &play);
    every_draw_recomputes(&play);
    compare(
        "swift-swords",
        &play.block(&[
            ("roland's hand after the action dice", "swift-swords.ActionDiceRolled", 1, "/hand"),
            ("action die paid for the attack", "swift-swords.ActionBegun", 0, "/paid"),
            ("attack dice (weapon 4d)", "swift-swords.AttackResolved", 0, "/record/dice/rolled"),
            ("success threshold", "swift-swords.AttackResolved", 0, "/record/roll/threshold"),
            ("successes", "swift-swords.AttackResolved", 0, "/record/roll/successes"),
            ("ones", "swift-swords.AttackResolved", 0, "/record/roll/ones"),
            ("fumble", "swift-swords.AttackResolved", 0, "/record/fumble"),
            ("exposures", "swift-swords.AttackResolved", 0, "/record/exposures"),
            ("armour", "swift-swords.AttackResolved", 0, "/record/armour"),
            ("hits", "swift-swords.AttackResolved", 0, "/record/hits"),
            ("damage", "swift-swords.AttackResolved", 0, "/record/damage"),
            ("state taken by goblin-1", "swift-swords.StateTaken", 0, "/state"),
        ]),
    );
}

// ---------------------------------------------------------------------------------------------
// coalition campaign (`coalition-campaign@4`): one turn with players' entropy and a random route

#[test]
fn coalition_campaign_worked_example() {
    use campaign_support::{at, judge, mages, map, on, player, posting};
    use herald_domain::coalition::{
        army::RankClass,
        campaign::{command::TurnKeyCommitment, CampaignCommand, CampaignOptions, CoalitionCampaign},
    };
    const STREAM: &str = "campaign-00000000-0000-0000-0000-000000000006";
    let mut play = Play::<CoalitionCampaign>::new(STREAM);
    let create = CampaignCommand::CreateCampaign {
        name: "Worked example".into(),
        map: map(),
        players: vec![],
        armies: vec![on(mages("Barrin", RankClass::PlaguelordCommander), "13E")],
        options: CampaignOptions { enforce_army_counts: false, enforce_site_counts: false, ..Default::default() },
        seed_commitment: commitment(),
        positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
        mercenaries: vec![],
        interval_commitment: Some(hex::encode(seed::commitment(&interval_seed(&SEED, STREAM, 0)))),
    };
    play.by_at(judge(), create, at(0));
    let turn_key = TurnKeyCommitment {
        turn: 1,
        commitment: hex::encode(seed::commitment(&turn_seed(&SEED, STREAM, 1))),
        interval_commitment: Some(hex::encode(seed::commitment(&interval_seed(&SEED, STREAM, 1)))),
    };
    play.by_at(judge(), CampaignCommand::OpenTurn { deadline: at(12), turn_key: Some(turn_key) }, at(1));
    let barrin = player(&campaign_support::controller("Barrin"));
    for entropy in CONTRIBUTIONS {
        play.by_at(barrin.clone(), CampaignCommand::ContributeEntropy { entropy: entropy.into() }, at(2));
    }
    play.by_at(barrin, posting(Some("Barrin: 13E > 11F"), vec![], false), at(2));
    play.by_at(judge(), CampaignCommand::LockTurn, at(12));
    let interval_seed = Some(hex::encode(interval_seed(&SEED, STREAM, 0)));
    play.by_at(judge(), CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed }, at(13));
    assert_eq!(play.contributions, CONTRIBUTIONS.map(String::from), "the turn's key mixes the contributions");
    dump("coalition-campaign", &play);
    every_draw_recomputes(&play);
    compare(
        "coalition-campaign",
        &play.block(&[
            ("order", "coalition.OrdersPosted", 0, "/orders/0/order/legs/0"),
            ("route taken", "coalition.MovementAdjudicated", 0, "/moves/0/route"),
            ("Barrin ends on", "coalition.MovementAdjudicated", 0, "/moves/0/to"),
            ("next word of the tape", "coalition.TurnAdjudicated", 0, "/next_word"),
        ]),
    );
}
