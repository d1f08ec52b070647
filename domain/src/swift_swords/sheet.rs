//! Figure cards (seed 004): each side's figures with their zone and status (Alone, InContact,
//! InClose), physical and mental ranks with what is lost of them (seed 004 "Ranks"), the dodge,
//! block and action pools, action dice, states, injuries with their roll penalties, bleeding and
//! fear, as the viewer draws every ruleset's sheets.

use super::view::{FigureView, SwiftSwordsView};
use crate::ruleset::sheet::{group_mark, stat, words, Card, Section, Sheet, SheetGroup};

/// The figure cards of `view`, by side.
pub fn sheet(view: &SwiftSwordsView) -> Sheet {
    let groups = view
        .sides
        .iter()
        .enumerate()
        .map(|(index, side)| SheetGroup {
            name: side.name.clone(),
            mark: group_mark(index),
            player: side.controller.clone(),
            cards: view.figures.iter().filter(|f| f.side == side.name).map(card).collect(),
        })
        .collect();
    Sheet { kind: "figure cards".to_string(), groups }
}

fn card(f: &FigureView) -> Card {
    let rank = |track: &super::view::RankView| {
        format!("rank {} (+{}), {} of {} left", track.rank, track.bonus, track.remaining.max(0), track.total)
    };
    let mut pools = vec![stat("dodge", f.pools.dodge), stat("block", f.pools.block)];
    if let Some(action) = &f.pools.action {
        pools.push(stat(&action.name, action.dice));
    }
    pools.push(stat("usable action dice", f.usable_dice));
    let mut conditions: Vec<String> = f.states.iter().map(words).collect();
    for (on, what) in [
        (f.prone, "prone"),
        (f.flying, "flying"),
        (f.hamstrung, "hamstrung"),
        (f.fumbled, "fumbled"),
        (f.holding, "holding an action"),
        (f.done, "done this round"),
    ] {
        if on {
            conditions.push(what.to_string());
        }
    }
    if let Some(fear) = &f.fear {
        conditions.push(format!("fear: {}", words(fear)));
    }
    if f.burn > 0 {
        conditions.push(format!("burning {}", f.burn));
    }
    conditions.extend(f.bleeding.iter().map(|location| format!("bleeding from the {}", words(location))));
    let injuries = f
        .injuries
        .iter()
        .map(|injury| {
            let penalty =
                if injury.roll_penalty > 0 { format!(", −{} to rolls", injury.roll_penalty) } else { String::new() };
            format!("{}: {}{penalty}", words(&injury.location), words(&injury.effect))
        })
        .collect();
    let mut gear: Vec<String> = f.weapons.iter().map(words).collect();
    gear.extend(f.broken.iter().map(|w| format!("{w} (broken)")));
    gear.extend(f.dropped.iter().map(|w| format!("{w} (dropped)")));
    let out = if f.killed { Some("killed".to_string()) } else { f.out_of_action.then(|| "out of action".to_string()) };
    Card {
        id: f.id.clone(),
        name: f.name.clone(),
        subtitle: Some(format!("{} in {}", words(&f.status), f.zone)),
        out,
        sections: vec![
            Section::Stats {
                label: Some("ranks".to_string()),
                stats: vec![stat("physical", rank(&f.physical)), stat("mental", rank(&f.mental))],
            },
            Section::Track {
                label: "physical rank left".to_string(),
                current: u32::try_from(f.physical.remaining.max(0)).unwrap_or(0),
                max: f.physical.total,
            },
            Section::Stats { label: Some("pools".to_string()), stats: pools },
            Section::List { label: "injuries".to_string(), items: injuries },
            Section::List { label: "conditions".to_string(), items: conditions },
            Section::List { label: "weapons".to_string(), items: gear },
        ],
    }
}
