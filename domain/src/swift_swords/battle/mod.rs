//! A swift-swords encounter (seed 004) as a decider: zones and statuses, action dice and the
//! countdown, success-counting attacks and defences, damage, injuries, fear, mobs, flyers and
//! chariots.
//!
//! Everything the seed leaves open is written down in `docs/rulesets/swift-swords.md`.

pub mod command;
pub mod decide;
pub mod event;
pub mod evolve;
pub mod pending;
pub mod record;
pub mod state;

pub use command::SwiftSwordsCommand;
pub use event::SwiftSwordsEvent;
pub use state::SwiftSwordsState;

/// The swift-swords decider.
pub struct SwiftSwords;

impl crate::Decider for SwiftSwords {
    type State = SwiftSwordsState;
    type Command = SwiftSwordsCommand;
    type Event = SwiftSwordsEvent;
    const RULES: &'static str = "swift-swords@1";

    fn decide(
        state: &SwiftSwordsState,
        cmd: &SwiftSwordsCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<SwiftSwordsEvent>, crate::RuleError> {
        decide::decide(state, cmd, ctx)
    }

    fn evolve(state: &mut SwiftSwordsState, event: &SwiftSwordsEvent) {
        state.apply(event)
    }

    fn dice(state: &SwiftSwordsState) -> Option<crate::DiceCursor> {
        state.dice_cursor()
    }

    fn reveal_seed(seed_hex: String, next_commitment: Option<String>) -> Option<SwiftSwordsCommand> {
        Some(SwiftSwordsCommand::RevealSeed { seed: seed_hex, next_commitment })
    }
}
