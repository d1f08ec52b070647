//! The registered rulesets: the one list the service iterates.
//!
//! Routes, read models, replay verification, event views and the OpenAPI document find a
//! ruleset here, by the kind and id a client names or by the `rules` an event records. Adding a
//! ruleset is: a folder under `domain/src/`, one line below, its docs.

use crate::{
    coalition::{battle::CoalitionBattle, campaign::CoalitionCampaign},
    percentile_skirmish::battle::PercentileSkirmish,
    ruleset::{AnyRuleset, Registered, StreamKind},
    swift_swords::battle::SwiftSwords,
    warmachine::battle::Warmachine,
    zone_rpg::ZoneRpg,
};

/// Every registered ruleset, campaigns first, then battles in the order clients see them listed.
pub static RULESETS: &[&dyn AnyRuleset] = &[
    &Registered::<CoalitionCampaign>::NEW,
    &Registered::<CoalitionBattle>::NEW,
    &Registered::<Warmachine>::NEW,
    &Registered::<ZoneRpg>::NEW,
    &Registered::<PercentileSkirmish>::NEW,
    &Registered::<SwiftSwords>::NEW,
];

/// Every registered ruleset.
pub fn all() -> impl Iterator<Item = &'static dyn AnyRuleset> {
    RULESETS.iter().copied()
}

/// The ruleset of `kind` that clients call `id`.
pub fn find(kind: StreamKind, id: &str) -> Option<&'static dyn AnyRuleset> {
    all().find(|ruleset| ruleset.kind() == kind && ruleset.id() == id)
}

/// The ruleset that wrote an event recorded under `rules` (`coalition-battle@1`), of any rules version:
/// the name before the `@` is what identifies it, so a new rules version keeps its streams.
pub fn by_rules(rules: &str) -> Option<&'static dyn AnyRuleset> {
    let name = rules.split_once('@').map_or(rules, |(name, _)| name);
    all().find(|ruleset| ruleset.rules().split_once('@').is_some_and(|(ours, _)| ours == name))
}

/// The ruleset a new stream of `kind` gets when the client names none.
pub fn default_for(kind: StreamKind) -> Option<&'static dyn AnyRuleset> {
    all().find(|ruleset| ruleset.kind() == kind)
}
