//! Setting up a new round of the Coalition Wargame (seed 003 §1.1, ch. 2, §2.5, ch. 6).
//!
//! Pure checks the judge's setup commands run before anything is recorded: the map and its sites
//! (§2.5.1), the players and their ranks and factions (§1.1), each army's troop list (§2.1–2.2),
//! the number of armies of each rank per side (§2.5.2.1), changes of troops (§2.3.2), the
//! mercenaries (ch. 6) and where the armies are dropped at the start (§2.5.2.3). Every refusal is a
//! [`RuleError`](crate::RuleError) whose code starts `coalition.setup.` (the round as a whole) or
//! `coalition.army.` (one army's make-up), and whose rule names the section it comes from.
//!
//! Nothing here reads a clock or draws dice: the same input gives the same answer, so a recorded
//! setup can be checked again on replay.
//!
//! # Readings
//!
//! Where the seed leaves room, these are the readings chosen (each is repeated, with its reason, on
//! the function that applies it):
//!
//! - §2.5.1.1 "no base is less than 3 squares from an enemy base": portals are Phyrexia's bases;
//!   distance is in orthogonal steps; 3 steps is allowed; bases of one team and towns are exempt.
//! - §2.5.1.3: no town is a win condition.
//! - §2.2.1: a Coalition creature needs its colors' factions, Colorless for an artifact, and also
//!   5-Color when it has two or more of the five colors; an artifact of one color is not
//!   multicolored. Every creature lists at least one color (`artifact` when colorless).
//! - §2.2.1.1: a player's army has the creator's 1 to 3 factions; a proxy army exactly 3.
//! - §2.2.2, §2.2.3.3, §2.2.6: one card is used at one size per army, `*/*` or not; toughness ≥ 1.
//! - §2.1: the legend is a name apart from the troop lines and never also fielded as troops.
//! - §2.3.2: "troops of that color he did not already have" is a card absent from the old troop
//!   lines whose colors need the destroyed base's faction; name, team, rank, creator and colors
//!   never change (§2.4), the legend may (§2.6).
//! - §1.1.2: the three leaders may claim no faction and need not hold their rank in one.
//! - §2.5.2.1: a player's army is of the player's rank; one army is named after each player.
//! - §2.5.2.3: armies are dropped beside the base, never on a site, nearest land square first;
//!   ocean only when no land is left.
//! - Ch. 6: mercenaries have no color limits or factions; each faction's ranks and starting numbers
//!   are checked; where they start is the Mercenary Judge's call.

pub mod army;
pub mod colors;
pub mod mercenary;
pub mod placement;
pub mod player;
pub mod round;
pub mod sites;
pub mod troop_change;

pub use army::{card_key, validate_army, ArmyContext, BANNED_CREATURES, MAX_CREATURE_TYPES};
pub use colors::{faction_name, faction_of, factions_needed, validate_army_colors, validate_creature_colors};
pub use mercenary::{validate_mercenaries, validate_mercenary_army, MercenaryArmy, MercenaryFaction};
pub use placement::{place_armies, validate_start_base, PlacementRequest};
pub use player::{rank_name, validate_player, validate_players, Player};
pub use round::{rank_class_maximum, rank_class_name, validate_army_counts, validate_round_armies, RANK_CLASSES};
pub use sites::{validate_setup, validate_win_conditions, SetupRules};
pub use troop_change::validate_troop_change;

/// The reference every rule error of this module carries: `seed 003 §<section>`.
pub(crate) fn rule(section: &str) -> String {
    format!("seed 003 §{section}")
}
