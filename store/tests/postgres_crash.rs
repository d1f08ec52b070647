//! Crash safety against PostgreSQL: a child process appends through a `PostgresStore` and is
//! SIGKILLed at a random moment, 24 times on the same schema; after every kill a new store
//! must find the log consistent and every event the child saw acknowledged (the server aborts
//! the killed connection's open transaction, and an acknowledgement comes only after COMMIT).
//!
//! A flight the child had sent whole before it died is still carried out by its server
//! process, COMMIT included (the server notices the dead client only when it answers): an
//! append nobody was told of, which may land or not. Each check therefore waits until the
//! child's connections are gone, so that it reads a log no one writes.
//!
//! The child is this test binary, re-executed with the cluster's URL and [`CHILD_SCHEMA`] set.

mod support;

use std::time::Duration;

use herald_store::conformance::cluster::{Schema, URL_VARIABLE};
use herald_store::{PostgresOptions, PostgresStore};

/// Set to the schema in the child process.
const CHILD_SCHEMA: &str = "HERALD_STORE_CRASH_CHILD_SCHEMA";
/// The child's connections' `application_name`, to wait for them to close.
const CHILD_APPLICATION: &str = "herald-crash-child";
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
    let separator = if schema.url().contains('?') { '&' } else { '?' };
    let child_url = format!("{}{separator}application_name={CHILD_APPLICATION}", schema.url());
    let env = [(URL_VARIABLE, child_url), (CHILD_SCHEMA, schema.name().to_string())];
    // A command is one query here (not a local lookup as in sled): each round checks the
    // commands acknowledged since the last one, and the last round checks them all again.
    let mut checked = 0;
    let (acknowledged, stored) = support::kill_repeatedly(CHILD_TEST, &env, ROUNDS, |acks, commands, round| {
        wait_for_the_child_to_disconnect(schema.url(), round);
        let store = schema.connect().unwrap_or_else(|e| panic!("round {round}: connect after kill: {e}"));
        let new = if round + 1 == ROUNDS { commands } else { &commands[checked..] };
        checked = commands.len();
        support::verify_log(&store, acks, new, round).len() as u64
    });
    eprintln!("{ROUNDS} kills, {acknowledged} acknowledged events all present, {stored} events stored");
}

/// Wait (at most 30 s) until no connection of the killed child is left on the server: until
/// then its last flight may still commit.
fn wait_for_the_child_to_disconnect(url: &str, round: usize) {
    let sql = format!(
        "DO $$ BEGIN
           FOR attempt IN 1..3000 LOOP
             PERFORM pg_stat_clear_snapshot();
             IF NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '{CHILD_APPLICATION}') THEN
               RETURN;
             END IF;
             PERFORM pg_sleep(0.01);
           END LOOP;
           RAISE EXCEPTION 'the killed child''s connections were still open after 30 s';
         END $$;"
    );
    herald_store::conformance::cluster::execute(url, &sql).unwrap_or_else(|e| panic!("round {round}: {e}"));
}
