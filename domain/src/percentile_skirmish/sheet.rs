//! Minis (seed 002): each participant's minis with their life and spell points, level, size,
//! movement and initiative, armour and weapons, the spells they know and the spells on them with
//! the turns each has left (seed 002 spell durations), as the viewer draws every ruleset's sheets.

use super::view::{MiniView, SkirmishView};
use crate::ruleset::sheet::{group_mark, stat, words, Card, Section, Sheet, SheetGroup};

/// The minis of `view`, by participant.
pub fn sheet(view: &SkirmishView) -> Sheet {
    let groups = view
        .participants
        .iter()
        .enumerate()
        .map(|(index, participant)| SheetGroup {
            name: participant.name.clone(),
            mark: group_mark(index),
            player: Some(participant.controller.clone()),
            cards: view.minis.iter().filter(|m| m.participant == participant.name).map(card).collect(),
        })
        .collect();
    Sheet { kind: "minis".to_string(), groups }
}

fn card(m: &MiniView) -> Card {
    let mut sections = vec![Section::Track { label: "life".to_string(), current: m.life, max: m.max_life }];
    if m.max_spell_points > 0 {
        sections.push(Section::Track {
            label: "spell points".to_string(),
            current: m.spell_points,
            max: m.max_spell_points,
        });
    }
    sections.push(Section::Stats {
        label: None,
        stats: vec![
            stat("movement", format!("{}″", m.movement_now)),
            stat("initiative", m.initiative_now),
            stat("attacks", m.attacks),
            stat("spell attacks", m.spell_attacks),
        ],
    });
    let mut gear: Vec<String> = m.weapons.iter().map(words).collect();
    gear.extend(m.armour.iter().map(|a| format!("{} (armour)", words(a))));
    gear.extend(m.spell_armour.iter().map(|a| format!("{} (spell armour)", words(a))));
    sections.push(Section::List { label: "gear".to_string(), items: gear });
    sections.push(Section::List { label: "spells".to_string(), items: m.spells.iter().map(words).collect() });
    let mut effects: Vec<String> = m
        .effects
        .iter()
        .map(|e| format!("{} from {}, {} turns left", words(&e.spell), e.caster, e.turns_left))
        .collect();
    if let Some(water) = &m.water {
        effects.push(format!("in {water}"));
    }
    if let Some(by) = &m.commanded_by {
        effects.push(format!("commanded by {by}"));
    }
    sections.push(Section::List { label: "effects".to_string(), items: effects });
    let out = if m.killed { Some("killed".to_string()) } else { m.dismissed.then(|| "dismissed".to_string()) };
    Card {
        id: m.id.clone(),
        name: m.name.clone(),
        subtitle: Some(format!("level {}, {}", m.level, words(&m.size))),
        out,
        sections,
    }
}
