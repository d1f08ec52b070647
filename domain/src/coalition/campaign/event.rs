//! What happened in a campaign round. Events carry their outcomes (positions, dice, days,
//! troops) so projections never recompute the rules.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    capture::{ArmyCaptured, ArmyFullyConverted, ArmyLiberated, ConversionDayCounted},
    command::CampaignOptions,
    control::{
        ContingencySet, ControlAuthorityGranted, ControlChanged, IllegalControlAccepted, IllegalControlEnded,
        InactivityRejected, NamesakePermissionGiven, NewArmyOwed, PlayerDeclaredActive, PlayerDeclaredInactive,
        PlayerRankChanged,
    },
    judges::{CallOverruled, JudgeAppointed, JudgeCall},
    mercenaries::{
        abilities::{ThemeArmyWentToWar, TownDefenderHealed},
        edit::RaiderOrderEdited,
        spawn::RaiderSpawnRolled,
        MercenaryEnlisted, RaiderDisbanded,
    },
    newcomers::{ArmyCustomised, CustomisationOffered, PlayerJoined, ScreenNameChanged},
    sanctions::{PlayerReprimanded, SanctionImposed},
    voting::{VoteCalled, VoteCast, VoteClosed},
    weather::WeatherRolled,
};
use crate::{
    coalition::{
        army::{Army, TroopLine},
        days::DaysEvent,
        map::{Map, Square},
        movement::{Attack, EngagedSide, LongMove, MoveReport, Position},
        orders::{select::IgnoredOrder, PostedOrder, TransferLine},
        setup::Player,
    },
    dice::Draw,
    EventType,
};

/// Troops an army lost in a battle, per troop line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyLosses {
    /// The army.
    pub army: String,
    /// Troops lost per line, in `Army::troops` order.
    pub losses: Vec<u32>,
}

/// A campaign event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum CampaignEvent {
    /// The round was set up (seed 003 §2.5).
    #[serde(rename = "coalition.CampaignCreated")]
    CampaignCreated {
        /// Its name.
        name: String,
        /// The map and its sites.
        map: Map,
        /// The players.
        players: Vec<Player>,
        /// Options.
        options: CampaignOptions,
        /// `sha256(root seed)`, hex.
        seed_commitment: String,
        /// When (every player's first post, seed 003 §5.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<DateTime<Utc>>,
        /// What the round's `MovementAdjudicated` events list in `positions`; absent in rounds set
        /// up before it was chosen, which list every army.
        #[serde(default, skip_serializing_if = "PositionsRecord::is_every_army")]
        positions_record: PositionsRecord,
        /// `sha256` of the seed of key `interval:0` (the dice drawn before the first turn's lock),
        /// hex. Its presence marks a round of `coalition-campaign@4`: players mix entropy into
        /// each turn, nothing draws from the root, and the root is revealed when the round ends
        /// (docs/DICE.md "Keys").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval_commitment: Option<String>,
    },
    /// An army was put on the map (seed 003 §2.5.2.3).
    #[serde(rename = "coalition.ArmyPlaced")]
    ArmyPlaced {
        /// The army.
        army: Army,
        /// Where.
        square: Square,
        /// Its legal controllers.
        controllers: Vec<String>,
    },
    /// An army's controllers changed (seed 003 §5.2).
    #[serde(rename = "coalition.ControllersSet")]
    ControllersSet {
        /// The army.
        army: String,
        /// Its legal controllers.
        controllers: Vec<String>,
    },
    /// A turn opened (seed 003 §3.1).
    #[serde(rename = "coalition.TurnOpened")]
    TurnOpened {
        /// Turn number, from 1.
        turn: u32,
        /// The movement deadline.
        deadline: DateTime<Utc>,
        /// `sha256(turn seed)`, hex: every die of the turn is drawn from the turn's seed, revealed
        /// when the turn is adjudicated (docs/DICE.md "Campaign keys"). Absent in rounds
        /// recorded before turn keys (`coalition-campaign@2`), whose dice stay on the root's tape.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed_commitment: Option<String>,
        /// `sha256` of the seed of key `interval:<turn>`, hex: the dice drawn after this turn's
        /// adjudication until the next lock (`coalition-campaign@4`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interval_commitment: Option<String>,
    },
    /// A player (or a judge re-posting a PM) posted orders.
    #[serde(rename = "coalition.OrdersPosted")]
    OrdersPosted {
        /// The turn.
        turn: u32,
        /// The post id (sorts in posting order).
        post: String,
        /// The orders, validated against the map as posted (seed 003 §3.2.2.2).
        orders: Vec<PostedOrder>,
    },
    /// The turn was locked (seed 003 §3.1).
    #[serde(rename = "coalition.TurnLocked")]
    TurnLocked {
        /// The turn.
        turn: u32,
    },
    /// A battle's result was applied to its armies (seed 003 §4.2.5).
    #[serde(rename = "coalition.BattleResultApplied")]
    BattleResultApplied {
        /// The battle stream.
        battle: String,
        /// The winning armies.
        winners: Vec<String>,
        /// Troops lost per army, per troop line.
        losses: Vec<ArmyLosses>,
    },
    /// An army was killed (seed 003 §4.3.1, §4.3.3) and removed from the map.
    #[serde(rename = "coalition.ArmyKilledInCampaign")]
    ArmyKilled {
        /// The army.
        army: String,
        /// The battle.
        battle: String,
        /// The rule.
        rule: String,
    },
    /// A battle's loser was moved next to the battle (seed 003 §4.2.5).
    #[serde(rename = "coalition.ArmyBumped")]
    ArmyBumped {
        /// The army.
        army: String,
        /// The battle square.
        from: Square,
        /// Where it went.
        to: Square,
        /// All 8 squares were occupied: pushed into one, to fight again next turn.
        pushed: bool,
        /// The die that chose the square.
        draw: Option<Draw>,
    },
    /// Movement was adjudicated (seed 003 §3.2–3.3).
    #[serde(rename = "coalition.MovementAdjudicated")]
    MovementAdjudicated {
        /// The turn.
        turn: u32,
        /// Orders that did not count, with why (seed 003 §3.3.6).
        ignored: Vec<IgnoredOrder>,
        /// Every army's move, partial move, rejection or stay, with the reason and rule.
        moves: Vec<MoveReport>,
        /// The squares after movement that `moves` does not give (each report's `to` is where its
        /// army ended), so usually empty; rounds set up before `positions_record` list every
        /// army's square here (`every_army`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        positions: Vec<Position>,
        /// Long moves still under way.
        long_moves: Vec<LongMove>,
        /// Dice drawn for random routes and picks.
        draws: Vec<Draw>,
    },
    /// A battle was announced (seed 003 §3.1, §4.1.2.3).
    #[serde(rename = "coalition.BattleAnnounced")]
    BattleAnnounced {
        /// The battle stream (`battle-…`).
        battle: String,
        /// The turn.
        turn: u32,
        /// The square.
        square: Square,
        /// The armies per team.
        sides: Vec<EngagedSide>,
        /// Who attacks whom, or no attacker.
        attack: Attack,
        /// A joint engagement (seed 003 §3.2.5).
        joint: bool,
        /// Whether the service opens the battle stream (two sides: 1v1, 2v1 or 2v2); otherwise (armies
        /// of three teams) a judge settles it with the adjudication.
        automatic: bool,
    },
    /// An adjudicated turn's seed was published (docs/DICE.md "Campaign keys").
    #[serde(rename = "coalition.TurnSeedRevealed")]
    TurnSeedRevealed {
        /// The turn.
        turn: u32,
        /// The turn's seed, hex; its SHA-256 is the commitment in the turn's `TurnOpened`.
        seed: String,
        /// The tape's key, hex: `sha256(seed ‖ sha256(stream) ‖ sha256(c1) ‖ …)`, with the
        /// contributions made to the turn before its lock (none before `coalition-campaign@4`).
        effective_seed: String,
    },
    /// A player mixed entropy into the open turn's key (docs/DICE.md "Keys"); `entropy` is
    /// hidden from all but its contributor until the turn is locked.
    #[serde(rename = "coalition.TurnEntropyContributed")]
    TurnEntropyContributed {
        /// The turn.
        turn: u32,
        /// The text contributed; its SHA-256 enters the turn's and the next interval's keys.
        entropy: String,
        /// The player.
        by: String,
    },
    /// The seed of an interval key, published with the next turn's report (docs/DICE.md "Keys").
    #[serde(rename = "coalition.IntervalSeedRevealed")]
    IntervalSeedRevealed {
        /// The key is `interval:<after_turn>`: drawn from after that turn's adjudication (0: the
        /// set-up) until the next lock.
        after_turn: u32,
        /// The seed, hex; its SHA-256 is the commitment published before its first draw.
        seed: String,
        /// The tape's key, hex: `sha256(seed ‖ sha256(stream) ‖ sha256(c1) ‖ …)` with the
        /// contributions to turn `after_turn`.
        effective_seed: String,
    },
    /// An admin closed the round without a winner.
    #[serde(rename = "coalition.RoundClosed")]
    RoundClosed {
        /// Who.
        by: String,
        /// Why.
        reason: String,
    },
    /// The round is over and its root seed is published: every turn and interval key of the round
    /// derives from it (docs/DICE.md "Keys").
    #[serde(rename = "coalition.RootSeedRevealed")]
    RootSeedRevealed {
        /// The root seed, hex; its SHA-256 is the `seed_commitment` of `CampaignCreated`.
        seed: String,
    },
    /// The turn's adjudication is complete.
    #[serde(rename = "coalition.TurnAdjudicated")]
    TurnAdjudicated {
        /// The turn.
        turn: u32,
        /// The tape's next word after this turn's draws.
        next_word: u64,
    },
    /// An army's troops were changed (seed 003 §2.3.2).
    #[serde(rename = "coalition.TroopsChanged")]
    TroopsChanged {
        /// The army.
        army: String,
        /// Its new troop lines.
        troops: Vec<TroopLine>,
        /// Its legend.
        legend: Option<String>,
    },
    /// An army gave troops away in a transfer (seed 003 §2.3.3, §3.2.4.3.4): it loses them in
    /// this update, before the turn's battles are announced.
    #[serde(rename = "coalition.TroopsSent")]
    TroopsSent {
        /// The turn of the order.
        turn: u32,
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops sent, by creature.
        lines: Vec<TransferLine>,
        /// The troops on their way, one line per creature at the sender's size and colors.
        moving: Vec<TroopLine>,
        /// The sender's troop lines afterwards.
        troops: Vec<TroopLine>,
        /// When the receiver gets them.
        delivery: Delivery,
        /// The timing rule (seed 003 §3.2.4.3.1–3).
        rule: String,
    },
    /// An army received transferred troops (seed 003 §3.2.4.3).
    #[serde(rename = "coalition.TroopsReceived")]
    TroopsReceived {
        /// The receiving army.
        army: String,
        /// The sending army.
        from: String,
        /// The troops received, by creature.
        lines: Vec<TransferLine>,
        /// The receiver's troop lines afterwards.
        troops: Vec<TroopLine>,
        /// The battle at whose end they arrived, if they waited for one.
        battle: Option<String>,
        /// The timing rule.
        rule: String,
    },
    /// A transfer did nothing: no troops left either army (seed 003 §2.3.3, §3.2.4).
    #[serde(rename = "coalition.TransferFailed")]
    TransferFailed {
        /// The turn of the order.
        turn: u32,
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops the order named.
        lines: Vec<TransferLine>,
        /// The stable code, `coalition.campaign.transfer_…`.
        code: String,
        /// Why.
        reason: String,
        /// The rule.
        rule: String,
    },
    /// Transferred troops were killed on their way: the receiver lost its battle, or was killed
    /// (seed 003 §2.3.3, §3.2.4.3.3).
    #[serde(rename = "coalition.TransferredTroopsKilled")]
    TransferredTroopsKilled {
        /// The sending army.
        from: String,
        /// The receiving army.
        to: String,
        /// The troops killed, by creature.
        lines: Vec<TransferLine>,
        /// The battle that decided it.
        battle: Option<String>,
        /// Why.
        reason: String,
        /// The rule.
        rule: String,
    },
    /// A judge moved an army by a ruling (seed 003 §3.3.3).
    #[serde(rename = "coalition.ArmyRuledOn")]
    ArmyRuledOn {
        /// The army.
        army: String,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The ruling.
        reason: String,
        /// The judge's call, which the Battle Judge may overrule (seed 003 §3.3.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        judged: Option<JudgeCall>,
    },
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
    /// An army was captured and taken to its captor's side (seed 003 §4.5).
    #[serde(rename = "coalition.ArmyCaptured")]
    ArmyCaptured(ArmyCaptured),
    /// A partially converted army counted a day (seed 003 §4.5).
    #[serde(rename = "coalition.ConversionDayCounted")]
    ConversionDayCounted(ConversionDayCounted),
    /// A partially converted army is fully converted (seed 003 §4.5).
    #[serde(rename = "coalition.ArmyFullyConverted")]
    ArmyFullyConverted(ArmyFullyConverted),
    /// A partially converted army lost a battle and is liberated (seed 003 §4.5).
    #[serde(rename = "coalition.ArmyLiberated")]
    ArmyLiberated(ArmyLiberated),
    /// The control list changed (seed 003 §5.2).
    #[serde(rename = "coalition.ControlChanged")]
    ControlChanged(ControlChanged),
    /// A side's authority to request control changes was given (seed 003 §5.2.2).
    #[serde(rename = "coalition.ControlAuthorityGranted")]
    ControlAuthorityGranted(ControlAuthorityGranted),
    /// A player's contingency was set (seed 003 §5.2.3).
    #[serde(rename = "coalition.ContingencySet")]
    ContingencySet(ContingencySet),
    /// A player was declared inactive (seed 003 §5.1).
    #[serde(rename = "coalition.PlayerDeclaredInactive")]
    PlayerDeclaredInactive(PlayerDeclaredInactive),
    /// A player withdrew their declaration of inactivity (seed 003 §5.1).
    #[serde(rename = "coalition.PlayerDeclaredActive")]
    PlayerDeclaredActive(PlayerDeclaredActive),
    /// The battle judge rejected a declaration of inactivity (seed 003 §5.1).
    #[serde(rename = "coalition.InactivityRejected")]
    InactivityRejected(InactivityRejected),
    /// A player's rank changed (seed 003 §1.1, §5.3.1).
    #[serde(rename = "coalition.PlayerRankChanged")]
    PlayerRankChanged(PlayerRankChanged),
    /// A namesake player allowed their army to be taken away (seed 003 §5.3.2).
    #[serde(rename = "coalition.NamesakePermissionGiven")]
    NamesakePermissionGiven(NamesakePermissionGiven),
    /// A new army must be found for a player (seed 003 §5.3.4).
    #[serde(rename = "coalition.NewArmyOwed")]
    NewArmyOwed(NewArmyOwed),
    /// The judge accepted a change against §5.3 for one turn (seed 003 §5.2.2.2).
    #[serde(rename = "coalition.IllegalControlAccepted")]
    IllegalControlAccepted(IllegalControlAccepted),
    /// A side's illegal controllers were removed after their turn (seed 003 §5.2.2.2).
    #[serde(rename = "coalition.IllegalControlEnded")]
    IllegalControlEnded(IllegalControlEnded),
    /// A judge was appointed (seed 003 §1.3).
    #[serde(rename = "coalition.JudgeAppointed")]
    JudgeAppointed(JudgeAppointed),
    /// A judge's call was overruled (seed 003 §1.3, §3.3.3).
    #[serde(rename = "coalition.CallOverruled")]
    CallOverruled(CallOverruled),
    /// A player was sanctioned (seed 003 §1.3, §5.4.1).
    #[serde(rename = "coalition.SanctionImposed")]
    SanctionImposed(SanctionImposed),
    /// A player was reprimanded for acting for an army they did not control (seed 003 §5.4.1).
    #[serde(rename = "coalition.PlayerReprimanded")]
    PlayerReprimanded(PlayerReprimanded),
    /// A vote was called (seed 003 §1.4).
    #[serde(rename = "coalition.VoteCalled")]
    VoteCalled(VoteCalled),
    /// A vote was cast (seed 003 §1.4).
    #[serde(rename = "coalition.VoteCast")]
    VoteCast(VoteCast),
    /// A vote was closed with its tally (seed 003 §1.4).
    #[serde(rename = "coalition.VoteClosed")]
    VoteClosed(VoteClosed),
    /// A mercenary army joined the round (seed 003 §2.5.3, ch. 6).
    #[serde(rename = "coalition.MercenaryEnlisted")]
    MercenaryEnlisted(MercenaryEnlisted),
    /// A Town Defender healed at home (seed 003 §6.1.2).
    #[serde(rename = "coalition.TownDefenderHealed")]
    TownDefenderHealed(TownDefenderHealed),
    /// A theme army went At War (seed 003 §6.2.2).
    #[serde(rename = "coalition.ThemeArmyWentToWar")]
    ThemeArmyWentToWar(ThemeArmyWentToWar),
    /// The turn's raider spawn die (seed 003 §6.3.2).
    #[serde(rename = "coalition.RaiderSpawnRolled")]
    RaiderSpawnRolled(RaiderSpawnRolled),
    /// A raider disbanded (seed 003 §6.3.2).
    #[serde(rename = "coalition.RaiderDisbanded")]
    RaiderDisbanded(RaiderDisbanded),
    /// A raider's movement was changed after the lock (seed 003 §6.3.2).
    #[serde(rename = "coalition.RaiderOrderEdited")]
    RaiderOrderEdited(RaiderOrderEdited),
    /// A player joined mid-round (seed 003 §1.1, §2.6).
    #[serde(rename = "coalition.PlayerJoined")]
    PlayerJoined(PlayerJoined),
    /// An army was offered to a new player (seed 003 §2.6).
    #[serde(rename = "coalition.CustomisationOffered")]
    CustomisationOffered(CustomisationOffered),
    /// A new player customised their army (seed 003 §2.6).
    #[serde(rename = "coalition.ArmyCustomised")]
    ArmyCustomised(ArmyCustomised),
    /// A player's screen name changed (seed 003 §1.6).
    #[serde(rename = "coalition.ScreenNameChanged")]
    ScreenNameChanged(ScreenNameChanged),
    /// A battle's weather was rolled (seed 003 §4.1.2.5).
    #[serde(rename = "coalition.WeatherRolled")]
    WeatherRolled(WeatherRolled),
    /// Days, healing, sieges and victory (seed 003 §1.5, §1.7, §2.3), under their own types
    /// (`coalition.DayCounted` …). Untagged, so the payload is the days event itself, tagged by
    /// its own type; it must stay the last variant.
    #[serde(untagged)]
    Days(DaysEvent),
}

/// When transferred troops reach the receiver (seed 003 §3.2.4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "when", rename_all = "snake_case")]
pub enum Delivery {
    /// In this update: received, or killed with a receiver that did not win its battle.
    ThisUpdate,
    /// When the result of the battle the receiver was attacked into this turn is applied,
    /// whatever the result (seed 003 §3.2.4.3.2).
    AfterBattle {
        /// The battle stream.
        battle: String,
    },
}

impl EventType for CampaignEvent {}

// Issue 13: a turn's event listed every army's square, which the move reports already give; in a
// 200-army round that was about a seventh of the event, every turn (docs/PERFORMANCE.md).
/// What a round's `MovementAdjudicated` events list in `positions`: every army's square, or only
/// the squares the move reports do not give.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PositionsRecord {
    /// Every army's square: rounds set up before the choice, whose replays must give back what
    /// was recorded (the default when the field is absent).
    #[default]
    EveryArmy,
    /// Only the squares the move reports do not give (usually none): every round the service
    /// sets up now.
    BeyondReports,
}

impl PositionsRecord {
    /// Whether this is [`PositionsRecord::EveryArmy`] (left out of the JSON).
    pub fn is_every_army(&self) -> bool {
        *self == Self::EveryArmy
    }
}
