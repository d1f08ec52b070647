//! Opening a battle (seed 004 "Sequence of Play" b: battlefield and starting positions) and
//! entropy.

use std::collections::BTreeSet;

use super::{heading, refuse, SERVICE_RULES};
use crate::{
    dice::seed,
    swift_swords::{
        battle::{event::SwiftSwordsEvent, state::SideSpec, state::SwiftSwordsState},
        chariot::ChariotSpec,
        figure::{ActionDiceSpec, FigureSpec},
        options::BattleOptions,
        zones::ZoneMap,
    },
    Context, RuleError,
};

pub use crate::swift_swords::limits::{MAX_FIGURES, MAX_SIDES, MAX_ZONES};
/// The longest id or name, in characters (a service limit).
pub const MAX_NAME: usize = 100;
/// The most dice any one roll of a profile may name (a service limit).
pub const MAX_PROFILE_DICE: u8 = 30;

/// The set-up as asked.
pub struct Request<'a> {
    /// The zones.
    pub map: &'a ZoneMap,
    /// The sides.
    pub sides: &'a [SideSpec],
    /// The figures.
    pub figures: &'a [FigureSpec],
    /// The chariots.
    pub chariots: &'a [ChariotSpec],
    /// The readings.
    pub options: &'a BattleOptions,
    /// The seed commitment.
    pub seed_commitment: &'a str,
}

/// Open the battle: a judge sets the zones, the sides and every figure.
pub fn create(state: &SwiftSwordsState, request: &Request, ctx: &Context) -> Result<Vec<SwiftSwordsEvent>, RuleError> {
    if !ctx.actor.is_judge() {
        return Err(super::forbid("judge_only", "only a judge (the GM) may open a battle"));
    }
    if state.created() {
        return Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES));
    }
    let commitment = request.seed_commitment;
    if commitment.len() != 64 || seed::parse_hex32(commitment).is_none() {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hexadecimal digits",
            SERVICE_RULES,
        ));
    }
    check_options(request.options)?;
    check_map(request.map)?;
    check_sides(request.sides)?;
    check_figures(request)?;
    check_chariots(request)?;
    Ok(vec![SwiftSwordsEvent::BattleCreated {
        map: request.map.clone(),
        sides: request.sides.to_vec(),
        figures: request.figures.to_vec(),
        chariots: request.chariots.to_vec(),
        options: request.options.clone(),
        seed_commitment: commitment.to_ascii_lowercase(),
    }])
}

/// Mix entropy in (participants and judges, before the first die).
pub fn contribute_entropy(
    state: &SwiftSwordsState,
    entropy: &str,
    ctx: &Context,
) -> Result<Vec<SwiftSwordsEvent>, RuleError> {
    let participant = ctx.actor.player.as_deref().is_some_and(|player| {
        ctx.actor.is_player(player)
            && (state.figures.values().any(|figure| figure.spec.controller.as_deref() == Some(player))
                || state.sides.iter().any(|side| side.controller.as_deref() == Some(player)))
    });
    Ok(vec![SwiftSwordsEvent::EntropyContributed(state.dice.contribute(entropy, participant, ctx, "swift-swords")?)])
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

fn check_options(options: &BattleOptions) -> Result<(), RuleError> {
    let costs = &options.action_costs;
    let all = [
        costs.move_zone,
        costs.withdraw,
        costs.break_pool,
        costs.close_in,
        costs.knock_down,
        costs.grapple,
        costs.break_hold,
        costs.stand_up,
        costs.ready_weapon,
        costs.fly,
        costs.drive,
    ];
    if all.iter().any(|cost| *cost == 0 || *cost > 36)
        || !(2..=6).contains(&options.superiority)
        || options.zone_inches == 0
    {
        return Err(refuse(
            "bad_options",
            "action costs are 1 to 36 pips, the superiority threshold 2 to 6 and a zone at least an inch",
            SERVICE_RULES,
        ));
    }
    Ok(())
}

fn check_map(map: &ZoneMap) -> Result<(), RuleError> {
    if map.zones.is_empty() || map.zones.len() > MAX_ZONES {
        return Err(refuse(
            "zone_count",
            format!("a battlefield needs 1 to {MAX_ZONES} zones"),
            heading("Zone Combat"),
        ));
    }
    let mut ids = BTreeSet::new();
    let mut squares = BTreeSet::new();
    for zone in &map.zones {
        check_name("zone", &zone.id)?;
        if zone.terrain.chars().count() > MAX_NAME {
            return Err(refuse("bad_name", "a zone's terrain is at most 100 characters", SERVICE_RULES));
        }
        if !ids.insert(zone.id.as_str()) {
            return Err(refuse("duplicate_zone", format!("two zones are called {}", zone.id), SERVICE_RULES));
        }
        if !squares.insert((zone.column, zone.row)) {
            return Err(refuse(
                "zone_square_taken",
                format!("two zones lie at column {} row {}", zone.column, zone.row),
                heading("Zone Combat"),
            ));
        }
    }
    for border in &map.borders {
        if !map.adjacent(&border.a, &border.b) {
            return Err(refuse(
                "border_not_adjacent",
                format!(
                    "cover can only run along the border of adjacent zones, not between {} and {}",
                    border.a, border.b
                ),
                heading("Cover"),
            ));
        }
        if border.name.chars().count() > MAX_NAME {
            return Err(refuse("bad_name", "a border's name is at most 100 characters", SERVICE_RULES));
        }
    }
    let mut covers = BTreeSet::new();
    for area in &map.cover {
        check_name("cover area", &area.id)?;
        if !covers.insert(area.id.as_str()) || map.zone(&area.zone).is_none() {
            return Err(refuse(
                "bad_cover",
                format!("cover area {} needs its own id and a zone of the battlefield", area.id),
                heading("Cover"),
            ));
        }
    }
    Ok(())
}

fn check_sides(sides: &[SideSpec]) -> Result<(), RuleError> {
    if sides.len() < 2 || sides.len() > MAX_SIDES {
        return Err(refuse("sides", format!("an encounter needs 2 to {MAX_SIDES} sides"), heading("Combat")));
    }
    let mut names = BTreeSet::new();
    for side in sides {
        check_name("side", &side.name)?;
        if let Some(controller) = &side.controller {
            check_name("controller", controller)?;
        }
        if !names.insert(side.name.as_str()) {
            return Err(refuse("duplicate_side", format!("two sides are called {}", side.name), SERVICE_RULES));
        }
    }
    Ok(())
}

fn check_figures(request: &Request) -> Result<(), RuleError> {
    let figures = request.figures;
    if figures.is_empty() || figures.len() > MAX_FIGURES {
        return Err(refuse("figure_count", format!("an encounter needs 1 to {MAX_FIGURES} figures"), SERVICE_RULES));
    }
    let mut ids = BTreeSet::new();
    for figure in figures {
        check_name("figure", &figure.id)?;
        if !ids.insert(figure.id.as_str()) {
            return Err(refuse("duplicate_figure", format!("two figures are called {}", figure.id), SERVICE_RULES));
        }
        check_figure(request, figure)?;
    }
    Ok(())
}

fn profile(figure: &FigureSpec, message: String, rule: &str) -> RuleError {
    refuse("bad_profile", format!("{}: {message}", figure.id), heading(rule))
}

fn check_figure(request: &Request, figure: &FigureSpec) -> Result<(), RuleError> {
    if let Some(name) = &figure.name {
        check_name("figure", name)?;
    }
    if let Some(controller) = &figure.controller {
        check_name("controller", controller)?;
    }
    if !request.sides.iter().any(|side| side.name == figure.side) {
        return Err(refuse(
            "unknown_side",
            format!("{} fights for {}, which is not a side", figure.id, figure.side),
            SERVICE_RULES,
        ));
    }
    let start = &figure.start;
    if request.map.zone(&start.zone).is_none() {
        return Err(refuse(
            "unknown_zone",
            format!("{} starts in {}, which is not a zone", figure.id, start.zone),
            SERVICE_RULES,
        ));
    }
    if let Some(label) = &start.group {
        check_name("group", label)?;
    }
    if let Some(cover) = &start.cover {
        let elsewhere = request.map.cover_area(cover).is_none_or_other(&start.zone);
        if elsewhere {
            return Err(profile(figure, format!("cover {cover} is not a cover area of {}", start.zone), "Cover"));
        }
    }
    if figure.physical > 9 || figure.mental > 9 || figure.bonus_physical > 9 || figure.bonus_mental > 9 {
        return Err(profile(figure, "ranks and bonus ranks are 0 to 9".into(), "Ranks."));
    }
    if !(2..=4).contains(&figure.crossover_every) {
        return Err(profile(figure, "crossover comes every 2nd, 3rd or 4th rank loss".into(), "CrossOver Damage."));
    }
    match &figure.action_dice {
        ActionDiceSpec::Roll { dice } if *dice > 6 => {
            return Err(profile(
                figure,
                "at most 6 action dice, not counting rerolls".into(),
                "Initiative, ActionDice(AD) & Actions",
            ));
        }
        ActionDiceSpec::Set { values }
            if values.is_empty() || values.len() > 6 || values.iter().any(|v| !(1..=6).contains(v)) =>
        {
            return Err(profile(
                figure,
                "set values are 1 to 6 dice of 1 to 6".into(),
                "Initiative, ActionDice(AD) & Actions",
            ));
        }
        _ => {}
    }
    let mut weapons = BTreeSet::new();
    for weapon in &figure.weapons {
        check_name("weapon", &weapon.name)?;
        if !weapons.insert(weapon.name.as_str()) {
            return Err(profile(figure, format!("two weapons are called {}", weapon.name), "Attacks"));
        }
        if weapon.dice > MAX_PROFILE_DICE || weapon.cost == 0 || weapon.cost > 36 || weapon.range > 50 {
            return Err(profile(
                figure,
                format!("{}: 0 to 30 dice, a cost of 1 to 36 pips, a range of 0 to 50 zones", weapon.name),
                "Attacks",
            ));
        }
    }
    let defences = &figure.defences;
    let chars = &figure.characteristics;
    let dice = [defences.dodge, defences.block, defences.parry].into_iter().flatten().chain([
        chars.body,
        chars.dex,
        chars.mind,
        chars.will,
        chars.soul,
        chars.spirit,
    ]);
    if dice.chain(figure.skills.iter().map(|skill| skill.dice)).any(|dice| dice > MAX_PROFILE_DICE) {
        return Err(profile(figure, "rolls are at most 30 dice".into(), "Defences."));
    }
    for skill in &figure.skills {
        check_name("skill", &skill.name)?;
    }
    if let Some(shield) = &figure.shield {
        check_name("device", &shield.name)?;
        if shield.block > 10 {
            return Err(profile(figure, "a blocking device's value is 0 to 10".into(), "Block:"));
        }
    }
    if figure.size == 0 || figure.size > 100 || figure.armour > 20 {
        return Err(profile(figure, "size is 1 to 100 and armour 0 to 20".into(), "InClose Combat"));
    }
    if let Some(formation) = &figure.formation {
        if !formation.kind.members().contains(&formation.members) {
            let range = formation.kind.members();
            return Err(profile(
                figure,
                format!("a {:?} holds {} to {} creatures", formation.kind, range.start(), range.end()).to_lowercase(),
                "Mobs, Crowds and Hordes.",
            ));
        }
    }
    if let Some(flight) = &figure.flight {
        if flight.speed == 0 || flight.speed > 20 || flight.turn_rate > 20 || flight.dive > 40 {
            return Err(profile(
                figure,
                "a flyer's speed is 1 to 20, its turn rate 0 to 20, its dive 0 to 40".into(),
                "Flying",
            ));
        }
    } else if start.flying {
        return Err(profile(figure, "only a flyer can start in the air".into(), "Flying"));
    }
    Ok(())
}

/// Whether a cover area is missing or lies in another zone.
trait OtherZone {
    fn is_none_or_other(&self, zone: &str) -> bool;
}

impl OtherZone for Option<&crate::swift_swords::zones::CoverArea> {
    fn is_none_or_other(&self, zone: &str) -> bool {
        match self {
            None => true,
            Some(area) => area.zone != zone,
        }
    }
}

fn check_chariots(request: &Request) -> Result<(), RuleError> {
    let mut ids = BTreeSet::new();
    let mut aboard = BTreeSet::new();
    let rule = heading("Chariots.");
    for chariot in request.chariots {
        check_name("chariot", &chariot.id)?;
        if !ids.insert(chariot.id.as_str()) {
            return Err(refuse("duplicate_chariot", format!("two chariots are called {}", chariot.id), SERVICE_RULES));
        }
        let find = |id: &str| request.figures.iter().find(|figure| figure.id == id);
        let Some(team) = find(&chariot.team) else {
            return Err(refuse("bad_chariot", format!("{}'s team {} is not a figure", chariot.id, chariot.team), rule));
        };
        if chariot.horses != 2 && chariot.horses != 4 {
            return Err(refuse("bad_chariot", format!("{} needs a team of 2 or 4 horses", chariot.id), rule));
        }
        if chariot.crew.is_empty() || chariot.crew.len() > chariot.room() || !chariot.crew.contains(&chariot.driver) {
            return Err(refuse(
                "bad_chariot",
                format!("{} carries its driver and at most {} aboard", chariot.id, chariot.room()),
                rule,
            ));
        }
        for id in chariot.crew.iter().chain(std::iter::once(&chariot.team)) {
            let Some(figure) = find(id) else {
                return Err(refuse("bad_chariot", format!("{} aboard {} is not a figure", id, chariot.id), rule));
            };
            if figure.start.zone != team.start.zone || !aboard.insert(id.as_str()) {
                return Err(refuse(
                    "bad_chariot",
                    format!("{} must start in its chariot's zone and ride one chariot", id),
                    rule,
                ));
            }
        }
    }
    Ok(())
}
