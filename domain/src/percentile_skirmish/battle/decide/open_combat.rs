//! Open combat (seed 002 "Open combat"): each side picks swing to the head, thrust to the body
//! or parry and counter attack, sealed from the other side until both have; the triangle
//! decides, and the same pick rolls percentile dice.

use super::{
    combat::{killed, weapon, weapon_damage},
    emit, flow, mini_in_play, refuse, require_control,
};
use crate::{
    percentile_skirmish::{
        battle::{
            event::{OptionRoll, SkirmishEvent},
            state::{OpenCombat, SkirmishState},
        },
        headings,
        mini::ArmourTest,
        rules::{AttackOption, CombatChoice, Exchange},
        SERVICE_RULES,
    },
    Context, RuleError,
};

/// A side of the open combat picks its option; once both have, the combat is resolved.
pub fn choose_option(
    state: &SkirmishState,
    mini: &str,
    choice: CombatChoice,
    weapon_name: Option<&str>,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    let Some(combat) = state.combat.as_ref() else {
        return Err(refuse("no_open_combat", "no open combat is waiting for options", headings::OPEN_COMBAT));
    };
    let chooser = mini_in_play(state, mini)?;
    let (already, is_defender) = if combat.attacker == mini {
        (combat.attacker_choice.is_some(), false)
    } else if combat.defender == mini {
        (combat.defender_choice.is_some(), true)
    } else {
        return Err(refuse(
            "not_in_combat",
            format!("{mini} is not in the open combat of {} and {}", combat.attacker, combat.defender),
            headings::OPEN_COMBAT,
        ));
    };
    require_control(state, chooser, ctx)?;
    if already {
        return Err(refuse("already_chosen", format!("{mini} has already picked its option"), headings::OPEN_COMBAT));
    }
    let weapon = match (weapon_name, is_defender) {
        (None, _) => None,
        (Some(_), false) => {
            return Err(refuse("weapon_for_defender", "the attacker named its weapon when it attacked", SERVICE_RULES))
        }
        (Some(name), true) => Some(weapon(chooser, name, true)?.name.clone()),
    };
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::CombatOptionChosen { combat: combat.combat, mini: mini.into(), choice, weapon },
    );
    if let Some(combat) = working.combat.clone() {
        if let (Some(a), Some(b)) = (combat.attacker_choice, combat.defender_choice) {
            resolve_open_combat(&mut working, &mut events, &combat, a, b, ctx)?;
        }
    }
    Ok(events)
}

fn resolve_open_combat(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    combat: &OpenCombat,
    a: CombatChoice,
    b: CombatChoice,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    let (Some(attacker), Some(defender)) =
        (state.mini(&combat.attacker).cloned(), state.mini(&combat.defender).cloned())
    else {
        return Err(refuse("unknown_mini", "a side of the open combat is gone", SERVICE_RULES));
    };
    let mut option_rolls = Vec::new();
    let mut pick = |choice: CombatChoice, mini: &str| -> Result<AttackOption, RuleError> {
        if let Some(option) = choice.option() {
            return Ok(option);
        }
        let draw = ctx.dice.roll(
            6,
            format!("open combat {}: random option of {mini} (1-2 swing, 3-4 thrust, 5-6 parry)", combat.combat),
        )?;
        let option = AttackOption::from_d6(draw.value);
        option_rolls.push(OptionRoll { mini: mini.to_string(), draw });
        Ok(option)
    };
    let attacker_option = pick(a, attacker.id())?;
    let defender_option = pick(b, defender.id())?;
    let (exchange, percentile) = match Exchange::from_options(attacker_option, defender_option) {
        Some(exchange) => (exchange, None),
        None => {
            let draw = ctx.dice.roll(100, format!("open combat {}: same option, percentile (01-40 both miss, 41-60 A hits, 61-80 B hits, 81-100 both hit)", combat.combat))?;
            (Exchange::from_percentile(draw.value), Some(draw))
        }
    };
    let mut damage = Vec::new();
    if exchange.a_hits() {
        if let Some(weapon) = attacker.spec.profile.weapon(&combat.weapon) {
            damage.push(weapon_damage(state, ctx, &attacker, weapon, &defender, ArmourTest::Ordinary)?);
        }
    }
    if exchange.b_hits() && !combat.defender_helpless {
        let weapon = match &combat.defender_weapon {
            Some(name) => defender.spec.profile.weapon(name),
            None => defender.spec.profile.melee_weapon(),
        };
        if let Some(weapon) = weapon {
            damage.push(weapon_damage(state, ctx, &defender, weapon, &attacker, ArmourTest::Ordinary)?);
        }
    }
    let dead = killed(&damage.iter().collect::<Vec<_>>());
    emit(
        state,
        events,
        SkirmishEvent::OpenCombatResolved {
            combat: combat.combat,
            attacker: attacker.id().into(),
            defender: defender.id().into(),
            attacker_choice: a,
            defender_choice: b,
            attacker_option,
            defender_option,
            option_rolls,
            percentile,
            exchange,
            damage,
            next_word: ctx.dice.next_word(),
        },
    );
    flow::after_kills(state, events, &dead, ctx)
}
