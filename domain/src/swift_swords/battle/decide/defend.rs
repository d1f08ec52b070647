//! Declaring a defence (seed 004 "Defences.", "Dodge:", "Block:", "Parry:"): what the target
//! may still declare against an attack, paying one die (not a 1), rolling a Dodge or Block pool
//! or a Parry before the attack is rolled.

use super::{act, heading, refuse, resolve::resolve, Work};
use crate::{
    swift_swords::{
        battle::{
            command::DefenceChoice,
            event::SwiftSwordsEvent as E,
            pending::{AttackPurpose, Pending, PendingAttack},
            state::{DefenceLimit, Morale, SwiftSwordsState},
        },
        defence::{self, DefenceKind},
        figure::{WeaponKind, WeaponSpec},
        rolls::{PoolRoll, RollKind},
    },
    RuleError,
};

/// A defence as declared.
pub struct Declared {
    /// The defence.
    pub choice: DefenceChoice,
    /// The die to pay with.
    pub pay: Option<u8>,
    /// Effort.
    pub effort: bool,
    /// A bump.
    pub bump: bool,
    /// A counter-attack after a Parry.
    pub counter: bool,
    /// Its weapon.
    pub counter_weapon: Option<String>,
    /// Rank rather than State.
    pub take_rank: bool,
}

/// What the defender's answer brings to the resolution.
#[derive(Default)]
pub struct Response {
    /// The Parry roll.
    pub parry: Option<PoolRoll>,
    /// Counter-attack with the attacker's exposures.
    pub counter: bool,
    /// Its weapon.
    pub counter_weapon: Option<String>,
    /// Rank rather than State.
    pub take_rank: bool,
}

pub(super) fn weapon_of(state: &SwiftSwordsState, attack: &PendingAttack) -> Option<WeaponSpec> {
    state.figure(&attack.attacker)?.spec.weapon(&attack.weapon).cloned()
}

/// Defences the target could declare now.
fn available(state: &SwiftSwordsState, attack: &PendingAttack) -> Vec<DefenceKind> {
    let (Some(target), Some(weapon)) = (state.figure(&attack.target), weapon_of(state, attack)) else { return vec![] };
    let blocked = attack.purpose == AttackPurpose::Counter
        || !target.active()
        || !target.states.is_empty()
        || matches!(target.morale, Morale::Crushed { .. })
        || state.surprised(&target.spec.id)
        || state.hold_on(&target.spec.id).is_some()
        || target.usable() == 0
        || weapon.kind == WeaponKind::Mental;
    if blocked {
        return vec![];
    }
    let skills = &target.spec.defences;
    let limit = target.defence_limit;
    let mut kinds = Vec::new();
    if skills.dodge.is_some() && limit != DefenceLimit::None {
        kinds.push(DefenceKind::Dodge);
    }
    if skills.block.is_some() && limit == DefenceLimit::Any {
        kinds.push(DefenceKind::Block);
    }
    let parries = matches!(weapon.kind, WeaponKind::Melee | WeaponKind::Reach) || skills.parry_missiles;
    if skills.parry.is_some() && limit == DefenceLimit::Any && parries {
        kinds.push(DefenceKind::Parry);
    }
    kinds
}

/// Whether the attack waits for its target to declare a defence.
pub fn awaits_defence(state: &SwiftSwordsState, attack: &PendingAttack) -> bool {
    !available(state, attack).is_empty()
}

/// The target of the attack awaited declares its defence, and the attack is resolved.
pub fn defend(work: &mut Work, id: &str, declared: &Declared) -> Result<(), RuleError> {
    let attack = match work.state.pending.last() {
        Some(Pending::Attack(attack)) if attack.target == id => attack.clone(),
        _ => {
            return Err(refuse(
                "no_attack_to_defend",
                format!("no attack on {id} awaits a defence"),
                heading("Defences."),
            ))
        }
    };
    act::authorize(work, id)?;
    let mut response = Response {
        counter: declared.counter,
        counter_weapon: declared.counter_weapon.clone(),
        take_rank: declared.take_rank,
        ..Response::default()
    };
    let Some(kind) = declared.choice.kind() else {
        if declared.counter {
            return Err(refuse(
                "counter_needs_parry",
                "only a Parry takes the attacker's exposures for a counter",
                heading("Parry:"),
            ));
        }
        return resolve(work, &attack, Some(&response));
    };
    if !available(&work.state, &attack).contains(&kind) {
        return Err(refuse(
            "defence_unavailable",
            format!("{id} cannot {kind:?} this attack (untrained, limited by a tactic, or not against this weapon)")
                .to_lowercase(),
            heading("Defences."),
        ));
    }
    if declared.counter && kind != DefenceKind::Parry {
        return Err(refuse(
            "counter_needs_parry",
            "only a Parry takes the attacker's exposures for a counter",
            heading("Parry:"),
        ));
    }
    let figure = work.figure(id)?;
    if declared.effort && declared.bump {
        return Err(refuse("one_at_a_time", "only one 1 may be used on a roll", heading("AD = 1 (1-AD)")));
    }
    if (declared.effort || declared.bump) && !figure.has_one() {
        return Err(refuse("no_one", format!("{id} holds no 1 to spend"), heading("AD = 1 (1-AD)")));
    }
    let paid = match declared.pay {
        Some(face) if face > 1 && figure.hand.contains(&face) => face,
        Some(1) => {
            return Err(refuse(
                "ones_cannot_pay",
                "a defence needs a full action die: a 1 cannot pay for it",
                heading("Defences."),
            ))
        }
        Some(face) => {
            return Err(refuse("die_not_in_hand", format!("{id} holds no {face} to pay with"), heading("Defences.")))
        }
        None => crate::swift_swords::action_dice::lowest_usable(&figure.hand).unwrap_or(2),
    };
    let skills = &figure.spec.defences;
    let (dice, roll_kind) = match kind {
        DefenceKind::Dodge => (skills.dodge, RollKind::Dodge),
        DefenceKind::Block => (skills.block, RollKind::Block),
        DefenceKind::Parry => (skills.parry, RollKind::Parry),
    };
    let device = figure.spec.shield.as_ref().map_or(0, |shield| u32::from(shield.block));
    let dice = u32::from(dice.unwrap_or(0)) + u32::from(declared.effort);
    if declared.effort {
        work.emit(E::OneSpent { figure: id.into(), purpose: format!("effort: +1 die to the {kind:?}").to_lowercase() });
    }
    let purpose = format!("{kind:?} of {id} against attack {}", attack.id);
    let bump = declared.bump;
    let roll = work.roll_for(id, roll_kind, dice, 0, &purpose, bump)?;
    if roll.bump.is_some() {
        work.emit(E::OneSpent { figure: id.into(), purpose: "+1 to a defence die".into() });
    }
    let pool = match kind {
        DefenceKind::Dodge => roll.successes,
        DefenceKind::Block => defence::block_pool(work.state.options.block_pool, roll.successes, device),
        _ => 0,
    };
    let next_word = work.next_word();
    work.emit(E::DefenceDeclared {
        figure: id.into(),
        attack: attack.id,
        defence: kind,
        paid,
        roll: Some(roll.clone()),
        pool,
        next_word,
    });
    if kind == DefenceKind::Parry {
        response.parry = Some(roll);
    }
    resolve(work, &attack, Some(&response))
}
