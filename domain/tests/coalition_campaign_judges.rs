//! Judges, their calls and overrules (seed 003 §1.3, §3.3.3) and sanctions (§5.4.1), through
//! `CoalitionCampaign::decide`/`evolve` only.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::{
    coalition::{
        army::{Color, RankClass},
        campaign::{
            judges::{Appointment, Office},
            sanctions::sanction_losses,
            CampaignCommand, CampaignEvent,
        },
        map::Faction,
    },
    Actor, Role,
};
use support::*;

fn seat(id: &str) -> Actor {
    Actor::new(id, Role::Judge)
}

fn admin() -> Actor {
    Actor::new("admin", Role::Admin)
}

fn appoint(judge: &str, office: Office, assistant: bool) -> CampaignCommand {
    CampaignCommand::AppointJudge(Appointment { judge: judge.into(), office, assistant })
}

/// Sai Rei with four full slots (seed 003 §2.1.5) and Rag; the judges appointed by the admin.
fn judged_round() -> Round {
    let factions = [Faction::Red, Faction::Green, Faction::Blue];
    let sai_rei = coalition(
        "Sai Rei",
        RankClass::CplLtCommander,
        factions,
        vec![
            line("Kris Mage", &[Color::Red], 2, 0, 5000, 5000),
            line("Grizzly Bears", &[Color::Green], 3, 1, 2500, 2500),
            line("Hill Giant", &[Color::Red], 4, 2, 1500, 1500),
            line("Craw Wurm", &[Color::Green], 5, 3, 1000, 1000),
        ],
    );
    let mut round =
        Round::create(map(), vec![on(sai_rei, "12E"), on(broodlings("Rag", RankClass::CplLtCommander), "14E")]);
    for (judge, office, assistant) in [
        ("token:head", Office::Battle, false),
        ("token:assistant", Office::Battle, true),
        ("token:movement", Office::Movement, false),
        ("token:mercenary", Office::Mercenary, false),
    ] {
        round.run(appoint(judge, office, assistant), admin()).expect("appointed");
    }
    round
}

fn ruling(army: &str, square: &str) -> CampaignCommand {
    CampaignCommand::RuleOnArmy { army: army.into(), square: sq(square), reason: "a judgement call".into() }
}

fn call_of(events: &[CampaignEvent]) -> u32 {
    events
        .iter()
        .find_map(|event| match event {
            CampaignEvent::ArmyRuledOn { judged: Some(call), .. } => Some(call.call),
            CampaignEvent::SanctionImposed(sanction) => Some(sanction.call.call),
            _ => None,
        })
        .expect("a call")
}

fn overrule(call: u32) -> CampaignCommand {
    CampaignCommand::Overrule { call, reason: "I see it differently".into() }
}

#[test]
fn once_judges_are_appointed_only_they_judge_the_round_each_in_their_position_seed_003_1_3() {
    let mut round = judged_round();
    let open = CampaignCommand::OpenTurn { deadline: at(round.hour + 12), turn_key: None };
    let stranger = round.run(open.clone(), seat("token:stranger")).expect_err("not a judge of this round");
    assert_eq!(stranger, "coalition.campaign.not_a_judge_here");
    let mercenary = round.run(open.clone(), seat("token:mercenary")).expect_err("not the movement judge's work");
    assert_eq!(mercenary, "coalition.campaign.not_a_judge_here");
    round
        .run(open, seat("token:assistant"))
        .expect("an assistant judge is treated exactly as the judge of that position");
    let sanction =
        CampaignCommand::ImposeSanction { player: "sai rei".into(), army: None, severity: 0, reason: "late".into() };
    assert!(round.run(sanction.clone(), seat("token:movement")).is_err(), "sanctions are the battle judge's");
    round.run(sanction, seat("token:assistant")).expect("an assistant battle judge sanctions");
    assert!(
        round.run(ruling("Sai Rei", "12F"), seat("token:mercenary")).is_err(),
        "the mercenary judge rules on mercenaries only"
    );
    let again = round.run(appoint("token:x", Office::Movement, true), seat("token:assistant"));
    assert_eq!(again.expect_err("only the head"), "coalition.campaign.not_head_judge");
    round.assert_replays();
}

#[test]
fn only_the_battle_judge_overrules_the_movement_judge_and_only_the_head_the_assistant_seed_003_3_3_3_and_1_3() {
    let mut round = judged_round();
    let movement_call =
        call_of(&round.run(ruling("Sai Rei", "12F"), seat("token:movement")).expect("a movement ruling"));
    assert_eq!(round.square("Sai Rei"), sq("12F"));
    assert!(round.run(overrule(movement_call), seat("token:movement")).is_err(), "a movement judge overrules nothing");
    round.run(overrule(movement_call), seat("token:assistant")).expect("a battle judge overrules the movement judge");
    assert_eq!(round.square("Sai Rei"), sq("12E"), "a superseding event puts it back: the log is never rewritten");
    assert!(round.events.iter().any(|e| matches!(e, CampaignEvent::ArmyRuledOn { .. })), "the ruling stays in the log");
    assert_eq!(
        round.run(overrule(movement_call), seat("token:head")).expect_err("once"),
        "coalition.campaign.already_overruled"
    );

    let assistant_call =
        call_of(&round.run(ruling("Rag", "15E"), seat("token:assistant")).expect("an assistant's ruling"));
    let head_call = call_of(&round.run(ruling("Rag", "16E"), seat("token:head")).expect("the head's ruling"));
    assert_eq!(
        round.run(overrule(head_call), seat("token:assistant")).expect_err("not the head's"),
        "coalition.campaign.may_not_overrule"
    );
    round.run(overrule(assistant_call), seat("token:head")).expect("the head battle judge overrules the assistant");
    assert_eq!(round.square("Rag"), sq("14E"), "back where the assistant's ruling found it");
    round.assert_replays();
}

#[test]
fn a_sanction_costs_severity_times_a_die_times_100_50_25_10_by_slot_seed_003_5_4_1() {
    let mut round = judged_round();
    let sanction = CampaignCommand::ImposeSanction {
        player: "rag".into(),
        army: Some("Sai Rei".into()),
        severity: 2,
        reason: "posted an order for Sai Rei".into(),
    };
    let events = round.run(sanction, seat("token:head")).expect("sanctioned");
    let CampaignEvent::SanctionImposed(imposed) = &events[0] else { panic!("{events:?}") };
    let die = imposed.draw.as_ref().expect("a recorded die");
    assert_eq!(die.sides, 6);
    let v = die.value;
    assert_eq!(imposed.losses, vec![200 * v, 100 * v, 50 * v, 20 * v], "severity 2 × d6 × (100, 50, 25, 10)");
    assert_eq!(round.troops("Sai Rei"), vec![5000 - 200 * v, 2500 - 100 * v, 1500 - 50 * v, 1000 - 20 * v]);
    assert_eq!(imposed.battle, None);
    assert_eq!(round.state.next_word, imposed.next_word, "the tape continues after the die");
    // Overruling the sanction gives the troops back.
    round.run(overrule(imposed.call.call), seat("token:head")).expect("overruled");
    assert_eq!(round.troops("Sai Rei"), vec![5000, 2500, 1500, 1000]);
    round.assert_replays();
}

#[test]
fn a_sanction_severity_outside_0_to_8_is_a_rule_error_seed_003_5_4_1() {
    use herald_domain::coalition::campaign::sanctions::MAX_SANCTION_SEVERITY;
    assert_eq!(MAX_SANCTION_SEVERITY, 8, "8 × 6 × 100 = 4800: the worst die takes less than a 5000-troop slot");
    let mut round = judged_round();
    let sanction = |severity| CampaignCommand::ImposeSanction {
        player: "rag".into(),
        army: Some("Sai Rei".into()),
        severity,
        reason: "posted an order for Sai Rei".into(),
    };
    for severity in [9, 1000, u32::MAX] {
        assert_eq!(
            round.run(sanction(severity), seat("token:head")).expect_err("out of range"),
            "coalition.campaign.severity_out_of_range",
            "severity {severity}"
        );
    }
    assert_eq!(round.troops("Sai Rei"), vec![5000, 2500, 1500, 1000], "nothing taken");
    let events = round.run(sanction(8), seat("token:head")).expect("the largest severity");
    let CampaignEvent::SanctionImposed(imposed) = &events[0] else { panic!("{events:?}") };
    let v = imposed.draw.as_ref().expect("a die").value;
    assert_eq!(imposed.losses, vec![800 * v, 400 * v, 200 * v, 80 * v]);
    round.assert_replays();
}

#[test]
fn sanction_losses_never_exceed_a_line_and_fill_the_slot_line_by_line_seed_003_5_4_1() {
    let army = coalition(
        "Two lines",
        RankClass::CplLtCommander,
        [Faction::Red, Faction::Green, Faction::Blue],
        vec![
            line("Kris Mage", &[Color::Red], 2, 0, 5000, 300),
            line("Goblin", &[Color::Red], 2, 0, 5000, 900),
            line("Craw Wurm", &[Color::Green], 5, 3, 1000, 5),
        ],
    );
    // Severity 3, die 4: 1200 from slot 0 (300 from the first line, 900 from the second), 120 from
    // slot 3 (only 5 left).
    assert_eq!(sanction_losses(&army, 3, 4), vec![300, 900, 5]);
}

#[test]
fn a_sanction_on_an_army_in_battle_reaches_that_battle_seed_003_5_4_1() {
    let mut round = judged_round();
    round
        .run(CampaignCommand::OpenTurn { deadline: at(round.hour + 12), turn_key: None }, seat("token:movement"))
        .expect("opened");
    round.post("sai rei", "Sai Rei: 12E > 14E; engage Rag").expect("posted");
    round.run(CampaignCommand::LockTurn, seat("token:movement")).expect("locked");
    let battle = the_battle(
        &round
            .run(
                CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed: None },
                seat("token:movement"),
            )
            .expect("adjudicated"),
    );
    let sanction = CampaignCommand::ImposeSanction {
        player: "rag".into(),
        army: Some("Rag".into()),
        severity: 1,
        reason: "late post".into(),
    };
    let events = round.run(sanction, seat("token:head")).expect("sanctioned");
    let CampaignEvent::SanctionImposed(imposed) = &events[0] else { panic!("{events:?}") };
    assert_eq!(
        imposed.battle.as_deref(),
        Some(battle.battle.as_str()),
        "the real controller fights with the reduced numbers"
    );
    round.assert_replays();
}
