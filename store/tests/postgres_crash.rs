//! Crash safety against PostgreSQL: a child process appends through a `PostgresStore` and is
//! SIGKILLed at a random moment, 24 times on the same schema; after every kill a new store
//! must find the log consistent and every event the child saw acknowledged (the server aborts
//! the killed connection's open transaction, and an acknowledgement comes only after COMMIT).
//!
//! The child is this test binary, re-executed with the cluster's URL and [`CHILD_SCHEMA`] set.

mod support;

use std::time::Duration;

use herald_store::conformance::cluster::{Schema, URL_VARIABLE};
use herald_store::{PostgresOptions, PostgresStore};

/// Set to the schema in the child process.
const CHILD_SCHEMA: &str = "HERALD_STORE_CRASH_CHILD_SCHEMA";
const CHILD_TEST: &str = "crash_child_appends_through_postgres_until_killed";
const ROUNDS: usize = 24;
const WRITERS: usize = 4;

#[test]
fn crash_child_appends_through_postgres_until_killed() {
    let (Some(schema), Ok(url)) = (std::env::var_os(CHILD_SCHEMA), std::env::var(URL_VARIABLE)) else { return };
    let options = PostgresOptions { schema: schema.to_str().map(String::from), ..PostgresOptions::default() };
    let store = PostgresStore::connect_with(&url, options).expect("child connects");
    support::append_and_print(&store, "postgres", WRITERS, u64::MAX, false, Duration::from_secs(30));
}

#[test]
fn acknowledged_events_survive_repeated_sigkill_of_a_postgres_client() {
    let Some(schema) = Schema::fresh() else { return };
    // Created once here, so the first children do not all start by migrating.
    drop(schema.connect().expect("create the schema"));
    let env = [(URL_VARIABLE, schema.url().to_string()), (CHILD_SCHEMA, schema.name().to_string())];
    // A command is one query here (not a local lookup as in sled): each round checks the
    // commands acknowledged since the last one, and the last round checks them all again.
    let mut checked = 0;
    let (acknowledged, stored) = support::kill_repeatedly(CHILD_TEST, &env, ROUNDS, |acks, commands, round| {
        let store = schema.connect().unwrap_or_else(|e| panic!("round {round}: connect after kill: {e}"));
        let new = if round + 1 == ROUNDS { commands } else { &commands[checked..] };
        checked = commands.len();
        support::verify_log(&store, acks, new, round).len() as u64
    });
    eprintln!("{ROUNDS} kills, {acknowledged} acknowledged events all present, {stored} events stored");
}
