//! A battle played through the application service (no HTTP).

use chrono::{TimeZone, Utc};
use herald_api::app::{CommandMeta, Service};
use herald_domain::{
    coalition::battle::{BattleCommand, CoalitionBattle, SideId},
    Actor, Role,
};

fn meta(actor: Actor) -> CommandMeta {
    CommandMeta {
        actor,
        recorded_at: Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
        idempotency_key: None,
        correlation_id: None,
        expected_version: None,
        scope: herald_api::auth::Scope::Host,
    }
}

fn judge() -> Actor {
    Actor::new("token:judge", Role::Judge)
}

/// Create a battle (deadline 2026-12-01) and return its stream.
pub fn create_battle(service: &Service, seed: Option<[u8; 32]>) -> String {
    let stream = format!("battle-{}", uuid::Uuid::now_v7());
    let commitment = service.seal_seed(&stream, seed).expect("sealed");
    let armies = serde_json::from_value(serde_json::json!({
        "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
              "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000}]},
        "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
              "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
    }))
    .expect("armies");
    let create = BattleCommand::CreateBattle {
        armies,
        partners: vec![],
        weather: None,
        engagement: serde_json::from_value(serde_json::json!({"kind": "no_attacker"})).expect("engagement"),
        terrain: Some("swamp".into()),
        strategy_deadline: Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap(),
        options: Default::default(),
        seed_commitment: hex::encode(commitment),
        formula_opening: Default::default(),
        formula_salt: None,
    };
    service.execute_as::<CoalitionBattle>(&stream, &create, meta(judge())).expect("created");
    stream
}

/// Play a whole battle: create, entropy, strategies, bonuses, resolve (which reveals the seed).
pub fn play_battle(service: &Service) -> String {
    let stream = create_battle(service, None);
    let run = |command: BattleCommand, actor| {
        service.execute_as::<CoalitionBattle>(&stream, &command, meta(actor)).expect("accepted")
    };
    run(BattleCommand::ContributeEntropy { entropy: "alice's luck".into() }, Actor::player("token:a", "alice"));
    run(
        BattleCommand::SubmitStrategy {
            side: SideId::A,
            strategy: "hold".into(),
            army: None,
            attempt: None,
            departure: None,
        },
        Actor::player("token:a", "alice"),
    );
    run(
        BattleCommand::SubmitStrategy {
            side: SideId::B,
            strategy: "swarm".into(),
            army: None,
            attempt: None,
            departure: None,
        },
        Actor::player("token:b", "bob"),
    );
    run(BattleCommand::AssignStrategyBonus { side: SideId::A, bonus: 6, note: None }, judge());
    run(BattleCommand::AssignStrategyBonus { side: SideId::B, bonus: 4, note: None }, judge());
    run(BattleCommand::ResolveBattle { running_away: None }, judge());
    stream
}
