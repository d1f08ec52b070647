//! The start and end of a turn (seed 000 "Gameplay, Turn Sequence, Movement & Actions"):
//! expiring markers, the maintenance phase, the control phase, and the check that every model
//! and unit activated.

use super::{
    damage::{after_damage, damage_dealt, emit},
    refuse, require_turn, SERVICE_RULES,
};
use crate::{
    dice::DiceExpr,
    warmachine::{
        battle::{
            command::ControlChoices,
            event::{ExpiredMarker, WarmachineEvent as E},
            state::{Condition, ModelState, Phase, WarmachineState},
        },
        model::{BaseSize, ModelType},
        rolls::damage_roll,
        table::within,
    },
    Context, RuleError,
};

const MAINTENANCE: &str = "seed 000 \"Maintenance Phase\"";
const CONTROL: &str = "seed 000 \"Control Phase\"";
const ACTIVATION: &str = "seed 000 \"Activation Phase\"";

/// A continuous effect expires on a d6 of this or less (herald's reading: seed 000 says effects
/// are checked for expiration without saying how; docs/rulesets/warmachine.md).
pub const CONTINUOUS_EXPIRES_ON: i64 = 2;

/// The player whose turn comes next.
fn next_player(state: &WarmachineState) -> Option<String> {
    let index = match &state.current {
        None => 0,
        Some(current) => {
            state.players.iter().position(|p| p.name == *current).map_or(0, |i| (i + 1) % state.players.len())
        }
    };
    state.players.get(index).map(|p| p.name.clone())
}

/// Start the next player's turn: markers expire, then maintenance, then control with the
/// player's choices. All or nothing: a refused choice leaves the turn unstarted.
pub fn start_turn(state: &WarmachineState, choices: &ControlChoices, ctx: &mut Context) -> Result<Vec<E>, RuleError> {
    if state.phase != Phase::BetweenTurns {
        return Err(refuse(
            "turn_in_progress",
            "the current turn has not ended",
            "seed 000 \"Gameplay, Turn Sequence, Movement & Actions\"",
        ));
    }
    let player = next_player(state).ok_or_else(|| refuse("no_players", "the battle has no players", SERVICE_RULES))?;
    require_turn(state, &player, ctx)?;
    let mut s = state.clone();
    let mut events = Vec::new();
    emit(&mut s, &mut events, E::TurnStarted { turn: state.turn + 1, player: player.clone() });
    expire_markers(&mut s, &mut events, &player);
    maintenance(&mut s, &mut events, &player);
    continuous_effects(&mut s, &mut events, &player, ctx)?;
    if s.ended() {
        return Ok(events);
    }
    control(&mut s, &mut events, &player, choices)?;
    threshold_checks(&mut s, &mut events, &player, ctx)?;
    Ok(events)
}

fn own_models<'a>(s: &'a WarmachineState, player: &'a str) -> impl Iterator<Item = &'a ModelState> + 'a {
    s.models.values().filter(move |m| m.spec.player == player && m.in_play())
}

/// "Any markers that expire at the beginning of your turn are removed before maintenance phase."
fn expire_markers(s: &mut WarmachineState, events: &mut Vec<E>, player: &str) {
    let removed: Vec<ExpiredMarker> = s
        .models
        .values()
        .flat_map(|m| {
            m.markers
                .iter()
                .filter(|marker| marker.expires_at_start_of == player)
                .map(|marker| ExpiredMarker { model: m.spec.id.clone(), condition: marker.condition.clone() })
        })
        .collect();
    if !removed.is_empty() {
        emit(s, events, E::MarkersExpired { removed });
    }
}

/// Maintenance phase step 1.
fn maintenance(s: &mut WarmachineState, events: &mut Vec<E>, player: &str) {
    let removals: Vec<E> = own_models(s, player)
        .filter_map(|m| {
            let rules = m.spec.profile.common_rules();
            let arc = m.spec.profile.stats.arc.unwrap_or(0);
            let (focus, fury, rule) = if m.spec.profile.model_type == ModelType::Warjack {
                (m.focus, 0, "remove all focus points from your warjacks")
            } else if rules.focus_manipulation || rules.fury_manipulation {
                (m.focus.saturating_sub(arc), m.fury.saturating_sub(arc), "remove focus and fury in excess of ARC")
            } else {
                (0, 0, "")
            };
            (focus > 0 || fury > 0).then(|| E::PointsRemoved {
                model: m.spec.id.clone(),
                focus,
                fury,
                rule: format!("{MAINTENANCE} step 1: {rule}"),
            })
        })
        .collect();
    for event in removals {
        emit(s, events, event);
    }
}

/// Maintenance phase step 2: check each continuous effect for expiry, then resolve those that stay.
fn continuous_effects(
    s: &mut WarmachineState,
    events: &mut Vec<E>,
    player: &str,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    let effects: Vec<(String, String, u8)> = own_models(s, player)
        .flat_map(|m| {
            m.conditions.iter().filter_map(|c| match c {
                Condition::ContinuousEffect { name, pow } => Some((m.spec.id.clone(), name.clone(), *pow)),
                _ => None,
            })
        })
        .collect();
    for (model, effect, pow) in effects {
        let Some(arm) = s.model(&model).filter(|m| m.in_play()).map(|m| u32::from(m.spec.profile.stats.arm)) else {
            continue;
        };
        let roll = DiceExpr::parse("1d6")?.roll(
            &mut ctx.dice,
            &format!("{effect} on {model}: expiry"),
            &Default::default(),
        )?;
        let expired = roll.total <= CONTINUOUS_EXPIRES_ON;
        let damage = if expired {
            None
        } else {
            let label = format!("{effect} damage roll against {model}");
            let rolled = damage_roll(&mut ctx.dice, &label, u32::from(pow), arm, &Default::default())?;
            Some(damage_dealt(s, &mut ctx.dice, &model, &effect, rolled)?)
        };
        let dealt: Vec<_> = damage.iter().cloned().collect();
        let event = E::ContinuousEffectChecked {
            model,
            effect: effect.clone(),
            roll,
            expired,
            damage,
            next_word: ctx.dice.next_word(),
        };
        emit(s, events, event);
        after_damage(s, events, &dealt, &effect);
        if s.ended() {
            break;
        }
    }
    Ok(())
}

fn ctrl_reaches(leader: &ModelState, member: &ModelState) -> bool {
    leader.in_play()
        && within(&leader.circle(), &member.circle(), f64::from(leader.spec.profile.stats.ctrl.unwrap_or(0)))
}

fn leader_of<'a>(s: &'a WarmachineState, member: &ModelState) -> Option<&'a ModelState> {
    member.spec.battlegroup.as_deref().and_then(|id| s.model(id))
}

/// The control phase, steps 1–5, in the seed's order.
fn control(
    s: &mut WarmachineState,
    events: &mut Vec<E>,
    player: &str,
    choices: &ControlChoices,
) -> Result<(), RuleError> {
    // Step 1: replenish focus to ARC.
    let replenish: Vec<E> = own_models(s, player)
        .filter(|m| m.spec.profile.common_rules().focus_manipulation)
        .map(|m| E::FocusReplenished { model: m.spec.id.clone(), focus: m.spec.profile.stats.arc.unwrap_or(0) })
        .collect();
    for event in replenish {
        emit(s, events, event);
    }
    // Step 1: leech fury from warbeasts in the battlegroup within control range, up to ARC.
    for leech in &choices.leech {
        let beast = super::model_in_play(s, &leech.warbeast)?;
        let rule = format!("{CONTROL} step 1");
        let lock = leader_of(s, beast)
            .filter(|l| l.spec.profile.common_rules().fury_manipulation && l.spec.player == player)
            .ok_or_else(|| {
                refuse(
                    "leech_not_battlegroup",
                    format!("{} is not in one of your warlocks' battlegroups", beast.spec.id),
                    &rule,
                )
            })?;
        if !ctrl_reaches(lock, beast) {
            return Err(refuse(
                "leech_out_of_control_range",
                format!("{} is not in {}'s control range", beast.spec.id, lock.spec.id),
                &rule,
            ));
        }
        if leech.fury == 0 || leech.fury > beast.fury {
            return Err(refuse("leech_fury", format!("{} has {} fury to leech", beast.spec.id, beast.fury), &rule));
        }
        let arc = lock.spec.profile.stats.arc.unwrap_or(0);
        if lock.fury.saturating_add(leech.fury) > arc {
            return Err(refuse(
                "leech_above_arc",
                format!("{} cannot exceed its ARC {arc} in fury by leeching", lock.spec.id),
                &rule,
            ));
        }
        let event = E::FuryLeeched { warlock: lock.spec.id.clone(), warbeast: beast.spec.id.clone(), fury: leech.fury };
        emit(s, events, event);
    }
    // Step 2: spirit bond.
    let mut claimed: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for gain in &choices.spirit_bond {
        let rule = format!("{CONTROL} step 2");
        let lock = super::model_in_play(s, &gain.warlock)?;
        if !lock.spec.profile.common_rules().fury_manipulation || lock.spec.player != player {
            return Err(refuse(
                "spirit_bond_not_warlock",
                format!("{} is not one of your warlocks", lock.spec.id),
                &rule,
            ));
        }
        let bonded = s
            .models
            .values()
            .filter(|m| m.spec.battlegroup.as_deref() == Some(lock.spec.id.as_str()) && m.destroyed)
            .filter(|m| m.spec.profile.model_type == ModelType::Warbeast && m.spec.profile.base >= BaseSize::Medium)
            .count();
        let arc = lock.spec.profile.stats.arc.unwrap_or(0);
        // Up to 1 fury per destroyed warbeast in all, however the choices are split.
        let total = claimed.entry(gain.warlock.as_str()).or_default();
        *total += usize::from(gain.fury);
        if *total > bonded || lock.fury.saturating_add(gain.fury) > arc {
            return Err(refuse(
                "spirit_bond_fury",
                format!(
                    "{} may gain up to {bonded} fury by spirit bond and may not exceed its ARC {arc}",
                    lock.spec.id
                ),
                &rule,
            ));
        }
        let event = E::SpiritBond { warlock: lock.spec.id.clone(), fury: gain.fury };
        emit(s, events, event);
    }
    // Step 3: warjacks with a functional cortex in their controller's control range power up.
    let powered: Vec<E> = own_models(s, player)
        .filter(|m| m.spec.profile.model_type == ModelType::Warjack && !m.inert && m.functional_cortex())
        .filter(|m| leader_of(s, m).is_some_and(|leader| ctrl_reaches(leader, m)))
        .map(|m| E::PoweredUp { warjack: m.spec.id.clone() })
        .collect();
    for event in powered {
        emit(s, events, event);
    }
    // Step 4: allocate focus.
    for allocation in &choices.allocate {
        let rule = format!("{CONTROL} step 4");
        let jack = super::model_in_play(s, &allocation.warjack)?;
        let caster = leader_of(s, jack)
            .filter(|c| c.spec.profile.common_rules().focus_manipulation && c.spec.player == player)
            .ok_or_else(|| {
                refuse(
                    "allocate_not_battlegroup",
                    format!("{} is not in one of your warcasters' battlegroups", jack.spec.id),
                    &rule,
                )
            })?;
        if jack.inert {
            return Err(refuse(
                "allocate_inert",
                format!("{} is inert: its warcaster was incapacitated", jack.spec.id),
                "seed 000 \"Warjacks\"",
            ));
        }
        if !jack.functional_cortex() {
            return Err(refuse(
                "allocate_crippled_cortex",
                format!("{} has a crippled cortex (or none) and cannot have focus", jack.spec.id),
                "seed 000 \"Warjacks\"; seed 000 \"Control Phase\" step 4",
            ));
        }
        if !ctrl_reaches(caster, jack) {
            return Err(refuse(
                "allocate_out_of_control_range",
                format!("{} is not in {}'s control range", jack.spec.id, caster.spec.id),
                &rule,
            ));
        }
        if allocation.focus == 0 || allocation.focus > caster.focus {
            return Err(refuse(
                "allocate_focus",
                format!("{} has {} focus to allocate", caster.spec.id, caster.focus),
                &rule,
            ));
        }
        let event = E::FocusAllocated {
            warcaster: caster.spec.id.clone(),
            warjack: jack.spec.id.clone(),
            focus: allocation.focus,
        };
        emit(s, events, event);
    }
    // Step 5: upkeep spells paid or expired.
    let ours: Vec<(String, String)> = s
        .upkeeps
        .iter()
        .filter(|u| s.model(&u.caster).is_some_and(|c| c.spec.player == player))
        .map(|u| (u.caster.clone(), u.spell.clone()))
        .collect();
    if let Some(unknown) = choices.upkeep.iter().find(|name| !ours.iter().any(|(_, spell)| spell == *name)) {
        return Err(refuse(
            "unknown_upkeep",
            format!("{unknown} is not one of your upkeep spells in play"),
            &format!("{CONTROL} step 5"),
        ));
    }
    for (caster, spell) in ours {
        let keep = choices.upkeep.contains(&spell);
        let paying = s.model(&caster).filter(|c| c.in_play());
        if keep {
            if !paying.is_some_and(|c| c.focus > 0 || c.fury > 0) {
                return Err(refuse(
                    "upkeep_unpaid",
                    format!("{caster} has no focus or fury left to keep {spell}"),
                    &format!("{CONTROL} step 5"),
                ));
            }
            emit(s, events, E::UpkeepPaid { caster, spell });
        } else {
            emit(s, events, E::UpkeepExpired { caster, spell });
        }
    }
    Ok(())
}

/// Control phase step 6: a threshold check for each warbeast with fury left — 2d6 + its fury
/// against THR, frenzy when the total exceeds THR (herald's reading; the seed names the check
/// without its formula).
fn threshold_checks(
    s: &mut WarmachineState,
    events: &mut Vec<E>,
    player: &str,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    let beasts: Vec<(String, u8, u8)> = own_models(s, player)
        .filter(|m| m.spec.profile.model_type == ModelType::Warbeast && m.fury > 0)
        .map(|m| (m.spec.id.clone(), m.fury, m.spec.profile.stats.thr.unwrap_or(0)))
        .collect();
    for (warbeast, fury, thr) in beasts {
        let roll = DiceExpr::parse(&format!("2d6+{fury}"))?.roll(
            &mut ctx.dice,
            &format!("threshold check for {warbeast}"),
            &Default::default(),
        )?;
        let frenzied = roll.total > i64::from(thr);
        emit(s, events, E::ThresholdChecked { warbeast, fury, thr, roll, frenzied, next_word: ctx.dice.next_word() });
    }
    Ok(())
}

/// End the turn: "All models must be activated once per turn."
pub fn end_turn(state: &WarmachineState, ctx: &Context) -> Result<Vec<E>, RuleError> {
    if state.phase != Phase::Activation {
        return Err(refuse("no_turn", "no turn is in progress", ACTIVATION));
    }
    let player = state.current.clone().unwrap_or_default();
    require_turn(state, &player, ctx)?;
    if let Some(activation) = &state.activation {
        return Err(refuse(
            "activation_open",
            format!("{} is still activating: end its activation first", activation.id),
            ACTIVATION,
        ));
    }
    super::no_pending_triggers(state)?;
    let waiting = state.to_activate(&player);
    if !waiting.is_empty() {
        let names: Vec<&str> = waiting.iter().map(String::as_str).collect();
        return Err(refuse(
            "not_all_activated",
            format!("every model and unit must activate once per turn; still to activate: {}", names.join(", ")),
            ACTIVATION,
        ));
    }
    Ok(vec![E::TurnEnded { turn: state.turn, player }])
}
