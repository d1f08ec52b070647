//! Days: counting them, healing, destroying bases and winning the round (seed 003 §1.5, §1.7,
//! §2.3.1–2.3.2).
//!
//! Everything here is a pure function of the map, the armies and what happened to each army in a
//! turn ([`ArmyTurn`]). [`count_turn`] is the entry point a campaign decider calls once a turn's
//! battles are decided; its events fold back into the same state with [`DaysState::apply`].
//!
//! Flow of a turn, for the campaign decider:
//! 1. Once the turn's battles are decided, build an [`ArmyTurn`] per army on the map: the square
//!    it ended on, whether it moved, its [`Fight`] there and the troops each line lost.
//! 2. Call [`count_turn`] with the [`DaysState`] and the map; append the [`DaysEvent`]s it returns.
//! 3. In `evolve`, fold each event with [`DaysState::apply`], raise healed lines with
//!    [`apply_healing`], and mark the site of a `SiteDestroyed` destroyed on the map.
//! 4. Check [`may_change_troops`] when a controller asks for a new makeup (§2.3.2), and
//!    [`army_destruction_victory`] when an army is killed (§1.7.3).
//!
//! Readings chosen where the seed leaves room (each is argued in its module):
//! - A count belongs to one square; leaving it, even for part of a turn, or being defeated there
//!   ends it ([`count`]). An undecided battle neither counts nor ends a count; the one day comes
//!   when the army wins.
//! - Healing days are counted in the army's own sites: any portal for Phyrexia, a base of one of
//!   its colors for the Coalition, and neutral towns for the two lowest rank classes
//!   ([`place`]). Destroyed sites count nothing. Mercenaries count no days.
//! - Losses are stamped with the day in progress; troops are replaced once enough days have been
//!   counted after that day: 2, or 1 for a Coalition creature of the base's color ([`ledger`],
//!   [`mod@heal`]). A creature is of a base's color when that color is one of its colors.
//! - Days in an enemy base or portal are a separate [`Siege`]; the site falls when the army holds
//!   it the turn after its fourth day without being defeated ([`siege`]).
//! - The end game counts only days counted after it began, in a standing win condition of the
//!   army's own team ([`victory`]).

pub mod count;
pub mod event;
pub mod heal;
pub mod ledger;
pub mod place;
pub mod siege;
pub mod turn;
pub mod victory;

pub use count::{tally, ArmyTurn, CountEnd, CountStep, DayCount, Fight, Tally};
pub use event::DaysEvent;
pub use heal::{
    apply_healing, days_to_heal, destroyed_base_colors, has_base_color, heal, may_change_troops, LineHealed,
    BASE_COLOR_HEAL_DAYS, HEAL_DAYS, TROOP_CHANGE_DAYS,
};
pub use ledger::{LedgerEntry, LossLedger};
pub use place::{counts_in_towns, place_of, site_team, NoCountReason, Place};
pub use siege::{Siege, SiegeStep, SIEGE_DAYS};
pub use turn::{count_army_turn, count_turn, ArmyDays, ArmyTurnDays, DaysState, TurnDays};
pub use victory::{
    army_destruction_victory, end_game_team, is_win_condition, EndGame, Victory, VictoryReason, WinConditionCount,
    WIN_DAYS,
};
