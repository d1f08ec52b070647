//! Folding what happens to gear: weapons dropped and taken, items handled, gear destroyed and
//! worn by durability rolls (seed 001 "Taking a turn", "Non-lethal attacks", "Combat gear
//! degradation").

use super::ZoneRpgState;
use crate::zone_rpg::{
    character::gear::{Item, ShieldState, WeaponState, ZoneItem},
    event::ZoneRpgEvent,
    outcome::{GearKind, Handling, Wear},
};

impl ZoneRpgState {
    /// Fold the gear events; others are left to the other folds.
    pub(super) fn fold_gear(&mut self, event: &ZoneRpgEvent) {
        use ZoneRpgEvent as E;
        match event {
            E::WeaponDropped { character, weapon, zone, taken_by, taken_as } => {
                self.drop_weapon(character, weapon, zone, taken_by.as_deref(), taken_as.as_deref());
            }
            E::GearDestroyed { character, kind, item, .. } => {
                if let Some(owner) = self.character_mut(character) {
                    match kind {
                        GearKind::Weapon => {
                            if let Some(weapon) =
                                owner.weapons.iter_mut().find(|w| w.weapon.name == *item && !w.destroyed)
                            {
                                weapon.destroyed = true;
                                weapon.weapon.held = false;
                            }
                        }
                        GearKind::Shield => {
                            if let Some(shield) = &mut owner.shield {
                                shield.destroyed = true;
                                shield.shield.held = false;
                            }
                        }
                        GearKind::Armour => {
                            if let Some(armour) = &mut owner.armour {
                                armour.destroyed = true;
                            }
                        }
                    }
                }
            }
            E::ActionPerformed { character, action, .. } => self.spend_action(character, action.is_main()),
            E::ItemHandled { character, item, handling, name, zone, concealed } => {
                self.handled(character, item, *handling, name, zone, *concealed);
            }
            E::DurabilityRolled { character, kind, item, wear, .. } => {
                self.worn(character, *kind, item, *wear);
            }
            _ => {}
        }
    }

    pub(super) fn drop_weapon(
        &mut self,
        owner: &str,
        weapon: &str,
        zone: &str,
        taker: Option<&str>,
        taken_as: Option<&str>,
    ) {
        let Some(character) = self.character_mut(owner) else { return };
        let Some(index) = character.weapons.iter().position(|w| w.weapon.name == weapon && !w.destroyed) else {
            return;
        };
        let mut dropped = character.weapons.remove(index);
        dropped.weapon.held = false;
        match (taker.and_then(|t| self.character_mut(t)), taken_as) {
            (Some(taker), Some(name)) => {
                dropped.weapon.name = name.to_string();
                taker.weapons.push(dropped);
            }
            _ => self.items.push(ZoneItem {
                zone: zone.to_string(),
                item: Item::Weapon { weapon: dropped.weapon, used: dropped.used },
                left_by: owner.to_string(),
                concealed: false,
            }),
        }
    }

    pub(super) fn put_down(&mut self, owner: &str, item: &str, zone: &str, concealed: bool) {
        let Some(character) = self.character_mut(owner) else { return };
        let taken = if let Some(index) = character.weapons.iter().position(|w| w.weapon.name == item && !w.destroyed) {
            let mut weapon = character.weapons.remove(index);
            weapon.weapon.held = false;
            Some(Item::Weapon { weapon: weapon.weapon, used: weapon.used })
        } else if character.shield.as_ref().is_some_and(|s| s.shield.name == item && !s.destroyed) {
            character.shield.take().map(|mut shield| {
                shield.shield.held = false;
                Item::Shield { shield: shield.shield, used: shield.used }
            })
        } else {
            None
        };
        if let Some(item) = taken {
            self.items.push(ZoneItem { zone: zone.to_string(), item, left_by: owner.to_string(), concealed });
        }
    }

    pub(super) fn handled(
        &mut self,
        id: &str,
        item: &str,
        handling: Handling,
        name: &str,
        zone: &str,
        concealed: bool,
    ) {
        match handling {
            Handling::PickedUp => {
                if let Some(index) = self.items.iter().position(|i| i.zone == zone && i.item.name() == item) {
                    let lying = self.items.remove(index);
                    if let Some(character) = self.character_mut(id) {
                        match lying.item {
                            Item::Weapon { mut weapon, used } => {
                                weapon.name = name.to_string();
                                weapon.held = false;
                                character.weapons.push(WeaponState { weapon, used, destroyed: false });
                            }
                            Item::Shield { mut shield, used } => {
                                shield.held = false;
                                character.shield = Some(ShieldState { shield, used, destroyed: false });
                            }
                        }
                    }
                }
            }
            Handling::PutDown => self.put_down(id, item, zone, concealed),
            Handling::Equipped | Handling::Unequipped => {
                let held = handling == Handling::Equipped;
                if let Some(character) = self.character_mut(id) {
                    if let Some(weapon) = character.weapons.iter_mut().find(|w| w.weapon.name == item && !w.destroyed) {
                        weapon.weapon.held = held;
                    } else if let Some(shield) = character.shield.as_mut().filter(|s| s.shield.name == item) {
                        shield.shield.held = held;
                    }
                }
            }
        }
        self.spend_action(id, false);
    }

    pub(super) fn worn(&mut self, id: &str, kind: GearKind, item: &str, wear: Wear) {
        let Some(owner) = self.character_mut(id) else { return };
        let (damaged, destroyed) = (wear != Wear::Intact, wear == Wear::Destroyed);
        match kind {
            GearKind::Weapon => {
                if let Some(weapon) = owner.weapons.iter_mut().find(|w| w.weapon.name == item && !w.destroyed) {
                    weapon.weapon.damaged |= damaged;
                    weapon.destroyed |= destroyed;
                }
            }
            GearKind::Shield => {
                if let Some(shield) = &mut owner.shield {
                    shield.shield.damaged |= damaged;
                    shield.destroyed |= destroyed;
                }
            }
            GearKind::Armour => {
                if let Some(armour) = &mut owner.armour {
                    armour.armour.damaged |= damaged;
                    armour.destroyed |= destroyed;
                }
            }
        }
    }
}
