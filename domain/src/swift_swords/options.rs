//! Battle options: where the seed leaves a table empty or says two things, the reading a fair
//! GM would take, and the other reading for GMs who differ (docs/rulesets/swift-swords.md
//! "Herald's readings").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::injury::Location;

/// What a Block does when the attack scores more successes than the Block pool (seed 004
/// "Block": its two examples disagree).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsBlockOutscored)]
pub enum BlockOutscored {
    /// The shield is ignored and every success hits (Roland's third goblin: "4 successes, which
    /// is higher than the Block pool of 3 so the shield is ignored").
    #[default]
    Ignored,
    /// The block still holds unless the attacker spends successes to strip it (the 6d example:
    /// "The attacker can continue with the 4 successes but the defender would count their
    /// shield as part of their armour").
    Holds,
}

/// What a Block pool is (seed 004 "Defences" and "Pools" say it two ways).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsBlockPool)]
pub enum BlockPool {
    /// The Block roll's successes plus the device's value (the "Pools" Roland example: "4d
    /// (Skill) + 1d (Adv) + 2 from the Shield … 2 successes, making a Block Pool of 4"); an
    /// attack that outscores the pool meets `block_outscored`.
    #[default]
    SuccessesAndDevice,
    /// The Block roll's successes alone, as "Block:" under "Defences" states it: "Any success
    /// indicates that the Block has worked", the device's armour value stops hits while it
    /// works, the attacker strips the pool die for die "to remove them all and stop the Block",
    /// and "the remainder of the Block total" less the one needed are exposures. The Block works
    /// while a die of the pool is left, however many successes the attack has
    /// (`block_outscored` does not apply).
    Successes,
}

fn four() -> u8 {
    4
}
fn three() -> u8 {
    3
}
fn two() -> u8 {
    2
}
fn one() -> u8 {
    1
}
fn six() -> u8 {
    6
}
fn yes() -> bool {
    true
}

/// Pip costs of the actions whose rows the seed's lists leave empty ("General Actions",
/// "InClose actions": only a melee attack (4) and a Break (4) are given). An attack costs its
/// weapon's `cost`; a defence, an opportunity attack, a Pool die and a recovery cost one die of
/// any value but 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsActionCosts)]
pub struct ActionCosts {
    /// Move (to another zone, out of contact, into cover, alongside friends).
    #[serde(default = "two")]
    pub move_zone: u8,
    /// Withdraw from InContact to Alone, or from InClose.
    #[serde(default = "three")]
    pub withdraw: u8,
    /// Break: strip a defence pool (given by the seed: 4).
    #[serde(default = "four")]
    pub break_pool: u8,
    /// Close in: go InClose with an opponent of the melee.
    #[serde(default = "four")]
    pub close_in: u8,
    /// Knock down an opponent standing InClose.
    #[serde(default = "four")]
    pub knock_down: u8,
    /// The holder's actions: damage, improve, subdue.
    #[serde(default = "four")]
    pub grapple: u8,
    /// The held victim's Break or Reverse.
    #[serde(default = "four")]
    pub break_hold: u8,
    /// Stand up outside InClose.
    #[serde(default = "two")]
    pub stand_up: u8,
    /// Ready (pick up, draw) a weapon.
    #[serde(default = "two")]
    pub ready_weapon: u8,
    /// A flight.
    #[serde(default = "two")]
    pub fly: u8,
    /// A chariot's drive (paid by the driver).
    #[serde(default = "two")]
    pub drive: u8,
}

impl Default for ActionCosts {
    fn default() -> Self {
        Self {
            move_zone: 2,
            withdraw: 3,
            break_pool: 4,
            close_in: 4,
            knock_down: 4,
            grapple: 4,
            break_hold: 4,
            stand_up: 2,
            ready_weapon: 2,
            fly: 2,
            drive: 2,
        }
    }
}

/// The locations the six faces of the 4d6 location roll name (seed 004 "General Injury
/// Table": the Location Table itself is missing; its example puts 4 on the Right Arm next to
/// the Chest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsLocationTable)]
pub struct LocationTable {
    /// Face 1.
    pub one: Location,
    /// Face 2.
    pub two: Location,
    /// Face 3.
    pub three: Location,
    /// Face 4 (the Right Arm in the seed's example).
    pub four: Location,
    /// Face 5.
    pub five: Location,
    /// Face 6: a draw hits the highest face.
    pub six: Location,
}

impl Default for LocationTable {
    fn default() -> Self {
        Self {
            one: Location::LeftLeg,
            two: Location::RightLeg,
            three: Location::LeftArm,
            four: Location::RightArm,
            five: Location::Chest,
            six: Location::Head,
        }
    }
}

impl LocationTable {
    /// The location of a face (1 to 6).
    pub fn of(&self, face: u8) -> Location {
        match face {
            1 => self.one,
            2 => self.two,
            3 => self.three,
            4 => self.four,
            5 => self.five,
            _ => self.six,
        }
    }
}

/// Every reading a GM may choose differently, with Herald's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsOptions)]
pub struct BattleOptions {
    /// Pip costs of the actions the seed's lists leave empty.
    #[serde(default)]
    pub action_costs: ActionCosts,
    /// The lowest face that is a success at the standard Superiority Level ("normally 5-6").
    #[serde(default = "five")]
    pub superiority: u8,
    /// What a Block pool is: successes plus the device's value (the default), or successes.
    #[serde(default)]
    pub block_pool: BlockPool,
    /// What a Block does when the attack outscores its pool (with `block_pool:
    /// successes_and_device`).
    #[serde(default)]
    pub block_outscored: BlockOutscored,
    /// Attack dice for a minor advantage in numbers (the modifier table is empty).
    #[serde(default = "one")]
    pub minor_advantage_dice: u8,
    /// Attack dice for a major advantage (twice as many friends InContact).
    #[serde(default = "two")]
    pub major_advantage_dice: u8,
    /// Attack dice lost per zone of range beyond an adjacent one (the range table is empty).
    #[serde(default = "one")]
    pub range_penalty_per_zone: u8,
    /// Successes each special result costs ("the extra successes can be used").
    #[serde(default = "one")]
    pub special_result_cost: u8,
    /// The most figures that may attack one figure in a round (the GM's cap, "maybe 4 for a man
    /// sized target"); absent: no cap.
    #[serde(default)]
    pub max_attackers_per_target: Option<u8>,
    /// The faces of the location roll.
    #[serde(default)]
    pub location_table: LocationTable,
    /// Neck and Groin are locations (reached by shifting from the Head and Chest, or from the
    /// Chest and Legs); false ignores them ("they are optional").
    #[serde(default = "yes")]
    pub neck_and_groin: bool,
    /// Dread, like Terror and Fell, reaches the adjacent zones ("Dread and Fell creatures affect
    /// adjacent zones as well") instead of its own zone only (its level's description).
    #[serde(default)]
    pub dread_reaches_adjacent: bool,
    /// A dive adds to the flyer's speed rather than being its top speed.
    #[serde(default)]
    pub dive_adds_to_speed: bool,
    /// The inches one zone measures, for chariot paces (6″ or 9″ tiles).
    #[serde(default = "six")]
    pub zone_inches: u8,
}

fn five() -> u8 {
    5
}

impl Default for BattleOptions {
    fn default() -> Self {
        Self {
            action_costs: ActionCosts::default(),
            superiority: 5,
            block_pool: BlockPool::default(),
            block_outscored: BlockOutscored::default(),
            minor_advantage_dice: 1,
            major_advantage_dice: 2,
            range_penalty_per_zone: 1,
            special_result_cost: 1,
            max_attackers_per_target: None,
            location_table: LocationTable::default(),
            neck_and_groin: true,
            dread_reaches_adjacent: false,
            dive_adds_to_speed: false,
            zone_inches: 6,
        }
    }
}
