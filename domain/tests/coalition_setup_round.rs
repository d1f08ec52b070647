//! Players (seed 003 §1.1), the armies of a new round (§2.5.2) and its mercenaries (ch. 6).

#[path = "coalition_setup_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Army, RankClass, Team},
    map::Faction,
    rank::Rank,
    setup::{
        validate_army_counts, validate_mercenaries, validate_player, validate_players, validate_round_armies,
        MercenaryArmy, MercenaryFaction, Player,
    },
};
use support::*;

#[test]
fn phyrexians_hold_phyrexian_ranks_and_claim_no_factions_seed_003_1_1_1() {
    assert_eq!(validate_player(&phyrexian("Crovax", Rank::Evincar)), Ok(()));
    assert_eq!(validate_player(&phyrexian("Drudge", Rank::Drudge)), Ok(()), "Drudge is allowed, if discouraged");
    assert_eq!(code(validate_player(&phyrexian("Crovax", Rank::Captain))), "coalition.setup.rank_not_on_team");
    let mut claims = phyrexian("Crovax", Rank::Evincar);
    claims.factions = vec![Faction::Black];
    assert_eq!(code(validate_player(&claims)), "coalition.setup.factions_outside_coalition");
}

#[test]
fn coalitioners_claim_up_to_3_factions_and_hold_their_rank_in_one_seed_003_1_1_2() {
    let sai_rei = coalitioner("Sai Rei", Rank::Commander, &[Faction::Black, Faction::Red]);
    assert_eq!(validate_player(&sai_rei), Ok(()));
    assert_eq!(sai_rei.rank_in(Faction::Black), Some(Rank::Commander));
    assert_eq!(sai_rei.rank_in(Faction::Red), Some(Rank::Lieutenant), "a Lt. in his other factions");
    assert_eq!(sai_rei.rank_in(Faction::Blue), None);
    assert_eq!(validate_player(&coalitioner("Cadet", Rank::Cadet, &[Faction::Blue])), Ok(()));

    let four = coalitioner("Greedy", Rank::Lieutenant, &[Faction::Red, Faction::Blue, Faction::Black, Faction::White]);
    assert_eq!(code(validate_player(&four)), "coalition.setup.too_many_factions");
    let twice = coalitioner("Twice", Rank::Lieutenant, &[Faction::Red, Faction::Red]);
    assert_eq!(code(validate_player(&twice)), "coalition.setup.duplicate_faction");
    let mut elsewhere = sai_rei.clone();
    elsewhere.rank_faction = Some(Faction::Green);
    assert_eq!(code(validate_player(&elsewhere)), "coalition.setup.rank_faction_not_claimed");
    let mut nowhere = sai_rei;
    nowhere.rank_faction = None;
    assert_eq!(code(validate_player(&nowhere)), "coalition.setup.rank_faction_missing");
    assert_eq!(code(validate_player(&coalitioner("Praetor", Rank::Praetor, &[]))), "coalition.setup.rank_not_on_team");
}

#[test]
fn the_three_leaders_stand_above_the_factions_seed_003_1_1_2() {
    assert_eq!(validate_player(&coalitioner("Gerrard", Rank::General, &[])), Ok(()));
    let mut admiral = coalitioner("Sisay", Rank::Admiral, &[Faction::Blue, Faction::White]);
    admiral.rank_faction = None;
    assert_eq!(validate_player(&admiral), Ok(()));
}

#[test]
fn players_are_of_the_two_teams_only_seed_003_1_1() {
    let mut mercenary = phyrexian("Sneaky", Rank::Centurion);
    mercenary.team = Team::Mercenary;
    assert_eq!(code(validate_player(&mercenary)), "coalition.setup.player_team");
    assert_eq!(code(validate_player(&phyrexian("  ", Rank::Centurion))), "coalition.setup.player_without_name");
}

#[test]
fn a_roster_keeps_names_unique_ranks_within_their_maxima_and_one_captain_per_faction_seed_003_2_5_2_1() {
    let roster = vec![phyrexian("Yawgmoth", Rank::ChiefPraetor), coalitioner("Gerrard", Rank::General, &[])];
    assert_eq!(validate_players(&roster), Ok(()));
    let mut twice = roster.clone();
    twice.push(phyrexian("GERRARD", Rank::Centurion));
    assert_eq!(code(validate_players(&twice)), "coalition.setup.duplicate_player");
    let mut two_chiefs = roster.clone();
    two_chiefs.push(phyrexian("Urza", Rank::ChiefPraetor));
    assert_eq!(code(validate_players(&two_chiefs)), "coalition.setup.rank_full");
    let mut captains = roster.clone();
    captains.push(coalitioner("Hanna", Rank::Captain, &[Faction::Blue]));
    captains.push(coalitioner("Karn", Rank::Captain, &[Faction::Colorless]));
    assert_eq!(validate_players(&captains), Ok(()));
    captains.push(coalitioner("Tahngarth", Rank::Captain, &[Faction::Blue, Faction::Red]));
    assert_eq!(code(validate_players(&captains)), "coalition.setup.faction_has_captain");
    let lieutenants: Vec<Player> =
        (0..40).map(|n| coalitioner(&format!("Lt {n}"), Rank::Lieutenant, &[Faction::Green])).collect();
    assert_eq!(validate_players(&lieutenants), Ok(()), "no limit on Lieutenants");
}

fn armies_of(team: Team, counts: [usize; 6]) -> Vec<Army> {
    let classes = [
        RankClass::ChiefPraetorGeneral,
        RankClass::PraetorAdmiral,
        RankClass::EvincarCaptain,
        RankClass::PlaguelordCommander,
        RankClass::CplLtCommander,
        RankClass::CenturionLieutenant,
    ];
    let mut armies = Vec::new();
    for (class, count) in classes.into_iter().zip(counts) {
        for n in 0..count {
            let mut army = match team {
                Team::Phyrexia => phyrexian_centurion(&format!("{team:?} {class:?} {n}")),
                _ => red_lieutenant(&format!("{team:?} {class:?} {n}")),
            };
            army.rank = class;
            army.creator = None;
            if team == Team::Coalition {
                army.colors.push(Faction::Black);
            }
            armies.push(army);
        }
    }
    armies
}

fn both_sides(counts: [usize; 6]) -> Vec<Army> {
    let mut armies = armies_of(Team::Phyrexia, counts);
    armies.extend(armies_of(Team::Coalition, counts));
    armies
}

#[test]
fn the_recommended_45_armies_a_side_are_accepted_seed_003_2_5_2_1() {
    let armies = both_sides([1, 2, 7, 7, 14, 14]);
    assert_eq!(armies.len(), 90);
    assert_eq!(validate_army_counts(&armies, &[]), Ok(()));
    assert_eq!(validate_round_armies(&armies, &[]), Ok(()));
}

#[test]
fn each_side_starts_with_the_same_number_of_armies_of_each_rank_seed_003_2_5_2_1() {
    let mut armies = both_sides([1, 2, 7, 7, 14, 14]);
    armies.extend(armies_of(Team::Phyrexia, [0, 0, 0, 0, 0, 1]).into_iter().map(|mut army| {
        army.name = "Extra".into();
        army
    }));
    assert_eq!(code(validate_army_counts(&armies, &[])), "coalition.setup.uneven_armies");
}

#[test]
fn no_side_creates_more_armies_of_a_rank_than_its_maximum_but_lieutenants_are_unlimited_seed_003_2_5_2_1() {
    for counts in [[2, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0], [0, 0, 8, 0, 0, 0], [0, 0, 0, 8, 0, 0], [0, 0, 0, 0, 15, 0]]
    {
        assert_eq!(
            code(validate_army_counts(&both_sides(counts), &[])),
            "coalition.setup.too_many_armies",
            "{counts:?}"
        );
    }
    assert_eq!(validate_army_counts(&both_sides([0, 0, 0, 0, 0, 30]), &[]), Ok(()));
}

#[test]
fn every_player_holding_a_rank_can_have_an_army_of_it_seed_003_2_5_2_1() {
    let players = [phyrexian("Yawgmoth", Rank::ChiefPraetor), phyrexian("Drudge", Rank::Drudge)];
    assert_eq!(code(validate_army_counts(&both_sides([0, 0, 0, 0, 0, 1]), &players)), "coalition.setup.too_few_armies");
    assert_eq!(validate_army_counts(&both_sides([1, 0, 0, 0, 0, 0]), &players), Ok(()), "Drudges need no army");
}

fn player_round() -> (Vec<Army>, Vec<Player>) {
    let players = vec![
        phyrexian("Crovax", Rank::Centurion),
        coalitioner("Sai Rei", Rank::Lieutenant, &[Faction::Red, Faction::Colorless]),
    ];
    let armies = vec![phyrexian_centurion("Crovax"), red_lieutenant("Sai Rei")];
    (armies, players)
}

#[test]
fn a_players_army_carries_the_players_rank_colors_and_name_seed_003_2_5_2_2() {
    let (armies, players) = player_round();
    assert_eq!(validate_round_armies(&armies, &players), Ok(()));

    let mut wrong_colors = armies.clone();
    wrong_colors[1].colors = vec![Faction::Red, Faction::Colorless, Faction::Blue];
    assert_eq!(code(validate_round_armies(&wrong_colors, &players)), "coalition.setup.army_colors_not_creator_colors");

    let mut stranger = armies.clone();
    stranger[1].creator = Some("Urza".into());
    assert_eq!(code(validate_round_armies(&stranger, &players)), "coalition.setup.unknown_creator");

    let mut turncoat = armies.clone();
    turncoat[0].creator = Some("Sai Rei".into());
    assert_eq!(code(validate_round_armies(&turncoat, &players)), "coalition.setup.creator_on_other_team");

    let mut promoted = players.clone();
    promoted[0].rank = Rank::Cpl;
    assert_eq!(code(validate_round_armies(&armies, &promoted)), "coalition.setup.army_rank_not_creator_rank");

    let mut duplicate = armies.clone();
    duplicate.push(duplicate[1].clone());
    assert_eq!(code(validate_round_armies(&duplicate, &players)), "coalition.setup.duplicate_army");

    let mut second = armies.clone();
    let mut another = red_lieutenant("Sai Rei's Second");
    another.creator = Some("Sai Rei".into());
    second.push(another);
    assert_eq!(code(validate_round_armies(&second, &players)), "coalition.setup.creator_has_army");
}

#[test]
fn a_round_refuses_an_illegal_army_and_a_legend_in_two_armies_seed_003_2_1() {
    let (mut armies, players) = player_round();
    armies[0].legend = Some("Crovax the Cursed".into());
    armies[1].legend = Some("Crovax the Cursed".into());
    assert_eq!(code(validate_round_armies(&armies, &players)), "coalition.army.legend_in_two_armies");
}

fn mercenary(name: &str, faction: MercenaryFaction, rank: RankClass) -> MercenaryArmy {
    let mut army = phyrexian_centurion(name);
    army.team = Team::Mercenary;
    army.creator = None;
    army.rank = rank;
    MercenaryArmy { faction, army }
}

fn starting_mercenaries() -> Vec<MercenaryArmy> {
    let mut mercenaries = Vec::new();
    for n in 0..3 {
        mercenaries.push(mercenary(
            &format!("Defender {n}"),
            MercenaryFaction::TownDefender,
            RankClass::CplLtCommander,
        ));
    }
    for n in 0..4 {
        mercenaries.push(mercenary(&format!("Theme {n}"), MercenaryFaction::Theme, RankClass::PlaguelordCommander));
    }
    mercenaries.push(mercenary("Raider 0", MercenaryFaction::Raider, RankClass::CenturionLieutenant));
    mercenaries.push(mercenary("Raider 1", MercenaryFaction::Raider, RankClass::CenturionLieutenant));
    mercenaries.push(mercenary("Raider 2", MercenaryFaction::Raider, RankClass::CplLtCommander));
    mercenaries
}

#[test]
fn a_round_starts_with_3_town_defenders_4_theme_armies_and_3_raiders_seed_003_6() {
    let (armies, _) = player_round();
    assert_eq!(validate_mercenaries(&starting_mercenaries(), &armies), Ok(()));
    let mut missing = starting_mercenaries();
    missing.pop();
    assert_eq!(code(validate_mercenaries(&missing, &armies)), "coalition.setup.mercenary_count");
    let mut named_like_a_player = starting_mercenaries();
    named_like_a_player[0].army.name = "Crovax".into();
    assert_eq!(code(validate_mercenaries(&named_like_a_player, &armies)), "coalition.setup.duplicate_army");
    let mut wrong_rank = starting_mercenaries();
    wrong_rank[4].army.rank = RankClass::CplLtCommander;
    assert_eq!(code(validate_mercenaries(&wrong_rank, &armies)), "coalition.setup.mercenary_rank");
    let mut in_team_list = starting_mercenaries();
    in_team_list[0].army.team = Team::Phyrexia;
    assert_eq!(code(validate_mercenaries(&in_team_list, &armies)), "coalition.setup.mercenary_team");
}
