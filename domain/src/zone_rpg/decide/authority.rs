//! Who may do what: the GM decides for everyone, players only for the characters they control
//! and the factions they play in (Herald's service rules, docs/rulesets/zone-rpg.md).

use super::CODE_PREFIX;
use crate::{
    zone_rpg::{
        rules,
        state::{character::CharacterState, ZoneRpgState},
    },
    Context, RuleError,
};

/// A refusal for lack of authority (403).
pub(crate) fn forbid(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::forbidden(format!("{CODE_PREFIX}.{code}"), message, rules::SERVICE)
}

/// Refuse unless the actor is the GM.
pub(crate) fn require_gm(ctx: &Context, action: &str) -> Result<(), RuleError> {
    if ctx.actor.is_judge() {
        Ok(())
    } else {
        Err(forbid("gm_only", format!("only the GM may {action}")))
    }
}

/// Whether the actor acts for `character`: its controller, or the GM (who controls every
/// character no player does).
pub(crate) fn acts_for(state: &ZoneRpgState, character: &CharacterState, ctx: &Context) -> bool {
    ctx.actor.is_judge() || state.controller_of(character).is_some_and(|player| ctx.actor.is_player(player))
}

/// Refuse unless the actor acts for `character`.
pub(crate) fn require_controller(
    state: &ZoneRpgState,
    character: &CharacterState,
    ctx: &Context,
) -> Result<(), RuleError> {
    if acts_for(state, character, ctx) {
        Ok(())
    } else {
        let by = state.controller_of(character).map_or("the GM".to_string(), |player| player.to_string());
        Err(forbid("not_your_character", format!("{} is controlled by {by}", character.id())))
    }
}

/// Refuse unless the actor acts for `faction`: the GM, or one of its players.
pub(crate) fn require_faction(state: &ZoneRpgState, faction: &str, ctx: &Context) -> Result<(), RuleError> {
    if ctx.actor.is_judge() || state.players_of(faction).iter().any(|player| ctx.actor.is_player(player)) {
        Ok(())
    } else {
        Err(forbid("not_your_faction", format!("only the GM or a player of {faction} may decide for it")))
    }
}
