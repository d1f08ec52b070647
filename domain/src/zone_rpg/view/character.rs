//! A character and a faction as a reader sees them: health, conditions, gear, and the zone
//! unless it is concealed from that reader (seed 001 "Sneaking in combat").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    viewer::Viewer,
    zone_rpg::{
        character::{
            gear::{ArmourState, ShieldState, WeaponState},
            Size,
        },
        redact::sees_position,
        state::{
            character::{CharacterState, Left, Morale, TurnUse},
            ZoneRpgState,
        },
    },
};

/// Where a character stands in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgStatus)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    Fighting,
    /// Surrendering.
    Surrendered,
    /// Incapacitated.
    Incapacitated,
    /// Dead.
    Dead,
    /// Retreated from the fight.
    Retreated,
    /// Escaped a chase.
    Escaped,
}

/// A character as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCharacterView)]
pub struct CharacterView {
    /// Its id.
    pub id: String,
    /// Its faction.
    pub faction: String,
    /// The player controlling it (absent: the GM).
    pub controller: Option<String>,
    /// Its morale group.
    pub group: Option<String>,
    /// Health now.
    pub health: u32,
    /// Maximum health.
    pub max_health: u32,
    /// WIT save value.
    pub wit: u32,
    /// AGI save value.
    pub agi: u32,
    /// STR save value.
    pub str: u32,
    /// Size.
    pub size: Size,
    /// Speed in zones.
    pub speed: u32,
    /// Its zone; absent while it is concealed from this reader.
    pub zone: Option<String>,
    /// The border it stands on.
    pub at_border: Option<String>,
    /// The feature it is behind.
    pub behind: Option<String>,
    /// The mount or vehicle it rides.
    pub riding: Option<String>,
    /// Its riders or passengers.
    pub riders: Vec<String>,
    /// How many it can carry.
    pub carries: u32,
    /// Its position is hidden from this reader.
    pub position_hidden: bool,
    /// Fighting, surrendered, incapacitated, dead, retreated or escaped.
    pub status: Status,
    /// Concealed.
    pub concealed: bool,
    /// Unaware of its attackers.
    pub unaware: bool,
    /// Immune to fear.
    pub fearless: bool,
    /// Morale.
    pub morale: Morale,
    /// Who holds it.
    pub grabbed_by: Option<String>,
    /// Whom it holds.
    pub grabbing: Option<String>,
    /// Its turn this round.
    pub turn: TurnUse,
    /// Whether it could react now.
    pub can_react: bool,
    /// Extra reactions left this round.
    pub extra_reactions_left: u32,
    /// Armour value without cover (armour plus a held shield, at most 3).
    pub armour_value: u32,
    /// Its weapons: held, damaged, used, destroyed.
    pub weapons: Vec<WeaponState>,
    /// Its shield.
    pub shield: Option<ShieldState>,
    /// Its armour.
    pub armour: Option<ArmourState>,
}

/// A faction as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgFactionView)]
pub struct FactionView {
    /// Its name.
    pub name: String,
    /// Its controller (absent: the GM).
    pub controller: Option<String>,
    /// Every player acting for it or one of its characters.
    pub players: Vec<String>,
    /// It still has characters fighting.
    pub standing: bool,
    /// It has a character left to take a turn with this round.
    pub can_act: bool,
}

fn status(character: &CharacterState) -> Status {
    match (character.dead, character.left, character.incapacitated, character.surrendered) {
        (true, _, _, _) => Status::Dead,
        (_, Some(Left::Retreated), _, _) => Status::Retreated,
        (_, Some(Left::Escaped), _, _) => Status::Escaped,
        (_, _, true, _) => Status::Incapacitated,
        (_, _, _, true) => Status::Surrendered,
        _ => Status::Fighting,
    }
}

pub(super) fn character_view(
    state: &ZoneRpgState,
    character: &CharacterState,
    seen: bool,
    viewer: &Viewer,
) -> CharacterView {
    let spec = &character.spec;
    CharacterView {
        id: spec.id.clone(),
        faction: spec.faction.clone(),
        controller: state.controller_of(character).map(str::to_string),
        group: spec.group.clone(),
        health: character.health,
        max_health: character.max_health,
        wit: spec.wit,
        agi: spec.agi,
        str: spec.str,
        size: spec.size,
        speed: spec.speed,
        zone: seen.then(|| character.zone.clone()),
        at_border: character.at_border.clone().filter(|_| seen),
        behind: character.behind.clone().filter(|_| seen),
        riding: character.riding.clone().filter(|_| seen),
        riders: state
            .riders_of(character.id())
            .iter()
            .filter(|r| sees_position(state, r, viewer))
            .map(|r| r.id().to_string())
            .collect(),
        carries: spec.carries,
        position_hidden: !seen,
        status: status(character),
        concealed: character.concealed,
        unaware: character.unaware,
        fearless: spec.fearless,
        morale: character.morale,
        grabbed_by: character.grabbed_by.clone(),
        grabbing: character.grabbing.clone(),
        turn: character.turn,
        can_react: character.can_react(),
        extra_reactions_left: spec.extra_reactions.saturating_sub(character.extra_reactions_used),
        armour_value: character.armour_value(false),
        weapons: character.weapons.clone(),
        shield: character.shield.clone(),
        armour: character.armour.clone(),
    }
}
