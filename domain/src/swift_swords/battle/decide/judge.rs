//! What the GM decides (seed 004: the judge applies spells, traps, fear attacks, bonus ranks,
//! fatigue and healing the rules leave to the GM), and the end of the encounter.

use super::{act, damage, forbid, heading, refuse, Work, SERVICE_RULES};
use crate::{
    swift_swords::{
        battle::{
            event::SwiftSwordsEvent as E,
            state::{StateKind, SwiftSwordsState},
        },
        figure::FearLevel,
        healing,
        injury::Location,
        ranks::{self, RankSide},
        rolls::RollKind,
    },
    Context, RuleError,
};

fn require_judge(work: &Work, what: &str) -> Result<(), RuleError> {
    if work.ctx.actor.is_judge() {
        Ok(())
    } else {
        Err(forbid("judge_only", format!("only the judge (the GM) may {what}")))
    }
}

fn check_reason(reason: &str) -> Result<(), RuleError> {
    if reason.trim().is_empty() || reason.chars().count() > 500 {
        return Err(refuse("reason", "say why, in 1 to 500 characters", SERVICE_RULES));
    }
    Ok(())
}

/// The judge ends the encounter naming a winner (or none); a player concedes by naming another
/// side.
pub fn end_battle(
    state: &SwiftSwordsState,
    winner: Option<&str>,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<E>, RuleError> {
    if state.ended() {
        return Err(refuse("ended", "the battle has ended", SERVICE_RULES));
    }
    check_reason(reason)?;
    if let Some(winner) = winner {
        if !state.sides.iter().any(|side| side.name == winner) {
            return Err(refuse("unknown_side", format!("{winner} is not a side"), SERVICE_RULES));
        }
    }
    if !ctx.actor.is_judge() {
        let player = ctx.actor.player.clone().unwrap_or_default();
        let sides: Vec<&str> = state
            .sides
            .iter()
            .filter(|side| {
                side.controller.as_deref() == Some(player.as_str())
                    || state.figures.values().any(|figure| {
                        figure.spec.side == side.name && figure.spec.controller.as_deref() == Some(player.as_str())
                    })
            })
            .map(|side| side.name.as_str())
            .collect();
        let concedes =
            ctx.actor.is_player(&player) && !sides.is_empty() && winner.is_some_and(|winner| !sides.contains(&winner));
        if !concedes {
            return Err(forbid(
                "judge_only",
                "only the judge ends an encounter; a player may concede by naming another side the winner",
            ));
        }
    }
    Ok(vec![E::BattleEnded { winner: winner.map(str::to_string), reason: reason.into() }])
}

/// The judge inflicts damage the service does not roll.
pub fn inflict(
    work: &mut Work,
    id: &str,
    points: u32,
    side: RankSide,
    magic: bool,
    massive: bool,
    reason: &str,
) -> Result<(), RuleError> {
    require_judge(work, "inflict damage")?;
    check_reason(reason)?;
    work.figure(id)?;
    if points == 0 || points > 100 {
        return Err(refuse("damage", "damage is 1 to 100 points", heading("Damage")));
    }
    let hit = damage::Hit {
        target: id,
        damage: points,
        side,
        magic,
        massive_weapon: massive,
        bane: false,
        take_rank: false,
        aim: None,
        cause: reason.into(),
    };
    damage::apply(work, &hit)
}

/// The judge makes a figure resist a fear attack now: a failure makes it susceptible again.
pub fn fear_attack(work: &mut Work, id: &str, level: FearLevel, reason: &str) -> Result<(), RuleError> {
    require_judge(work, "make a fear attack")?;
    check_reason(reason)?;
    let figure = work.figure(id)?;
    if !figure.active() || figure.spec.fearless {
        return Err(refuse("fearless", format!("{id} is out of action or fearless"), heading("Fear")));
    }
    act::resist_fear(work, id, level, reason, false)?;
    Ok(())
}

/// The judge sets bonus ranks.
pub fn set_bonus_ranks(work: &mut Work, id: &str, physical: u8, mental: u8, reason: &str) -> Result<(), RuleError> {
    require_judge(work, "set bonus ranks")?;
    check_reason(reason)?;
    let figure = work.figure(id)?;
    if physical > 9 || mental > 9 {
        return Err(refuse(
            "bonus_ranks",
            "bonus ranks are 0 to 9",
            heading("Total Ranks: Real Ranks vs Bonus Ranks."),
        ));
    }
    let ad_modifier = figure.ad_modifier;
    work.emit(E::FigureAdjusted {
        figure: id.into(),
        bonus_physical: physical,
        bonus_mental: mental,
        ad_modifier,
        reason: reason.into(),
    });
    Ok(())
}

/// The judge sets a modifier to a figure's action dice.
pub fn set_action_dice(work: &mut Work, id: &str, modifier: i8, reason: &str) -> Result<(), RuleError> {
    require_judge(work, "modify action dice")?;
    check_reason(reason)?;
    let figure = work.figure(id)?;
    if !(-6..=6).contains(&modifier) {
        return Err(refuse(
            "action_dice_modifier",
            "a modifier is −6 to +6 dice",
            heading("Initiative, ActionDice(AD) & Actions"),
        ));
    }
    let (bonus_physical, bonus_mental) = (figure.physical.bonus, figure.mental.bonus);
    work.emit(E::FigureAdjusted {
        figure: id.into(),
        bonus_physical,
        bonus_mental,
        ad_modifier: i32::from(modifier),
        reason: reason.into(),
    });
    Ok(())
}

/// Fatigue: a rank lost, or a Body (physical) or Will (mental) roll to avoid it.
pub fn fatigue(work: &mut Work, id: &str, side: RankSide, roll: bool, reason: &str) -> Result<(), RuleError> {
    require_judge(work, "apply fatigue")?;
    check_reason(reason)?;
    let figure = work.figure(id)?;
    if !figure.active() {
        return Err(refuse("out_of_action", format!("{id} is out of action"), heading("Fatigue")));
    }
    if roll {
        let (kind, dice) = match side {
            RankSide::Physical => (RollKind::Body, figure.spec.characteristics.body),
            RankSide::Mental => (RollKind::Will, figure.spec.characteristics.will),
        };
        let rolled =
            work.roll_for(id, kind, u32::from(dice), 0, &format!("{kind:?} roll of {id} against fatigue"), false)?;
        let passed = rolled.passed();
        let next_word = work.next_word();
        work.emit(E::FatigueRolled { figure: id.into(), roll: rolled, next_word });
        if passed {
            return Ok(());
        }
    }
    damage::lose_ranks(work, id, side, 1, false, &format!("fatigue: {reason}"))?;
    damage::check_battle_end(work);
    Ok(())
}

/// Healing as asked.
pub struct HealRequest<'a> {
    /// Physical ranks.
    pub physical: u32,
    /// Mental ranks.
    pub mental: u32,
    /// Remove every State.
    pub states: bool,
    /// Injuries, by location.
    pub injuries: &'a [Location],
    /// Stop bleeders.
    pub bleeders: bool,
    /// Why.
    pub reason: &'a str,
}

/// Ranks and injuries to heal.
struct Healing<'a> {
    physical: u32,
    mental: u32,
    injuries: &'a [Location],
    bleeders: bool,
    week: bool,
    reason: &'a str,
}

/// Heal ranks (physical then mental, crossover regained with its cause), injuries and bleeders.
fn heal_ranks(work: &mut Work, id: &str, healing: &Healing) -> Result<(), RuleError> {
    let Healing { physical, mental, injuries, bleeders, week, reason } = *healing;
    let figure = work.figure(id)?;
    let every = figure.spec.crossover_every;
    let (physical, crossover_mental) = ranks::heal(&figure.physical, &figure.mental, physical, every);
    let (mental, crossover_physical) = ranks::heal(&figure.mental, &figure.physical, mental, every);
    for location in injuries {
        if !figure.injuries.iter().any(|injury| injury.location == *location) {
            return Err(refuse(
                "no_injury",
                format!("{id} has no injury at {location:?}"),
                heading("General Injury Table"),
            ));
        }
    }
    let mut after = figure.clone();
    after.physical.lost -= physical;
    after.physical.crossover -= crossover_physical;
    after.mental.lost -= mental;
    after.mental.crossover -= crossover_mental;
    let revived = figure.out_of_action && !figure.killed && !after.physical.out() && !after.mental.out();
    work.emit(E::Healed {
        figure: id.into(),
        physical,
        mental,
        crossover_physical,
        crossover_mental,
        injuries: injuries.to_vec(),
        bleeders,
        week,
        revived,
        reason: reason.into(),
    });
    Ok(())
}

/// The judge heals by magic or care.
pub fn heal(work: &mut Work, id: &str, request: &HealRequest) -> Result<(), RuleError> {
    require_judge(work, "heal")?;
    check_reason(request.reason)?;
    let figure = work.figure(id)?;
    if figure.killed {
        return Err(refuse(
            "killed",
            format!("{id} is dying: beyond this encounter's healing"),
            heading("OoA and KIA"),
        ));
    }
    if request.states {
        let states: Vec<StateKind> = figure.states.iter().copied().collect();
        for state in states {
            work.emit(E::StateRemoved { figure: id.into(), state, how: "healed".into() });
        }
    }
    let healing = Healing {
        physical: request.physical,
        mental: request.mental,
        injuries: request.injuries,
        bleeders: request.bleeders,
        week: false,
        reason: request.reason,
    };
    heal_ranks(work, id, &healing)
}

/// First aid: removes a Stun, and the wound of a figure that has lost only one rank.
pub fn first_aid(work: &mut Work, id: &str) -> Result<(), RuleError> {
    require_judge(work, "give first aid")?;
    let figure = work.figure(id)?;
    let stunned = figure.states.contains(&StateKind::Stun);
    let lost = figure.physical.lost + figure.physical.crossover + figure.mental.lost + figure.mental.crossover;
    if !stunned && lost != 1 {
        return Err(refuse(
            "first_aid",
            format!("first aid helps a stunned figure or one that lost a single rank; {id} lost {lost}"),
            heading("Fast Healing"),
        ));
    }
    if stunned {
        work.emit(E::StateRemoved { figure: id.into(), state: StateKind::Stun, how: "first aid".into() });
    }
    if lost == 1 {
        let figure = work.figure(id)?;
        let (physical, mental) = if figure.physical.lost == 1 {
            (1, 0)
        } else if figure.mental.lost == 1 {
            (0, 1)
        } else {
            (0, 0)
        };
        let healing = Healing { physical, mental, injuries: &[], bleeders: false, week: false, reason: "first aid" };
        heal_ranks(work, id, &healing)?;
    }
    Ok(())
}

/// A week of natural healing, with a healer's roll for an extra rank.
pub fn heal_week(
    work: &mut Work,
    id: &str,
    good_food_and_water: bool,
    no_travel: bool,
    healer: Option<&str>,
) -> Result<(), RuleError> {
    require_judge(work, "count a week of healing")?;
    let figure = work.figure(id)?;
    if figure.killed {
        return Err(refuse(
            "killed",
            format!("{id} is dying: natural healing cannot save it"),
            heading("Slow Healing"),
        ));
    }
    let mut wounds = healing::wounds_healed(figure.weeks_healed == 0, good_food_and_water, no_travel);
    if let Some(healer) = healer {
        let Some(dice) = work.figure(healer)?.spec.skill("healing") else {
            return Err(refuse("not_a_healer", format!("{healer} has no Healing skill"), heading("Slow Healing")));
        };
        let roll = work.roll_for(
            healer,
            RollKind::Skill,
            u32::from(dice),
            0,
            &format!("Healing roll of {healer} for {id}"),
            false,
        )?;
        wounds += u32::from(roll.passed());
        let next_word = work.next_word();
        work.emit(E::HealerRolled { figure: id.into(), healer: healer.into(), roll, next_word });
    }
    let figure = work.figure(id)?;
    let physical = wounds.min(figure.physical.lost);
    let mental = (wounds - physical).min(figure.mental.lost);
    let healing =
        Healing { physical, mental, injuries: &[], bleeders: false, week: true, reason: "a week of natural healing" };
    heal_ranks(work, id, &healing)
}
