//! Rolling an expression: draws from the tape in a documented order, then selection and pools.
//!
//! Order of draws (`docs/DICE.md` §"Rolling an expression"): terms left to right; within a dice
//! term its written dice in order, then the additional dice in the order given, then the boost
//! die; each die's explosions are drawn right after it. A verifier re-adds the total from the
//! recorded [`Draw`]s alone.

use serde::{Deserialize, Serialize};

use super::{DiceExpr, DiceTerm, Die, RollOptions, Selection, TermKind, ADDITIONAL_DICE_RULE, MAX_EXPLOSIONS};
use crate::dice::{DiceTape, Draw};
use crate::RuleError;

/// Where a die of a roll came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DieSource {
    /// Written in the expression (`2` of `2d6`).
    Written,
    /// An additional die granted by the named rule (seed 000 "Additional Dice and Boosted Rolls").
    Additional {
        /// The rule granting it.
        rule: String,
    },
    /// The boost die (seed 000 "Additional Dice and Boosted Rolls").
    Boost,
}

/// One die of a roll with its explosions: what it showed and whether it counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RolledDie {
    /// Index of the expression term the die belongs to, from 0.
    pub term: usize,
    /// Written, additional or boost.
    pub source: DieSource,
    /// Indexes into [`RollOutcome::draws`]: the die's own draw, then one per explosion.
    pub draws: Vec<usize>,
    /// The face of each of those draws (a d3's halved value, not the d6 drawn).
    pub faces: Vec<u32>,
    /// How many times the die exploded (`faces.len() - 1`).
    pub explosions: u32,
    /// The sum of `faces`: what the die is worth.
    pub value: u32,
    /// Whether keep/drop left the die in (always true without a selection).
    pub kept: bool,
    /// In a pool, whether the kept die reached the threshold; `None` outside pools and for
    /// dropped dice.
    pub success: Option<bool>,
}

/// A rolled expression, as recorded in the event that used it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RollOutcome {
    /// The expression rolled, in its canonical text.
    pub expression: DiceExpr,
    /// The extra dice declared before rolling.
    pub options: RollOptions,
    /// Every draw from the tape, in order (explosions and d3's d6 included).
    pub draws: Vec<Draw>,
    /// Every die, in draw order.
    pub dice: Vec<RolledDie>,
    /// The sum of the constant terms, with their signs.
    pub modifier: i64,
    /// Successes counted by the pool terms (signed like their terms); `None` without a pool.
    pub successes: Option<i64>,
    /// Each dice term's worth (kept dice summed, or successes for a pool), with its sign, plus
    /// the modifier.
    pub total: i64,
}

impl DiceExpr {
    /// Roll the expression from `tape`, naming each draw after `purpose` ("attack roll").
    ///
    /// The options are checked before anything is drawn, so a refused roll consumes no dice.
    pub fn roll(&self, tape: &mut DiceTape, purpose: &str, options: &RollOptions) -> Result<RollOutcome, RuleError> {
        options.validate()?;
        let first_dice = self.terms.iter().position(|term| matches!(term.kind, TermKind::Dice(_)));
        if first_dice.is_none() && options.extra_dice() > 0 {
            return Err(RuleError::new(
                "dice.extra_dice_without_dice",
                format!("\"{self}\" rolls no dice, so it cannot gain additional or boost dice"),
                ADDITIONAL_DICE_RULE,
            ));
        }
        let mut roller = Roller { tape, purpose, draws: Vec::new(), dice: Vec::new() };
        let (mut modifier, mut total, mut successes) = (0i64, 0i64, None);
        for (index, term) in self.terms.iter().enumerate() {
            let sign = term.sign.factor();
            match &term.kind {
                TermKind::Constant(value) => {
                    modifier += sign * i64::from(*value);
                    total += sign * i64::from(*value);
                }
                TermKind::Dice(dice) => {
                    let first = first_dice == Some(index);
                    let (worth, pool) = roller.term(index, dice, first.then_some(options))?;
                    total += sign * worth;
                    if pool {
                        successes = Some(successes.unwrap_or(0) + sign * worth);
                    }
                }
            }
        }
        Ok(RollOutcome {
            expression: self.clone(),
            options: options.clone(),
            draws: roller.draws,
            dice: roller.dice,
            modifier,
            successes,
            total,
        })
    }
}

struct Roller<'a> {
    tape: &'a mut DiceTape,
    purpose: &'a str,
    draws: Vec<Draw>,
    dice: Vec<RolledDie>,
}

impl Roller<'_> {
    /// Roll one dice term; returns what it is worth and whether it is a pool.
    fn term(&mut self, term: usize, dice: &DiceTerm, options: Option<&RollOptions>) -> Result<(i64, bool), RuleError> {
        let start = self.dice.len();
        let label = if options.is_some() { String::from("die") } else { format!("term {} die", term + 1) };
        for number in 1..=dice.count {
            self.die(term, dice, DieSource::Written, format!("{label} {number}"))?;
        }
        if let Some(options) = options {
            for rule in &options.additional_dice {
                let source = DieSource::Additional { rule: rule.clone() };
                self.die(term, dice, source, format!("additional die ({rule})"))?;
            }
            if options.has_boost() {
                self.die(term, dice, DieSource::Boost, String::from("boost die"))?;
            }
        }
        let rolled = &mut self.dice[start..];
        mark_kept(rolled, dice.selection);
        let kept = rolled.iter_mut().filter(|die| die.kept);
        match dice.threshold {
            None => Ok((kept.map(|die| i64::from(die.value)).sum(), false)),
            Some(threshold) => {
                let mut successes = 0;
                for die in kept {
                    let success = die.value >= threshold;
                    die.success = Some(success);
                    successes += i64::from(success);
                }
                Ok((successes, true))
            }
        }
    }

    /// Roll one die and its explosions.
    fn die(&mut self, term: usize, dice: &DiceTerm, source: DieSource, label: String) -> Result<(), RuleError> {
        let mut rolled = RolledDie {
            term,
            source,
            draws: Vec::new(),
            faces: Vec::new(),
            explosions: 0,
            value: 0,
            kept: true,
            success: None,
        };
        let mut face = self.draw(dice.die, &label, &mut rolled)?;
        while dice.explode && face == dice.die.max_face() && rolled.explosions < MAX_EXPLOSIONS {
            rolled.explosions += 1;
            face = self.draw(dice.die, &format!("{label}, explosion {}", rolled.explosions), &mut rolled)?;
        }
        self.dice.push(rolled);
        Ok(())
    }

    fn draw(&mut self, die: Die, label: &str, rolled: &mut RolledDie) -> Result<u32, RuleError> {
        let prefix = if self.purpose.is_empty() { String::new() } else { format!("{}, ", self.purpose) };
        let suffix = if die == Die::D3 { " (d3: d6 halved, rounded up)" } else { "" };
        let draw = self.tape.roll(die.draw_sides(), format!("{prefix}{label}{suffix}"))?;
        let face = die.face(draw.value);
        rolled.draws.push(self.draws.len());
        rolled.faces.push(face);
        rolled.value += face;
        self.draws.push(draw);
        Ok(face)
    }
}

/// Mark which dice count. Ties go to the earlier die: sorting is stable over draw order.
fn mark_kept(dice: &mut [RolledDie], selection: Option<Selection>) {
    let Some(selection) = selection else { return };
    let mut order: Vec<usize> = (0..dice.len()).collect();
    let (n, highest_first, keep) = match selection {
        Selection::KeepHighest(n) => (n, true, true),
        Selection::KeepLowest(n) => (n, false, true),
        Selection::DropHighest(n) => (n, true, false),
        Selection::DropLowest(n) => (n, false, false),
    };
    if highest_first {
        order.sort_by(|a, b| dice[*b].value.cmp(&dice[*a].value));
    } else {
        order.sort_by_key(|index| dice[*index].value);
    }
    let picked = usize::try_from(n).unwrap_or(usize::MAX).min(order.len());
    for (rank, index) in order.into_iter().enumerate() {
        dice[index].kept = (rank < picked) == keep;
    }
}
