//! A warmachine battle (seed 000) as a decider: players, models and units on a measured table;
//! turns with their maintenance, control and activation phases; movement, charges and unit
//! movement; attacks and damage; pushes, slams, throws and falls; triggered effects.
//!
//! Everything the seed leaves open is written down in `docs/rulesets/warmachine.md`.

pub mod command;
pub mod decide;
pub mod event;
pub mod state;

pub use command::WarmachineCommand;
pub use event::WarmachineEvent;
pub use state::WarmachineState;

/// The warmachine decider.
pub struct Warmachine;

impl crate::Decider for Warmachine {
    type State = WarmachineState;
    type Command = WarmachineCommand;
    type Event = WarmachineEvent;
    /// `@2`: models created on an elevated surface stand on it, and the rule of least disturbance
    /// finds the exact least distance and never ends a base in an obstruction. A battle recorded
    /// under `@1` verifies under `@2`, with a note saying so; a relocation may then differ.
    const RULES: &'static str = "warmachine@2";

    fn decide(
        state: &WarmachineState,
        cmd: &WarmachineCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<WarmachineEvent>, crate::RuleError> {
        decide::decide(state, cmd, ctx)
    }

    fn evolve(state: &mut WarmachineState, event: &WarmachineEvent) {
        state.apply(event)
    }

    fn dice(state: &WarmachineState) -> Option<crate::DiceCursor> {
        state.dice_cursor()
    }

    fn reveal_seed(seed_hex: String, next_commitment: Option<String>) -> Option<WarmachineCommand> {
        Some(WarmachineCommand::RevealSeed { seed: seed_hex, next_commitment })
    }
}
