//! Armour and shields: what protects a mini from damage, and from which attacks (seed 002
//! "Flank attack", "Lightning bolt", "Fireball", "Magic shield", "Protection").
//!
//! The seed names armour ("magical plate mail", "large shield", "metal armor", "forward facing
//! armor") without giving it numbers: the set-up gives each piece a protection value, the
//! damage it stops (Herald's reading: armour subtracts its protection from the damage that
//! gets through resistances, never below 0).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a piece is worn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishArmourSlot)]
#[serde(rename_all = "snake_case")]
pub enum ArmourSlot {
    /// Body armour (mail, plate, a helmet): the protection spell's magical plate mail stands in
    /// for it when better.
    Body,
    /// A shield: always forward facing; the magic shield spell's large shield stands in for it
    /// when better.
    Shield,
}

/// One piece of armour or a shield, as the set-up gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishArmour)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Chain mail", "slot": "body", "protection": 2, "metal": true, "magical": false, "forward_facing": false}))]
pub struct Armour {
    /// Its name ("Chain mail", "Large shield").
    pub name: String,
    /// Body or shield.
    pub slot: ArmourSlot,
    /// Damage points it stops.
    pub protection: u32,
    /// Metal (a lightning bolt ignores non-magical metal armour).
    #[serde(default)]
    pub metal: bool,
    /// Magical (magical armour always protects against the two spells).
    #[serde(default)]
    pub magical: bool,
    /// Protects only from the front, like a breastplate (shields always do): no protection
    /// from flank attacks.
    #[serde(default)]
    pub forward_facing: bool,
}

/// What an attack is, as far as armour cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishArmourTest)]
#[serde(rename_all = "snake_case")]
pub enum ArmourTest {
    /// Any attack from the front, or a spell with no special rule: every piece protects.
    Ordinary,
    /// A flank attack: "Shields and forward facing armor do not provide protection from flank
    /// attacks" (seed 002 "Flank attack").
    Flank,
    /// A lightning bolt: "All non-magical metal armor offers no protection".
    LightningBolt,
    /// A fireball: "Non-magical non-metal armor offers no protection".
    Fireball,
}

impl Armour {
    /// Whether this piece protects against `test`.
    pub fn protects_against(&self, test: ArmourTest) -> bool {
        match test {
            ArmourTest::Ordinary => true,
            ArmourTest::Flank => self.slot != ArmourSlot::Shield && !self.forward_facing,
            ArmourTest::LightningBolt => self.magical || !self.metal,
            ArmourTest::Fireball => self.magical || self.metal,
        }
    }

    /// The magical plate mail the protection spell gives (seed 002 "Protection": "Acts as
    /// magical plate mail"), with the battle's protection value for it.
    pub fn magical_plate(protection: u32) -> Self {
        Self {
            name: "Magical plate mail (Protection)".into(),
            slot: ArmourSlot::Body,
            protection,
            metal: true,
            magical: true,
            forward_facing: false,
        }
    }

    /// The large shield the magic shield spell gives (seed 002 "Magic shield": "Acts as a large
    /// shield"), with the battle's protection value for it.
    pub fn large_shield(protection: u32) -> Self {
        Self {
            name: "Large shield (Magic shield)".into(),
            slot: ArmourSlot::Shield,
            protection,
            metal: false,
            magical: true,
            forward_facing: true,
        }
    }
}

/// The protection `pieces` give against `test`: each slot's pieces add up, and a spell's piece
/// (`spell_pieces`) counts for its slot instead when it gives more (a mini does not wear two
/// plate mails).
pub fn protection(pieces: &[Armour], spell_pieces: &[Armour], test: ArmourTest) -> u32 {
    [ArmourSlot::Body, ArmourSlot::Shield]
        .into_iter()
        .map(|slot| {
            let worn: u32 = pieces
                .iter()
                .filter(|piece| piece.slot == slot && piece.protects_against(test))
                .map(|piece| piece.protection)
                .sum();
            let granted = spell_pieces
                .iter()
                .filter(|piece| piece.slot == slot && piece.protects_against(test))
                .map(|piece| piece.protection)
                .max()
                .unwrap_or(0);
            worn.max(granted)
        })
        .sum()
}
