//! The army roster of a battle (seed 003 §2.1 armies of creature slots, §4.2.3 casualties): each
//! side's army (and its partner in a joint engagement, §4.3) slot by slot — creature, colours,
//! power/toughness, troops before the battle, lost in it and left — with the bonuses the judge
//! gave, as the viewer draws every ruleset's sheets. Sealed strategies stay out: the roster is
//! drawn from the view the reader may see.

use super::view::{BattleView, SideView};
use crate::coalition::army::ArmySpec;
use crate::ruleset::sheet::{stat, words, Card, Section, Sheet, SheetGroup};

/// The army roster of `view`, side A then side B.
pub fn sheet(view: &BattleView) -> Sheet {
    let groups =
        [("A", &view.sides.a), ("B", &view.sides.b)].into_iter().map(|(mark, side)| group(mark, side)).collect();
    Sheet { kind: "army roster".to_string(), groups }
}

fn group(mark: &str, side: &SideView) -> SheetGroup {
    let mut cards = Vec::new();
    if let Some(army) = &side.army {
        let mut card =
            army_card(army, side.troops_after.as_deref(), side.casualties.as_ref().map(|c| c.losses.as_slice()));
        let bonuses: Vec<_> =
            [("strategy", side.strategy_bonus), ("size", side.size_bonus), ("colour", side.color_bonus)]
                .into_iter()
                .filter_map(|(label, bonus)| bonus.map(|b| stat(label, format!("+{b}"))))
                .collect();
        if !bonuses.is_empty() {
            card.sections.push(Section::Stats { label: Some("bonuses (§4.2.2)".to_string()), stats: bonuses });
        }
        cards.push(card);
    }
    if let Some(partner) = &side.partner {
        cards.push(army_card(
            &partner.army,
            partner.troops_after.as_deref(),
            partner.casualties.as_ref().map(|c| c.losses.as_slice()),
        ));
    }
    SheetGroup {
        name: side.army.as_ref().map_or_else(|| format!("side {mark}"), |army| format!("side {mark}: {}", army.name)),
        mark: mark.to_string(),
        player: side.army.as_ref().map(|army| army.controller.clone()),
        cards,
    }
}

fn army_card(army: &ArmySpec, after: Option<&[u32]>, losses: Option<&[u32]>) -> Card {
    let before: u64 = army.total_troops();
    let rows = army
        .slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let lost = losses.and_then(|l| l.get(i)).copied();
            let left = after.and_then(|a| a.get(i)).copied().or_else(|| lost.map(|l| slot.troops.saturating_sub(l)));
            vec![
                slot.slot.map_or_else(|| (i + 1).to_string(), |s| s.to_string()),
                slot.creature.clone(),
                slot.colors.iter().map(words).collect::<Vec<_>>().join(", "),
                format!("{}/{}", slot.power, slot.toughness),
                slot.troops.to_string(),
                lost.map_or("—".to_string(), |l| l.to_string()),
                left.map_or("—".to_string(), |l| l.to_string()),
            ]
        })
        .collect();
    let left: Option<u64> = after.map(|a| a.iter().map(|&t| u64::from(t)).sum());
    let mut stats = vec![stat("team", words(&army.team)), stat("rank", words(&army.rank)), stat("troops", before)];
    if let Some(left) = left {
        stats.push(stat("troops left", left));
    }
    Card {
        id: army.name.clone(),
        name: army.name.clone(),
        subtitle: Some(format!("{} army", words(&army.team))),
        out: (left == Some(0) && before > 0).then(|| "destroyed".to_string()),
        sections: vec![
            Section::Stats { label: None, stats },
            Section::Table {
                label: "slots".to_string(),
                columns: ["slot", "creature", "colours", "P/T", "troops", "lost", "left"].map(String::from).to_vec(),
                rows,
            },
        ],
    }
}
