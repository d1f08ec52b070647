//! Casting spells and giving commands (seed 002 "SPELL DESCRIPTIONS"): who may cast what, at
//! what, within 12″ + caster's level, for how many spell points; what each spell does is in
//! `spell_effects.rs`.

use super::{
    combat::attack_refusal,
    emit, flow, mini_in_play,
    moving::must_have_fled,
    refuse,
    spell_effects::{origin, spell_roll, summon, summoned_by, take_effect},
};
use crate::{
    percentile_skirmish::{
        battle::{
            event::SkirmishEvent,
            state::{MiniState, SkirmishState},
        },
        headings,
        rules::SpellRolls,
        spells::{Aim, Spell},
        table::{segment_distance, Point, EPSILON},
    },
    Context, RuleError,
};

/// The longest simple command, in characters (a service limit).
pub const MAX_COMMAND: usize = 200;

/// What a caster asks for.
pub struct Casting<'a> {
    /// The spell.
    pub spell: Spell,
    /// The mini it is cast at.
    pub target: Option<&'a str>,
    /// The point it is cast at.
    pub at: Option<Point>,
    /// The first simple command.
    pub command: Option<&'a str>,
}

/// Whether the caster may use a spell attack now: not running, not under fear, one left.
fn spell_attack_refusal(state: &SkirmishState, caster: &MiniState) -> Result<(), RuleError> {
    must_have_fled(state, caster)?;
    let id = caster.id();
    if caster.this_turn.ran {
        return Err(refuse(
            "ran_this_turn",
            format!("{id} ran this turn: a running mini cannot cast spells of any kind"),
            headings::RUNNING,
        ));
    }
    if caster.this_turn.spell_attacks >= caster.spec.profile.spell_attacks {
        return Err(refuse(
            "no_spell_attacks_left",
            format!("{id} has used its {} spell attack(s) this turn", caster.spec.profile.spell_attacks),
            headings::SPELL_DESCRIPTIONS,
        ));
    }
    Ok(())
}

fn check_command(command: Option<&str>, spell: Spell) -> Result<Option<String>, RuleError> {
    match command.map(str::trim) {
        Some(text)
            if !text.is_empty() && text.chars().count() <= MAX_COMMAND && !text.chars().any(char::is_control) =>
        {
            Ok(Some(text.to_string()))
        }
        _ => Err(refuse(
            "command_required",
            format!("{} needs a simple command of 1 to {MAX_COMMAND} characters", spell.heading()),
            &spell.rule(),
        )),
    }
}

/// Cast a spell.
pub fn cast(
    state: &SkirmishState,
    caster: &MiniState,
    request: &Casting<'_>,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    let spell = request.spell;
    let rule = spell.rule();
    let id = caster.id();
    spell_attack_refusal(state, caster)?;
    if !caster.spec.profile.spells.contains(&spell) {
        return Err(refuse(
            "unknown_spell",
            format!("{id} cannot cast {}", spell.heading()),
            headings::SPELL_DESCRIPTIONS,
        ));
    }
    if spell.is_attack() {
        if let Some(refusal) = attack_refusal(state, caster, false) {
            return Err(refusal);
        }
    }
    if caster.spell_points < spell.cost() {
        return Err(refuse(
            "not_enough_spell_points",
            format!("{} costs {} spell points; {id} has {}", spell.heading(), spell.cost(), caster.spell_points),
            &rule,
        ));
    }
    let command = match spell {
        Spell::Command | Spell::Golem => check_command(request.command, spell)?,
        _ if request.command.is_some() => {
            return Err(refuse("command_not_taken", format!("{} takes no command", spell.heading()), &rule))
        }
        _ => None,
    };
    let target = match (spell.aim(), request.target, request.at) {
        (Aim::Caster, None | Some(_), None) if request.target.is_none_or(|t| t == id) => Some(caster),
        (Aim::Mini, Some(target), None) => Some(mini_in_play(state, target)?),
        (Aim::Point | Aim::Path, None, Some(at)) if state.table.contains(at) => None,
        (aim, _, _) => {
            let wanted = match aim {
                Aim::Caster => "is cast on the caster itself: give no target and no point",
                Aim::Mini => "is cast at a mini: give its target and no point",
                Aim::Point | Aim::Path => "is cast at a point on the table: give `at` and no target",
            };
            return Err(refuse("bad_aim", format!("{} {wanted}", spell.heading()), &rule));
        }
    };
    let summons_ready = match spell {
        Spell::Golem => state.summons.golem.is_some(),
        Spell::Familiar => state.summons.familiar.is_some(),
        _ => true,
    };
    if !summons_ready {
        return Err(refuse(
            "no_summon_stats",
            format!("this battle's set-up gives no stats for the {}", spell.heading().to_lowercase()),
            &rule,
        ));
    }
    if matches!(spell, Spell::Golem | Spell::Familiar) && summoned_by(state, id, spell).is_some() {
        return Err(refuse(
            "already_summoned",
            format!("{id}'s {} is already on the table", spell.heading().to_lowercase()),
            &rule,
        ));
    }
    let from = match (target, request.at) {
        (_, Some(at)) => origin(state, caster, spell, at),
        _ => caster.position,
    };
    let aimed_at = target.map_or_else(|| request.at.unwrap_or(caster.position), |t| t.position);
    let distance = from.distance(aimed_at);
    if distance > caster.spell_range() + EPSILON {
        return Err(refuse(
            "out_of_range",
            format!(
                "{} reaches {}″ (12″ + caster's level); the target is {distance:.2}″ away",
                spell.heading(),
                caster.spell_range()
            ),
            &rule,
        ));
    }
    let rolls =
        spell.aim() != Aim::Caster && (state.options.spell_rolls == SpellRolls::EveryCast || spell.is_hostile());
    let purpose = |what: &str| format!("{} of {id} at {what}", spell.heading());
    let mut outcomes = Vec::new();
    if spell == Spell::Fireball {
        let end = request.at.unwrap_or(caster.position);
        let half_width = state.options.fireball_width / 2.0 + EPSILON;
        let mut in_path: Vec<&MiniState> = state
            .minis
            .values()
            .filter(|mini| mini.in_play() && mini.id() != id)
            .filter(|mini| segment_distance(mini.position, caster.position, end) <= half_width)
            .collect();
        in_path.sort_by(|a, b| caster.position.distance(a.position).total_cmp(&caster.position.distance(b.position)));
        for mini in in_path {
            let distance = caster.position.distance(mini.position);
            let mut outcome = spell_roll(state, caster, Some(mini), distance, true, &purpose(mini.id()), ctx)?;
            if outcome.success {
                take_effect(state, caster, spell, mini, &mut outcome);
            }
            outcomes.push(outcome);
        }
    } else {
        let what = target.map_or_else(|| format!("({:.2}, {:.2})", aimed_at.x, aimed_at.y), |t| t.id().to_string());
        let mut outcome = spell_roll(state, caster, target, distance, rolls, &purpose(&what), ctx)?;
        if let (true, Some(target)) = (outcome.success, target) {
            take_effect(state, caster, spell, target, &mut outcome);
        }
        outcomes.push(outcome);
    }
    let success = outcomes.first().is_some_and(|outcome| outcome.success);
    let dead: Vec<String> =
        outcomes.iter().filter_map(|o| o.damage.as_ref()).filter(|d| d.killed).map(|d| d.mini.clone()).collect();
    let mut working = state.clone();
    let mut events = Vec::new();
    emit(
        &mut working,
        &mut events,
        SkirmishEvent::SpellCast {
            caster: id.into(),
            spell,
            cost: spell.cost(),
            spell_points_left: caster.spell_points - spell.cost(),
            target: request.target.map(str::to_string),
            at: request.at,
            command: command.clone(),
            outcomes,
            next_word: ctx.dice.next_word(),
        },
    );
    if success {
        match (spell, request.at) {
            (Spell::Golem | Spell::Familiar, Some(at)) => {
                let summoned = summon(state, caster, spell, at)?;
                let turns = 1 + caster.spec.profile.level;
                emit(
                    &mut working,
                    &mut events,
                    SkirmishEvent::Summoned { mini: summoned, caster: id.into(), spell, turns, command },
                );
            }
            (Spell::Teleport, Some(at)) => {
                emit(
                    &mut working,
                    &mut events,
                    SkirmishEvent::Teleported { mini: id.into(), from: caster.position, to: at },
                );
            }
            _ => {}
        }
    }
    flow::after_kills(&mut working, &mut events, &dead, ctx)?;
    if !working.ended() {
        flow::after_moves(&mut working, &mut events, ctx)?;
    }
    Ok(events)
}

/// A caster gives a commanded mini or its golem a new simple command: it rolls "as if casting a
/// spell" and uses a spell attack, but no spell points (seed 002 "Command", "Golem").
pub fn issue_command(
    state: &SkirmishState,
    caster: &MiniState,
    mini: &str,
    command: &str,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    spell_attack_refusal(state, caster)?;
    let target = mini_in_play(state, mini)?;
    let spell = if target.commanded_by.as_deref() == Some(caster.id()) {
        Spell::Command
    } else if target.summoned.as_ref().is_some_and(|s| s.spell == Spell::Golem && s.caster == caster.id()) {
        Spell::Golem
    } else {
        return Err(refuse(
            "not_commanded",
            format!("{mini} is neither under {}'s command spell nor its golem", caster.id()),
            "seed 002 \"Command\"",
        ));
    };
    let command = check_command(Some(command), spell)?.unwrap_or_default();
    let distance = caster.position.distance(target.position);
    if distance > caster.spell_range() + EPSILON {
        return Err(refuse(
            "out_of_range",
            format!("{mini} is {distance:.2}″ away, beyond {}'s spell range of {}″", caster.id(), caster.spell_range()),
            &spell.rule(),
        ));
    }
    let purpose = format!("command of {} to {mini}, rolled as a spell", caster.id());
    let outcome = spell_roll(state, caster, Some(target), distance, true, &purpose, ctx)?;
    Ok(vec![SkirmishEvent::CommandIssued {
        caster: caster.id().into(),
        mini: mini.into(),
        command,
        outcome,
        next_word: ctx.dice.next_word(),
    }])
}
