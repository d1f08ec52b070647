//! Refusals that no other percentile-skirmish test reaches (issue 26 item 5: every code of the
//! error table triggered by a test): picks outside an open combat, fleeing without fear,
//! commands to spells that take none, to minis nobody commands, summoning twice, declaring an
//! inactive golem, and battles opened with bad options or too much terrain.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::percentile_skirmish::{
    battle::{
        command::{FamiliarSpec, SkirmishCommand, Summons},
        state::Phase,
    },
    rules::{BattleOptions, CombatChoice, SpellRolls},
    spells::Spell,
    table::{Table, TerrainKind},
};
use support::*;

const SERVICE: &str = "herald: docs/rulesets/percentile-skirmish.md";

/// A battle nobody has opened yet, to try opening commands on.
fn unopened() -> Battle {
    Battle::empty(0)
}

fn two_minis() -> Vec<herald_domain::percentile_skirmish::mini::MiniSpec> {
    vec![
        mini("red-a", RED, card("Fighter", 3, 10, 30), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0),
    ]
}

// ---------------------------------------------------------------------------------------------
// Open combat
// ---------------------------------------------------------------------------------------------

#[test]
fn picks_need_an_open_combat_and_a_side_in_it_per_seed_002_open_combat() {
    // Seed 002 "Open combat": the attacker and the defender each pick one of three options.
    let mut minis = two_minis();
    minis.push(mini("blue-c", BLUE, card("Archer", 1, 4, 30), 30.0, 30.0, 180.0));
    let mut battle = Given::minis(minis).acting("red-a").battle();
    battle.refused_by(
        alice(),
        pick("red-a", CombatChoice::SwingToTheHead),
        "percentile-skirmish.no_open_combat",
        "Open combat",
    );
    battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    battle.refused_by(
        bob(),
        pick("blue-c", CombatChoice::SwingToTheHead),
        "percentile-skirmish.not_in_combat",
        "Open combat",
    );
}

#[test]
fn only_the_defender_names_a_weapon_with_its_pick() {
    // Seed 002 "Open combat": the attacker chose its weapon when it attacked
    // (docs/rulesets/percentile-skirmish.md: `weapon` on a pick is the defender's).
    let mut battle = Given::minis(two_minis()).acting("red-a").battle();
    battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    let with_weapon = SkirmishCommand::ChooseCombatOption {
        mini: "red-a".into(),
        choice: CombatChoice::ThrustToTheBody,
        weapon: Some("Sword".into()),
    };
    battle.refused_by(alice(), with_weapon, "percentile-skirmish.weapon_for_defender", SERVICE);
}

// ---------------------------------------------------------------------------------------------
// Fear, Command, summons
// ---------------------------------------------------------------------------------------------

#[test]
fn only_a_frightened_mini_flees_per_seed_002_fear() {
    // Seed 002 "Fear": the frightened mini runs away from the caster; one that is not, does not.
    let mut battle = Given::minis(two_minis()).acting("red-a").battle();
    battle.refused_by(
        alice(),
        SkirmishCommand::Flee { mini: "red-a".into() },
        "percentile-skirmish.not_afraid",
        "Fear",
    );
}

fn wizard(spells: &[Spell]) -> Vec<herald_domain::percentile_skirmish::mini::MiniSpec> {
    let mut profile = caster("Wizard", 20, 20, spells);
    profile.spell_attacks = 3;
    vec![
        mini("red-wizard", RED, profile, 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 14.0, 10.0, 180.0),
    ]
}

#[test]
fn a_spell_other_than_command_or_golem_takes_no_command_per_seed_002_spell_descriptions() {
    // Seed 002 "Command" and "Golem" are the spells given a simple command; Speed is not one.
    let mut battle = Given::minis(wizard(&[Spell::Speed])).acting("red-wizard").battle();
    let speed = SkirmishCommand::CastSpell {
        caster: "red-wizard".into(),
        spell: Spell::Speed,
        target: None,
        at: None,
        command: Some("run".into()),
    };
    battle.refused_by(alice(), speed, "percentile-skirmish.command_not_taken", "Speed");
}

#[test]
fn a_new_command_goes_only_to_a_mini_the_caster_commands_per_seed_002_command() {
    // Seed 002 "Command": the caster gives new commands to the mini under its command spell.
    let mut battle = Given::minis(wizard(&[Spell::Command])).acting("red-wizard").battle();
    let order = SkirmishCommand::IssueCommand {
        caster: "red-wizard".into(),
        mini: "blue-b".into(),
        command: "walk north".into(),
    };
    battle.refused_by(alice(), order, "percentile-skirmish.not_commanded", "Command");
}

fn summons() -> Summons {
    Summons {
        golem: Some(Box::new(card("Clay golem", 2, 6, 30))),
        familiar: Some(Box::new(FamiliarSpec { profile: card("Raven", 0, 12, 3), effect: "watches".into() })),
    }
}

#[test]
fn a_caster_has_one_familiar_at_a_time_per_seed_002_familiar() {
    // Seed 002 "Familiar" (cost 25, lasting 1 turn + level); "Golem" and "Teleport" speak of
    // "the spell caster's familiar", one: a second cast while it is on the table is refused.
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle =
        Given::minis(wizard(&[Spell::Familiar])).summons(summons()).options(options).acting("red-wizard").battle();
    battle.by(alice(), cast_to("red-wizard", Spell::Familiar, 12.0, 12.0));
    assert!(battle.state.minis.contains_key("red-wizard-familiar-1"));
    battle.refused_by(
        alice(),
        cast_to("red-wizard", Spell::Familiar, 12.0, 14.0),
        "percentile-skirmish.already_summoned",
        "Familiar",
    );
}

#[test]
fn an_inactive_golem_cannot_be_declared_per_seed_002_golem() {
    // Seed 002 "Golem": beyond its caster's range the golem becomes inactive until commanded
    // again; it does not act.
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 4, 20, &[Spell::Golem]), 10.0, 10.0, 0.0),
        mini("red-c", RED, card("Scout", 1, 3, 20), 2.0, 40.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).summons(summons()).options(options).acting("red-wizard").battle();
    battle.by(
        alice(),
        SkirmishCommand::CastSpell {
            caster: "red-wizard".into(),
            spell: Spell::Golem,
            target: None,
            at: Some(p(25.0, 10.0)),
            command: Some("hold the bridge".into()),
        },
    );
    battle.by(alice(), walk("red-wizard", &[(6.0, 10.0)]));
    assert!(!battle.mini("red-wizard-golem-1").golem_active);
    battle.judge(done("red-wizard"));
    // Let the rounds go by until red's round 3 (its scout) waits for red's declaration.
    for _ in 0..50 {
        let round = battle.state.round.clone().expect("a round");
        let red_waits = round.declarations.iter().any(|d| d.participant == RED && d.declared.is_none());
        if battle.state.phase == Phase::Declaring && red_waits && round.value <= 6 {
            break;
        }
        match battle.state.phase {
            Phase::Acting => {
                let acting = battle.acting().expect("a mini acts");
                battle.judge(done(&acting));
            }
            _ => {
                for declaration in round.declarations.iter().filter(|d| d.declared.is_none()) {
                    battle.judge(declare(&declaration.participant, &[]));
                }
            }
        }
    }
    battle.refused(declare(RED, &["red-wizard-golem-1"]), "percentile-skirmish.golem_inactive", "Golem");
}

// ---------------------------------------------------------------------------------------------
// Opening a battle
// ---------------------------------------------------------------------------------------------

#[test]
fn a_battle_with_options_the_rules_cannot_play_is_refused() {
    for options in [
        BattleOptions { melee_reach: 0.0, ..BattleOptions::default() },
        BattleOptions { fireball_width: f64::NAN, ..BattleOptions::default() },
        BattleOptions { front_arc: 361.0, ..BattleOptions::default() },
        BattleOptions { large_shield: 1001, ..BattleOptions::default() },
    ] {
        let open = create_command(Table::default(), two_minis(), options, Summons::default(), 0);
        unopened().refused(open, "percentile-skirmish.bad_options", SERVICE);
    }
}

#[test]
fn a_table_with_more_than_100_terrain_features_is_refused() {
    // Herald's cap (domain/src/percentile_skirmish/limits.rs, docs/rulesets/percentile-skirmish.md
    // "Caps"): at most 100 terrain features.
    let terrain = (0..101)
        .map(|i| {
            let x = f64::from(i % 10) * 4.0;
            let y = f64::from(i / 10) * 4.0;
            rect(&format!("copse {i}"), TerrainKind::Road, (x, y), (x + 1.0, y + 1.0))
        })
        .collect();
    let open = create_command(table_with(terrain), two_minis(), BattleOptions::default(), Summons::default(), 0);
    unopened().refused(open, "percentile-skirmish.too_much_terrain", SERVICE);
}
