//! Setting the fight up (the GM lays out zones, factions and characters), entropy, the seed,
//! and the initiative die.

use std::collections::BTreeSet;

use super::{refuse, require_gm, Decision};
use crate::{
    zone_rpg::{
        character::{CharacterSpec, FactionSpec, InitiativeSpec},
        event::ZoneRpgEvent,
        map::{BorderSpec, Protection, ZoneMap, ZoneSpec},
        options::ZoneRpgOptions,
        rules,
        state::{Phase, ZoneRpgState},
    },
    Context, RuleError,
};

pub use crate::zone_rpg::limits::{MAX_BORDERS, MAX_CHARACTERS, MAX_FACTIONS, MAX_WEAPONS, MAX_ZONES};
/// The longest id or name, in characters (a service limit).
pub const MAX_NAME: usize = 100;
/// The highest health, speed or border length (a service limit).
pub const MAX_NUMBER: u32 = 1000;

/// What the GM sets up.
pub struct Setup<'a> {
    /// The zones.
    pub zones: &'a [ZoneSpec],
    /// The borders.
    pub borders: &'a [BorderSpec],
    /// The factions.
    pub factions: &'a [FactionSpec],
    /// The characters.
    pub characters: &'a [CharacterSpec],
    /// The initiative.
    pub initiative: &'a InitiativeSpec,
    /// The readings.
    pub options: &'a ZoneRpgOptions,
    /// The seed commitment.
    pub seed_commitment: &'a str,
}

/// Open the fight.
pub fn create(state: &ZoneRpgState, setup: &Setup, ctx: &Context) -> Result<Vec<ZoneRpgEvent>, RuleError> {
    require_gm(ctx, "set up a fight")?;
    if state.created() {
        return Err(refuse("already_exists", "this stream already holds a fight", rules::SERVICE));
    }
    if !(setup.seed_commitment.len() == 64 && setup.seed_commitment.bytes().all(|b| b.is_ascii_hexdigit())) {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits",
            rules::SERVICE,
        ));
    }
    let map = ZoneMap { zones: setup.zones.to_vec(), borders: setup.borders.to_vec() };
    check_zones(&map)?;
    check_factions(setup.factions, setup.initiative)?;
    super::super::validate::characters(&map, setup.factions, setup.characters)?;
    check_options(setup.options)?;
    Ok(vec![ZoneRpgEvent::BattleCreated {
        zones: setup.zones.to_vec(),
        borders: setup.borders.to_vec(),
        factions: setup.factions.to_vec(),
        characters: setup.characters.to_vec(),
        initiative: setup.initiative.clone(),
        options: *setup.options,
        seed_commitment: setup.seed_commitment.to_ascii_lowercase(),
    }])
}

/// Refuse an empty, overlong or unprintable name.
pub fn check_name(kind: &str, name: &str) -> Result<(), RuleError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(refuse(
            "bad_name",
            format!("a {kind} needs a name of 1 to {MAX_NAME} printable characters"),
            rules::SERVICE,
        ));
    }
    Ok(())
}

fn check_zones(map: &ZoneMap) -> Result<(), RuleError> {
    if map.zones.is_empty() || map.zones.len() > MAX_ZONES {
        return Err(refuse("zone_count", format!("a fight needs 1 to {MAX_ZONES} zones"), rules::SERVICE));
    }
    if map.borders.len() > MAX_BORDERS {
        return Err(refuse("border_count", format!("at most {MAX_BORDERS} borders"), rules::SERVICE));
    }
    let mut names = BTreeSet::new();
    for zone in &map.zones {
        check_name("zone", &zone.name)?;
        if !names.insert(zone.name.as_str()) {
            return Err(refuse("duplicate_zone", format!("two zones are named {}", zone.name), rules::SERVICE));
        }
        let mut inside = BTreeSet::new();
        for feature in &zone.features {
            check_name("feature", &feature.name)?;
            if feature.protection == Protection::None {
                return Err(refuse(
                    "feature_protection",
                    format!("{} in {} must be cover or a barrier", feature.name, zone.name),
                    rules::COVER,
                ));
            }
            if !inside.insert(feature.name.as_str()) {
                return Err(refuse(
                    "duplicate_feature",
                    format!("{} has two {}", zone.name, feature.name),
                    rules::SERVICE,
                ));
            }
        }
        for hazard in &zone.hazards {
            check_name("hazard", &hazard.name)?;
            if !inside.insert(hazard.name.as_str()) {
                return Err(refuse(
                    "duplicate_feature",
                    format!("{} has two {}", zone.name, hazard.name),
                    rules::SERVICE,
                ));
            }
        }
        if zone.at.is_some_and(|at| at.x > 100 || at.y > 100) {
            return Err(refuse(
                "map_point",
                format!("{} is drawn at 0 to 100 across and down", zone.name),
                rules::SERVICE,
            ));
        }
    }
    for (index, border) in map.borders.iter().enumerate() {
        for end in [&border.a, &border.b] {
            if map.zone(end).is_none() {
                return Err(refuse(
                    "unknown_zone",
                    format!("a border names {end}, which is not a zone"),
                    rules::SERVICE,
                ));
            }
        }
        if border.a == border.b {
            return Err(refuse("border_loop", format!("{} cannot border itself", border.a), rules::SERVICE));
        }
        if !(1..=MAX_NUMBER).contains(&border.length) {
            return Err(refuse("border_length", format!("a border counts 1 to {MAX_NUMBER} zones"), rules::SERVICE));
        }
        if map.borders[..index].iter().any(|other| other.joins(&border.a, &border.b)) {
            return Err(refuse(
                "duplicate_border",
                format!("{} and {} border each other twice", border.a, border.b),
                rules::SERVICE,
            ));
        }
    }
    Ok(())
}

fn check_factions(factions: &[FactionSpec], initiative: &InitiativeSpec) -> Result<(), RuleError> {
    if factions.len() < 2 || factions.len() > MAX_FACTIONS {
        return Err(refuse(
            "faction_count",
            format!("a fight needs 2 to {MAX_FACTIONS} factions"),
            rules::COMBAT_PROCEDURE,
        ));
    }
    let mut names = BTreeSet::new();
    for faction in factions {
        check_name("faction", &faction.name)?;
        if let Some(controller) = &faction.controller {
            check_name("controller", controller)?;
        }
        if !names.insert(faction.name.as_str()) {
            return Err(refuse(
                "duplicate_faction",
                format!("two factions are named {}", faction.name),
                rules::SERVICE,
            ));
        }
    }
    if let InitiativeSpec::Faction { faction } = initiative {
        if !names.contains(faction.as_str()) {
            return Err(refuse(
                "unknown_faction",
                format!("{faction} holds the initiative but is not a faction"),
                rules::COMBAT_PROCEDURE,
            ));
        }
    }
    Ok(())
}

fn check_options(options: &ZoneRpgOptions) -> Result<(), RuleError> {
    let durability = options.durability;
    if !(2..=100).contains(&durability.die) || durability.fails_at_or_below >= durability.die {
        return Err(refuse(
            "durability_die",
            "the durability die has 2 to 100 sides and fails on fewer faces than it has",
            rules::GEAR,
        ));
    }
    Ok(())
}

/// A participant mixes entropy into the seed before the first die.
pub fn contribute_entropy(state: &ZoneRpgState, entropy: &str, ctx: &Context) -> Result<Vec<ZoneRpgEvent>, RuleError> {
    let participant = state.factions.iter().any(|f| state.players_of(&f.name).iter().any(|p| ctx.actor.is_player(p)));
    let contributed = state.dice.contribute(entropy, participant && !state.ended(), ctx, super::CODE_PREFIX)?;
    Ok(vec![ZoneRpgEvent::EntropyContributed(contributed)])
}

/// The GM, or the service when the fight ends, publishes the seed.
pub fn reveal_seed(
    state: &ZoneRpgState,
    seed: &str,
    next_commitment: Option<&str>,
    ctx: &Context,
) -> Result<Vec<ZoneRpgEvent>, RuleError> {
    let revealed = state.dice.reveal(seed, next_commitment, state.ended(), ctx, super::CODE_PREFIX)?;
    Ok(vec![ZoneRpgEvent::SeedRevealed(revealed)])
}

/// The GM assigns the initiative by a die when who started the fight is unclear (seed 001
/// "Combat procedure": "or is assigned randomly if that's unclear").
pub fn roll_initiative(d: &mut Decision) -> Result<(), RuleError> {
    require_gm(d.ctx, "roll for the initiative")?;
    if d.state.initiative.is_some() {
        return Err(refuse("initiative_known", "the initiative is already held", rules::COMBAT_PROCEDURE));
    }
    if d.state.phase != Phase::Ready {
        return Err(refuse(
            "initiative_known",
            "the initiative is settled before the first round",
            rules::COMBAT_PROCEDURE,
        ));
    }
    let count = u32::try_from(d.state.factions.len()).unwrap_or(u32::MAX);
    let roll = d.roll(count, "initiative: factions numbered from 1 in their order")?;
    let index = usize::try_from(roll.value.saturating_sub(1)).unwrap_or(0);
    let faction = d.state.factions.get(index).map(|f| f.name.clone()).unwrap_or_default();
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::InitiativeAssigned { faction, roll, next_word });
    Ok(())
}
