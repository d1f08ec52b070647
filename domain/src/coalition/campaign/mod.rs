//! A campaign round (seed 003 ch. 1–3): the map, the armies, turns of simultaneous orders
//! adjudicated by the Movement Judge, days in bases, healing, sieges and victory. Battles are
//! their own streams (`battle-…`), decided as [`crate::coalition::battle`] decides them, with
//! their results applied back at the next adjudication.

pub mod adjudicate;
pub mod command;
pub mod decide;
pub mod event;
pub mod ruleset;
pub mod state;
pub mod transfers;
pub mod troops;
pub mod view;

pub use command::{ArmyEntry, ArmyOrder, BattleResult, BattleSideResult, CampaignCommand, CampaignOptions, Start};
pub use event::{CampaignEvent, Delivery};
pub use state::{ArmyState, BattleLink, CampaignState, PendingTransfer, TurnPhase};

/// The campaign decider.
pub struct CoalitionCampaign;

impl crate::Decider for CoalitionCampaign {
    type State = CampaignState;
    type Command = CampaignCommand;
    type Event = CampaignEvent;
    const RULES: &'static str = "coalition-campaign@1";

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
}
