//! Pools, skill rolls, recovering from States and panic, the free uses of 1s, readying weapons
//! (seed 004 "Actions & Refresh", "Pools.", "State.", "Mental Damage", "AD = 1 (1-AD)").

use super::{
    act::{self, Class, Price},
    heading, refuse, Work,
};
use crate::{
    swift_swords::{
        battle::{
            command::{OneUse, PoolKind},
            event::SwiftSwordsEvent as E,
            state::{ActionPool, Morale},
        },
        defence,
        options::BlockPool,
        rolls::RollKind,
    },
    RuleError,
};

/// The largest a defence pool may be pooled to: the dice normally rolled (plus the device's
/// value for a Block under the "Pools" reading, `BlockPool::SuccessesAndDevice`).
fn cap(work: &Work, id: &str, into: PoolKind) -> Result<u32, RuleError> {
    let figure = work.figure(id)?;
    let skills = &figure.spec.defences;
    let device = figure.spec.shield.as_ref().map_or(0, |shield| u32::from(shield.block));
    Ok(match into {
        PoolKind::Dodge => u32::from(skills.dodge.unwrap_or(0)),
        PoolKind::Block => match work.state.options.block_pool {
            BlockPool::SuccessesAndDevice => u32::from(skills.block.unwrap_or(0)) + device,
            BlockPool::Successes => u32::from(skills.block.unwrap_or(0)),
        },
        PoolKind::Action => u32::MAX,
    })
}

/// Pool: one die (not a 1) added to a defence pool, or to the action pool (seed 004 "Pools.").
pub fn pool(work: &mut Work, id: &str, into: PoolKind, pay: Option<u8>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Pool)?;
    let figure = work.figure(id)?;
    let size = match into {
        PoolKind::Dodge => figure.dodge_pool,
        PoolKind::Block => figure.block_pool,
        PoolKind::Action => figure.action_pool.as_ref().map_or(0, |pool| pool.dice),
    };
    let exists = match into {
        PoolKind::Action => figure.action_pool.is_some(),
        _ => size > 0,
    };
    if !exists {
        return Err(refuse(
            "no_pool",
            format!("{id} has no {into:?} pool to add to").to_lowercase(),
            heading("Pools."),
        ));
    }
    let cap = cap(work, id, into)?;
    if size >= cap {
        return Err(refuse(
            "pool_full",
            format!("{id}'s pool is as large as the dice it would normally roll ({cap})"),
            heading("Pools."),
        ));
    }
    if !act::begin(work, id, "pool", Price::Die(pay), Class::Pool)? {
        return Ok(());
    }
    let size = match into {
        PoolKind::Action => size + 1,
        _ => defence::pooled(size, cap),
    };
    work.emit(E::Pooled { figure: id.into(), into, size });
    Ok(())
}

/// Start an action pool: its base cost paid now.
pub fn start_pool(work: &mut Work, id: &str, name: &str, cost: u8, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    if name.trim().is_empty() || name.chars().count() > 100 || cost == 0 {
        return Err(refuse(
            "bad_pool",
            "an action pool needs a name (1 to 100 characters) and a base cost of 1 or more",
            heading("Actions & Refresh"),
        ));
    }
    if !act::begin(work, id, "start pool", Price::Pips(u32::from(cost), pay.clone()), Class::Other)? {
        return Ok(());
    }
    let pool = ActionPool { name: name.into(), dice: 0 };
    work.emit(E::ActionPoolChanged { figure: id.into(), pool: Some(pool), reason: format!("base cost {cost} paid") });
    Ok(())
}

/// A skill roll as asked.
pub struct SkillRequest<'a> {
    /// The figure.
    pub figure: &'a str,
    /// The skill.
    pub skill: &'a str,
    /// Its cost.
    pub cost: u8,
    /// What for.
    pub purpose: &'a str,
    /// A spell.
    pub casting: bool,
    /// Release the action pool into it.
    pub from_pool: bool,
    /// Effort.
    pub effort: bool,
    /// Bump.
    pub bump: bool,
    /// Dice to pay with.
    pub pay: &'a Option<Vec<u8>>,
}

/// A skill roll the GM adjudicates.
pub fn skill_roll(work: &mut Work, request: &SkillRequest) -> Result<(), RuleError> {
    let id = request.figure;
    act::ready(work, id, Class::Other)?;
    let figure = work.figure(id)?;
    let chars = &figure.spec.characteristics;
    let (dice, kind) = match request.skill.to_ascii_lowercase().as_str() {
        "body" => (chars.body, RollKind::Body),
        "dex" => (chars.dex, RollKind::Dex),
        "mind" => (chars.mind, RollKind::Mind),
        "will" => (chars.will, RollKind::Will),
        "soul" => (chars.soul, RollKind::Soul),
        "spirit" => (chars.spirit, RollKind::Spirit),
        _ => match figure.spec.skill(request.skill) {
            Some(dice) => (dice, RollKind::Skill),
            None => {
                return Err(refuse(
                    "unknown_skill",
                    format!("{id} has no skill {}", request.skill),
                    super::SERVICE_RULES,
                ))
            }
        },
    };
    let kind = if request.casting { RollKind::Casting } else { kind };
    if request.purpose.trim().is_empty() || request.purpose.chars().count() > 200 || request.cost == 0 {
        return Err(refuse(
            "bad_skill_roll",
            "say what the roll is for (1 to 200 characters) and what it costs (1 or more)",
            super::SERVICE_RULES,
        ));
    }
    if request.effort && request.bump {
        return Err(refuse("one_at_a_time", "only one 1 may be used on a roll", heading("AD = 1 (1-AD)")));
    }
    if (request.effort || request.bump) && !figure.has_one() {
        return Err(refuse("no_one", format!("{id} holds no 1 to spend"), heading("AD = 1 (1-AD)")));
    }
    let pooled = if request.from_pool {
        figure.action_pool.as_ref().map(|pool| pool.dice).ok_or_else(|| {
            refuse("no_action_pool", format!("{id} has no action pool to release"), heading("Actions & Refresh"))
        })?
    } else {
        0
    };
    if !act::begin(work, id, "skill roll", Price::Pips(u32::from(request.cost), request.pay.clone()), Class::Other)? {
        return Ok(());
    }
    if request.effort {
        work.emit(E::OneSpent { figure: id.into(), purpose: "effort: +1 die".into() });
    }
    let dice = u32::from(dice) + pooled + u32::from(request.effort);
    let roll =
        work.roll_for(id, kind, dice, 0, &format!("{} of {id}: {}", request.skill, request.purpose), request.bump)?;
    if roll.bump.is_some() {
        work.emit(E::OneSpent { figure: id.into(), purpose: "+1 to a skill die".into() });
    }
    let next_word = work.next_word();
    work.emit(E::SkillRolled {
        figure: id.into(),
        skill: request.skill.into(),
        purpose: request.purpose.into(),
        roll,
        next_word,
    });
    Ok(())
}

/// Expend a die and do nothing: one State removed without a roll.
pub fn recover(work: &mut Work, id: &str, pay: Option<u8>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Recover)?;
    let Some(state) = work.figure(id)?.states.iter().next().copied() else {
        return Err(refuse("no_state", format!("{id} is in no State"), heading("State.")));
    };
    if !act::begin(work, id, "recover", Price::Die(pay), Class::Recover)? {
        return Ok(());
    }
    work.emit(E::StateRemoved { figure: id.into(), state, how: "a die expended".into() });
    Ok(())
}

/// A crushed or panicked figure's action: the Spirit roll (none the first time when crushed).
pub fn rally(work: &mut Work, id: &str, pay: Option<u8>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Rally)?;
    let morale = work.figure(id)?.morale;
    match morale {
        Morale::Crushed { .. } | Morale::Panicked { fled: true } => {}
        Morale::Panicked { fled: false } => {
            return Err(refuse(
                "panicked",
                format!("{id} must flee first (move, withdraw or fly)"),
                heading("Mental Damage"),
            ));
        }
        Morale::Steady => return Err(refuse("steady", format!("{id} needs no rallying"), heading("Mental Damage"))),
    }
    if !act::begin(work, id, "rally", Price::Die(pay), Class::Rally)? {
        return Ok(());
    }
    if morale == (Morale::Crushed { waited: false }) {
        let next_word = work.next_word();
        work.emit(E::MoraleChanged {
            figure: id.into(),
            morale: Morale::Crushed { waited: true },
            roll: None,
            cause: "its first action after being crushed: nothing".into(),
            next_word,
        });
        return Ok(());
    }
    act::rally_roll(work, id, "with its action")?;
    Ok(())
}

/// Spend a 1 between actions: a roll to remove a State, or a new Spirit roll against panic.
pub fn use_one(work: &mut Work, id: &str, on: OneUse) -> Result<(), RuleError> {
    act::authorize(work, id)?;
    act::nothing_awaited(work)?;
    let figure = work.figure(id)?;
    if !figure.active() || !figure.has_one() {
        return Err(refuse("no_one", format!("{id} holds no 1 to spend"), heading("AD = 1 (1-AD)")));
    }
    match on {
        OneUse::RemoveState => {
            let Some(state) = figure.states.iter().next().copied() else {
                return Err(refuse("no_state", format!("{id} is in no State"), heading("State.")));
            };
            let (kind, dice) = act::state_roll(figure, state);
            work.emit(E::OneSpent { figure: id.into(), purpose: format!("a roll to remove {state:?}") });
            let roll =
                work.roll_for(id, kind, dice, 0, &format!("{kind:?} roll of {id} to remove {state:?}"), false)?;
            let passed = roll.passed();
            let next_word = work.next_word();
            work.emit(E::StateRolled { figure: id.into(), state, roll, next_word });
            if passed {
                work.emit(E::StateRemoved { figure: id.into(), state, how: "rolled with a 1".into() });
            }
        }
        OneUse::Rally => {
            if figure.morale != (Morale::Panicked { fled: true }) {
                return Err(refuse(
                    "not_panicked",
                    format!("{id} has no panic to roll against now"),
                    heading("Mental Damage"),
                ));
            }
            work.emit(E::OneSpent { figure: id.into(), purpose: "a new Spirit roll against panic".into() });
            act::rally_roll(work, id, "with a 1")?;
        }
    }
    Ok(())
}

/// Pick up or draw a weapon again: one hand free for a one-handed weapon, two for a two-handed.
pub fn ready_weapon(work: &mut Work, id: &str, weapon: &str, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    let figure = work.figure(id)?;
    let Some(spec) = figure.spec.weapon(weapon) else {
        return Err(refuse("unknown_weapon", format!("{id} has no weapon {weapon}"), heading("Attacks")));
    };
    if !figure.dropped.contains(weapon) {
        return Err(refuse("weapon_in_hand", format!("{weapon} is not dropped (or is broken)"), heading("Attacks")));
    }
    let hands = 2u32.saturating_sub(figure.disabled_arms());
    let needed = if spec.needs_two_hands() { 2 } else { 1 };
    if hands < needed || (!figure.close_with.is_empty() && !spec.usable_in_close()) {
        return Err(refuse(
            "cannot_ready",
            format!("{id} cannot take up {weapon} now (hands, or InClose)"),
            heading("General Injury Table"),
        ));
    }
    let cost = u32::from(work.state.options.action_costs.ready_weapon);
    if !act::begin(work, id, "ready weapon", Price::Pips(cost, pay.clone()), Class::Other)? {
        return Ok(());
    }
    let figure = work.figure(id)?;
    let dropped = figure.dropped.iter().filter(|name| *name != weapon).cloned().collect();
    let broken = figure.broken.iter().cloned().collect();
    work.emit(E::WeaponsChanged { figure: id.into(), dropped, broken, reason: format!("{weapon} readied") });
    Ok(())
}
