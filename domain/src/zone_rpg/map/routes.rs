//! Distances between zones and what lies between them.
//!
//! Range and movement count zones (seed 001 "Attacking": "They are at 5 zones of distance"):
//! the distance between two zones is the length of the shortest chain of borders joining them.
//! An attack crossing borders is protected by the cover or barriers along its way; Herald
//! takes the clearest of the shortest ways (an archer shoots through the gap, not the wall),
//! so an attack is blocked only when every shortest way crosses a barrier.

use super::{Protection, ZoneMap};

/// The shortest way from one zone to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// Its length in zones (0 within a zone).
    pub distance: u32,
    /// The least protection found along a shortest way: the most any border of it gives.
    pub protection: Protection,
}

impl ZoneMap {
    fn index(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|zone| zone.name == name)
    }

    /// Shortest distances from `from` over the borders `usable` allows, by zone index.
    fn distances(&self, from: usize, usable: impl Fn(&super::BorderSpec) -> bool) -> Vec<Option<u32>> {
        let count = self.zones.len();
        let mut distance: Vec<Option<u32>> = vec![None; count];
        let mut done = vec![false; count];
        if from < count {
            distance[from] = Some(0);
        }
        loop {
            let next =
                (0..count).filter(|&i| !done[i]).filter_map(|i| distance[i].map(|d| (d, i))).min().map(|(_, i)| i);
            let Some(current) = next else { break };
            done[current] = true;
            let here = distance[current].unwrap_or(0);
            let name = &self.zones[current].name;
            for border in self.borders.iter().filter(|border| usable(border)) {
                let Some(other) = border.across(name).and_then(|other| self.index(other)) else { continue };
                let through = here.saturating_add(border.length);
                if distance[other].is_none_or(|known| through < known) {
                    distance[other] = Some(through);
                }
            }
        }
        distance
    }

    /// The shortest way from `from` to `to` across any borders (range counts across a chasm),
    /// with the least protection among the shortest ways; `None` when they are not joined.
    pub fn route(&self, from: &str, to: &str) -> Option<Route> {
        let (start, end) = (self.index(from)?, self.index(to)?);
        let distance = self.distances(start, |_| true);
        let length = distance[end]?;
        // Walk the shortest ways in order of distance, keeping the least protection that
        // reaches each zone along one of them.
        let mut order: Vec<usize> = (0..self.zones.len()).filter(|&i| distance[i].is_some()).collect();
        order.sort_by_key(|&i| distance[i]);
        let mut best: Vec<Option<Protection>> = vec![None; self.zones.len()];
        best[start] = Some(Protection::None);
        for &zone in &order {
            let (Some(here), Some(reached)) = (distance[zone], best[zone]) else { continue };
            let name = &self.zones[zone].name;
            for border in &self.borders {
                let Some(other) = border.across(name).and_then(|other| self.index(other)) else { continue };
                if distance[other] != Some(here.saturating_add(border.length)) {
                    continue;
                }
                let through = reached.max(border.protection);
                if best[other].is_none_or(|known| through < known) {
                    best[other] = Some(through);
                }
            }
        }
        Some(Route { distance: length, protection: best[end].unwrap_or(Protection::None) })
    }

    /// The number of zones a walk along `path` (each zone bordering the one before, starting
    /// from `from`) covers, or the first step that cannot be walked.
    pub fn walk(&self, from: &str, path: &[String]) -> Result<u32, String> {
        let mut here = from;
        let mut length: u32 = 0;
        for step in path {
            if self.zone(step).is_none() {
                return Err(format!("there is no zone {step}"));
            }
            match self.border(here, step) {
                Some(border) if border.passable => length = length.saturating_add(border.length),
                Some(_) => return Err(format!("the border between {here} and {step} cannot be crossed")),
                None => return Err(format!("{step} does not border {here}")),
            }
            here = step;
        }
        Ok(length)
    }

    /// The distance from `from` to `to` walking across passable borders only.
    pub fn walking_distance(&self, from: &str, to: &str) -> Option<u32> {
        let (start, end) = (self.index(from)?, self.index(to)?);
        self.distances(start, |border| border.passable)[end]
    }
}
