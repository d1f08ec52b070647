//! A coalition battle decided by the Battle Judge (seed 003 §4.1–4.3).
//!
//! Two armies, or two against one or two (§4.4); each controller submits a sealed strategy before
//! the deadline; the judge assigns strategy bonuses; resolving computes the size and color
//! bonuses, rolls four d20 per side, compares them pair by pair, applies casualties and settles
//! the kill and capture attempts the strategies declared (§4.3.2–4.3.4, §4.5). An empty army is
//! killed on engagement (§4.3.1). See `docs/rulesets/coalition-battle.md` for every choice the
//! seed leaves open.

pub mod attempt;
pub mod bonus;
pub mod casualties;
pub mod command;
pub mod commitment;
pub mod decide;
pub mod event;
pub mod joint;
pub mod judging;
pub mod limits;
pub mod options;
pub mod redact;
pub mod resolve;
pub mod roll;
pub mod ruleset;
pub mod sheet;
pub mod sides;
pub mod state;
pub mod tactical;
pub mod view;

pub use attempt::{Attempt, AttemptKind, AttemptOutcome, AttemptResolved};
pub use command::BattleCommand;
pub use commitment::{FormulaOpening, FormulaOpeningRecord, HiddenFormulas};
pub use event::BattleEvent;
pub use joint::{Departure, JointResolution, PartnerArmy, Share};
pub use options::{BattleOptions, CasualtyFormula, JointFormula, KillFormula, SizeFormula, SizeWeighting, TieRule};
pub use sides::{SideId, Sides};
pub use state::BattleState;

/// The coalition battle decider.
pub struct CoalitionBattle;

impl crate::Decider for CoalitionBattle {
    type State = BattleState;
    type Command = BattleCommand;
    type Event = BattleEvent;
    const RULES: &'static str = "coalition-battle@2";

    fn decide(
        state: &BattleState,
        cmd: &BattleCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<BattleEvent>, crate::RuleError> {
        decide::decide(state, cmd, ctx)
    }

    fn evolve(state: &mut BattleState, event: &BattleEvent) {
        state.apply(event)
    }

    fn dice(state: &BattleState) -> Option<crate::DiceCursor> {
        state.dice_cursor()
    }

    fn reveal_seed(seed_hex: String, next_commitment: Option<String>) -> Option<BattleCommand> {
        Some(BattleCommand::RevealSeed { seed: seed_hex, next_commitment })
    }
}
