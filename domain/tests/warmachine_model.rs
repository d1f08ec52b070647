//! Warmachine model profiles (seed 000 "Model Types, Stats, and Damage Capacity", "Model
//! Statistics", "Weapon Statistics", "Additional Dice and Boosted Rolls").
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use herald_domain::warmachine::model::{
    additional_dice, may_boost, BaseSize, DamageCapacity, DamageGrid, Location, Mechanic, ModelProfile, ModelType,
    RollKind, SpecialRule, StatCard, System, Weapon, WeaponKind, WeaponRange,
};

fn stats() -> StatCard {
    StatCard {
        spd: 5,
        strength: None,
        mat: 6,
        rat: 5,
        aat: None,
        def: 13,
        arm: 13,
        arc: None,
        fury: None,
        ctrl: None,
        thr: None,
    }
}

fn grid() -> DamageGrid {
    DamageGrid::parse(&["--LL", "--LLM", "--MC", "--MC", "--RRM", "--RR"]).unwrap()
}

fn weapon(kind: WeaponKind) -> Weapon {
    Weapon {
        name: "Hammer".into(),
        kind,
        rng: WeaponRange::Inches(if kind == WeaponKind::Melee { 0.5 } else { 10.0 }),
        rof: (kind == WeaponKind::Ranged).then_some(1),
        aoe: None,
        pow: Some(12),
        blast_pow: None,
        location: None,
        special_rules: Vec::new(),
    }
}

fn profile(model_type: ModelType) -> ModelProfile {
    let mut stats = stats();
    let mut damage = DamageCapacity::Boxes { boxes: 5 };
    match model_type {
        ModelType::Warcaster | ModelType::Warlock => {
            stats.arc = Some(6);
            stats.ctrl = Some(14);
        }
        ModelType::Warbeast => {
            stats.fury = Some(3);
            stats.thr = Some(9);
        }
        ModelType::Warjack => damage = DamageCapacity::Grid { grid: grid() },
        ModelType::Trooper | ModelType::Solo => {}
    }
    ModelProfile {
        name: "Test".into(),
        model_type,
        stats,
        base: BaseSize::Medium,
        damage,
        weapons: vec![weapon(WeaponKind::Melee), weapon(WeaponKind::Ranged)],
        special_rules: Vec::new(),
    }
}

fn code(profile: &ModelProfile) -> String {
    profile.validate().map(|()| "ok".to_string()).unwrap_or_else(|e| e.code)
}

#[test]
fn every_model_type_has_a_valid_profile_per_model_types_stats_and_damage_capacity() {
    for t in [ModelType::Warcaster, ModelType::Warlock, ModelType::Warjack, ModelType::Warbeast, ModelType::Trooper] {
        assert_eq!(code(&profile(t)), "ok", "{t:?}");
    }
    assert_eq!(code(&profile(ModelType::Solo)), "ok");
}

#[test]
fn warjacks_have_a_cortex_are_constructs_and_not_living_per_warjacks() {
    let rules = ModelType::Warjack.common_rules();
    assert!(rules.cortex && rules.construct && rules.battlegroup_member && rules.independent);
    assert!(!rules.living());
    assert!(ModelType::Warbeast.common_rules().living());
}

#[test]
fn warcasters_manipulate_focus_and_warlocks_fury_and_both_are_leaders_per_model_types() {
    let caster = ModelType::Warcaster.common_rules();
    let lock = ModelType::Warlock.common_rules();
    assert!(caster.focus_manipulation && !caster.fury_manipulation && caster.leader);
    assert!(lock.fury_manipulation && !lock.focus_manipulation && lock.leader);
    assert!(ModelType::Warbeast.common_rules().forceable);
    assert!(!ModelType::Trooper.common_rules().independent);
}

#[test]
fn base_sizes_have_their_radius_in_inches_and_compare_by_size() {
    assert!((BaseSize::Small.radius_inches() - 30.0 / 25.4 / 2.0).abs() < 1e-12);
    assert!((BaseSize::Huge.radius_inches() - 120.0 / 50.8).abs() < 1e-12);
    assert!(BaseSize::Small < BaseSize::Medium && BaseSize::Large < BaseSize::Huge);
}

#[test]
fn arc_and_ctrl_are_required_for_warcasters_and_refused_for_warjacks_per_model_statistics() {
    let mut caster = profile(ModelType::Warcaster);
    caster.stats.ctrl = None;
    assert_eq!(code(&caster), "warmachine.model.ctrl_missing");
    caster.stats.ctrl = Some(14);
    caster.stats.arc = None;
    assert_eq!(code(&caster), "warmachine.model.arc_missing");
    let mut jack = profile(ModelType::Warjack);
    jack.stats.arc = Some(3);
    assert_eq!(code(&jack), "warmachine.model.arc_not_allowed");
}

#[test]
fn fury_and_threshold_belong_to_warbeasts_only_per_model_statistics() {
    let mut beast = profile(ModelType::Warbeast);
    beast.stats.thr = None;
    assert_eq!(code(&beast), "warmachine.model.thr_missing");
    let mut trooper = profile(ModelType::Trooper);
    trooper.stats.fury = Some(2);
    assert_eq!(code(&trooper), "warmachine.model.fury_not_allowed");
}

#[test]
fn only_warjacks_have_damage_grids_per_model_types_stats_and_damage_capacity() {
    let mut jack = profile(ModelType::Warjack);
    jack.damage = DamageCapacity::Boxes { boxes: 20 };
    assert_eq!(code(&jack), "warmachine.model.warjack_needs_grid");
    let mut solo = profile(ModelType::Solo);
    solo.damage = DamageCapacity::Grid { grid: grid() };
    assert_eq!(code(&solo), "warmachine.model.grid_not_warjack");
    solo.damage = DamageCapacity::Boxes { boxes: 0 };
    assert_eq!(code(&solo), "warmachine.model.no_damage_boxes");
}

#[test]
fn weapon_bars_are_checked_per_weapon_statistics() {
    let mut p = profile(ModelType::Solo);
    p.weapons[0].rof = Some(1);
    assert_eq!(code(&p), "warmachine.model.melee_rate_of_fire");
    let mut p = profile(ModelType::Solo);
    p.weapons[1].rof = None;
    assert_eq!(code(&p), "warmachine.model.ranged_needs_rate_of_fire");
    let mut p = profile(ModelType::Solo);
    p.weapons[1].rng = WeaponRange::Inches(0.0);
    assert_eq!(code(&p), "warmachine.model.range_not_positive");
    let mut p = profile(ModelType::Solo);
    p.weapons[1].rng = WeaponRange::Control;
    assert_eq!(code(&p), "warmachine.model.control_range_without_ctrl");
    let mut p = profile(ModelType::Solo);
    p.weapons[1].blast_pow = Some(7);
    assert_eq!(code(&p), "warmachine.model.blast_pow_without_aoe");
    p.weapons[1].aoe = Some(3);
    assert_eq!(code(&p), "ok");
    p.weapons[1].location = Some(Location::Left);
    assert_eq!(code(&p), "warmachine.model.location_not_warjack");
    let mut p = profile(ModelType::Solo);
    p.weapons[0].rng = WeaponRange::Spray(8.0);
    assert_eq!(code(&p), "warmachine.model.melee_spray");
}

#[test]
fn pow_is_never_below_zero_and_range_reduced_to_zero_cannot_attack_per_weapon_statistics() {
    let w = weapon(WeaponKind::Ranged);
    assert_eq!(w.modified_pow(-20), Some(0));
    assert_eq!(w.modified_pow(2), Some(14));
    assert!(!w.usable_with_range_modifier(-10.0));
    assert!(w.usable_with_range_modifier(-9.5));
    assert!(!profile(ModelType::Solo).weapons.is_empty() && profile(ModelType::Solo).can_charge());
}

#[test]
fn a_system_is_crippled_when_all_its_boxes_are_damaged_per_location() {
    let mut g = grid();
    // Column 3: two blanks, M, C; 4 points fill it exactly.
    let hit = g.mark(3, 4).unwrap();
    assert_eq!(hit.marked, 4);
    assert!(hit.newly_crippled.is_empty(), "the other C box in column 4 is intact");
    let hit = g.mark(4, 4).unwrap();
    assert_eq!(hit.newly_crippled, vec![System::Cortex]);
    assert!(g.is_crippled(System::Cortex) && !g.is_crippled(System::Movement));
    assert!(!g.is_crippled(System::Head), "a grid without H never cripples it");
}

#[test]
fn damage_continues_into_the_next_column_and_wraps_from_six_to_one_per_location() {
    let mut g = grid();
    let hit = g.mark(5, 9).unwrap();
    assert_eq!(hit.marked, 9);
    assert_eq!(hit.newly_crippled, vec![System::RightArm]);
    let hit = g.mark(6, 2).unwrap();
    assert_eq!(hit.marked, 2);
    assert!(g.columns[0][..2].iter().all(|b| b.damaged) && !g.columns[0][2].damaged);
    let total = u16::try_from(g.total_boxes()).unwrap();
    let hit = g.mark(1, total).unwrap();
    assert!(hit.destroyed);
    assert_eq!(usize::from(hit.marked), g.total_boxes() - 11);
    assert_eq!(g.remaining(), 0);
}

#[test]
fn grids_are_validated_per_location() {
    assert_eq!(DamageGrid::parse(&["L"]).unwrap_err().code, "warmachine.model.grid_column_count");
    assert_eq!(DamageGrid::parse(&["X", "", "", "", "", ""]).unwrap_err().code, "warmachine.model.grid_box_letter");
    assert_eq!(DamageGrid::parse(&["", "", "", "", "", ""]).unwrap_err().code, "warmachine.model.grid_empty");
    assert_eq!(grid().mark(7, 1).unwrap_err().code, "warmachine.model.grid_column_out_of_range");
}

#[test]
fn additional_dice_count_once_per_rule_per_additional_dice_and_boosted_rolls() {
    let die = Mechanic::AdditionalDie { roll: RollKind::Damage };
    let rules = vec![
        SpecialRule::with("Brutal", vec![die.clone(), die.clone()]),
        SpecialRule::with("Brutal", vec![die.clone()]),
        SpecialRule::with("Weight", vec![die]),
        SpecialRule::with("Accurate", vec![Mechanic::Boost { roll: RollKind::RangedAttack }]),
        SpecialRule::named("Pathfinder"),
    ];
    assert_eq!(additional_dice(&rules, RollKind::Damage), 2);
    assert_eq!(additional_dice(&rules, RollKind::MeleeAttack), 0);
    assert!(may_boost(&rules, RollKind::RangedAttack) && !may_boost(&rules, RollKind::Damage));
}

#[test]
fn profiles_round_trip_through_json() {
    let p = profile(ModelType::Warjack);
    let json = serde_json::to_string(&p).unwrap();
    assert!(json.contains("\"kind\":\"grid\""));
    let back: ModelProfile = serde_json::from_str(&json).unwrap();
    assert_eq!(back, p);
}
