//! Non-magic combat (seed 002 "4 TYPES OF NON MAGIC COMBAT"): who may attack, melee attacks
//! (a flank attack, or the start of open combat), range attacks by band, and the damage a hit
//! does after resistances and armour. Open combat's picks are in `open_combat.rs`, attacks of
//! opportunity in `opportunity.rs`.

use super::{emit, flow, mini_in_play, moving::must_have_fled, refuse};
use crate::{
    dice::RollOptions,
    percentile_skirmish::{
        battle::{
            event::{AttackKind, DamageDealt, SkirmishEvent},
            state::{MiniState, SkirmishState},
        },
        headings,
        mini::{ArmourTest, Weapon},
        rules::{flank_attack_chance, in_flank, mitigate, range_band, ranged_chance, DamageSource},
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

pub(super) fn weapon<'a>(mini: &'a MiniState, name: &str, melee: bool) -> Result<&'a Weapon, RuleError> {
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

pub(super) fn killed(dealt: &[&DamageDealt]) -> Vec<String> {
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
