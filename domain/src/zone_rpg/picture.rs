//! The zone map as SVG (`GET /v1/battles/{id}/zones.svg`): zones as circles (dark ones shaded),
//! borders as lines drawn by what stands on them (dashed for cover, thick for a barrier, dotted
//! red when it cannot be crossed, with its length when more than one zone), and in each zone
//! the characters the reader may see with their health and state, the features, hazards and
//! items. Concealed characters are left out for readers on the other side. Every label goes
//! through the shared placer ([`crate::svg::labels`]): a zone's lines stay inside its circle and
//! off every other label; what finds no room is listed under the map.

use std::{f64::consts::PI, fmt::Write};

use super::{
    map::{Light, Protection},
    redact::sees_position,
    state::{character::CharacterState, Phase, ZoneRpgState},
};
use crate::{
    svg::{
        escape,
        labels::{self, fit, fit_in, text_width, text_width_in, Placer, Rect, Weight, FONT_FAMILY},
    },
    viewer::Viewer,
};

/// Width of the drawing.
const WIDTH: f64 = 960.0;
/// Height of the map part.
const MAP_HEIGHT: f64 = 700.0;
/// Room above the map for the caption.
const TOP: f64 = 40.0;
/// Margin around the map.
const MARGIN: f64 = 110.0;
/// A zone's radius.
const RADIUS: f64 = 92.0;
/// Height of one text line.
const LINE: f64 = 14.0;
/// Font size of the lines in a zone.
const FONT: f64 = 12.0;
/// Font size of a zone's name.
const NAME_FONT: f64 = 14.0;
/// From one line in a zone to the next: a label's box and the placer's spacing.
const STEP: f64 = labels::LINE_EMS * FONT + 1.0;
/// Faction colours, in the order the factions are listed.
const COLOURS: [&str; 8] = ["#1f5fbf", "#c0392b", "#2e8b3d", "#8e44ad", "#d35400", "#16a085", "#b7950b", "#6d4c41"];

fn num(value: f64) -> String {
    format!("{:.1}", value)
}

/// Where each zone is drawn: where the GM placed it, or evenly on a circle.
fn centres(state: &ZoneRpgState) -> Vec<(f64, f64)> {
    let count = state.map.zones.len().max(1) as f64;
    state
        .map
        .zones
        .iter()
        .enumerate()
        .map(|(index, zone)| match zone.at {
            Some(at) => (
                MARGIN + f64::from(at.x) / 100.0 * (WIDTH - 2.0 * MARGIN),
                TOP + MARGIN + f64::from(at.y) / 100.0 * (MAP_HEIGHT - 2.0 * MARGIN),
            ),
            None if state.map.zones.len() == 1 => (WIDTH / 2.0, TOP + MAP_HEIGHT / 2.0),
            None => {
                let angle = -PI / 2.0 + 2.0 * PI * index as f64 / count;
                let radius = (MAP_HEIGHT / 2.0 - MARGIN).max(RADIUS);
                (WIDTH / 2.0 + radius * 1.4 * angle.cos(), TOP + MAP_HEIGHT / 2.0 + radius * angle.sin())
            }
        })
        .collect()
}

fn colour(state: &ZoneRpgState, faction: &str) -> &'static str {
    let index = state.factions.iter().position(|f| f.name == faction).unwrap_or(0);
    COLOURS[index % COLOURS.len()]
}

/// A faction's mark, `A`, `B`…, in the order the factions are listed: factions told apart by
/// more than colour (the same letters as the sheets' groups).
fn mark(state: &ZoneRpgState, faction: &str) -> String {
    state.factions.iter().position(|f| f.name == faction).map_or("?".to_string(), crate::ruleset::sheet::group_mark)
}

fn label(character: &CharacterState) -> String {
    let mut marks = Vec::new();
    if character.dead {
        marks.push("dead");
    } else if character.incapacitated {
        marks.push("incapacitated");
    }
    if character.surrendered {
        marks.push("surrendered");
    }
    if character.concealed {
        marks.push("concealed");
    }
    if character.grabbed_by.is_some() {
        marks.push("grabbed");
    }
    if character.riding.is_some() {
        marks.push("mounted");
    }
    let marks = if marks.is_empty() { String::new() } else { format!(" ({})", marks.join(", ")) };
    format!("{} {}/{}{}", character.id(), character.health, character.max_health, marks)
}

/// Render the fight as `viewer` may see it, captioned with `title`.
pub fn zones_svg(state: &ZoneRpgState, viewer: &Viewer, title: &str) -> String {
    let centres = centres(state);
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<text class="caption" x="12" y="18" font-size="13" font-weight="bold">{t}</text><text class="round" x="12" y="33" font-size="11">{r}</text>"#,
        t = escape(title),
        r = escape(&caption(state)),
    );
    let mut placer = Placer::new(Rect::new(0.0, TOP, WIDTH, MAP_HEIGHT));
    let mut labels = String::new();
    let mut unplaced = Vec::new();
    body.push_str(r#"<g class="borders">"#);
    let mut lengths = Vec::new();
    for border in &state.map.borders {
        let (Some(a), Some(b)) = (index(state, &border.a), index(state, &border.b)) else { continue };
        let ((x1, y1), (x2, y2)) = (centres[a], centres[b]);
        let style = match (border.passable, border.protection) {
            (false, _) => r##"stroke="#c0392b" stroke-width="2" stroke-dasharray="2 4""##,
            (true, Protection::None) => r##"stroke="#7f8c8d" stroke-width="2""##,
            (true, Protection::Cover) => r##"stroke="#8d6e63" stroke-width="3" stroke-dasharray="8 4""##,
            (true, Protection::Barrier) => r##"stroke="#2c3e50" stroke-width="6""##,
        };
        let _ = write!(
            body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style}><title>{} – {}: {:?}{}</title></line>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            escape(&border.a),
            escape(&border.b),
            border.protection,
            if border.passable { "" } else { ", cannot be crossed" },
        );
        if border.length > 1 {
            lengths.push((border, Rect::new((x1 + x2) / 2.0, (y1 + y2) / 2.0, 0.0, 0.0)));
        }
    }
    body.push_str("</g><g class=\"zones\">");
    for (zone, (x, y)) in state.map.zones.iter().zip(&centres) {
        let (fill, ink) = match zone.light {
            Light::Lit => ("#f7f3e3", "#222"),
            Light::Dark => ("#34344a", "#f0f0f0"),
        };
        let _ = write!(
            body,
            r##"<g class="zone"><circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#555" stroke-width="1.5"/></g>"##,
            cx = num(*x),
            cy = num(*y),
            r = num(RADIUS),
        );
        // The zone's name on top, then its lines, each centred, as many as the circle holds.
        let name = fit_in(&zone.name, NAME_FONT, 2.0 * RADIUS - 40.0, Weight::Bold);
        let width = text_width_in(&name, NAME_FONT, Weight::Bold);
        let top = y - RADIUS + 16.0 - NAME_FONT;
        let attributes = format!(r#" class="zone-name" font-weight="bold" fill="{ink}""#);
        match placer.place_at(Rect::new(x - width / 2.0, top, width, labels::LINE_EMS * NAME_FONT)) {
            Some(rect) => labels::text(&mut labels, rect, NAME_FONT, &name, &attributes),
            None => unplaced.push(zone.name.clone()),
        }
        // Each line with the character it names, if any (`data-figure`, for the viewer to mark).
        let mut lines: Vec<(String, &str, Option<&str>)> = Vec::new();
        for feature in &zone.features {
            lines.push((format!("{:?}: {}", feature.protection, feature.name).to_lowercase(), ink, None));
        }
        for hazard in &zone.hazards {
            lines.push((format!("hazard: {}", hazard.name), "#c0392b", None));
        }
        for item in state.items.iter().filter(|i| i.zone == zone.name) {
            let hidden =
                item.concealed && state.character(&item.left_by).is_some_and(|c| !sees_position(state, c, viewer));
            if !hidden {
                lines.push((format!("lying: {}", item.item.name()), ink, None));
            }
        }
        for character in state.characters.iter().filter(|c| c.zone == zone.name && c.left.is_none()) {
            if sees_position(state, character, viewer) {
                let text = format!("{} {}", mark(state, character.faction()), label(character));
                lines.push((text, colour(state, character.faction()), Some(character.id())));
            }
        }
        let mut top = y - RADIUS + 36.0 - FONT;
        for (text, fill, figure) in &lines {
            // The chord of the circle at this line's widest point bounds its width.
            let bottom = top + labels::LINE_EMS * FONT;
            let off = (top - y).abs().max((bottom - y).abs());
            let chord = 2.0 * (RADIUS * RADIUS - off * off).max(0.0).sqrt() - 8.0;
            let fitted = fit(text, FONT, chord.max(0.0));
            let width = text_width(&fitted, FONT);
            let rect = Rect::new(x - width / 2.0, top, width, labels::LINE_EMS * FONT);
            let placed = if bottom <= y + RADIUS - 4.0 && chord > 24.0 { placer.place_at(rect) } else { None };
            let whole = if fitted == *text { String::new() } else { format!("<title>{}</title>", escape(text)) };
            match placed {
                Some(rect) => {
                    labels::text_with(
                        &mut labels,
                        rect,
                        FONT,
                        &fitted,
                        &whole,
                        &figure.map_or_else(
                            || format!(r#" class="zone-line" fill="{fill}""#),
                            |id| format!(r#" class="zone-line" data-figure="{}" fill="{fill}""#, escape(id)),
                        ),
                    );
                }
                None => unplaced.push(format!("{}: {text}", zone.name)),
            }
            top += STEP;
        }
    }
    body.push_str("</g>");
    for (border, anchor) in lengths {
        let text = border.length.to_string();
        match placer.place_centred(anchor, text_width(&text, FONT), labels::LINE_EMS * FONT, RADIUS) {
            Some(rect) => labels::text(&mut labels, rect, FONT, &text, r#" class="border-length""#),
            None => unplaced.push(format!("{} – {}: length {}", border.a, border.b, border.length)),
        }
    }
    let _ = write!(body, r#"<g class="labels">{labels}</g>"#);
    let bottom = legend_svg(&mut body, state, viewer, &unplaced);
    let height = bottom + 10.0;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}" font-size="12"><title>{t}</title>"#,
        w = num(WIDTH),
        h = num(height),
        t = escape(title),
    );
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

fn index(state: &ZoneRpgState, zone: &str) -> Option<usize> {
    state.map.zones.iter().position(|z| z.name == zone)
}

fn caption(state: &ZoneRpgState) -> String {
    match state.phase {
        Phase::Setup => "not set up".to_string(),
        Phase::Ready => "ready: the first round has not started".to_string(),
        Phase::Round if state.bonus_round => {
            format!("bonus round: {}'s go", state.current_faction.as_deref().unwrap_or("nobody"))
        }
        Phase::Round => format!("round {}: {}'s go", state.round, state.current_faction.as_deref().unwrap_or("nobody")),
        Phase::BetweenRounds => format!("round {} over", state.round),
        Phase::Ended => {
            format!("over: {}", state.winner.as_deref().map_or("no winner".to_string(), |w| format!("{w} won")))
        }
    }
}

/// The factions, who left, and the labels that found no room on the map; returns the bottom.
fn legend_svg(svg: &mut String, state: &ZoneRpgState, viewer: &Viewer, unplaced: &[String]) -> f64 {
    let mut y = TOP + MAP_HEIGHT + LINE;
    for faction in &state.factions {
        let _ = write!(
            svg,
            r#"<text class="legend" x="12" y="{}" fill="{}" font-weight="bold">{} {}</text>"#,
            num(y),
            colour(state, &faction.name),
            mark(state, &faction.name),
            escape(&faction.name),
        );
        y += LINE * 1.5;
    }
    let gone: Vec<String> = state
        .characters
        .iter()
        .filter(|c| c.left.is_some() && sees_position(state, c, viewer))
        .map(|c| c.id().to_string())
        .collect();
    if !gone.is_empty() {
        let _ = write!(
            svg,
            r#"<text class="legend" x="12" y="{}">left the fight: {}</text>"#,
            num(y),
            escape(&gone.join(", "))
        );
        y += LINE * 1.5;
    }
    if !unplaced.is_empty() {
        let _ = write!(
            svg,
            r#"<text class="legend" x="12" y="{}" font-weight="bold">No room on the map for:</text>"#,
            num(y)
        );
        for text in unplaced {
            y += LINE * 1.5;
            let _ = write!(svg, r#"<text class="unplaced-label" x="22" y="{}">{}</text>"#, num(y), escape(text));
        }
    }
    y
}
