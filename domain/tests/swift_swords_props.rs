//! Invariants of the swift-swords decider over random sequences of commands (seed 004;
//! DESIGN.md "Dice that anyone can check"): the same commands under the same seed give
//! byte-identical events; events read back from JSON fold to the decided state; dice in hand
//! are never negative nor out of 1–6 and never more than six and their extra dice; ranks stay
//! within +9 and −3 (0 for the non-Heroic); pools stay within what their rolls can give.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::{
    swift_swords::{
        battle::{
            command::{DefenceChoice, GrappleChoice, OneUse, PoolKind, SwiftSwordsCommand as C},
            event::SwiftSwordsEvent as E,
            pending::{AttackOptions, Destination, Pending},
            state::{Phase, SwiftSwordsState},
            SwiftSwords,
        },
        countdown,
        damage::{SpecialResult, Tactic},
        figure::{FearLevel, FigureSpec, WeaponKind, Weight},
        flight::{FlightSpec, FlightStep},
        formation::{FormationKind, FormationSpec},
        ranks::RankSide,
        zones::{BorderCover, CoverArea, CoverLevel, CoverShape, Direction, ZoneMap},
    },
    Actor, Decider, EventType,
};
use proptest::{prelude::*, strategy::ValueTree};
use support::*;

/// A command in the abstract, made concrete against the state when it runs.
#[derive(Debug, Clone)]
enum Op {
    Next(usize),
    Attack(usize, usize, usize, u8, bool, bool),
    Defend(u8, bool, bool, bool),
    Move(usize, u8, usize),
    Withdraw(usize),
    Pool(usize, u8),
    Hold(usize),
    Refresh(usize),
    CloseIn(usize, usize),
    KnockDown(usize, usize),
    Grapple(usize, u8),
    BreakHold(usize, bool),
    StandUp(usize),
    Recover(usize),
    Rally(usize),
    UseOne(usize, bool),
    Fly(usize, u8, bool),
    Inflict(usize, u8, bool),
    Fear(usize, u8),
    Heal(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => any::<usize>().prop_map(Op::Next),
        6 => (any::<usize>(), any::<usize>(), any::<usize>(), 0u8..4, any::<bool>(), any::<bool>())
            .prop_map(|(a, w, t, k, e, b)| Op::Attack(a, w, t, k, e, b)),
        5 => (0u8..4, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(c, e, x, r)| Op::Defend(c, e, x, r)),
        3 => (any::<usize>(), 0u8..4, any::<usize>()).prop_map(|(a, k, i)| Op::Move(a, k, i)),
        2 => any::<usize>().prop_map(Op::Withdraw),
        2 => (any::<usize>(), 0u8..3).prop_map(|(a, k)| Op::Pool(a, k)),
        1 => any::<usize>().prop_map(Op::Hold),
        1 => any::<usize>().prop_map(Op::Refresh),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, t)| Op::CloseIn(a, t)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, t)| Op::KnockDown(a, t)),
        1 => (any::<usize>(), 0u8..3).prop_map(|(a, c)| Op::Grapple(a, c)),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(a, r)| Op::BreakHold(a, r)),
        1 => any::<usize>().prop_map(Op::StandUp),
        1 => any::<usize>().prop_map(Op::Recover),
        1 => any::<usize>().prop_map(Op::Rally),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(a, r)| Op::UseOne(a, r)),
        1 => (any::<usize>(), 0u8..8, any::<bool>()).prop_map(|(a, d, c)| Op::Fly(a, d, c)),
        2 => (any::<usize>(), 1u8..9, any::<bool>()).prop_map(|(t, d, m)| Op::Inflict(t, d, m)),
        1 => (any::<usize>(), 0u8..5).prop_map(|(t, l)| Op::Fear(t, l)),
        1 => any::<usize>().prop_map(Op::Heal),
    ]
}

fn encounter() -> Setup {
    let mut zones = Vec::new();
    for row in 0..2u8 {
        for column in 0..3u8 {
            zones.push(zone(&format!("z{column}{row}"), column, row));
        }
    }
    let map = ZoneMap {
        zones,
        borders: vec![BorderCover {
            a: "z10".into(),
            b: "z20".into(),
            cover: CoverLevel::HardLight,
            name: "wall".into(),
        }],
        cover: vec![CoverArea {
            id: "hut".into(),
            zone: "z01".into(),
            shape: CoverShape::Area,
            cover: CoverLevel::SoftMedium,
        }],
        ..ZoneMap::default()
    };
    let wrestling = herald_domain::swift_swords::figure::WeaponSpec {
        grapple: true,
        natural: herald_domain::swift_swords::figure::Natural::Human,
        ..weapon("Wrestling", 5, Weight::Light)
    };
    let roland = FigureSpec {
        weapons: vec![weapon("Broadsword", 5, Weight::Medium), weapon("Dagger", 3, Weight::Light), wrestling],
        ..grouped(roland("z00"), "melee")
    };
    let aria = FigureSpec {
        controller: Some("alice".into()),
        heroic: true,
        weapons: vec![missile("Bow", 5, WeaponKind::Fired, 2), weapon("Spear", 4, Weight::Medium)],
        defences: herald_domain::swift_swords::figure::DefenceSkills { dodge: Some(4), ..Default::default() },
        ..figure("aria", "heroes", "z10")
    };
    let mob = FigureSpec {
        formation: Some(FormationSpec { kind: FormationKind::Mob, members: 3 }),
        ..grouped(goblin("mob", "z00"), "melee")
    };
    let troll = FigureSpec {
        size: 2,
        legs: 4,
        fear: Some(FearLevel::Fearsome),
        physical: 5,
        weapons: vec![weapon("Club", 5, Weight::Heavy), missile("Roar", 4, WeaponKind::Mental, 1)],
        ..goblin("troll", "z20")
    };
    let mut griffon = FigureSpec {
        flight: Some(FlightSpec { speed: 2, turn_rate: 6, dive: 3 }),
        weapons: vec![weapon("Talons", 4, Weight::Medium)],
        ..goblin("griffon", "z21")
    };
    griffon.start.flying = true;
    Setup { map, ..Setup::of(vec![roland, aria, grouped(goblin("goblin-1", "z00"), "melee"), mob, troll, griffon]) }
}

fn pick<T: Clone>(items: &[T], index: usize) -> Option<T> {
    (!items.is_empty()).then(|| items[index % items.len()].clone())
}

fn ids(state: &SwiftSwordsState) -> Vec<String> {
    state.figures.values().filter(|figure| figure.active()).map(|figure| figure.spec.id.clone()).collect()
}

fn actor_for(state: &SwiftSwordsState, figure: &str, index: usize) -> Actor {
    match state.figure(figure).and_then(|found| found.spec.controller.clone()) {
        Some(_) if !index.is_multiple_of(3) => alice(),
        _ => gm(),
    }
}

/// Who may act now: the countdown's next, or a holding figure.
fn acting(state: &SwiftSwordsState, index: usize) -> Option<String> {
    let mut candidates = countdown::next_to_act(state);
    candidates.extend(state.figures.values().filter(|figure| figure.holding).map(|figure| figure.spec.id.clone()));
    pick(&candidates, index)
}

fn defend_command(
    state: &SwiftSwordsState,
    choice: u8,
    effort: bool,
    counter: bool,
    take_rank: bool,
) -> Option<(C, Actor)> {
    let Some(Pending::Attack(attack)) = state.pending.last() else { return None };
    let defence = [DefenceChoice::None, DefenceChoice::Dodge, DefenceChoice::Block, DefenceChoice::Parry]
        [usize::from(choice % 4)];
    let command = C::Defend {
        figure: attack.target.clone(),
        defence,
        pay: None,
        effort,
        bump: false,
        counter: counter && defence == DefenceChoice::Parry,
        counter_weapon: None,
        take_rank,
    };
    Some((command, gm()))
}

fn concrete(state: &SwiftSwordsState, op: &Op) -> Option<(C, Actor)> {
    let attack_of = |id: &str, weapon: usize, target: usize, tactic: u8, effort: bool, bump: bool| {
        let figure = state.figure(id)?;
        let weapons: Vec<String> = figure.spec.weapons.iter().map(|weapon| weapon.name.clone()).collect();
        let enemies: Vec<String> = ids(state).into_iter().filter(|other| state.enemies(id, other)).collect();
        let target = pick(&enemies, target)?;
        let tactic = [Tactic::Normal, Tactic::AllOut, Tactic::DoubleStrike, Tactic::FollowOn][usize::from(tactic % 4)];
        let options = AttackOptions {
            effort,
            bump: bump && !effort,
            special_results: if bump { vec![SpecialResult::Stun, SpecialResult::Expose] } else { vec![] },
            follow_on_target: pick(&enemies, target.len()),
            ..AttackOptions::default()
        };
        let charge = figure.group.is_none() && state.figure(&target).is_some_and(|other| other.zone != figure.zone);
        Some(C::Attack {
            figure: id.into(),
            weapon: pick(&weapons, weapon)?,
            targets: vec![target],
            charge,
            tactic,
            options,
            pay: None,
        })
    };
    let command = match op {
        Op::Next(index) => {
            match state.pending.last() {
                Some(Pending::Attack(_)) => {
                    return defend_command(
                        state,
                        u8::try_from(index % 4).unwrap_or(0),
                        false,
                        index.is_multiple_of(5),
                        false,
                    )
                }
                Some(Pending::Move(waiting)) => {
                    let enemy = pick(&waiting.waiting, *index)?;
                    let weapon = state
                        .figure(&enemy)?
                        .spec
                        .weapons
                        .iter()
                        .find(|weapon| weapon.kind == WeaponKind::Melee)?
                        .name
                        .clone();
                    if index.is_multiple_of(2) {
                        return Some((C::OpportunityAttack { figure: enemy, weapon, pay: None }, gm()));
                    }
                    return Some((C::LetGo { figure: enemy }, gm()));
                }
                None => {}
            }
            match state.phase {
                Phase::Setup => return Some((begin(), gm())),
                Phase::Refresh => {
                    let waiting: Vec<String> = state
                        .figures
                        .values()
                        .filter(|figure| figure.active() && !figure.done && !figure.hand.is_empty())
                        .map(|figure| figure.spec.id.clone())
                        .collect();
                    let id = pick(&waiting, *index)?;
                    if index.is_multiple_of(2) {
                        C::CarryOver { figure: id }
                    } else {
                        C::Pass { figure: id }
                    }
                }
                Phase::Countdown => {
                    let id = acting(state, *index)?;
                    attack_of(&id, *index, index / 7, 0, false, false)?
                }
                _ => return None,
            }
        }
        Op::Attack(a, w, t, k, e, b) => {
            let id = acting(state, *a)?;
            attack_of(&id, *w, *t, *k, *e, *b)?
        }
        Op::Defend(choice, effort, counter, take_rank) => {
            return defend_command(state, *choice, *effort, *counter, *take_rank)
        }
        Op::Move(a, kind, index) => {
            let id = acting(state, *a)?;
            let figure = state.figure(&id)?;
            let to = match kind {
                0 => {
                    let near: Vec<String> = state
                        .map
                        .zones
                        .iter()
                        .filter(|zone| state.map.adjacent(&figure.zone, &zone.id))
                        .map(|zone| zone.id.clone())
                        .collect();
                    Destination::Zone { zone: pick(&near, *index)? }
                }
                1 => Destination::Alone,
                2 => Destination::Join { figure: pick(&ids(state), *index)? },
                _ => Destination::Occupy { cover: "hut".into() },
            };
            C::Move { figure: id, to, pay: None }
        }
        Op::Withdraw(a) => C::Withdraw { figure: acting(state, *a)?, pay: None },
        Op::Pool(a, kind) => C::Pool {
            figure: acting(state, *a)?,
            into: [PoolKind::Dodge, PoolKind::Block, PoolKind::Action][usize::from(*kind % 3)],
            pay: None,
        },
        Op::Hold(a) => C::Hold { figure: acting(state, *a)? },
        Op::Refresh(a) => C::CallRefresh { figure: acting(state, *a) },
        Op::CloseIn(a, t) => C::CloseIn { figure: acting(state, *a)?, target: pick(&ids(state), *t)?, pay: None },
        Op::KnockDown(a, t) => C::KnockDown { figure: acting(state, *a)?, target: pick(&ids(state), *t)?, pay: None },
        Op::Grapple(a, c) => C::Grapple {
            figure: acting(state, *a)?,
            choice: [GrappleChoice::Damage, GrappleChoice::Improve, GrappleChoice::Subdue][usize::from(*c % 3)],
            pay: None,
        },
        Op::BreakHold(a, reverse) => C::BreakHold { figure: acting(state, *a)?, reverse: *reverse, pay: None },
        Op::StandUp(a) => C::StandUp { figure: acting(state, *a)?, pay: None },
        Op::Recover(a) => C::Recover { figure: acting(state, *a)?, pay: None },
        Op::Rally(a) => C::Rally { figure: acting(state, *a)?, pay: None },
        Op::UseOne(a, rally) => {
            C::UseOne { figure: pick(&ids(state), *a)?, on: if *rally { OneUse::Rally } else { OneUse::RemoveState } }
        }
        Op::Fly(a, direction, circle) => C::Fly {
            figure: acting(state, *a)?,
            steps: vec![FlightStep::Turn { to: Direction::ALL[usize::from(*direction % 8)] }, FlightStep::Forward],
            dive: false,
            circle: *circle,
            pay: None,
        },
        Op::Inflict(t, damage, mental) => {
            let side = if *mental { RankSide::Mental } else { RankSide::Physical };
            return Some((
                C::Inflict {
                    figure: pick(&ids(state), *t)?,
                    damage: u32::from(*damage),
                    ranks: side,
                    magic: false,
                    massive: false,
                    reason: "the GM".into(),
                },
                gm(),
            ));
        }
        Op::Fear(t, level) => {
            let level = [FearLevel::Scary, FearLevel::Fearsome, FearLevel::Dread, FearLevel::Terror, FearLevel::Fell]
                [usize::from(*level % 5)];
            return Some((C::FearAttack { figure: pick(&ids(state), *t)?, level, reason: "a war cry".into() }, gm()));
        }
        Op::Heal(t) => {
            let all: Vec<String> = state.figures.keys().cloned().collect();
            return Some((
                C::Heal {
                    figure: pick(&all, *t)?,
                    physical: 1,
                    mental: 1,
                    states: true,
                    injuries: vec![],
                    bleeders: true,
                    reason: "magic".into(),
                },
                gm(),
            ));
        }
    };
    let figure = match &command {
        C::Attack { figure, .. } | C::Move { figure, .. } | C::Withdraw { figure, .. } | C::Pool { figure, .. } => {
            figure.clone()
        }
        _ => String::new(),
    };
    let index = match op {
        Op::Next(index) | Op::Hold(index) | Op::Withdraw(index) => *index,
        _ => 1,
    };
    Some((command, actor_for(state, &figure, index)))
}

/// The invariants every state keeps.
fn invariants(state: &SwiftSwordsState) -> Result<(), TestCaseError> {
    for figure in state.figures.values() {
        let id = &figure.spec.id;
        prop_assert!(
            figure.hand.iter().all(|face| (1..=6).contains(face)),
            "{} holds a die off 1-6: {:?}",
            id,
            figure.hand
        );
        prop_assert!(figure.hand.len() <= 12, "{} holds {} dice", id, figure.hand.len());
        for track in [&figure.physical, &figure.mental] {
            let left = track.remaining();
            prop_assert!((-3..=9).contains(&left), "{} has {} ranks left", id, left);
            if !figure.spec.heroic {
                prop_assert!(left >= 0, "{} is not heroic yet has {} ranks", id, left);
            }
        }
        let skills = &figure.spec.defences;
        let device = figure.spec.shield.as_ref().map_or(0, |shield| u32::from(shield.block));
        prop_assert!(
            figure.dodge_pool <= u32::from(skills.dodge.unwrap_or(0)) + 1,
            "{} dodge pool {}",
            id,
            figure.dodge_pool
        );
        prop_assert!(
            figure.block_pool <= u32::from(skills.block.unwrap_or(0)) + device + 1,
            "{} block pool {}",
            id,
            figure.block_pool
        );
        if !figure.active() {
            prop_assert!(figure.hand.is_empty(), "{} is out of action with dice", id);
        }
    }
    if !state.ended() && state.phase != Phase::Setup {
        prop_assert!(state.standing_sides().len() >= 2, "the encounter goes on with one side standing");
    }
    Ok(())
}

fn play(ops: &[Op], n: u64) -> Result<Battle, TestCaseError> {
    let mut battle = Battle::seeded(&encounter(), n);
    for op in ops {
        let Some((command, actor)) = concrete(&battle.state, op) else { continue };
        if battle.attempt(actor, command).is_ok() {
            invariants(&battle.state)?;
        }
    }
    Ok(battle)
}

fn replay(battle: &Battle) -> Vec<E> {
    let mut again = Battle::empty(battle.seed);
    for (command, actor) in &battle.accepted {
        again.by(actor.clone(), command.clone());
    }
    again.0.events
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_same_commands_under_the_same_seed_give_byte_identical_events_that_fold_back_from_json(
        ops in prop::collection::vec(op(), 1..120),
        n in 0u64..1000,
    ) {
        let battle = play(&ops, n)?;
        prop_assert_eq!(&SwiftSwords::fold(&battle.events), &battle.state);
        let again = replay(&battle);
        let json = |events: &[E]| serde_json::to_string(events).expect("events serialize");
        prop_assert_eq!(json(&again), json(&battle.events));
        let read_back: Vec<E> = serde_json::from_str(&json(&battle.events)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&SwiftSwords::fold(&read_back), &battle.state);
        for event in &battle.events {
            let name = event.event_type();
            prop_assert!(name.starts_with("swift-swords.") || name.starts_with("dice."), "{}", name);
        }
    }

    #[test]
    fn dice_in_hand_stay_within_one_to_six_and_ranks_within_nine_and_minus_three(
        ops in prop::collection::vec(op(), 1..150),
        n in 0u64..1000,
    ) {
        let battle = play(&ops, n)?;
        invariants(&battle.state)?;
    }
}

#[test]
fn the_random_sequences_reach_every_kind_of_event() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = prop::collection::vec(op(), 200);
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..40 {
        let ops = strategy.new_tree(&mut runner).expect("ops").current();
        let battle = play(&ops, n).expect("invariants hold");
        seen.extend(battle.events.iter().map(|event| event.event_type()));
    }
    for kind in [
        "swift-swords.RoundStarted",
        "swift-swords.ActionDiceRolled",
        "swift-swords.AttackDeclared",
        "swift-swords.DefenceDeclared",
        "swift-swords.AttackResolved",
        "swift-swords.RefreshCalled",
        "swift-swords.DieCarried",
        "swift-swords.StateTaken",
        "swift-swords.RanksLost",
        "swift-swords.InjuryRolled",
        "swift-swords.OutOfAction",
        "swift-swords.Placed",
        "swift-swords.FearChecked",
        "swift-swords.Pooled",
    ] {
        assert!(seen.contains(kind), "no {kind} in {seen:?}");
    }
}
