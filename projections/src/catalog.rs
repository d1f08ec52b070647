//! The live read models, kept in memory and folded from `$all` in position order.
//!
//! The catalog is rebuilt from the log at start-up and caught up after every append, always by
//! reading `$all` from its checkpoint, so it sees events exactly once and in commit order no
//! matter how many requests append at once. A rebuilt catalog equals the live one (a test).
//!
//! `battle-` streams hold either a coalition battle or a warmachine battle. The stream name does
//! not say which, so every event is routed by the `rules` of its envelope (`warmachine@1` or
//! `coalition-battle@1`): several warmachine payloads (`entropy_contributed`, `seed_revealed`)
//! would also decode as coalition events, so trying one decoder and then the other would file
//! them under the wrong ruleset.

use std::collections::BTreeMap;
use std::sync::RwLock;

use herald_domain::{
    coalition::{
        battle::{BattleEvent, BattleState, CoalitionBattle},
        campaign::{CampaignEvent, CampaignState, CoalitionCampaign},
    },
    warmachine::battle::{Warmachine, WarmachineEvent, WarmachineState},
    Decider,
};
use herald_store::{EventStore, RecordedEvent, StoreError};

/// What kind of stream a name denotes, from its `{kind}-` prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// `battle-…`: a coalition battle decided by the Battle Judge, or a warmachine battle (the
    /// events' `rules` say which; see [`Catalog::ruleset_of`]).
    Battle,
    /// `campaign-…`: a coalition campaign round.
    Campaign,
    /// Anything else (tokens, future campaigns).
    Other,
}

impl StreamKind {
    /// The kind of `stream`.
    pub fn of(stream: &str) -> Self {
        if stream.starts_with("battle-") {
            Self::Battle
        } else if stream.starts_with("campaign-") {
            Self::Campaign
        } else {
            Self::Other
        }
    }
}

/// A battle's folded state and the version it is folded to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleEntry {
    /// The state.
    pub state: BattleState,
    /// The stream version of the last event folded.
    pub version: u64,
}

/// A campaign's folded state and the version it is folded to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignEntry {
    /// The state.
    pub state: CampaignState,
    /// The stream version of the last event folded.
    pub version: u64,
}

/// A warmachine battle's folded state and the version it is folded to.
///
/// Not `Eq`: positions and ranges are measured in inches as `f64`.
#[derive(Debug, Clone, PartialEq)]
pub struct WarmachineEntry {
    /// The state.
    pub state: WarmachineState,
    /// The stream version of the last event folded.
    pub version: u64,
}

/// The ruleset name [`Catalog::ruleset_of`] gives a coalition battle.
pub const COALITION: &str = "coalition";
/// The ruleset name [`Catalog::ruleset_of`] gives a warmachine battle.
pub const WARMACHINE: &str = "warmachine";

/// Whether an envelope's `rules` (`warmachine@1`) were written by the warmachine decider, of any
/// rules version: the name before the `@` is compared with [`Warmachine::RULES`]'s, so a new rules
/// version keeps its battles in the same read model.
pub fn is_warmachine_rules(rules: &str) -> bool {
    match (rules.split_once('@'), Warmachine::RULES.split_once('@')) {
        (Some((name, _)), Some((ours, _))) => name == ours,
        _ => false,
    }
}

/// The current state of a stream, for deciding what a reader may see of its events.
#[derive(Debug, Clone)]
pub enum Current {
    /// A coalition battle.
    Battle(Box<BattleState>),
    /// A warmachine battle: everything in it is public.
    Warmachine(Box<WarmachineState>),
    /// A campaign.
    Campaign(Box<CampaignState>),
    /// A stream with no read model.
    Unknown,
}

// Not `Eq`: warmachine states hold `f64` positions. `PartialEq` is what `same_as` needs.
#[derive(Debug, Default, Clone, PartialEq)]
struct Inner {
    checkpoint: Option<u64>,
    battles: BTreeMap<String, BattleEntry>,
    warmachines: BTreeMap<String, WarmachineEntry>,
    campaigns: BTreeMap<String, CampaignEntry>,
    streams: BTreeMap<String, u64>,
    undecodable: Vec<u64>,
}

/// The in-memory read models.
#[derive(Debug, Default)]
pub struct Catalog {
    inner: RwLock<Inner>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    /// A catalog rebuilt from the whole log.
    pub fn rebuild(store: &dyn EventStore) -> Result<Self, StoreError> {
        let catalog = Self::new();
        catalog.catch_up(store)?;
        Ok(catalog)
    }

    /// Fold every event of `$all` after the checkpoint. Returns the new checkpoint.
    pub fn catch_up(&self, store: &dyn EventStore) -> Result<Option<u64>, StoreError> {
        let mut inner = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            let from = inner.checkpoint.map_or(0, |position| position + 1);
            let batch = store.read_all(from, 1024)?;
            if batch.is_empty() {
                return Ok(inner.checkpoint);
            }
            for event in &batch {
                inner.fold(event);
            }
        }
    }

    /// The position of the last event folded.
    pub fn checkpoint(&self) -> Option<u64> {
        self.read().checkpoint
    }

    /// A battle's current state and version.
    pub fn battle(&self, stream: &str) -> Option<BattleEntry> {
        self.read().battles.get(stream).cloned()
    }

    /// A warmachine battle's current state and version.
    pub fn warmachine(&self, stream: &str) -> Option<WarmachineEntry> {
        self.read().warmachines.get(stream).cloned()
    }

    /// Every warmachine battle, by stream name.
    pub fn warmachines(&self) -> Vec<(String, WarmachineEntry)> {
        self.read().warmachines.iter().map(|(name, entry)| (name.clone(), entry.clone())).collect()
    }

    /// Which ruleset a battle stream holds: [`COALITION`] or [`WARMACHINE`]; `None` for a stream
    /// that holds no battle the catalog could fold (unknown, not a `battle-` stream, or only
    /// undecodable events). Routes use it to send a request to the right decider and view.
    pub fn ruleset_of(&self, stream: &str) -> Option<&'static str> {
        let inner = self.read();
        if inner.warmachines.contains_key(stream) {
            Some(WARMACHINE)
        } else if inner.battles.contains_key(stream) {
            Some(COALITION)
        } else {
            None
        }
    }

    /// A campaign's current state and version.
    pub fn campaign(&self, stream: &str) -> Option<CampaignEntry> {
        self.read().campaigns.get(stream).cloned()
    }

    /// Every campaign, by stream name.
    pub fn campaigns(&self) -> Vec<(String, CampaignEntry)> {
        self.read().campaigns.iter().map(|(name, entry)| (name.clone(), entry.clone())).collect()
    }

    /// The campaign a battle stream belongs to, if any.
    pub fn campaign_of_battle(&self, battle: &str) -> Option<String> {
        self.read().campaigns.iter().find(|(_, c)| c.state.battles.contains_key(battle)).map(|(name, _)| name.clone())
    }

    /// The current state of `stream`, for redaction.
    pub fn current(&self, stream: &str) -> Current {
        let inner = self.read();
        match StreamKind::of(stream) {
            StreamKind::Battle => match (inner.warmachines.get(stream), inner.battles.get(stream)) {
                (Some(warmachine), _) => Current::Warmachine(Box::new(warmachine.state.clone())),
                (None, Some(battle)) => Current::Battle(Box::new(battle.state.clone())),
                (None, None) => Current::Unknown,
            },
            StreamKind::Campaign => {
                inner.campaigns.get(stream).map_or(Current::Unknown, |e| Current::Campaign(Box::new(e.state.clone())))
            }
            StreamKind::Other => Current::Unknown,
        }
    }

    /// Every coalition battle, by stream name (warmachine battles are in [`Catalog::warmachines`]).
    pub fn battles(&self) -> Vec<(String, BattleEntry)> {
        self.read().battles.iter().map(|(name, entry)| (name.clone(), entry.clone())).collect()
    }

    /// Every stream and its version.
    pub fn streams(&self) -> BTreeMap<String, u64> {
        self.read().streams.clone()
    }

    /// Positions of events whose payload could not be decoded (reported by `/readyz`).
    pub fn undecodable(&self) -> Vec<u64> {
        self.read().undecodable.clone()
    }

    /// Whether two catalogs hold the same read models (used to prove rebuilds are exact).
    pub fn same_as(&self, other: &Catalog) -> bool {
        *self.read() == *other.read()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Inner {
    fn fold(&mut self, event: &RecordedEvent) {
        self.checkpoint = Some(event.position);
        self.streams.insert(event.stream.clone(), event.version);
        match StreamKind::of(&event.stream) {
            StreamKind::Battle if is_warmachine_rules(&event.rules) => self.fold_warmachine(event),
            StreamKind::Battle => self.fold_battle(event),
            StreamKind::Campaign => self.fold_campaign(event),
            StreamKind::Other => {}
        }
    }

    fn fold_campaign(&mut self, event: &RecordedEvent) {
        match serde_json::from_value::<CampaignEvent>(event.data.clone()) {
            Ok(campaign_event) => {
                let entry = self
                    .campaigns
                    .entry(event.stream.clone())
                    .or_insert_with(|| CampaignEntry { state: CampaignState::default(), version: 0 });
                CoalitionCampaign::evolve(&mut entry.state, &campaign_event);
                entry.version = event.version;
            }
            Err(error) => {
                tracing::error!(position = event.position, stream = %event.stream, %error, "undecodable campaign event");
                self.undecodable.push(event.position);
            }
        }
    }

    /// Report an event of one ruleset on a stream that already holds a battle of the other. It
    /// cannot be folded into either read model without making the stream's ruleset ambiguous, so
    /// it is reported like an undecodable event (no route appends one; it means a damaged log).
    fn mixed_ruleset(&mut self, event: &RecordedEvent) {
        tracing::error!(
            position = event.position,
            stream = %event.stream,
            rules = %event.rules,
            "battle event of another ruleset than its stream's"
        );
        self.undecodable.push(event.position);
    }

    fn fold_warmachine(&mut self, event: &RecordedEvent) {
        if self.battles.contains_key(&event.stream) {
            return self.mixed_ruleset(event);
        }
        match serde_json::from_value::<WarmachineEvent>(event.data.clone()) {
            Ok(warmachine_event) => {
                let entry = self
                    .warmachines
                    .entry(event.stream.clone())
                    .or_insert_with(|| WarmachineEntry { state: WarmachineState::default(), version: 0 });
                Warmachine::evolve(&mut entry.state, &warmachine_event);
                entry.version = event.version;
            }
            Err(error) => {
                tracing::error!(
                    position = event.position,
                    stream = %event.stream,
                    %error,
                    "undecodable warmachine event"
                );
                self.undecodable.push(event.position);
            }
        }
    }

    fn fold_battle(&mut self, event: &RecordedEvent) {
        if self.warmachines.contains_key(&event.stream) {
            return self.mixed_ruleset(event);
        }
        match serde_json::from_value::<BattleEvent>(event.data.clone()) {
            Ok(battle_event) => {
                let entry = self
                    .battles
                    .entry(event.stream.clone())
                    .or_insert_with(|| BattleEntry { state: BattleState::default(), version: 0 });
                CoalitionBattle::evolve(&mut entry.state, &battle_event);
                entry.version = event.version;
            }
            Err(error) => {
                tracing::error!(position = event.position, stream = %event.stream, %error, "undecodable battle event");
                self.undecodable.push(event.position);
            }
        }
    }
}
