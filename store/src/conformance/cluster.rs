//! A throwaway PostgreSQL cluster for tests: started on first use in a temp dir on a free
//! loopback port, shared by every test of the process, stopped and deleted when the process
//! exits.
//!
//! The server binaries come from the machine: `initdb` on `PATH` or Debian's
//! `/usr/lib/postgresql/<version>/bin` (CI installs them with `.ci/install-postgres`). Where
//! there are none, tests that need the cluster are skipped with a message, except under CI
//! (`CI` set), where that is a failure. `HERALD_TEST_POSTGRES_URL` points the tests at a server
//! of your own instead (child processes of the crash tests get the parent's this way).
//!
//! The server runs under a small shell that the kernel sends SIGTERM when this process ends
//! (`setpriv --pdeathsig`); the shell stops the server and deletes the directory. As root,
//! the server runs as the `postgres` user (it refuses to run as root).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::{EventStore, PostgresOptions, PostgresStore};

/// Set to a server's URL to test against it instead of a throwaway cluster.
pub const URL_VARIABLE: &str = "HERALD_TEST_POSTGRES_URL";

/// Set (to anything) to run the throwaway cluster with `fsync` and `full_page_writes` on, as a
/// real server runs; tests leave them off for speed, benchmarks turn them on to compare
/// durable commits with sled's.
pub const DURABLE_VARIABLE: &str = "HERALD_TEST_POSTGRES_DURABLE";

static CLUSTER: OnceLock<Option<String>> = OnceLock::new();

/// The URL of the test cluster's `postgres` database, starting the cluster on first use;
/// `None` (after printing why, once) when PostgreSQL is not installed and this is not CI.
pub fn postgres_url() -> Option<String> {
    CLUSTER
        .get_or_init(|| {
            if let Ok(url) = std::env::var(URL_VARIABLE) {
                return Some(url);
            }
            let Some(bin) = find_binaries() else {
                let why = "PostgreSQL's server binaries (initdb, postgres) were not found; \
                           install them with .ci/install-postgres";
                if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
                    panic!("{why} (CI must run the PostgreSQL tests)");
                }
                eprintln!("skipping the PostgreSQL tests: {why}");
                return None;
            };
            // Started on a thread of its own: callers may be inside an async runtime.
            let started = std::thread::spawn(move || start(&bin)).join();
            match started {
                Ok(Ok(url)) => Some(url),
                Ok(Err(error)) => panic!("cannot start a throwaway PostgreSQL cluster: {error}"),
                Err(_) => panic!("starting the throwaway PostgreSQL cluster panicked"),
            }
        })
        .clone()
}

/// A fresh store in a schema of its own on the test cluster, boxed for the conformance suite;
/// `None` when the PostgreSQL tests are skipped.
pub fn postgres() -> Option<(Box<dyn EventStore>, Schema)> {
    let (store, schema) = postgres_store()?;
    Some((Box::new(store), schema))
}

/// [`postgres`] with the concrete type.
pub fn postgres_store() -> Option<(PostgresStore, Schema)> {
    let schema = Schema::fresh()?;
    let store = schema.connect().expect("connect a PostgresStore to the test cluster");
    Some((store, schema))
}

/// A schema of its own on the test cluster, dropped with everything in it when this is dropped.
#[derive(Debug)]
pub struct Schema {
    url: String,
    name: String,
}

impl Schema {
    /// A new, empty schema name (created by the first store that connects to it).
    pub fn fresh() -> Option<Self> {
        let url = postgres_url()?;
        Some(Self { url, name: format!("t_{}", uuid::Uuid::now_v7().simple()) })
    }

    /// The cluster's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The schema's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The options that put a store in this schema.
    pub fn options(&self) -> PostgresOptions {
        PostgresOptions { schema: Some(self.name.clone()), pool_size: 8, ..PostgresOptions::default() }
    }

    /// Another store on this schema (another "process" sharing the log).
    pub fn connect(&self) -> Result<PostgresStore, crate::StoreError> {
        PostgresStore::connect_with(&self.url, self.options())
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let sql = format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name);
        if let Err(error) = execute(&self.url, &sql) {
            eprintln!("could not drop test schema {}: {error}", self.name);
        }
    }
}

/// A database of its own on the test cluster (for whole servers under test), dropped with this.
#[derive(Debug)]
pub struct Database {
    url: String,
    admin_url: String,
    name: String,
}

impl Database {
    /// Create a new, empty database; `None` when the PostgreSQL tests are skipped.
    pub fn fresh() -> Option<Self> {
        let admin_url = postgres_url()?;
        let name = format!("t_{}", uuid::Uuid::now_v7().simple());
        execute(&admin_url, &format!("CREATE DATABASE \"{name}\"")).expect("create a test database");
        let url = match admin_url.rsplit_once('/') {
            Some((server, _)) => format!("{server}/{name}"),
            None => panic!("the test cluster's URL {admin_url} names no database"),
        };
        Some(Self { url, admin_url, name })
    }

    /// Its URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        if let Err(error) = execute(&self.admin_url, &sql) {
            eprintln!("could not drop test database {}: {error}", self.name);
        }
    }
}

/// Run `sql` on `url`, from a thread and runtime of its own (callers may be async).
pub fn execute(url: &str, sql: &str) -> Result<(), String> {
    let (url, sql) = (url.to_string(), sql.to_string());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        runtime.block_on(async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.map_err(describe)?;
            let driver = tokio::spawn(connection);
            let result = client.batch_execute(&sql).await.map_err(describe);
            drop(client);
            let _ = driver.await;
            result
        })
    })
    .join()
    .map_err(|_| "the SQL thread panicked".to_string())?
}

fn describe(error: tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => db.message().to_string(),
        None => error.to_string(),
    }
}

/// The directory holding `initdb` and `postgres`.
fn find_binaries() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).find(|dir| dir.join("initdb").is_file() && dir.join("postgres").is_file())
    });
    if on_path.is_some() {
        return on_path;
    }
    // Debian keeps the server outside PATH, one directory per major version: take the newest.
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn running_as_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// The arguments that run a command as the `postgres` user when this process is root.
fn run_as() -> Vec<String> {
    if running_as_root() {
        ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"].map(String::from).to_vec()
    } else {
        Vec::new()
    }
}

fn start(bin: &Path) -> Result<String, String> {
    let (dir, data) = init(bin)?;
    let port = free_port()?;
    serve(bin, &data, port, &dir, true)?;
    let url = format!("postgres://herald@127.0.0.1:{port}/postgres");
    wait_accepting(&url, &dir)?;
    eprintln!("throwaway PostgreSQL cluster at {url} (in {})", dir.display());
    Ok(url)
}

/// A new cluster in a temp dir of its own (handed to the `postgres` user as root): the dir and
/// its data directory.
fn init(bin: &Path) -> Result<(PathBuf, PathBuf), String> {
    let dir = std::env::temp_dir().join(format!("herald-pg-{}", uuid::Uuid::now_v7().simple()));
    std::fs::create_dir(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    let run_as = run_as();
    if !run_as.is_empty() {
        let status = Command::new("chown").arg("postgres:postgres").arg(&dir).status().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err("cannot hand the cluster directory to the postgres user (does it exist?)".into());
        }
    }
    let data = dir.join("data");
    let mut initdb = Command::new(run_as.first().map_or_else(|| bin.join("initdb").into_os_string(), Into::into));
    initdb.args(run_as.iter().skip(1));
    if !run_as.is_empty() {
        initdb.arg(bin.join("initdb"));
    }
    let output = initdb
        .arg("-D")
        .arg(&data)
        .args(["-U", "herald", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"])
        .output()
        .map_err(|e| format!("run initdb: {e}"))?;
    if !output.status.success() {
        return Err(format!("initdb failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok((dir, data))
}

/// Run the server of `data` on `port` under a keeper thread; with `remove`, the shell deletes
/// `dir` once the server has stopped (the shared cluster); without, it is left for a start again.
fn serve(bin: &Path, data: &Path, port: u16, dir: &Path, remove: bool) -> Result<(), String> {
    let run_as = run_as();
    // The keeper thread spawns the server and waits on it for ever: the kernel signals the shell
    // when this thread ends, that is when the process exits.
    let script = r#"
        $RUN "$1" -D "$2" -p "$3" -k "$4" -c listen_addresses=127.0.0.1 -c fsync=$DURABLE \
            -c full_page_writes=$DURABLE -c max_connections=400 -c shared_buffers=64MB >"$4/server.log" 2>&1 &
        pid=$!
        trap 'kill -INT "$pid" 2>/dev/null; wait "$pid"; [ -n "$REMOVE" ] && rm -rf "$4"; exit 0' TERM INT HUP
        wait "$pid"
        [ -n "$REMOVE" ] && rm -rf "$4"
    "#;
    let mut server = Command::new("setpriv");
    server
        .args(["--pdeathsig", "TERM", "--", "sh", "-c", script, "sh"])
        .arg(bin.join("postgres"))
        .arg(data)
        .arg(port.to_string())
        .arg(dir)
        .env("RUN", run_as.join(" "))
        .env("REMOVE", if remove { "1" } else { "" })
        .env("DURABLE", if std::env::var_os(DURABLE_VARIABLE).is_some() { "on" } else { "off" })
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let (spawned, outcome) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("postgres-keeper".into())
        .spawn(move || match server.spawn() {
            Ok(mut child) => {
                let _ = spawned.send(Ok(()));
                let _ = child.wait();
            }
            Err(error) => {
                let _ = spawned.send(Err(format!("start the server (setpriv from util-linux is needed): {error}")));
            }
        })
        .map_err(|e| e.to_string())?;
    outcome.recv().map_err(|e| e.to_string())?
}

/// Wait until the server at `url` answers (its log is in `dir`).
fn wait_accepting(url: &str, dir: &Path) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match execute(url, "SELECT 1") {
            Ok(()) => return Ok(()),
            Err(error) if Instant::now() > deadline => {
                let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
                return Err(format!("the server did not accept connections: {error}\n{log}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// How a test stops its own cluster (`pg_ctl stop -m …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopMode {
    /// `fast`: every session is ended (57P01 admin_shutdown), open transactions rolled back, a
    /// checkpoint written.
    Fast,
    /// `immediate`: the server quits at once, as in a crash; the next start recovers from WAL.
    Immediate,
}

/// A throwaway cluster of one test's own, which the test stops, starts again and whose
/// sessions it ends (fault tests: the shared cluster cannot be stopped under the other tests).
/// Deleted when dropped. Needs the server binaries even where `HERALD_TEST_POSTGRES_URL` is set.
#[derive(Debug)]
pub struct OwnCluster {
    bin: PathBuf,
    dir: PathBuf,
    data: PathBuf,
    port: u16,
    url: String,
}

impl OwnCluster {
    /// Start one; `None` (after saying why) when PostgreSQL is not installed and this is not CI.
    pub fn start() -> Option<Self> {
        let Some(bin) = find_binaries() else {
            let why = "PostgreSQL's server binaries (initdb, postgres, pg_ctl) were not found; \
                       install them with .ci/install-postgres";
            if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
                panic!("{why} (CI must run the PostgreSQL tests)");
            }
            eprintln!("skipping a PostgreSQL fault test: {why}");
            return None;
        };
        let started = std::thread::spawn(move || -> Result<Self, String> {
            let (dir, data) = init(&bin)?;
            let port = free_port()?;
            let url = format!("postgres://herald@127.0.0.1:{port}/postgres");
            let cluster = Self { bin, dir, data, port, url };
            cluster.start_again();
            Ok(cluster)
        })
        .join();
        match started {
            Ok(Ok(cluster)) => Some(cluster),
            Ok(Err(error)) => panic!("cannot start a PostgreSQL cluster of the test's own: {error}"),
            Err(_) => panic!("starting a PostgreSQL cluster of the test's own panicked"),
        }
    }

    /// The URL of its `postgres` database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// `pg_ctl stop -m <mode>`, waiting until the server is down. Blocking.
    pub fn stop(&self, mode: StopMode) {
        let mode = match mode {
            StopMode::Fast => "fast",
            StopMode::Immediate => "immediate",
        };
        let output = self
            .as_postgres(&self.bin.join("pg_ctl"))
            .arg("stop")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", mode, "-w", "-t", "60"])
            .output()
            .expect("run pg_ctl");
        assert!(output.status.success(), "pg_ctl stop -m {mode}: {}", String::from_utf8_lossy(&output.stderr));
    }

    /// Start the server again on the same port and data, waiting until it answers. Blocking.
    pub fn start_again(&self) {
        serve(&self.bin, &self.data, self.port, &self.dir, false).expect("start the server");
        wait_accepting(&self.url, &self.dir).expect("the server answers");
    }

    /// End every client session but this one (`pg_terminate_backend`); how many were ended.
    pub fn terminate_backends(&self) -> u64 {
        let url = self.url.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
            runtime.block_on(async move {
                let (client, connection) =
                    tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect to terminate");
                let driver = tokio::spawn(connection);
                let row = client
                    .query_one(
                        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity \
                         WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
                        &[],
                    )
                    .await
                    .expect("terminate the backends");
                drop(client);
                let _ = driver.await;
                u64::try_from(row.get::<_, i64>(0)).unwrap_or(0)
            })
        })
        .join()
        .expect("the terminating thread")
    }

    fn as_postgres(&self, program: &Path) -> Command {
        let run_as = run_as();
        let mut command = Command::new(run_as.first().map_or_else(|| program.as_os_str().to_owned(), Into::into));
        command.args(run_as.iter().skip(1));
        if !run_as.is_empty() {
            command.arg(program);
        }
        command.stdin(Stdio::null());
        command
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let _ = self
            .as_postgres(&self.bin.join("pg_ctl"))
            .arg("stop")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(|e| e.to_string())?;
    listener.local_addr().map(|address| address.port()).map_err(|e| e.to_string())
}
