//! Opening a battle, entropy, the seed, and ending the battle.

use std::collections::BTreeSet;

use super::{forbid, refuse, require_judge, SERVICE_RULES};
use crate::{
    warmachine::{
        battle::{
            command::{ModelSpec, PlayerSpec},
            event::WarmachineEvent,
            state::WarmachineState,
        },
        model::ModelType,
        table::{surface_under, Table, EPSILON},
    },
    Context, Role, RuleError,
};

pub use crate::warmachine::limits::{MAX_MODELS, MAX_TERRAIN};
/// The longest id or name, in characters (a service limit).
pub const MAX_NAME: usize = 100;
/// The longest entropy contribution, in characters.
pub const MAX_ENTROPY_CHARS: usize = 1024;

/// The highest a model may stand, in inches (a service limit).
pub const MAX_ELEVATION: f64 = 100.0;

const TYPES: &str = "seed 000 \"Model Types, Stats, and Damage Capacity\"";
const FALLING: &str = "seed 000 \"Falling\"";

/// Open the battle: a judge sets the table, the players and every model.
pub fn create(
    state: &WarmachineState,
    table: &Table,
    players: &[PlayerSpec],
    models: &[ModelSpec],
    seed_commitment: &str,
    ctx: &Context,
) -> Result<Vec<WarmachineEvent>, RuleError> {
    require_judge(ctx, "open a battle")?;
    if state.created() {
        return Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES));
    }
    if !is_hex_digest(seed_commitment) {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits",
            SERVICE_RULES,
        ));
    }
    table.validate()?;
    check_terrain(table)?;
    check_players(players)?;
    let models = check_models(table, players, models)?;
    Ok(vec![WarmachineEvent::BattleCreated {
        table: table.clone(),
        players: players.to_vec(),
        models,
        seed_commitment: seed_commitment.to_ascii_lowercase(),
    }])
}

fn check_name(kind: &str, name: &str) -> Result<(), RuleError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(refuse(
            "bad_name",
            format!("a {kind} needs a name of 1 to {MAX_NAME} printable characters"),
            SERVICE_RULES,
        ));
    }
    Ok(())
}

fn check_terrain(table: &Table) -> Result<(), RuleError> {
    if table.terrain.len() > MAX_TERRAIN {
        return Err(refuse("too_much_terrain", format!("at most {MAX_TERRAIN} terrain features"), SERVICE_RULES));
    }
    for feature in &table.terrain {
        check_name("terrain feature", &feature.name)?;
        if !feature.height.is_finite() || feature.height < 0.0 || !feature.shape_is_finite() {
            return Err(refuse(
                "bad_terrain",
                format!("terrain feature {} needs a finite footprint and a height of 0 or more", feature.name),
                SERVICE_RULES,
            ));
        }
    }
    Ok(())
}

fn check_players(players: &[PlayerSpec]) -> Result<(), RuleError> {
    if players.len() < 2 {
        return Err(refuse("players", "a battle needs two or more players", "seed 000 \"Active or Inactive player\""));
    }
    let mut names = BTreeSet::new();
    for player in players {
        check_name("player", &player.name)?;
        check_name("controller", &player.controller)?;
        if !names.insert(player.name.as_str()) {
            return Err(refuse("duplicate_player", format!("two players are named {}", player.name), SERVICE_RULES));
        }
    }
    Ok(())
}

/// Checks every model and returns them as they stand on the table: each with its elevation
/// resolved by [`standing_elevation`].
fn check_models(table: &Table, players: &[PlayerSpec], models: &[ModelSpec]) -> Result<Vec<ModelSpec>, RuleError> {
    if models.is_empty() || models.len() > MAX_MODELS {
        return Err(refuse("model_count", format!("a battle needs 1 to {MAX_MODELS} models"), SERVICE_RULES));
    }
    let ids: BTreeSet<&str> = models.iter().map(|m| m.id.as_str()).collect();
    if ids.len() != models.len() {
        return Err(refuse("duplicate_model", "every model needs its own id", SERVICE_RULES));
    }
    let mut placed = Vec::new();
    let mut standing = Vec::with_capacity(models.len());
    for spec in models {
        check_name("model", &spec.id)?;
        if !players.iter().any(|p| p.name == spec.player) {
            return Err(refuse(
                "unknown_player",
                format!("model {} belongs to {}, who is not a player", spec.id, spec.player),
                SERVICE_RULES,
            ));
        }
        spec.profile.validate()?;
        check_unit(spec, &ids)?;
        check_battlegroup(spec, models)?;
        let elevation = spec.position.elevation;
        if !(elevation.is_finite() && (0.0..=MAX_ELEVATION).contains(&elevation) && spec.position.facing.is_finite()) {
            return Err(refuse(
                "bad_position",
                format!("{} needs a finite facing and an elevation of 0 to {MAX_ELEVATION} inches", spec.id),
                SERVICE_RULES,
            ));
        }
        let base = spec.position.base(spec.profile.base);
        if let Some(wall) = table.terrain.iter().find(|f| f.blocks_sight() && f.overlaps_base(&base)) {
            return Err(refuse(
                "inside_obstruction",
                format!("{} stands inside the obstruction {}", spec.id, wall.name),
                "seed 000 \"Movement\"",
            ));
        }
        table
            .check_placement(&base, &placed)
            .map_err(|e| RuleError { message: format!("{}: {}", spec.id, e.message), ..e })?;
        placed.push(base);
        let mut stands = spec.clone();
        stands.position.elevation = standing_elevation(table, spec)?;
        standing.push(stands);
    }
    // A unit's troopers all belong to one player.
    for spec in models {
        if let Some(unit) = &spec.unit {
            if models.iter().any(|other| other.unit.as_ref() == Some(unit) && other.player != spec.player) {
                return Err(refuse("unit_players", format!("unit {unit} has troopers of two players"), TYPES));
            }
        }
    }
    Ok(standing)
}

/// The elevation a model is created at: the height of the surface under its base's centre, the
/// surface every later move puts it on (herald's table reading, docs/rulesets/warmachine.md; falls
/// are measured from it, seed 000 "Falling").
///
/// Left out, the model stands on that surface. Given, it must be that height (within
/// [`EPSILON`]): 0 where no elevated surface is under the centre, the highest surface's height
/// where one is. Anything else contradicts the table — a model floating above the ground or
/// sunk into a hill — and is refused with `warmachine.elevation_mismatch`.
fn standing_elevation(table: &Table, spec: &ModelSpec) -> Result<f64, RuleError> {
    let centre = spec.position.centre();
    let surface = surface_under(&table.terrain, centre);
    let height = surface.map_or(0.0, |f| f.height) + 0.0;
    if height > MAX_ELEVATION {
        return Err(refuse(
            "bad_position",
            format!("{} would stand {height} inches up; at most {MAX_ELEVATION} inches", spec.id),
            SERVICE_RULES,
        ));
    }
    let given = spec.position.elevation;
    if !spec.position.elevation_given() || (given - height).abs() <= EPSILON {
        return Ok(height);
    }
    let under = match surface {
        Some(feature) => format!("on the elevated surface {}, {height}″ high", feature.name),
        None => "on the table itself (0″): no elevated surface is under it".to_string(),
    };
    Err(refuse(
        "elevation_mismatch",
        format!(
            "{} is given an elevation of {given}″, but its base's centre ({}, {}) is {under}; \
             give {height} or leave the elevation out to stand on the surface",
            spec.id, spec.position.x, spec.position.y
        ),
        FALLING,
    ))
}

fn check_unit(spec: &ModelSpec, ids: &BTreeSet<&str>) -> Result<(), RuleError> {
    match (&spec.unit, spec.profile.model_type) {
        (Some(unit), ModelType::Trooper) => {
            check_name("unit", unit)?;
            if ids.contains(unit.as_str()) {
                return Err(refuse("unit_name", format!("unit {unit} has the same name as a model"), SERVICE_RULES));
            }
            Ok(())
        }
        (None, ModelType::Trooper) => Err(refuse(
            "trooper_without_unit",
            format!("trooper {} needs a unit", spec.id),
            "seed 000 \"Unit Movement\"",
        )),
        (Some(_), _) => {
            Err(refuse("unit_not_trooper", format!("{} is not a trooper and activates alone", spec.id), TYPES))
        }
        (None, _) => Ok(()),
    }
}

fn check_battlegroup(spec: &ModelSpec, models: &[ModelSpec]) -> Result<(), RuleError> {
    let Some(leader) = &spec.battlegroup else { return Ok(()) };
    let wanted = match spec.profile.model_type {
        ModelType::Warjack => ModelType::Warcaster,
        ModelType::Warbeast => ModelType::Warlock,
        _ => {
            return Err(refuse(
                "battlegroup_member",
                format!("{} is neither a warjack nor a warbeast and cannot be in a battlegroup", spec.id),
                TYPES,
            ))
        }
    };
    let ok = models.iter().any(|m| m.id == *leader && m.profile.model_type == wanted && m.player == spec.player);
    if ok {
        Ok(())
    } else {
        Err(refuse(
            "battlegroup_leader",
            format!("{}'s battlegroup must be led by a friendly {wanted:?} (not {leader})", spec.id).to_lowercase(),
            TYPES,
        ))
    }
}

fn is_hex_digest(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// A participant mixes entropy into the seed before the first die (DESIGN.md "Dice that anyone
/// can check").
pub fn contribute_entropy(
    state: &WarmachineState,
    entropy: &str,
    ctx: &Context,
) -> Result<Vec<WarmachineEvent>, RuleError> {
    let participant = ctx.actor.is_judge() || state.players.iter().any(|p| ctx.actor.is_player(&p.controller));
    if !participant {
        return Err(forbid("not_participant", "only the players' controllers and judges may contribute entropy"));
    }
    if state.next_word > 0 || state.revealed_seed.is_some() || state.ended() {
        return Err(refuse(
            "entropy_after_first_roll",
            "entropy can only be contributed before the first die is rolled",
            SERVICE_RULES,
        ));
    }
    if entropy.is_empty() || entropy.chars().count() > MAX_ENTROPY_CHARS {
        return Err(refuse("entropy_size", format!("entropy is 1 to {MAX_ENTROPY_CHARS} characters"), SERVICE_RULES));
    }
    Ok(vec![WarmachineEvent::EntropyContributed { entropy: entropy.to_string(), by: ctx.actor.id.clone() }])
}

/// Publish the seed in force: it must match its commitment; before the end a fresh sealed seed
/// takes over (docs/DICE.md "Re-sealing").
pub fn reveal_seed(
    state: &WarmachineState,
    seed_hex: &str,
    next_commitment: Option<&str>,
    ctx: &Context,
) -> Result<Vec<WarmachineEvent>, RuleError> {
    if !matches!(ctx.actor.role, Role::Judge | Role::Admin | Role::System) {
        return Err(forbid("judge_only", "only a judge or the service may reveal the seed"));
    }
    let revealed = crate::dice::sealed::reveal_in_force(
        state.seed_commitment.as_deref(),
        state.revealed_seed.as_ref(),
        &state.reseals,
        &state.contributions,
        seed_hex,
        next_commitment,
        state.ended(),
        ctx,
        "warmachine",
    )?;
    Ok(vec![WarmachineEvent::SeedRevealed {
        seed: revealed.seed,
        effective_seed: revealed.effective_seed,
        next_commitment: revealed.next_commitment,
    }])
}

/// A judge ends the battle with a winner (or none), or a player concedes (the other player wins
/// when there are two).
pub fn end_battle(
    state: &WarmachineState,
    winner: Option<&str>,
    reason: &str,
    ctx: &Context,
) -> Result<Vec<WarmachineEvent>, RuleError> {
    if state.ended() {
        return Err(refuse("ended", "the battle has already ended", SERVICE_RULES));
    }
    if reason.trim().is_empty() || reason.chars().count() > 2000 {
        return Err(refuse("reason_required", "say why the battle ends (1 to 2000 characters)", SERVICE_RULES));
    }
    if let Some(winner) = winner {
        if state.player(winner).is_none() {
            return Err(refuse("unknown_player", format!("{winner} is not a player"), SERVICE_RULES));
        }
    }
    if !ctx.actor.is_judge() {
        // A player may only concede: name another player (or nobody) as the winner.
        let conceding = state.players.iter().find(|p| ctx.actor.is_player(&p.controller));
        match (conceding, winner) {
            (Some(player), Some(winner)) if winner != player.name => {}
            _ => {
                return Err(forbid(
                    "judge_only",
                    "only a judge may end the battle; a player may concede by naming another player as the winner",
                ))
            }
        }
    }
    Ok(vec![WarmachineEvent::BattleEnded { winner: winner.map(str::to_string), reason: reason.to_string() }])
}
