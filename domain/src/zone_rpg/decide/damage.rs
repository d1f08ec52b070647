//! Damage: the dice of a weapon, unarmed or impaired attack, scaled by size (seed 001
//! "Effects of size in combat"), reduced by armour and cover (seed 001 "Cover"), and what it
//! does to the character hit: health, critical damage, incapacitation, death, broken gear.

use super::Decision;
use crate::{
    zone_rpg::{
        character::Size,
        die::Die,
        event::ZoneRpgEvent,
        options::{CriticalDamage, ImpairedDamage},
        outcome::{DamageRoll, GearKind},
        state::character::CharacterState,
    },
    RuleError,
};

/// A damage roll to make.
#[derive(Debug, Clone)]
pub struct Damage {
    /// Who inflicts it.
    pub by: String,
    /// Who suffers it.
    pub against: String,
    /// The weapon, if any.
    pub weapon: Option<String>,
    /// The weapon's die (d4 when unarmed).
    pub die: Die,
    /// Impaired damage.
    pub impaired: bool,
    /// How many dice.
    pub dice: u32,
    /// Halvings for a smaller attacker.
    pub halvings: u32,
    /// Direct damage: armour does not reduce it.
    pub direct: bool,
    /// Armour value against it (cover included, at most 3).
    pub armour: u32,
    /// Whether cover added to the armour value.
    pub cover: bool,
    /// What the dice are for when not a weapon (`shove`); named in the draws' purposes.
    pub label: Option<String>,
}

/// Dice and halvings for an attacker of size `from` hitting a target of size `at`: a larger
/// attacker doubles the number of dice for each size of difference, a smaller one halves the
/// damage for each (seed 001 "Effects of size in combat"); blasts are never modified.
pub fn size_scaling(from: Size, at: Size, blast: bool) -> (u32, u32) {
    if blast {
        return (1, 0);
    }
    let steps = from.steps_over(at);
    if steps > 0 {
        (1u32 << steps.unsigned_abs(), 0)
    } else {
        (1, steps.unsigned_abs())
    }
}

/// What suffering `suffered` damage does to `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitOutcome {
    /// Health left.
    pub health: u32,
    /// Critical damage: the character is incapacitated.
    pub critical: bool,
    /// Health 0: the character is killed.
    pub killed: bool,
}

impl HitOutcome {
    /// Whether the character is no longer standing afterwards.
    pub fn downs(&self, target: &CharacterState) -> bool {
        self.killed || self.critical || !target.standing()
    }
}

/// What `suffered` damage does to `target` under the fight's reading of critical damage (seed
/// 001 "Attacking": the bandit "rolls a 4, reducing his health from 8 to 4 and incapacitating
/// him"; health 0 kills: Herald's reading).
pub fn hit_outcome(reading: CriticalDamage, target: &CharacterState, suffered: u32) -> HitOutcome {
    let health = target.health.saturating_sub(suffered);
    let critical = suffered > 0
        && match reading {
            CriticalDamage::HalfMaximumInOneHit => suffered * 2 >= target.max_health,
            CriticalDamage::HalfHealthOrLess => health * 2 <= target.max_health,
        };
    HitOutcome { health, critical, killed: suffered > 0 && health == 0 }
}

impl Decision<'_> {
    /// Roll `damage`.
    pub fn roll_damage(&mut self, damage: &Damage) -> Result<DamageRoll, RuleError> {
        let impaired_reading = self.state.options.impaired;
        let die = if damage.impaired && impaired_reading == ImpairedDamage::D4 { Die::D4 } else { damage.die };
        let twice = damage.impaired && impaired_reading == ImpairedDamage::LowerOfTwo;
        let source = match (&damage.weapon, &damage.label, self.state.character(&damage.by)) {
            (Some(weapon), _, _) => format!("{}'s {weapon}", damage.by),
            (None, Some(label), _) => format!("{}'s {label}", damage.by),
            (None, None, Some(_)) => format!("{}'s unarmed attack", damage.by),
            (None, None, None) => damage.by.clone(),
        };
        let mut draws = Vec::new();
        let mut faces = Vec::new();
        for index in 1..=damage.dice {
            let purpose = format!("damage {die} of {source} against {}, die {index}", damage.against);
            let first = self.roll(die.sides(), purpose.clone())?;
            let mut face = first.value;
            draws.push(first);
            if twice {
                let second = self.roll(die.sides(), format!("{purpose}, impaired second roll"))?;
                face = face.min(second.value);
                draws.push(second);
            }
            faces.push(face);
        }
        let total: u32 = faces.iter().sum();
        let divisor = 1u64 << damage.halvings.min(16);
        let halved = u32::try_from(u64::from(total).div_ceil(divisor)).unwrap_or(u32::MAX);
        let suffered = if damage.direct { halved } else { halved.saturating_sub(damage.armour) };
        Ok(DamageRoll {
            by: damage.by.clone(),
            against: damage.against.clone(),
            weapon: damage.weapon.clone(),
            die: die.to_string(),
            draws,
            faces,
            impaired: damage.impaired,
            halvings: damage.halvings,
            damage: halved,
            direct: damage.direct,
            armour: if damage.direct { 0 } else { damage.armour },
            cover: damage.cover && !damage.direct,
            suffered,
        })
    }

    /// Apply a damage roll to the character it is against: health, critical damage and
    /// incapacitation, death at 0, a surrender ended by the enemy's harm, and for an attack a
    /// damaged shield or armour destroyed by 8 or more damage (seed 001 "Combat gear
    /// degradation": "shields are destroyed first").
    pub fn hit(&mut self, roll: &DamageRoll, attack: Option<u32>, record_roll: bool) {
        let Some(target) = self.state.character(&roll.against).cloned() else { return };
        if !target.present() {
            return;
        }
        let HitOutcome { health, critical, killed } =
            hit_outcome(self.state.options.critical_damage, &target, roll.suffered);
        let enemy = self.state.character(&roll.by).is_some_and(|by| by.faction() != target.faction());
        let armour_used =
            !roll.direct && (target.armour.is_some() || target.shield.as_ref().is_some_and(|s| s.shield.held));
        let next_word = self.next_word();
        self.emit(ZoneRpgEvent::CharacterHit {
            character: target.id().to_string(),
            by: roll.by.clone(),
            attack,
            suffered: roll.suffered,
            health,
            critical,
            incapacitated: critical && !killed && !target.incapacitated,
            killed,
            armour_used,
            surrender_ended: target.surrendered && enemy && roll.suffered > 0,
            roll: record_roll.then(|| roll.clone()),
            next_word,
        });
        if attack.is_some() && roll.damage >= 8 && !roll.direct {
            let shield = target.shield.as_ref().filter(|s| s.shield.held && s.shield.damaged && !s.destroyed);
            let armour = target.armour.as_ref().filter(|a| a.armour.damaged && !a.destroyed && !a.armour.natural);
            let destroyed = match (shield, armour) {
                (Some(shield), _) => Some((GearKind::Shield, shield.shield.name.clone())),
                (None, Some(armour)) => Some((GearKind::Armour, armour.armour.name.clone())),
                (None, None) => None,
            };
            if let Some((kind, item)) = destroyed {
                self.emit(ZoneRpgEvent::GearDestroyed {
                    character: target.id().to_string(),
                    kind,
                    item,
                    reason: format!("damaged and hit for {} before armour", roll.damage),
                });
            }
        }
        self.release_if_down(target.id());
    }

    /// A character who is down lets go and is let go of.
    pub fn release_if_down(&mut self, id: &str) {
        let Some(character) = self.state.character(id).cloned() else { return };
        if character.standing() {
            return;
        }
        if let Some(held) = &character.grabbing {
            self.emit(ZoneRpgEvent::GrabReleased {
                grabber: id.to_string(),
                character: held.clone(),
                reason: format!("{id} is down"),
            });
        }
        if let Some(holder) = &character.grabbed_by {
            self.emit(ZoneRpgEvent::GrabReleased {
                grabber: holder.clone(),
                character: id.to_string(),
                reason: format!("{id} is down"),
            });
        }
    }
}
