//! The damage rolls of an attack and of its counter (seed 001 "Attacking", "Cover", "Blast
//! attacks", "Effects of size in combat") and the damaged weapons they break (seed 001 "Combat
//! gear degradation").

use super::{
    damage::{size_scaling, Damage},
    targeting, Decision,
};
use crate::{
    zone_rpg::{
        character::gear::WeaponSpec,
        die::Die,
        event::ZoneRpgEvent,
        outcome::{DamageRoll, GearKind},
        state::{
            character::CharacterState,
            pending::{PendingAttack, PendingTarget},
        },
    },
    RuleError,
};

/// The damage `by` rolls against `target` with `weapon` (seed 001 "Attacking", "Cover",
/// "Effects of size in combat").
pub fn damage_against(
    d: &Decision,
    by: &CharacterState,
    target: &CharacterState,
    weapon: Option<&WeaponSpec>,
    impaired: bool,
    dice: u32,
) -> Damage {
    let ranged = weapon.is_some_and(WeaponSpec::ranged);
    let penetrating = weapon.is_some_and(|w| w.penetrating);
    let cover = targeting::covered(&d.state, by, target, false, ranged, penetrating);
    let (_, halvings) = size_scaling(by.spec.size, target.spec.size, false);
    Damage {
        by: by.id().to_string(),
        against: target.id().to_string(),
        weapon: weapon.map(|w| w.name.clone()),
        die: weapon.map_or(Die::D4, |w| w.damage),
        impaired,
        dice,
        halvings,
        direct: false,
        armour: target.armour_value(cover),
        cover,
        label: None,
    }
}

/// The attack's damage rolls against each target struck: one shared roll for a blast, reduced by
/// each target's own armour and cover.
pub fn attack_rolls(
    d: &mut Decision,
    pending: &PendingAttack,
    attacker: &CharacterState,
    struck: &[PendingTarget],
) -> Result<(Vec<DamageRoll>, Vec<DamageRoll>), RuleError> {
    let weapon = pending.weapon.as_deref().and_then(|name| attacker.weapon(name)).map(|w| w.weapon.clone());
    let mut rolls = Vec::new();
    if pending.blast {
        let Some(weapon) = weapon else { return Ok((Vec::new(), Vec::new())) };
        let zone = pending.zone.clone().unwrap_or_default();
        let shared = Damage {
            by: attacker.id().to_string(),
            against: format!("zone {zone}"),
            weapon: Some(weapon.name.clone()),
            die: weapon.damage,
            impaired: pending.impaired,
            dice: 1,
            halvings: 0,
            direct: false,
            armour: 0,
            cover: false,
            label: None,
        };
        let roll = d.roll_damage(&shared)?;
        for target in struck {
            let Some(character) = d.state.character(&target.target.character) else { continue };
            let cover = targeting::covered(&d.state, attacker, character, true, weapon.ranged(), weapon.penetrating);
            let armour = character.armour_value(cover);
            rolls.push(DamageRoll {
                against: character.id().to_string(),
                draws: Vec::new(),
                armour,
                cover,
                suffered: roll.damage.saturating_sub(armour),
                ..roll.clone()
            });
        }
        return Ok((vec![roll], rolls));
    }
    for target in struck {
        let Some(character) = d.state.character(&target.target.character).cloned() else { continue };
        let damage = damage_against(d, attacker, &character, weapon.as_ref(), pending.impaired, target.target.dice);
        rolls.push(d.roll_damage(&damage)?);
    }
    Ok((rolls.clone(), rolls))
}

/// A damaged weapon (not a natural attack) that rolled a 1 on its damage die is destroyed (seed
/// 001 "Combat gear degradation").
pub fn break_damaged(d: &mut Decision, owner: &CharacterState, weapon: Option<&str>, rolls: &[DamageRoll]) {
    let Some(weapon) = weapon.and_then(|name| owner.weapon(name)) else { return };
    if !weapon.weapon.damaged || weapon.weapon.natural {
        return;
    }
    if rolls.iter().any(|roll| roll.faces.contains(&1)) {
        d.emit(ZoneRpgEvent::GearDestroyed {
            character: owner.id().to_string(),
            kind: GearKind::Weapon,
            item: weapon.weapon.name.clone(),
            reason: "damaged, and a 1 was rolled on its damage die".into(),
        });
    }
}
