//! The campaign map as SVG (`GET /v1/campaigns/{id}/map.svg`): terrain colors, sites as hollow
//! squares in their colors (seed 003 §1.2), armies as markers that show their name, type and
//! troops on hover (an SVG `<title>`), and two armies in one square drawn at half size.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::coalition::{
    army::{RankClass, Team},
    map::{Faction, Map, SiteKind, Square, Terrain},
    setup::rank_class_name,
};

use crate::svg::escape;

/// Pixels per square.
const CELL: u32 = 24;
/// Room for the row numbers and column letters.
const MARGIN: u32 = 28;

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

fn origin(square: Square) -> (u32, u32) {
    (MARGIN + u32::from(square.column) * CELL, MARGIN + (u32::from(square.row) - 1) * CELL)
}

/// Render the map with its armies.
pub fn render(title: &str, map: &Map, armies: &[ArmyMarker]) -> String {
    let width = MARGIN + u32::from(map.bounds.columns) * CELL + 4;
    let height = MARGIN + u32::from(map.bounds.rows) * CELL + 4;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10"><title>{}</title>"#,
        escape(title)
    );
    for square in map.bounds.squares() {
        let (x, y) = origin(square);
        let terrain = map.terrain_at(square);
        let _ = write!(
            svg,
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{}" stroke="#00000022"><title>{square} {terrain:?}</title></rect>"##,
            terrain_color(terrain)
        );
    }
    for column in 0..map.bounds.columns {
        let x = MARGIN + u32::from(column) * CELL + CELL / 2;
        let _ = write!(
            svg,
            r#"<text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            MARGIN - 8,
            char::from(b'A' + column)
        );
    }
    for row in 1..=map.bounds.rows {
        let y = MARGIN + (u32::from(row) - 1) * CELL + CELL / 2 + 4;
        let _ = write!(svg, r#"<text x="{}" y="{y}" text-anchor="end">{row}</text>"#, MARGIN - 4);
    }
    for site in map.sites.values() {
        let (x, y) = origin(site.square);
        let state = if site.destroyed { " (destroyed)" } else { "" };
        let dash = if site.destroyed { r#" stroke-dasharray="3,2""# } else { "" };
        let _ = write!(
            svg,
            r#"<rect class="site" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="3"{dash}><title>{}{state}</title></rect>"#,
            x + 2,
            y + 2,
            CELL - 4,
            CELL - 4,
            site_color(site.kind),
            escape(&site.name)
        );
    }
    let mut by_square: BTreeMap<Square, Vec<&ArmyMarker>> = BTreeMap::new();
    for army in armies {
        by_square.entry(army.square).or_default().push(army);
    }
    for (square, here) in by_square {
        let (x, y) = origin(square);
        // Two armies in one square are drawn at half size: they are fighting (seed 003 §1.2).
        let size = if here.len() > 1 { CELL / 2 - 2 } else { CELL - 10 };
        for (index, army) in here.iter().enumerate() {
            let offset = u32::try_from(index).unwrap_or(0) * (size + 2);
            let _ = write!(
                svg,
                r##"<rect class="army" x="{}" y="{}" width="{size}" height="{size}" fill="{}" stroke="#000"><title>{}: {} army, {} troops, at {square}</title></rect>"##,
                x + 5 + offset.min(CELL - size - 5),
                y + 5 + if index > 1 { size } else { 0 },
                team_color(army.team),
                escape(&army.name),
                rank_class_name(army.rank),
                army.troops
            );
        }
    }
    svg.push_str("</svg>");
    svg
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
        }];
        let svg = render("round 1", &map, &armies);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("<title>Sai &lt;Rei&gt; &amp; co: CPL/Lt Cmdr army, 7500 troops, at 14H</title>"));
        assert_eq!(svg.matches("class=\"army\"").count(), 1);
        assert_eq!(svg.matches("<rect").count(), 14 * 38 + 1);
    }
}
