//! The flow of a turn (seed 002 "TURN", "INITIATIVE"): rounds in descending initiative value,
//! the percentile rolls that order the minis of a round, one mini acting after the other, and
//! the end of a turn with its expiring spells. Declarations are in `declare.rs`; what follows a
//! death or a move in `aftermath.rs`.

use super::emit;
use crate::{
    percentile_skirmish::{
        battle::{
            event::{Declaration, Eligible, Expiry, SkirmishEvent},
            state::{MiniState, SkirmishState},
        },
        mini::MAX_INITIATIVE,
        rules::{acting_order, initiative::tied, InitiativeRoll},
        spells::Spell,
    },
    Context, RuleError,
};

pub use super::aftermath::{after_kills, after_moves};

/// Whether `mini` could be declared in some round of this turn: on the table, not yet acted,
/// and (a golem) under its caster's control.
fn declarable(mini: &MiniState) -> bool {
    mini.in_play() && !mini.this_turn.acted && (!mini.is_golem() || mini.golem_active)
}

/// The lowest initiative round a turn may reach: the lowest initiative a card may give, slowed
/// (seed 002 "Slow": "loses 3 to their initiative").
pub const LOWEST_ROUND: i32 = -MAX_INITIATIVE - 3;

/// The next round's initiative value (seed 002 "INITIATIVE": "Mini's perform actions in
/// descending order, based on their initiative values"; a mini "can decide to wait to perform
/// actions on a later initiative round").
///
/// Herald's reading: the next round is the highest initiative, below the last round, of a mini
/// that may still act. When no such mini is left but some mini waited (it may still act this
/// turn), the round just below the last one is offered to it, and so on down to
/// [`LOWEST_ROUND`], as long as someone acted in the last round (`someone_acted`): a round in
/// which every mini waited, with no initiative value left below it, ends the turn — the waiting
/// minis had their later round and let it go.
fn next_round(state: &SkirmishState, below: Option<i32>, someone_acted: bool) -> Option<i32> {
    let declarable = || state.minis.values().filter(|mini| declarable(mini));
    let natural =
        declarable().map(MiniState::initiative).filter(|value| below.is_none_or(|below| *value < below)).max();
    if natural.is_some() {
        return natural;
    }
    let below = below?;
    let waiting = declarable().next().is_some();
    (waiting && someone_acted && below > LOWEST_ROUND).then(|| below - 1)
}

/// Begin the next turn and its first round.
pub fn start_turn(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    emit(state, events, SkirmishEvent::TurnStarted { turn: state.turn + 1 });
    if next_round(state, None, true).is_none() {
        emit(state, events, SkirmishEvent::BattleEnded { winner: None, reason: "no mini on the table can act".into() });
        return Ok(());
    }
    begin_round(state, events, ctx, None, true)
}

/// Open the next round below `below`, or end the turn when there is none (`someone_acted`: a
/// mini acted in the round just over, see [`next_round`]).
fn begin_round(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    ctx: &mut Context,
    below: Option<i32>,
    someone_acted: bool,
) -> Result<(), RuleError> {
    let Some(value) = next_round(state, below, someone_acted) else {
        return end_turn(state, events, ctx);
    };
    let eligible: Vec<Eligible> = state
        .participants
        .iter()
        .filter_map(|participant| {
            let (mut minis, mut must_act) = (Vec::new(), Vec::new());
            for mini in state.minis.values().filter(|mini| {
                declarable(mini) && mini.initiative() >= value && state.acting_participant(mini) == participant.name
            }) {
                // A mini under fear "runs in opposite direction of the caster": it acts at its
                // first chance, declared or not (Herald's reading; a statue cannot run).
                if mini.under(Spell::Fear) && !mini.under(Spell::Statue) {
                    must_act.push(mini.id().to_string());
                } else {
                    minis.push(mini.id().to_string());
                }
            }
            (!(minis.is_empty() && must_act.is_empty())).then(|| Eligible {
                participant: participant.name.clone(),
                minis,
                must_act,
            })
        })
        .collect();
    emit(state, events, SkirmishEvent::RoundStarted { turn: state.turn, round: value, eligible });
    if all_declared(state) {
        reveal_round(state, events, ctx)?;
    }
    Ok(())
}

pub(super) fn all_declared(state: &SkirmishState) -> bool {
    state
        .round
        .as_ref()
        .is_some_and(|round| round.declarations.iter().all(|d| d.declared.is_some() || d.eligible.is_empty()))
}

/// Every participant has declared: roll for the order when several minis act (seed 002
/// "INITIATIVE"), and let the first act — or end the round when nobody declared anything.
pub(super) fn reveal_round(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    let Some(round) = state.round.clone() else { return Ok(()) };
    let declarations: Vec<Declaration> = round
        .declarations
        .iter()
        .map(|d| {
            let mut minis = d.must_act.clone();
            minis.extend(d.declared.iter().flatten().filter(|id| !d.must_act.contains(id)).cloned());
            Declaration { participant: d.participant.clone(), minis }
        })
        .collect();
    let acting: Vec<String> = declarations.iter().flat_map(|d| d.minis.iter().cloned()).collect();
    let mut initiative: Vec<InitiativeRoll> = Vec::new();
    if acting.len() > 1 {
        for id in &acting {
            let level = state.mini(id).map_or(0, |mini| mini.spec.profile.level);
            initiative.push(InitiativeRoll { mini: id.clone(), level, draws: Vec::new(), scores: Vec::new() });
        }
        let everyone: Vec<usize> = (0..initiative.len()).collect();
        let mut to_roll = vec![everyone];
        // Ties roll again until every mini has its place; a tie that survives 20 rolls keeps
        // the declaration order (it never happens in practice: 100 faces each time).
        for _ in 0..20 {
            for group in &to_roll {
                for &index in group {
                    let entry = &mut initiative[index];
                    let purpose = format!("initiative of {} (percentile + level {})", entry.mini, entry.level);
                    let draw = ctx.dice.roll(100, purpose)?;
                    entry.scores.push(draw.value + entry.level);
                    entry.draws.push(draw);
                }
            }
            to_roll = tied(&initiative);
            if to_roll.is_empty() {
                break;
            }
        }
    }
    let order = if initiative.is_empty() { acting } else { acting_order(&initiative) };
    emit(
        state,
        events,
        SkirmishEvent::RoundDeclared {
            turn: state.turn,
            round: round.value,
            declarations,
            initiative,
            order,
            next_word: ctx.dice.next_word(),
        },
    );
    advance(state, events, ctx)
}

/// The acting mini is done (or can no longer act); the next one acts.
pub fn finish_actions(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    mini: &str,
    reason: &str,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    emit(state, events, SkirmishEvent::ActionsEnded { mini: mini.to_string(), reason: reason.to_string() });
    advance(state, events, ctx)
}

/// Move on to the first mini of the order that can still act, or end the round.
fn advance(state: &mut SkirmishState, events: &mut Vec<SkirmishEvent>, ctx: &mut Context) -> Result<(), RuleError> {
    loop {
        if state.ended() {
            return Ok(());
        }
        let Some(round) = state.round.as_ref() else { return Ok(()) };
        let Some(id) = round.order.get(round.current).cloned() else {
            let (value, someone_acted) = (round.value, !round.order.is_empty());
            emit(state, events, SkirmishEvent::RoundEnded { turn: state.turn, round: value });
            return begin_round(state, events, ctx, Some(value), someone_acted);
        };
        let can_act = state.mini(&id).is_some_and(|mini| mini.in_play() && (!mini.is_golem() || mini.golem_active));
        if can_act {
            return Ok(());
        }
        emit(state, events, SkirmishEvent::ActionsEnded { mini: id, reason: "cannot act".into() });
    }
}

/// The last round of the turn is over: every lasting spell loses a turn, spent ones expire and
/// summoned minis whose time is up leave (seed 002 "SPELL DESCRIPTIONS"); the next turn begins.
fn end_turn(state: &mut SkirmishState, events: &mut Vec<SkirmishEvent>, ctx: &mut Context) -> Result<(), RuleError> {
    let mut expired = Vec::new();
    let mut dismissed = Vec::new();
    for mini in state.minis.values().filter(|mini| mini.in_play()) {
        for effect in mini.effects.iter().filter(|effect| effect.turns_left <= 1) {
            expired.push(Expiry { mini: mini.id().to_string(), spell: effect.spell });
            if mini.summoned.as_ref().is_some_and(|summoning| summoning.spell == effect.spell) {
                dismissed.push(mini.id().to_string());
            }
        }
    }
    emit(state, events, SkirmishEvent::TurnEnded { turn: state.turn, expired, dismissed });
    start_turn(state, events, ctx)
}
