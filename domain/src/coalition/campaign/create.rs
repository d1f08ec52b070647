//! Setting up a round (seed 003 §2.5): the map, the players, the teams' armies and where they
//! start, each side's authority over the control list (§5.2.2.1) and the mercenaries (§2.5.3).

use std::collections::BTreeMap;

use super::{
    command::{ArmyEntry, CampaignOptions, Start},
    control::{activity::default_holders, ControlAuthorityGranted},
    decide::{refuse, SERVICE_RULES},
    event::{CampaignEvent, PositionsRecord},
    mercenaries::{MercenaryEnlisted, MercenaryEntry, MERCENARY_JUDGE},
    state::CampaignState,
};
use crate::{
    coalition::{
        army::{Army, Team},
        map::{Map, SiteKind, Square},
        setup::{
            place_armies, validate_army, validate_mercenaries, validate_mercenary_army, validate_players,
            validate_round_armies, validate_setup, ArmyContext, MercenaryArmy, MercenaryFaction, PlacementRequest,
            Player, SetupRules,
        },
    },
    Context, RuleError,
};

/// What a round is set up with.
pub struct Setup<'a> {
    /// Its name.
    pub name: &'a str,
    /// The map.
    pub map: &'a Map,
    /// The players.
    pub players: &'a [Player],
    /// The teams' armies.
    pub entries: &'a [ArmyEntry],
    /// The mercenaries.
    pub mercenaries: &'a [MercenaryEntry],
    /// Options.
    pub options: &'a CampaignOptions,
    /// The root seed's commitment.
    pub seed_commitment: &'a str,
    /// What the round's movement events list in `positions`.
    pub positions_record: PositionsRecord,
    /// The commitment to key `interval:0` (`coalition-campaign@4`), filled in by the service.
    pub interval_commitment: Option<&'a str>,
}

/// Set up the round (a judge or admin, seed 003 §2.5): the map, the players, the teams' armies,
/// each side's authority over the control list (§5.2.2.1) and the mercenaries (§2.5.3, ch. 6).
pub fn create(state: &CampaignState, ctx: &Context, setup: Setup<'_>) -> Result<Vec<CampaignEvent>, RuleError> {
    let Setup {
        name,
        map,
        players,
        entries,
        mercenaries,
        options,
        seed_commitment,
        positions_record,
        interval_commitment,
    } = setup;
    if state.created {
        return Err(refuse("already_exists", "this campaign already exists", SERVICE_RULES));
    }
    if !ctx.actor.is_judge() {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_judge",
            "only a judge may set up a round",
            "seed 003 §2.5",
        ));
    }
    if name.trim().is_empty() {
        return Err(refuse("name_required", "a campaign needs a name", SERVICE_RULES));
    }
    // Squares are written with one column letter (seed 003 §1.2), so a map has at most 26 columns.
    if map.bounds.columns == 0 || map.bounds.columns > 26 || map.bounds.rows == 0 {
        return Err(refuse(
            "map_bounds",
            format!(
                "a map has 1 to 26 columns (A–Z) and at least one row, not {} × {}",
                map.bounds.columns, map.bounds.rows
            ),
            "seed 003 §1.2",
        ));
    }
    if crate::dice::seed::parse_hex32(seed_commitment).is_none() {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hex digits",
            "herald: docs/DICE.md",
        ));
    }
    if interval_commitment.is_some_and(|commitment| crate::dice::seed::parse_hex32(commitment).is_none()) {
        return Err(refuse(
            "seed_commitment_malformed",
            "the interval key's commitment must be 64 hex digits",
            "herald: docs/DICE.md",
        ));
    }
    // A full round has 5 portals, 7 bases and 3 towns (seed 003 §2.5.1); small test rounds may
    // switch the count off, but sites must still be on the map.
    if options.enforce_site_counts {
        validate_setup(map, &SetupRules::default())?;
    } else if let Some(site) =
        map.sites.iter().find(|(square, site)| !map.contains(**square) || site.square != **square)
    {
        return Err(refuse(
            "site_off_map",
            format!("{} is not on the map where it is filed", site.1.name),
            "seed 003 §2.5.1.1",
        ));
    }
    validate_players(players)?;
    let armies: Vec<Army> = entries.iter().map(|entry| entry.army.clone()).collect();
    if options.enforce_army_counts {
        validate_round_armies(&armies, players)?;
    }
    for (index, army) in armies.iter().enumerate() {
        let others: Vec<Army> =
            armies.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, a)| a.clone()).collect();
        validate_army(army, &ArmyContext { other_armies: &others, ..ArmyContext::default() })?;
    }
    let team_armies: Vec<Army> = entries.iter().map(|entry| entry.army.clone()).collect();
    let hired: Vec<MercenaryArmy> =
        mercenaries.iter().map(|m| MercenaryArmy { faction: m.faction, army: m.army.clone() }).collect();
    if options.enforce_army_counts {
        validate_mercenaries(&hired, &team_armies)?;
    } else {
        for mercenary in &hired {
            validate_mercenary_army(mercenary, &ArmyContext { other_armies: &team_armies, ..ArmyContext::default() })?;
        }
    }
    let mut all_entries: Vec<ArmyEntry> = entries.to_vec();
    all_entries.extend(mercenaries.iter().map(|m| ArmyEntry {
        army: m.army.clone(),
        controllers: vec![],
        start: m.start.clone(),
    }));
    if let Some(twice) =
        all_entries.iter().enumerate().find(|(i, e)| all_entries[..*i].iter().any(|o| o.army.name == e.army.name))
    {
        return Err(refuse(
            "duplicate_army",
            format!("two armies are named {}", twice.1.army.name),
            "seed 003 §2.5.2.2",
        ));
    }
    let squares = placements(map, &all_entries)?;
    let mut events = vec![CampaignEvent::CampaignCreated {
        name: name.to_string(),
        map: map.clone(),
        players: players.to_vec(),
        options: options.clone(),
        seed_commitment: seed_commitment.to_lowercase(),
        at: Some(ctx.recorded_at),
        positions_record,
        interval_commitment: interval_commitment.map(str::to_lowercase),
    }];
    for entry in entries {
        let square = squares.get(&entry.army.name).copied().ok_or_else(|| {
            refuse("placement_failed", format!("{} could not be placed", entry.army.name), "seed 003 §2.5.2.3")
        })?;
        let controllers =
            if entry.controllers.is_empty() { vec![entry.army.name.clone()] } else { entry.controllers.clone() };
        events.push(CampaignEvent::ArmyPlaced { army: entry.army.clone(), square, controllers });
    }
    for team in [Team::Phyrexia, Team::Coalition] {
        let holders = default_holders(players, team);
        if !holders.is_empty() {
            events.push(CampaignEvent::ControlAuthorityGranted(ControlAuthorityGranted {
                team,
                holders,
                by: "round set-up".into(),
                emergency_until_turn: None,
                reason: "the General or Chief Praetor and the first Admiral or Praetor (seed 003 §5.2.2.1)".into(),
            }));
        }
    }
    for mercenary in mercenaries {
        let name = mercenary.army.name.clone();
        let square = squares
            .get(&name)
            .copied()
            .ok_or_else(|| refuse("placement_failed", format!("{name} could not be placed"), "seed 003 §2.5.3"))?;
        let home = match mercenary.faction {
            MercenaryFaction::TownDefender => {
                let town = map.site_at(square).filter(|site| site.kind == SiteKind::Town);
                if town.is_none() {
                    return Err(refuse(
                        "town_defender_start",
                        format!("{name} is a Town Defender: it starts in its town"),
                        "seed 003 §6.1",
                    ));
                }
                Some(square)
            }
            _ => None,
        };
        events.push(CampaignEvent::ArmyPlaced {
            army: mercenary.army.clone(),
            square,
            controllers: vec![MERCENARY_JUDGE.into()],
        });
        events.push(CampaignEvent::MercenaryEnlisted(MercenaryEnlisted {
            army: name,
            faction: mercenary.faction,
            home,
            ocean: mercenary.ocean,
        }));
    }
    Ok(events)
}

/// Squares for every army: judge-chosen squares first, then armies dropped by their bases.
fn placements(map: &Map, entries: &[ArmyEntry]) -> Result<BTreeMap<String, Square>, RuleError> {
    let mut squares = BTreeMap::new();
    let mut occupied = Vec::new();
    for entry in entries {
        if let Start::Square { square } = entry.start {
            if !map.contains(square) {
                return Err(refuse(
                    "off_map",
                    format!("{} starts off the map at {square}", entry.army.name),
                    "seed 003 §1.2",
                ));
            }
            if occupied.contains(&square) {
                return Err(refuse("square_taken", format!("two armies start on {square}"), "seed 003 §3.3.1"));
            }
            occupied.push(square);
            squares.insert(entry.army.name.clone(), square);
        }
    }
    let requests: Vec<PlacementRequest> = entries
        .iter()
        .filter_map(|entry| match entry.start {
            Start::Base { base } => Some(PlacementRequest {
                army: entry.army.name.clone(),
                team: entry.army.team,
                colors: entry.army.colors.clone(),
                base,
            }),
            Start::Square { .. } => None,
        })
        .collect();
    for (army, square) in place_armies(map, &requests, &occupied)? {
        squares.insert(army, square);
    }
    Ok(squares)
}
