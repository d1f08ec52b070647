//! The campaign's decisions: every command goes to the module of its topic — the set-up
//! ([`super::create`]), orders ([`super::posting`]), adjudication ([`super::adjudicate`]), control
//! ([`super::control`]), judges and sanctions ([`super::sanctions`]), votes ([`super::voting`]),
//! mercenaries ([`super::mercenaries`]), new players ([`super::newcomers`]) — and the turn's
//! opening, locking and the judges' rulings are decided here.

use std::collections::BTreeMap;

use super::{
    command::CampaignCommand,
    create::{create, Setup},
    event::CampaignEvent,
    judges::{self, Office},
    state::{ArmyState, CampaignState, TurnPhase},
    voting::VoteCalled,
};
use crate::{
    coalition::{army::Team, orders::Placement},
    Context, RuleError,
};

/// The reference of the rules Herald adds as a service.
pub const SERVICE_RULES: &str = "herald: docs/rulesets/coalition-campaign.md";

/// A refusal with code `coalition.campaign.<code>`.
pub fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

/// Refuse unless the actor is a judge of the round who may act as the Movement Judge (the Battle
/// Judge may too, seed 003 §1.3).
pub fn require_judge(state: &CampaignState, ctx: &Context, what: &str) -> Result<(), RuleError> {
    judges::require(state, ctx, &[Office::Movement], what).map(|_| ())
}

/// Every army's square and team, as the order checks see the map.
pub fn board_placements(state: &CampaignState) -> BTreeMap<String, Placement> {
    state
        .armies
        .iter()
        .map(|(name, army)| (name.clone(), Placement { square: army.square, team: army.army.team }))
        .collect()
}

/// The living army `army`, or a rule error naming it.
pub fn living_army<'a>(state: &'a CampaignState, army: &str) -> Result<&'a ArmyState, RuleError> {
    state
        .armies
        .get(army)
        .ok_or_else(|| refuse("unknown_army", format!("there is no army named {army}"), SERVICE_RULES))
}

/// Decide a command.
pub fn decide(
    state: &CampaignState,
    command: &CampaignCommand,
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    use super::control::decide as control;
    use CampaignCommand as C;
    if let C::CreateCampaign {
        name,
        map,
        players,
        armies,
        options,
        seed_commitment,
        mercenaries,
        positions_record,
        interval_commitment,
    } = command
    {
        let setup = Setup {
            name,
            map,
            players,
            entries: armies,
            mercenaries,
            options,
            seed_commitment,
            positions_record: *positions_record,
            interval_commitment: interval_commitment.as_deref(),
        };
        return create(state, ctx, setup);
    }
    if !state.created {
        return Err(refuse("not_found", "no such campaign", SERVICE_RULES));
    }
    // The seeds still due are published after the end: nothing else is decided any more.
    if let C::RevealTurnSeed { seed } = command {
        return super::entropy::reveal(state, ctx, seed);
    }
    if let Some(victory) = &state.victory {
        return Err(refuse("round_over", format!("the round is over: {:?} won", victory.team), victory.rule.as_str()));
    }
    if let Some(reason) = &state.closed {
        return Err(refuse("round_over", format!("an admin closed the round: {reason}"), SERVICE_RULES));
    }
    let one = |event: CampaignEvent| Ok(vec![event]);
    match command {
        C::CreateCampaign { .. } => Err(refuse("already_exists", "this campaign already exists", SERVICE_RULES)),
        C::JudgeRoll(roll) => one(CampaignEvent::JudgeRolled(roll.roll(ctx, "coalition.campaign", false)?)),
        C::SetControllers { army, controllers, accept_illegal, reason } => {
            control::set_controllers(state, ctx, army, controllers, *accept_illegal, reason.as_deref())
        }
        C::RequestControlChange { army, controllers, reason } => {
            control::request_change(state, ctx, army, controllers, reason.as_deref())
        }
        C::TransferControlAuthority { team, holders } => control::transfer_authority(state, ctx, *team, holders),
        C::AuthorizeEmergencyControl { team, holders, reason } => {
            control::emergency(state, ctx, *team, holders, reason)
        }
        C::SetContingency { player, contingency } => {
            control::set_contingency(state, ctx, player, contingency.as_deref())
        }
        C::DeclareInactive { player, reason } => control::declare_inactive(state, ctx, player, reason),
        C::DeclareActive => control::declare_active(state, ctx),
        C::RejectInactivity { player, reason } => control::reject_inactivity(state, ctx, player, reason),
        C::ChangeRank { player, rank } => control::change_rank(state, ctx, player, *rank),
        C::PermitControlChange { army } => control::permit(state, ctx, army),
        C::AppointJudge(appointment) => {
            one(CampaignEvent::JudgeAppointed(super::sanctions::appoint(state, ctx, appointment)?))
        }
        C::Overrule { call, reason } => {
            one(CampaignEvent::CallOverruled(super::sanctions::overrule(state, ctx, *call, reason)?))
        }
        C::ImposeSanction { player, army, severity, reason } => {
            let sanction = super::sanctions::impose(state, ctx, player, army.as_deref(), *severity, reason)?;
            one(CampaignEvent::SanctionImposed(sanction))
        }
        C::CallVote { topic, options, closes_at, system, secret } => {
            let called = VoteCalled {
                vote: String::new(),
                called_by: String::new(),
                topic: topic.clone(),
                options: options.clone(),
                closes_at: *closes_at,
                system: system.clone(),
                secret: *secret,
                at: ctx.recorded_at,
            };
            one(CampaignEvent::VoteCalled(super::voting::call(state, ctx, called)?))
        }
        C::CastVote { vote, option } => one(CampaignEvent::VoteCast(super::voting::cast(state, ctx, vote, option)?)),
        C::CloseVote { vote } => one(CampaignEvent::VoteClosed(super::voting::close(state, ctx, vote)?)),
        C::EditRaiderOrder { army, order } => {
            one(CampaignEvent::RaiderOrderEdited(super::mercenaries::edit::edit(state, ctx, army, order)?))
        }
        C::AddPlayer { player } => {
            use super::limits::MAX_PLAYERS;
            if state.players.len() >= MAX_PLAYERS {
                return Err(refuse(
                    "too_many_players",
                    format!(
                        "the round has {} players; at most {MAX_PLAYERS} players are allowed (a service limit, \
                         generous past any real table)",
                        state.players.len()
                    ),
                    crate::caps::CAPS_RULE,
                ));
            }
            one(CampaignEvent::PlayerJoined(super::newcomers::join(state, ctx, player)?))
        }
        C::OfferCustomisation { player, army } => {
            one(CampaignEvent::CustomisationOffered(super::newcomers::offer(state, ctx, player, army)?))
        }
        C::CustomiseArmy { army, name, legend, troops } => {
            let customised = super::newcomers::customise(state, ctx, army, name.as_deref(), legend.as_ref(), troops)?;
            one(CampaignEvent::ArmyCustomised(customised))
        }
        C::ChangeScreenName { from, to } => {
            one(CampaignEvent::ScreenNameChanged(super::newcomers::rename(state, ctx, from, to)?))
        }
        C::RevealTurnSeed { seed } => super::entropy::reveal(state, ctx, seed),
        C::ContributeEntropy { entropy } => one(super::entropy::contribute(state, ctx, entropy)?),
        C::CloseRound { reason } => one(super::entropy::close_round(ctx, reason)?),
        C::OpenTurn { deadline, turn_key } => {
            require_judge(state, ctx, "open a turn")?;
            if state.phase != TurnPhase::Closed {
                return Err(refuse(
                    "turn_already_open",
                    format!("turn {} is still open or locked", state.turn),
                    "seed 003 §3.1",
                ));
            }
            if *deadline <= ctx.recorded_at {
                return Err(refuse("deadline_in_past", "a turn's deadline must be in the future", "seed 003 §3.1"));
            }
            let turn = state.turn + 1;
            let (seed_commitment, interval_commitment) = match turn_key {
                None if state.interval_keyed => {
                    return Err(refuse(
                        "turn_key_missing",
                        "a turn of this round opens with commitments to its keys, which the service fills in",
                        crate::dice::sealed::DICE_RULES,
                    ))
                }
                None => (None, None),
                Some(key)
                    if key.turn == turn
                        && crate::dice::seed::parse_hex32(&key.commitment).is_some()
                        && key.interval_commitment.as_deref().map_or(!state.interval_keyed, |interval| {
                            state.interval_keyed && crate::dice::seed::parse_hex32(interval).is_some()
                        }) =>
                {
                    (Some(key.commitment.to_lowercase()), key.interval_commitment.as_deref().map(str::to_lowercase))
                }
                Some(key) => {
                    return Err(refuse(
                        "turn_key_mismatch",
                        format!(
                            "the turn key offered is for turn {}, not turn {turn}, or is not 64 hex digits, or \
                             its interval commitment is missing or not 64 hex digits",
                            key.turn
                        ),
                        crate::dice::sealed::DICE_RULES,
                    ))
                }
            };
            one(CampaignEvent::TurnOpened { turn, deadline: *deadline, seed_commitment, interval_commitment })
        }
        C::PostOrders { text, orders, private, on_behalf_of } => {
            super::posting::post_orders(state, ctx, text.as_deref(), orders, *private, on_behalf_of.as_deref())
        }
        C::LockTurn => {
            require_judge(state, ctx, "lock a turn")?;
            match state.phase {
                TurnPhase::Open { .. } => one(CampaignEvent::TurnLocked { turn: state.turn }),
                _ => Err(refuse("turn_not_open", "there is no open turn to lock", "seed 003 §3.1")),
            }
        }
        C::AdjudicateTurn { battle_results, interval_seed } => {
            // The interval key the adjudication closes is published with the turn's report.
            let mut events = super::adjudicate::adjudicate(state, battle_results, ctx)?;
            events.extend(super::entropy::reveal_interval(state, ctx, interval_seed.as_deref())?);
            Ok(events)
        }
        C::ChangeTroops { army, troops, legend } => {
            super::troops::change_troops(state, ctx, army, troops, legend.as_ref())
        }
        C::RuleOnArmy { army, square, reason } => rule_on_army(state, ctx, army, *square, reason),
    }
}

/// A judge's ruling moving an army (seed 003 §3.3.3): a numbered call the Battle Judge may
/// overrule.
fn rule_on_army(
    state: &CampaignState,
    ctx: &Context,
    army: &str,
    square: crate::coalition::map::Square,
    reason: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let call = judges::require(state, ctx, &[Office::Movement, Office::Mercenary], "rule on an army")?;
    let current = living_army(state, army)?;
    if call.office == Office::Mercenary && current.army.team != Team::Mercenary {
        return Err(RuleError::forbidden(
            "coalition.campaign.not_a_judge_here",
            "the Mercenary Judge rules on mercenary armies only",
            "seed 003 ch. 6",
        ));
    }
    if !state.map.contains(square) {
        return Err(refuse("off_map", format!("{square} is off the map"), "seed 003 §1.2"));
    }
    if reason.trim().is_empty() {
        return Err(refuse("ruling_reason_required", "a ruling needs a reason", "seed 003 §3.3.3"));
    }
    Ok(vec![CampaignEvent::ArmyRuledOn {
        army: army.to_string(),
        from: current.square,
        to: square,
        reason: reason.to_string(),
        judged: Some(call),
    }])
}

/// Whether `team` is an enemy of `other` (mercenaries are enemies of both teams).
pub fn enemies(team: Team, other: Team) -> bool {
    team != other
}
