//! A character as the fight has left it: health, where it stands, its gear, its conditions and
//! what it has done this round.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::zone_rpg::character::{
    gear::{ArmourState, ShieldState, WeaponState},
    CharacterSpec,
};

/// What a character has done with its turn this round (seed 001 "Combat procedure": "Each
/// character can only take a turn once per round"; "Taking a turn": "A reaction takes the whole
/// turn").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgTurnUse)]
#[serde(rename_all = "snake_case")]
pub enum TurnUse {
    /// Not taken yet: it may take its turn or react.
    #[default]
    Available,
    /// Taking its turn now.
    InTurn,
    /// Took part in its mount's turn without acting, keeping its turn to react (seed 001
    /// "Mounts and vehicles in combat").
    Reserved,
    /// Spent: taken, or spent on a reaction.
    Used,
}

/// Why a character is no longer in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgLeft)]
#[serde(rename_all = "snake_case")]
pub enum Left {
    /// It retreated.
    Retreated,
    /// It escaped a chase.
    Escaped,
}

/// Where a character stands with morale (seed 001 "Morale").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgMorale)]
#[serde(rename_all = "snake_case")]
pub enum Morale {
    /// Not tested this stretch.
    #[default]
    Untested,
    /// Passed a morale check: not subject to morale for the rest of the stretch.
    Steady,
    /// Failed: it must surrender or retreat.
    Broken,
}

/// A character in the fight.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CharacterState {
    /// As set up.
    pub spec: CharacterSpec,
    /// Health now.
    pub health: u32,
    /// Maximum health.
    pub max_health: u32,
    /// The zone it stands in.
    pub zone: String,
    /// The border it stands on.
    pub at_border: Option<String>,
    /// The feature it is behind.
    pub behind: Option<String>,
    /// The mount or vehicle it rides.
    pub riding: Option<String>,
    /// Its weapons.
    pub weapons: Vec<WeaponState>,
    /// Its shield.
    pub shield: Option<ShieldState>,
    /// Its armour.
    pub armour: Option<ArmourState>,
    /// Concealed now.
    pub concealed: bool,
    /// Concealed when the fight started: it plays the bonus round.
    pub ambusher: bool,
    /// Unaware of its attackers.
    pub unaware: bool,
    /// Incapacitated.
    pub incapacitated: bool,
    /// Dead.
    pub dead: bool,
    /// Surrendering.
    pub surrendered: bool,
    /// Gone from the fight.
    pub left: Option<Left>,
    /// Morale.
    pub morale: Morale,
    /// Who holds it.
    pub grabbed_by: Option<String>,
    /// Whom it holds.
    pub grabbing: Option<String>,
    /// Its turn this round.
    pub turn: TurnUse,
    /// Extra reactions spent this round.
    pub extra_reactions_used: u32,
    /// Whether it was still fighting when the round started (for morale).
    pub fighting_at_round_start: bool,
    /// Its health when the round started (for morale).
    pub health_at_round_start: u32,
}

impl CharacterState {
    /// The character as set up.
    pub fn new(spec: &CharacterSpec) -> Self {
        let weapons = spec
            .weapons
            .iter()
            .map(|weapon| {
                let mut weapon = weapon.clone();
                // Improvised weapons are handled as if already damaged (seed 001 "Combat gear
                // degradation").
                weapon.damaged |= weapon.improvised;
                WeaponState { weapon, used: false, destroyed: false }
            })
            .collect();
        Self {
            spec: spec.clone(),
            health: spec.health,
            max_health: spec.maximum_health(),
            zone: spec.zone.clone(),
            at_border: spec.at_border.clone(),
            behind: spec.behind.clone(),
            riding: spec.riding.clone(),
            weapons,
            shield: spec.shield.clone().map(|shield| ShieldState { shield, used: false, destroyed: false }),
            armour: spec.armour.clone().map(|armour| ArmourState { armour, used: false, destroyed: false }),
            concealed: spec.concealed,
            ambusher: spec.concealed,
            unaware: spec.unaware,
            incapacitated: false,
            dead: spec.health == 0,
            surrendered: false,
            left: None,
            morale: Morale::Untested,
            grabbed_by: None,
            grabbing: None,
            turn: TurnUse::Available,
            extra_reactions_used: 0,
            fighting_at_round_start: spec.health > 0,
            health_at_round_start: spec.health,
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// Its faction.
    pub fn faction(&self) -> &str {
        &self.spec.faction
    }

    /// Alive and still on the field.
    pub fn present(&self) -> bool {
        !self.dead && self.left.is_none()
    }

    /// Still standing: alive, conscious and on the field (seed 001 "Non-lethal attacks": "Since
    /// Theobald is still standing").
    pub fn standing(&self) -> bool {
        self.present() && !self.incapacitated
    }

    /// Still fighting: standing and not surrendering.
    pub fn fighting(&self) -> bool {
        self.standing() && !self.surrendered
    }

    /// Whether it could react now, turn and skills permitting (seed 001 "Reacting to an
    /// attack": not when unaware; "Non-lethal attacks": not when grabbed).
    pub fn can_react(&self) -> bool {
        self.fighting()
            && !self.unaware
            && self.grabbed_by.is_none()
            && self.morale != Morale::Broken
            && (matches!(self.turn, TurnUse::Available | TurnUse::Reserved)
                || self.extra_reactions_used < self.spec.extra_reactions)
    }

    /// The weapon `name` it still has.
    pub fn weapon(&self, name: &str) -> Option<&WeaponState> {
        self.weapons.iter().find(|weapon| weapon.weapon.name == name && !weapon.destroyed)
    }

    /// Hands occupied by held weapons, a held shield and a grab.
    pub fn hands_busy(&self) -> u32 {
        let weapons: u32 = self.weapons.iter().filter(|w| !w.destroyed).map(|w| w.weapon.hands_held()).sum();
        let shield = u32::from(self.shield.as_ref().is_some_and(|s| s.shield.held && !s.destroyed));
        weapons + shield + u32::from(self.grabbing.is_some())
    }

    /// Whether it has a free hand.
    pub fn free_hand(&self) -> bool {
        self.hands_busy() < 2
    }

    /// Its armour value: armour plus a held shield, plus 1 for cover, never above 3 (seed 001
    /// "Cover": "as usual never above 3").
    pub fn armour_value(&self, cover: bool) -> u32 {
        let armour = self.armour.as_ref().filter(|a| !a.destroyed).map_or(0, |a| a.armour.value);
        let shield = u32::from(self.shield.as_ref().is_some_and(|s| s.shield.held && !s.destroyed));
        (armour + shield + u32::from(cover)).min(3)
    }
}
