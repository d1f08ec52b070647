//! A campaign round's folded state.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    capture::Conversion,
    command::CampaignOptions,
    control::ControlState,
    event::{CampaignEvent, Delivery},
    judges::JudgeRoster,
    mercenaries::MercenaryState,
    newcomers::Newcomer,
    sanctions::{PlayerReprimanded, SanctionImposed},
    voting::Vote,
};
use crate::{
    coalition::{
        army::{Army, Team, TroopLine},
        days::{apply_healing, DaysEvent, DaysState, Victory},
        map::{Map, Square},
        orders::{Leg, PostedOrder},
        setup::Player,
    },
    CommittedKey, DiceCursor, DiceKey,
};

/// Where the current turn stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum TurnPhase {
    /// No turn open (before the first, or after an adjudication).
    #[default]
    Closed,
    /// Orders are being posted until the deadline.
    Open {
        /// The movement deadline.
        deadline: DateTime<Utc>,
    },
    /// Locked: waiting for adjudication.
    Locked {
        /// The movement deadline.
        deadline: DateTime<Utc>,
    },
}

/// An army in the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyState {
    /// The army (troops as they stand).
    pub army: Army,
    /// Where it is.
    pub square: Square,
    /// Players allowed to order it.
    pub controllers: BTreeSet<String>,
    /// Legs of a long move still to do.
    pub long_move: Vec<Leg>,
    /// The battle it is in (announced, not yet applied).
    pub battle: Option<String>,
}

/// A battle the campaign announced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleLink {
    /// The turn it was announced.
    pub turn: u32,
    /// Where.
    pub square: Square,
    /// The armies in it.
    pub armies: Vec<String>,
    /// Whether the service opened its stream.
    pub automatic: bool,
    /// Whether its result has been applied.
    pub applied: bool,
    /// A 2v1 or 2v2 battle from a joint engagement (seed 003 §3.2.5, §4.4).
    #[serde(default)]
    pub joint: bool,
}

/// Transferred troops on their way to an army attacked the turn they were sent: it receives them
/// when that battle's result is applied (seed 003 §3.2.4.3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingTransfer {
    /// The turn they were sent.
    pub turn: u32,
    /// The sending army.
    pub from: String,
    /// The receiving army.
    pub to: String,
    /// The battle whose end they wait for.
    pub battle: String,
    /// The troops, one line per creature at the sender's size and colors.
    pub moving: Vec<TroopLine>,
}

/// A campaign round's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    /// Whether the round exists.
    pub created: bool,
    /// Its name.
    pub name: String,
    /// The map (sites change state as they are destroyed).
    pub map: Map,
    /// The players.
    pub players: Vec<Player>,
    /// Options.
    pub options: CampaignOptions,
    /// The living armies, by name.
    pub armies: BTreeMap<String, ArmyState>,
    /// Armies killed, by name.
    pub killed: BTreeSet<String>,
    /// The current (or last) turn number; 0 before the first.
    pub turn: u32,
    /// Where the turn stands.
    pub phase: TurnPhase,
    /// The current turn's orders, in posting order.
    pub orders: Vec<PostedOrder>,
    /// Posts so far in the round (numbers post ids).
    pub posts: u64,
    /// Days, sieges and the end game.
    pub days: DaysState,
    /// Battles announced, by stream.
    pub battles: BTreeMap<String, BattleLink>,
    /// `sha256(root seed)`, hex.
    pub seed_commitment: Option<String>,
    /// The tape's next word.
    pub next_word: u64,
    /// The round's winner.
    pub victory: Option<Victory>,
    /// Transferred troops waiting for the end of a battle (seed 003 §3.2.4.3.2).
    #[serde(default)]
    pub transfers: Vec<PendingTransfer>,
    /// What the round's movement events list in `positions`.
    #[serde(default)]
    pub positions_record: super::event::PositionsRecord,
    /// Teams that have had an army ranked Captain/Evincar or higher (seed 003 §1.7.3).
    #[serde(default)]
    pub commanded: BTreeSet<Team>,
    /// The control list's authority, contingencies, activity and limits (seed 003 ch. 5).
    #[serde(default)]
    pub control: ControlState,
    /// The judges and their calls (seed 003 §1.3).
    #[serde(default)]
    pub judges: JudgeRoster,
    /// Sanctions imposed (seed 003 §5.4.1).
    #[serde(default)]
    pub sanctions: Vec<SanctionImposed>,
    /// Reprimands recorded (seed 003 §5.4.1).
    #[serde(default)]
    pub reprimands: Vec<PlayerReprimanded>,
    /// Votes, by id (seed 003 §1.4).
    #[serde(default)]
    pub votes: BTreeMap<String, Vote>,
    /// Mercenary armies, by name (seed 003 ch. 6).
    #[serde(default)]
    pub mercenaries: BTreeMap<String, MercenaryState>,
    /// Raiders that disbanded (seed 003 §6.3.2).
    #[serde(default)]
    pub disbanded: BTreeSet<String>,
    /// The turn's after-lock raider edit (seed 003 §6.3.2).
    #[serde(default)]
    pub raider_edit: Option<PostedOrder>,
    /// Partially converted armies (seed 003 §4.5).
    #[serde(default)]
    pub conversions: BTreeMap<String, Conversion>,
    /// Each captured army's team and colors before its first capture (seed 003 §4.5).
    #[serde(default)]
    pub origins: BTreeMap<String, (Team, Vec<crate::coalition::map::Faction>)>,
    /// Players who joined mid-round (seed 003 §2.6).
    #[serde(default)]
    pub newcomers: BTreeMap<String, Newcomer>,
    /// Each announced battle's weather (seed 003 §4.1.2.5).
    #[serde(default)]
    pub weather: BTreeMap<String, String>,
    /// Each turn's committed seed, by turn (docs/DICE.md "Campaign keys").
    #[serde(default)]
    pub turn_keys: BTreeMap<u32, TurnKey>,
    /// A round of `coalition-campaign@4` (its first event commits to key `interval:0`): players
    /// mix entropy into each turn, the dice between adjudications come from interval keys, and
    /// nothing draws from the root, which is revealed when the round ends.
    #[serde(default)]
    pub interval_keyed: bool,
    /// Each interval key's committed seed, by the turn after whose adjudication it is drawn from
    /// (0: from the set-up).
    #[serde(default)]
    pub interval_keys: BTreeMap<u32, TurnKey>,
    /// Entropy contributed to each turn, in order (docs/DICE.md "Keys").
    #[serde(default)]
    pub entropy: BTreeMap<u32, Vec<crate::dice::EntropyContributed>>,
    /// Why an admin closed the round, if one did.
    #[serde(default)]
    pub closed: Option<String>,
    /// The root seed, hex, once revealed at the round's end (`coalition-campaign@4`).
    #[serde(default)]
    pub root_revealed: Option<String>,
}

/// A campaign turn's seed: its commitment and, once the turn is adjudicated, the seed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TurnKey {
    /// `sha256(turn seed)`, hex.
    pub commitment: String,
    /// The turn's seed, hex, once revealed.
    pub revealed: Option<String>,
}

impl CampaignState {
    /// The key the campaign's dice come from now. In a round of `coalition-campaign@4`: the
    /// turn's key from its lock through its adjudication (the contributions are then final), an
    /// interval key otherwise (`interval:<n>` from turn `n`'s adjudication until turn `n + 1`'s
    /// lock). Before: the open (or locked) turn's key, or the root's tape between turns and in
    /// rounds recorded before turn keys.
    pub fn dice_key(&self) -> DiceKey {
        if self.interval_keyed {
            return match self.phase {
                TurnPhase::Locked { .. } => DiceKey::Turn(self.turn),
                TurnPhase::Open { .. } => DiceKey::Interval(self.turn.saturating_sub(1)),
                TurnPhase::Closed => DiceKey::Interval(self.turn),
            };
        }
        match self.phase {
            TurnPhase::Open { .. } | TurnPhase::Locked { .. } if self.turn_keys.contains_key(&self.turn) => {
                DiceKey::Turn(self.turn)
            }
            _ => DiceKey::Stream,
        }
    }

    /// Whether the round is over: won, or closed by an admin.
    pub fn ended(&self) -> bool {
        self.victory.is_some() || self.closed.is_some()
    }

    /// The entropy mixed into `key`'s tape: a turn's key and the interval after it take the
    /// contributions made to that turn before its lock; other keys none.
    pub fn contributions(&self, key: DiceKey) -> Vec<String> {
        match key {
            DiceKey::Turn(turn) | DiceKey::Interval(turn) if self.interval_keyed => {
                self.entropy.get(&turn).map(|made| made.iter().map(|c| c.entropy.clone()).collect()).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// The first adjudicated turn whose seed is not revealed yet.
    pub fn turn_key_due(&self) -> Option<u32> {
        let adjudicated = |turn: u32| turn < self.turn || (turn == self.turn && self.phase == TurnPhase::Closed);
        self.turn_keys.iter().find(|(turn, key)| key.revealed.is_none() && adjudicated(**turn)).map(|(turn, _)| *turn)
    }

    /// Whether the root seed is now due to be revealed: the round of `coalition-campaign@4` is
    /// over.
    pub fn root_due(&self) -> bool {
        self.interval_keyed && self.ended() && self.root_revealed.is_none()
    }

    /// The dice cursor: the root seed is revealed only when a round of `coalition-campaign@4`
    /// ends; each turn's and interval's seed is derived from it, a turn's revealed once the turn
    /// is adjudicated, an interval's with the next turn's adjudication.
    pub fn dice_cursor(&self) -> Option<DiceCursor> {
        use crate::dice::seed::parse_hex32;
        let root = parse_hex32(self.seed_commitment.as_deref()?)?;
        let due = self.turn_key_due();
        let mut keys = vec![CommittedKey {
            key: DiceKey::Stream,
            commitment: root,
            revealed: self.root_revealed.as_deref().and_then(parse_hex32),
            reveal_due: self.root_due(),
        }];
        for (turn, key) in &self.turn_keys {
            keys.push(CommittedKey {
                key: DiceKey::Turn(*turn),
                commitment: parse_hex32(&key.commitment)?,
                revealed: key.revealed.as_deref().and_then(parse_hex32),
                reveal_due: due == Some(*turn),
            });
        }
        for (after, key) in &self.interval_keys {
            keys.push(CommittedKey {
                key: DiceKey::Interval(*after),
                commitment: parse_hex32(&key.commitment)?,
                revealed: key.revealed.as_deref().and_then(parse_hex32),
                reveal_due: false,
            });
        }
        let key = self.dice_key();
        let current = keys.iter().find(|committed| committed.key == key)?;
        let (commitment, revealed) = (current.commitment, current.revealed);
        Some(DiceCursor {
            key,
            commitment,
            contributions: self.contributions(key),
            next_word: self.next_word,
            reveal_due: due.is_some() || self.root_due(),
            revealed,
            keys,
        })
    }

    /// Apply one event (the decider's `evolve`).
    pub fn apply(&mut self, event: &CampaignEvent) {
        match event {
            CampaignEvent::CampaignCreated {
                name,
                map,
                players,
                options,
                seed_commitment,
                at,
                positions_record,
                interval_commitment,
            } => {
                if let Some(commitment) = interval_commitment {
                    self.interval_keyed = true;
                    self.interval_keys.insert(0, TurnKey { commitment: commitment.clone(), revealed: None });
                }
                if let Some(at) = at {
                    for player in players {
                        self.control.last_posted.insert(player.name.clone(), *at);
                    }
                }
                self.created = true;
                self.name = name.clone();
                self.map = map.clone();
                self.players = players.clone();
                self.options = options.clone();
                self.seed_commitment = Some(seed_commitment.clone());
                self.positions_record = *positions_record;
            }
            CampaignEvent::ArmyPlaced { army, square, controllers } => {
                let state = ArmyState {
                    army: army.clone(),
                    square: *square,
                    controllers: controllers.iter().cloned().collect(),
                    long_move: Vec::new(),
                    battle: None,
                };
                if army.rank.is_captain_or_above() && army.team != Team::Mercenary {
                    self.commanded.insert(army.team);
                }
                self.armies.insert(army.name.clone(), state);
            }
            CampaignEvent::ControllersSet { army, controllers } => {
                if let Some(state) = self.armies.get_mut(army) {
                    state.controllers = controllers.iter().cloned().collect();
                }
            }
            CampaignEvent::TurnOpened { turn, deadline, seed_commitment, interval_commitment } => {
                if let Some(commitment) = seed_commitment {
                    self.turn_keys.insert(*turn, TurnKey { commitment: commitment.clone(), revealed: None });
                }
                if let Some(commitment) = interval_commitment {
                    self.interval_keys.insert(*turn, TurnKey { commitment: commitment.clone(), revealed: None });
                }
                self.turn = *turn;
                self.phase = TurnPhase::Open { deadline: *deadline };
                self.orders.clear();
                self.raider_edit = None;
            }
            CampaignEvent::OrdersPosted { orders, .. } => {
                self.posts += 1;
                self.orders.extend(orders.iter().cloned());
                for order in orders {
                    self.posted(&order.posted_by, order.posted_at);
                }
            }
            CampaignEvent::TurnLocked { .. } => {
                if let TurnPhase::Open { deadline } = self.phase {
                    self.phase = TurnPhase::Locked { deadline };
                }
                // What counts for the turn's orders is the list at the lock (seed 003 §5.4.2).
                self.control.at_lock =
                    Some(self.armies.iter().map(|(name, army)| (name.clone(), army.controllers.clone())).collect());
            }
            CampaignEvent::BattleResultApplied { battle, losses, .. } => {
                use super::event::ArmyLosses;
                self.count_newcomer_battles(losses.iter().map(|l| l.army.as_str()));
                for ArmyLosses { army, losses: lost } in losses {
                    if let Some(state) = self.armies.get_mut(army) {
                        for (line, loss) in state.army.troops.iter_mut().zip(lost) {
                            line.troops = line.troops.saturating_sub(*loss);
                        }
                    }
                }
                for state in self.armies.values_mut().filter(|s| s.battle.as_deref() == Some(battle.as_str())) {
                    state.battle = None;
                }
                if let Some(link) = self.battles.get_mut(battle) {
                    link.applied = true;
                }
            }
            CampaignEvent::ArmyKilled { army, .. } => {
                self.armies.remove(army);
                self.killed.insert(army.clone());
                self.days.forget(army);
                self.conversions.remove(army);
            }
            CampaignEvent::TroopsSent { turn, from, to, moving, troops, delivery, .. } => {
                if let Some(state) = self.armies.get_mut(from) {
                    state.army.troops = troops.clone();
                }
                if let Delivery::AfterBattle { battle } = delivery {
                    self.transfers.push(PendingTransfer {
                        turn: *turn,
                        from: from.clone(),
                        to: to.clone(),
                        battle: battle.clone(),
                        moving: moving.clone(),
                    });
                }
            }
            CampaignEvent::TroopsReceived { army, from, troops, battle, .. } => {
                if let Some(state) = self.armies.get_mut(army) {
                    state.army.troops = troops.clone();
                }
                if let Some(battle) = battle {
                    self.forget_transfer(from, army, battle);
                }
            }
            CampaignEvent::TransferredTroopsKilled { from, to, battle: Some(battle), .. } => {
                self.forget_transfer(from, to, battle);
            }
            CampaignEvent::TransferFailed { .. } | CampaignEvent::TransferredTroopsKilled { battle: None, .. } => {}
            CampaignEvent::ArmyBumped { army, to, .. } => {
                if let Some(state) = self.armies.get_mut(army) {
                    state.square = *to;
                }
            }
            CampaignEvent::ArmyRuledOn { army, from, to, reason, judged } => {
                if let Some(state) = self.armies.get_mut(army) {
                    state.square = *to;
                }
                if let Some(call) = judged {
                    let undo = super::judges::Undo::MoveBack { army: army.clone(), to: *from };
                    self.record_call(call, format!("ruling: {army} to {to} ({reason})"), undo);
                }
            }
            CampaignEvent::MovementAdjudicated { moves, positions, long_moves, .. } => {
                // Each report's `to` is where its army ended; `positions` gives the rest (every
                // army, in rounds recorded before `PositionsRecord::BeyondReports`, which then
                // restates the reports' squares: applied last, it has the last word either way).
                let reported = moves.iter().map(|report| (&report.army, report.to));
                let listed = positions.iter().map(|position| (&position.army, position.square));
                for (army, square) in reported.chain(listed) {
                    if let Some(state) = self.armies.get_mut(army) {
                        state.square = square;
                        state.long_move.clear();
                    }
                }
                for long_move in long_moves {
                    if let Some(state) = self.armies.get_mut(&long_move.army) {
                        state.long_move = long_move.legs.clone();
                    }
                }
            }
            CampaignEvent::Days(event) => self.apply_days(event),
            CampaignEvent::TroopsChanged { army, troops, legend } => {
                if let Some(state) = self.armies.get_mut(army) {
                    state.army.troops = troops.clone();
                    state.army.legend = legend.clone();
                }
            }
            CampaignEvent::BattleAnnounced { battle, turn, square, sides, automatic, joint, .. } => {
                let armies: Vec<String> = sides.iter().flat_map(|side| side.armies.iter().cloned()).collect();
                for army in &armies {
                    if let Some(state) = self.armies.get_mut(army) {
                        state.battle = Some(battle.clone());
                        state.long_move.clear();
                    }
                }
                let link = BattleLink {
                    turn: *turn,
                    square: *square,
                    armies,
                    automatic: *automatic,
                    applied: false,
                    joint: *joint,
                };
                self.battles.insert(battle.clone(), link);
            }
            CampaignEvent::JudgeRolled(rolled) => self.next_word = rolled.next_word,
            CampaignEvent::TurnSeedRevealed { turn, seed, .. } => {
                if let Some(key) = self.turn_keys.get_mut(turn) {
                    key.revealed = Some(seed.clone());
                }
            }
            CampaignEvent::IntervalSeedRevealed { after_turn, seed, .. } => {
                if let Some(key) = self.interval_keys.get_mut(after_turn) {
                    key.revealed = Some(seed.clone());
                }
            }
            CampaignEvent::TurnEntropyContributed { turn, entropy, by } => {
                self.entropy
                    .entry(*turn)
                    .or_default()
                    .push(crate::dice::EntropyContributed { entropy: entropy.clone(), by: by.clone() });
            }
            CampaignEvent::RoundClosed { reason, .. } => self.closed = Some(reason.clone()),
            CampaignEvent::RootSeedRevealed { seed } => self.root_revealed = Some(seed.clone()),
            CampaignEvent::TurnAdjudicated { next_word, .. } => {
                self.next_word = *next_word;
                self.phase = TurnPhase::Closed;
                self.orders.clear();
                self.control.at_lock = None;
                self.raider_edit = None;
            }
            other => self.apply_round(other),
        }
    }

    fn forget_transfer(&mut self, from: &str, to: &str, battle: &str) {
        self.transfers.retain(|t| !(t.from == from && t.to == to && t.battle == battle));
    }

    fn apply_days(&mut self, event: &DaysEvent) {
        self.days.apply(event);
        match event {
            DaysEvent::ArmyHealed { army, lines, .. } => {
                if let Some(state) = self.armies.get_mut(army) {
                    apply_healing(&mut state.army, lines);
                }
            }
            DaysEvent::SiteDestroyed { square, .. } => {
                if let Some(site) = self.map.sites.get_mut(square) {
                    site.destroyed = true;
                }
            }
            DaysEvent::RoundWon { victory } => self.victory = Some(victory.clone()),
            _ => {}
        }
    }
}
