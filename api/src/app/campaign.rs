//! The service's part in a campaign: sealing the root seed, reading battle results from their
//! streams before an adjudication, opening the battle streams an adjudication announces (1v1, or
//! 2v1 and 2v2 from a joint engagement, seed 003 §4.4), and carrying a sanction's troop losses to
//! the battle the sanctioned army is in (§5.4.1).
//!
//! Battle seeds are derived from the campaign's root seed and the battle's stream name, so
//! revealing one battle's seed (when it ends) exposes neither the root nor any other battle.

use chrono::Duration;
use herald_domain::coalition::{
    army::ArmySpec,
    battle::{
        command::Engagement, state::BattleState, BattleCommand, BattleEvent, CoalitionBattle, PartnerArmy, SideId,
        Sides,
    },
    campaign::{
        BattleResult, BattleSideResult, CampaignCommand, CampaignEvent, CampaignState, CoalitionCampaign,
        TurnKeyCommitment,
    },
    movement::Attack,
};
use sha2::{Digest, Sha256};

use herald_domain::{dice::seed, Actor, DiceKey};
use herald_store::{Direction, RecordedEvent};

use super::{CommandMeta, CommandOutcome, Service};
use crate::problem::ApiError;

/// The seed of a campaign battle: `sha256("herald/battle-seed/v1" ‖ root seed ‖ battle stream)`.
pub fn battle_seed(root: &[u8; 32], battle: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"herald/battle-seed/v1");
    hasher.update(root);
    hasher.update(battle.as_bytes());
    hasher.finalize().into()
}

/// The seed of a campaign turn (docs/DICE.md "Keys"): derived from the sealed root.
pub use herald_domain::dice::seed::turn_seed;

/// Open the campaign's next turn, committing to its seed (derived from the sealed root). Blocking.
pub fn open_turn(
    service: &Service,
    stream: &str,
    deadline: chrono::DateTime<chrono::Utc>,
    meta: CommandMeta,
) -> Result<CommandOutcome, ApiError> {
    let state = campaign_state(service, stream)?;
    let turn = state.turn + 1;
    let root = service
        .sealed_seed(stream)?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed of {stream} is missing")))?;
    let commit = |key: DiceKey| key.derive(&root, stream).map(|seed| hex::encode(seed::commitment(&seed)));
    let commitment = hex::encode(seed::commitment(&turn_seed(&root, stream, turn)));
    // A round of coalition-campaign@4 also commits to the key of the dice between this turn's
    // adjudication and the next lock.
    let interval_commitment = if state.interval_keyed { commit(DiceKey::Interval(turn)) } else { None };
    let command = CampaignCommand::OpenTurn {
        deadline,
        turn_key: Some(TurnKeyCommitment { turn, commitment, interval_commitment }),
    };
    service.execute_as::<CoalitionCampaign>(stream, &command, meta)
}

/// A new round's set-up with the commitment to its first interval key (`interval:0`, the dice
/// before the first lock), derived from the root just sealed for `stream` (docs/DICE.md "Keys").
pub fn commit_first_interval(
    service: &Service,
    stream: &str,
    mut command: serde_json::Value,
) -> Result<serde_json::Value, ApiError> {
    let root = service
        .sealed_seed(stream)?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed of {stream} is missing")))?;
    let commitment = DiceKey::Interval(0).derive(&root, stream).map(|seed| hex::encode(seed::commitment(&seed)));
    if let (Some(fields), Some(commitment)) = (command.as_object_mut(), commitment) {
        fields.insert("interval_commitment".into(), serde_json::Value::String(commitment));
    }
    Ok(command)
}

/// Adjudicate a campaign's locked turn: gather the results of last turn's battles, decide, then
/// open the battles it announces. Blocking.
///
/// `settled` are a judge's results for battles the service does not open itself (a square where
/// three teams' armies stand); the results of the others are read from their streams.
pub fn adjudicate(
    service: &Service,
    stream: &str,
    settled: Vec<BattleResult>,
    meta: CommandMeta,
) -> Result<CommandOutcome, ApiError> {
    let state = campaign_state(service, stream)?;
    if let Some(result) = settled.iter().find(|r| state.battles.get(&r.battle).is_some_and(|link| link.automatic)) {
        return Err(ApiError::Rule(herald_domain::RuleError::new(
            "coalition.campaign.battle_has_stream",
            format!("{} is decided in its own stream; its result is read from there", result.battle),
            "seed 003 §4.2, §4.4",
        )));
    }
    let mut battle_results = battle_results(service, &state)?;
    battle_results.extend(settled);
    // The interval key this adjudication closes is published with the turn's report.
    let after_turn = state.turn.saturating_sub(1);
    let interval_seed = if state.interval_keys.get(&after_turn).is_some_and(|key| key.revealed.is_none()) {
        service.key_seed(stream, DiceKey::Interval(after_turn))?.map(hex::encode)
    } else {
        None
    };
    let command = CampaignCommand::AdjudicateTurn { battle_results, interval_seed };
    let outcome = service.execute_as::<CoalitionCampaign>(stream, &command, meta.clone())?;
    // A retried adjudication (same Idempotency-Key) also opens what a crash may have left
    // unopened the first time: opening is idempotent.
    open_battles(service, stream, &outcome.events)?;
    Ok(outcome)
}

/// Run a campaign command, then carry a sanction's troop losses to the battle the army is in
/// (seed 003 §5.4.1: "the real controller must fight the battle with the reduced troop
/// numbers"). Blocking.
pub fn execute_relaying(
    service: &Service,
    stream: &str,
    command: &CampaignCommand,
    meta: CommandMeta,
) -> Result<CommandOutcome, ApiError> {
    let outcome = service.execute_as::<CoalitionCampaign>(stream, command, meta.clone())?;
    // A retried command (same Idempotency-Key) relays again: the relay has a key of its own, so
    // a relay the first attempt made is not repeated and one a crash left undone is made now.
    for event in &outcome.events {
        let Ok(CampaignEvent::SanctionImposed(sanction)) = event.data.decode::<CampaignEvent>() else { continue };
        let (Some(battle), Some(army)) = (sanction.battle.clone(), sanction.army.clone()) else { continue };
        let Some(entry) = service.catalog().entry(&battle) else { continue };
        if entry.state_as::<BattleState>().is_none_or(BattleState::ended) {
            continue;
        }
        let apply = BattleCommand::ApplySanction {
            army,
            losses: sanction.losses.clone(),
            extension: true,
            reason: format!("sanction {} on {}: {}", sanction.call.call, sanction.player, sanction.reason),
        };
        let relay = CommandMeta {
            idempotency_key: Some(format!("sanction:{stream}:{}", sanction.call.call)),
            expected_version: None,
            ..meta.clone()
        };
        service.execute_as::<CoalitionBattle>(&battle, &apply, relay)?;
    }
    Ok(outcome)
}

/// The campaign's current state, from the read models.
fn campaign_state(service: &Service, stream: &str) -> Result<CampaignState, ApiError> {
    service
        .catalog()
        .entry(stream)
        .and_then(|entry| entry.state_as::<CampaignState>().cloned())
        .ok_or_else(|| ApiError::NotFound(format!("no campaign {stream}")))
}

/// Results of every announced battle whose stream has ended.
fn battle_results(service: &Service, state: &CampaignState) -> Result<Vec<BattleResult>, ApiError> {
    let mut results = Vec::new();
    for (battle, _) in state.battles.iter().filter(|(_, link)| link.automatic && !link.applied) {
        let Some(entry) = service.catalog().entry(battle) else { continue };
        if let Some(battle_state) = entry.state_as::<BattleState>().filter(|state| state.ended()) {
            results.push(result_of(battle, battle_state));
        }
    }
    Ok(results)
}

/// A battle stream's result as the campaign takes it: each army's casualties and its risked
/// troops lost (seed 003 §4.3.3), kills (§4.3.1, §4.3.3), captures (§4.5), the winning pair's
/// departure and the stratless partners that withdrew (§4.4).
pub fn result_of(battle: &str, state: &BattleState) -> BattleResult {
    let killed_by_attempt = state.killed_by_attempt();
    let captured = state.captured();
    let mut sides = Vec::new();
    for side in SideId::BOTH {
        let side_state = state.sides.get(side);
        let armies = side_state
            .army
            .iter()
            .map(|army| (army, side_state.casualties.as_ref()))
            .chain(side_state.partner.iter().map(|partner| (&partner.army, partner.casualties.as_ref())));
        for (army, casualties) in armies {
            let by_attempt = killed_by_attempt.contains(&army.name.as_str());
            let killed = (state.killed.contains(&side) && side_state.army.as_ref() == Some(army)) || by_attempt;
            let mut losses = match (casualties, killed) {
                (_, true) => army.slots.iter().map(|slot| slot.troops).collect(),
                (Some(casualties), false) => casualties.losses.clone(),
                (None, false) => vec![0; army.slots.len()],
            };
            if !killed {
                for attempt in state.attempts.iter().filter(|attempt| attempt.army == army.name) {
                    for (loss, risked) in losses.iter_mut().zip(&attempt.risked_lost) {
                        *loss = loss.saturating_add(*risked);
                    }
                }
            }
            let captured_by = captured.iter().find(|(target, _)| *target == army.name).map(|(_, by)| (*by).to_string());
            sides.push(BattleSideResult {
                army: army.name.clone(),
                side,
                losses,
                killed,
                killed_by_attempt: by_attempt,
                captured_by,
            });
        }
    }
    let (departure, withdrawn) = match &state.resolution {
        Some(BattleEvent::JointBattleResolved(joint)) => (joint.departure.clone(), joint.withdrawn.clone()),
        _ => (None, Vec::new()),
    };
    BattleResult { battle: battle.to_string(), winner: state.winner, sides, departure, withdrawn }
}

/// The army as its battle sees it: controlled by its first controller (by name), with that
/// player's contingency (seed 003 §5.2.3) and its mercenary faction (ch. 6).
fn spec(state: &CampaignState, name: &str) -> Option<ArmySpec> {
    let army = state.armies.get(name)?;
    let controller = army.controllers.iter().next().cloned().unwrap_or_else(|| name.to_string());
    let mut spec = army.army.battle_spec(&controller);
    spec.contingency = state.control.contingencies.get(&controller).cloned();
    spec.mercenary = state.mercenaries.get(name).map(|mercenary| mercenary.faction);
    Some(spec)
}

/// Open the battle stream of every automatic battle the campaign has announced and not yet
/// applied whose stream does not exist: what a crash between an adjudication and the opening of
/// its battles left undone (run at start-up). The announcements are found reading the campaign
/// stream backwards from its end, as far back as the oldest such battle.
pub fn open_missing_battles(service: &Service, stream: &str) -> Result<MissingBattles, ApiError> {
    let state = campaign_state(service, stream)?;
    let mut missing = std::collections::BTreeSet::new();
    for (battle, _) in state.battles.iter().filter(|(_, link)| link.automatic && !link.applied) {
        if service.store().stream_version(battle)?.is_none() {
            missing.insert(battle.clone());
        }
    }
    if missing.is_empty() {
        return Ok(MissingBattles { opened: 0, unannounced: 0 });
    }
    let mut announcements = Vec::new();
    let mut from = u64::MAX;
    while announcements.len() < missing.len() {
        let page = service.store().read_stream(stream, from, Direction::Backwards, 256)?;
        let Some(oldest) = page.last().map(|event| event.version) else { break };
        for event in page {
            if let Ok(CampaignEvent::BattleAnnounced { battle, .. }) = event.data.decode::<CampaignEvent>() {
                if missing.contains(&battle) {
                    announcements.push(event);
                }
            }
        }
        let Some(next) = oldest.checked_sub(1) else { break };
        from = next;
    }
    open_battles(service, stream, &announcements)?;
    Ok(MissingBattles { opened: announcements.len(), unannounced: missing.len().saturating_sub(announcements.len()) })
}

/// What [`open_missing_battles`] did: battles opened from their announcements, and battles
/// still missing that no event of the log announces (a correction's what-if did:
/// `disputes::open_corrected_battles` opens those; `Service::open_missing_battles` runs both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissingBattles {
    pub opened: usize,
    pub unannounced: usize,
}

/// Open a battle stream for every battle among `events` (announcements of the
/// campaign's adjudications) that has none yet. Opening is idempotent: each battle is opened
/// under the key `open-battle:<battle>`, with the announcement's time, so opening it again after
/// a crash or a retry gives the same battle.
fn open_battles(service: &Service, stream: &str, events: &[RecordedEvent]) -> Result<(), ApiError> {
    let announced: Vec<Announcement> = events
        .iter()
        .filter_map(|event| {
            let decoded = event.data.decode::<CampaignEvent>().ok()?;
            Some(Announcement {
                event: decoded,
                recorded_at: event.recorded_at,
                correlation_id: event.correlation_id.clone(),
            })
        })
        .collect();
    open_announced(service, stream, &announced).map(drop)
}

/// A battle announcement and when its command was recorded: from the log, or from the what-if a
/// correction rests on (the battles a corrected adjudication announces).
#[derive(Debug, Clone)]
pub struct Announcement {
    /// The campaign's event (only `coalition.BattleAnnounced` opens anything).
    pub event: CampaignEvent,
    /// When the adjudication that announced it was recorded.
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// The request it came from.
    pub correlation_id: Option<String>,
}

/// Open the stream of every automatic battle among `announced` that has none yet, as
/// [`open_battles`] does; answers the battles opened.
pub fn open_announced(service: &Service, stream: &str, announced: &[Announcement]) -> Result<Vec<String>, ApiError> {
    let state = campaign_state(service, stream)?;
    let root = service
        .sealed_seed(stream)?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed of {stream} is missing")))?;
    let mut opened = Vec::new();
    for event in announced {
        let CampaignEvent::BattleAnnounced { battle, square, sides, attack, automatic: true, .. } = event.event.clone()
        else {
            continue;
        };
        // Only a battle the campaign still links (a later correction may have dropped it).
        if !state.battles.contains_key(&battle) {
            continue;
        }
        if service.store().stream_version(&battle)?.is_some() {
            continue;
        }
        let [first, second] = sides.as_slice() else { continue };
        let (Some(army_a), Some(army_b)) =
            (first.armies.first().and_then(|a| spec(&state, a)), second.armies.first().and_then(|b| spec(&state, b)))
        else {
            continue;
        };
        let partners: Vec<PartnerArmy> = [(SideId::A, first), (SideId::B, second)]
            .into_iter()
            .filter_map(|(side, engaged)| Some(PartnerArmy { side, army: spec(&state, engaged.armies.get(1)?)? }))
            .collect();
        let engagement = match &attack {
            Attack::Attacks { attackers, .. } if attackers.contains(&army_a.name) => {
                Engagement::Attack { attacker: SideId::A }
            }
            Attack::Attacks { .. } => Engagement::Attack { attacker: SideId::B },
            Attack::NoAttacker => Engagement::NoAttacker,
        };
        let commitment = service.seal_seed(&battle, Some(battle_seed(&root, &battle)))?;
        let create = BattleCommand::CreateBattle {
            armies: Sides { a: army_a, b: army_b },
            partners,
            weather: state.weather.get(&battle).cloned(),
            engagement,
            terrain: Some(format!("{:?}", state.map.terrain_at(square)).to_lowercase()),
            strategy_deadline: event.recorded_at + Duration::hours(i64::from(state.options.battle_deadline_hours)),
            options: Default::default(),
            seed_commitment: hex::encode(commitment),
            formula_opening: state.options.battle_formula_opening,
            // Filled by the service from the command's idempotency key (`Service::execute`).
            formula_salt: None,
        };
        let open = CommandMeta {
            actor: Actor::system(),
            recorded_at: event.recorded_at,
            idempotency_key: Some(format!("open-battle:{battle}")),
            correlation_id: event.correlation_id.clone(),
            expected_version: None,
            scope: crate::auth::Scope::Host,
        };
        service.execute_as::<CoalitionBattle>(&battle, &create, open)?;
        opened.push(battle);
    }
    Ok(opened)
}
