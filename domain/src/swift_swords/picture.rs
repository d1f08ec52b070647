//! The zones as SVG (`GET /v1/battles/{id}/zones.svg`): one tile per zone with its terrain and
//! cover, border cover drawn along the shared edge, and every figure listed in its zone by melee
//! group, coloured by side, with its dice, ranks left and status; the figure's full state on
//! hover (an SVG `<title>`).

use std::fmt::Write;

use super::{
    battle::state::{Figure, SwiftSwordsState},
    view::{groups_in, status, Status},
    zones::{CoverLevel, ZoneSpec},
};
use crate::svg::escape;

/// Pixels per tile side.
const TILE: f64 = 220.0;
/// Room around the grid.
const MARGIN: f64 = 16.0;
/// Room above the grid for the caption.
const TOP: f64 = 44.0;
/// Height of one text line.
const LINE: f64 = 13.0;

/// Side colours, in order (repeated past eight sides).
const SIDE_COLOURS: [&str; 8] =
    ["#c0392b", "#1f5fbf", "#2e8b3d", "#8e44ad", "#d35400", "#16a085", "#b7950b", "#6d4c41"];

fn colour(state: &SwiftSwordsState, side: &str) -> &'static str {
    state
        .sides
        .iter()
        .position(|known| known.name == side)
        .map_or("#7f8c8d", |index| SIDE_COLOURS[index % SIDE_COLOURS.len()])
}

fn cover_stroke(cover: CoverLevel) -> (&'static str, f64) {
    match cover {
        CoverLevel::HardLight => ("#5d4037", 4.0),
        CoverLevel::HardHeavy => ("#3e2723", 7.0),
        CoverLevel::SoftLight => ("#81c784", 3.0),
        CoverLevel::SoftMedium => ("#43a047", 5.0),
        CoverLevel::SoftHeavy => ("#1b5e20", 7.0),
    }
}

fn origin(zone: &ZoneSpec) -> (f64, f64) {
    (MARGIN + f64::from(zone.column) * TILE, TOP + f64::from(zone.row) * TILE)
}

fn figure_line(state: &SwiftSwordsState, figure: &Figure) -> String {
    let status = match status(state, figure) {
        Status::Alone => "alone",
        Status::InContact => "in contact",
        Status::InClose => "in close",
    };
    let mut marks = Vec::new();
    if figure.killed {
        marks.push("KIA".to_string());
    } else if figure.out_of_action {
        marks.push("OoA".to_string());
    }
    for state in &figure.states {
        marks.push(format!("{state:?}").to_lowercase());
    }
    if figure.prone {
        marks.push("prone".into());
    }
    if figure.flying {
        marks.push("flying".into());
    }
    let dice: Vec<String> = figure.hand.iter().map(u8::to_string).collect();
    format!(
        "{} [{}] P{} M{} {}{}",
        figure.spec.id,
        dice.join(","),
        figure.physical.remaining(),
        figure.mental.remaining(),
        status,
        if marks.is_empty() { String::new() } else { format!(" ({})", marks.join(", ")) }
    )
}

/// Render the zones of `state`, captioned with `title`.
pub fn zones_svg(state: &SwiftSwordsState, title: &str) -> String {
    let columns = state.map.zones.iter().map(|zone| zone.column).max().map_or(1.0, |max| f64::from(max) + 1.0);
    let rows = state.map.zones.iter().map(|zone| zone.row).max().map_or(1.0, |max| f64::from(max) + 1.0);
    let width = (MARGIN * 2.0 + columns * TILE).max(480.0);
    let height = TOP + rows * TILE + MARGIN;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10"><title>{}</title>"#,
        escape(title)
    );
    let caption = format!("round {} · {:?}", state.round, state.phase).to_lowercase();
    let _ = write!(
        svg,
        r#"<text class="caption" x="{MARGIN}" y="18" font-size="12" font-weight="bold">{}</text><text class="round" x="{MARGIN}" y="34" font-size="11">{}</text>"#,
        escape(title),
        escape(&caption)
    );
    for zone in &state.map.zones {
        let (x, y) = origin(zone);
        let _ = write!(
            svg,
            r##"<g class="zone" id="zone-{id}"><rect x="{x}" y="{y}" width="{TILE}" height="{TILE}" fill="#f4f1e8" stroke="#999"/><text x="{tx}" y="{ty}" font-weight="bold">{id}</text><text x="{tx}" y="{ty2}" fill="#555">{terrain}</text>"##,
            id = escape(&zone.id),
            tx = x + 6.0,
            ty = y + 14.0,
            ty2 = y + 27.0,
            terrain = escape(&zone.terrain)
        );
        let mut line = y + 27.0 + LINE;
        for area in state.map.cover.iter().filter(|area| area.zone == zone.id) {
            let _ = write!(
                svg,
                r##"<text x="{}" y="{line}" fill="#2e7d32">cover {}: {:?} {:?}</text>"##,
                x + 6.0,
                escape(&area.id),
                area.shape,
                area.cover
            );
            line += LINE;
        }
        for group in groups_in(state, &zone.id) {
            let label = if group.in_contact { "melee" } else { "together" };
            let _ = write!(
                svg,
                r##"<text x="{}" y="{line}" fill="#333" font-style="italic">{} ({label})</text>"##,
                x + 6.0,
                escape(&group.id)
            );
            line += LINE;
            for member in &group.members {
                if let Some(figure) = state.figure(member) {
                    figure_text(&mut svg, state, figure, x + 14.0, line);
                    line += LINE;
                }
            }
        }
        for figure in state.figures.values().filter(|figure| figure.zone == zone.id && figure.group.is_none()) {
            figure_text(&mut svg, state, figure, x + 6.0, line);
            line += LINE;
        }
        svg.push_str("</g>");
    }
    svg.push_str(r#"<g class="borders">"#);
    for border in &state.map.borders {
        let (Some(a), Some(b)) = (state.map.zone(&border.a), state.map.zone(&border.b)) else { continue };
        let ((ax, ay), (bx, by)) = (origin(a), origin(b));
        let (x1, y1, x2, y2) = if a.row == b.row {
            let x = ax.max(bx);
            (x, ay, x, ay + TILE)
        } else if a.column == b.column {
            let y = ay.max(by);
            (ax, y, ax + TILE, y)
        } else {
            let (x, y) = (ax.max(bx), ay.max(by));
            (x - 8.0, y - 8.0, x + 8.0, y + 8.0)
        };
        let (stroke, wide) = cover_stroke(border.cover);
        let _ = write!(
            svg,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{wide}"><title>{} ({:?})</title></line>"#,
            escape(&border.name),
            border.cover
        );
    }
    svg.push_str("</g></svg>");
    svg
}

fn figure_text(svg: &mut String, state: &SwiftSwordsState, figure: &Figure, x: f64, y: f64) {
    let fill = colour(state, &figure.spec.side);
    let weight = if figure.active() { "normal" } else { "lighter" };
    let detail = format!(
        "{} of {}; pools dodge {} block {}; exposures {}; injuries {}",
        figure.spec.display_name(),
        figure.spec.side,
        figure.dodge_pool,
        figure.block_pool,
        figure.exposures,
        figure.injuries.len()
    );
    let _ = write!(
        svg,
        r#"<text class="figure" x="{x}" y="{y}" fill="{fill}" font-weight="{weight}">{}<title>{}</title></text>"#,
        escape(&figure_line(state, figure)),
        escape(&detail)
    );
}
