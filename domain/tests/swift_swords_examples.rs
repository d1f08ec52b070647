//! Every worked example of seed 004, with the seed's own numbers: Roland and the three goblins
//! (the Dodge and the Block versions, as arithmetic and as played through the decider), the
//! Block 6d example, the 4,4,4,6 location roll, the rank and damage examples.

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::swift_swords::{
    battle::pending::AttackOptions,
    battle::{
        command::DefenceChoice, command::PoolKind, command::SwiftSwordsCommand as C, event::SwiftSwordsEvent as E,
    },
    damage::{damage, severity},
    defence::{block, block_as_defences, block_pool, dodge, pooled},
    figure::Weight,
    injury::{locate, shift_toward, within_shift, Location},
    options::{BattleOptions, BlockOutscored, BlockPool, LocationTable},
    rolls::{counted, threshold},
};
use support::*;

#[test]
fn roland_dodges_three_goblins_as_the_seed_counts_it_per_seed_004_pools() {
    // "his Dodge pool being 4d (Skill) + 1d (Adv). He rolls and gets 4 successes."
    let roll = counted("Roland's dodge", &[5, 6, 6, 5, 2], threshold(5, 0));
    assert_eq!((roll.dice, roll.successes), (5, 4));
    // "The first Goblin only has 4d of attack so all of them are cancelled by the 4d of Dodge.
    // Roland discards 1d of the 4 (the cost)."
    let first = dodge(roll.successes, 4, false);
    assert_eq!((first.removed, first.exposures, first.pool_after), (4, 0, 3));
    // "The second goblin attacks and misses with a 3, having 1d left of his 4. Roland discards a
    // dice, down to 2d of Dodge."
    let second = dodge(first.pool_after, 4, false);
    assert_eq!(4 - second.removed, 1);
    let miss = counted("second goblin", &[3], 5);
    assert_eq!((miss.successes, miss.ones), (0, 0));
    assert_eq!(second.pool_after, 2);
    // "Roland takes an action and uses a Pool, adding 1d to his Dodge Pool."
    let pool = pooled(second.pool_after, 5);
    assert_eq!(pool, 3);
    // "The third goblin attacks with a net 1d (4-3) and rolls a 1 which is a Fumble."
    let third = dodge(pool, 4, false);
    assert_eq!(4 - third.removed, 1);
    let fumble = counted("third goblin", &[1], 5);
    assert!(fumble.ones > fumble.successes, "more 1s than successes is a fumble");
}

#[test]
fn roland_blocks_three_goblins_as_the_seed_counts_it_per_seed_004_pools() {
    // "his Block pool being 4d (Skill) + 1d (Adv) + 2 from the Shield. He rolls and gets 2
    // successes, making a Block Pool of 4."
    let roll = counted("Roland's block", &[6, 5, 3, 2, 4], 5);
    let pool = roll.successes + 2;
    assert_eq!(pool, 4);
    // "The first Goblin has 4d of attack and scores 2 successes, not more than the Block pool of
    // 4 so the shield works and reduces the number of successes by 2, so the goblin misses plus
    // he suffers 2 exposures (net 4-2=2). Roland discards 1d of the 4."
    let first = block(pool, 2, 2, 0, BlockOutscored::Ignored);
    assert!(first.works);
    assert_eq!((first.successes_after, first.exposures, first.pool_after), (0, 2, 3));
    // "The second goblin attacks and gets 2 hits vs the Block=3, so again the shield works and
    // reduces the number of successes to 0, plus the Goblin suffers 1 exposure. Roland discards
    // a dice, down to 2d of Block."
    let second = block(first.pool_after, 2, 2, 0, BlockOutscored::Ignored);
    assert_eq!((second.successes_after, second.exposures, second.pool_after), (0, 1, 2));
    // "Roland takes an action and uses a Pool, adding 1d to his Block Pool, back upto 3."
    let pool = pooled(second.pool_after, 5 + 2);
    assert_eq!(pool, 3);
    // "The third goblin attacks and manages to get an amazing 4 successes, which is higher than
    // the Block pool of 3 so the shield is ignored and the 4 successes become 4 hits. Rolands
    // Block Pool is reduced to 2d."
    let third = block(pool, 2, 4, 0, BlockOutscored::Ignored);
    assert!(third.outscored && !third.works);
    assert_eq!((third.successes_after, third.exposures, third.pool_after), (4, 0, 2));
    assert_eq!(damage(Weight::Medium, third.successes_after), 4, "4 hits with a Medium weapon");
}

#[test]
fn the_block_6d_example_holds_or_is_stripped_per_seed_004_block() {
    // "the defender declares a Block and rolls 6d getting 2 successes so the Block is working."
    let roll = counted("the block", &[5, 6, 1, 2, 3, 4], 5);
    assert_eq!(roll.successes, 2);
    // "The attacker rolls and gets 4 successes. The attacker can continue with the 4 successes
    // but the defender would count their shield as part of their armour and they will gain 1
    // exposure." (the reading in which a block outscored still holds)
    let holds = block(2, 0, 4, 0, BlockOutscored::Holds);
    assert!(holds.works);
    assert_eq!((holds.successes_after, holds.exposures), (4, 1));
    // "The attacker can expend 2 of their successes and reduce the Block to no successes, and the
    // Block fails, but the attacker only has 2 successes inflicting damage."
    let stripped = block(2, 0, 4, 2, BlockOutscored::Holds);
    assert!(!stripped.works);
    assert_eq!((stripped.stripped, stripped.successes_after, stripped.exposures, stripped.pool_after), (2, 2, 0, 0));
    // "eg: Your block total is 4 so you can place 3 exposures on them."
    assert_eq!(block(4, 0, 1, 0, BlockOutscored::Holds).exposures, 3);
}

#[test]
fn the_block_6d_example_with_a_medium_shield_as_the_defences_section_states_it_per_seed_004_block() {
    // The option `block_pool: successes`: "rolls 6d getting 2 successes so the Block is
    // working" — the pool is the 2 successes, the shield is not in it.
    let roll = counted("the block", &[5, 6, 1, 2, 3, 4], 5);
    let pool = block_pool(BlockPool::Successes, roll.successes, 2);
    assert_eq!(pool, 2);
    // "The attacker can continue with the 4 successes but the defender would count their shield
    // as part of their armour and they will gain 1 exposure": the Medium Shield (Block=2) stops
    // 2 of the 4, and the pool of 2 less the one needed is 1 exposure.
    let holds = block_as_defences(pool, 2, 4, 0);
    assert!(holds.works && !holds.outscored);
    assert_eq!((holds.stopped, holds.successes_after, holds.exposures, holds.pool_after), (2, 2, 1, 1));
    // "The attacker can expend 2 of their successes and reduce the Block to no successes, and the
    // Block fails, but the attacker only has 2 successes inflicting damage": the shield stops
    // nothing then.
    let stripped = block_as_defences(pool, 2, 4, 2);
    assert!(!stripped.works);
    assert_eq!((stripped.stripped, stripped.stopped, stripped.successes_after, stripped.exposures), (2, 0, 2, 0));
    // "eg: Your block total is 4 so you can place 3 exposures on them."
    assert_eq!(block_as_defences(4, 2, 1, 0).exposures, 3);
    // A Block roll without a success makes no pool, under either reading.
    assert_eq!(block_pool(BlockPool::Successes, 0, 2), 0);
    assert_eq!(block_pool(BlockPool::SuccessesAndDevice, 0, 2), 0);
    // The default stays the "Pools" reading: successes plus the device.
    assert_eq!(BattleOptions::default().block_pool, BlockPool::SuccessesAndDevice);
    assert_eq!(block_pool(BlockPool::SuccessesAndDevice, 2, 2), 4);
}

#[test]
fn four_four_four_six_hits_the_right_arm_and_may_shift_one_area_to_the_chest_per_seed_004_general_injury_table() {
    let table = LocationTable::default();
    let mut roll = locate(&[4, 4, 4, 6], &table);
    assert_eq!((roll.face, roll.count, roll.rolled, roll.shifts), (4, 3, Location::RightArm, 1));
    assert!(within_shift(&roll, Location::Chest, true), "a triple shifts one connected area");
    assert!(!within_shift(&roll, Location::Head, true), "the head is more than one area away");
    shift_toward(&mut roll, Some(Location::Chest), true);
    assert_eq!(roll.location, Location::Chest);
}

#[test]
fn a_base_heroic_character_of_three_ranks_takes_trauma_at_four_and_a_killing_blow_at_seven_per_seed_004_physical_damage(
) {
    // "any successful hit that inflicts any damage will take away one rank ... A hit of 4 damage
    // will inflict a Trauma Wound, and a hit of 7 damage will inflict a Killing Blow."
    let plain = severity(1, 3, false);
    assert!(!plain.trauma && !plain.killing_blow);
    assert!(!severity(3, 3, false).trauma);
    assert!(severity(4, 3, false).trauma && !severity(4, 3, false).killing_blow);
    assert!(!severity(6, 3, false).killing_blow);
    assert!(severity(7, 3, false).killing_blow && !severity(7, 3, false).massive);
    assert!(severity(10, 3, false).massive, "more than three times the rank is massive");
}

#[test]
fn a_bonus_rank_raises_the_trauma_threshold_without_absorbing_damage_per_seed_004_total_ranks() {
    // "if you were Rank 3 and had a Bonus Rank to become Rank 4, then you would need to suffer 5
    // damage to suffer a Trauma or Panicked result."
    assert!(!severity(4, 3 + 1, false).trauma);
    assert!(severity(5, 3 + 1, false).trauma);
}

#[test]
fn light_weapons_damage_on_one_three_five_seven_successes_per_seed_004_damage() {
    let light: Vec<u32> = (1..=7).map(|successes| damage(Weight::Light, successes)).collect();
    assert_eq!(light, vec![1, 1, 2, 2, 3, 3, 4], "1+2d: 2 hits need 3 successes");
    let medium: Vec<u32> = (1..=4).map(|successes| damage(Weight::Medium, successes)).collect();
    assert_eq!(medium, vec![1, 2, 3, 4], "1+1d");
    assert_eq!((damage(Weight::Heavy, 1), damage(Weight::Heavy, 2)), (2, 3), "2+1d: a basic hit does 2");
    assert_eq!((damage(Weight::Large, 1), damage(Weight::Huge, 1)), (3, 4), "3+1d and 4+1d");
    assert_eq!(damage(Weight::Medium, 0), 0);
}

#[test]
fn a_fumbled_target_turns_five_six_into_four_six_per_seed_004_attacks() {
    assert_eq!(threshold(5, 0), 5);
    assert_eq!(threshold(5, 1), 4, "5-6 will become 4-6");
    let roll = counted("against a fumbled target", &[4, 4, 2, 1], threshold(5, 1));
    assert_eq!((roll.successes, roll.ones), (2, 1));
}

/// Roland InContact with three goblins in zone a; the advantage of numbers left out, as the
/// seed's example counts the goblins' 4d plain.
fn melee_of_four() -> Setup {
    let roland = herald_domain::swift_swords::figure::FigureSpec { physical: 5, ..grouped(roland("a"), "melee") };
    let options = BattleOptions { minor_advantage_dice: 0, major_advantage_dice: 0, ..BattleOptions::default() };
    Setup::of(vec![
        roland,
        grouped(goblin("goblin-1", "a"), "melee"),
        grouped(goblin("goblin-2", "a"), "melee"),
        grouped(goblin("goblin-3", "a"), "melee"),
    ])
    .with(options)
}

/// Play the three goblins' attacks on Roland, with `defence` declared against the first and a
/// Pool action into `pool` before the third, under server seed `n`.
fn three_goblins(n: u64, defence: DefenceChoice, pool: PoolKind) -> Battle {
    let mut battle = Battle::begun(&melee_of_four(), n);
    for goblin in ["goblin-1", "goblin-2", "goblin-3"] {
        battle.hand(goblin, &[]);
    }
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.hand("roland", &[5, 5]);
    battle.gm(attack("goblin-1", "Spear", "roland"));
    if battle.state.pending.is_empty() {
        return battle;
    }
    battle.by(alice(), defend("roland", defence));
    battle.hand("goblin-1", &[]);
    battle.hand("goblin-2", &[4, 4, 4]);
    battle.hand("roland", &[5, 5]);
    battle.gm(attack("goblin-2", "Spear", "roland"));
    if !battle.state.pending.is_empty() {
        battle.by(alice(), no_defence("roland"));
    }
    if !battle
        .state
        .figure("roland")
        .is_some_and(|roland| roland.states.is_empty() && roland.dodge_pool + roland.block_pool > 0)
    {
        return battle;
    }
    battle.hand("goblin-2", &[]);
    battle.hand("roland", &[5, 5]);
    if battle.attempt(alice(), C::Pool { figure: "roland".into(), into: pool, pay: None }).is_err() {
        return battle;
    }
    battle.hand("goblin-3", &[4, 4, 4]);
    battle.hand("roland", &[5]);
    battle.gm(attack("goblin-3", "Spear", "roland"));
    if battle.state.pending.last().is_some() {
        let take_rank = C::Defend {
            figure: "roland".into(),
            defence: DefenceChoice::None,
            pay: None,
            effort: false,
            bump: false,
            counter: false,
            counter_weapon: None,
            take_rank: true,
        };
        battle.by(alice(), take_rank);
    }
    battle
}

fn declared_pool(battle: &Battle) -> Option<(u32, u32)> {
    battle.events.iter().find_map(|event| match event {
        E::DefenceDeclared { roll: Some(roll), pool, .. } => Some((roll.successes, *pool)),
        _ => None,
    })
}

#[test]
fn roland_dodges_three_goblins_through_the_decider_with_the_seeds_numbers_per_seed_004_pools() {
    // The search starts where it last found the case (server seed 1055), so the test stays quick
    // while still finding it by the rules.
    let (n, battle) = find_seed_from(1_000, 40_000, |n| {
        let battle = three_goblins(n, DefenceChoice::Dodge, PoolKind::Dodge);
        let records = attacks(&battle.events);
        let faces =
            |index: usize| records.get(index).and_then(|record| record.roll.as_ref()).map(|roll| roll.faces.clone());
        let wanted = declared_pool(&battle) == Some((4, 4)) && faces(1) == Some(vec![3]) && faces(2) == Some(vec![1]);
        wanted.then_some(battle)
    });
    let records = attacks(&battle.events);
    assert_eq!(records.len(), 3, "seed {n}");
    let dodged: Vec<(u32, u32, u32)> = records.iter().map(|r| (r.dice.total, r.dice.dodged, r.dice.rolled)).collect();
    assert_eq!(dodged, vec![(4, 4, 0), (4, 3, 1), (4, 3, 1)], "4d cancelled by 4, then 1d left twice");
    let pools: Vec<u32> = records.iter().filter_map(|r| r.dodge.as_ref().map(|used| used.pool)).collect();
    assert_eq!(pools, vec![4, 3, 3], "4, down to 3, down to 2 and pooled back to 3");
    assert!(records[2].fumble, "a 1 on the last die is a fumble");
    assert!(battle.figure("goblin-3").fumbled);
    assert_eq!(battle.figure("roland").dodge_pool, 2);
    assert_eq!(battle.figure("roland").physical.lost + battle.figure("roland").states.len() as u32, 0, "never hit");
}

#[test]
fn roland_blocks_three_goblins_through_the_decider_with_the_seeds_numbers_per_seed_004_pools() {
    // The search starts near where it last found the case (server seed 7711).
    let (n, battle) = find_seed_from(7_700, 200_000, |n| {
        let battle = three_goblins(n, DefenceChoice::Block, PoolKind::Block);
        let records = attacks(&battle.events);
        let successes: Vec<u32> = records.iter().filter_map(|r| r.roll.as_ref().map(|roll| roll.successes)).collect();
        (declared_pool(&battle) == Some((2, 4)) && successes == vec![2, 2, 4]).then_some(battle)
    });
    let records = attacks(&battle.events);
    let blocks: Vec<_> = records.iter().filter_map(|r| r.block.clone()).collect();
    assert_eq!(blocks.len(), 3, "seed {n}");
    let outcome: Vec<(u32, bool, u32, u32, u32)> =
        blocks.iter().map(|b| (b.pool, b.works, b.successes_after, b.exposures, b.pool_after)).collect();
    assert_eq!(outcome, vec![(4, true, 0, 2, 3), (3, true, 0, 1, 2), (3, false, 4, 0, 2)]);
    // The block's exposures, besides any 1s the goblins rolled themselves.
    assert_eq!(battle.figure("goblin-1").exposures, 2 + records[0].exposures, "the first goblin suffers 2 exposures");
    assert_eq!(battle.figure("goblin-2").exposures, 1 + records[1].exposures, "the second goblin 1");
    assert_eq!(records[2].hits, 4, "the 4 successes become 4 hits");
    assert_eq!(records[2].damage, 4);
    assert_eq!(battle.figure("roland").block_pool, 2, "Roland's Block Pool is reduced to 2d");
    assert_eq!(battle.figure("roland").physical.lost, 1, "4 damage below his rank of 5: one rank");
}

/// Goblin-1 attacks Roland, who blocks with his Medium Shield (Block=2), under `block_pool`; the
/// goblin spends `strip` successes on the pool.
fn a_goblin_against_rolands_block(n: u64, block_pool: BlockPool, strip: u32) -> Battle {
    let options =
        BattleOptions { block_pool, minor_advantage_dice: 0, major_advantage_dice: 0, ..BattleOptions::default() };
    let mut battle = Battle::begun(&melee_of_four().with(options), n);
    for goblin in ["goblin-1", "goblin-2", "goblin-3"] {
        battle.hand(goblin, &[]);
    }
    battle.hand("goblin-1", &[4, 4, 4]);
    battle.hand("roland", &[5, 5]);
    let options = AttackOptions { strip_block: Some(strip), ..AttackOptions::default() };
    battle.gm(attack_with("goblin-1", "Spear", &["roland"], options));
    if !battle.state.pending.is_empty() {
        battle.by(alice(), defend("roland", DefenceChoice::Block));
    }
    battle
}

#[test]
fn under_block_pool_successes_the_pool_is_the_successes_and_the_shield_stops_hits_per_seed_004_block() {
    let (n, battle) = find_seed(2_000, |n| {
        let battle = a_goblin_against_rolands_block(n, BlockPool::Successes, 0);
        let hit = attacks(&battle.events).first().and_then(|r| r.roll.as_ref()).is_some_and(|roll| roll.successes > 0);
        (declared_pool(&battle).is_some_and(|(successes, _)| successes > 0) && hit).then_some(battle)
    });
    let (successes, pool) = declared_pool(&battle).expect("a block");
    assert_eq!(pool, successes, "seed {n}: the pool is the Block roll's successes, the shield not in it");
    let record = attacks(&battle.events)[0];
    let hits = record.roll.as_ref().map_or(0, |roll| roll.successes);
    let used = record.block.clone().expect("the block met the attack");
    assert!(used.works, "a die of the pool is left: the Block works however many successes the goblin has");
    assert_eq!(used.stopped, hits.min(2), "the shield's value stops hits");
    assert_eq!(used.exposures, pool - 1, "the pool less the one needed");
    assert_eq!(used.pool_after, pool - 1, "one die discarded for the use");
}

#[test]
fn under_block_pool_successes_stripping_the_pool_defeats_the_block_per_seed_004_block() {
    let (n, battle) = find_seed(2_000, |n| {
        let battle = a_goblin_against_rolands_block(n, BlockPool::Successes, 4);
        let hits = attacks(&battle.events).first().and_then(|r| r.roll.as_ref()).map_or(0, |roll| roll.successes);
        declared_pool(&battle).is_some_and(|(successes, _)| successes > 0 && hits >= successes).then_some(battle)
    });
    let (successes, pool) = declared_pool(&battle).expect("a block");
    assert_eq!(pool, successes, "seed {n}");
    let record = attacks(&battle.events)[0];
    let hits = record.roll.as_ref().map_or(0, |roll| roll.successes);
    let used = record.block.clone().expect("the block met the attack");
    assert_eq!(used.stripped, pool, "every die of the pool stripped");
    assert!(!used.works, "a stripped Block fails");
    assert_eq!((used.stopped, used.successes_after, used.exposures), (0, hits - pool, 0));
    assert_eq!(battle.figure("roland").block_pool, 0);
}

#[test]
fn under_the_default_block_pool_the_shield_is_in_the_pool_per_seed_004_pools() {
    let (n, battle) = find_seed(2_000, |n| {
        let battle = a_goblin_against_rolands_block(n, BlockPool::SuccessesAndDevice, 0);
        declared_pool(&battle).is_some_and(|(successes, _)| successes > 0).then_some(battle)
    });
    let (successes, pool) = declared_pool(&battle).expect("a block");
    assert_eq!(pool, successes + 2, "seed {n}: successes plus the Medium Shield's 2");
}
