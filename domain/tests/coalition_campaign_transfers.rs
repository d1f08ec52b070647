//! Transfers of troops between adjacent friendly armies, through `CoalitionCampaign::decide` and
//! `evolve` only (seed 003 §2.3.3, §3.2.4): the sender loses the troops in the turn's update, the
//! receiver gets them then, at the end of its battle, or never, and a transfer the receiver has no
//! space for does nothing.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Color, RankClass, Team, TroopLine},
    campaign::{CampaignEvent, CoalitionCampaign, Delivery},
    map::Faction,
    orders::{Order, TransferLine},
};
use herald_domain::Decider;
use support::*;

const RGB: [Faction; 3] = [Faction::Red, Faction::Green, Faction::Blue];

/// Sai Rei (Lt Cmdr, R/G/B): 3000 Kris Mages and 2000 Grizzly Bears in its 2/2 slot.
fn sai_rei() -> herald_domain::coalition::army::Army {
    coalition(
        "Sai Rei",
        RankClass::CplLtCommander,
        RGB,
        vec![
            line("Kris Mage", &[Color::Red], 1, 0, 3000, 3000),
            line("Grizzly Bears", &[Color::Green], 2, 0, 2000, 2000),
        ],
    )
}

/// Barrin (Commander, R/G/B): 3000 of 5000 Kris Mages left.
fn barrin() -> herald_domain::coalition::army::Army {
    coalition("Barrin", RankClass::PlaguelordCommander, RGB, vec![line("Kris Mage", &[Color::Red], 1, 0, 5000, 3000)])
}

/// Sai Rei at 10E next to Barrin at 10F, Crovax (Phyrexian) three squares off at 10H.
fn round_with(receiver: herald_domain::coalition::army::Army) -> Round {
    Round::create(
        map(),
        vec![
            on(sai_rei(), "10E"),
            on(receiver, "10F"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "10H"),
        ],
    )
}

fn transfer(to: &str, at: &str, troops: &[(&str, u32)]) -> Order {
    Order::Transfer {
        to: to.to_string(),
        at: sq(at),
        troops: troops
            .iter()
            .map(|(creature, troops)| TransferLine { creature: creature.to_string(), troops: *troops })
            .collect(),
    }
}

/// One turn: each army's own controller posts its structured order, then each text move; lock and
/// adjudicate with `results`.
fn turn(
    round: &mut Round,
    orders: &[(&str, Order)],
    moves: &[&str],
    results: Vec<herald_domain::coalition::campaign::BattleResult>,
) -> Vec<CampaignEvent> {
    round.open();
    for (army, order) in orders {
        round.order(&controller(army), army, order.clone()).unwrap_or_else(|code| panic!("{army}: refused {code}"));
    }
    for text in moves {
        let army = text.split(':').next().unwrap_or_default().trim();
        round.post(&controller(army), text).unwrap_or_else(|code| panic!("{text}: refused {code}"));
    }
    round.adjudicate(results).expect("the turn is adjudicated")
}

/// `(delivery, rule)` of each `TroopsSent`.
fn sent(events: &[CampaignEvent]) -> Vec<(Delivery, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::TroopsSent { delivery, rule, .. } => Some((delivery.clone(), rule.clone())),
            _ => None,
        })
        .collect()
}

/// `(army, lines, rule)` of each `TroopsReceived`.
fn received(events: &[CampaignEvent]) -> Vec<(String, Vec<TransferLine>, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::TroopsReceived { army, lines, rule, .. } => {
                Some((army.clone(), lines.clone(), rule.clone()))
            }
            _ => None,
        })
        .collect()
}

/// `(code, rule)` of each `TransferFailed`.
fn failed(events: &[CampaignEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::TransferFailed { code, rule, .. } => Some((code.clone(), rule.clone())),
            _ => None,
        })
        .collect()
}

/// `(lines, rule)` of each `TransferredTroopsKilled`.
fn killed(events: &[CampaignEvent]) -> Vec<(Vec<TransferLine>, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::TransferredTroopsKilled { lines, rule, .. } => Some((lines.clone(), rule.clone())),
            _ => None,
        })
        .collect()
}

fn lines(round: &Round, army: &str) -> Vec<TroopLine> {
    round.state.armies[army].army.troops.clone()
}

fn index_of(events: &[CampaignEvent], wanted: impl Fn(&CampaignEvent) -> bool) -> usize {
    events.iter().position(wanted).expect("the event is there")
}

#[test]
fn a_receiver_neither_fighting_nor_attacked_gets_the_troops_in_this_update_seed_003_3_2_4_3_1() {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000), ("grizzly  bears", 500)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![]);

    assert_eq!(sent(&events), vec![(Delivery::ThisUpdate, "seed 003 §3.2.4.3.1".to_string())]);
    assert_eq!(received(&events).len(), 1);
    assert!(failed(&events).is_empty());
    // The sender loses the troops, alive and at full strength: healing never brings them back.
    let sender = lines(&round, "Sai Rei");
    assert_eq!((sender[0].troops, sender[0].full), (2000, 2000));
    assert_eq!((sender[1].troops, sender[1].full), (1500, 1500));
    // The Kris Mages join Barrin's own line, taking the places of its lost troops (§2.3.3)…
    let receiver = lines(&round, "Barrin");
    assert_eq!((receiver[0].troops, receiver[0].full), (4000, 5000));
    // …and the Bears are a new line in the smallest slot that fits a 2/2 and has room: the 3/3
    // slot holds 5000 Kris Mages at full strength, so they go to the 4/4 slot.
    assert_eq!(receiver.len(), 2);
    assert_eq!(
        (receiver[1].creature.as_str(), receiver[1].slot, receiver[1].troops, receiver[1].full),
        ("Grizzly Bears", 1, 500, 500)
    );
    assert_eq!(
        round.state.armies["Sai Rei"].army.total_troops() + round.state.armies["Barrin"].army.total_troops(),
        8000
    );
    assert!(round.state.transfers.is_empty());
    round.assert_replays();
}

#[test]
fn a_receiver_attacked_the_turn_of_the_transfer_gets_the_troops_at_the_end_of_that_battle_whatever_the_result_seed_003_3_2_4_3_2(
) {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &["Crovax: 10H > 10F; engage Barrin"], vec![]);

    let battle = the_battle(&events);
    assert_eq!(battle.square, sq("10F"));
    assert_eq!(
        sent(&events),
        vec![(Delivery::AfterBattle { battle: battle.battle.clone() }, "seed 003 §3.2.4.3.2".into())]
    );
    assert!(received(&events).is_empty(), "not before the battle ends");
    assert_eq!(round.troops("Sai Rei"), vec![2000, 2000], "the sender loses them now (§3.2.4.3.4)");
    assert_eq!(round.troops("Barrin"), vec![3000], "Barrin fights without them");
    assert_eq!(round.state.transfers.len(), 1);
    assert_eq!(round.state.transfers[0].battle, battle.battle);

    // Barrin loses the battle: the troops still reach it, after its losses.
    let result = battle.result(Team::Phyrexia, &[("Barrin", vec![500])], &[]);
    let events = turn(&mut round, &[], &[], vec![result]);
    assert_eq!(
        received(&events),
        vec![(
            "Barrin".into(),
            vec![TransferLine { creature: "Kris Mage".into(), troops: 1000 }],
            "seed 003 §3.2.4.3.2".into()
        )]
    );
    let applied = index_of(&events, |e| matches!(e, CampaignEvent::BattleResultApplied { .. }));
    let arrived = index_of(&events, |e| matches!(e, CampaignEvent::TroopsReceived { .. }));
    assert!(applied < arrived, "at the end of the battle");
    assert_eq!(round.troops("Barrin"), vec![3500]);
    assert_ne!(round.square("Barrin"), sq("10F"), "the loser was moved off, and received them all the same");
    assert!(round.state.transfers.is_empty());
    round.assert_replays();
}

#[test]
fn troops_waiting_for_a_battle_die_with_a_receiver_killed_in_it_seed_003_3_2_4_3_2_and_4_3_1() {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000)]);
    let battle = the_battle(&turn(&mut round, &[("Sai Rei", order)], &["Crovax: 10H > 10F; engage Barrin"], vec![]));
    let result = battle.result(Team::Phyrexia, &[("Barrin", vec![3000])], &["Barrin"]);
    let events = turn(&mut round, &[], &[], vec![result]);
    assert!(received(&events).is_empty());
    let dead = killed(&events);
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].0, vec![TransferLine { creature: "Kris Mage".into(), troops: 1000 }]);
    assert!(round.state.killed.contains("Barrin"));
    assert_eq!(round.troops("Sai Rei"), vec![2000, 2000]);
    assert!(round.state.transfers.is_empty());
    round.assert_replays();
}

/// Crovax attacks Barrin at 10F; returns the battle, fought during the next turn.
fn barrin_in_battle(round: &mut Round) -> Announced {
    let battle = the_battle(&round.play_orders(&["Crovax: 10H > 10F; engage Barrin"], vec![]));
    assert_eq!(battle.square, sq("10F"));
    battle
}

#[test]
fn a_receiver_in_battle_gets_the_troops_at_its_end_when_it_wins_seed_003_3_2_4_3_3() {
    let mut round = round_with(barrin());
    let battle = barrin_in_battle(&mut round);
    let result = battle.result(Team::Coalition, &[("Barrin", vec![1000])], &[]);
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1500)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![result]);

    assert_eq!(sent(&events), vec![(Delivery::ThisUpdate, "seed 003 §3.2.4.3.3".into())]);
    assert_eq!(received(&events).len(), 1);
    assert!(killed(&events).is_empty());
    assert_eq!(round.troops("Barrin"), vec![3500], "3000 - 1000 lost + 1500 received");
    assert_eq!(round.troops("Sai Rei"), vec![1500, 2000]);
    round.assert_replays();
}

#[test]
fn a_receiver_in_battle_that_loses_it_has_the_transferred_troops_all_killed_seed_003_3_2_4_3_3() {
    let mut round = round_with(barrin());
    let battle = barrin_in_battle(&mut round);
    let result = battle.result(Team::Phyrexia, &[("Barrin", vec![1000])], &[]);
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1500)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![result]);

    assert_eq!(sent(&events).len(), 1, "the sender still sends them");
    assert!(received(&events).is_empty());
    assert_eq!(
        killed(&events),
        vec![(vec![TransferLine { creature: "Kris Mage".into(), troops: 1500 }], "seed 003 §3.2.4.3.3".into())]
    );
    assert_eq!(round.troops("Sai Rei"), vec![1500, 2000], "the sender lost them");
    assert_eq!(round.troops("Barrin"), vec![2000], "Barrin got nothing");
    round.assert_replays();
}

#[test]
fn a_sender_attacked_the_turn_it_transfers_loses_the_troops_before_the_battle_is_announced_seed_003_3_2_4_3_4() {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 2000)]);
    // Crovax moves 3 squares west over Barrin's square to attack Sai Rei (§3.2.2.1).
    let events = turn(&mut round, &[("Sai Rei", order)], &["Crovax: 10H > 10E; engage Sai Rei"], vec![]);

    let battle = the_battle(&events);
    assert_eq!(battle.square, sq("10E"));
    assert!(battle.armies().contains(&"Sai Rei".to_string()));
    let sent_at = index_of(&events, |e| matches!(e, CampaignEvent::TroopsSent { .. }));
    let announced_at = index_of(&events, |e| matches!(e, CampaignEvent::BattleAnnounced { .. }));
    assert!(sent_at < announced_at, "the troops leave before the battle is announced");
    assert_eq!(round.troops("Sai Rei"), vec![1000, 2000], "Sai Rei fights without the 2000 Kris Mages");
    assert_eq!(round.troops("Barrin"), vec![5000], "Barrin, not attacked, has them at once (§3.2.4.3.1)");
    round.assert_replays();
}

#[test]
fn a_receiver_that_moves_away_does_not_receive_the_troops_and_nothing_moves_seed_003_3_2_4_1() {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &["Barrin: 10F > 12F"], vec![]);

    assert_eq!(
        failed(&events),
        vec![("coalition.campaign.transfer_receiver_moved".into(), "seed 003 §3.2.4.1".into())]
    );
    assert!(sent(&events).is_empty() && received(&events).is_empty());
    assert_eq!(round.troops("Sai Rei"), vec![3000, 2000]);
    assert_eq!(round.troops("Barrin"), vec![3000]);
    assert_eq!(round.square("Barrin"), sq("12F"));
    round.assert_replays();
}

#[test]
fn a_seventh_creature_type_does_not_fit_even_when_one_type_has_none_left_seed_003_2_3_3() {
    let six = coalition(
        "Barrin",
        RankClass::PlaguelordCommander,
        RGB,
        vec![
            line("Raging Goblin", &[Color::Red], 1, 0, 500, 500),
            line("Llanowar Elves", &[Color::Green], 1, 0, 500, 500),
            line("Coral Merfolk", &[Color::Blue], 2, 0, 500, 500),
            line("Storm Crow", &[Color::Blue], 1, 0, 500, 500),
            line("Giant Spider", &[Color::Green], 2, 0, 500, 500),
            // No troops left, but still one of its 6 types (§2.3.3).
            line("Mons's Goblin Raiders", &[Color::Red], 1, 0, 500, 0),
        ],
    );
    let mut round = round_with(six);
    let order = transfer("Barrin", "10F", &[("Kris Mage", 100)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![]);

    let failures = failed(&events);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].0, "coalition.campaign.transfer_no_space");
    assert!(failures[0].1.starts_with("seed 003 §2.3.3"), "{}", failures[0].1);
    assert!(failures[0].1.contains("too_many_creature_types"), "{}", failures[0].1);
    assert_eq!(round.troops("Sai Rei"), vec![3000, 2000], "nothing moved");
    assert_eq!(round.state.armies["Barrin"].army.troops.len(), 6);
    round.assert_replays();
}

#[test]
fn troops_overflowing_the_receivers_slot_do_not_fit_seed_003_2_3_3_and_2_1() {
    let full = coalition(
        "Barrin",
        RankClass::PlaguelordCommander,
        RGB,
        vec![line("Kris Mage", &[Color::Red], 1, 0, 5000, 4500)],
    );
    let mut round = round_with(full);
    // 4500 + 1000 Kris Mages would be 5500 in a slot of 5000.
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![]);

    let failures = failed(&events);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].0, "coalition.campaign.transfer_no_space");
    assert!(failures[0].1.contains("slot_overfull"), "{}", failures[0].1);
    assert_eq!(round.troops("Sai Rei"), vec![3000, 2000]);
    assert_eq!(round.troops("Barrin"), vec![4500]);

    // 500 fit: they take the places of the lost troops.
    let order = transfer("Barrin", "10F", &[("Kris Mage", 500)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![]);
    assert!(failed(&events).is_empty());
    assert_eq!(round.troops("Barrin"), vec![5000]);
    round.assert_replays();
}

#[test]
fn a_creature_outside_the_receivers_colors_does_not_fit_seed_003_2_3_3_and_2_2_1() {
    let white = coalition(
        "Sai Rei",
        RankClass::CplLtCommander,
        [Faction::White, Faction::Blue, Faction::Black],
        vec![line("Savannah Lions", &[Color::White], 1, 0, 3000, 3000)],
    );
    let mut round = Round::create(map(), vec![on(white, "10E"), on(barrin(), "10F")]);
    let order = transfer("Barrin", "10F", &[("Savannah Lions", 1000)]);
    let events = turn(&mut round, &[("Sai Rei", order)], &[], vec![]);

    let failures = failed(&events);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].0, "coalition.campaign.transfer_no_space");
    assert!(failures[0].1.contains("§2.2.1"), "{}", failures[0].1);
    assert_eq!(round.troops("Sai Rei"), vec![3000]);
    assert_eq!(round.troops("Barrin"), vec![3000]);
    round.assert_replays();
}

#[test]
fn a_sender_without_that_many_troops_transfers_nothing_seed_003_2_3_3() {
    let mut round = round_with(barrin());
    let too_many = transfer("Barrin", "10F", &[("Kris Mage", 1000), ("Grizzly Bears", 2001)]);
    let events = turn(&mut round, &[("Sai Rei", too_many)], &[], vec![]);
    assert_eq!(failed(&events), vec![("coalition.campaign.transfer_lacks_troops".into(), "seed 003 §2.3.3".into())]);
    assert_eq!(round.troops("Sai Rei"), vec![3000, 2000], "not even the Kris Mages move");
    assert_eq!(round.troops("Barrin"), vec![3000]);

    let unknown = transfer("Barrin", "10F", &[("Serra Angel", 1)]);
    let events = turn(&mut round, &[("Sai Rei", unknown)], &[], vec![]);
    assert_eq!(failed(&events), vec![("coalition.campaign.transfer_lacks_troops".into(), "seed 003 §2.3.3".into())]);
    round.assert_replays();
}

#[test]
fn a_transfer_naming_no_troops_does_nothing_seed_003_3_2_4_2() {
    let mut round = round_with(barrin());
    // The text format names no troops: they are sent to the judge separately, or not at all.
    let events = round.play_orders(&["Sai Rei: Transfer to Barrin at 10F"], vec![]);
    assert_eq!(failed(&events), vec![("coalition.campaign.transfer_empty".into(), "seed 003 §3.2.4.2".into())]);
    assert!(sent(&events).is_empty());
    assert_eq!(round.troops("Sai Rei"), vec![3000, 2000]);
    assert_eq!(round.troops("Barrin"), vec![3000]);
    assert_eq!(report(&events, "Sai Rei").from, sq("10E"));

    let zero = transfer("Barrin", "10F", &[("Kris Mage", 0)]);
    let events = turn(&mut round, &[("Sai Rei", zero)], &[], vec![]);
    assert_eq!(failed(&events), vec![("coalition.campaign.transfer_empty".into(), "seed 003 §3.2.4.2".into())]);
    round.assert_replays();
}

#[test]
fn transfers_replay_to_the_same_events_and_folding_them_gives_the_state_seed_003_3_2_4() {
    let mut round = round_with(barrin());
    let order = transfer("Barrin", "10F", &[("Kris Mage", 1000), ("Grizzly Bears", 500)]);
    let battle = the_battle(&turn(&mut round, &[("Sai Rei", order)], &["Crovax: 10H > 10F; engage Barrin"], vec![]));
    // Mid-flight: the pending transfer is part of the folded state.
    assert_eq!(CoalitionCampaign::fold(round.events.iter()), round.state);
    let result = battle.result(Team::Coalition, &[("Barrin", vec![700])], &[]);
    let order = transfer("Barrin", "10F", &[("Kris Mage", 200)]);
    turn(&mut round, &[("Sai Rei", order)], &[], vec![result]);
    round.assert_replays();

    let again = round.replay_log(KEY);
    assert_eq!(again.events, round.events, "the same commands decide the same events");
    assert_eq!(again.state, round.state);
    let received: u32 = round
        .events
        .iter()
        .filter_map(|e| match e {
            CampaignEvent::TroopsReceived { lines, .. } => Some(lines.iter().map(|l| l.troops).sum::<u32>()),
            _ => None,
        })
        .sum();
    assert_eq!(received, 1700);
}
