//! The service's part in a campaign: sealing the root seed, reading battle results from their
//! streams before an adjudication, and opening the battle streams an adjudication announces.
//!
//! Battle seeds are derived from the campaign's root seed and the battle's stream name, so
//! revealing one battle's seed (when it ends) exposes neither the root nor any other battle.

use chrono::Duration;
use herald_domain::coalition::{
    battle::{command::Engagement, state::BattleState, BattleCommand, CoalitionBattle, SideId, Sides},
    campaign::{BattleResult, BattleSideResult, CampaignCommand, CampaignEvent, CampaignState, CoalitionCampaign},
    movement::Attack,
};
use serde::Deserialize;
use sha2::{Digest, Sha256};

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

/// Adjudicate a campaign's locked turn: gather the results of last turn's battles, decide, then
/// open the battles it announces. Blocking.
///
/// `settled` are a judge's results for battles the service does not open itself (joint
/// engagements, seed 003 §4.4); the results of the others are read from their streams.
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
            "seed 003 §4.2",
        )));
    }
    let mut battle_results = battle_results(service, &state)?;
    battle_results.extend(settled);
    let command = CampaignCommand::AdjudicateTurn { battle_results };
    let outcome = service.execute_as::<CoalitionCampaign>(stream, &command, meta.clone())?;
    if !outcome.replayed {
        open_battles(service, stream, &outcome, &meta)?;
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

fn result_of(battle: &str, state: &BattleState) -> BattleResult {
    let sides = SideId::BOTH
        .iter()
        .filter_map(|side| {
            let side_state = state.sides.get(*side);
            let army = side_state.army.as_ref()?;
            let killed = state.killed.contains(side);
            let losses = match (&side_state.casualties, killed) {
                (_, true) => army.slots.iter().map(|slot| slot.troops).collect(),
                (Some(casualties), false) => casualties.losses.clone(),
                (None, false) => vec![0; army.slots.len()],
            };
            Some(BattleSideResult { army: army.name.clone(), side: *side, losses, killed })
        })
        .collect();
    BattleResult { battle: battle.to_string(), winner: state.winner, sides }
}

/// Open a battle stream for every two-army battle the adjudication announced.
fn open_battles(service: &Service, stream: &str, outcome: &CommandOutcome, meta: &CommandMeta) -> Result<(), ApiError> {
    let state = campaign_state(service, stream)?;
    let root = service
        .sealed_seed(stream)?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed of {stream} is missing")))?;
    for event in &outcome.events {
        let Ok(CampaignEvent::BattleAnnounced { battle, square, sides, attack, automatic: true, .. }) =
            CampaignEvent::deserialize(&event.data)
        else {
            continue;
        };
        if service.store().stream_version(&battle)?.is_some() {
            continue;
        }
        let names: Vec<&String> = sides.iter().filter_map(|side| side.armies.first()).collect();
        let [a, b] = names.as_slice() else { continue };
        let spec = |name: &str| {
            state.armies.get(name).map(|army| {
                let controller = army.controllers.iter().next().cloned().unwrap_or_else(|| name.to_string());
                army.army.battle_spec(&controller)
            })
        };
        let (Some(army_a), Some(army_b)) = (spec(a), spec(b)) else { continue };
        let engagement = match &attack {
            Attack::Attacks { attackers, .. } if attackers.contains(a) => Engagement::Attack { attacker: SideId::A },
            Attack::Attacks { .. } => Engagement::Attack { attacker: SideId::B },
            Attack::NoAttacker => Engagement::NoAttacker,
        };
        let commitment = service.seal_seed(&battle, Some(battle_seed(&root, &battle)))?;
        let create = BattleCommand::CreateBattle {
            armies: Sides { a: army_a, b: army_b },
            partners: vec![],
            weather: None,
            engagement,
            terrain: Some(format!("{:?}", state.map.terrain_at(square)).to_lowercase()),
            strategy_deadline: meta.recorded_at + Duration::hours(i64::from(state.options.battle_deadline_hours)),
            options: Default::default(),
            seed_commitment: hex::encode(commitment),
        };
        let open = CommandMeta {
            idempotency_key: Some(format!("open-battle:{battle}")),
            expected_version: None,
            ..meta.clone()
        };
        service.execute_as::<CoalitionBattle>(&battle, &create, open)?;
    }
    Ok(())
}
