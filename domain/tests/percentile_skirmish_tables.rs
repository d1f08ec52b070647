//! Every table of seed 002 as a data-driven test, row by row with the seed's own numbers:
//! "NON MEDIUM SIZED MINI'S", "RANGE OR SPELL ATTACKS ON A FLANKED MINI", "Open combat" (the
//! options, the triangle and the percentile table), "Range attacks" and the spells' ranged
//! attack, "Attack of opportunity", "Flank attack", "RESISTANCES", and the spell list's costs,
//! ranges and durations.

use herald_domain::percentile_skirmish::{
    mini::{Resistance, Size},
    rules::{
        chance::{flank_modifier, size_modifier},
        flank_attack_chance, opportunity_chance, range_band, ranged_chance, spell_duration, AttackOption, Exchange,
        RangeBand, Rounding, ShortDuration,
    },
    spells::{Aim, DurationRule, Spell, ALL_SPELLS},
};

use RangeBand::{Long, Medium, Short};

#[test]
fn the_size_modifier_table_of_seed_002_non_medium_sized_minis() {
    // Small sized mini | Large sized mini, by range.
    let table = [(Short, -5, 15), (Medium, -10, 10), (Long, -15, 5)];
    for (band, small, large) in table {
        assert_eq!(size_modifier(band, Size::Small), small, "{band:?} small");
        assert_eq!(size_modifier(band, Size::Large), large, "{band:?} large");
        assert_eq!(size_modifier(band, Size::Medium), 0, "{band:?} medium");
    }
}

#[test]
fn the_flanked_mini_table_of_seed_002_range_or_spell_attacks_on_a_flanked_mini() {
    for (band, modifier) in [(Short, 15), (Medium, 10), (Long, 5)] {
        assert_eq!(flank_modifier(band, true), modifier, "{band:?}");
        assert_eq!(flank_modifier(band, false), 0, "{band:?} unflanked");
    }
}

#[test]
fn the_range_attack_table_of_seed_002_range_attacks_by_thirds_of_the_maximum_range() {
    // (distance, maximum range, band, level, chance): "65% chance to hit + mini's level * 3",
    // "50% … * 2", "35% … + mini's level".
    let rows = [
        (1.0, 24.0, Short, 0, 65),
        (8.0, 24.0, Short, 2, 71),
        (8.1, 24.0, Medium, 2, 54),
        (16.0, 24.0, Medium, 5, 60),
        (16.5, 24.0, Long, 5, 40),
        (24.0, 24.0, Long, 1, 36),
        (3.0, 9.0, Short, 10, 95),
        (6.0, 9.0, Medium, 10, 70),
        (9.0, 9.0, Long, 10, 45),
    ];
    for (distance, maximum, band, level, chance) in rows {
        assert_eq!(range_band(distance, maximum), Some(band), "{distance}″ of {maximum}″");
        assert_eq!(ranged_chance(band, level, None, false).chance, chance, "{band:?} at level {level}");
    }
    assert_eq!(range_band(24.01, 24.0), None, "beyond the maximum range");
}

#[test]
fn a_range_bands_boundary_belongs_to_the_nearer_band_per_seed_002_range_attacks() {
    // Herald's reading: "First 1/3" runs up to and including a third of the range.
    assert_eq!(range_band(4.0, 12.0), Some(Short));
    assert_eq!(range_band(4.000_001, 12.0), Some(Medium));
    assert_eq!(range_band(8.0, 12.0), Some(Medium));
    assert_eq!(range_band(8.000_001, 12.0), Some(Long));
    assert_eq!(range_band(12.0, 12.0), Some(Long));
    assert_eq!(range_band(0.0, 12.0), Some(Short));
}

#[test]
fn size_and_flank_modifiers_add_to_the_range_chance_per_seed_002() {
    // Level 2 at short range: 65 + 6; small −5, flanked +15.
    let chance = ranged_chance(Short, 2, Some(Size::Small), true);
    assert_eq!((chance.base, chance.level_bonus, chance.size_modifier, chance.flank_modifier), (65, 6, -5, 15));
    assert_eq!(chance.chance, 81);
    // Large and flanked at long range, level 4: 35 + 4 + 5 + 5.
    assert_eq!(ranged_chance(Long, 4, Some(Size::Large), true).chance, 49);
    // Small at medium range, level 0: 50 − 10.
    assert_eq!(ranged_chance(Medium, 0, Some(Size::Small), false).chance, 40);
}

#[test]
fn chances_are_clamped_to_0_and_100_per_herald_reading_of_percentile_dice() {
    let high = ranged_chance(Short, 20, Some(Size::Large), true);
    assert_eq!((high.total, high.chance), (155, 100));
    assert!(high.hit_by(100), "a chance of 100 hits even on 100");
    let flank = flank_attack_chance(30);
    assert_eq!((flank.total, flank.chance), (155, 100));
    let low = ranged_chance(Long, 0, Some(Size::Small), false);
    assert_eq!(low.chance, 20);
    assert!(low.hit_by(20) && !low.hit_by(21), "a roll hits when it is at most the chance");
}

#[test]
fn the_attack_of_opportunity_and_flank_attack_chances_of_seed_002() {
    for (level, opportunity, flank) in [(0, 50, 65), (1, 52, 68), (3, 56, 74), (5, 60, 80), (11, 72, 98), (12, 74, 100)]
    {
        assert_eq!(opportunity_chance(level).chance, opportunity, "attack of opportunity at level {level}");
        assert_eq!(flank_attack_chance(level).chance, flank, "flank attack at level {level}");
    }
}

#[test]
fn the_three_attack_options_of_seed_002_open_combat_on_a_d6() {
    let table = [
        (1, AttackOption::SwingToTheHead),
        (2, AttackOption::SwingToTheHead),
        (3, AttackOption::ThrustToTheBody),
        (4, AttackOption::ThrustToTheBody),
        (5, AttackOption::ParryAndCounterAttack),
        (6, AttackOption::ParryAndCounterAttack),
    ];
    for (face, option) in table {
        assert_eq!(AttackOption::from_d6(face), option, "d6 {face}");
    }
}

#[test]
fn the_open_combat_triangle_of_seed_002_decides_who_hits() {
    use AttackOption::{ParryAndCounterAttack as Parry, SwingToTheHead as Swing, ThrustToTheBody as Thrust};
    // A's option, B's option, the exchange ("beats": the winner hits, the loser misses).
    let table = [
        (Swing, Parry, Some(Exchange::AHits)),
        (Parry, Swing, Some(Exchange::BHits)),
        (Thrust, Swing, Some(Exchange::AHits)),
        (Swing, Thrust, Some(Exchange::BHits)),
        (Parry, Thrust, Some(Exchange::AHits)),
        (Thrust, Parry, Some(Exchange::BHits)),
        (Swing, Swing, None),
        (Thrust, Thrust, None),
        (Parry, Parry, None),
    ];
    for (a, b, exchange) in table {
        assert_eq!(Exchange::from_options(a, b), exchange, "{a:?} against {b:?}");
    }
}

#[test]
fn the_same_option_rolls_on_the_percentile_table_of_seed_002_open_combat() {
    // "01 - 40: Both miss 41 - 60: A hits, B misses 61 - 80: B hits, A misses 81 - 100: Both hit".
    let rows = [
        (1, Exchange::BothMiss),
        (40, Exchange::BothMiss),
        (41, Exchange::AHits),
        (60, Exchange::AHits),
        (61, Exchange::BHits),
        (80, Exchange::BHits),
        (81, Exchange::BothHit),
        (100, Exchange::BothHit),
    ];
    for (roll, exchange) in rows {
        assert_eq!(Exchange::from_percentile(roll), exchange, "{roll:02}");
    }
    assert!(Exchange::BothHit.a_hits() && Exchange::BothHit.b_hits());
    assert!(Exchange::AHits.a_hits() && !Exchange::AHits.b_hits());
    assert!(!Exchange::BHits.a_hits() && Exchange::BHits.b_hits());
    assert!(!Exchange::BothMiss.a_hits() && !Exchange::BothMiss.b_hits());
}

#[test]
fn the_resistance_costs_of_seed_002_resistances() {
    let table = [
        (Resistance::NonMagicWeapons, 75),
        (Resistance::Fire, 50),
        (Resistance::Electricity, 50),
        (Resistance::Poison, 50),
        (Resistance::Spells, 75),
    ];
    for (resistance, cost) in table {
        assert_eq!(resistance.cost(), cost, "{resistance:?}");
    }
    assert_eq!(herald_domain::percentile_skirmish::mini::resistance_cost(&[Resistance::Fire, Resistance::Spells]), 125);
}

#[test]
fn the_spell_list_of_seed_002_spell_descriptions_with_cost_range_and_duration() {
    // (spell, cost, aimed at, duration).
    let table = [
        (Spell::FlyingFist, 5, Aim::Mini, DurationRule::Immediate),
        (Spell::LightningBolt, 10, Aim::Mini, DurationRule::Immediate),
        (Spell::MagicShield, 10, Aim::Caster, DurationRule::CasterLevel),
        (Spell::Statue, 20, Aim::Mini, DurationRule::LevelDifference),
        (Spell::Speed, 5, Aim::Mini, DurationRule::CasterLevel),
        (Spell::Heal, 10, Aim::Mini, DurationRule::Immediate),
        (Spell::Fear, 10, Aim::Mini, DurationRule::LevelDifference),
        (Spell::Protection, 20, Aim::Mini, DurationRule::CasterLevel),
        (Spell::Fireball, 20, Aim::Path, DurationRule::Immediate),
        (Spell::Command, 20, Aim::Mini, DurationRule::LevelDifference),
        (Spell::Golem, 40, Aim::Point, DurationRule::CasterLevel),
        (Spell::Familiar, 25, Aim::Point, DurationRule::CasterLevel),
        (Spell::Slow, 5, Aim::Mini, DurationRule::CasterLevel),
        (Spell::Teleport, 50, Aim::Point, DurationRule::Immediate),
        (Spell::WaterWalk, 10, Aim::Mini, DurationRule::CasterLevel),
    ];
    assert_eq!(table.len(), ALL_SPELLS.len());
    for ((spell, cost, aim, duration), listed) in table.into_iter().zip(ALL_SPELLS) {
        assert_eq!(spell, listed, "the seed's order");
        assert_eq!((spell.cost(), spell.aim(), spell.duration()), (cost, aim, duration), "{spell:?}");
    }
    // "6 damage + caster's level", "8 damage + caster's level".
    assert_eq!(Spell::FlyingFist.damage(3), Some(9));
    assert_eq!(Spell::LightningBolt.damage(0), Some(6));
    assert_eq!(Spell::Fireball.damage(4), Some(12));
    assert_eq!(Spell::Heal.damage(4), None);
}

#[test]
fn spell_durations_per_seed_002_spell_descriptions_and_what_a_negative_one_gives() {
    use DurationRule::{CasterLevel, Immediate, LevelDifference};
    // (rule, caster level, target level, resists spells, short-duration option, rounding, turns).
    let rows = [
        (Immediate, 5, 0, false, ShortDuration::NoEffect, Rounding::Down, None),
        (CasterLevel, 3, 9, false, ShortDuration::NoEffect, Rounding::Down, Some(4)),
        (LevelDifference, 5, 2, false, ShortDuration::NoEffect, Rounding::Down, Some(4)),
        (LevelDifference, 3, 3, false, ShortDuration::NoEffect, Rounding::Down, Some(1)),
        // 1 + (3 − 4) = 0 and 1 + (2 − 6) = −3: no effect, or 1 turn with the option.
        (LevelDifference, 3, 4, false, ShortDuration::NoEffect, Rounding::Down, Some(0)),
        (LevelDifference, 2, 6, false, ShortDuration::NoEffect, Rounding::Down, Some(0)),
        (LevelDifference, 2, 6, false, ShortDuration::OneTurn, Rounding::Down, Some(1)),
        // "Spells … have their duration halved": 4 → 2; 5 → 2 or 3; never below 1.
        (CasterLevel, 3, 0, true, ShortDuration::NoEffect, Rounding::Down, Some(2)),
        (CasterLevel, 4, 0, true, ShortDuration::NoEffect, Rounding::Down, Some(2)),
        (CasterLevel, 4, 0, true, ShortDuration::NoEffect, Rounding::Up, Some(3)),
        (LevelDifference, 3, 3, true, ShortDuration::NoEffect, Rounding::Down, Some(1)),
        (LevelDifference, 3, 5, true, ShortDuration::NoEffect, Rounding::Down, Some(0)),
    ];
    for (rule, caster, target, resists, short, halves, turns) in rows {
        let duration = spell_duration(rule, caster, target, resists, short, halves);
        assert_eq!(
            duration.map(|d| d.turns),
            turns,
            "{rule:?} by level {caster} on level {target}, resisting {resists}"
        );
    }
    let negative = spell_duration(LevelDifference, 2, 6, false, ShortDuration::NoEffect, Rounding::Down);
    assert_eq!(negative.map(|d| d.formula), Some(-3), "the formula is recorded as the seed gives it");
}
