//! Flying and chariots: the two ways figures move more than a zone in an action (seed 004
//! "Flying", "Chariots.", "Chariot Movement.").

use super::{
    act::{self, Class, Price},
    heading, movement, refuse, Work,
};
use crate::{
    swift_swords::{
        battle::event::SwiftSwordsEvent as E,
        chariot::{going_penalty, DriveStep},
        flight::{self, FlightRefusal, FlightStep},
        rolls::RollKind,
    },
    RuleError,
};

/// Fly: turns and zones within speed (or dive) and turn rate; circle to stay aloft in place.
pub fn fly(
    work: &mut Work,
    id: &str,
    steps: &[FlightStep],
    dive: bool,
    circle: bool,
    pay: &Option<Vec<u8>>,
) -> Result<(), RuleError> {
    act::ready(work, id, Class::Flight)?;
    let figure = work.figure(id)?;
    let Some(spec) = figure.spec.flight.clone() else {
        return Err(refuse("cannot_fly", format!("{id} has no wings"), heading("Flying")));
    };
    movement::free_to_move(work, id)?;
    if work.state.in_contact(id) {
        return Err(refuse(
            "withdraw_first",
            format!("{id} is InContact: it must Move or Withdraw before taking off"),
            heading("Flying"),
        ));
    }
    if steps.len() > crate::swift_swords::limits::MAX_STEPS {
        return Err(refuse("flight_too_long", "at most 64 steps in one flight", heading("Flying")));
    }
    let asked = flight::Flight { steps, dive, circle, dive_adds_to_speed: work.state.options.dive_adds_to_speed };
    let plan =
        flight::plan(&work.state.map, &spec, &figure.zone, figure.facing, asked).map_err(|refusal| match refusal {
            FlightRefusal::TooFar { zones, allowed } => refuse(
                "flight_too_far",
                format!("{zones} zones is beyond the {allowed} {id} may fly now"),
                heading("Flying"),
            ),
            FlightRefusal::TooManyTurns { turns, allowed } => refuse(
                "too_many_turns",
                format!("{turns} turns is beyond {id}'s turn rate of {allowed}"),
                heading("Flying"),
            ),
            FlightRefusal::OffTheMap => refuse("off_the_map", "the flight leaves the battlefield", heading("Flying")),
            FlightRefusal::CannotCircle => {
                refuse("cannot_circle", "circling a zone needs a turn rate of 6", heading("Flying"))
            }
        })?;
    let cost = u32::from(work.state.options.action_costs.fly);
    let old_group = figure.group.clone();
    if !act::begin(work, id, "fly", Price::Pips(cost, pay.clone()), Class::Flight)? {
        return Ok(());
    }
    work.emit(E::Flew {
        figure: id.into(),
        zones: plan.zones.clone(),
        facing: plan.facing,
        turns: plan.turns,
        flying: plan.flying,
    });
    if let (Some(group), false) = (old_group, plan.zones.is_empty()) {
        movement::dissolve_if_lonely(work, &group);
    }
    Ok(())
}

/// Drive a chariot: its driver acts, the crew and team go with it.
pub fn drive(
    work: &mut Work,
    id: &str,
    steps: &[DriveStep],
    dash: bool,
    pay: &Option<Vec<u8>>,
) -> Result<(), RuleError> {
    let rule = heading("Chariot Movement.");
    let Some(chariot) = work.state.chariots.get(id).cloned() else {
        return Err(refuse("unknown_chariot", format!("there is no chariot {id}"), rule));
    };
    if chariot.flipped {
        return Err(refuse("chariot_wrecked", format!("{id} has flipped over"), rule));
    }
    act::ready(work, &chariot.spec.driver, Class::Flight)?;
    let aboard: Vec<String> =
        chariot.spec.crew.iter().cloned().chain(std::iter::once(chariot.spec.team.clone())).collect();
    let team = work.figure(&chariot.spec.team)?;
    if !team.active() {
        return Err(refuse("team_down", format!("{id}'s team is out of action"), heading("Chariots.")));
    }
    let start = team.zone.clone();
    for figure in &aboard {
        let found = work.figure(figure)?;
        if found.active() && (!found.close_with.is_empty() || work.state.hold_on(figure).is_some()) {
            return Err(refuse(
                "withdraw_first",
                format!("{figure} is InClose or held: the chariot cannot drive off"),
                rule,
            ));
        }
    }
    if steps.len() > crate::swift_swords::limits::MAX_STEPS {
        return Err(refuse("drive_too_long", "at most 64 steps in one drive", rule));
    }
    let turns: u32 = {
        let mut facing = chariot.facing;
        steps
            .iter()
            .map(|step| match step {
                DriveStep::Turn { to } => {
                    let turns = facing.turns_to(*to);
                    facing = *to;
                    turns
                }
                DriveStep::Forward => 0,
            })
            .sum()
    };
    let allowed = chariot.spec.zones(work.state.options.zone_inches, dash);
    let forward =
        u32::try_from(steps.iter().filter(|step| matches!(step, DriveStep::Forward)).count()).unwrap_or(u32::MAX);
    if forward > allowed {
        return Err(refuse("drive_too_far", format!("{id} moves at most {allowed} zones this drive"), rule));
    }
    if dash && turns > 2 {
        return Err(refuse(
            "too_many_turns",
            "charging or running a chariot makes one 45° turn, and a second with a driving roll",
            rule,
        ));
    }
    let driver = chariot.spec.driver.clone();
    let cost = u32::from(work.state.options.action_costs.drive);
    if !act::begin(work, &driver, "drive", Price::Pips(cost, pay.clone()), Class::Flight)? {
        return Ok(());
    }
    let (mut here, mut facing, mut turned, mut zones) = (start.clone(), chariot.facing, 0u32, Vec::new());
    let (mut roll, mut flipped, mut straight) = (None, false, false);
    for step in steps {
        match step {
            DriveStep::Turn { to } if !straight => {
                let wanted = facing.turns_to(*to);
                if dash && turned + wanted > 1 {
                    let driven = driving_roll(work, &driver, &chariot, &here)?;
                    flipped = driven.ones > driven.successes;
                    let passed = driven.passed();
                    roll = Some(driven);
                    if flipped {
                        break;
                    }
                    if !passed {
                        straight = true;
                        continue;
                    }
                }
                turned += wanted;
                facing = *to;
            }
            DriveStep::Turn { .. } => {}
            DriveStep::Forward => {
                let Some(next) = work.state.map.step(&here, facing) else {
                    return Err(refuse("off_the_map", "the drive leaves the battlefield", rule));
                };
                if going_penalty(next.going).is_none() {
                    return Err(refuse(
                        "impassable",
                        format!("{} is impassable to chariots", next.id),
                        heading("Chariots."),
                    ));
                }
                here = next.id.clone();
                zones.push(here.clone());
            }
        }
    }
    let next_word = work.next_word();
    work.emit(E::Driven { chariot: id.into(), zones: zones.clone(), facing, roll, flipped, next_word });
    if !zones.is_empty() {
        for figure in &aboard {
            movement::leave_group(work, figure, &here, None, &format!("rode {id}"))?;
        }
    }
    if flipped {
        for figure in &chariot.spec.crew {
            if work.figure(figure)?.active() {
                work.emit(E::ProneChanged {
                    figure: figure.clone(),
                    prone: true,
                    reason: format!("thrown as {id} flipped over"),
                });
            }
        }
    }
    Ok(())
}

/// A driving roll: the driver's driving dice (DEX without the skill) less the crew over the
/// chariot's load, the going, the second turn and the team's wounds.
fn driving_roll(
    work: &mut Work,
    driver: &str,
    chariot: &crate::swift_swords::battle::state::ChariotState,
    zone: &str,
) -> Result<crate::swift_swords::rolls::PoolRoll, RuleError> {
    let figure = work.figure(driver)?;
    let dice = u32::from(figure.spec.skill("driving").unwrap_or(figure.spec.characteristics.dex));
    let going = work.state.map.zone(zone).and_then(|zone| going_penalty(zone.going)).unwrap_or(0);
    let team = work.figure(&chariot.spec.team)?;
    let team_wounds = super::injury_penalty(team, RollKind::Driving);
    let penalty = chariot.spec.overloaded() + going + chariot.spec.second_turn_penalty() + team_wounds;
    work.roll_for(
        driver,
        RollKind::Driving,
        dice,
        penalty,
        &format!("driving roll of {driver} for a second turn"),
        false,
    )
}
