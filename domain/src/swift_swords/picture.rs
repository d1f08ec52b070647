//! The zones as SVG (`GET /v1/battles/{id}/zones.svg`): one tile per zone with its terrain and
//! cover, border cover drawn along the shared edge, and every figure listed in its zone by melee
//! group, coloured by side, with its dice, ranks left and status; the figure's full state on
//! hover (an SVG `<title>`). Every line goes through the shared placer ([`crate::svg::labels`]):
//! it is cut to its tile's width and stays inside its tile; the lines a tile cannot hold are
//! listed under the grid.

use std::fmt::Write;

use super::{
    battle::state::{Figure, SwiftSwordsState},
    view::{groups_in, status, Status},
    zones::{CoverLevel, ZoneSpec},
};
use crate::svg::{
    escape,
    labels::{self, fit_in, text_width_in, Placer, Rect, Weight, FONT_FAMILY},
};

/// Pixels per tile side.
const TILE: f64 = 220.0;
/// Room around the grid.
const MARGIN: f64 = 16.0;
/// Room above the grid for the caption.
const TOP: f64 = 44.0;
/// From one text line to the next: a label's box and the placer's spacing.
const LINE: f64 = labels::LINE_EMS * FONT + 1.0;
/// Font size of the lines.
const FONT: f64 = 10.0;

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

/// A side's mark, `A`, `B`…, in the order the sides are listed: told apart by more than colour
/// (the same letters as the sheets' groups).
fn mark(state: &SwiftSwordsState, side: &str) -> String {
    state.sides.iter().position(|known| known.name == side).map_or("?".to_string(), crate::ruleset::sheet::group_mark)
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
        "{} {} [{}] P{} M{} {}{}",
        mark(state, &figure.spec.side),
        figure.spec.id,
        dice.join(","),
        figure.physical.remaining(),
        figure.mental.remaining(),
        status,
        if marks.is_empty() { String::new() } else { format!(" ({})", marks.join(", ")) }
    )
}

/// A tile's lines, placed one under the other inside it while they fit.
struct Lines<'a> {
    placer: &'a mut Placer,
    labels: &'a mut String,
    unplaced: &'a mut Vec<String>,
    tile: Rect,
    zone: &'a str,
    top: f64,
}

impl Lines<'_> {
    /// Place `text` at `indent` from the tile's left edge, with `inner` markup (a `<title>`) and
    /// `attributes`, cut to the tile's width (the whole text then on hover).
    fn line(&mut self, indent: f64, text: &str, weight: Weight, inner: &str, attributes: &str) {
        let width = self.tile.width - indent - 6.0;
        let fitted = fit_in(text, FONT, width, weight);
        let rect =
            Rect::new(self.tile.x + indent, self.top, text_width_in(&fitted, FONT, weight), labels::LINE_EMS * FONT);
        self.top += LINE;
        let inside = rect.bottom() <= self.tile.bottom() - 2.0;
        match if inside { self.placer.place_at(rect) } else { None } {
            Some(rect) => {
                let inner =
                    if fitted == text { inner.to_string() } else { format!("<title>{}</title>{inner}", escape(text)) };
                labels::text_with(self.labels, rect, FONT, &fitted, &inner, attributes);
            }
            None => self.unplaced.push(format!("{}: {text}", self.zone)),
        }
    }
}

/// Render the zones of `state`, captioned with `title`.
pub fn zones_svg(state: &SwiftSwordsState, title: &str) -> String {
    let columns = state.map.zones.iter().map(|zone| zone.column).max().map_or(1.0, |max| f64::from(max) + 1.0);
    let rows = state.map.zones.iter().map(|zone| zone.row).max().map_or(1.0, |max| f64::from(max) + 1.0);
    let width = (MARGIN * 2.0 + columns * TILE).max(480.0);
    let mut body = String::new();
    let caption = format!("round {} · {:?}", state.round, state.phase).to_lowercase();
    let _ = write!(
        body,
        r#"<text class="caption" x="{MARGIN}" y="18" font-size="12" font-weight="bold">{}</text><text class="round" x="{MARGIN}" y="34" font-size="11">{}</text>"#,
        escape(title),
        escape(&caption)
    );
    let mut placer = Placer::new(Rect::new(MARGIN, TOP, columns * TILE, rows * TILE));
    let mut labels = String::new();
    let mut unplaced = Vec::new();
    for zone in &state.map.zones {
        let (x, y) = origin(zone);
        let _ = write!(
            body,
            r##"<g class="zone" id="zone-{id}"><rect x="{x}" y="{y}" width="{TILE}" height="{TILE}" fill="#f4f1e8" stroke="#999"/></g>"##,
            id = escape(&zone.id),
        );
        let mut lines = Lines {
            placer: &mut placer,
            labels: &mut labels,
            unplaced: &mut unplaced,
            tile: Rect::new(x, y, TILE, TILE),
            zone: &zone.id,
            top: y + 4.0,
        };
        lines.line(6.0, &zone.id, Weight::Bold, "", r#" class="zone-name" font-weight="bold""#);
        lines.line(6.0, &zone.terrain, Weight::Regular, "", r##" class="terrain" fill="#555""##);
        for area in state.map.cover.iter().filter(|area| area.zone == zone.id) {
            let text = format!("cover {}: {:?} {:?}", area.id, area.shape, area.cover);
            lines.line(6.0, &text, Weight::Regular, "", r##" class="cover" fill="#2e7d32""##);
        }
        for group in groups_in(state, &zone.id) {
            let label = if group.in_contact { "melee" } else { "together" };
            let text = format!("{} ({label})", group.id);
            lines.line(6.0, &text, Weight::Regular, "", r##" class="group" fill="#333" font-style="italic""##);
            for member in &group.members {
                if let Some(figure) = state.figure(member) {
                    figure_text(&mut lines, state, figure, 14.0);
                }
            }
        }
        for figure in state.figures.values().filter(|figure| figure.zone == zone.id && figure.group.is_none()) {
            figure_text(&mut lines, state, figure, 6.0);
        }
    }
    body.push_str(r#"<g class="borders">"#);
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
            body,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{wide}"><title>{} ({:?})</title></line>"#,
            escape(&border.name),
            border.cover
        );
    }
    let _ = write!(body, r#"</g><g class="labels">{labels}</g>"#);
    let mut bottom = TOP + rows * TILE + MARGIN;
    if !unplaced.is_empty() {
        let _ = write!(
            body,
            r#"<text class="legend" x="{MARGIN}" y="{}" font-weight="bold">No room in the zone for:</text>"#,
            bottom
        );
        for text in &unplaced {
            bottom += LINE;
            let _ = write!(
                body,
                r#"<text class="unplaced-label" x="{}" y="{bottom}">{}</text>"#,
                MARGIN + 10.0,
                escape(text)
            );
        }
        bottom += MARGIN;
    }
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{bottom}" viewBox="0 0 {width} {bottom}" font-family="{FONT_FAMILY}" font-size="10"><title>{}</title>"#,
        escape(title)
    );
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

fn figure_text(lines: &mut Lines<'_>, state: &SwiftSwordsState, figure: &Figure, indent: f64) {
    let fill = colour(state, &figure.spec.side);
    // An inactive figure is drawn faint (not in a lighter weight: its width would be another font's).
    let faint = if figure.active() { "" } else { r#" opacity="0.55""# };
    let detail = format!(
        "{} of {}; pools dodge {} block {}; exposures {}; injuries {}",
        figure.spec.display_name(),
        figure.spec.side,
        figure.dodge_pool,
        figure.block_pool,
        figure.exposures,
        figure.injuries.len()
    );
    let text = figure_line(state, figure);
    let inner = format!("<title>{}</title>", escape(&detail));
    let id = escape(&figure.spec.id);
    lines.line(
        indent,
        &text,
        Weight::Regular,
        &inner,
        &format!(r#" class="figure" data-figure="{id}" fill="{fill}"{faint}"#),
    );
}
