//! Properties of rounds with kills, captures and sanctions (seed 003 §4.3, §4.5, §5.4.1), through
//! `CoalitionCampaign::decide`/`evolve` only: troops never go below 0 nor above full strength, a
//! killed army never comes back, a partially converted army never moves, the events fold into the
//! state, and the same commands with the same tape decide the same events (replay determinism).

#[path = "coalition_campaign_support.rs"]
mod support;

use std::collections::BTreeSet;

use herald_domain::coalition::{
    army::{RankClass, Team},
    battle::SideId,
    campaign::{BattleResult, BattleSideResult, CampaignCommand},
    map::Square,
};
use proptest::prelude::*;
use support::*;

#[derive(Debug, Clone)]
struct TurnPlan {
    moves: Vec<(i16, i16)>,
    outcomes: Vec<(bool, u8, u32)>,
    sanction: Option<(usize, u32)>,
}

fn turn_plan() -> impl Strategy<Value = TurnPlan> {
    (
        prop::collection::vec((-2i16..=2, -2i16..=2), 6),
        prop::collection::vec((any::<bool>(), 0u8..4, 0u32..=100), 4),
        prop::option::of((0usize..6, 0u32..4)),
    )
        .prop_map(|(moves, outcomes, sanction)| TurnPlan { moves, outcomes, sanction })
}

const START: [&str; 6] = ["10B", "10C", "11B", "11C", "12B", "12C"];

fn armies() -> Vec<herald_domain::coalition::campaign::ArmyEntry> {
    START
        .iter()
        .enumerate()
        .map(|(index, square)| {
            let rank = if index < 2 { RankClass::EvincarCaptain } else { RankClass::CplLtCommander };
            let army = if index % 2 == 0 {
                mages(&format!("Coalition {index}"), rank)
            } else {
                broodlings(&format!("Phyrexia {index}"), rank)
            };
            on(army, square)
        })
        .collect()
}

fn names() -> Vec<String> {
    armies().into_iter().map(|entry| entry.army.name).collect()
}

/// Results for every battle awaiting one: the winner by the plan, each loser killed by attempt,
/// captured (when its rank allows and a winner is a team army) or only damaged.
fn results(round: &Round, outcomes: &[(bool, u8, u32)]) -> Vec<BattleResult> {
    round
        .state
        .battles
        .iter()
        .filter(|(_, link)| !link.applied)
        .enumerate()
        .map(|(index, (battle, link))| {
            let (coalition_wins, fate, share) = outcomes[index % outcomes.len()];
            let teams: Vec<Team> =
                link.armies.iter().filter_map(|a| round.state.armies.get(a)).map(|a| a.army.team).collect();
            let first = teams.first().copied().unwrap_or(Team::Phyrexia);
            let side = |team: Team| if team == first { SideId::A } else { SideId::B };
            let winner_team = if coalition_wins && teams.contains(&Team::Coalition) || !teams.contains(&Team::Phyrexia)
            {
                Team::Coalition
            } else {
                Team::Phyrexia
            };
            let captor = link
                .armies
                .iter()
                .find(|a| round.state.armies.get(*a).is_some_and(|s| s.army.team == winner_team))
                .cloned();
            let sides = link
                .armies
                .iter()
                .filter_map(|army| round.state.armies.get(army).map(|state| (army, state)))
                .map(|(army, state)| {
                    let lost = state.army.team != winner_team;
                    let capturable =
                        matches!(state.army.rank, RankClass::CplLtCommander | RankClass::CenturionLieutenant);
                    let killed = lost && fate == 1;
                    let captured_by = (lost && fate == 2 && capturable).then(|| captor.clone()).flatten();
                    BattleSideResult {
                        army: army.clone(),
                        side: side(state.army.team),
                        losses: state.army.troops.iter().map(|line| line.troops * share / 100).collect(),
                        killed,
                        killed_by_attempt: killed,
                        captured_by,
                    }
                })
                .collect();
            BattleResult {
                battle: battle.clone(),
                winner: Some(side(winner_team)),
                sides,
                departure: None,
                withdrawn: vec![],
            }
        })
        .collect()
}

fn order_text(round: &Round, army: &str, (dr, dc): (i16, i16)) -> Option<String> {
    let state = round.state.armies.get(army)?;
    let from = state.square;
    let row = u8::try_from(i16::from(from.row) + dr).ok()?;
    let column = u8::try_from(i16::from(from.column) + dc).ok()?;
    let to = Square { row, column };
    if !round.state.map.contains(to) || to == from {
        return Some(format!("{army}: hold"));
    }
    let there = round.state.armies.iter().find(|(name, a)| a.square == to && name.as_str() != army);
    let annotation = match there {
        Some((name, other)) if other.army.team != state.army.team => format!("; engage {name}"),
        Some((name, _)) => format!("; replace {name}"),
        None => String::new(),
    };
    Some(format!("{army}: {from} > {to}{annotation}"))
}

fn play(plan: &[TurnPlan], key: [u8; 32]) -> Result<Round, TestCaseError> {
    let mut round = Round::create_with(key, map(), armies()).map_err(TestCaseError::fail)?;
    let names = names();
    let mut ever_killed = BTreeSet::new();
    for turn in plan {
        if round.state.victory.is_some() {
            break;
        }
        round.open();
        for (army, step) in names.iter().zip(&turn.moves) {
            let Some(text) = order_text(&round, army, *step) else { continue };
            let Some(poster) = round.state.armies[army].controllers.iter().next().cloned() else { continue };
            // Refused orders (a partially converted army moving, a wrong annotation) are part of the game.
            let _ = round.post(&poster, &text);
        }
        if let Some((index, severity)) = turn.sanction {
            let sanction = CampaignCommand::ImposeSanction {
                player: "somebody".into(),
                army: Some(names[index].clone()),
                severity,
                reason: "acted for an army they did not control".into(),
            };
            let _ = round.run(sanction, judge());
        }
        let converting: Vec<(String, Square)> = round
            .state
            .conversions
            .keys()
            .filter_map(|a| round.state.armies.get(a).map(|s| (a.clone(), s.square)))
            .collect();
        let results = results(&round, &turn.outcomes);
        round.adjudicate(results).map_err(TestCaseError::fail)?;
        for army in round.state.armies.values() {
            for line in &army.army.troops {
                prop_assert!(
                    line.troops <= line.full,
                    "{} has {} of {} {}",
                    army.army.name,
                    line.troops,
                    line.full,
                    line.creature
                );
            }
        }
        ever_killed.extend(round.state.killed.iter().cloned());
        for dead in &ever_killed {
            prop_assert!(!round.state.armies.contains_key(dead), "{dead} came back");
            prop_assert!(round.state.killed.contains(dead));
        }
        for (army, square) in converting {
            if let Some(state) = round.state.armies.get(&army).filter(|_| round.state.conversions.contains_key(&army)) {
                prop_assert_eq!(state.square, square, "{} moved while partially converted", army);
            }
        }
        round.assert_replays();
    }
    Ok(round)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn rounds_with_kills_captures_and_sanctions_keep_their_invariants_and_replay(
        plan in prop::collection::vec(turn_plan(), 1..5),
        key in any::<u8>(),
    ) {
        let round = play(&plan, [key; 32])?;
        let again = round.replay_log([key; 32]);
        prop_assert_eq!(&again.events, &round.events, "the same commands and tape decide the same events");
        prop_assert_eq!(&again.state, &round.state);
    }
}
