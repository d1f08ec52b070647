//! What admins, judges and players ask of a campaign round.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{event::PositionsRecord, judges::Appointment, mercenaries::MercenaryEntry, voting::VoteSystem};
use crate::coalition::{
    army::{Army, Team, TroopLine},
    battle::{Departure, SideId},
    map::{Map, Square},
    orders::Order,
    rank::Rank,
    setup::Player,
};

/// Where an army starts the round (seed 003 §2.5.2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Start {
    /// By a base (or portal) of its own: the judge drops it on the nearest free square.
    Base {
        /// The base's square.
        base: Square,
    },
    /// On a square the judge chose.
    Square {
        /// The square.
        square: Square,
    },
}

/// An army entering the round, with who controls it and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyEntry {
    /// The army.
    pub army: Army,
    /// Players allowed to order it (seed 003 §5.2.1); empty means the player of the army's name.
    #[serde(default)]
    pub controllers: Vec<String>,
    /// Where it starts.
    pub start: Start,
}

/// Options of a round; every field has a documented default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct CampaignOptions {
    /// Hours after adjudication that a battle's strategies are due.
    pub battle_deadline_hours: u32,
    /// Check army counts per rank per side (seed 003 §2.5.2.1); off for small test rounds.
    pub enforce_army_counts: bool,
    /// Check the full site set (5 portals, 7 bases, 3 towns, seed 003 §2.5.1); off for small maps.
    pub enforce_site_counts: bool,
    /// Roll each battle's weather on the documented table when it is announced (seed 003
    /// §4.1.2.5); off, the Battle Judge posts it in the battle.
    #[serde(skip_serializing_if = "is_true")]
    pub roll_weather: bool,
    /// When the battles the round opens open their hidden formulas to every reader: `secret`
    /// (the default, seed 003 §4.2.2) or `open_at_end` (docs/DICE.md "Commitments to hidden
    /// formulas"). Left out of stored payloads while the default.
    #[serde(skip_serializing_if = "crate::coalition::battle::FormulaOpening::is_default")]
    pub battle_formula_opening: crate::coalition::battle::FormulaOpening,
}

fn is_true(value: &bool) -> bool {
    *value
}

impl Default for CampaignOptions {
    fn default() -> Self {
        Self {
            battle_deadline_hours: 72,
            enforce_army_counts: true,
            enforce_site_counts: true,
            roll_weather: true,
            battle_formula_opening: Default::default(),
        }
    }
}

/// One army's part in a resolved battle, as the battle stream decided it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BattleSideResult {
    /// The army.
    pub army: String,
    /// The side it fought on.
    pub side: SideId,
    /// Troops lost per troop line.
    pub losses: Vec<u32>,
    /// Killed: under seed 003 §4.3.1, or by a kill attempt (§4.3.3).
    pub killed: bool,
    /// Killed by a kill attempt (seed 003 §4.3.3) rather than for having no troops (§4.3.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub killed_by_attempt: bool,
    /// Captured by this army (seed 003 §4.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_by: Option<String>,
}

/// A resolved battle's result, read from its stream by the service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BattleResult {
    /// The battle stream.
    pub battle: String,
    /// The winning side, if any.
    pub winner: Option<SideId>,
    /// Each army's part.
    pub sides: Vec<BattleSideResult>,
    /// Which army of a winning pair leaves the square, and where, as its strategy named it
    /// (seed 003 §4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departure: Option<Departure>,
    /// Stratless partners that did not take part and leave the area (seed 003 §4.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<String>,
}

/// A command to a campaign stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CampaignCommand {
    /// Set up a round (admin or judge, seed 003 §2.5).
    CreateCampaign {
        /// The round's name.
        name: String,
        /// The map with its sites.
        map: Map,
        /// The players.
        players: Vec<Player>,
        /// The armies and where they start.
        armies: Vec<ArmyEntry>,
        /// Options.
        #[serde(default)]
        options: CampaignOptions,
        /// `sha256(root seed)`, filled in by the service.
        seed_commitment: String,
        /// The mercenaries, added after the teams' armies (seed 003 §2.5.3, ch. 6).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mercenaries: Vec<MercenaryEntry>,
        /// What the round's movement events list in `positions`, set by the service
        /// (`beyond_reports`); a stored command without it set up its round before the choice,
        /// and replays as it was recorded.
        #[serde(default, skip_serializing_if = "PositionsRecord::is_every_army")]
        positions_record: PositionsRecord,
        /// `sha256` of the seed of the dice drawn before the first turn's lock (key `interval:0`),
        /// derived from the root; filled in by the service (docs/DICE.md "Keys"). A stored command
        /// without it set up its round under `coalition-campaign@3` and replays as recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval_commitment: Option<String>,
    },
    /// Change who controls an army directly (the Movement or Battle Judge, seed 003 §5.2,
    /// §5.2.2.2): a change that breaks §5.3 needs `accept_illegal`, and must be undone within a turn.
    SetControllers {
        /// The army.
        army: String,
        /// Its legal controllers (empty: none).
        controllers: Vec<String>,
        /// Accept a change that breaks the limitations of §5.3 (§5.2.2.2).
        #[serde(default)]
        accept_illegal: bool,
        /// Why.
        #[serde(default)]
        reason: Option<String>,
    },
    /// A player with their side's authority asks for a control change (seed 003 §5.2.1).
    RequestControlChange {
        /// The army.
        army: String,
        /// Its controllers from now on (empty: none).
        controllers: Vec<String>,
        /// Why.
        #[serde(default)]
        reason: Option<String>,
    },
    /// The General/Chief Praetor or a holder gives the side's authority to other players
    /// (seed 003 §5.2.2.1).
    TransferControlAuthority {
        /// The side.
        team: Team,
        /// One or two players.
        holders: Vec<String>,
    },
    /// The judge authorizes other players to request control changes for one turn (seed 003
    /// §5.2.2.2).
    AuthorizeEmergencyControl {
        /// The side.
        team: Team,
        /// One or two players.
        holders: Vec<String>,
        /// Why.
        reason: String,
    },
    /// Name (or clear) a player's contingency (a holder of the side's authority or a judge, seed
    /// 003 §5.2.3).
    SetContingency {
        /// The player.
        player: String,
        /// Their contingency.
        #[serde(default)]
        contingency: Option<String>,
    },
    /// A player states they will be inactive, or a leader declares them so (seed 003 §5.1).
    DeclareInactive {
        /// The player.
        player: String,
        /// Why.
        #[serde(default)]
        reason: String,
    },
    /// A player withdraws their declaration of inactivity (seed 003 §5.1).
    DeclareActive,
    /// The battle judge rejects a leaders' declaration of inactivity (seed 003 §5.1).
    RejectInactivity {
        /// The player.
        player: String,
        /// Why.
        reason: String,
    },
    /// A leader (or a judge) changes a player's rank (seed 003 §1.1, §5.3.1).
    ChangeRank {
        /// The player.
        player: String,
        /// The new rank.
        rank: Rank,
    },
    /// A namesake player allows their side to take their army away (seed 003 §5.3.2).
    PermitControlChange {
        /// The army.
        army: String,
    },
    /// Appoint a judge (an admin or the head Battle Judge, seed 003 §1.3).
    AppointJudge(Appointment),
    /// Overrule a judge's call (seed 003 §1.3, §3.3.3).
    Overrule {
        /// The call's number.
        call: u32,
        /// Why.
        reason: String,
    },
    /// Reprimand a player and, with an army and a severity, take troops from it (the battle
    /// judge, seed 003 §5.4.1).
    ImposeSanction {
        /// The player reprimanded.
        player: String,
        /// The army that loses troops.
        #[serde(default)]
        army: Option<String>,
        /// The severity factor (0: a reprimand alone).
        #[serde(default)]
        severity: u32,
        /// Why.
        reason: String,
    },
    /// Call a vote (a player, seed 003 §1.4).
    CallVote {
        /// The topic.
        topic: String,
        /// The options.
        options: Vec<String>,
        /// When it closes.
        closes_at: DateTime<Utc>,
        /// The system (normal when absent).
        #[serde(default)]
        system: VoteSystem,
        /// Whether who voted what is secret.
        #[serde(default)]
        secret: bool,
    },
    /// Cast one's vote (a player, seed 003 §1.4).
    CastVote {
        /// The vote.
        vote: String,
        /// The option.
        option: String,
    },
    /// Close a vote once its time has passed, recording its tally.
    CloseVote {
        /// The vote.
        vote: String,
    },
    /// Change one raider's movement after the lock (the Mercenary Judge, seed 003 §6.3.2).
    EditRaiderOrder {
        /// The raider.
        army: String,
        /// The new movement.
        order: Order,
    },
    /// Add a player mid-round (the team's leaders or a judge, seed 003 §1.1, §2.6).
    AddPlayer {
        /// The player.
        player: Player,
    },
    /// Offer a new player an army to customise (the team's leaders, seed 003 §2.6).
    OfferCustomisation {
        /// The new player.
        player: String,
        /// The army.
        army: String,
    },
    /// A new player customises the army offered (seed 003 §2.6).
    CustomiseArmy {
        /// The army.
        army: String,
        /// Its new name.
        #[serde(default)]
        name: Option<String>,
        /// Its new legend.
        #[serde(default)]
        legend: Option<String>,
        /// Its new units, holding as many living soldiers as now.
        troops: Vec<TroopLine>,
    },
    /// Record a player's new screen name (the battle judge, seed 003 §1.6).
    ChangeScreenName {
        /// The old name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Open a turn with its movement deadline (seed 003 §3.1; judge).
    OpenTurn {
        /// Orders must be posted by this time.
        deadline: DateTime<Utc>,
        /// The commitment to the turn's seed, derived from the campaign's sealed root; filled in
        /// by the service (docs/DICE.md "Campaign keys").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn_key: Option<TurnKeyCommitment>,
    },
    /// Post orders, structured or in the seed's text format (seed 003 §3.2.2.5; player or judge).
    PostOrders {
        /// Orders as text, one per line.
        #[serde(default)]
        text: Option<String>,
        /// Orders as data.
        #[serde(default)]
        orders: Vec<ArmyOrder>,
        /// Sent privately to the judge: hidden from the other team until the lock (§3.1).
        #[serde(default)]
        private: bool,
        /// Post for this player (judges re-posting a PM); players post for themselves.
        #[serde(default)]
        on_behalf_of: Option<String>,
    },
    /// Lock the turn (judge, seed 003 §3.1).
    LockTurn,
    /// Adjudicate the locked turn: battle results, movement, days, battles (judge, seed 003 §3.1).
    AdjudicateTurn {
        /// Results of the battles announced last turn, filled in by the service.
        #[serde(default)]
        battle_results: Vec<BattleResult>,
        /// The seed of the interval key the adjudication closes (`interval:<turn − 1>`), derived
        /// from the root; filled in by the service and published with the turn's report
        /// (docs/DICE.md "Keys").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval_seed: Option<String>,
    },
    /// A new troop makeup after 2 days in a base the army heals at (seed 003 §2.3.2; its
    /// controller or a judge).
    ChangeTroops {
        /// The army.
        army: String,
        /// The new troop lines (at full strength).
        troops: Vec<TroopLine>,
        /// A new legend, if it changes.
        #[serde(default)]
        legend: Option<String>,
    },
    /// A judge's ruling that moves an army, recorded with its reason (seed 003 §3.3.3).
    RuleOnArmy {
        /// The army.
        army: String,
        /// Where it goes.
        square: Square,
        /// Why.
        reason: String,
    },
    /// A judge rolls dice the rules leave to the judge (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
    /// Publish an adjudicated turn's seed (the service, right after the adjudication; never the
    /// root): anyone can then recompute the turn's dice (docs/DICE.md "Campaign keys").
    RevealTurnSeed {
        /// The turn's seed, 64 hex digits; filled in by the service. Once the round has ended
        /// (`coalition-campaign@4`), the root's seed: every key of the round is then derived.
        seed: String,
    },
    /// Mix entropy into the open turn's key (a player of the round, up to the movement lock;
    /// docs/DICE.md "Keys"): the turn's dice, and those between its adjudication and the next
    /// lock, are keyed with every contribution made before the lock.
    ContributeEntropy {
        /// 1 to 1,024 characters; hidden from everyone but its contributor until the lock.
        entropy: String,
    },
    /// Close the round without a winner (an admin): the root seed is revealed, and every key of
    /// the round is shown to derive from it (docs/DICE.md "Keys").
    CloseRound {
        /// Why.
        reason: String,
    },
}

/// The commitment to a campaign turn's seed, as the service fills it into `OpenTurn`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TurnKeyCommitment {
    /// The turn it is for (the turn being opened).
    pub turn: u32,
    /// `sha256(turn seed)`, hex.
    pub commitment: String,
    /// `sha256` of the seed of the dice drawn after this turn's adjudication until the next lock
    /// (key `interval:<turn>`), hex; present from `coalition-campaign@4`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_commitment: Option<String>,
}

/// An order for one army, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyOrder {
    /// The army.
    pub army: String,
    /// The order.
    pub order: Order,
}
