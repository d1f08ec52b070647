//! A coalition battle fought out under a tactical ruleset: the judge has the armies' controllers
//! play it on the table, and the result is taken over (seed 003 §4.2 leaves how a battle is
//! decided to the Battle Judge; docs/rulesets/coalition-battle.md "Fought out as a tactical
//! battle").

use super::{command::TacticalLosses, BattleCommand, BattleState, SideId, Sides};
use crate::{ruleset::TacticalOutcome, RuleError};

const RULE: &str = "herald: docs/rulesets/coalition-battle.md";

fn refuse(code: &str, detail: String) -> RuleError {
    RuleError::new(format!("battle.{code}"), detail, RULE)
}

/// The command that applies `outcome` (of tactical battle `source`, read at a version and
/// recorded as `stream@version`, under `source_rules`) to `battle`, given which tactical
/// participant fought for each side.
///
/// Each side's participant must have been played by that side's army's controller; the winner
/// must have fought for one of the sides; each side loses troops in the share of figures its
/// participant lost (the decider computes the casualties).
pub fn apply_result(
    battle: &BattleState,
    source: String,
    source_rules: String,
    outcome: &TacticalOutcome,
    sides: &Sides<String>,
    reason: String,
) -> Result<BattleCommand, RuleError> {
    let Some(winner) = outcome.winner.clone().filter(|_| outcome.ended) else {
        return Err(refuse("tactical_not_decided", format!("battle {source} has not ended with a winner")));
    };
    if sides.a == sides.b {
        return Err(refuse("tactical_sides", "the two sides were fought for by the same player".into()));
    }
    let mut losses = Vec::new();
    for side in SideId::BOTH {
        let name = sides.get(side);
        let participant = outcome
            .participants
            .iter()
            .find(|participant| participant.name == *name)
            .ok_or_else(|| refuse("tactical_sides", format!("{name} is not a player of battle {source}")))?;
        let controller = battle.army(side).map(|army| army.controller.clone()).unwrap_or_default();
        if participant.controller != controller {
            return Err(refuse(
                "tactical_sides",
                format!(
                    "side {side}'s army is controlled by {controller}, but {name} was played by {}",
                    participant.controller
                ),
            ));
        }
        losses.push(TacticalLosses { fielded: participant.fielded, destroyed: participant.lost });
    }
    let winner_side = SideId::BOTH
        .into_iter()
        .find(|side| *sides.get(*side) == winner)
        .ok_or_else(|| refuse("tactical_sides", format!("the winner, {winner}, fought for neither side")))?;
    let (Some(a), Some(b)) = (losses.first().copied(), losses.get(1).copied()) else {
        return Err(refuse("tactical_sides", "two sides are needed".into()));
    };
    Ok(BattleCommand::ApplyTacticalResult {
        source,
        source_rules,
        winner: winner_side,
        models_lost: Sides { a, b },
        reason,
    })
}
