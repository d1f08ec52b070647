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

use std::collections::{BTreeMap, BTreeSet};

use super::{
    adjudicate::battle_stream,
    event::{CampaignEvent, Delivery},
    state::{CampaignState, PendingTransfer},
};
use crate::{
    coalition::{
        army::{Army, RankClass, TroopLine},
        map::Square,
        movement::EngagementReport,
        orders::{validate::next_to, TransferLine},
        setup::{card_key, validate_army, ArmyContext},
    },
    RuleError,
};

/// What the adjudication knows of the turn when transfers are carried out.
#[derive(Debug, Clone, Copy)]
pub struct TurnFacts<'a> {
    /// The campaign stream (names the new battles).
    pub campaign: &'a str,
    /// The turn.
    pub turn: u32,
    /// Armies that fought a battle during the turn (its result applied in this adjudication), with
    /// the battle.
    pub fighting: &'a BTreeMap<String, String>,
    /// Those of them on the winning side.
    pub won: &'a BTreeSet<String>,
    /// This turn's engagements, announced at the end of the adjudication.
    pub engagements: &'a [EngagementReport],
}

/// One `Transfer` order of `from` carried out against `working` (see the module docs): a
/// `TransferFailed`, or `TroopsSent` followed, when the troops arrive or die in this update, by
/// `TroopsReceived` or `TransferredTroopsKilled`.
pub fn carry_out(
    working: &CampaignState,
    facts: &TurnFacts<'_>,
    from: &str,
    (to, at, lines): (&str, Square, &[TransferLine]),
) -> Vec<CampaignEvent> {
    let failed = |failure: Failure| {
        vec![CampaignEvent::TransferFailed {
            turn: facts.turn,
            from: from.to_string(),
            to: to.to_string(),
            lines: lines.to_vec(),
            code: failure.code,
            reason: failure.reason,
            rule: failure.rule,
        }]
    };
    let wanted = requested(lines);
    if wanted.is_empty() {
        let reason = format!("{from}'s transfer to {to} names no troops, so it does nothing");
        return failed(Failure::new("transfer_empty", reason, "seed 003 §3.2.4.2"));
    }
    let Some(sender) = working.armies.get(from) else { return Vec::new() };
    if facts.fighting.contains_key(from) {
        let reason = format!("{from} fought a battle this turn: the battle is its action, not the transfer");
        return failed(Failure::new("transfer_sender_in_battle", reason, "seed 003 §3.2.1"));
    }
    if let Some(site) = working.map.site_at(sender.square) {
        let reason =
            format!("{from} is in {} at {}: troops are not sent from a base, portal or town", site.name, sender.square);
        return failed(Failure::new("transfer_from_site", reason, "seed 003 §3.2.4.1"));
    }
    let (sender_after, moving) = match take(&sender.army, &wanted) {
        Ok(taken) => taken,
        Err(failure) => return failed(failure),
    };
    let sent = |delivery: Delivery, rule: &str| CampaignEvent::TroopsSent {
        turn: facts.turn,
        from: from.to_string(),
        to: to.to_string(),
        lines: shown(&moving),
        moving: moving.clone(),
        troops: sender_after.clone(),
        delivery,
        rule: rule.to_string(),
    };
    const IN_BATTLE: &str = "seed 003 §3.2.4.3.3";
    if let Some(battle) = facts.fighting.get(to) {
        if !facts.won.contains(to) {
            let killed = CampaignEvent::TransferredTroopsKilled {
                from: from.to_string(),
                to: to.to_string(),
                lines: shown(&moving),
                battle: Some(battle.clone()),
                reason: format!("{to} did not win its battle, so the troops sent to it are all killed"),
                rule: IN_BATTLE.to_string(),
            };
            return vec![sent(Delivery::ThisUpdate, IN_BATTLE), killed];
        }
    }
    let Some(receiver) = working.armies.get(to) else {
        let reason = format!("{to} is no longer on the map");
        return failed(Failure::new("transfer_receiver_gone", reason, "seed 003 §3.2.4.1"));
    };
    if receiver.square != at {
        let reason = format!("{to} moved away from {at} to {}, so it does not receive the troops", receiver.square);
        return failed(Failure::new("transfer_receiver_moved", reason, "seed 003 §3.2.4.1"));
    }
    if !next_to(sender.square, receiver.square) {
        let reason = format!("{from} at {} is no longer next to {to} at {}", sender.square, receiver.square);
        return failed(Failure::new("transfer_not_adjacent", reason, "seed 003 §3.2.4.1"));
    }
    // Space counts troops already on their way to the receiver this turn.
    let mut expecting = receiver.army.clone();
    for pending in working.transfers.iter().filter(|pending| pending.to == to) {
        expecting.troops = give(&expecting, &pending.moving);
    }
    let others: Vec<Army> = working.armies.values().filter(|a| a.army.name != to).map(|a| a.army.clone()).collect();
    if let Err(failure) = check_space(&expecting, give(&expecting, &moving), &others) {
        return failed(failure);
    }
    let attacked = (!facts.fighting.contains_key(to))
        .then(|| facts.engagements.iter().find(|e| e.sides.iter().any(|side| side.armies.iter().any(|a| a == to))))
        .flatten();
    if let Some(engagement) = attacked {
        let battle = battle_stream(facts.campaign, facts.turn, engagement.square);
        return vec![sent(Delivery::AfterBattle { battle }, "seed 003 §3.2.4.3.2")];
    }
    let rule = if facts.fighting.contains_key(to) { IN_BATTLE } else { "seed 003 §3.2.4.3.1" };
    let received = CampaignEvent::TroopsReceived {
        army: to.to_string(),
        from: from.to_string(),
        lines: shown(&moving),
        troops: give(&receiver.army, &moving),
        battle: facts.fighting.get(to).cloned(),
        rule: rule.to_string(),
    };
    vec![sent(Delivery::ThisUpdate, rule), received]
}

/// Troops that waited for `pending.battle`, whose result has just been applied: the receiver gets
/// them whatever the result (seed 003 §3.2.4.3.2), unless it was killed, when they die with it.
pub fn deliver(working: &CampaignState, pending: &PendingTransfer) -> CampaignEvent {
    const RULE: &str = "seed 003 §3.2.4.3.2";
    let killed = |reason: String, rule: String| CampaignEvent::TransferredTroopsKilled {
        from: pending.from.clone(),
        to: pending.to.clone(),
        lines: shown(&pending.moving),
        battle: Some(pending.battle.clone()),
        reason,
        rule,
    };
    let Some(receiver) = working.armies.get(&pending.to) else {
        let reason = format!("{} was killed in its battle, and the troops sent to it with it", pending.to);
        return killed(reason, format!("{RULE}, §4.3.1"));
    };
    let after = give(&receiver.army, &pending.moving);
    let others: Vec<Army> =
        working.armies.values().filter(|a| a.army.name != pending.to).map(|a| a.army.clone()).collect();
    // Space was checked when the troops were sent and a battle changes no full strength, so this
    // holds; should it not, the troops have nowhere to go.
    if let Err(failure) = check_space(&receiver.army, after.clone(), &others) {
        return killed(failure.reason, failure.rule);
    }
    CampaignEvent::TroopsReceived {
        army: pending.to.clone(),
        from: pending.from.clone(),
        lines: shown(&pending.moving),
        troops: after,
        battle: Some(pending.battle.clone()),
        rule: RULE.to_string(),
    }
}

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
