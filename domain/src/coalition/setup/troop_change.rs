//! Changing an army's troops at a base (seed 003 §2.3.2): what stays fixed, and the colors of
//! destroyed bases.

use super::army::card_key;
use super::colors::{faction_name, factions_needed};
use super::rule;
use crate::coalition::army::{Army, Team};
use crate::coalition::map::Faction;
use crate::RuleError;

/// Check a change of troops from `old` to `new` (seed 003 §2.3.2), given the colors of the
/// Coalition bases destroyed so far.
///
/// The new troop list must also be legal under §2.1–2.2: [`validate_army`](super::validate_army)
/// with `previous: Some(old)` runs both checks. This function checks only what a change adds:
///
/// - The army's name, team, rank, creator and colors are set for the round and do not change
///   (§2.2.1.1, §2.4). The legend may change (§2.6 lets a new player change it).
/// - When a Coalition base has been destroyed, a Coalition army may not request troops of that
///   base's color that it did not already have. Reading: a creature is "already had" when its card
///   is among the old troop lines (even with no troops left, §2.3.3 counts such types); a new card
///   is "of that color" when fielding it needs membership of the destroyed base's faction
///   ([`factions_needed`]), so a destroyed 5-Color base stops new multicolored creatures and a
///   destroyed Colorless base new artifacts. Keeping the old card, at any slot, is allowed.
///
/// Seed example: Black Base is destroyed and Sai Rei (Black and Red) heals at Red Base. He cannot
/// turn his 1/1 Plague Rats into Bog Imps, may keep the Plague Rats while changing other units, or
/// may turn them into red 1/1s.
pub fn validate_troop_change(old: &Army, new: &Army, destroyed_base_colors: &[Faction]) -> Result<(), RuleError> {
    let fixed = [
        ("name", old.name != new.name),
        ("team", old.team != new.team),
        ("rank", old.rank != new.rank),
        ("creator", old.creator != new.creator),
        ("colors", old.colors != new.colors),
    ];
    if let Some((what, _)) = fixed.iter().find(|(_, changed)| *changed) {
        return Err(RuleError::new(
            "coalition.army.fixed_for_round",
            format!("{}'s {what} is set for the round and cannot change with its troops", old.name),
            rule("2.4"),
        ));
    }
    if new.team != Team::Coalition || destroyed_base_colors.is_empty() {
        return Ok(());
    }
    let had: Vec<String> = old.troops.iter().map(|line| card_key(&line.creature)).collect();
    for line in new.troops.iter().filter(|line| !had.contains(&card_key(&line.creature))) {
        let needed = factions_needed(&line.colors);
        if let Some(destroyed) = destroyed_base_colors.iter().find(|faction| needed.contains(faction)) {
            return Err(RuleError::new(
                "coalition.army.destroyed_base_color",
                format!(
                    "{} Base has been destroyed: {} cannot request {}, a {} creature it did not already have",
                    faction_name(*destroyed),
                    new.name,
                    line.creature,
                    faction_name(*destroyed)
                ),
                rule("2.3.2"),
            ));
        }
    }
    Ok(())
}
