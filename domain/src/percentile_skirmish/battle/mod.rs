//! A percentile-skirmish battle (seed 002) as a decider: participants and their minis on a
//! table with roads and water; turns of declared initiative rounds; movement; open combat,
//! range, flank and opportunity attacks; spells.
//!
//! Everything the seed leaves open is written down in `docs/rulesets/percentile-skirmish.md`.

pub mod command;
pub mod decide;
pub mod event;
pub mod records;
pub mod state;

pub use command::SkirmishCommand;
pub use decide::LOWEST_ROUND;
pub use event::SkirmishEvent;
pub use state::SkirmishState;

/// The percentile-skirmish decider.
pub struct PercentileSkirmish;

impl crate::Decider for PercentileSkirmish {
    type State = SkirmishState;
    type Command = SkirmishCommand;
    type Event = SkirmishEvent;
    const RULES: &'static str = "percentile-skirmish@1";

    fn decide(
        state: &SkirmishState,
        cmd: &SkirmishCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<SkirmishEvent>, crate::RuleError> {
        decide::decide(state, cmd, ctx)
    }

    fn evolve(state: &mut SkirmishState, event: &SkirmishEvent) {
        state.apply(event)
    }

    fn dice(state: &SkirmishState) -> Option<crate::DiceCursor> {
        state.dice_cursor()
    }

    fn reveal_seed(seed_hex: String, next_commitment: Option<String>) -> Option<SkirmishCommand> {
        Some(SkirmishCommand::RevealSeed { seed: seed_hex, next_commitment })
    }
}
