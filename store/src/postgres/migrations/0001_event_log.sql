-- Herald's event log on PostgreSQL, schema version 1. See docs/adr/0001-postgres-all-ordering.md.

-- The head of $all: the next free position. Every appending transaction locks this one row
-- first (SELECT ... FOR UPDATE) and assigns positions under the lock, so appends commit in
-- position order and $all is read gap-free. Never write events without holding it.
CREATE TABLE herald_head (
    singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    next_position bigint  NOT NULL CHECK (next_position >= 0)
);
INSERT INTO herald_head (singleton, next_position) VALUES (true, 0);

-- Every event once, by its position in $all. `recorded_at` is the timestamp floored to the
-- microsecond (PostgreSQL's resolution) for SQL readers; `recorded_nanos` keeps the exact
-- nanosecond of the second the envelope carries. `data` is the payload's JSON text as written
-- (`json`, not `jsonb`, keeps key order and spelling byte for byte).
CREATE TABLE herald_events (
    position       bigint      PRIMARY KEY CHECK (position >= 0),
    stream         text        NOT NULL,
    version        bigint      NOT NULL CHECK (version >= 0),
    id             uuid        NOT NULL,
    event_type     text        NOT NULL,
    schema         bigint      NOT NULL,
    recorded_at    timestamptz NOT NULL,
    recorded_nanos integer     NOT NULL,
    actor          text        NOT NULL,
    command_id     text,
    correlation_id text,
    causation_id   text,
    rules          text        NOT NULL,
    data           json        NOT NULL,
    UNIQUE (stream, version)
);

-- Each stream's last version (its expected-version check reads one row).
CREATE TABLE herald_streams (
    stream  text   PRIMARY KEY,
    version bigint NOT NULL CHECK (version >= 0)
);

-- Commands stored with the events they produced; the primary key makes a command id
-- idempotent across every process. Each command starts at its own position (exports list
-- commands in $all order by it).
CREATE TABLE herald_commands (
    command_id     text   PRIMARY KEY,
    stream         text   NOT NULL,
    command        json,
    first_version  bigint NOT NULL,
    last_version   bigint NOT NULL,
    first_position bigint NOT NULL UNIQUE
);

-- Sealed seeds and token hashes: kept apart from every event read.
CREATE TABLE herald_secrets (
    key   text  PRIMARY KEY,
    value bytea NOT NULL
);
