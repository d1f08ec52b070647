//! A campaign round (seed 003 ch. 1–6): the map, the armies, turns of simultaneous orders
//! adjudicated by the Movement Judge, days in bases, healing, sieges and victory; kills, captures
//! and joint battles applied from the battle streams (§4.3–4.5); control (ch. 5), judges and
//! sanctions (§1.3, §5.4.1), votes (§1.4), mercenaries (ch. 6), new players and screen names
//! (§1.6, §2.6). Battles are their own streams (`battle-…`), decided as
//! [`crate::coalition::battle`] decides them, with their results applied back at the next
//! adjudication.

pub mod adjudicate;
pub mod announce;
pub mod capture;
pub mod command;
pub mod control;
pub mod create;
pub mod decide;
pub mod entropy;
pub mod event;
mod evolve;
pub mod judges;
pub mod limits;
pub mod mercenaries;
pub mod newcomers;
pub mod posting;
pub mod results;
pub mod ruleset;
pub mod sanctions;
pub mod state;
pub mod transfers;
pub mod troops;
pub mod view;
pub mod voting;
pub mod weather;

pub use command::{
    ArmyEntry, ArmyOrder, BattleResult, BattleSideResult, CampaignCommand, CampaignOptions, Start, TurnKeyCommitment,
};
pub use event::{CampaignEvent, Delivery, PositionsRecord};
pub use state::{ArmyState, BattleLink, CampaignState, PendingTransfer, TurnKey, TurnPhase};

/// The campaign decider.
pub struct CoalitionCampaign;

impl crate::Decider for CoalitionCampaign {
    type State = CampaignState;
    type Command = CampaignCommand;
    type Event = CampaignEvent;
    /// `@3`: each turn draws from its own seed, committed when the turn opens and revealed
    /// when it is adjudicated (docs/DICE.md "Campaign keys"); rounds recorded under `@2`
    /// (no commitment in `TurnOpened`) fold and replay as before, on the root's tape.
    ///
    /// `@4` (issue 25): players mix entropy into each turn until its lock, the dice between
    /// adjudications come from interval keys published with the next turn's report, nothing draws
    /// from the root, and the root is published when the round ends (docs/DICE.md "Keys"); rounds
    /// whose first event commits to no interval key (recorded under `@3`) fold and replay as
    /// recorded.
    const RULES: &'static str = "coalition-campaign@4";

    fn decide(
        state: &CampaignState,
        cmd: &CampaignCommand,
        ctx: &mut crate::Context,
    ) -> Result<Vec<CampaignEvent>, crate::RuleError> {
        decide::decide(state, cmd, ctx)
    }

    fn evolve(state: &mut CampaignState, event: &CampaignEvent) {
        state.apply(event)
    }

    fn dice(state: &CampaignState) -> Option<crate::DiceCursor> {
        state.dice_cursor()
    }

    fn reveal_seed(seed_hex: String, _next_commitment: Option<String>) -> Option<CampaignCommand> {
        Some(CampaignCommand::RevealTurnSeed { seed: seed_hex })
    }
}
