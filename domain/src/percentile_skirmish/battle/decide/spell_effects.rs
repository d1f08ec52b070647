//! What spells do (seed 002 "SPELL DESCRIPTIONS"): the roll "as if casting a spell" by band
//! of the spell's range, spell damage after resistances and armour, lasting effects with their
//! durations, healing, and the golems and familiars summoned from the set-up's cards.

use super::refuse;
use crate::{
    percentile_skirmish::{
        battle::{
            event::{DamageDealt, SpellOutcome},
            state::{MiniState, SkirmishState},
        },
        mini::{ArmourTest, Element, MiniSpec, Resistance},
        rules::{in_flank, mitigate, range_band, ranged_chance, spell_duration, DamageSource, RangeBand},
        spells::Spell,
        table::Point,
        SERVICE_RULES,
    },
    Context, RuleError,
};

/// The roll "as if casting a spell" at a mini or point `distance` inches away: its band of the
/// spell range, and the chance with the target's size and flank when it is a mini other than
/// the caster.
pub(super) fn spell_roll(
    state: &SkirmishState,
    caster: &MiniState,
    target: Option<&MiniState>,
    distance: f64,
    rolls: bool,
    purpose: &str,
    ctx: &mut Context,
) -> Result<SpellOutcome, RuleError> {
    let band = range_band(distance, caster.spell_range()).unwrap_or(RangeBand::Long);
    let aimed = target.filter(|target| target.id() != caster.id());
    let mut outcome = SpellOutcome {
        mini: target.map(|target| target.id().to_string()),
        distance,
        band,
        chance: None,
        roll: None,
        success: true,
        duration: None,
        damage: None,
        healed: None,
    };
    if rolls {
        let flanked = aimed.is_some_and(|t| in_flank(caster.position, t.position, t.facing, state.options.front_arc));
        let chance = ranged_chance(band, caster.spec.profile.level, aimed.map(|t| t.spec.profile.size), flanked);
        let roll = ctx.dice.roll(100, format!("{purpose} (needs {} or less)", chance.chance))?;
        outcome.success = chance.hit_by(roll.value);
        outcome.chance = Some(chance);
        outcome.roll = Some(roll);
    }
    Ok(outcome)
}

/// The damage a spell does to `target`.
pub(super) fn spell_damage(
    state: &SkirmishState,
    caster: &MiniState,
    spell: Spell,
    target: &MiniState,
) -> Option<DamageDealt> {
    let rolled = spell.damage(caster.spec.profile.level)?;
    let (element, test) = match spell {
        Spell::LightningBolt => (Some(Element::Electricity), ArmourTest::LightningBolt),
        Spell::Fireball => (Some(Element::Fire), ArmourTest::Fireball),
        _ => (None, ArmourTest::Ordinary),
    };
    let damage = mitigate(
        rolled,
        DamageSource::Spell { element },
        &target.spec.profile,
        &target.spell_armour(&state.options),
        test,
        state.options.halves,
    );
    let life_left = target.life.saturating_sub(damage.taken);
    Some(DamageDealt {
        mini: target.id().to_string(),
        source: format!("{} of {}", spell.heading(), caster.id()),
        roll: None,
        damage,
        life_left,
        killed: life_left == 0,
    })
}

/// What a spell that worked does to the mini it was cast at.
pub(super) fn take_effect(
    state: &SkirmishState,
    caster: &MiniState,
    spell: Spell,
    target: &MiniState,
    outcome: &mut SpellOutcome,
) {
    let level = caster.spec.profile.level;
    match spell {
        Spell::FlyingFist | Spell::LightningBolt | Spell::Fireball => {
            outcome.damage = spell_damage(state, caster, spell, target)
        }
        Spell::Heal => {
            let missing = target.spec.profile.life.saturating_sub(target.life);
            outcome.healed = Some((8 + level).min(missing));
        }
        _ => {
            outcome.duration = spell_duration(
                spell.duration(),
                level,
                target.spec.profile.level,
                target.spec.profile.resists(Resistance::Spells),
                state.options.short_durations,
                state.options.halves,
            );
        }
    }
}

/// The caster's summoned mini of `spell` still on the table, if any.
pub(super) fn summoned_by<'a>(state: &'a SkirmishState, caster: &str, spell: Spell) -> Option<&'a MiniState> {
    state
        .minis
        .values()
        .find(|mini| mini.in_play() && mini.summoned.as_ref().is_some_and(|s| s.caster == caster && s.spell == spell))
}

/// Where a spell aimed at a point reaches from: the caster, or its familiar when the spell may
/// reach from it and the familiar is nearer (seed 002 "Golem", "Teleport").
pub(super) fn origin(state: &SkirmishState, caster: &MiniState, spell: Spell, at: Point) -> Point {
    let familiar = summoned_by(state, caster.id(), Spell::Familiar).filter(|_| spell.reaches_from_familiar());
    match familiar {
        Some(familiar) if familiar.position.distance(at) < caster.position.distance(at) => familiar.position,
        _ => caster.position,
    }
}

/// The golem or familiar a caster summons at `at`, from the set-up's card.
pub(super) fn summon(
    state: &SkirmishState,
    caster: &MiniState,
    spell: Spell,
    at: Point,
) -> Result<MiniSpec, RuleError> {
    let (profile, kind) = match spell {
        Spell::Golem => (state.summons.golem.as_deref().cloned(), "golem"),
        _ => (state.summons.familiar.as_ref().map(|familiar| familiar.profile.clone()), "familiar"),
    };
    let profile = profile.ok_or_else(|| refuse("no_summon_stats", "no stats for the summoned mini", SERVICE_RULES))?;
    let id = (1..)
        .map(|n| format!("{}-{kind}-{n}", caster.id()))
        .find(|id| !state.minis.contains_key(id))
        .unwrap_or_default();
    Ok(MiniSpec {
        id,
        participant: state.acting_participant(caster).to_string(),
        profile,
        position: at,
        facing: caster.facing,
    })
}
