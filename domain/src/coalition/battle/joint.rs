//! Battles of two armies against one or two (seed 003 §4.4, from a joint engagement §3.2.5).
//!
//! "These are handled similarly to normal 1v1 battles, but with a few differences": a stratless
//! army beside a partner that sent a strategy does not take part (the partner fights alone, with
//! a penalty to retreat strategies); the size bonus is on both armies' combined troops under the
//! battle's own [`JointFormula`]; total casualties are higher and are shared between the two
//! armies "based on how involved in combat each army was" (the judge's shares, else in proportion
//! to each army's troops); and a winning pair names which of them leaves the square, and where.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    casualties::{slot_loss, FULL_RATE, LOSS_GRANULARITY},
    event::{Casualties, ModifiedDie, PairWinner, SideBonuses, TieBreak},
    SideId, Sides,
};
use crate::coalition::{army::ArmySpec, map::Direction};

/// A side's second army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PartnerArmy {
    /// The side it fights on.
    pub side: SideId,
    /// The army.
    pub army: ArmySpec,
}

/// One army's share of its side's casualties, in percent (seed 003 §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Share {
    /// The army.
    pub army: String,
    /// Its share, 0–100.
    pub percent: u32,
}

/// Which army of a winning pair leaves the square, and the direction it tries (seed 003 §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"army": "Darkhand5", "direction": "north_east"}))]
pub struct Departure {
    /// The army that leaves.
    pub army: String,
    /// Where it goes: one of the eight squares around the battle.
    pub direction: Direction,
}

/// What one army of a 2v1 or 2v2 battle took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyCasualties {
    /// The army.
    pub army: String,
    /// Its side.
    pub side: SideId,
    /// Whether it took part (a stratless partner does not, seed 003 §4.4).
    pub participated: bool,
    /// The share of its side's casualties the judge gave it, if the judge did.
    pub share_percent: Option<u32>,
    /// Troops lost per slot.
    pub casualties: Casualties,
}

/// A 2v1 or 2v2 battle decided (event `coalition.JointBattleResolved`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JointResolution {
    /// Each side's bonuses (the size bonus on combined troops; hidden from non-judges).
    pub bonuses: Sides<SideBonuses>,
    /// Sides with no strategy from any of their armies.
    pub stratless: Vec<SideId>,
    /// Sides fighting with one army because the other sent no strategy (seed 003 §4.4).
    pub alone: Vec<SideId>,
    /// Stratless partners that did not take part and leave the area.
    pub withdrawn: Vec<String>,
    /// Four modified d20 per side.
    pub dice: Sides<Vec<ModifiedDie>>,
    /// Winner of each pair.
    pub pairs: Vec<PairWinner>,
    /// Pairs won per side.
    pub pairs_won: Sides<u8>,
    /// How a tie in pairs won was broken.
    pub tie_break: Option<TieBreak>,
    /// Why the winner won.
    pub decided_by: String,
    /// The winner.
    pub winner: SideId,
    /// A side that ran away (seed 003 §4.2.6).
    pub running_away: Option<SideId>,
    /// Every army's casualties.
    pub armies: Vec<ArmyCasualties>,
    /// The winning pair's named departure, if its strategies named one.
    pub departure: Option<Departure>,
    /// The tape's next word after the battle's dice.
    pub next_word: u64,
}

/// A side's casualty rate in a joint battle: "higher than normal" by `percent`, never above 100%.
pub fn joint_rate(rate: u32, percent: u32) -> u32 {
    u32::try_from(u64::from(rate).saturating_mul(u64::from(percent)) / 100).unwrap_or(FULL_RATE).min(FULL_RATE)
}

fn total(losses: &[u32]) -> u64 {
    losses.iter().map(|loss| u64::from(*loss)).sum()
}

/// One army's casualties at `rate`, or, with a judge's share, its share of `side_total` spread
/// over its slots in proportion to their troops (rounded down to tens, never more than a slot
/// holds).
pub fn army_casualties(army: &ArmySpec, rate: u32, share: Option<(u32, u64)>) -> Casualties {
    let Some((percent, side_total)) = share else {
        let losses: Vec<u32> = army.slots.iter().map(|slot| slot_loss(slot.troops, rate)).collect();
        return Casualties { total: total(&losses), losses, rate_tenths_percent: Some(rate) };
    };
    let target = side_total.saturating_mul(u64::from(percent)) / 100;
    let troops: u64 = army.slots.iter().map(|slot| u64::from(slot.troops)).sum();
    let losses: Vec<u32> = army
        .slots
        .iter()
        .map(|slot| {
            if troops == 0 {
                return 0;
            }
            let exact = target.saturating_mul(u64::from(slot.troops)) / troops;
            let rounded = exact - exact % u64::from(LOSS_GRANULARITY);
            u32::try_from(rounded).unwrap_or(slot.troops).min(slot.troops)
        })
        .collect();
    Casualties { total: total(&losses), losses, rate_tenths_percent: None }
}

/// Every army's casualties on one side: `fighting` are the side's armies as they fought (squads
/// out), `participates` which took part, `shares` the judge's shares (empty for the default).
pub fn side_casualties(
    fighting: &[&ArmySpec],
    participates: &[bool],
    rate: u32,
    shares: &[Share],
) -> Vec<(Casualties, Option<u32>)> {
    let share_of = |army: &ArmySpec| shares.iter().find(|share| share.army == army.name).map(|share| share.percent);
    let taking: Vec<usize> = (0..fighting.len()).filter(|i| participates.get(*i).copied().unwrap_or(false)).collect();
    let use_shares = taking.len() > 1 && taking.iter().all(|i| share_of(fighting[*i]).is_some());
    let side_total: u64 = taking.iter().map(|i| army_casualties(fighting[*i], rate, None).total).sum();
    fighting
        .iter()
        .enumerate()
        .map(|(i, army)| {
            if !taking.contains(&i) {
                let losses = vec![0; army.slots.len()];
                return (Casualties { losses, total: 0, rate_tenths_percent: Some(0) }, None);
            }
            match share_of(army).filter(|_| use_shares) {
                Some(percent) => (army_casualties(army, rate, Some((percent, side_total))), Some(percent)),
                None => (army_casualties(army, rate, None), None),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coalition::army::{Color, RankClass, Slot, Team};

    fn army(name: &str, troops: &[u32]) -> ArmySpec {
        ArmySpec {
            name: name.into(),
            team: Team::Coalition,
            rank: RankClass::CplLtCommander,
            controller: "p".into(),
            slots: troops
                .iter()
                .map(|t| Slot {
                    creature: "c".into(),
                    colors: vec![Color::Red],
                    power: 2,
                    toughness: 2,
                    troops: *t,
                    slot: None,
                })
                .collect(),
            contingency: None,
            mercenary: None,
        }
    }

    #[test]
    fn joint_casualties_are_a_quarter_higher_by_default_seed_003_4_4() {
        assert_eq!(joint_rate(200, 125), 250);
        assert_eq!(joint_rate(900, 125), 1000);
    }

    #[test]
    fn a_judges_shares_spread_the_sides_total_by_involvement_seed_003_4_4() {
        let (a, b) = (army("A", &[5000, 2500]), army("B", &[1000]));
        // At 20%: A would lose 1000 + 500, B 200; 1700 in all. Shares 80/20: A 1360, B 340.
        let shared = side_casualties(
            &[&a, &b],
            &[true, true],
            200,
            &[Share { army: "A".into(), percent: 80 }, Share { army: "B".into(), percent: 20 }],
        );
        assert_eq!(shared[0].0.losses, vec![900, 450]);
        assert_eq!(shared[1].0.losses, vec![340]);
        let default = side_casualties(&[&a, &b], &[true, true], 200, &[]);
        assert_eq!(default[0].0.losses, vec![1000, 500]);
        assert_eq!(default[1].0.losses, vec![200]);
        let alone = side_casualties(&[&a, &b], &[true, false], 200, &[]);
        assert_eq!(alone[1].0.total, 0, "a partner that did not take part loses nothing");
    }
}
