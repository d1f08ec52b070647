//! Attacks and defences (seed 004 "Attacks", "Modifiers ToHit", "InClose Combat", "Defences.",
//! "Pools.", "Reach Weapons.", "Cover", "Special Tactics.", "Special Results.", "Mobs, Crowds
//! and Hordes.").

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    battle::{
        command::{DefenceChoice, SwiftSwordsCommand as C},
        event::SwiftSwordsEvent as E,
        pending::{AttackOptions, AttackPurpose, Pending},
        state::{DefenceLimit, StateKind},
    },
    damage::{Advantage, SpecialResult, Tactic},
    defence::dodge,
    figure::{FigureSpec, WeaponKind, Weight},
    formation::{FormationKind, FormationSpec},
    options::BattleOptions,
    zones::{BorderCover, CoverArea, CoverLevel, CoverShape},
};
use support::*;

fn duel() -> Setup {
    Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")])
}

/// A battle where roland may act now and the goblin waits.
fn roland_to_act(setup: &Setup, n: u64) -> Battle {
    let mut battle = Battle::begun(setup, n);
    for figure in &setup.figures {
        battle.hand(&figure.id, &[]);
    }
    battle.hand("roland", &[6, 6, 6, 6]);
    battle
}

#[test]
fn the_target_declares_its_defence_before_the_attack_is_rolled_per_seed_004_defences() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[5, 2]);
    battle.hand("goblin-1", &[4, 4, 4]);
    let declared = battle.gm(attack("goblin-1", "Spear", "roland"));
    assert!(attacks(&declared).is_empty(), "nothing is rolled until roland answers");
    assert!(matches!(battle.state.pending.last(), Some(Pending::Attack(attack)) if attack.target == "roland"));
    assert_refused(
        battle.attempt(gm(), C::Hold { figure: "goblin-1".into() }),
        "swift-swords.awaiting_defence",
        "Defences.",
    );
    assert_refused(
        battle.attempt(bob(), defend("roland", DefenceChoice::Dodge)),
        "swift-swords.not_your_figure",
        "swift-swords",
    );
    let events = battle.by(alice(), defend("roland", DefenceChoice::Dodge));
    let declared_at = events.iter().position(|event| matches!(event, E::DefenceDeclared { .. })).expect("a dodge");
    let resolved_at = events.iter().position(|event| matches!(event, E::AttackResolved { .. })).expect("the attack");
    assert!(declared_at < resolved_at, "the dodge is rolled before the attack");
    assert_eq!(battle.figure("roland").hand, vec![5], "a full action die (the lowest not a 1) paid for the dodge");
}

#[test]
fn a_defence_paid_with_a_one_in_the_hand_is_refused_as_a_one_per_seed_004_defences() {
    // Seed 004 "Defences.": "All defences require a full action dice (use an AD, not a 1)".
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[1, 5]);
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.gm(attack("goblin-1", "Spear", "roland"));
    let with = |pay: u8| C::Defend {
        figure: "roland".into(),
        defence: DefenceChoice::Dodge,
        pay: Some(pay),
        effort: false,
        bump: false,
        counter: false,
        counter_weapon: None,
        take_rank: false,
    };
    assert_refused(battle.attempt(alice(), with(1)), "swift-swords.ones_cannot_pay", "Defences.");
    assert_refused(battle.attempt(alice(), with(6)), "swift-swords.die_not_in_hand", "Defences.");
    battle.by(alice(), with(5));
    assert_eq!(battle.figure("roland").hand, vec![1]);
}

#[test]
fn a_figure_without_a_die_other_than_one_cannot_defend_and_the_attack_goes_ahead_per_seed_004_defences() {
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[1, 1]);
    battle.hand("goblin-1", &[4, 4, 4]);
    let events = battle.gm(attack("goblin-1", "Spear", "roland"));
    assert_eq!(attacks(&events).len(), 1, "resolved at once");
    assert!(battle.state.pending.is_empty());
}

#[test]
fn ones_up_to_the_hits_are_exposures_and_more_ones_than_successes_are_a_fumble_per_seed_004_attacks() {
    let (_, (ones, exposures)) = find_seed(500, |n| {
        let mut battle = roland_to_act(&duel(), n);
        let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
        let record = attacks(&events)[0].clone();
        let roll = record.roll.clone()?;
        (roll.ones > 0 && roll.ones <= roll.successes).then(|| (roll.ones, battle.figure("roland").exposures))
    });
    assert_eq!(exposures, ones, "the 1s lie in front of the attacker");
    let (_, fumbled) = find_seed(500, |n| {
        let mut battle = roland_to_act(&duel(), n);
        let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
        let record = attacks(&events)[0].clone();
        let roll = record.roll.clone()?;
        (roll.ones > roll.successes).then(|| (record.fumble, record.exposures, battle.figure("roland").fumbled))
    });
    assert_eq!(fumbled, (true, 0, true), "a fumble marks the attacker and leaves no exposures");
}

#[test]
fn the_next_attacker_picks_up_the_exposure_dice_which_last_until_the_exposed_figures_next_action_per_seed_004_attacks()
{
    let mut battle = roland_to_act(&duel(), 1);
    battle.inject(E::ExposuresChanged {
        figure: "goblin-1".into(),
        exposures: 2,
        fumbled: false,
        reason: "test".into(),
    });
    let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    assert_eq!(attacks(&events)[0].dice.exposures_picked, 2);
    assert_eq!(attacks(&events)[0].dice.total, 6);
    assert_eq!(battle.figure("goblin-1").exposures, 0, "picked up");
    let mut battle = roland_to_act(&duel(), 1);
    battle.inject(E::ExposuresChanged { figure: "roland".into(), exposures: 2, fumbled: true, reason: "test".into() });
    let events = battle.by(alice(), C::Withdraw { figure: "roland".into(), pay: None });
    assert!(events
        .iter()
        .any(|event| matches!(event, E::ActionBegun { cleared_exposures: 2, cleared_fumble: true, .. })));
    assert_eq!((battle.figure("roland").exposures, battle.figure("roland").fumbled), (0, false));
}

#[test]
fn attackers_of_a_fumbled_figure_succeed_on_four_to_six_per_seed_004_attacks() {
    let mut battle = roland_to_act(&duel(), 2);
    battle.inject(E::ExposuresChanged {
        figure: "goblin-1".into(),
        exposures: 0,
        fumbled: true,
        reason: "test".into(),
    });
    let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    let record = attacks(&events)[0];
    assert_eq!(record.roll.as_ref().map(|roll| roll.threshold), Some(4));
    assert_eq!(record.dice.superiority, vec!["target fumbled".to_string()]);
}

#[test]
fn more_friends_in_contact_give_a_minor_advantage_and_twice_as_many_a_major_one_per_seed_004_modifiers_tohit() {
    let aria = FigureSpec { controller: Some("alice".into()), ..grouped(figure("aria", "heroes", "a"), "melee") };
    let two_on_one =
        Setup::of(vec![grouped(roland("a"), "melee"), aria.clone(), grouped(goblin("goblin-1", "a"), "melee")]);
    let mut battle = roland_to_act(&two_on_one, 0);
    let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    assert_eq!((attacks(&events)[0].dice.advantage, attacks(&events)[0].dice.advantage_dice), (Advantage::Major, 2));
    let three_on_two = Setup::of(vec![
        grouped(roland("a"), "melee"),
        aria,
        grouped(FigureSpec { controller: Some("alice".into()), ..figure("bran", "heroes", "a") }, "melee"),
        grouped(goblin("goblin-1", "a"), "melee"),
        grouped(goblin("goblin-2", "a"), "melee"),
    ]);
    let mut battle = roland_to_act(&three_on_two, 0);
    let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    assert_eq!((attacks(&events)[0].dice.advantage, attacks(&events)[0].dice.advantage_dice), (Advantage::Minor, 1));
    let mut battle = roland_to_act(&duel(), 0);
    let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    assert_eq!(attacks(&events)[0].dice.advantage, Advantage::None);
}

#[test]
fn inclose_light_weapons_gain_a_superiority_level_and_heavy_ones_are_dropped_per_seed_004_inclose_combat() {
    let armed = FigureSpec {
        weapons: vec![weapon("Dagger", 3, Weight::Light), weapon("Great Sword", 5, Weight::Heavy)],
        ..roland("a")
    };
    let setup = Setup::of(vec![grouped(armed, "melee"), grouped(goblin("goblin-1", "a"), "melee")]);
    let mut battle = roland_to_act(&setup, 0);
    battle.by(alice(), C::CloseIn { figure: "roland".into(), target: "goblin-1".into(), pay: Some(vec![6]) });
    assert!(
        battle.figure("roland").prone && battle.figure("goblin-1").prone,
        "both prone: neither 3x the other's size"
    );
    assert!(battle.figure("roland").dropped.contains("Great Sword"), "heavy weapons are dropped");
    assert_refused(
        battle.attempt(alice(), attack("roland", "Great Sword", "goblin-1")),
        "swift-swords.weapon_not_in_hand",
        "Attacks",
    );
    let events = battle.by(alice(), attack("roland", "Dagger", "goblin-1"));
    let record = attacks(&events)[0];
    assert_eq!(record.roll.as_ref().map(|roll| roll.threshold), Some(4), "Light weapons gain an automatic SL InClose");
}

#[test]
fn a_figure_three_times_its_opponents_size_stays_standing_inclose_and_four_legs_count_per_seed_004_inclose_combat() {
    let troll =
        FigureSpec { size: 2, legs: 4, weapons: vec![weapon("Claws", 4, Weight::Medium)], ..goblin("troll", "a") };
    let setup = Setup::of(vec![grouped(roland("a"), "melee"), grouped(troll, "melee")]);
    let mut battle = roland_to_act(&setup, 0);
    battle.by(alice(), C::CloseIn { figure: "roland".into(), target: "troll".into(), pay: Some(vec![6]) });
    assert!(battle.figure("roland").prone);
    assert!(!battle.figure("troll").prone, "size 2 and the stability of four legs: 3, three times a man");
    battle.hand("roland", &[6, 6]);
    let events = battle.by(alice(), C::KnockDown { figure: "roland".into(), target: "troll".into(), pay: None });
    let won = events.iter().find_map(|event| match event {
        E::ContestRolled { won, roll, opponent_roll, .. } => Some((*won, roll.dice, opponent_roll.dice)),
        _ => None,
    });
    let (won, mine, theirs) = won.expect("BODY against BODY");
    assert_eq!((mine, theirs), (4, 4 + 2), "the size difference adds to the troll's BODY");
    assert_eq!(battle.figure("troll").prone, won);
}

#[test]
fn a_reach_weapon_strikes_from_alone_without_contact_and_not_from_contact_per_seed_004_reach_weapons() {
    let spearman = FigureSpec { weapons: vec![WeaponSpec2::reach("Pike", 4)], ..roland("a") };
    let setup = Setup::of(vec![spearman, goblin("goblin-1", "a")]);
    let mut battle = roland_to_act(&setup, 0);
    battle.by(alice(), attack("roland", "Pike", "goblin-1"));
    assert_eq!(battle.figure("roland").group, None, "still Alone");
    let setup = Setup::of(vec![
        grouped(FigureSpec { weapons: vec![WeaponSpec2::reach("Pike", 4)], ..roland("a") }, "melee"),
        grouped(goblin("goblin-1", "a"), "melee"),
    ]);
    let mut battle = roland_to_act(&setup, 0);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Pike", "goblin-1")),
        "swift-swords.reach_in_contact",
        "Reach Weapons.",
    );
}

struct WeaponSpec2;

impl WeaponSpec2 {
    fn reach(name: &str, dice: u8) -> herald_domain::swift_swords::figure::WeaponSpec {
        herald_domain::swift_swords::figure::WeaponSpec {
            kind: WeaponKind::Reach,
            ..weapon(name, dice, Weight::Medium)
        }
    }
}

#[test]
fn missiles_lose_dice_to_range_and_to_the_worst_cover_crossed_per_seed_004_cover() {
    let archer = FigureSpec { weapons: vec![missile("Bow", 5, WeaponKind::Fired, 3)], ..roland("a") };
    let mut setup = Setup::of(vec![archer, goblin("goblin-1", "c")]);
    setup.map.borders = vec![
        BorderCover { a: "b".into(), b: "c".into(), cover: CoverLevel::HardHeavy, name: "wall".into() },
        BorderCover { a: "a".into(), b: "b".into(), cover: CoverLevel::SoftLight, name: "reeds".into() },
    ];
    let mut battle = roland_to_act(&setup, 0);
    let events = battle.by(alice(), attack("roland", "Bow", "goblin-1"));
    let penalties: Vec<(String, u32)> =
        attacks(&events)[0].dice.penalties.iter().map(|p| (p.reason.clone(), p.dice)).collect();
    assert!(penalties.iter().any(|(reason, dice)| reason.contains("HardHeavy") && *dice == 2), "{penalties:?}");
    assert!(penalties.iter().any(|(reason, dice)| reason.starts_with("range") && *dice == 1), "{penalties:?}");
    assert_eq!(attacks(&events)[0].dice.total, 5 - 3);
    let mut far = Setup::of(vec![
        FigureSpec { weapons: vec![missile("Sling", 3, WeaponKind::Fired, 1)], ..roland("a") },
        goblin("goblin-1", "c"),
    ]);
    far.map.borders.clear();
    let mut battle = roland_to_act(&far, 0);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Sling", "goblin-1")),
        "swift-swords.out_of_range",
        "Range Modifiers ToHit",
    );
}

#[test]
fn the_holders_of_area_cover_count_its_benefit_against_attackers_outside_it_per_seed_004_cover() {
    let archer = FigureSpec { weapons: vec![missile("Bow", 5, WeaponKind::Fired, 3)], ..roland("a") };
    let mut hidden = goblin("goblin-1", "b");
    hidden.start.cover = Some("thicket".into());
    let mut setup = Setup::of(vec![archer, hidden]);
    setup.map.cover = vec![CoverArea {
        id: "thicket".into(),
        zone: "b".into(),
        shape: CoverShape::Area,
        cover: CoverLevel::SoftMedium,
    }];
    let mut battle = roland_to_act(&setup, 0);
    let events = battle.by(alice(), attack("roland", "Bow", "goblin-1"));
    assert!(attacks(&events)[0].dice.penalties.iter().any(|p| p.reason.contains("thicket") && p.dice == 2));
}

#[test]
fn a_dodge_counts_one_success_fewer_against_a_fired_missile_per_seed_004_dodge() {
    assert_eq!(dodge(3, 4, true).removed, 2, "3 successes count as 2");
    assert_eq!(dodge(3, 4, false).removed, 3);
    let archer = FigureSpec { weapons: vec![missile("Bow", 4, WeaponKind::Fired, 2)], ..goblin("goblin-1", "b") };
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), archer]), 0);
    battle.hand("roland", &[1]);
    battle.hand("goblin-1", &[4, 4]);
    battle.inject(E::DefencePoolsChanged { figure: "roland".into(), dodge: 3, block: 0, reason: "test".into() });
    let events = battle.gm(attack("goblin-1", "Bow", "roland"));
    let record = attacks(&events)[0];
    assert_eq!(record.dodge.as_ref().map(|used| (used.effective, used.removed, used.pool_after)), Some((2, 2, 2)));
}

#[test]
fn a_parry_turns_missed_dice_into_exposures_that_the_defender_may_take_for_a_counter_per_seed_004_parry() {
    let (n, (record, counter, exposures)) = find_seed(2_000, |n| {
        let mut battle = Battle::begun(&duel(), n);
        battle.hand("roland", &[5, 5]);
        battle.hand("goblin-1", &[4, 4, 4]);
        battle.gm(attack("goblin-1", "Spear", "roland"));
        let parry = C::Defend {
            figure: "roland".into(),
            defence: DefenceChoice::Parry,
            pay: None,
            effort: false,
            bump: false,
            counter: true,
            counter_weapon: None,
            take_rank: false,
        };
        battle.attempt(alice(), parry).ok()?;
        let records = attacks(&battle.events);
        let first = records.first()?;
        let converted = first.parry.as_ref()?.converted;
        (converted > 0 && battle.figure("roland").active()).then(|| {
            let counter =
                records.iter().find(|record| record.purpose == AttackPurpose::Counter).map(|record| (*record).clone());
            ((*first).clone(), counter, battle.figure("goblin-1").exposures)
        })
    });
    let parry = record.parry.as_ref().expect("a parry");
    let misses = record.roll.as_ref().map_or(0, |roll| roll.misses());
    assert_eq!(parry.converted, parry.roll.successes.min(misses), "seed {n}: one miss per parry success");
    let counter = counter.expect("the counter-attack");
    assert_eq!(counter.attacker, "roland");
    assert_eq!(counter.dice.weapon, 0, "the counter rolls the exposure dice only");
    assert_eq!(counter.dice.exposures_picked, parry.converted + record.exposures);
    let own = counter.roll.as_ref().map_or(0, |roll| if counter.fumble { 0 } else { roll.ones });
    assert_eq!(exposures, 0, "all the exposures were taken ({own} of roland's own 1s lie in front of roland)");
}

#[test]
fn passive_armour_stops_successes_before_damage_per_seed_004_damage() {
    let armoured = FigureSpec { armour: 2, ..goblin("goblin-1", "a") };
    let setup = Setup::of(vec![grouped(roland("a"), "melee"), grouped(armoured, "melee")]);
    let (_, record) = find_seed(500, |n| {
        let mut battle = roland_to_act(&setup, n);
        let events = battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
        let record = attacks(&events)[0].clone();
        (record.roll.as_ref()?.successes >= 3).then_some(record)
    });
    let successes = record.roll.as_ref().map_or(0, |roll| roll.successes);
    assert_eq!((record.armour, record.hits, record.damage), (2, successes - 2, successes - 2));
}

#[test]
fn a_mental_attack_damages_mental_ranks_and_no_physical_defence_stops_it_per_seed_004_mental_damage() {
    let witch =
        FigureSpec { weapons: vec![missile("Dread Gaze", 5, WeaponKind::Mental, 1)], ..goblin("goblin-1", "b") };
    let (_, battle) = find_seed(500, |n| {
        let mut battle = Battle::begun(&Setup::of(vec![roland("a"), witch.clone()]), n);
        battle.hand("roland", &[5, 5]);
        battle.hand("goblin-1", &[4, 4, 4]);
        let events = battle.gm(attack("goblin-1", "Dread Gaze", "roland"));
        (attacks(&events).first()?.damage > 0).then_some(battle)
    });
    assert!(battle.state.pending.is_empty(), "no defence was awaited");
    let roland = battle.figure("roland");
    assert!(roland.states.contains(&StateKind::Shock) || roland.mental.lost > 0);
    assert_eq!(roland.physical.lost, 0);
}

#[test]
fn a_level_zero_creature_is_defeated_by_the_mere_effort_without_a_roll_per_seed_004_level_0() {
    let rat = FigureSpec { physical: 0, ..goblin("rat", "a") };
    let mut battle = roland_to_act(
        &Setup::of(vec![grouped(roland("a"), "melee"), grouped(rat, "melee"), goblin("goblin-1", "d")]),
        0,
    );
    let events = battle.by(alice(), attack("roland", "Broadsword", "rat"));
    assert!(attacks(&events)[0].level_zero && attacks(&events)[0].roll.is_none());
    assert!(battle.figure("rat").out_of_action);
}

#[test]
fn an_all_out_attack_combines_both_attacks_and_leaves_no_defence_per_seed_004_special_tactics() {
    let mut battle = roland_to_act(&duel(), 0);
    battle.hand("roland", &[4, 4, 4, 1]);
    let events = battle.by(alice(), tactic("roland", "Broadsword", &["goblin-1"], Tactic::AllOut));
    assert_eq!(attacks(&events)[0].dice.all_out, 4, "both attacks' dice in one roll");
    assert_eq!(battle.figure("roland").hand, vec![4, 1], "two attacks' cost");
    if battle.state.ended() {
        return;
    }
    assert_eq!(battle.figure("roland").defence_limit, DefenceLimit::None);
}

#[test]
fn a_double_strike_makes_two_attacks_and_leaves_only_dodge_per_seed_004_special_tactics() {
    let tough = FigureSpec { physical: 9, mental: 9, ..goblin("goblin-1", "a") };
    let mut battle = roland_to_act(&Setup::of(vec![grouped(roland("a"), "melee"), grouped(tough, "melee")]), 0);
    let events = battle.by(alice(), tactic("roland", "Broadsword", &["goblin-1"], Tactic::DoubleStrike));
    assert_eq!(attacks(&events).len(), 2, "one after the other");
    assert_eq!(battle.figure("roland").defence_limit, DefenceLimit::DodgeOnly);
}

#[test]
fn a_follow_on_strikes_a_second_opponent_when_the_first_falls_per_seed_004_special_tactics() {
    let setup = Setup::of(vec![
        grouped(FigureSpec { weapons: vec![weapon("Great Axe", 8, Weight::Heavy)], ..roland("a") }, "melee"),
        grouped(FigureSpec { physical: 1, ..goblin("goblin-1", "a") }, "melee"),
        grouped(goblin("goblin-2", "a"), "melee"),
    ]);
    let options = AttackOptions { follow_on_target: Some("goblin-2".into()), ..AttackOptions::default() };
    let (_, events) = find_seed(500, |n| {
        let mut battle = roland_to_act(&setup, n);
        let command = match attack_with("roland", "Great Axe", &["goblin-1"], options.clone()) {
            C::Attack { figure, weapon, targets, charge, options, pay, .. } => {
                C::Attack { figure, weapon, targets, charge, tactic: Tactic::FollowOn, options, pay }
            }
            other => other,
        };
        let events = battle.by(alice(), command);
        (!battle.figure("goblin-1").active()).then_some(events)
    });
    let records = attacks(&events);
    assert_eq!(records.len(), 2);
    assert_eq!((records[1].target.as_str(), records[1].purpose), ("goblin-2", AttackPurpose::FollowOn));
}

#[test]
fn a_mob_gains_dice_and_strikes_separate_targets_with_one_attack_per_seed_004_mobs() {
    let mob = FigureSpec {
        formation: Some(FormationSpec { kind: FormationKind::Mob, members: 4 }),
        controller: None,
        ..grouped(goblin("mob", "a"), "melee")
    };
    let aria =
        FigureSpec { controller: Some("alice".into()), physical: 9, ..grouped(figure("aria", "heroes", "a"), "melee") };
    let tough = FigureSpec { physical: 9, ..grouped(roland("a"), "melee") };
    let mut battle = Battle::begun(
        &Setup::of(vec![tough, aria, mob]).with(BattleOptions {
            major_advantage_dice: 0,
            minor_advantage_dice: 0,
            ..BattleOptions::default()
        }),
        0,
    );
    battle.hand("roland", &[1]);
    battle.hand("aria", &[1]);
    battle.hand("mob", &[6, 6]);
    assert_eq!(battle.figure("mob").physical.rank, 3, "+1 physical level");
    assert_refused(
        battle.attempt(gm(), attack_with("mob", "Spear", &["roland", "roland"], AttackOptions::default())),
        "swift-swords.targets",
        "Mobs, Crowds and Hordes.",
    );
    let events = battle.gm(attack_with("mob", "Spear", &["roland", "aria"], AttackOptions::default()));
    let records = attacks(&events);
    assert_eq!(records.len(), 2, "twice, against separate targets");
    assert!(records.iter().all(|record| record.dice.formation == 1), "+1d");
}

#[test]
fn extra_successes_buy_special_results_in_the_order_asked_per_seed_004_special_results() {
    let strong = FigureSpec { weapons: vec![weapon("Broadsword", 10, Weight::Medium)], ..roland("a") };
    let tough = FigureSpec { physical: 9, mental: 9, ..goblin("goblin-1", "a") };
    let setup = Setup::of(vec![grouped(strong, "melee"), grouped(tough, "melee")]);
    let options = AttackOptions {
        special_results: vec![SpecialResult::KnockDown, SpecialResult::Expose],
        ..AttackOptions::default()
    };
    let (_, (record, prone, exposures)) = find_seed(500, |n| {
        let mut battle = roland_to_act(&setup, n);
        let events = battle.by(alice(), attack_with("roland", "Broadsword", &["goblin-1"], options.clone()));
        let record = attacks(&events)[0].clone();
        (record.roll.as_ref()?.successes >= 3)
            .then(|| (record, battle.figure("goblin-1").prone, battle.figure("goblin-1").exposures))
    });
    assert_eq!(record.special_results, vec![SpecialResult::KnockDown, SpecialResult::Expose]);
    let successes = record.roll.as_ref().map_or(0, |roll| roll.successes);
    assert_eq!(record.hits, successes - 2, "each special result costs an extra success");
    assert!(prone);
    assert_eq!(exposures, 1);
}

#[test]
fn the_gm_may_cap_how_many_figures_attack_one_target_in_a_round_per_seed_004_contact_example() {
    let options = BattleOptions { max_attackers_per_target: Some(1), ..BattleOptions::default() };
    let aria = FigureSpec {
        controller: Some("alice".into()),
        weapons: vec![weapon("Sword", 3, Weight::Medium)],
        ..grouped(figure("aria", "heroes", "a"), "melee")
    };
    let tough = FigureSpec { physical: 9, mental: 9, ..grouped(goblin("goblin-1", "a"), "melee") };
    let mut battle = roland_to_act(&Setup::of(vec![grouped(roland("a"), "melee"), aria, tough]).with(options), 0);
    battle.by(alice(), attack("roland", "Broadsword", "goblin-1"));
    battle.hand("roland", &[]);
    battle.hand("aria", &[6]);
    assert_refused(
        battle.attempt(alice(), attack("aria", "Sword", "goblin-1")),
        "swift-swords.too_many_attackers",
        "Contact example.",
    );
}

#[test]
fn every_refusal_in_play_names_its_code_and_rule() {
    // Issue 26: a test triggers each code. Roland may act (the goblin holds no dice); each
    // command breaks one rule and changes nothing.
    use herald_domain::swift_swords::battle::command::PoolKind;
    let mut battle = roland_to_act(&duel(), 0);
    let before = battle.state.clone();
    let from_pool = AttackOptions { from_pool: true, ..AttackOptions::default() };
    let cases: Vec<(C, &str, &str)> = vec![
        (attack("roland", "Halberd", "goblin-1"), "swift-swords.unknown_weapon", "Attacks"),
        (
            attack_with("roland", "Broadsword", &["goblin-1"], from_pool),
            "swift-swords.no_action_pool",
            "Actions & Refresh",
        ),
        (C::Pool { figure: "roland".into(), into: PoolKind::Dodge, pay: None }, "swift-swords.no_pool", "Pools."),
        (
            C::BreakPool { figure: "roland".into(), weapon: "Broadsword".into(), target: "goblin-1".into(), pay: None },
            "swift-swords.no_pool",
            "Pools.",
        ),
        (
            C::StartPool { figure: "roland".into(), name: String::new(), cost: 1, pay: None },
            "swift-swords.bad_pool",
            "Actions & Refresh",
        ),
        (C::CarryOver { figure: "roland".into() }, "swift-swords.not_refresh", "Actions & Refresh"),
        (C::Recover { figure: "roland".into(), pay: None }, "swift-swords.no_state", "State."),
        (C::Rally { figure: "roland".into(), pay: None }, "swift-swords.steady", "Mental Damage"),
        (C::StandUp { figure: "roland".into(), pay: None }, "swift-swords.not_prone", "InClose Combat"),
        (
            C::BreakHold { figure: "roland".into(), reverse: false, pay: None },
            "swift-swords.not_held",
            "InClose Combat",
        ),
        (
            C::OpportunityAttack { figure: "roland".into(), weapon: "Broadsword".into(), pay: None },
            "swift-swords.no_opportunity",
            "Status",
        ),
        (
            C::SkillRoll {
                figure: "roland".into(),
                skill: "juggling".into(),
                cost: 1,
                purpose: "a distraction".into(),
                casting: false,
                from_pool: false,
                effort: false,
                bump: false,
                pay: None,
            },
            "swift-swords.unknown_skill",
            "herald",
        ),
        (
            C::Fly { figure: "roland".into(), steps: vec![], dive: false, circle: false, pay: None },
            "swift-swords.cannot_fly",
            "Flying",
        ),
        (
            C::Drive { chariot: "war-wagon".into(), steps: vec![], dash: false, pay: None },
            "swift-swords.unknown_chariot",
            "Chariot",
        ),
        (
            C::ReadyWeapon { figure: "roland".into(), weapon: "Broadsword".into(), pay: None },
            "swift-swords.weapon_in_hand",
            "Attacks",
        ),
    ];
    for (command, code, rule) in cases {
        let actor = if matches!(command, C::Drive { .. }) { gm() } else { alice() };
        assert_refused(battle.attempt(actor, command), code, rule);
        assert_eq!(battle.state, before, "{code} changed nothing");
    }
    // Only 1s left: they pay for no action.
    battle.hand("roland", &[1, 1]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Broadsword", "goblin-1")),
        "swift-swords.only_ones",
        "AD = 1",
    );
    // A counter is a Parry's.
    let mut battle = Battle::begun(&duel(), 0);
    battle.hand("roland", &[5, 2]);
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.gm(attack("goblin-1", "Spear", "roland"));
    let dodge_and_counter = C::Defend {
        figure: "roland".into(),
        defence: DefenceChoice::Dodge,
        pay: None,
        effort: false,
        bump: false,
        counter: true,
        counter_weapon: None,
        take_rank: false,
    };
    assert_refused(battle.attempt(alice(), dodge_and_counter), "swift-swords.counter_needs_parry", "Parry:");
    // An unsealed seed.
    let C::CreateBattle { map, sides, figures, chariots, options, .. } = duel().command(0) else { unreachable!() };
    let unsealed = C::CreateBattle { map, sides, figures, chariots, options, seed_commitment: "not hex".into() };
    let mut fresh = Battle::empty(0);
    assert_refused(fresh.attempt(gm(), unsealed), "swift-swords.seed_commitment_malformed", "herald");
}
