//! Non-magic combat (seed 002 "4 TYPES OF NON MAGIC COMBAT"): open combat with its sealed
//! options, range attacks by band, flank attacks, attacks of opportunity, and the damage a hit
//! does after resistances and armour.

use super::{emit, flow, mini_in_play, moving::must_have_fled, refuse, require_control};
use crate::{
    dice::RollOptions,
    percentile_skirmish::{
        battle::{
            event::{AttackKind, DamageDealt, OptionRoll, SkirmishEvent},
            state::{MiniState, Phase, SkirmishState},
        },
        headings,
        mini::{ArmourTest, Weapon},
        rules::{
            flank_attack_chance, in_flank, mitigate, opportunity_chance, range_band, ranged_chance, AttackOption,
            CombatChoice, DamageSource, Exchange,
        },
        spells::Spell,
        table::EPSILON,
        SERVICE_RULES,
    },
    Context, RuleError,
};

/// Why `mini` cannot attack now, if it cannot: a statue, a mini that ran, a mini in water that
/// hinders it after moving; for its own attacks (`own`), one with no attacks left this turn.
pub fn attack_refusal(state: &SkirmishState, mini: &MiniState, own: bool) -> Option<RuleError> {
    let id = mini.id();
    if mini.under(Spell::Statue) {
        return Some(refuse("statue", format!("{id} is a statue: it cannot move or attack"), "seed 002 \"Statue\""));
    }
    if mini.this_turn.ran {
        return Some(refuse(
            "ran_this_turn",
            format!("{id} ran this turn: a running mini cannot cast spells of any kind or engage in combat"),
            headings::RUNNING,
        ));
    }
    if mini.this_turn.moved > EPSILON {
        if let Some(water) = state.penalising_water(mini) {
            return Some(refuse(
                "moved_in_water",
                format!("{id} is in {water}, which hinders it, and has moved this turn: it can only attack if it does not move"),
                headings::CROSSING_WATER,
            ));
        }
    }
    if own && mini.this_turn.attacks >= mini.spec.profile.attacks {
        return Some(refuse(
            "no_attacks_left",
            format!("{id} has made its {} attack(s) this turn", mini.spec.profile.attacks),
            headings::TURN,
        ));
    }
    None
}

fn weapon<'a>(mini: &'a MiniState, name: &str, melee: bool) -> Result<&'a Weapon, RuleError> {
    let found =
        mini.spec.profile.weapon(name).ok_or_else(|| {
            refuse("unknown_weapon", format!("{} has no weapon called {name}", mini.id()), SERVICE_RULES)
        })?;
    if found.is_melee() != melee {
        let (code, kind) = if melee { ("not_melee_weapon", "melee") } else { ("not_ranged_weapon", "ranged") };
        return Err(refuse(code, format!("{name} is not a {kind} weapon"), headings::NON_MAGIC_COMBAT));
    }
    Ok(found)
}

fn enemy<'a>(state: &'a SkirmishState, attacker: &MiniState, target: &str) -> Result<&'a MiniState, RuleError> {
    let target = mini_in_play(state, target)?;
    if target.id() == attacker.id() || state.acting_participant(target) == state.acting_participant(attacker) {
        return Err(refuse(
            "friendly_target",
            format!("{} acts for the same participant as {}", target.id(), attacker.id()),
            headings::NON_MAGIC_COMBAT,
        ));
    }
    Ok(target)
}

/// The damage `weapon` of `attacker` does to `target` on a hit, rolled from the tape.
pub fn weapon_damage(
    state: &SkirmishState,
    ctx: &mut Context,
    attacker: &MiniState,
    weapon: &Weapon,
    target: &MiniState,
    test: ArmourTest,
) -> Result<DamageDealt, RuleError> {
    let purpose = format!("damage of {}'s {} on {}", attacker.id(), weapon.name, target.id());
    let roll = weapon.damage.roll(&mut ctx.dice, &purpose, &RollOptions::default())?;
    let rolled = u32::try_from(roll.total.max(0)).unwrap_or(u32::MAX);
    let source = DamageSource::Weapon { magical: weapon.magical, element: weapon.element };
    let damage = mitigate(
        rolled,
        source,
        &target.spec.profile,
        &target.spell_armour(&state.options),
        test,
        state.options.halves,
    );
    let life_left = target.life.saturating_sub(damage.taken);
    Ok(DamageDealt {
        mini: target.id().to_string(),
        source: format!("{} of {}", weapon.name, attacker.id()),
        roll: Some(roll),
        damage,
        life_left,
        killed: life_left == 0,
    })
}

fn killed(dealt: &[&DamageDealt]) -> Vec<String> {
    dealt.iter().filter(|d| d.killed).map(|d| d.mini.clone()).collect()
}

/// A melee attack by the acting mini: a flank attack from outside the target's front arc,
/// otherwise open combat (Herald's reading: where the attacker stands decides which).
pub fn melee_attack(
    state: &SkirmishState,
    attacker: &MiniState,
    target: &str,
    weapon_name: &str,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    must_have_fled(state, attacker)?;
    if let Some(refusal) = attack_refusal(state, attacker, true) {
        return Err(refusal);
    }
    let weapon = weapon(attacker, weapon_name, true)?;
    let target = enemy(state, attacker, target)?;
    let distance = attacker.position.distance(target.position);
    if distance > state.options.melee_reach + EPSILON {
        return Err(refuse(
            "out_of_reach",
            format!("{} is {distance:.2}″ away; melee reaches {}″", target.id(), state.options.melee_reach),
            headings::NON_MAGIC_COMBAT,
        ));
    }
    let mut working = state.clone();
    let mut events = Vec::new();
    if in_flank(attacker.position, target.position, target.facing, state.options.front_arc) {
        let chance = flank_attack_chance(attacker.spec.profile.level);
        let roll = ctx.dice.roll(
            100,
            format!("flank attack of {} on {} (needs {} or less)", attacker.id(), target.id(), chance.chance),
        )?;
        let hit = chance.hit_by(roll.value);
        let damage =
            if hit { Some(weapon_damage(state, ctx, attacker, weapon, target, ArmourTest::Flank)?) } else { None };
        let dead = killed(&damage.iter().collect::<Vec<_>>());
        emit(
            &mut working,
            &mut events,
            SkirmishEvent::Attacked {
                kind: AttackKind::Flank,
                attacker: attacker.id().into(),
                target: target.id().into(),
                weapon: weapon.name.clone(),
                distance,
                band: None,
                chance,
                roll,
                hit,
                damage,
                next_word: ctx.dice.next_word(),
            },
        );
        flow::after_kills(&mut working, &mut events, &dead, ctx)?;
        return Ok(events);
    }
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::OpenCombatStarted {
            combat: state.combats + 1,
            attacker: attacker.id().into(),
            defender: target.id().into(),
            weapon: weapon.name.clone(),
            defender_helpless: target.under(Spell::Statue),
        },
    );
    Ok(events)
}

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
    combat: &crate::percentile_skirmish::battle::state::OpenCombat,
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

/// The acting mini shoots: its chance by the target's range band, size and flank (seed 002
/// "Range attacks", "NON MEDIUM SIZED MINI'S", "RANGE OR SPELL ATTACKS ON A FLANKED MINI").
pub fn ranged_attack(
    state: &SkirmishState,
    attacker: &MiniState,
    target: &str,
    weapon_name: &str,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    must_have_fled(state, attacker)?;
    if let Some(refusal) = attack_refusal(state, attacker, true) {
        return Err(refusal);
    }
    let weapon = weapon(attacker, weapon_name, false)?;
    let target = enemy(state, attacker, target)?;
    let distance = attacker.position.distance(target.position);
    let maximum = weapon.range.unwrap_or(0.0);
    let Some(band) = range_band(distance, maximum) else {
        return Err(refuse(
            "out_of_range",
            format!("{} is {distance:.2}″ away, beyond {}'s maximum range of {maximum}″", target.id(), weapon.name),
            headings::RANGE_ATTACKS,
        ));
    };
    let flanked = in_flank(attacker.position, target.position, target.facing, state.options.front_arc);
    let chance = ranged_chance(band, attacker.spec.profile.level, Some(target.spec.profile.size), flanked);
    let roll = ctx
        .dice
        .roll(100, format!("range attack of {} on {} (needs {} or less)", attacker.id(), target.id(), chance.chance))?;
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
            kind: AttackKind::Ranged,
            attacker: attacker.id().into(),
            target: target.id().into(),
            weapon: weapon.name.clone(),
            distance,
            band: Some(band),
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
