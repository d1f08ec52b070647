//! Attacks of opportunity (seed 002 "Attack of opportunity"): a mini whose melee reach an enemy
//! leaves may strike at it, or let it go.

use super::{
    combat::{attack_refusal, killed, weapon, weapon_damage},
    emit, flow, mini_in_play, refuse, require_control,
};
use crate::{
    percentile_skirmish::{
        battle::{
            event::{AttackKind, SkirmishEvent},
            state::{MiniState, Phase, SkirmishState},
        },
        headings,
        mini::ArmourTest,
        rules::opportunity_chance,
    },
    Context, RuleError,
};

fn opportunity<'a>(
    state: &'a SkirmishState,
    attacker: &str,
    target: &str,
    ctx: &Context,
) -> Result<&'a MiniState, RuleError> {
    let found = state.opportunities.iter().any(|o| o.attacker == attacker && o.target == target);
    if state.phase != Phase::Acting || !found {
        return Err(refuse(
            "no_opportunity",
            format!("{attacker} has no attack of opportunity on {target} waiting"),
            headings::ATTACK_OF_OPPORTUNITY,
        ));
    }
    let mini = mini_in_play(state, attacker)?;
    require_control(state, mini, ctx)?;
    Ok(mini)
}

/// A mini makes the attack of opportunity a move offered it: "50% chance to hit + mini's level
/// * 2" (seed 002 "Attack of opportunity"); it uses none of its own attacks.
pub fn attack_of_opportunity(
    state: &SkirmishState,
    attacker: &str,
    target: &str,
    weapon_name: Option<&str>,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    let attacker = opportunity(state, attacker, target, ctx)?;
    if let Some(refusal) = attack_refusal(state, attacker, false) {
        return Err(refusal);
    }
    let weapon = match weapon_name {
        Some(name) => weapon(attacker, name, true)?,
        None => attacker.spec.profile.melee_weapon().ok_or_else(|| {
            refuse(
                "not_melee_weapon",
                format!("{} has no melee weapon", attacker.id()),
                headings::ATTACK_OF_OPPORTUNITY,
            )
        })?,
    };
    let target = mini_in_play(state, target)?;
    let chance = opportunity_chance(attacker.spec.profile.level);
    let roll = ctx.dice.roll(
        100,
        format!("attack of opportunity of {} on {} (needs {} or less)", attacker.id(), target.id(), chance.chance),
    )?;
    let hit = chance.hit_by(roll.value);
    let damage =
        if hit { Some(weapon_damage(state, ctx, attacker, weapon, target, ArmourTest::Ordinary)?) } else { None };
    let dead = killed(&damage.iter().collect::<Vec<_>>());
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::Attacked {
            kind: AttackKind::Opportunity,
            attacker: attacker.id().into(),
            target: target.id().into(),
            weapon: weapon.name.clone(),
            distance: attacker.position.distance(target.position),
            band: None,
            chance,
            roll,
            hit,
            damage,
            next_word: ctx.dice.next_word(),
        },
    );
    flow::after_kills(&mut working, &mut events, &dead, ctx)?;
    Ok(events)
}

/// A mini lets its attack of opportunity go.
pub fn decline_opportunity(
    state: &SkirmishState,
    attacker: &str,
    target: &str,
    ctx: &Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    opportunity(state, attacker, target, ctx)?;
    Ok(vec![SkirmishEvent::OpportunityDeclined { attacker: attacker.into(), target: target.into() }])
}
