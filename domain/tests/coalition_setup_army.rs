//! One army's make-up (seed 003 §2.1–2.2).

#[path = "coalition_setup_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team},
    map::Faction,
    setup::{factions_needed, validate_army, ArmyContext},
};
use support::*;

fn check(army: &Army) -> Result<(), herald_domain::RuleError> {
    validate_army(army, &ArmyContext::default())
}

/// A Commander army of Green (3/3 to 6/6 slots) with one line per slot.
fn green_commander(lines: Vec<herald_domain::coalition::army::TroopLine>) -> Army {
    army("Multani's Own", Team::Coalition, RankClass::PlaguelordCommander, &[Faction::Green], lines)
}

#[test]
fn full_legal_armies_of_both_teams_are_accepted_seed_003_2_1() {
    assert_eq!(check(&red_lieutenant("Sai Rei")), Ok(()));
    assert_eq!(check(&phyrexian_centurion("Crovax")), Ok(()));
}

#[test]
fn a_2_3_creature_fits_a_3_3_slot_but_a_2_4_does_not_seed_003_2_1() {
    let fits = green_commander(vec![line("Trained Armodon", &[Color::Green], 2, 3, 0, 5000)]);
    assert_eq!(check(&fits), Ok(()));
    let too_tough = green_commander(vec![line("Wall of Wood", &[Color::Green], 2, 4, 0, 5000)]);
    assert_eq!(code(check(&too_tough)), "coalition.army.creature_too_big");
    let too_strong = green_commander(vec![line("Craw Wurm", &[Color::Green], 6, 4, 2, 1500)]);
    assert_eq!(code(check(&too_strong)), "coalition.army.creature_too_big");
}

#[test]
fn a_smaller_creature_may_fill_a_bigger_slot_seed_003_2_1() {
    let army = green_commander(vec![line("Grizzly Bears", &[Color::Green], 2, 2, 3, 1000)]);
    assert_eq!(check(&army), Ok(()));
}

#[test]
fn each_slot_holds_5000_2500_1500_and_1000_troops_seed_003_2_1() {
    for (slot, maximum) in [(0u8, 5000), (1, 2500), (2, 1500), (3, 1000)] {
        let exact = green_commander(vec![
            line("Grizzly Bears", &[Color::Green], 2, 2, slot, maximum - 100),
            line("Llanowar Elves", &[Color::Green], 1, 1, slot, 100),
        ]);
        assert_eq!(check(&exact), Ok(()), "slot {slot}");
        let over = green_commander(vec![
            line("Grizzly Bears", &[Color::Green], 2, 2, slot, maximum),
            line("Llanowar Elves", &[Color::Green], 1, 1, slot, 1),
        ]);
        assert_eq!(code(check(&over)), "coalition.army.slot_overfull", "slot {slot}");
    }
    let fifth = green_commander(vec![line("Grizzly Bears", &[Color::Green], 2, 2, 4, 100)]);
    assert_eq!(code(check(&fifth)), "coalition.army.no_such_slot");
}

#[test]
fn troops_never_exceed_full_strength_seed_003_2_1() {
    let mut army = red_lieutenant("Sai Rei");
    army.troops[0].troops = 5001;
    assert_eq!(code(check(&army)), "coalition.army.troops_above_full");
    army.troops[0].troops = 0;
    assert_eq!(check(&army), Ok(()), "a type with none alive is fine");
}

#[test]
fn an_army_has_at_most_6_creature_types_counting_those_with_none_alive_seed_003_2_1() {
    let names =
        ["Llanowar Elves", "Fyndhorn Elves", "Elvish Mystic", "Elvish Lyrist", "Elvish Archers", "Elvish Warrior"];
    let mut lines: Vec<_> = names.iter().map(|name| line(name, &[Color::Green], 1, 1, 0, 500)).collect();
    assert_eq!(check(&green_commander(lines.clone())), Ok(()));
    lines.push(line("Scryb Sprites", &[Color::Green], 1, 1, 0, 500));
    lines[6].troops = 0;
    assert_eq!(code(check(&green_commander(lines.clone()))), "coalition.army.too_many_creature_types");
    // The same creature in two slots is one type.
    lines[6] = line("Llanowar Elves", &[Color::Green], 1, 1, 1, 500);
    assert_eq!(check(&green_commander(lines)), Ok(()));
}

#[test]
fn lhurgoyf_may_be_the_3_3_or_the_6_6_but_not_both_seed_003_2_2_2() {
    let as_small = green_commander(vec![variable("Lhurgoyf", &[Color::Green], 3, 0, 5000)]);
    assert_eq!(check(&as_small), Ok(()));
    let as_big = green_commander(vec![variable("Lhurgoyf", &[Color::Green], 6, 3, 1000)]);
    assert_eq!(check(&as_big), Ok(()));
    let both = green_commander(vec![
        variable("Lhurgoyf", &[Color::Green], 3, 0, 5000),
        variable("Lhurgoyf", &[Color::Green], 6, 3, 1000),
    ]);
    let error = check(&both).err();
    assert_eq!(error.as_ref().map(|e| e.code.as_str()), Some("coalition.army.creature_at_two_sizes"));
    assert_eq!(error.map(|e| e.rule), Some("seed 003 §2.2.2".to_string()));
}

#[test]
fn a_kicker_creature_keeps_the_one_size_chosen_for_the_army_seed_003_2_2_3_3() {
    let both = green_commander(vec![
        line("Werebear", &[Color::Green], 1, 1, 0, 5000),
        line("Werebear", &[Color::Green], 4, 4, 1, 2500),
    ]);
    assert_eq!(code(check(&both)), "coalition.army.creature_at_two_sizes");
}

#[test]
fn a_creature_is_never_used_with_no_toughness_seed_003_2_2_6() {
    let army = green_commander(vec![variable("Lhurgoyf", &[Color::Green], 0, 0, 5000)]);
    assert_eq!(code(check(&army)), "coalition.army.zero_toughness");
}

#[test]
fn greater_morphling_is_banned_seed_003_2_2_1() {
    let mut army = phyrexian_centurion("Crovax");
    army.rank = RankClass::ChiefPraetorGeneral;
    army.troops = vec![line("Greater Morphling", &[Color::Blue], 6, 6, 0, 5000)];
    let error = check(&army).err();
    assert_eq!(error.as_ref().map(|e| e.code.as_str()), Some("coalition.army.banned_creature"));
    assert_eq!(error.map(|e| e.rule), Some("seed 003 §2.2.1".to_string()));
    army.troops[0].creature = "  greater   MORPHLING ".into();
    assert_eq!(code(check(&army)), "coalition.army.banned_creature", "however it is written");
}

#[test]
fn summoners_egg_is_banned_seed_003_2_2_3_1_4() {
    let mut army = phyrexian_centurion("Crovax");
    army.troops[2] = line("Summoner’s Egg", &[Color::Artifact], 0, 4, 3, 1000);
    army.troops.remove(3);
    let error = check(&army).err();
    assert_eq!(error.map(|e| e.rule), Some("seed 003 §2.2.3.1.4".to_string()));
}

#[test]
fn phyrexians_use_blue_red_black_multicolored_and_artifacts_but_nothing_green_or_white_seed_003_2_2_1() {
    for colors in [
        vec![Color::Blue],
        vec![Color::Red],
        vec![Color::Black],
        vec![Color::Artifact],
        vec![Color::Blue, Color::Black],
    ] {
        let mut army = phyrexian_centurion("Crovax");
        army.troops[0].colors = colors.clone();
        assert_eq!(check(&army), Ok(()), "{colors:?}");
    }
    for colors in
        [vec![Color::Green], vec![Color::White], vec![Color::Black, Color::Green], vec![Color::White, Color::Blue]]
    {
        let mut army = phyrexian_centurion("Crovax");
        army.troops[0].colors = colors.clone();
        assert_eq!(code(check(&army)), "coalition.army.color_not_allowed", "{colors:?}");
    }
}

#[test]
fn coalitioners_use_only_the_colors_of_their_factions_seed_003_2_2_1() {
    let mut army = red_lieutenant("Sai Rei");
    army.troops[0] = line("Llanowar Elves", &[Color::Green], 1, 1, 0, 5000);
    assert_eq!(code(check(&army)), "coalition.army.color_not_allowed");
    let mut army = red_lieutenant("Sai Rei");
    army.colors = vec![Faction::Red];
    assert_eq!(code(check(&army)), "coalition.army.color_not_allowed", "the Ornithopter needs Colorless");
}

#[test]
fn a_red_green_member_uses_a_red_green_creature_only_if_also_5_color_seed_003_2_2_1() {
    let gruul = |colors: &[Faction]| {
        army(
            "Ghitu",
            Team::Coalition,
            RankClass::CenturionLieutenant,
            colors,
            vec![line("Burning-Tree Emissary", &[Color::Red, Color::Green], 2, 2, 1, 2500)],
        )
    };
    assert_eq!(code(check(&gruul(&[Faction::Red, Faction::Green]))), "coalition.army.color_not_allowed");
    assert_eq!(check(&gruul(&[Faction::Red, Faction::Green, Faction::FiveColor])), Ok(()));
    assert_eq!(
        code(check(&gruul(&[Faction::Red, Faction::Blue, Faction::FiveColor]))),
        "coalition.army.color_not_allowed",
        "5-Color alone does not give green"
    );
    assert_eq!(
        factions_needed(&[Color::Artifact, Color::Blue]).into_iter().collect::<Vec<_>>(),
        [Faction::Blue, Faction::Colorless],
        "a blue artifact is not multicolored"
    );
}

#[test]
fn coalition_armies_have_1_to_3_colors_and_proxies_have_3_seed_003_2_2_1_1() {
    let mut army = red_lieutenant("Sai Rei");
    army.colors = vec![Faction::Red, Faction::Colorless, Faction::Blue, Faction::Black];
    assert_eq!(code(check(&army)), "coalition.army.color_count");
    army.colors = vec![Faction::Red, Faction::Red];
    assert_eq!(code(check(&army)), "coalition.army.duplicate_color");
    let mut proxy = red_lieutenant("Proxy of Benalia");
    proxy.creator = None;
    assert_eq!(code(check(&proxy)), "coalition.army.color_count");
    proxy.colors.push(Faction::White);
    assert_eq!(check(&proxy), Ok(()));
    let mut phyrexian = phyrexian_centurion("Crovax");
    phyrexian.colors = vec![Faction::Black];
    assert_eq!(code(check(&phyrexian)), "coalition.army.colors_outside_coalition");
}

#[test]
fn a_creature_without_colors_is_refused_seed_003_2_2_1() {
    let mut army = phyrexian_centurion("Crovax");
    army.troops[0].colors.clear();
    assert_eq!(code(check(&army)), "coalition.army.creature_without_colors");
}

#[test]
fn one_legend_of_any_size_and_color_and_never_in_two_armies_seed_003_2_1() {
    let mut sai_rei = red_lieutenant("Sai Rei");
    sai_rei.legend = Some("Multani, Maro-Sorcerer".into());
    assert_eq!(check(&sai_rei), Ok(()), "a green 8/8 legend in a red 1/1-4/4 army");
    let mut other = red_lieutenant("Gerrard");
    other.legend = Some("multani, maro-sorcerer".into());
    let others = [other];
    let context = ArmyContext { other_armies: &others, ..ArmyContext::default() };
    assert_eq!(code(validate_army(&sai_rei, &context)), "coalition.army.legend_in_two_armies");
    // The army itself (an earlier version of it) in the list is not another army.
    let itself = [sai_rei.clone()];
    assert_eq!(validate_army(&sai_rei, &ArmyContext { other_armies: &itself, ..ArmyContext::default() }), Ok(()));
}

#[test]
fn a_legend_is_not_also_fielded_as_troops_seed_003_2_2_1() {
    let mut army = red_lieutenant("Sai Rei");
    army.legend = Some("Hill Giant".into());
    assert_eq!(code(check(&army)), "coalition.army.legend_as_troops");
}
