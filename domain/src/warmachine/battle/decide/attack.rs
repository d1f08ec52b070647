//! Combat actions (seed 000 "Dice and Rounding", "Additional Dice and Boosted Rolls", "Model
//! Statistics", "Weapon Statistics", "Aim", "Charge", "Triggers"): initial attacks with one
//! weapon at a time, boosts paid with focus, by forcing, or free by a rule, the charge attack's
//! automatic boost, AOE blasts, damage to boxes and grids, and the triggered effects that follow.

use super::{
    activation::current,
    damage::{after_damage, damage_dealt, emit},
    model_in_play,
    moving::sees,
    refuse, require_player, SERVICE_RULES,
};
use crate::{
    dice::RollOptions,
    warmachine::{
        battle::{
            event::{Cost, DamageDealt, TriggeredRule, WarmachineEvent as E},
            state::{ModelActivation, ModelState, WarmachineState},
        },
        model::{
            additional_dice, may_boost, Mechanic, ModelType, RollKind, SpecialRule, TriggerCondition, Weapon,
            WeaponKind, WeaponRange,
        },
        movement::DEFAULT_MELEE_RANGE,
        rolls::{
            attack_roll, charge_damage_options, check_rate_of_fire, check_weapon_range, damage_roll, effective_pow,
            AttackKind, AttackSpec,
        },
        table::within,
    },
    Context, RuleError,
};

const BOOSTED: &str = "seed 000 \"Additional Dice and Boosted Rolls\"";
const WEAPONS: &str = "seed 000 \"Weapon Statistics\"";
const CHARGE: &str = "seed 000 \"Charge\"";
const ACTIVATION: &str = "seed 000 \"Activation Phase\"";

/// One initial attack, as asked.
pub struct AttackRequest<'a> {
    /// The attacker.
    pub attacker: &'a str,
    /// The weapon's name.
    pub weapon: &'a str,
    /// The target.
    pub target: &'a str,
    /// Boost the attack roll.
    pub boost_attack: bool,
    /// Boost the damage roll.
    pub boost_damage: bool,
}

/// Resolve an initial attack.
pub fn attack(state: &WarmachineState, request: &AttackRequest<'_>, ctx: &mut Context) -> Result<Vec<E>, RuleError> {
    let activation = current(state)?;
    let attacker = model_in_play(state, request.attacker)?;
    require_player(state, &attacker.spec.player, ctx)?;
    let doing = activation
        .models
        .get(request.attacker)
        .ok_or_else(|| refuse("not_activating", format!("{} is not activating", request.attacker), ACTIVATION))?;
    if attacker.inert {
        return Err(refuse(
            "inert",
            format!("{} is inert: its warcaster was incapacitated", attacker.spec.id),
            "seed 000 \"Warjacks\"",
        ));
    }
    if let Some(moved) = &activation.awaiting_placement {
        return Err(refuse(
            "troopers_unplaced",
            format!("{moved} moved: place the other troopers of {} before any attack", activation.id),
            "seed 000 \"Unit Movement\"",
        ));
    }
    if !activation.movement_done {
        return Err(refuse(
            "movement_first",
            "normal movement must be resolved before the combat action (move, aim or forfeit first)",
            ACTIVATION,
        ));
    }
    if doing.combat_forfeited {
        return Err(refuse(
            "combat_forfeited",
            format!("{} has forfeited its combat action this activation (it ran, its charge failed, or a rule made it forfeit)", request.attacker),
            "seed 000 \"Forfeiting Normal Movement or Combat Actions\"",
        ));
    }
    let weapon = attacker.spec.profile.weapons.iter().find(|w| w.name == request.weapon).ok_or_else(|| {
        refuse("unknown_weapon", format!("{} has no weapon named {}", request.attacker, request.weapon), WEAPONS)
    })?;
    let target = model_in_play(state, request.target)?;
    if target.id() == attacker.id() {
        return Err(refuse("attack_self", "a model cannot attack itself", SERVICE_RULES));
    }
    check_combat_kind(doing, weapon)?;
    let charge_attack = check_charge(state, activation.charged, doing, attacker, weapon, target)?;
    if !sees(state, attacker, target) {
        return Err(refuse(
            "no_line_of_sight",
            format!(
                "{} has no line of sight to {}: the attacking model needs line of sight to target it",
                attacker.id(),
                target.id()
            ),
            WEAPONS,
        ));
    }
    check_range(attacker, weapon, target)?;

    let kind = match weapon.kind {
        WeaponKind::Melee => AttackKind::Melee,
        WeaponKind::Ranged => AttackKind::Ranged,
    };
    let roll_kind = if kind == AttackKind::Melee { RollKind::MeleeAttack } else { RollKind::RangedAttack };
    let rules: Vec<SpecialRule> =
        attacker.spec.profile.special_rules.iter().chain(weapon.special_rules.iter()).cloned().collect();
    // Boosts are declared before any die is rolled, and paid for together.
    let mut budget = Budget { focus: attacker.focus, fury: attacker.fury };
    let attack_boost =
        request.boost_attack.then(|| boost_cost(attacker, &rules, roll_kind, &mut budget)).transpose()?;
    let mut damage_options = extra_dice(&rules, RollKind::Damage);
    if charge_attack {
        damage_options = charge_damage_options(&RollOptions { boosted: request.boost_damage, ..damage_options })?;
    }
    let damage_boost = (request.boost_damage && !charge_attack)
        .then(|| boost_cost(attacker, &rules, RollKind::Damage, &mut budget))
        .transpose()?;
    damage_options.boosted = damage_boost.is_some();
    if weapon.pow.is_none() && request.boost_damage {
        return Err(refuse(
            "no_damage_roll",
            format!("{} has POW – and makes no damage roll to boost", weapon.name),
            WEAPONS,
        ));
    }

    let spec = AttackSpec {
        kind,
        attack_stat: u32::from(if kind == AttackKind::Melee {
            attacker.spec.profile.stats.mat
        } else {
            attacker.spec.profile.stats.rat
        }),
        target_def: u32::from(target.spec.profile.stats.def),
        weapon_rng: weapon_rng_for_roll(weapon, attacker.weapon_modifiers(&weapon.name).0),
        aiming: doing.aiming,
        engaged: state.engaged(attacker),
    };
    let mut attack_options = extra_dice(&rules, roll_kind);
    attack_options.boosted = attack_boost.is_some();
    let roll = attack_roll(&mut ctx.dice, &spec, &attack_options)?;
    // A miss makes no damage roll, so there is nothing to boost and nothing to pay for: the
    // declared damage boost was charged (focus spent, a warbeast forced) even on a miss.
    let damage_boost = if roll.hit { damage_boost } else { None };

    let mut s = state.clone();
    let mut damage = Vec::new();
    if roll.hit {
        if let Some(pow) = weapon.pow {
            // "A weapon's power can never be reduced to less than 0" (seed 000 "POW, Power").
            let pow = effective_pow(u32::from(pow), attacker.weapon_modifiers(&weapon.name).1);
            let arm = u32::from(target.spec.profile.stats.arm);
            let label = if charge_attack { "charge attack damage roll" } else { "damage roll" };
            let rolled =
                damage_roll(&mut ctx.dice, &format!("{label} against {}", target.id()), pow, arm, &damage_options)?;
            damage.push(damage_dealt(&s, &mut ctx.dice, target.id(), "direct", rolled)?);
            damage.extend(blasts(&s, weapon, target, ctx)?);
        }
    }
    let triggers = triggers(attacker, weapon, target, roll.hit);
    let event = E::AttackResolved {
        attacker: attacker.spec.id.clone(),
        weapon: weapon.name.clone(),
        target: target.spec.id.clone(),
        charge_attack,
        roll,
        attack_boost,
        damage_boost,
        damage: damage.clone(),
        triggers,
        next_word: ctx.dice.next_word(),
    };
    let mut events = Vec::new();
    emit(&mut s, &mut events, event);
    after_damage(&mut s, &mut events, &damage, &format!("{}'s {}", attacker.id(), weapon.name));
    Ok(events)
}

/// A combat action is initial melee attacks or initial ranged attacks (herald's reading of
/// "initial melee attacks" in seed 000 "Charge"); each melee weapon makes one initial attack, each
/// ranged weapon up to its ROF ("Weapon Statistics").
fn check_combat_kind(doing: &ModelActivation, weapon: &Weapon) -> Result<(), RuleError> {
    if let Some(kind) = doing.combat {
        if kind != weapon.kind {
            return Err(refuse(
                "mixed_combat_action",
                "a combat action makes either melee or ranged initial attacks, not both",
                SERVICE_RULES,
            ));
        }
    }
    let made = doing.attacks.get(&weapon.name).copied().unwrap_or(0);
    match weapon.kind {
        WeaponKind::Melee if made >= 1 => Err(refuse(
            "initial_attack_made",
            format!("{} has made its initial attack this activation", weapon.name),
            SERVICE_RULES,
        )),
        WeaponKind::Melee => Ok(()),
        WeaponKind::Ranged => check_rate_of_fire(u32::from(weapon.rof.unwrap_or(1)), made).map(|_| ()),
    }
}

/// The charge: the first attack after a successful charge is a melee attack against the charged
/// model, and a charge attack when the model moved 3″ or more; if the charged model can no
/// longer be attacked, another target may be chosen but the damage is not boosted
/// (seed 000 "Charge"). In a unit charge, troopers with an enemy in melee range make melee
/// attacks (seed 000 "Unit Charges").
fn check_charge(
    state: &WarmachineState,
    unit_charged: bool,
    doing: &ModelActivation,
    attacker: &ModelState,
    weapon: &Weapon,
    target: &ModelState,
) -> Result<bool, RuleError> {
    let Some(charged) = doing.charge_target.as_deref() else {
        if unit_charged && weapon.kind == WeaponKind::Ranged && enemy_in_melee_range(state, attacker) {
            return Err(refuse(
                "unit_charge_melee",
                format!("{} has an enemy in its melee range and must make melee attacks", attacker.id()),
                "seed 000 \"Unit Charges\"",
            ));
        }
        return Ok(false);
    };
    if weapon.kind != WeaponKind::Melee {
        return Err(refuse(
            "charge_melee_only",
            "after a successful charge the model must make initial melee attacks",
            CHARGE,
        ));
    }
    let still_attackable = state.model(charged).is_some_and(|m| {
        // Attackable with any of its melee weapons: picking a shorter weapon does not excuse
        // the first attack from going to the charged model.
        let reach = attacker.melee_range().unwrap_or_else(|| melee_range_of(weapon));
        m.in_play() && sees(state, attacker, m) && within(&attacker.circle(), &m.circle(), reach)
    });
    if still_attackable && target.id() != charged {
        return Err(refuse(
            "charge_first_attack",
            format!("the first attack must be against the charged model, {charged}"),
            CHARGE,
        ));
    }
    Ok(target.id() == charged && doing.charge_attack)
}

fn enemy_in_melee_range(state: &WarmachineState, model: &ModelState) -> bool {
    let Some(reach) = model.melee_range() else { return false };
    state.models.values().any(|m| m.in_play() && state.enemies(model, m) && within(&model.circle(), &m.circle(), reach))
}

fn melee_range_of(weapon: &Weapon) -> f64 {
    match weapon.rng {
        WeaponRange::Inches(inches) if inches > 0.0 => inches,
        _ => DEFAULT_MELEE_RANGE,
    }
}

/// RNG as the attack roll sees it: a weapon reduced to 0 cannot attack.
/// RNG modifiers apply to numeric ranges; a CTRL or `*` range is the control range's or the
/// special rule's, so it is not reduced here (docs/rulesets/warmachine.md).
fn weapon_rng_for_roll(weapon: &Weapon, modifier: f64) -> f64 {
    match (weapon.kind, weapon.rng) {
        (WeaponKind::Melee, _) => melee_range_of(weapon) + modifier,
        (_, WeaponRange::Inches(inches) | WeaponRange::Spray(inches)) => inches + modifier,
        (_, WeaponRange::Control | WeaponRange::Special) => 1.0,
    }
}

/// The target must be within range: melee range for melee weapons, RNG (or SP, or the attacker's
/// CTRL) for ranged weapons, measured from the nearest base edge (seed 000 "RNG, Range").
/// A RNG of `*` is the model's special rules' to say, so it is not checked.
fn check_range(attacker: &ModelState, weapon: &Weapon, target: &ModelState) -> Result<(), RuleError> {
    let modifier = attacker.weapon_modifiers(&weapon.name).0;
    let reach = match (weapon.kind, weapon.rng) {
        (WeaponKind::Melee, _) => melee_range_of(weapon) + modifier,
        (_, WeaponRange::Inches(inches) | WeaponRange::Spray(inches)) => inches + modifier,
        (_, WeaponRange::Control) => f64::from(attacker.spec.profile.stats.ctrl.unwrap_or(0)),
        (_, WeaponRange::Special) => return Ok(()),
    };
    // "If a weapon's RNG is reduced to 0 or less by some effect, the weapon cannot be used to
    // make attacks" (seed 000 "RNG, Range").
    check_weapon_range(reach)?;
    if within(&attacker.circle(), &target.circle(), reach) {
        Ok(())
    } else {
        let kind = if weapon.kind == WeaponKind::Melee { "melee range" } else { "range" };
        Err(refuse(
            "out_of_range",
            format!(
                "{} is not within {}'s {kind} of {reach}″ (measured base edge to base edge)",
                target.id(),
                weapon.name
            ),
            "seed 000 \"Measuring Distances\"; seed 000 \"RNG, Range\"",
        ))
    }
}

fn extra_dice(rules: &[SpecialRule], roll: RollKind) -> RollOptions {
    let mut options = RollOptions::default();
    let mut names: Vec<&str> = rules
        .iter()
        .filter(|rule| rule.mechanics.contains(&Mechanic::AdditionalDie { roll }))
        .map(|rule| rule.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    debug_assert_eq!(names.len(), usize::from(additional_dice(rules, roll)));
    options.additional_dice = names.into_iter().map(str::to_string).collect();
    options
}

struct Budget {
    focus: u8,
    fury: u8,
}

/// What boosting a roll costs: free when a rule grants the boost, else 1 focus (warcasters and
/// warjacks), else 1 fury (warlocks: "can use fury points ... to enhance its own combat
/// abilities", seed 000 "Warlocks"), else forcing a warbeast below its FURY; otherwise the model
/// cannot boost.
fn boost_cost(
    model: &ModelState,
    rules: &[SpecialRule],
    roll: RollKind,
    budget: &mut Budget,
) -> Result<Cost, RuleError> {
    if may_boost(rules, roll) {
        return Ok(Cost::Free);
    }
    let uses_focus =
        model.spec.profile.common_rules().focus_manipulation || model.spec.profile.model_type == ModelType::Warjack;
    if uses_focus && budget.focus > 0 {
        budget.focus -= 1;
        return Ok(Cost::Focus);
    }
    if model.spec.profile.common_rules().fury_manipulation && budget.fury > 0 {
        budget.fury -= 1;
        return Ok(Cost::Fury);
    }
    if model.spec.profile.model_type == ModelType::Warbeast && budget.fury < model.spec.profile.stats.fury.unwrap_or(0)
    {
        budget.fury += 1;
        return Ok(Cost::Forced);
    }
    Err(refuse("cannot_boost", format!("{} has no rule, focus or fury left to boost this roll", model.id()), BOOSTED))
}

/// Blast damage: every other model within the AOE of a directly hit target suffers its own blast
/// damage roll at the blast POW (seed 000 "Weapon Statistics").
fn blasts(
    s: &WarmachineState,
    weapon: &Weapon,
    target: &ModelState,
    ctx: &mut Context,
) -> Result<Vec<DamageDealt>, RuleError> {
    let (Some(aoe), Some(blast_pow)) = (weapon.aoe, weapon.blast_pow) else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    let caught: Vec<(String, u32)> = s
        .models
        .values()
        .filter(|m| m.in_play() && m.id() != target.id())
        .filter(|m| within(&target.circle(), &m.circle(), f64::from(aoe)))
        .map(|m| (m.spec.id.clone(), u32::from(m.spec.profile.stats.arm)))
        .collect();
    for (id, arm) in caught {
        let rolled = damage_roll(
            &mut ctx.dice,
            &format!("blast damage roll against {id}"),
            u32::from(blast_pow),
            arm,
            &RollOptions::default(),
        )?;
        out.push(damage_dealt(s, &mut ctx.dice, &id, "blast", rolled)?);
    }
    Ok(out)
}

/// Triggered effects of the attack, in the order they are offered: the active player's (the
/// attacker's controller) first, then the inactive player's (seed 000 "Triggers").
fn triggers(attacker: &ModelState, weapon: &Weapon, target: &ModelState, hit: bool) -> Vec<TriggeredRule> {
    let fires = |rule: &SpecialRule| {
        rule.mechanics.iter().any(|m| match m {
            Mechanic::Trigger { condition: TriggerCondition::AttackHit, .. } => hit,
            Mechanic::Trigger { condition: TriggerCondition::AfterAttackResolved, .. } => true,
            _ => false,
        })
    };
    let mut out: Vec<TriggeredRule> = attacker
        .spec
        .profile
        .special_rules
        .iter()
        .chain(weapon.special_rules.iter())
        .filter(|rule| fires(rule))
        .map(|rule| TriggeredRule { model: attacker.spec.id.clone(), rule: rule.name.clone() })
        .collect();
    let theirs = target.spec.profile.special_rules.iter().filter(|rule| fires(rule));
    out.extend(theirs.map(|rule| TriggeredRule { model: target.spec.id.clone(), rule: rule.name.clone() }));
    out.dedup();
    out
}
