//! Who can be attacked from where, and when a WIT save is needed to hit (seed 001 "Attacking",
//! "Cover", "Blast attacks", "Effects of size in combat").

use super::refuse;
use crate::{
    zone_rpg::{
        character::{gear::WeaponSpec, Size},
        map::Protection,
        rules,
        state::{character::CharacterState, ZoneRpgState},
    },
    RuleError,
};

/// How far a character's melee attacks reach, in zones: nearby only, or up to range 1 for a
/// massive character (seed 001 "Effects of size in combat").
pub fn melee_reach(character: &CharacterState) -> u32 {
    u32::from(character.spec.size == Size::Massive)
}

/// The weapon `name` of `character`, held (natural attacks always are), or unarmed for `None`.
pub fn weapon<'s>(character: &'s CharacterState, name: Option<&str>) -> Result<Option<&'s WeaponSpec>, RuleError> {
    let Some(name) = name else { return Ok(None) };
    let Some(found) = character.weapon(name) else {
        return Err(refuse(
            "unknown_weapon",
            format!("{} has no weapon called {name} (or it was destroyed)", character.id()),
            rules::ATTACKING,
        ));
    };
    if !found.weapon.held && !found.weapon.natural {
        return Err(refuse(
            "weapon_not_held",
            format!("{} carries {name} but does not hold it: equip it first (a bonus action)", character.id()),
            rules::TAKING_A_TURN,
        ));
    }
    Ok(Some(&found.weapon))
}

/// Whether the attacker is moving: it moved earlier this turn, or rides a mount that did
/// (Herald's reading of seed 001 "Attacking": "the attack is made while moving").
pub fn moving(state: &ZoneRpgState, attacker: &CharacterState) -> bool {
    let Some(turn) = &state.turn else { return false };
    let moved = |id: &str| turn.member(id).is_some_and(|member| member.moved > 0);
    moved(attacker.id()) || attacker.riding.as_deref().is_some_and(moved)
}

/// What an attack on one character needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    /// A WIT save is needed to hit.
    pub needs_save: bool,
    /// Distance in zones.
    pub distance: u32,
}

/// How an attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Ranged (the weapon has a range) rather than melee.
    pub ranged: bool,
    /// The weapon's range in zones.
    pub range: u32,
    /// The attacker is moving.
    pub moving: bool,
    /// A counter against an attacker peeking from behind a barrier: the barrier only counts as
    /// cover (seed 001 "Cover").
    pub counter: bool,
    /// The GM makes the attack (and knows where concealed characters are).
    pub by_gm: bool,
}

/// Whether `target` is an enemy `attacker` may aim at, and what hitting it takes.
pub fn single(
    state: &ZoneRpgState,
    attacker: &CharacterState,
    target: &CharacterState,
    mode: Mode,
) -> Result<Shot, RuleError> {
    if target.id() == attacker.id() {
        return Err(refuse("own_target", "a character cannot attack itself", rules::ATTACKING));
    }
    if !target.present() {
        return Err(refuse("target_gone", format!("{} is dead or gone from the fight", target.id()), rules::ATTACKING));
    }
    if target.faction() == attacker.faction() {
        return Err(refuse(
            "not_an_enemy",
            format!("{} fights for {} too: attacks target enemies", target.id(), target.faction()),
            rules::ATTACKING,
        ));
    }
    if target.concealed && !mode.by_gm {
        return Err(refuse(
            "target_concealed",
            format!("{} is concealed: nobody on your side knows where it is", target.id()),
            rules::SNEAKING,
        ));
    }
    let route = state.map.route(&attacker.zone, &target.zone).ok_or_else(|| {
        refuse("out_of_range", format!("{} cannot be reached from {}", target.zone, attacker.zone), rules::ATTACKING)
    })?;
    let barrier_feature = target.behind.as_deref().and_then(|f| state.map.zone(&target.zone)?.feature(f));
    let behind_barrier = barrier_feature.is_some_and(|f| f.protection == Protection::Barrier);
    let blocked = (route.distance > 0 && route.protection == Protection::Barrier)
        || (behind_barrier && (mode.ranged || route.distance > 0) && !mode.counter);
    if blocked {
        return Err(refuse(
            "blocked_by_barrier",
            format!("a barrier stands between {} and {}", attacker.id(), target.id()),
            rules::COVER,
        ));
    }
    let visible = state.visible_to(target, attacker);
    if !mode.ranged {
        let reach = melee_reach(attacker);
        if route.distance > reach {
            return Err(refuse(
                "not_nearby",
                format!("{} is not nearby {}: melee attacks only target nearby enemies", target.id(), attacker.id()),
                rules::ATTACKING,
            ));
        }
        return Ok(Shot { needs_save: !visible, distance: route.distance });
    }
    if !visible {
        return Err(refuse(
            "not_visible",
            format!("{} is not visible: a ranged attack cannot target it", target.id()),
            rules::ATTACKING,
        ));
    }
    let (within, beyond_half) = in_range(route.distance, mode.range, attacker.spec.size, target.spec.size);
    if !within {
        return Err(refuse(
            "out_of_range",
            format!("{} is {} zones away, beyond range", target.id(), route.distance),
            if attacker.spec.size == target.spec.size { rules::ATTACKING } else { rules::SIZE },
        ));
    }
    if beyond_half && mode.moving {
        return Err(refuse(
            "beyond_half_range_while_moving",
            format!("{} is beyond half range: it cannot be targeted while moving", target.id()),
            rules::ATTACKING,
        ));
    }
    Ok(Shot { needs_save: beyond_half || mode.moving, distance: route.distance })
}

/// Whether `distance` is within a ranged weapon's `range`, and beyond half of it, when an
/// attacker of size `from` shoots a target of size `at`: the range is halved for each size the
/// target is smaller, doubled for each size it is larger (seed 001 "Effects of size in
/// combat": "double the range to 16").
pub fn in_range(distance: u32, range: u32, from: Size, at: Size) -> (bool, bool) {
    // Scale by 2^3 so that three halvings stay whole.
    let exponent = u32::try_from(3 + at.steps_over(from)).unwrap_or(0);
    let scaled_range = u64::from(range) << exponent;
    let scaled_distance = u64::from(distance) << 3;
    (scaled_distance <= scaled_range, scaled_distance * 2 > scaled_range)
}

/// Whether a ranged blast can reach `zone` and whether a WIT save is needed (size never
/// changes a blast's range).
pub fn blast_zone(
    state: &ZoneRpgState,
    attacker: &CharacterState,
    zone: &str,
    range: u32,
    moving: bool,
) -> Result<bool, RuleError> {
    let route = state.map.route(&attacker.zone, zone).ok_or_else(|| {
        refuse("out_of_range", format!("{zone} cannot be reached from {}", attacker.zone), rules::BLAST)
    })?;
    if route.distance > range {
        return Err(refuse(
            "out_of_range",
            format!("{zone} is {} zones away, beyond range", route.distance),
            rules::BLAST,
        ));
    }
    if route.distance > 0 && route.protection == Protection::Barrier {
        return Err(refuse(
            "blocked_by_barrier",
            format!("a barrier stands between {} and {zone}", attacker.id()),
            rules::COVER,
        ));
    }
    let beyond_half = route.distance * 2 > range;
    if beyond_half && moving {
        return Err(refuse(
            "beyond_half_range_while_moving",
            format!("{zone} is beyond half range: it cannot be targeted while moving"),
            rules::ATTACKING,
        ));
    }
    Ok(beyond_half || moving)
}

/// Everyone a blast on `zone` targets: the characters in it and on its borders, save those
/// behind a barrier, and the attacker itself for a melee blast (seed 001 "Blast attacks").
pub fn blast_targets(state: &ZoneRpgState, attacker: &CharacterState, zone: &str, melee: bool) -> Vec<String> {
    state
        .characters
        .iter()
        .filter(|c| c.present())
        .filter(|c| c.zone == zone || c.at_border.as_deref() == Some(zone))
        .filter(|c| !(melee && c.id() == attacker.id()))
        .filter(|c| {
            let feature = c.behind.as_deref().and_then(|f| state.map.zone(&c.zone)?.feature(f));
            feature.is_none_or(|f| f.protection != Protection::Barrier)
        })
        .map(|c| c.id().to_string())
        .collect()
}

/// Whether cover protects `target` from an attack by `attacker` (seed 001 "Cover"): cover on the
/// border the attack crosses, or a feature the target is behind (not against a melee attack
/// from its own zone, and not against a blast for a border), unless the weapon penetrates it.
/// A counter against an attacker peeking from behind a barrier treats the barrier as cover.
pub fn covered(
    state: &ZoneRpgState,
    attacker: &CharacterState,
    target: &CharacterState,
    blast: bool,
    ranged: bool,
    penetrating: bool,
) -> bool {
    if penetrating {
        return false;
    }
    let feature = target.behind.as_deref().and_then(|f| state.map.zone(&target.zone)?.feature(f));
    let route = state.map.route(&attacker.zone, &target.zone);
    let distance = route.map_or(0, |r| r.distance);
    let from_feature = feature.is_some() && (blast || ranged || distance > 0);
    let from_border = !blast && distance > 0 && route.is_some_and(|r| r.protection >= Protection::Cover);
    from_feature || from_border
}
