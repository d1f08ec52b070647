//! The campaign map as SVG (`GET /v1/campaigns/{id}/map.svg`): a visible title, terrain
//! colors, sites as hollow squares in their colors (seed 003 §1.2) with their names, armies as
//! markers in their team's color labelled with their name and troops, battles marked, and a
//! legend. Two armies in one square are drawn at half size. Labels are placed so that none
//! overlaps another or a marker ([`crate::svg::labels`]); an army or site whose label finds no
//! room near it is listed in the legend instead. Every marker keeps its hover text (`<title>`)
//! and names its army (`data-army`) for pages that make it clickable.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::coalition::{
    army::{RankClass, Team},
    map::{Faction, Map, SiteKind, Square, Terrain},
    setup::rank_class_name,
};

use crate::svg::{
    escape,
    labels::{self, fit, fit_in, num, text_width, text_width_in, Placer, Rect, Weight, FONT_FAMILY},
};

/// Pixels per square.
const CELL: u32 = 28;
/// Room left of the map for the row numbers.
const LEFT: u32 = 26;
/// Room above the map for the title and the column letters.
const TOP: u32 = 48;
/// Gap between the map and the legend.
const GAP: u32 = 16;
/// Width of the legend.
const LEGEND_WIDTH: u32 = 230;
/// Height of one legend line.
const LINE: f64 = 14.0;
/// Font size of army labels, site names and the legend.
const LABEL_FONT: f64 = 9.0;
/// Font size of the title.
const TITLE_FONT: f64 = 15.0;
/// How far from its marker a label may be put, in pixels.
const REACH: f64 = 2.5 * CELL as f64;

/// An army as the map shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmyMarker {
    /// Its name.
    pub name: String,
    /// Its team.
    pub team: Team,
    /// Its rank class (the army's "type").
    pub rank: RankClass,
    /// Troops remaining.
    pub troops: u64,
    /// Where it is.
    pub square: Square,
    /// Whether it is in a battle announced and not yet applied.
    pub battle: bool,
}

fn terrain_color(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Ocean => "#3b6ea5",
        Terrain::Islands => "#7fb3d5",
        Terrain::Plains => "#e8e0a8",
        Terrain::Mountain => "#9c8b7a",
        Terrain::Forest => "#5e8c4a",
        Terrain::Swamp => "#6b6b47",
    }
}

fn site_color(kind: SiteKind) -> &'static str {
    match kind {
        SiteKind::Portal => "#808080",
        SiteKind::Town => "#ffffff",
        SiteKind::Base { color } => match color {
            Faction::Red => "#d62728",
            Faction::White => "#f5f5f5",
            Faction::Blue => "#1f5fbf",
            Faction::Green => "#2ca02c",
            Faction::Black => "#111111",
            Faction::FiveColor => "#d4af37",
            Faction::Colorless => "#8b5a2b",
        },
    }
}

fn team_color(team: Team) -> &'static str {
    match team {
        Team::Phyrexia => "#4b0082",
        Team::Coalition => "#c0392b",
        Team::Mercenary => "#e67e22",
    }
}

fn team_name(team: Team) -> &'static str {
    match team {
        Team::Phyrexia => "Phyrexia",
        Team::Coalition => "Coalition",
        Team::Mercenary => "Mercenary",
    }
}

fn origin(square: Square) -> (u32, u32) {
    (LEFT + u32::from(square.column) * CELL, TOP + (u32::from(square.row) - 1) * CELL)
}

fn square_rect(square: Square) -> Rect {
    let (x, y) = origin(square);
    Rect::new(f64::from(x), f64::from(y), f64::from(CELL), f64::from(CELL))
}

/// `12500` → `12,500`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A label's text on the map: the army's name and its troops.
pub fn army_label(army: &ArmyMarker) -> String {
    format!("{} {}", army.name, thousands(army.troops))
}

/// A label that fits `width`, as a text element at `x`, `y` (top) — the legend's and axes' text.
/// Bold when `attributes` say so, so the width is measured in the weight drawn.
fn line(svg: &mut String, x: f64, y: f64, width: f64, font_size: f64, text: &str, attributes: &str) -> Rect {
    let weight = if attributes.contains(r#"font-weight="bold""#) { Weight::Bold } else { Weight::Regular };
    let text = fit_in(text, font_size, width, weight);
    let rect = Rect::new(x, y, text_width_in(&text, font_size, weight), labels::LINE_EMS * font_size);
    labels::text(svg, rect, font_size, &text, attributes);
    rect
}

/// Render the map with its armies.
pub fn render(title: &str, map: &Map, armies: &[ArmyMarker]) -> String {
    let map_width = u32::from(map.bounds.columns) * CELL;
    let map_height = u32::from(map.bounds.rows) * CELL;
    let legend_x = f64::from(LEFT + map_width + GAP);
    let width = LEFT + map_width + GAP + LEGEND_WIDTH;
    let mut body = String::new();
    let _ = write!(body, r##"<rect class="background" x="0" y="0" width="{width}" height="100%" fill="#fff"/>"##);
    let title_width = f64::from(width - LEFT) - 8.0;
    line(&mut body, f64::from(LEFT), 6.0, title_width, TITLE_FONT, title, r#" class="title" font-weight="bold""#);
    for square in map.bounds.squares() {
        let (x, y) = origin(square);
        let terrain = map.terrain_at(square);
        let _ = write!(
            body,
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{}" stroke="#00000022"><title>{square} {terrain:?}</title></rect>"##,
            terrain_color(terrain)
        );
    }
    for column in 0..map.bounds.columns {
        let letter = char::from(b'A' + column).to_string();
        let x = f64::from(LEFT + u32::from(column) * CELL + CELL / 2) - text_width(&letter, 10.0) / 2.0;
        line(&mut body, x, f64::from(TOP) - 15.0, 10.0, 10.0, &letter, r#" class="axis""#);
    }
    for row in 1..=map.bounds.rows {
        let number = row.to_string();
        let y = f64::from(TOP + (u32::from(row) - 1) * CELL + CELL / 2) - labels::LINE_EMS * 10.0 / 2.0;
        line(&mut body, f64::from(LEFT) - 3.0 - text_width(&number, 10.0), y, 20.0, 10.0, &number, r#" class="axis""#);
    }
    let bounds = Rect::new(f64::from(LEFT), f64::from(TOP), f64::from(map_width), f64::from(map_height));
    let mut placer = Placer::new(bounds);
    for site in map.sites.values() {
        let (x, y) = origin(site.square);
        let state = if site.destroyed { " (destroyed)" } else { "" };
        let dash = if site.destroyed { r#" stroke-dasharray="3,2""# } else { "" };
        let _ = write!(
            body,
            r#"<rect class="site" data-site="{name}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="3"{dash}><title>{name}{state}</title></rect>"#,
            x + 2,
            y + 2,
            CELL - 4,
            CELL - 4,
            site_color(site.kind),
            name = escape(&site.name)
        );
        placer.block(square_rect(site.square));
    }
    let mut by_square: BTreeMap<Square, Vec<&ArmyMarker>> = BTreeMap::new();
    for army in armies {
        by_square.entry(army.square).or_default().push(army);
    }
    let mut markers: Vec<(&ArmyMarker, Rect)> = Vec::new();
    for (square, here) in &by_square {
        let (x, y) = origin(*square);
        // Two armies in one square are drawn at half size: they are fighting (seed 003 §1.2).
        let size = if here.len() > 1 { CELL / 2 - 2 } else { CELL - 12 };
        let inset = if here.len() > 1 { 3 } else { 6 };
        for (index, army) in here.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(0);
            let column = index % 2;
            let row = (index / 2).min(1);
            let (ax, ay) = (x + inset + column * (size + 2), y + inset + row * (size + 2));
            let _ = write!(
                body,
                r##"<rect class="army" data-army="{name}" x="{ax}" y="{ay}" width="{size}" height="{size}" fill="{}" stroke="#000"><title>{name}: {} army, {} troops, at {square}</title></rect>"##,
                team_color(army.team),
                rank_class_name(army.rank),
                army.troops,
                name = escape(&army.name),
            );
            let marker = Rect::new(f64::from(ax), f64::from(ay), f64::from(size), f64::from(size));
            placer.block(marker);
            markers.push((army, marker));
        }
        if here.iter().any(|army| army.battle) {
            let (cx, cy) = (f64::from(x + CELL) - 5.0, f64::from(y) + 5.0);
            let _ = write!(
                body,
                r##"<g class="battle" data-square="{square}"><title>battle at {square}</title><circle cx="{}" cy="{}" r="5" fill="#d62728" stroke="#fff"/><path d="M{} {}L{} {}M{} {}L{} {}" stroke="#fff" stroke-width="1.5"/></g>"##,
                num(cx),
                num(cy),
                num(cx - 2.5),
                num(cy - 2.5),
                num(cx + 2.5),
                num(cy + 2.5),
                num(cx - 2.5),
                num(cy + 2.5),
                num(cx + 2.5),
                num(cy - 2.5)
            );
            placer.block(Rect::new(cx - 6.0, cy - 6.0, 12.0, 12.0));
        }
    }
    // Army labels first (they change turn by turn and matter most), then site names.
    let height = labels::LINE_EMS * LABEL_FONT;
    let mut unlabelled_armies = Vec::new();
    for (army, marker) in &markers {
        let text = fit_in(&army_label(army), LABEL_FONT, bounds.width, Weight::Bold);
        let attributes = format!(
            r##" class="label army-label" data-army="{}" fill="{}" stroke="#fff" stroke-width="2.5" paint-order="stroke" font-weight="bold""##,
            escape(&army.name),
            team_color(army.team)
        );
        match placer.place(*marker, text_width_in(&text, LABEL_FONT, Weight::Bold), height, REACH) {
            Some(rect) => {
                labels::leader(&mut body, *marker, rect);
                labels::text(&mut body, rect, LABEL_FONT, &text, &attributes);
            }
            None => unlabelled_armies.push(*army),
        }
    }
    let mut unnamed_sites = Vec::new();
    for site in map.sites.values() {
        let name = if site.destroyed { format!("{} (destroyed)", site.name) } else { site.name.clone() };
        let text = fit(&name, LABEL_FONT - 1.0, bounds.width);
        let anchor = square_rect(site.square);
        let attributes = format!(
            r##" class="label site-label" data-site="{}" fill="#222" stroke="#fff" stroke-width="2.5" paint-order="stroke" font-style="italic""##,
            escape(&site.name)
        );
        match placer.place(anchor, text_width(&text, LABEL_FONT - 1.0), labels::LINE_EMS * (LABEL_FONT - 1.0), REACH) {
            Some(rect) => {
                labels::leader(&mut body, anchor, rect);
                labels::text(&mut body, rect, LABEL_FONT - 1.0, &text, &attributes);
            }
            None => unnamed_sites.push(name),
        }
    }
    let legend_bottom = legend(&mut body, legend_x, f64::from(TOP), &unlabelled_armies, &unnamed_sites);
    let height = (f64::from(TOP + map_height) + 8.0).max(legend_bottom + 8.0).ceil();
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" viewBox="0 0 {width} {h}" font-family="{FONT_FAMILY}" font-size="10"><title>{}</title>"#,
        escape(title),
        h = num(height)
    );
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

/// The legend, from `top` down: what the colors and marks mean, and the armies and sites whose
/// labels found no room on the map. Returns its bottom.
fn legend(svg: &mut String, x: f64, top: f64, armies: &[&ArmyMarker], sites: &[String]) -> f64 {
    let width = f64::from(LEGEND_WIDTH) - 4.0;
    let mut y = top;
    svg.push_str(r#"<g class="legend">"#);
    let heading = |svg: &mut String, y: &mut f64, text: &str| {
        line(svg, x, *y, width, LABEL_FONT + 1.0, text, r#" font-weight="bold""#);
        *y += LINE + 2.0;
    };
    let swatch = |svg: &mut String, x: f64, y: f64, fill: &str, stroke: &str, extra: &str| {
        let _ = write!(
            svg,
            r#"<rect x="{}" y="{}" width="12" height="10" fill="{fill}" stroke="{stroke}"{extra}/>"#,
            num(x),
            num(y + 1.0)
        );
    };
    heading(svg, &mut y, "Terrain");
    let terrains = [
        (Terrain::Plains, "plains"),
        (Terrain::Forest, "forest"),
        (Terrain::Mountain, "mountain"),
        (Terrain::Swamp, "swamp"),
        (Terrain::Islands, "islands"),
        (Terrain::Ocean, "ocean"),
    ];
    for pair in terrains.chunks(2) {
        for (index, (terrain, name)) in pair.iter().enumerate() {
            let column_x = x + 110.0 * index as f64;
            swatch(svg, column_x, y, terrain_color(*terrain), "#0003", "");
            line(svg, column_x + 16.0, y, 90.0, LABEL_FONT, name, "");
        }
        y += LINE;
    }
    y += 4.0;
    heading(svg, &mut y, "Sites (named on the map)");
    let hollow = r#" stroke-width="2.5""#;
    for (kind, name) in [(SiteKind::Portal, "Phyrexian portal"), (SiteKind::Town, "neutral town")] {
        swatch(svg, x, y, "#e8e0a8", site_color(kind), hollow);
        line(svg, x + 16.0, y, width - 16.0, LABEL_FONT, name, "");
        y += LINE;
    }
    let mut bx = x;
    for color in [
        Faction::Red,
        Faction::White,
        Faction::Blue,
        Faction::Green,
        Faction::Black,
        Faction::FiveColor,
        Faction::Colorless,
    ] {
        swatch(svg, bx, y, "#e8e0a8", site_color(SiteKind::Base { color }), hollow);
        bx += 15.0;
    }
    line(svg, bx + 2.0, y, width - (bx - x) - 2.0, LABEL_FONT, "bases, by color", "");
    y += LINE;
    swatch(svg, x, y, "#e8e0a8", "#808080", r#" stroke-width="2.5" stroke-dasharray="3,2""#);
    line(svg, x + 16.0, y, width - 16.0, LABEL_FONT, "destroyed (dashed)", "");
    y += LINE + 4.0;
    heading(svg, &mut y, "Armies (name and troops)");
    for team in [Team::Coalition, Team::Phyrexia, Team::Mercenary] {
        swatch(svg, x, y, team_color(team), "#000", "");
        line(svg, x + 16.0, y, width - 16.0, LABEL_FONT, team_name(team), "");
        y += LINE;
    }
    line(svg, x, y, width, LABEL_FONT, "half-size pair: two armies in one square", "");
    y += LINE;
    let _ =
        write!(svg, r##"<circle cx="{}" cy="{}" r="5" fill="#d62728" stroke="#fff"/>"##, num(x + 6.0), num(y + 6.0));
    line(svg, x + 16.0, y, width - 16.0, LABEL_FONT, "battle announced, not yet applied", "");
    y += LINE + 4.0;
    if !armies.is_empty() {
        heading(svg, &mut y, "Armies with no room for a label");
        for army in armies {
            let text = format!("{} at {}", army_label(army), army.square);
            let attributes =
                format!(r#" class="legend-army" data-army="{}" fill="{}""#, escape(&army.name), team_color(army.team));
            line(svg, x, y, width, LABEL_FONT, &text, &attributes);
            y += LINE;
        }
        y += 4.0;
    }
    if !sites.is_empty() {
        heading(svg, &mut y, "Sites with no room for a name");
        for site in sites {
            line(svg, x, y, width, LABEL_FONT, site, r#" class="legend-site""#);
            y += LINE;
        }
    }
    svg.push_str("</g>");
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armies_show_name_type_and_troops_on_hover_and_text_is_escaped() {
        let map = Map::default();
        let square = Square::parse("14H").expect("square");
        let armies = vec![ArmyMarker {
            name: "Sai <Rei> & co".into(),
            team: Team::Coalition,
            rank: RankClass::CplLtCommander,
            troops: 7500,
            square,
            battle: false,
        }];
        let svg = render("round 1", &map, &armies);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("<title>Sai &lt;Rei&gt; &amp; co: CPL/Lt Cmdr army, 7500 troops, at 14H</title>"));
        assert_eq!(svg.matches("class=\"army\"").count(), 1);
        assert!(svg.contains(">Sai &lt;Rei&gt; &amp; co 7,500</text>"), "the army is labelled with its troops");
        assert!(svg.contains(r#"class="title""#) && svg.contains(">round 1</text>"), "the title is visible");
        assert_eq!(svg.matches(r##"stroke="#00000022""##).count(), 14 * 38, "one square each");
    }

    #[test]
    fn a_square_in_battle_is_marked_and_thousands_are_separated() {
        let square = Square::parse("5E").expect("square");
        let army = |name: &str, team| ArmyMarker {
            name: name.into(),
            team,
            rank: RankClass::CplLtCommander,
            troops: 12500,
            square,
            battle: true,
        };
        let svg =
            render("r", &Map::default(), &[army("Sai Rei", Team::Coalition), army("Plague Host", Team::Phyrexia)]);
        assert_eq!(svg.matches(r#"<g class="battle" data-square="5E">"#).count(), 1);
        assert!(svg.contains(">Sai Rei 12,500</text>") && svg.contains(">Plague Host 12,500</text>"));
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
