//! zone-rpg (seed 001): zone-based character combat refereed end to end. The GM lays out zones,
//! factions and characters; factions alternate turns with one character or pass; characters
//! move in zones, attack, react (dodge, counter, hide behind someone, guard, opportunity
//! attacks), make blast, non-lethal and stunt attacks, sneak, break under morale, surrender,
//! flee in chases, ride mounts and vehicles, and wear their gear down.
//!
//! Everything the seed leaves open is written down in `docs/rulesets/zone-rpg.md` ("Herald's
//! readings"); where referees differ the GM picks the reading in the [`options`].

pub mod character;
pub mod choices;
pub mod command;
pub mod decide;
pub mod die;
pub mod event;
pub mod limits;
pub mod map;
pub mod options;
pub mod outcome;
pub mod picture;
pub mod redact;
pub mod rules;
pub mod ruleset;
pub mod sheet;
pub mod state;
mod validate;
pub mod view;

pub use command::ZoneRpgCommand;
pub use event::ZoneRpgEvent;
pub use state::ZoneRpgState;

/// The zone-rpg decider.
pub struct ZoneRpg;

impl crate::Decider for ZoneRpg {
    type State = ZoneRpgState;
    type Command = ZoneRpgCommand;
    type Event = ZoneRpgEvent;
    const RULES: &'static str = "zone-rpg@1";

    fn decide(
        state: &ZoneRpgState,
        command: &ZoneRpgCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<ZoneRpgEvent>, crate::RuleError> {
        decide::decide(state, command, ctx)
    }

    fn evolve(state: &mut ZoneRpgState, event: &ZoneRpgEvent) {
        state.apply(event);
    }

    fn dice(state: &ZoneRpgState) -> Option<crate::DiceCursor> {
        state.dice.cursor(state.ended())
    }

    fn reveal_seed(seed_hex: String, next_commitment: Option<String>) -> Option<ZoneRpgCommand> {
        Some(ZoneRpgCommand::RevealSeed { seed: seed_hex, next_commitment })
    }
}
