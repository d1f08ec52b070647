//! A percentile-skirmish table as SVG (`GET /v1/battles/{id}/table.svg`): roads and water with
//! their names and widths, every mini as a disc sized by its size in its owner's colour with a
//! tick for its facing, its id and life points, the acting mini ringed, and each mini's state on
//! hover (an SVG `<title>`). Labels go through the shared placer ([`crate::svg::labels`]): none
//! is drawn over another or over a mini's disc, even at melee distance; a label with no room
//! near its mark is listed under the table instead.
//!
//! The game measures from the table's lower-left corner with y up; SVG has y down, so every y is
//! flipped.

use std::fmt::Write;

use crate::{
    percentile_skirmish::{
        battle::state::{MiniState, Phase, SkirmishState},
        mini::Size,
        table::{Point, Shape, TerrainFeature, TerrainKind},
    },
    svg::{
        escape,
        labels::{self, fit, text_width, Placer, Rect, FONT_FAMILY},
    },
};

/// Pixels per inch.
const PX: f64 = 14.0;
/// Room around the table.
const MARGIN: f64 = 24.0;
/// Room above the table for the caption.
const TOP: f64 = 40.0;
/// Height of one legend row.
const ROW: f64 = 16.0;
/// Font size of the minis' and the terrain's labels.
const LABEL_FONT: f64 = 9.0;
/// How far from its mark a label may be put, in pixels (three inches).
const REACH: f64 = 3.0 * PX;
/// Participant colours, in set-up order (repeated past eight).
const COLOURS: [&str; 8] = ["#c0392b", "#1f5fbf", "#2e8b3d", "#8e44ad", "#d35400", "#16a085", "#b7950b", "#6d4c41"];

fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0".into()
    } else {
        format!("{rounded}")
    }
}

struct Frame {
    depth: f64,
}

impl Frame {
    fn x(&self, x: f64) -> f64 {
        MARGIN + x * PX
    }

    fn y(&self, y: f64) -> f64 {
        TOP + (self.depth - y) * PX
    }

    fn point(&self, point: Point) -> String {
        format!("{},{}", num(self.x(point.x)), num(self.y(point.y)))
    }
}

/// Render `state`'s table, captioned with `title`.
pub fn table_svg(state: &SkirmishState, title: &str) -> String {
    let frame = Frame { depth: state.table.depth };
    let width = (MARGIN * 2.0 + state.table.width * PX).max(420.0);
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<text class="caption" x="{m}" y="16" font-size="12" font-weight="bold">{t}</text><text class="status" x="{m}" y="31" font-size="11">{s}</text>"#,
        m = num(MARGIN),
        t = escape(title),
        s = escape(&status(state))
    );
    let table = Rect::new(MARGIN, TOP, state.table.width * PX, state.table.depth * PX);
    let _ = write!(
        body,
        r##"<rect class="table" x="{}" y="{}" width="{}" height="{}" fill="#eef3e2" stroke="#555"/>"##,
        num(table.x),
        num(table.y),
        num(table.width),
        num(table.height)
    );
    body.push_str(r#"<g class="terrain">"#);
    let mut anchors = Vec::new();
    for feature in state.table.terrain.iter().filter(|f| f.kind == TerrainKind::Water) {
        anchors.push((feature, terrain(&mut body, &frame, feature)));
    }
    for feature in state.table.terrain.iter().filter(|f| f.kind == TerrainKind::Road) {
        anchors.push((feature, terrain(&mut body, &frame, feature)));
    }
    body.push_str("</g><g class=\"minis\">");
    let acting = state.acting().map(|mini| mini.id().to_string());
    let mut placer = Placer::new(table);
    let mut discs = Vec::new();
    for mini in state.minis.values().filter(|mini| mini.in_play()) {
        let disc = mini_svg(&mut body, &frame, state, mini, acting.as_deref() == Some(mini.id()));
        placer.block(disc);
        discs.push((mini, disc));
    }
    body.push_str("</g><g class=\"labels\">");
    // The minis' labels first (they change every action and matter most), then the terrain's.
    let mut unplaced = Vec::new();
    let height = labels::LINE_EMS * LABEL_FONT;
    for (mini, disc) in discs {
        let text = fit(&format!("{} {}/{}", mini.id(), mini.life, mini.spec.profile.life), LABEL_FONT, table.width);
        let attributes = format!(r#" class="mini-label" data-mini="{}""#, escape(mini.id()));
        match placer.place(disc, text_width(&text, LABEL_FONT), height, REACH) {
            Some(rect) => {
                labels::leader(&mut body, disc, rect);
                labels::text(&mut body, rect, LABEL_FONT, &text, &attributes);
            }
            None => unplaced.push(text),
        }
    }
    for (feature, anchor) in anchors {
        let text = fit(&feature.name, LABEL_FONT, table.width);
        match placer.place_centred(anchor, text_width(&text, LABEL_FONT), height, REACH) {
            Some(rect) => labels::text(&mut body, rect, LABEL_FONT, &text, r##" class="terrain-label" fill="#333""##),
            None => unplaced.push(text),
        }
    }
    body.push_str("</g>");
    let mut y = TOP + state.table.depth * PX + MARGIN;
    for (index, participant) in state.participants.iter().enumerate() {
        let lost = state.minis.values().filter(|m| m.spec.participant == participant.name && m.killed).count();
        let _ = write!(
            body,
            r#"<g class="legend"><circle cx="{}" cy="{}" r="5" fill="{}"/><text x="{}" y="{}">{} ({}) — {} lost</text></g>"#,
            num(MARGIN + 5.0),
            num(y - 4.0),
            COLOURS[index % COLOURS.len()],
            num(MARGIN + 14.0),
            num(y),
            escape(&participant.name),
            escape(&participant.controller),
            lost
        );
        y += ROW;
    }
    if !unplaced.is_empty() {
        let _ = write!(
            body,
            r#"<text class="legend" x="{}" y="{}" font-weight="bold">No room on the table for these labels:</text>"#,
            num(MARGIN),
            num(y)
        );
        for text in &unplaced {
            y += ROW;
            let _ = write!(
                body,
                r#"<text class="unplaced-label" x="{}" y="{}">{}</text>"#,
                num(MARGIN + 10.0),
                num(y),
                escape(text)
            );
        }
        y += ROW;
    }
    let height = y - ROW + MARGIN;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}" font-size="10"><title>{t}</title>"#,
        w = num(width),
        h = num(height),
        t = escape(title)
    );
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

fn status(state: &SkirmishState) -> String {
    match state.phase {
        Phase::NotCreated => "not set up".into(),
        Phase::Ended => match &state.winner {
            Some(winner) => format!("ended after turn {}: {winner} wins", state.turn),
            None => format!("ended after turn {}", state.turn),
        },
        Phase::Declaring => {
            let round = state.round.as_ref().map_or(0, |round| round.value);
            format!("turn {}, initiative round {round}: declaring", state.turn)
        }
        Phase::Acting => {
            let round = state.round.as_ref().map_or(0, |round| round.value);
            let acting = state.acting().map_or("nobody", MiniState::id);
            format!("turn {}, initiative round {round}: {acting} acts", state.turn)
        }
    }
}

/// Draw `feature`; returns the box its name is placed around (its shape, or its first point).
fn terrain(svg: &mut String, frame: &Frame, feature: &TerrainFeature) -> Rect {
    let (fill, class) = match feature.kind {
        TerrainKind::Water => ("#7fb3e6", "water"),
        TerrainKind::Road => ("#c8b68e", "road"),
    };
    let label = format!("{} ({}, {}″ wide)", feature.name, class, num(feature.width()));
    let _ = write!(svg, r#"<g class="{class}"><title>{}</title>"#, escape(&label));
    let anchor = match &feature.shape {
        Shape::Rect { min, max } => {
            let _ = write!(
                svg,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" opacity="0.85"/>"#,
                num(frame.x(min.x)),
                num(frame.y(max.y)),
                num((max.x - min.x) * PX),
                num((max.y - min.y) * PX)
            );
            Rect::new(frame.x(min.x), frame.y(max.y), (max.x - min.x) * PX, (max.y - min.y) * PX)
        }
        Shape::Circle { centre, radius } => {
            let _ = write!(
                svg,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" opacity="0.85"/>"#,
                num(frame.x(centre.x)),
                num(frame.y(centre.y)),
                num(radius * PX)
            );
            let r = radius * PX;
            Rect::new(frame.x(centre.x) - r, frame.y(centre.y) - r, 2.0 * r, 2.0 * r)
        }
        Shape::Band { points, width } => {
            let line: Vec<String> = points.iter().map(|p| frame.point(*p)).collect();
            let _ = write!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{fill}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round" opacity="0.85"/>"#,
                line.join(" "),
                num(width * PX)
            );
            let first = points.first().copied().unwrap_or(Point::new(0.0, 0.0));
            Rect::new(frame.x(first.x), frame.y(first.y), 0.0, 0.0)
        }
    };
    svg.push_str("</g>");
    anchor
}

/// Draw `mini`'s disc and facing tick; returns the box its label must keep off (ring included).
fn mini_svg(svg: &mut String, frame: &Frame, state: &SkirmishState, mini: &MiniState, acting: bool) -> Rect {
    let index = state.participants.iter().position(|p| p.name == mini.spec.participant).unwrap_or(0);
    let colour = COLOURS[index % COLOURS.len()];
    let radius = match mini.spec.profile.size {
        Size::Small => 0.3,
        Size::Medium => 0.45,
        Size::Large => 0.75,
    } * PX;
    let (cx, cy) = (frame.x(mini.position.x), frame.y(mini.position.y));
    let tip = mini.position.towards(mini.facing, radius / PX + 0.35);
    let effects: Vec<String> =
        mini.effects.iter().map(|e| format!("{:?} ({} turns left)", e.spell, e.turns_left).to_lowercase()).collect();
    let hover = format!(
        "{} — {} of {}, level {}, {} of {} life{}{}",
        mini.id(),
        mini.spec.profile.name,
        state.acting_participant(mini),
        mini.spec.profile.level,
        mini.life,
        mini.spec.profile.life,
        if effects.is_empty() { String::new() } else { format!("; {}", effects.join(", ")) },
        mini.order.as_ref().map(|order| format!("; command: {order}")).unwrap_or_default()
    );
    let _ = write!(svg, r#"<g class="mini"><title>{}</title>"#, escape(&hover));
    if acting {
        let _ = write!(
            svg,
            r##"<circle class="acting" cx="{}" cy="{}" r="{}" fill="none" stroke="#f1c40f" stroke-width="3"/>"##,
            num(cx),
            num(cy),
            num(radius + 4.0)
        );
    }
    let _ = write!(
        svg,
        r##"<circle class="disc" data-mini="{}" cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#222"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#222" stroke-width="2"/></g>"##,
        escape(mini.id()),
        num(cx),
        num(cy),
        num(radius),
        num(cx),
        num(cy),
        num(frame.x(tip.x)),
        num(frame.y(tip.y)),
    );
    // The disc, its facing tick (0.35″ past the edge) and the acting ring all stay visible.
    let reach = radius + 0.35 * PX + 1.0;
    Rect::new(cx - reach, cy - reach, 2.0 * reach, 2.0 * reach)
}
