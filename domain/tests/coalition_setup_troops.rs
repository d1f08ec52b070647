//! Changing an army's troops (seed 003 §2.3.2, §2.4) and mercenary armies (ch. 6).

#[path = "coalition_setup_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team},
    map::Faction,
    setup::{
        validate_army, validate_mercenary_army, validate_troop_change, ArmyContext, MercenaryArmy, MercenaryFaction,
    },
};
use support::*;

fn check(army: &Army) -> Result<(), herald_domain::RuleError> {
    validate_army(army, &ArmyContext::default())
}

/// Sai Rei, member of Black and Red, with 1/1 Plague Rats (seed 003 §2.3.2's example).
fn sai_rei() -> Army {
    army(
        "Sai Rei",
        Team::Coalition,
        RankClass::CenturionLieutenant,
        &[Faction::Black, Faction::Red],
        vec![
            line("Plague Rats", &[Color::Black], 1, 1, 0, 5000),
            line("Mogg Fanatic", &[Color::Red], 1, 1, 1, 2500),
            line("Hill Giant", &[Color::Red], 3, 3, 3, 1000),
        ],
    )
}

#[test]
fn with_black_base_destroyed_sai_rei_cannot_turn_plague_rats_into_bog_imps_seed_003_2_3_2() {
    let old = sai_rei();
    let destroyed = [Faction::Black];
    let mut bog_imps = old.clone();
    bog_imps.troops[0] = line("Bog Imp", &[Color::Black], 1, 1, 0, 5000);
    let error = validate_troop_change(&old, &bog_imps, &destroyed).err();
    assert_eq!(error.as_ref().map(|e| e.code.as_str()), Some("coalition.army.destroyed_base_color"));
    assert_eq!(error.map(|e| e.rule), Some("seed 003 §2.3.2".to_string()));
    // Through validate_army too.
    let context = ArmyContext { destroyed_bases: &destroyed, previous: Some(&old), ..ArmyContext::default() };
    assert_eq!(code(validate_army(&bog_imps, &context)), "coalition.army.destroyed_base_color");
    // Before the base falls, the change is legal.
    assert_eq!(validate_troop_change(&old, &bog_imps, &[]), Ok(()));
}

#[test]
fn sai_rei_may_keep_his_plague_rats_while_changing_other_units_seed_003_2_3_2() {
    let old = sai_rei();
    let mut new = old.clone();
    new.troops[1] = line("Goblin Raiders", &[Color::Red], 1, 2, 1, 2500);
    let context = ArmyContext { destroyed_bases: &[Faction::Black], previous: Some(&old), ..ArmyContext::default() };
    assert_eq!(validate_army(&new, &context), Ok(()));
}

#[test]
fn sai_rei_may_turn_his_plague_rats_into_red_1_1s_seed_003_2_3_2() {
    let old = sai_rei();
    let mut new = old.clone();
    new.troops[0] = line("Raging Goblin", &[Color::Red], 1, 1, 0, 5000);
    assert_eq!(validate_troop_change(&old, &new, &[Faction::Black]), Ok(()));
}

#[test]
fn a_destroyed_5_color_base_stops_new_multicolored_creatures_seed_003_2_3_2() {
    let mut old = sai_rei();
    old.colors.push(Faction::FiveColor);
    let mut new = old.clone();
    new.troops[0] = line("Blightning Imp", &[Color::Black, Color::Red], 1, 1, 0, 5000);
    assert_eq!(code(validate_troop_change(&old, &new, &[Faction::FiveColor])), "coalition.army.destroyed_base_color");
    assert_eq!(validate_troop_change(&old, &new, &[Faction::White]), Ok(()));
}

#[test]
fn an_armys_name_rank_and_colors_are_fixed_for_the_round_seed_003_2_4() {
    let old = sai_rei();
    for change in [
        (|army: &mut Army| army.colors = vec![Faction::Red]) as fn(&mut Army),
        |army| army.rank = RankClass::CplLtCommander,
        |army| army.name = "Sai Rei the Younger".into(),
    ] {
        let mut new = old.clone();
        change(&mut new);
        assert_eq!(code(validate_troop_change(&old, &new, &[])), "coalition.army.fixed_for_round");
    }
}

#[test]
fn mercenary_armies_have_no_color_limits_and_their_factions_ranks_seed_003_6() {
    let mut raiders = army(
        "Keldon Raiders",
        Team::Mercenary,
        RankClass::CenturionLieutenant,
        &[],
        vec![
            line("Savannah Lions", &[Color::White], 1, 1, 0, 5000),
            line("Llanowar Elves", &[Color::Green], 1, 1, 1, 2500),
        ],
    );
    raiders.creator = None;
    let context = ArmyContext::default();
    let raider = MercenaryArmy { faction: MercenaryFaction::Raider, army: raiders.clone() };
    assert_eq!(validate_mercenary_army(&raider, &context), Ok(()));
    let defender = MercenaryArmy { faction: MercenaryFaction::TownDefender, army: raiders.clone() };
    assert_eq!(code(validate_mercenary_army(&defender, &context)), "coalition.setup.mercenary_rank");
    raiders.rank = RankClass::EvincarCaptain;
    assert_eq!(code(check(&raiders)), "coalition.army.mercenary_rank");
}
