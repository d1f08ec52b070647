//! Transferring troops between adjacent friendly armies (seed 003 §2.3.3, §3.2.4).
//!
//! A `Transfer` order is checked when posted (friendly, next to, not from a site: see
//! [`crate::coalition::orders::validate`]); what happens at adjudication is decided here:
//!
//! - An order naming no troops "will do nothing" (§3.2.4.2).
//! - The sender must not be fighting (its action is the battle, §3.2.1), must not stand on a base,
//!   portal or town (§3.2.4.1), and must have at least the troops named of each creature (§2.3.3).
//! - The receiver must still stand on the square the order named and next to the sender: "the
//!   receiving army cannot move away or they will not receive the troops" (§3.2.4.1).
//! - The receiver must have space afterwards (§2.3.3): the would-be army is checked with the
//!   setup rules ([`validate_army`]): at most 6 creature types counting those with none left, the
//!   slot totals of its rank, one size per creature, and the Coalition color rules.
//! - Timing (§3.2.4.3): the sender loses the troops in this update, before the new battles are
//!   announced (.4). A receiver neither fighting nor attacked receives them in this update (.1); one
//!   attacked this turn receives them when that battle's result is applied, whatever it is (.2);
//!   one fighting a battle this turn receives them at its end only if it wins, and otherwise they are
//!   all killed (.3). A battle fought during the turn ends at the lock, and its result is applied at
//!   the start of this adjudication, so case .3 is settled in this same update; case .2 waits in
//!   [`super::CampaignState::transfers`] until the next adjudication.
//!
//! Readings where the seed is silent:
//!
//! - Full strength travels with the troops: the sender's line loses the troops both alive and at
//!   full strength (healing never brings transferred troops back to it), and the receiver's line is
//!   raised to at least its new number of troops, so transferred troops first take the places of
//!   the receiver's lost ones. The slot totals are checked on full strength, as for a new army.
//! - A creature is matched by card name (case and spacing ignored). A creature the receiver already
//!   has at the same size is added to its first such line; a new creature gets a new line in the
//!   receiver's smallest slot whose size fits its power and toughness and that has room (full
//!   strength) for it; when none has room it goes to the smallest that fits and the slot check
//!   refuses it. The same creature at another size is a new line, which the one-size rule refuses.
//! - A sender takes the troops from its lines of that creature in order; a line emptied by a
//!   transfer stays (a type with 0 left, §2.3.3). Lines naming 0 troops are dropped, and the lines
//!   of one creature are added together.
//! - "Attacked this turn" is being engaged by this turn's movement; "wins" is being on the winning
//!   side of the result (a battle with no winner is not won). A draw or a loss kills the troops.
//! - Transfers are carried out in the order the orders count (posting order), each seeing the armies
//!   as the earlier ones left them.

use super::event::Delivery;
use crate::{
    coalition::{
        army::{Army, RankClass, TroopLine},
        orders::TransferLine,
        setup::{card_key, validate_army, ArmyContext},
    },
    RuleError,
};

/// Why a transfer did nothing: a stable code, a sentence and the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// `coalition.campaign.transfer_…`.
    pub code: String,
    /// A sentence for players.
    pub reason: String,
    /// The rule.
    pub rule: String,
}

impl Failure {
    /// A failure `coalition.campaign.<code>`.
    pub fn new(code: &str, reason: impl Into<String>, rule: impl Into<String>) -> Self {
        Self { code: format!("coalition.campaign.{code}"), reason: reason.into(), rule: rule.into() }
    }
}

/// The troops named by an order, one line per creature, none with 0 troops; empty means the
/// transfer does nothing (§3.2.4.2).
pub fn requested(lines: &[TransferLine]) -> Vec<TransferLine> {
    let mut merged: Vec<TransferLine> = Vec::new();
    for line in lines.iter().filter(|line| line.troops > 0) {
        match merged.iter_mut().find(|m| card_key(&m.creature) == card_key(&line.creature)) {
            Some(m) => m.troops = m.troops.saturating_add(line.troops),
            None => merged.push(line.clone()),
        }
    }
    merged
}

/// The sender's lines after it gives `lines` away, and the troops on their way (one line per
/// creature, at the sender's size and colors, `full == troops`); or why it cannot (§2.3.3).
pub fn take(sender: &Army, lines: &[TransferLine]) -> Result<(Vec<TroopLine>, Vec<TroopLine>), Failure> {
    let mut after = sender.troops.clone();
    let mut moving = Vec::new();
    for wanted in lines {
        let key = card_key(&wanted.creature);
        let matching = |line: &&TroopLine| card_key(&line.creature) == key;
        let Some(template) = sender.troops.iter().find(matching) else {
            return Err(Failure::new(
                "transfer_lacks_troops",
                format!("{} has no {} to transfer", sender.name, wanted.creature),
                "seed 003 §2.3.3",
            ));
        };
        let available: u64 = sender.troops.iter().filter(matching).map(|line| u64::from(line.troops)).sum();
        if available < u64::from(wanted.troops) {
            return Err(Failure::new(
                "transfer_lacks_troops",
                format!(
                    "{} has {available} {} left and cannot transfer {}",
                    sender.name, template.creature, wanted.troops
                ),
                "seed 003 §2.3.3",
            ));
        }
        let mut remaining = wanted.troops;
        for line in after.iter_mut().filter(|line| card_key(&line.creature) == key) {
            let taken = remaining.min(line.troops);
            line.troops -= taken;
            line.full = line.full.saturating_sub(taken).max(line.troops);
            remaining -= taken;
        }
        moving.push(TroopLine { full: wanted.troops, troops: wanted.troops, ..template.clone() });
    }
    Ok((after, moving))
}

/// The receiver's lines once `moving` has joined them (see the module docs for where they go).
pub fn give(receiver: &Army, moving: &[TroopLine]) -> Vec<TroopLine> {
    let mut after = receiver.troops.clone();
    for arriving in moving {
        let key = card_key(&arriving.creature);
        let same = after.iter_mut().find(|line| {
            card_key(&line.creature) == key && line.power == arriving.power && line.toughness == arriving.toughness
        });
        match same {
            Some(line) => {
                line.troops = line.troops.saturating_add(arriving.troops);
                line.full = line.full.max(line.troops);
            }
            None => {
                let slot = slot_for(receiver.rank, &after, arriving);
                after.push(TroopLine { slot, ..arriving.clone() });
            }
        }
    }
    after
}

/// The smallest slot whose size fits `arriving` and has room for it; else the smallest that fits
/// (the slot check then refuses it); else the largest (the size check refuses it).
fn slot_for(rank: RankClass, lines: &[TroopLine], arriving: &TroopLine) -> u8 {
    let sizes = rank.slot_sizes();
    let fitting: Vec<u8> = (0u8..4)
        .filter(|slot| {
            sizes.get(usize::from(*slot)).is_some_and(|size| arriving.power <= *size && arriving.toughness <= *size)
        })
        .collect();
    let room = |slot: u8| {
        let used: u64 = lines.iter().filter(|line| line.slot == slot).map(|line| u64::from(line.full)).sum();
        let capacity = RankClass::SLOT_TROOPS.get(usize::from(slot)).copied().map_or(0, u64::from);
        used.saturating_add(u64::from(arriving.full)) <= capacity
    };
    fitting.iter().copied().find(|slot| room(*slot)).or(fitting.first().copied()).unwrap_or(3)
}

/// Whether `receiver` with `lines` has space under §2.3.3, checked with the setup rules.
pub fn check_space(receiver: &Army, lines: Vec<TroopLine>, others: &[Army]) -> Result<(), Failure> {
    let would_be = Army { troops: lines, ..receiver.clone() };
    validate_army(&would_be, &ArmyContext { other_armies: others, ..ArmyContext::default() }).map_err(
        |error: RuleError| {
            Failure::new(
                "transfer_no_space",
                format!("{} has no space for the troops: {}", receiver.name, error.message),
                format!("seed 003 §2.3.3 ({}: {})", error.rule, error.code),
            )
        },
    )
}

/// The transit lines as the order-style lines an event shows.
pub fn shown(moving: &[TroopLine]) -> Vec<TransferLine> {
    moving.iter().map(|line| TransferLine { creature: line.creature.clone(), troops: line.troops }).collect()
}

/// The rule behind a delivery.
pub fn delivery_rule(delivery: &Delivery, receiver_fighting: bool) -> &'static str {
    match (delivery, receiver_fighting) {
        (_, true) => "seed 003 §3.2.4.3.3",
        (Delivery::AfterBattle { .. }, false) => "seed 003 §3.2.4.3.2",
        (Delivery::ThisUpdate, false) => "seed 003 §3.2.4.3.1",
    }
}
