//! The battle judge's decisions (placeholder until the rules land).

use super::{BattleCommand, BattleEvent, BattleState};
use crate::{Context, RuleError};

/// Decide a battle command.
pub fn decide(_state: &BattleState, _cmd: &BattleCommand, _ctx: &mut Context) -> Result<Vec<BattleEvent>, RuleError> {
    Err(RuleError::new("coalition.battle.unimplemented", "not yet implemented", "seed 003 §4.2"))
}
