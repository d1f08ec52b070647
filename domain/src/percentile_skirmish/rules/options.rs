//! The battle options: where reasonable referees read seed 002 differently, the judge picks the
//! reading when the battle is set up (docs/rulesets/percentile-skirmish.md "Herald's readings").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{percentile_skirmish::SERVICE_RULES, RuleError};

/// Whether participants see each other's declarations before declaring themselves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDeclarations)]
#[serde(rename_all = "snake_case")]
pub enum Declarations {
    /// Sealed until every participant has declared, then revealed together (the default: the
    /// seed has everyone declare "at the beginning of an initiative round", before anyone acts).
    #[default]
    Sealed,
    /// Public as they are made.
    Open,
}

/// How a half is rounded ("1/2 damage", "duration halved", movement halved in water is exact).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishRounding)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Drop the fraction: 7 damage halved is 3 (the default).
    #[default]
    Down,
    /// Round the fraction up: 7 damage halved is 4.
    Up,
}

impl Rounding {
    /// `value` halved.
    pub fn halve(self, value: u32) -> u32 {
        match self {
            Self::Down => value / 2,
            Self::Up => value / 2 + value % 2,
        }
    }
}

/// What "1 turn + (caster's level − mini affected's level)" gives when the sum is 0 or less.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishShortDuration)]
#[serde(rename_all = "snake_case")]
pub enum ShortDuration {
    /// The spell takes no effect: a mini more than one level above the caster shrugs it off
    /// (the default; the spell points are spent all the same).
    #[default]
    NoEffect,
    /// It lasts 1 turn whatever the levels.
    OneTurn,
}

/// Which spells roll to succeed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSpellRolls)]
#[serde(rename_all = "snake_case")]
pub enum SpellRolls {
    /// Every spell with a range rolls by range band (the default: the command spell's "roll as
    /// if casting a spell, to see if they are successful" says casting is rolled).
    #[default]
    EveryCast,
    /// Only spells cast at a mini against its will (attack spells, statue, fear, slow, command)
    /// roll; the others simply work.
    HostileOnly,
}

/// The battle's options, each with its default.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishBattleOptions)]
#[serde(deny_unknown_fields, default)]
#[schema(example = json!({"declarations": "sealed", "melee_reach": 1.0, "front_arc": 180.0, "fireball_width": 1.0,
    "halves": "down", "short_durations": "no_effect", "spell_rolls": "every_cast", "large_shield": 2, "magical_plate": 5}))]
pub struct BattleOptions {
    /// Sealed or open declarations (seed 002 "TURN").
    pub declarations: Declarations,
    /// How close, centre to centre in inches, two minis must be to fight hand to hand (open
    /// combat, flank attacks, attacks of opportunity); default 1″.
    pub melee_reach: f64,
    /// The front arc in degrees, centred on a mini's facing; an attacker outside it is in the
    /// flank position (seed 002 "Flank attack"); default 180.
    pub front_arc: f64,
    /// How wide the fireball's path is, in inches (seed 002 "Fireball": "every mini … within
    /// the path"); default 1″.
    pub fireball_width: f64,
    /// How halves are rounded (resistances' half damage and halved durations).
    pub halves: Rounding,
    /// What a duration of 0 or less turns does.
    pub short_durations: ShortDuration,
    /// Which spells roll to succeed.
    pub spell_rolls: SpellRolls,
    /// The protection of a large shield, which the magic shield spell gives (seed 002 "Magic
    /// shield"); default 2.
    pub large_shield: u32,
    /// The protection of magical plate mail, which the protection spell gives (seed 002
    /// "Protection"); default 5.
    pub magical_plate: u32,
}

impl Default for BattleOptions {
    fn default() -> Self {
        Self {
            declarations: Declarations::Sealed,
            melee_reach: 1.0,
            front_arc: 180.0,
            fireball_width: 1.0,
            halves: Rounding::Down,
            short_durations: ShortDuration::NoEffect,
            spell_rolls: SpellRolls::EveryCast,
            large_shield: 2,
            magical_plate: 5,
        }
    }
}

impl BattleOptions {
    /// Refuse options the rules cannot play with.
    pub fn validate(&self) -> Result<(), RuleError> {
        let inches = |value: f64| value.is_finite() && value > 0.0 && value <= 100.0;
        if !(inches(self.melee_reach) && inches(self.fireball_width)) {
            return Err(refuse("melee_reach and fireball_width are more than 0″ and at most 100″"));
        }
        if !(self.front_arc.is_finite() && (0.0..=360.0).contains(&self.front_arc)) {
            return Err(refuse("front_arc is 0 to 360 degrees"));
        }
        if self.large_shield > 1000 || self.magical_plate > 1000 {
            return Err(refuse("armour protection is at most 1000"));
        }
        Ok(())
    }
}

fn refuse(message: &str) -> RuleError {
    RuleError::new("percentile-skirmish.bad_options", message, SERVICE_RULES)
}
