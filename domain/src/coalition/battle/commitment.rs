//! Salted commitments to a battle's hidden formulas (seed 003 §4.2.2, §4.2.5, §4.3.3, §4.4;
//! docs/DICE.md "Commitments to hidden formulas"; docs/adr/0003-formula-commitments.md).
//!
//! The seed keeps the size, casualty, kill and joint formulas secret ("that formula is secret and
//! known only to the judge", §4.2.2), so a reader cannot see them while the battle is fought — but
//! every outcome depends on them. Each event that sets them publishes
//!
//! ```text
//! formula_commitment = hex(sha256("herald/formulas/v1" ‖ salt ‖ canonical JSON of the formulas))
//! ```
//!
//! before the first die, and keeps the formulas and the 32-byte salt hidden with them. Opened
//! (when the battle ends under [`FormulaOpening::OpenAtEnd`], or by the judge to whoever disputes
//! a result under [`FormulaOpening::Secret`]), anyone checks the formulas against the commitment
//! and recomputes every outcome. The salt keeps the few plausible formulas from being found by
//! hashing each guess. Pure: the salt comes from the service, in the command.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{BattleOptions, CasualtyFormula, JointFormula, KillFormula, SizeFormula};

/// The domain-separation prefix of a formula commitment (ASCII, no terminator).
pub const FORMULAS_DOMAIN: &[u8] = b"herald/formulas/v1";

/// The salt's length in bytes (its hex text has twice as many digits).
pub const SALT_BYTES: usize = 32;

/// When the hidden formulas are opened to every reader (a public choice, fixed when the battle
/// opens, so nobody learns anything from a change of policy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormulaOpening {
    /// Seed 003 §4.2.2, §4.2.5 and §4.3.3 keep the formulas secret and known only to the judge,
    /// across battles: readers see the commitment only, and the judge shows the opening to
    /// whoever disputes a result (`GET /v1/battles/{id}/formulas`), who checks it against the
    /// commitment. The default: what a referee reading the seed would do.
    #[default]
    Secret,
    /// Once the battle has ended the formulas, the salt, the size bonuses and the modified totals
    /// are public, so anyone recomputes every outcome.
    OpenAtEnd,
}

impl FormulaOpening {
    /// Whether this is the default (left out of stored payloads, so older battles replay to the
    /// same bytes).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// The hidden formulas of a battle, in the canonical order of the commitment: every field
/// present, defaults included (unlike [`BattleOptions`], which leaves default kill and joint
/// formulas out). The tie rule is public and not part of it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HiddenFormulas {
    /// The size-bonus formula (seed 003 §4.2.2).
    pub size_formula: SizeFormula,
    /// The casualty formula (seed 003 §4.2.5).
    pub casualty_formula: CasualtyFormula,
    /// The kill and capture formula (seed 003 §4.3.3, §4.5).
    pub kill_formula: KillFormula,
    /// The 2v1 and 2v2 formula (seed 003 §4.4).
    pub joint_formula: JointFormula,
}

impl From<&BattleOptions> for HiddenFormulas {
    fn from(options: &BattleOptions) -> Self {
        Self {
            size_formula: options.size_formula,
            casualty_formula: options.casualty_formula,
            kill_formula: options.kill_formula,
            joint_formula: options.joint_formula,
        }
    }
}

impl HiddenFormulas {
    /// The canonical JSON text: `serde_json`'s compact form of this struct, fields in declaration
    /// order (nested ones too), no whitespace, integers in decimal, enums as their snake_case
    /// names (docs/DICE.md "Commitments to hidden formulas").
    pub fn canonical_json(&self) -> String {
        // Plain integers, strings and structs: serialization cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The commitment to `formulas` under `salt`, lower-case hex.
pub fn commitment(formulas: &HiddenFormulas, salt: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(FORMULAS_DOMAIN);
    hasher.update(salt);
    hasher.update(formulas.canonical_json().as_bytes());
    hex::encode(hasher.finalize())
}

/// The salt as bytes, if `salt_hex` is exactly [`SALT_BYTES`] bytes of hex.
pub fn parse_salt(salt_hex: &str) -> Option<Vec<u8>> {
    hex::decode(salt_hex).ok().filter(|bytes| bytes.len() == SALT_BYTES)
}

/// What the judge shows of a commitment (and everyone sees once it is open): enough to check it
/// by hand — `sha256("herald/formulas/v1" ‖ unhex(salt) ‖ canonical)` must be `commitment`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FormulaOpeningRecord {
    /// The formulas in force.
    pub formulas: HiddenFormulas,
    /// The salt, 64 hex digits.
    pub salt: String,
    /// The public commitment, as published in the event that set the formulas.
    pub commitment: String,
    /// The canonical JSON text that was hashed (the bytes after the salt).
    pub canonical: String,
}

impl FormulaOpeningRecord {
    /// The opening of `formulas` under `salt_hex`, or `None` for a malformed salt.
    pub fn new(formulas: HiddenFormulas, salt_hex: &str) -> Option<Self> {
        let salt = parse_salt(salt_hex)?;
        Some(Self {
            formulas,
            salt: salt_hex.to_ascii_lowercase(),
            commitment: commitment(&formulas, &salt),
            canonical: formulas.canonical_json(),
        })
    }

    /// Whether the opening matches its commitment (anyone shown it can run this, or the few lines
    /// of docs/verify_dice.py `--opening`).
    pub fn matches(&self) -> bool {
        parse_salt(&self.salt).is_some_and(|salt| {
            commitment(&self.formulas, &salt) == self.commitment.to_ascii_lowercase()
                && self.formulas.canonical_json() == self.canonical
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coalition::battle::SizeWeighting;

    const SALT: [u8; 32] = [7; 32];

    /// The test vector of docs/DICE.md "Commitments to hidden formulas".
    #[test]
    fn the_default_formulas_hash_to_the_documented_vector() {
        let defaults = HiddenFormulas::default();
        assert_eq!(
            defaults.canonical_json(),
            r#"{"size_formula":{"weighting":"power_toughness","scale":10},"casualty_formula":{"base":50,"per_pair_lost":50,"per_margin":5,"max":600},"kill_formula":{"defence":6,"damage_step":100,"max_damage_bonus":10,"overkill":3,"capture_penalty":2,"spare":2},"joint_formula":{"size_formula":{"weighting":"power_toughness","scale":8},"casualty_percent":125,"retreat_penalty":2}}"#
        );
        let salt: Vec<u8> = (0u8..32).collect();
        assert_eq!(commitment(&defaults, &salt), VECTOR);
    }

    /// Computed once from the canonical text above and salt 00 01 … 1f; written in docs/DICE.md.
    const VECTOR: &str = "80036e1a135d2d73ca31331ea9230214c9b78e070ee3b1a873c1886d26a85c61";

    #[test]
    fn the_commitment_changes_with_the_salt() {
        let formulas = HiddenFormulas::default();
        assert_ne!(commitment(&formulas, &SALT), commitment(&formulas, &[8; 32]));
    }

    #[test]
    fn the_commitment_changes_with_any_formula_field_seed_003_4_2_2() {
        let base = HiddenFormulas::default();
        let reference = commitment(&base, &SALT);
        let mut variants = Vec::new();
        let mut f = base;
        f.size_formula.weighting = SizeWeighting::Troops;
        variants.push(f);
        let mut f = base;
        f.size_formula.scale += 1;
        variants.push(f);
        for change in 0..4 {
            let mut f = base;
            let c = &mut f.casualty_formula;
            *[&mut c.base, &mut c.per_pair_lost, &mut c.per_margin, &mut c.max][change] += 1;
            variants.push(f);
        }
        for change in 0..6 {
            let mut f = base;
            let k = &mut f.kill_formula;
            *[
                &mut k.defence,
                &mut k.damage_step,
                &mut k.max_damage_bonus,
                &mut k.overkill,
                &mut k.capture_penalty,
                &mut k.spare,
            ][change] += 1;
            variants.push(f);
        }
        let mut f = base;
        f.joint_formula.size_formula.scale += 1;
        variants.push(f);
        let mut f = base;
        f.joint_formula.size_formula.weighting = SizeWeighting::Troops;
        variants.push(f);
        let mut f = base;
        f.joint_formula.casualty_percent += 1;
        variants.push(f);
        let mut f = base;
        f.joint_formula.retreat_penalty += 1;
        variants.push(f);
        let mut seen = std::collections::BTreeSet::from([reference]);
        for variant in variants {
            assert!(seen.insert(commitment(&variant, &SALT)), "{variant:?} collides");
        }
    }

    #[test]
    fn an_opening_matches_its_commitment_and_not_a_changed_one() {
        let salt = hex::encode(SALT);
        let opening = FormulaOpeningRecord::new(HiddenFormulas::default(), &salt).expect("a valid salt");
        assert!(opening.matches());
        let mut forged = opening.clone();
        forged.formulas.size_formula.scale = 3;
        assert!(!forged.matches());
        assert!(FormulaOpeningRecord::new(HiddenFormulas::default(), "abcd").is_none());
    }
}
