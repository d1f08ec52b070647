//! Parsing dice expressions: what is accepted, its canonical text, and how malformed input is
//! reported (docs/DICE.md "Dice expressions").

use herald_domain::dice::expr::{DiceTerm, Die, Selection, Sign, TermKind, MAX_DICE};
use herald_domain::dice::{DiceExpr, ExprError};
use herald_domain::RuleError;

fn parse(text: &str) -> DiceExpr {
    DiceExpr::parse(text).unwrap_or_else(|error| panic!("{text:?} should parse: {error}"))
}

fn error(text: &str) -> ExprError {
    match DiceExpr::parse(text) {
        Ok(expr) => panic!("{text:?} should not parse, got {expr}"),
        Err(error) => error,
    }
}

fn only_dice(text: &str) -> DiceTerm {
    match parse(text).terms() {
        [term] => match term.kind {
            TermKind::Dice(dice) => dice,
            TermKind::Constant(_) => panic!("{text:?} is a constant"),
        },
        terms => panic!("{text:?} has {} terms", terms.len()),
    }
}

#[test]
fn a_dice_term_without_a_count_rolls_one_die() {
    let dice = only_dice("d6");
    assert_eq!((dice.count, dice.die), (1, Die::Sides(6)));
    assert_eq!(parse("d6"), parse("1d6"));
}

#[test]
fn two_d6_plus_three_is_a_dice_term_and_a_constant() {
    let expr = parse("2d6+3");
    let [dice, constant] = expr.terms() else { panic!("two terms expected") };
    assert_eq!(dice.sign, Sign::Plus);
    assert!(matches!(dice.kind, TermKind::Dice(DiceTerm { count: 2, die: Die::Sides(6), .. })));
    assert_eq!((constant.sign, constant.kind), (Sign::Plus, TermKind::Constant(3)));
}

#[test]
fn whitespace_is_allowed_around_operators_and_at_the_ends() {
    assert_eq!(parse("  2d6 + 3 - d3 "), parse("2d6+3-d3"));
    assert_eq!(parse("2D6"), parse("2d6"));
}

#[test]
fn d3_and_percentile_dice_have_their_own_kinds() {
    assert_eq!(only_dice("d3").die, Die::D3);
    assert_eq!(only_dice("d%").die, Die::Percentile);
    assert_eq!(only_dice("d100").die, Die::Sides(100));
    assert_eq!((Die::D3.draw_sides(), Die::D3.max_face()), (6, 3));
    assert_eq!((1..=6).map(|drawn| Die::D3.face(drawn)).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3]);
}

#[test]
fn suffixes_parse_into_explode_selection_and_threshold() {
    assert!(only_dice("3d6!").explode);
    assert_eq!(only_dice("4d6kh3").selection, Some(Selection::KeepHighest(3)));
    assert_eq!(only_dice("4d6dl1").selection, Some(Selection::DropLowest(1)));
    assert_eq!(only_dice("2d20kl1").selection, Some(Selection::KeepLowest(1)));
    assert_eq!(only_dice("4d6dh1").selection, Some(Selection::DropHighest(1)));
    assert_eq!(only_dice("6d6>=5").threshold, Some(5));
    let all = only_dice("5d10!kh3>=8");
    assert_eq!((all.explode, all.selection, all.threshold), (true, Some(Selection::KeepHighest(3)), Some(8)));
}

#[test]
fn display_is_canonical_and_parses_back_to_the_same_expression() {
    for (text, canonical) in [
        ("1d6", "d6"),
        ("2d6 + 3", "2d6+3"),
        ("d%", "d%"),
        ("d100", "d100"),
        ("2D3-1", "2d3-1"),
        ("6d6>=5", "6d6>=5"),
        ("5d10!kh3>=8", "5d10!kh3>=8"),
        ("4 - 2d20kl1 + d6!", "4-2d20kl1+d6!"),
    ] {
        let expr = parse(text);
        assert_eq!(expr.to_string(), canonical);
        assert_eq!(parse(canonical), expr);
    }
}

#[test]
fn serde_writes_an_expression_as_its_text_and_refuses_malformed_text() {
    let expr = parse("4d6 kh3".replace(' ', "").as_str());
    assert_eq!(serde_json::to_string(&expr).expect("serializes"), "\"4d6kh3\"");
    assert_eq!(serde_json::from_str::<DiceExpr>("\"2d6 + 1\"").expect("deserializes"), parse("2d6+1"));
    let refused = serde_json::from_str::<DiceExpr>("\"2d6++1\"").expect_err("malformed");
    assert!(refused.to_string().contains("at position 4"), "{refused}");
}

#[test]
fn malformed_expressions_name_the_position_and_what_was_expected() {
    for (text, position, expected) in [
        ("2d", 2, "the number of sides or '%'"),
        ("2d6++3", 4, "a number or a dice term such as 2d6"),
        ("abc", 0, "a number or a dice term such as 2d6"),
        ("2d6+", 4, "a number or a dice term such as 2d6"),
        ("2d6x", 3, "'!', 'kh', 'kl', 'dh', 'dl', '>=', '+', '-' or the end of the expression"),
        ("2d6 x", 4, "'+', '-' or the end of the expression"),
        ("2 d6", 2, "'+', '-' or the end of the expression"),
        ("4d6k3", 4, "'h' or 'l' after 'k'"),
        ("2d6d6", 4, "'h' or 'l' after 'd'"),
        ("6d6>5", 4, "'=' after '>' (a pool is written 6d6>=5)"),
        ("6d6>=", 5, "the success threshold"),
        ("-2d6", 0, "a number or a dice term such as 2d6"),
        ("2d6 é", 4, "'+', '-' or the end of the expression"),
    ] {
        match error(text) {
            ExprError::Unexpected { position: at, expected: wanted, .. } => {
                assert_eq!((at, wanted), (position, expected), "{text:?}")
            }
            other => panic!("{text:?}: unexpected error {other:?}"),
        }
    }
    assert_eq!(error("2d6++3").to_string(), "at position 4: expected a number or a dice term such as 2d6, found '+'");
    assert_eq!(
        error("2d").to_string(),
        "at position 2: expected the number of sides or '%', found the end of the expression"
    );
}

#[test]
fn zero_dice_zero_sides_and_meaningless_suffixes_are_invalid() {
    for (text, position) in [
        ("0d6", 0),
        ("d0", 1),
        ("2d6+0d4", 4),
        ("d1!", 2),
        ("2d6kh3", 3),
        ("2d6kh0", 3),
        ("2d6dl2", 3),
        ("6d6>=7", 3),
        ("6d6>=0", 3),
        ("2d3>=4", 3),
    ] {
        let found = error(text);
        assert!(matches!(found, ExprError::Invalid { .. }), "{text:?}: {found:?}");
        assert_eq!(found.position(), Some(position), "{text:?}: {found}");
    }
}

#[test]
fn counts_sides_constants_and_lengths_over_their_caps_are_refused() {
    assert_eq!(DiceExpr::parse("1000d6").map(|expr| expr.dice_count()), Ok(MAX_DICE));
    assert_eq!(error("1001d6"), ExprError::TooManyDice { position: 0, max: MAX_DICE });
    assert_eq!(error("600d6+400d6+d6"), ExprError::TooManyDice { position: 12, max: MAX_DICE });
    assert_eq!(error("99999999999999999999d6"), ExprError::TooManyDice { position: 0, max: MAX_DICE });
    assert!(matches!(error("d1000001"), ExprError::NumberTooLarge { position: 1, what: "number of sides", .. }));
    assert!(matches!(error("2d6+1000001"), ExprError::NumberTooLarge { position: 4, what: "constant", .. }));
    assert!(matches!(error(&"1+".repeat(200)), ExprError::TooLong { length: 400, max: 256 }));
    assert!(matches!(error(&format!("d6{}", "+1".repeat(40))), ExprError::TooManyTerms { max: 32, .. }));
    assert_eq!(error("   "), ExprError::Empty);
    assert_eq!(error(""), ExprError::Empty);
}

#[test]
fn a_parse_error_becomes_a_rule_error_citing_the_dice_document() {
    let rule_error = RuleError::from(error("2d"));
    assert_eq!(rule_error.code, "dice.malformed_expression");
    assert!(rule_error.message.contains("at position 2"));
    assert!(rule_error.rule.contains("docs/DICE.md"));
}

#[test]
fn the_openapi_schema_of_an_expression_is_a_string_and_outcomes_reference_it() {
    use utoipa::{PartialSchema, ToSchema};
    let schema = serde_json::to_value(DiceExpr::schema()).expect("schema serializes");
    assert_eq!(schema["type"], "string");
    assert_eq!(DiceExpr::name(), "DiceExpr");
    let outcome = serde_json::to_value(herald_domain::dice::RollOutcome::schema()).expect("schema serializes");
    assert_eq!(outcome["properties"]["expression"]["$ref"], "#/components/schemas/DiceExpr");
    let mut referenced = Vec::new();
    herald_domain::dice::RollOutcome::schemas(&mut referenced);
    assert!(referenced.iter().any(|(name, _)| name == "DiceExpr"));
}
