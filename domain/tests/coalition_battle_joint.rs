//! Battles of two armies against one or two (seed 003 §4.4), decided by the Battle Judge's
//! system: strategies per army, a stratless partner that does not take part, the size bonus on
//! combined troops, higher casualties shared by involvement, and the winning pair's departure.

#[path = "coalition_battle_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{ArmySpec, Color, RankClass, Team},
        battle::{
            bonus::{army_size, size_bonus},
            casualties::{battle_rates, slot_loss},
            command::Engagement,
            joint::joint_rate,
            Attempt, AttemptKind, BattleCommand, BattleEvent, BattleOptions, BattleState, CoalitionBattle, Departure,
            JointFormula, JointResolution, PartnerArmy, Share, SideId, Sides, SizeWeighting,
        },
        map::Direction,
    },
    Actor, Decider, RuleError,
};
use support::*;

fn barrin() -> Actor {
    Actor::player("player:barrin", "barrin")
}

fn low(name: &str, team: Team, controller: &str, color: Color) -> ArmySpec {
    full_army(name, team, RankClass::CplLtCommander, controller, &[color])
}

/// Sai Rei and Barrin (Coalition) against Darkhand (Phyrexia).
fn two_against_one() -> (Sides<ArmySpec>, Vec<PartnerArmy>) {
    let armies = Sides {
        a: low("Sai Rei", Team::Coalition, "gazetzot", Color::Red),
        b: low("Darkhand", Team::Phyrexia, "vorn", Color::Red),
    };
    let partners = vec![PartnerArmy { side: SideId::A, army: low("Barrin", Team::Coalition, "barrin", Color::Red) }];
    (armies, partners)
}

struct Play {
    state: BattleState,
    events: Vec<BattleEvent>,
    seed: u64,
}

impl Play {
    fn new(armies: Sides<ArmySpec>, partners: Vec<PartnerArmy>, seed: u64) -> Result<Self, RuleError> {
        let mut play = Self { state: BattleState::default(), events: Vec::new(), seed };
        let create = BattleCommand::CreateBattle {
            armies,
            partners,
            weather: Some("clear".into()),
            engagement: Engagement::NoAttacker,
            terrain: Some("plains".into()),
            strategy_deadline: deadline(),
            options: BattleOptions::default(),
            seed_commitment: commitment_hex(seed),
            formula_opening: Default::default(),
            formula_salt: None,
        };
        play.run(create, judge(), at(0))?;
        Ok(play)
    }

    fn run(
        &mut self,
        command: BattleCommand,
        actor: Actor,
        time: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<BattleEvent>, RuleError> {
        let mut ctx = context(&self.state, actor, time, self.seed);
        let events = CoalitionBattle::decide(&self.state, &command, &mut ctx)?;
        for event in &events {
            CoalitionBattle::evolve(&mut self.state, event);
        }
        self.events.extend(events.clone());
        Ok(events)
    }

    fn strategy(
        &mut self,
        actor: Actor,
        side: SideId,
        army: Option<&str>,
        departure: Option<Departure>,
    ) -> Result<Vec<BattleEvent>, RuleError> {
        let command = BattleCommand::SubmitStrategy {
            side,
            strategy: "we hold together".into(),
            army: army.map(str::to_string),
            attempt: None,
            departure,
        };
        self.run(command, actor, before())
    }

    fn bonuses(&mut self, a: u8, b: u8) {
        for (side, bonus) in [(SideId::A, a), (SideId::B, b)] {
            self.run(BattleCommand::AssignStrategyBonus { side, bonus, note: None }, judge(), before()).expect("bonus");
        }
    }

    fn resolve(&mut self, running_away: Option<SideId>) -> JointResolution {
        let events = self.run(BattleCommand::ResolveBattle { running_away }, judge(), after()).expect("resolved");
        match events.first() {
            Some(BattleEvent::JointBattleResolved(resolution)) => resolution.clone(),
            other => panic!("expected a joint resolution, got {other:?}"),
        }
    }
}

fn all_in(seed: u64) -> Play {
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, seed).expect("opened");
    play.strategy(player_a(), SideId::A, None, None).expect("Sai Rei's");
    play.strategy(barrin(), SideId::A, Some("Barrin"), None).expect("Barrin's");
    play.strategy(player_b(), SideId::B, None, None).expect("Darkhand's");
    play
}

#[test]
fn a_two_army_side_sends_one_strategy_per_army_seed_003_4_4() {
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, 0).expect("opened");
    assert!(play.state.is_joint());
    let refused = play.strategy(player_a(), SideId::A, Some("Barrin"), None).expect_err("not Sai Rei's controller's");
    assert!(refused.forbidden, "{refused:?}");
    play.strategy(barrin(), SideId::A, Some("Barrin"), None).expect("Barrin's controller writes Barrin's");
    let partner = play.state.sides.a.partner.as_ref().expect("a partner");
    assert!(partner.strategies.counting().is_some());
    assert!(play.state.sides.a.strategy.is_none(), "Sai Rei's strategy is its own");
    let stranger = play.strategy(player_b(), SideId::B, Some("Barrin"), None).expect_err("Barrin is on side a");
    assert_eq!(stranger.code, "coalition.battle.not_in_battle");
}

#[test]
fn a_battle_has_at_most_two_armies_a_side_all_of_its_team_seed_003_3_2_5_2() {
    let (armies, mut partners) = two_against_one();
    partners.push(PartnerArmy { side: SideId::A, army: low("Third", Team::Coalition, "x", Color::Red) });
    assert_eq!(
        Play::new(armies.clone(), partners, 0).err().map(|e| e.code).as_deref(),
        Some("coalition.battle.too_many_armies")
    );
    let enemy = vec![PartnerArmy { side: SideId::A, army: low("Rag", Team::Phyrexia, "x", Color::Black) }];
    assert_eq!(Play::new(armies, enemy, 0).err().map(|e| e.code).as_deref(), Some("coalition.battle.partner_team"));
}

#[test]
fn the_size_bonus_is_on_both_armies_combined_troops_under_its_own_formula_seed_003_4_4() {
    let mut play = all_in(1);
    play.bonuses(5, 5);
    let resolution = play.resolve(None);
    let formula = JointFormula::default().size_formula;
    assert_eq!((formula.weighting, formula.scale), (SizeWeighting::PowerToughness, 8));
    let (armies, partners) = two_against_one();
    let a = army_size(&armies.a, formula.weighting) + army_size(&partners[0].army, formula.weighting);
    let b = army_size(&armies.b, formula.weighting);
    let expected = size_bonus(&formula, &Sides { a, b });
    // Two full CPL armies against one: round(8 × (1 − 1/2)) = 4 (seed 003 §4.4 "a slightly different formula").
    assert_eq!(expected.a, 4);
    assert_eq!((resolution.bonuses.a.size, resolution.bonuses.b.size), (expected.a, expected.b));
}

#[test]
fn total_casualties_are_higher_than_normal_seed_003_4_4() {
    let mut play = all_in(2);
    play.bonuses(5, 5);
    let resolution = play.resolve(None);
    let rates = battle_rates(&BattleOptions::default().casualty_formula, &resolution.dice, None);
    for result in &resolution.armies {
        let rate = joint_rate(*rates.get(result.side), 125);
        assert_eq!(result.casualties.rate_tenths_percent, Some(rate), "{}", result.army);
        assert_eq!(result.casualties.losses[0], slot_loss(5000, rate), "{}", result.army);
        assert!(result.participated);
    }
}

#[test]
fn casualties_are_shared_by_the_judges_involvement_shares_seed_003_4_4() {
    let mut play = all_in(3);
    play.bonuses(5, 5);
    let shares = vec![Share { army: "Sai Rei".into(), percent: 70 }, Share { army: "Barrin".into(), percent: 30 }];
    let bad = vec![Share { army: "Sai Rei".into(), percent: 70 }, Share { army: "Barrin".into(), percent: 40 }];
    let refused = play.run(BattleCommand::AssignInvolvement { side: SideId::A, shares: bad }, judge(), before());
    assert_eq!(refused.expect_err("110%").code, "coalition.battle.involvement_total");
    play.run(BattleCommand::AssignInvolvement { side: SideId::A, shares }, judge(), before()).expect("assigned");
    let resolution = play.resolve(None);
    let of = |army: &str| resolution.armies.iter().find(|a| a.army == army).expect("army").clone();
    let (sai_rei, barrin) = (of("Sai Rei"), of("Barrin"));
    assert_eq!((sai_rei.share_percent, barrin.share_percent), (Some(70), Some(30)));
    // Equal armies: the side's total is twice one army's; 70% and 30% of it, give or take rounding.
    let one = sai_rei.casualties.total + barrin.casualties.total;
    assert!(sai_rei.casualties.total > barrin.casualties.total * 2, "{sai_rei:?} {barrin:?}");
    assert!(one > 0);
}

#[test]
fn a_stratless_partner_does_not_take_part_and_the_other_fights_alone_seed_003_4_4() {
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, 4).expect("opened");
    play.strategy(player_a(), SideId::A, None, None).expect("Sai Rei's");
    play.strategy(player_b(), SideId::B, None, None).expect("Darkhand's");
    play.bonuses(6, 6);
    let resolution = play.resolve(None);
    assert_eq!(resolution.alone, vec![SideId::A]);
    assert_eq!(resolution.withdrawn, vec!["Barrin".to_string()]);
    let barrin = resolution.armies.iter().find(|a| a.army == "Barrin").expect("Barrin");
    assert!(!barrin.participated && barrin.casualties.total == 0, "{barrin:?}");
    // As if the joint engagement never happened: one army against one, no size bonus either way.
    assert_eq!((resolution.bonuses.a.size, resolution.bonuses.b.size), (0, 0));
}

#[test]
fn fighting_alone_costs_a_retreat_themed_strategy_a_penalty_seed_003_4_4() {
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, 5).expect("opened");
    play.strategy(player_a(), SideId::A, None, None).expect("Sai Rei's");
    play.strategy(player_b(), SideId::B, None, None).expect("Darkhand's");
    play.bonuses(6, 6);
    let runs = play.resolve(Some(SideId::A));
    assert_eq!(runs.bonuses.a.strategy, 6 - JointFormula::default().retreat_penalty);
    assert_eq!(runs.bonuses.b.strategy, 6);
}

#[test]
fn the_winning_pair_names_which_army_leaves_and_where_seed_003_4_4() {
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, 6).expect("opened");
    let leave = Departure { army: "Barrin".into(), direction: Direction::NorthEast };
    play.strategy(player_a(), SideId::A, None, Some(leave.clone())).expect("Sai Rei names Barrin");
    play.strategy(barrin(), SideId::A, Some("Barrin"), None).expect("Barrin's");
    play.strategy(player_b(), SideId::B, None, None).expect("Darkhand's");
    let stranger = Departure { army: "Darkhand".into(), direction: Direction::North };
    let refused = play.strategy(player_a(), SideId::A, None, Some(stranger)).expect_err("not of side a");
    assert_eq!(refused.code, "coalition.battle.departure_army");
    play.bonuses(10, 0);
    let resolution = play.resolve(None);
    if resolution.winner == SideId::A {
        assert_eq!(resolution.departure, Some(leave));
    } else {
        assert_eq!(resolution.departure, None, "only the winners' departure counts");
    }
}

#[test]
fn a_departure_is_refused_in_a_one_against_one_battle_seed_003_4_4() {
    let events = given([created()])
        .when(
            BattleCommand::SubmitStrategy {
                side: SideId::A,
                strategy: "hold".into(),
                army: None,
                attempt: None,
                departure: Some(Departure { army: "Sai Rei".into(), direction: Direction::South }),
            },
            player_a(),
            before(),
        )
        .then_error("coalition.battle.departure_without_partner");
    assert_eq!(events.rule, "seed 003 §4.4");
}

#[test]
fn an_attempt_against_a_pair_names_its_target_seed_003_4_4() {
    // Darkhand, alone, against the pair.
    let (armies, partners) = two_against_one();
    let mut play = Play::new(armies, partners, 7).expect("opened");
    let kill = |target: Option<&str>| BattleCommand::SubmitStrategy {
        side: SideId::B,
        strategy: "cut down their commander".into(),
        army: None,
        attempt: Some(Attempt { kind: AttemptKind::Kill, target: target.map(str::to_string) }),
        departure: None,
    };
    let refused = play.run(kill(None), player_b(), before()).expect_err("which one?");
    assert_eq!(refused.code, "coalition.battle.attempt_target_required");
    play.run(kill(Some("Barrin")), player_b(), before()).expect("aimed at Barrin");
    play.strategy(player_a(), SideId::A, None, None).expect("Sai Rei's");
    play.strategy(barrin(), SideId::A, Some("Barrin"), None).expect("Barrin's");
    play.bonuses(0, 10);
    play.resolve(None);
    let attempt = play.state.attempts.first().expect("an attempt");
    assert_eq!(attempt.target, "Barrin");
    assert_eq!(CoalitionBattle::fold(&play.events), play.state, "the joint battle replays");
}
