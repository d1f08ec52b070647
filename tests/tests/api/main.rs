//! Black-box tests: the real app on a random port, a temporary data directory, real HTTP.
//! One integration-test binary so it links once.

mod support;

mod actors;
mod auth;
mod backup_under_load;
mod caches;
mod campaign;
mod campaign_dice;
mod coalition_round;
mod commitments;
mod concurrency;
mod contract;
mod dice;
mod disk_full;
mod disputes;
mod errors;
mod events;
mod examples;
mod full_battle;
mod hidden;
mod http_conventions;
mod idempotency;
mod killed;
mod live;
mod metrics;
mod outsider;
mod paging;
mod percentile_skirmish;
mod postgres_away;
mod registry;
mod restart;
mod scale_out;
mod scopes;
mod smoke;
mod swift_swords;
mod tamper;
mod time_travel;
mod viewer;
mod warmachine;
mod webhooks;
mod zone_rpg;
