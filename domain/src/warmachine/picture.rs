//! A warmachine table as SVG (`GET /v1/battles/{id}/table.svg`): terrain by kind, every model's
//! base in its player's colour labelled with its id and its damage boxes left, melee range
//! (dashed) and control range (dotted) drawn as the circles a base edge must reach, and the
//! model's state on hover (an SVG `<title>`). Labels are placed clear of every base and of each
//! other ([`crate::svg::labels`]); one that finds no room near its model is listed under the
//! legend instead.
//!
//! The game measures from the table's lower-left corner with y up; SVG has y down, so every y is
//! flipped. Ranges are drawn from the base's centre at base radius + range because the game
//! measures from base edges (seed 000 "Measuring Distances"): a model is within range exactly
//! when its base touches or crosses the drawn circle.

use std::fmt::Write;

use crate::warmachine::{
    battle::{
        state::{Condition, ModelState, Phase},
        WarmachineState,
    },
    model::{DamageCapacity, ModelType, MovementRestriction, System},
    table::{Shape, TerrainFeature, TerrainKind},
};

use crate::svg::{
    escape,
    labels::{self, fit, text_width, Placer, Rect, FONT_FAMILY},
};

/// Font size of model labels.
const MODEL_FONT: f64 = 8.0;
/// Font size of terrain names.
const TERRAIN_FONT: f64 = 9.0;
/// How far from its base a model's label may go, in pixels (two inches).
const REACH: f64 = 2.0 * PX;

/// Pixels per inch.
const PX: f64 = 16.0;
/// Room left of the table for the inch marks.
const LEFT: f64 = 30.0;
/// Room above the table for the caption.
const TOP: f64 = 34.0;
/// Room right of the table.
const RIGHT: f64 = 12.0;
/// Room below the table for the inch marks.
const BELOW: f64 = 20.0;
/// Height of one legend row.
const ROW: f64 = 16.0;
/// The narrowest drawing, so the legend fits beside a small table.
const MIN_WIDTH: f64 = 480.0;
/// Inch marks every this many inches (the usual 6″ of a tape measure's coloured bands).
const MARK_EVERY: f64 = 6.0;

/// Player colours, in turn order (repeated past eight players).
const PLAYER_COLOURS: [&str; 8] =
    ["#c0392b", "#1f5fbf", "#2e8b3d", "#8e44ad", "#d35400", "#16a085", "#b7950b", "#6d4c41"];
/// A model whose player is not in the battle's list (never for a battle the decider created).
const NO_PLAYER: &str = "#7f8c8d";

/// Render `state`'s table, captioned with `title` and the turn.
pub fn table_svg(state: &WarmachineState, title: &str) -> String {
    let frame = Frame::of(state);
    let width = (LEFT + frame.width + RIGHT).max(MIN_WIDTH);
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<text class="caption" x="{}" y="14" font-size="12" font-weight="bold">{}</text><text class="turn" x="{}" y="28" font-size="11">{}</text>"#,
        num(LEFT),
        escape(title),
        num(LEFT),
        escape(&turn_caption(state))
    );
    table(&mut body, &frame);
    let mut placer = Placer::new(Rect::new(LEFT, TOP, frame.width, frame.height));
    body.push_str(r#"<g class="terrain">"#);
    let mut terrain_labels = Vec::new();
    for feature in &state.table.terrain {
        terrain_labels.push(terrain(&mut body, &frame, feature));
    }
    body.push_str("</g>");
    // Ranges under every base, so no circle hides a model; clipped to the table, where a 14″
    // control range near an edge would otherwise run over the legend.
    body.push_str(r#"<g class="ranges" clip-path="url(#table-clip)">"#);
    for model in state.models.values().filter(|m| m.in_play()) {
        ranges(&mut body, &frame, state, model);
    }
    body.push_str(r#"</g><g class="models">"#);
    // Destroyed models first and faint, so a model standing where one fell is drawn on top.
    for model in state.models.values().filter(|m| !m.in_play()) {
        model_marker(&mut body, &frame, state, model);
    }
    for model in state.models.values().filter(|m| m.in_play()) {
        model_marker(&mut body, &frame, state, model);
        placer.block(base_box(&frame, model));
    }
    body.push_str(r#"</g><g class="labels">"#);
    // Models in play first, then the fallen, then terrain names: what matters most gets the
    // nearest room.
    let mut unplaced = Vec::new();
    let in_play = state.models.values().filter(|m| m.in_play());
    let fallen = state.models.values().filter(|m| !m.in_play());
    for model in in_play.chain(fallen) {
        if let Some(text) = model_label(&mut body, &mut placer, &frame, model) {
            unplaced.push(text);
        }
    }
    for (anchor, label, colour) in terrain_labels {
        let text = fit(&label, TERRAIN_FONT, frame.width);
        let attributes = format!(r#" class="terrain-label" fill="{colour}""#);
        match placer.place_centred(anchor, text_width(&text, TERRAIN_FONT), labels::LINE_EMS * TERRAIN_FONT, REACH) {
            Some(rect) => labels::text(&mut body, rect, TERRAIN_FONT, &text, &attributes),
            None => unplaced.push(label),
        }
    }
    body.push_str("</g>");
    let legend_rows = state.players.len() + 2 + usize::from(!unplaced.is_empty()) + unplaced.len();
    let height = TOP + frame.height + BELOW + ROW * count(legend_rows) + 8.0;
    legend(&mut body, &frame, state, &unplaced);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}" font-size="10"><title>{title}</title>"#,
        w = num(width),
        h = num(height),
        title = escape(title)
    );
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

/// The square around a model's base, which labels keep off.
fn base_box(frame: &Frame, model: &ModelState) -> Rect {
    let circle = model.circle();
    let (cx, cy, r) = (frame.x(circle.centre.x), frame.y(circle.centre.y), circle.radius * PX);
    Rect::new(cx - r - 1.0, cy - r - 1.0, 2.0 * r + 2.0, 2.0 * r + 2.0)
}

/// Damage boxes left and those it has, for models with more than one.
fn damage_boxes(model: &ModelState) -> Option<(u32, u32)> {
    let total = match (&model.grid, &model.spec.profile.damage) {
        (Some(grid), _) => u32::try_from(grid.total_boxes()).unwrap_or(u32::MAX),
        (None, DamageCapacity::Boxes { boxes }) => u32::from(*boxes),
        (None, DamageCapacity::Grid { grid }) => u32::try_from(grid.total_boxes()).unwrap_or(u32::MAX),
    };
    (total > 1).then(|| (model.boxes_left(), total))
}

/// Place a model's label (its id, then its damage boxes left); the legend's text when there
/// is no room for it near the model.
fn model_label(svg: &mut String, placer: &mut Placer, frame: &Frame, model: &ModelState) -> Option<String> {
    let id = fit(model.id(), MODEL_FONT, frame.width.min(160.0));
    let boxes = damage_boxes(model);
    let damage = boxes.map(|(left, total)| format!("{left}/{total}"));
    let whole = match &damage {
        Some(damage) => format!("{id} {damage}"),
        None => id.clone(),
    };
    let anchor = base_box(frame, model);
    let Some(rect) = placer.place(anchor, text_width(&whole, MODEL_FONT), labels::LINE_EMS * MODEL_FONT, REACH) else {
        return Some(match &damage {
            Some(damage) => format!("{} ({damage} boxes)", model.id()),
            None => model.id().to_string(),
        });
    };
    let inner = match (&damage, boxes) {
        (Some(damage), Some((left, total))) => {
            let colour = if left < total { "#b42318" } else { "#333" };
            format!(r#"<tspan class="damage" fill="{colour}"> {}</tspan>"#, escape(damage))
        }
        _ => String::new(),
    };
    let faint = if model.destroyed { r#" opacity="0.5""# } else { "" };
    let attributes = format!(
        r##" class="label" data-model="{}" fill="#000" stroke="#fff" stroke-width="2" paint-order="stroke"{faint}"##,
        escape(model.id())
    );
    labels::text_with(svg, rect, MODEL_FONT, &id, &inner, &attributes);
    None
}

/// Where the table sits in the drawing.
struct Frame {
    /// Table width in inches.
    inches_wide: f64,
    /// Table depth in inches.
    inches_deep: f64,
    /// Table width in pixels.
    width: f64,
    /// Table depth in pixels.
    height: f64,
}

impl Frame {
    fn of(state: &WarmachineState) -> Self {
        let inches = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        let (wide, deep) = (inches(state.table.width), inches(state.table.depth));
        Self { inches_wide: wide, inches_deep: deep, width: wide * PX, height: deep * PX }
    }

    /// SVG x of a table x.
    fn x(&self, x: f64) -> f64 {
        LEFT + x * PX
    }

    /// SVG y of a table y (flipped: the table's y grows upward).
    fn y(&self, y: f64) -> f64 {
        TOP + (self.inches_deep - y) * PX
    }
}

/// A number as SVG wants it: two decimals at most, 0 for anything not finite (the decider
/// refuses non-finite positions, but a drawing must stay well-formed whatever it is given).
fn num(value: f64) -> String {
    if !value.is_finite() {
        return "0".into();
    }
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

fn count(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// Inches as a label: `2″`, `1.5″`.
fn inches(value: f64) -> String {
    format!("{}″", num(value))
}

fn player_colour(state: &WarmachineState, player: &str) -> &'static str {
    state
        .players
        .iter()
        .position(|p| p.name == player)
        .and_then(|index| PLAYER_COLOURS.get(index % PLAYER_COLOURS.len()))
        .copied()
        .unwrap_or(NO_PLAYER)
}

fn phase_text(phase: Phase) -> &'static str {
    match phase {
        Phase::Empty => "not created",
        Phase::BetweenTurns => "between turns",
        Phase::Activation => "activation phase",
        Phase::Ended => "ended",
    }
}

fn turn_caption(state: &WarmachineState) -> String {
    let mut caption = match (&state.current, state.turn) {
        (Some(player), turn) if turn > 0 => format!("turn {turn}, {player}'s turn: {}", phase_text(state.phase)),
        _ => format!("before the first turn: {}", phase_text(state.phase)),
    };
    if let Some(activation) = &state.activation {
        let _ = write!(caption, "; {} activating", activation.id);
    }
    if state.ended() {
        match &state.winner {
            Some(winner) => {
                let _ = write!(caption, "; {winner} won");
            }
            None => caption.push_str("; no winner"),
        }
        if let Some(reason) = &state.ended_reason {
            let _ = write!(caption, " ({reason})");
        }
    }
    caption
}

fn table(svg: &mut String, frame: &Frame) {
    let (x, y, w, h) = (num(LEFT), num(TOP), num(frame.width), num(frame.height));
    let _ = write!(
        svg,
        r##"<defs><clipPath id="table-clip"><rect x="{x}" y="{y}" width="{w}" height="{h}"/></clipPath></defs><rect class="table" x="{x}" y="{y}" width="{w}" height="{h}" fill="#e3e8cf" stroke="#333"/>"##
    );
    // Inch marks every 6″, from the lower-left corner as the game measures. Capped so a huge
    // table cannot make a huge drawing.
    let step = MARK_EVERY * (frame.inches_wide.max(frame.inches_deep) / (MARK_EVERY * 40.0)).ceil().max(1.0);
    svg.push_str(r##"<g class="marks" stroke="#0000001f" fill="#555">"##);
    let mut at = step;
    while at < frame.inches_wide {
        let x = num(frame.x(at));
        let _ = write!(
            svg,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/><text x="{x}" y="{}" text-anchor="middle" stroke="none">{}</text>"#,
            num(TOP),
            num(TOP + frame.height),
            num(TOP + frame.height + 13.0),
            inches(at)
        );
        at += step;
    }
    let mut at = step;
    while at < frame.inches_deep {
        let y = num(frame.y(at));
        let _ = write!(
            svg,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}"/><text x="{}" y="{y}" text-anchor="end" dominant-baseline="middle" stroke="none">{}</text>"#,
            num(LEFT),
            num(LEFT + frame.width),
            num(LEFT - 3.0),
            inches(at)
        );
        at += step;
    }
    svg.push_str("</g>");
}

/// Fill, stroke and dash of a terrain kind.
fn terrain_style(kind: TerrainKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        TerrainKind::Obstacle => ("#a0826d", "#5d4037", ""),
        TerrainKind::Obstruction => ("#4d4d4d", "#1a1a1a", ""),
        TerrainKind::Hazard => ("#e67e2266", "#d35400", r#" stroke-dasharray="4,3""#),
        TerrainKind::ElevatedSurface => ("#c8b68a", "#7a6a45", ""),
    }
}

fn terrain_kind_text(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Obstacle => "obstacle",
        TerrainKind::Obstruction => "obstruction",
        TerrainKind::Hazard => "hazard",
        TerrainKind::ElevatedSurface => "elevated surface",
    }
}

fn terrain_class(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Obstacle => "obstacle",
        TerrainKind::Obstruction => "obstruction",
        TerrainKind::Hazard => "hazard",
        TerrainKind::ElevatedSurface => "elevated",
    }
}

/// Draw a terrain feature; its label (placed later with the others): the spot it names, the
/// text and its colour.
fn terrain(svg: &mut String, frame: &Frame, feature: &TerrainFeature) -> (Rect, String, &'static str) {
    let (fill, stroke, dash) = terrain_style(feature.kind);
    let kind = terrain_kind_text(feature.kind);
    let height = if feature.height > 0.0 { format!(", {} high", inches(feature.height)) } else { String::new() };
    let hover = format!("{}: {kind}{height}", feature.name);
    let (cx, cy) = match &feature.shape {
        Shape::Circle(circle) => {
            let (cx, cy) = (frame.x(circle.centre.x), frame.y(circle.centre.y));
            let _ = write!(
                svg,
                r#"<circle class="terrain {}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}"{dash}><title>{}</title></circle>"#,
                terrain_class(feature.kind),
                num(cx),
                num(cy),
                num(circle.radius * PX),
                escape(&hover)
            );
            (cx, cy)
        }
        Shape::Rect(rect) => {
            let _ = write!(
                svg,
                r#"<rect class="terrain {}" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}"{dash}><title>{}</title></rect>"#,
                terrain_class(feature.kind),
                num(frame.x(rect.min.x)),
                num(frame.y(rect.max.y)),
                num((rect.max.x - rect.min.x) * PX),
                num((rect.max.y - rect.min.y) * PX),
                escape(&hover)
            );
            (frame.x((rect.min.x + rect.max.x) / 2.0), frame.y((rect.min.y + rect.max.y) / 2.0))
        }
    };
    // Elevated surfaces carry their height in the label: it decides falls (seed 000 "Falling").
    let label = match feature.kind {
        TerrainKind::ElevatedSurface => format!("{} ({})", feature.name, inches(feature.height)),
        _ => feature.name.clone(),
    };
    let colour = if feature.kind == TerrainKind::Obstruction { "#fff" } else { "#222" };
    (Rect::new(cx - 1.0, cy - 1.0, 2.0, 2.0), label, colour)
}

/// Melee range (dashed) and, for warcasters and warlocks, control range (dotted).
fn ranges(svg: &mut String, frame: &Frame, state: &WarmachineState, model: &ModelState) {
    let colour = player_colour(state, &model.spec.player);
    let circle = model.circle();
    let (cx, cy) = (num(frame.x(circle.centre.x)), num(frame.y(circle.centre.y)));
    let id = escape(model.id());
    if let Some(range) = model.melee_range() {
        let _ = write!(
            svg,
            r#"<circle class="melee-range" data-model="{id}" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{colour}" stroke-opacity="0.7" stroke-dasharray="5,3"><title>{id}: melee range {}</title></circle>"#,
            num((circle.radius + range) * PX),
            inches(range)
        );
    }
    let profile = &model.spec.profile;
    if let (true, Some(ctrl)) = (profile.common_rules().controls_battlegroup, profile.stats.ctrl) {
        let _ = write!(
            svg,
            r#"<circle class="control-range" data-model="{id}" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{colour}" stroke-opacity="0.6" stroke-dasharray="1,3"><title>{id}: control range {}</title></circle>"#,
            num((circle.radius + f64::from(ctrl)) * PX),
            inches(f64::from(ctrl))
        );
    }
}

fn type_text(model_type: ModelType) -> &'static str {
    match model_type {
        ModelType::Warcaster => "warcaster",
        ModelType::Warlock => "warlock",
        ModelType::Warjack => "warjack",
        ModelType::Warbeast => "warbeast",
        ModelType::Trooper => "trooper",
        ModelType::Solo => "solo",
    }
}

fn system_text(system: System) -> &'static str {
    match system {
        System::LeftArm => "left arm",
        System::RightArm => "right arm",
        System::Head => "head",
        System::Superstructure => "superstructure",
        System::Movement => "movement",
        System::Cortex => "cortex",
    }
}

fn condition_text(condition: &Condition) -> String {
    match condition {
        Condition::KnockedDown => "knocked down".into(),
        Condition::Frenzied => "frenzied".into(),
        Condition::CannotRun => "cannot run".into(),
        Condition::CannotCharge => "cannot charge".into(),
        Condition::CannotAdvance => "cannot advance".into(),
        Condition::MustCharge => "must charge".into(),
        Condition::MustRun => "must run".into(),
        Condition::Restricted { restriction, relative_to } => {
            let how = match restriction {
                MovementRestriction::Toward => "toward",
                MovementRestriction::DirectlyToward => "directly toward",
                MovementRestriction::Away => "away from",
                MovementRestriction::DirectlyAway => "directly away from",
            };
            format!("must move {how} {relative_to}")
        }
        Condition::ContinuousEffect { name, pow } => format!("{name} (continuous, POW {pow})"),
        Condition::WeaponModifier { weapon, rng, pow } => {
            let which = weapon.as_deref().unwrap_or("all weapons");
            format!("{which}: RNG {rng:+}″, POW {pow:+}")
        }
    }
}

/// The hover text: what a player asks of a model across the table.
fn hover(state: &WarmachineState, model: &ModelState) -> String {
    let spec = &model.spec;
    let mut lines =
        vec![format!("{} ({}): {} of {}", spec.id, spec.profile.name, type_text(spec.profile.model_type), spec.player)];
    if let Some(unit) = &spec.unit {
        lines.push(format!("unit {unit}"));
    }
    let damage = match &model.grid {
        Some(grid) => format!("{} of {} grid boxes left", model.boxes_left(), grid.total_boxes()),
        None => format!("{} damage boxes left", model.boxes_left()),
    };
    lines.push(damage);
    let crippled = model.crippled();
    if !crippled.is_empty() {
        lines.push(format!("crippled: {}", crippled.iter().map(|s| system_text(*s)).collect::<Vec<_>>().join(", ")));
    }
    let rules = spec.profile.common_rules();
    if rules.focus_manipulation || spec.profile.model_type == ModelType::Warjack || model.focus > 0 {
        lines.push(format!("focus {}", model.focus));
    }
    if rules.fury_manipulation || rules.forceable || model.fury > 0 {
        lines.push(format!("fury {}", model.fury));
    }
    if !model.conditions.is_empty() {
        lines.push(model.conditions.iter().map(condition_text).collect::<Vec<_>>().join(", "));
    }
    if model.position.elevation > 0.0 {
        lines.push(format!("elevation {}", inches(model.position.elevation)));
    }
    if model.destroyed {
        lines.push("destroyed".into());
    } else {
        let engaged_by = state.engaging(model);
        if !engaged_by.is_empty() {
            lines.push(format!("engaged by {}", engaged_by.join(", ")));
        }
    }
    if model.inert {
        lines.push("inert".into());
    }
    lines.join("\n")
}

fn model_marker(svg: &mut String, frame: &Frame, state: &WarmachineState, model: &ModelState) {
    let colour = player_colour(state, &model.spec.player);
    let circle = model.circle();
    let (cx, cy, r) = (frame.x(circle.centre.x), frame.y(circle.centre.y), circle.radius * PX);
    let knocked_down = model.has(&Condition::KnockedDown);
    let activating = state.activation.as_ref().is_some_and(|a| a.models.contains_key(model.id()));
    let mut class = String::from("model");
    for (flag, name) in [
        (model.destroyed, " destroyed"),
        (knocked_down, " knocked-down"),
        (model.inert, " inert"),
        (activating, " activating"),
    ] {
        if flag {
            class.push_str(name);
        }
    }
    let faint = if model.destroyed { r#" opacity="0.3""# } else { "" };
    let _ = write!(
        svg,
        r#"<g class="{class}" data-model="{}"{faint}><title>{}</title>"#,
        escape(model.id()),
        escape(&hover(state, model))
    );
    if activating {
        let _ = write!(
            svg,
            r##"<circle class="activation-ring" cx="{}" cy="{}" r="{}" fill="none" stroke="#f1c40f" stroke-width="3"/>"##,
            num(cx),
            num(cy),
            num(r + 3.0)
        );
    }
    let (fill_opacity, dash) = match (model.inert, knocked_down) {
        (true, _) => ("0.45", ""),
        (false, true) => ("0.8", r#" stroke-dasharray="3,2""#),
        (false, false) => ("0.9", ""),
    };
    let _ = write!(
        svg,
        r##"<circle class="base" cx="{}" cy="{}" r="{}" fill="{colour}" fill-opacity="{fill_opacity}" stroke="#111" stroke-width="1.5"{dash}/>"##,
        num(cx),
        num(cy),
        num(r)
    );
    // Facing: degrees counter-clockwise from the table's x axis; y flips on screen.
    let facing = model.position.facing.to_radians();
    if facing.is_finite() {
        let _ = write!(
            svg,
            r##"<line class="facing" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="2"/>"##,
            num(cx),
            num(cy),
            num(cx + facing.cos() * r),
            num(cy - facing.sin() * r)
        );
    }
    if knocked_down {
        let _ = write!(
            svg,
            r##"<text class="kd" x="{}" y="{}" text-anchor="middle" dominant-baseline="middle" font-size="8" font-weight="bold" fill="#fff" stroke="#000" stroke-width="0.6">KD</text>"##,
            num(cx),
            num(cy)
        );
    }
    if model.destroyed {
        let d = r * std::f64::consts::FRAC_1_SQRT_2;
        let _ = write!(
            svg,
            r##"<path class="destroyed-mark" d="M{} {}L{} {}M{} {}L{} {}" stroke="#000" stroke-width="2"/>"##,
            num(cx - d),
            num(cy - d),
            num(cx + d),
            num(cy + d),
            num(cx - d),
            num(cy + d),
            num(cx + d),
            num(cy - d)
        );
    }
    svg.push_str("</g>");
}

fn legend(svg: &mut String, frame: &Frame, state: &WarmachineState, unplaced: &[String]) {
    let top = TOP + frame.height + BELOW;
    svg.push_str(r#"<g class="legend">"#);
    for (index, player) in state.players.iter().enumerate() {
        let y = top + ROW * count(index) + ROW / 2.0;
        let in_play = state.models.values().filter(|m| m.spec.player == player.name && m.in_play()).count();
        let _ = write!(
            svg,
            r##"<circle cx="{}" cy="{}" r="5" fill="{}" stroke="#111"/><text x="{}" y="{}" dominant-baseline="middle">{} ({}): {in_play} models in play</text>"##,
            num(LEFT + 5.0),
            num(y),
            player_colour(state, &player.name),
            num(LEFT + 15.0),
            num(y),
            escape(&player.name),
            escape(&player.controller)
        );
    }
    let y = top + ROW * count(state.players.len()) + ROW / 2.0;
    for (x, dash, what) in [(LEFT, "5,3", "melee range"), (LEFT + 95.0, "1,3", "control range")] {
        let _ = write!(
            svg,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#333" stroke-dasharray="{dash}"/><text x="{}" y="{y}" dominant-baseline="middle">{what}</text>"##,
            num(x),
            num(x + 20.0),
            num(x + 25.0),
            y = num(y)
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" dominant-baseline="middle">KD: knocked down; faint with a cross: destroyed</text>"#,
        num(LEFT + 195.0),
        num(y)
    );
    let y = y + ROW;
    let mut x = LEFT;
    for kind in [TerrainKind::Obstacle, TerrainKind::Obstruction, TerrainKind::Hazard, TerrainKind::ElevatedSurface] {
        let (fill, stroke, dash) = terrain_style(kind);
        let _ = write!(
            svg,
            r#"<rect x="{}" y="{}" width="14" height="10" fill="{fill}" stroke="{stroke}"{dash}/><text x="{}" y="{}" dominant-baseline="middle">{}</text>"#,
            num(x),
            num(y - 5.0),
            num(x + 18.0),
            num(y),
            terrain_kind_text(kind)
        );
        x += 100.0;
    }
    if !unplaced.is_empty() {
        let mut y = y + ROW;
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" dominant-baseline="middle" font-weight="bold">No room on the table for these labels:</text>"#,
            num(LEFT),
            num(y)
        );
        for text in unplaced {
            y += ROW;
            let _ = write!(
                svg,
                r#"<text class="unplaced-label" x="{}" y="{}" dominant-baseline="middle">{}</text>"#,
                num(LEFT + 10.0),
                num(y),
                escape(text)
            );
        }
    }
    svg.push_str("</g>");
}
