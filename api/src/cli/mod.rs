//! The `herald` command line.

mod verify;

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};

use crate::config::{LogFormat, Settings};
use crate::store::StoreLocation;

/// Herald: an event-sourced referee service for tabletop wargame campaigns.
#[derive(Debug, Parser)]
#[command(
    name = "herald",
    version,
    about = "Herald: an event-sourced referee service for tabletop wargame campaigns",
    // `herald --port 8080` serves; a subcommand takes its own options after its name.
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Server options (used by `serve` and when no subcommand is given).
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server (the default).
    Serve(ServeArgs),
    /// Print the OpenAPI document to stdout.
    Openapi,
    /// Replay a stream, a campaign with its battles, or every stream, and compare with the log.
    ///
    /// Re-runs every stored command and compares the events it produces with the stored ones.
    /// Exit status: 0 all verified (or partially: keys still sealed), 2 a stream differs, 1 one
    /// could not be verified.
    ///
    /// Without `--url` it opens the log itself (stop the server first: sled lets one process open
    /// it) and may use the sealed seeds like a judge; with `--url` it goes through a running
    /// server's API and sees what `--token` may see.
    #[command(group(clap::ArgGroup::new("what").required(true).args(["stream", "campaign", "all"])))]
    Verify {
        /// Where the event log is (without `--url`).
        #[command(flatten)]
        log: LogArgs,
        /// One stream, e.g. `battle-0193…` or `campaign-0193…`.
        stream: Option<String>,
        /// A campaign (its UUID or stream name) and every battle stream it announced.
        #[arg(long)]
        campaign: Option<String>,
        /// Every battle and campaign stream in the log.
        #[arg(long)]
        all: bool,
        /// Verify through a running server, e.g. `http://127.0.0.1:8080`, instead of opening the log.
        #[arg(long)]
        url: Option<String>,
        /// Bearer token for `--url` (a judge's verifies battles whose seed is still sealed).
        #[arg(long, env = "HERALD_TOKEN", hide_env_values = true)]
        token: Option<String>,
    },
    /// Bring a PostgreSQL log's schema up to this build's version (`serve` does it too) and exit.
    Migrate(LogArgs),
    /// Back up the whole log to a gzipped, checksummed NDJSON file.
    ///
    /// Every event of `$all`, every stored command and every secret: the backup of a sled log,
    /// and the way to move a log to PostgreSQL and back.
    ///
    /// Without `--url` it opens the log itself (stop the server first: sled lets one process open
    /// it; PostgreSQL any time); with `--url` a running server writes it (`GET /v1/export`, an
    /// admin token of the host in `--token` or `HERALD_TOKEN`) and the file's checksum is checked
    /// once it is here.
    Export {
        /// The file to write, e.g. `herald-2026-11-23.ndjson.gz`.
        file: PathBuf,
        /// Where the event log is (without `--url`).
        #[command(flatten)]
        log: LogArgs,
        /// Back up through a running server, e.g. `http://127.0.0.1:8080`.
        #[arg(long)]
        url: Option<String>,
        /// An admin token of the host, for `--url`.
        #[arg(long, env = "HERALD_TOKEN", hide_env_values = true)]
        token: Option<String>,
    },
    /// Restore an export into an empty log, then read it back and compare it with the file.
    Import {
        /// The file `herald export` wrote.
        file: PathBuf,
        /// The empty log to load it into.
        #[command(flatten)]
        log: LogArgs,
    },
    /// Fold the whole log into fresh read models and save them for the next start.
    ///
    /// Replaces what a server saved: after an upgrade that folds differently, or when the saved
    /// read models are in doubt. Stop the server first (sled lets one process open a log).
    Rebuild(LogArgs),
}

/// Where the event log is, each also settable by environment variable or config file.
#[derive(Debug, Clone, clap::Args)]
pub struct LogArgs {
    /// TOML config file (see deploy/herald.example.toml).
    #[arg(long, env = "HERALD_CONFIG")]
    pub config: Option<PathBuf>,
    /// Directory of the sled event log [default: ./data].
    #[arg(long, env = "HERALD_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// The event log when not sled in --data-dir: `postgres://user:password@host:port/database`
    /// (one database several instances share) or `sled:PATH`.
    #[arg(long, env = "HERALD_STORE", hide_env_values = true)]
    pub store: Option<String>,
}

impl LogArgs {
    /// Settings from defaults, the config file, then flags and environment.
    pub fn settings(&self) -> anyhow::Result<Settings> {
        let mut settings = match &self.config {
            Some(path) => Settings::from_file(path)?,
            None => Settings::default(),
        };
        if let Some(dir) = &self.data_dir {
            settings.data_dir = dir.clone();
        }
        if let Some(store) = &self.store {
            settings.store = Some(store.clone());
        }
        Ok(settings)
    }
}

/// Options of the server, each also settable by environment variable or config file.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Where the event log is.
    #[command(flatten)]
    pub log: LogArgs,
    /// Address to listen on [default: 127.0.0.1].
    #[arg(long, env = "HERALD_BIND")]
    pub bind: Option<std::net::IpAddr>,
    /// Port to listen on; 0 picks a free port [default: 8080].
    #[arg(long, env = "HERALD_PORT")]
    pub port: Option<u16>,
    /// Admin bearer token; generated and printed once on first start when unset.
    #[arg(long, env = "HERALD_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Log format.
    #[arg(long, env = "HERALD_LOG_FORMAT")]
    pub log_format: Option<LogFormat>,
    /// Live event streams open at once, in all [default: 512].
    #[arg(long, env = "HERALD_MAX_LIVE_READERS")]
    pub max_live_readers: Option<usize>,
    /// Who may read /metrics [default: public].
    #[arg(long, env = "HERALD_METRICS")]
    pub metrics: Option<crate::config::MetricsExposure>,
    /// An origin a browser app may call the API from (CORS), e.g. `https://maps.example.org`;
    /// repeat for several (comma-separated in the environment variable) [default: none].
    #[arg(long = "cors-origin", env = "HERALD_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// MiB the sled log leaves free on its disk; below it writes answer 507 [default: 64].
    #[arg(long, env = "HERALD_STORAGE_RESERVE_MB")]
    pub storage_reserve_mb: Option<u64>,
    /// MiB of the log's pages sled keeps in memory [default: 64].
    #[arg(long, env = "HERALD_STORE_CACHE_MB")]
    pub store_cache_mb: Option<u64>,
    /// MiB of rendered views kept for the next reader [default: 64].
    #[arg(long, env = "HERALD_VIEW_CACHE_MB")]
    pub view_cache_mb: Option<u64>,
    /// Allow webhook targets over plain http (docs/WEBHOOKS.md) [default: https only].
    #[arg(long, env = "HERALD_WEBHOOK_ALLOW_HTTP")]
    pub webhook_allow_http: bool,
    /// A webhook target host allowed over http and on private or loopback addresses; repeat for
    /// several (comma-separated in the environment variable) [default: none].
    #[arg(long = "webhook-allow-host", env = "HERALD_WEBHOOK_ALLOW_HOSTS", value_delimiter = ',')]
    pub webhook_allow_hosts: Vec<String>,
}

impl ServeArgs {
    /// Settings from defaults, the config file, then flags and environment.
    pub fn settings(&self) -> anyhow::Result<Settings> {
        let mut settings = self.log.settings()?;
        if let Some(bind) = self.bind {
            settings.bind = bind;
        }
        if let Some(port) = self.port {
            settings.port = port;
        }
        if let Some(token) = &self.admin_token {
            settings.admin_token = Some(token.clone());
        }
        if let Some(format) = self.log_format {
            settings.log_format = format;
        }
        if let Some(total) = self.max_live_readers {
            settings.live_readers.total = total;
        }
        if let Some(exposure) = self.metrics {
            settings.metrics = exposure;
        }
        if !self.cors_origins.is_empty() {
            settings.cors_origins = self.cors_origins.clone();
        }
        if let Some(reserve) = self.storage_reserve_mb {
            settings.storage_reserve_mb = reserve;
        }
        if let Some(store) = self.store_cache_mb {
            settings.caches.store_mb = store;
        }
        if let Some(views) = self.view_cache_mb {
            settings.caches.views_mb = views;
        }
        if self.webhook_allow_http {
            settings.webhooks.allow_http = true;
        }
        if !self.webhook_allow_hosts.is_empty() {
            settings.webhooks.allow_hosts = self.webhook_allow_hosts.clone();
        }
        Ok(settings)
    }
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => serve(&cli.serve),
        Some(Command::Serve(args)) => serve(&args),
        Some(Command::Openapi) => {
            println!("{}", crate::openapi::spec_json());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Verify { log, stream, campaign, all, url, token }) => {
            let target = match (stream, campaign, all) {
                (Some(stream), ..) => verify::Target::Stream(stream),
                (None, Some(campaign), _) => verify::Target::Campaign(campaign),
                (None, None, _) => verify::Target::All,
            };
            verify::run(&log, target, url.as_deref(), token.as_deref())
        }
        Some(Command::Migrate(log)) => migrate(&log),
        Some(Command::Export { file, url: Some(url), token, .. }) => download(&url, token.as_deref(), &file),
        Some(Command::Export { file, log, url: None, .. }) => move_log(&log, &file, true),
        Some(Command::Import { file, log }) => move_log(&log, &file, false),
        Some(Command::Rebuild(log)) => rebuild(&log),
    };
    result.unwrap_or_else(|error| {
        eprintln!("herald: {error:#}");
        ExitCode::FAILURE
    })
}

fn serve(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let settings = args.settings()?;
    crate::telemetry::init(settings.log_format, &settings.log_filter);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let app = crate::startup::Application::build(settings).await?;
        app.run_until_stopped().await
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Open the log the settings name for `what` (a subcommand), saying what to do when a running
/// server holds it.
fn open_store(args: &LogArgs, what: &str) -> anyhow::Result<std::sync::Arc<dyn herald_store::EventStore>> {
    let location = StoreLocation::from_settings(&args.settings()?)?;
    location.open().map_err(|error| {
        let locked = error
            .downcast_ref::<herald_store::StoreError>()
            .is_some_and(|error| matches!(error, herald_store::StoreError::Locked(_)));
        if locked {
            anyhow::anyhow!(
                "cannot open the event log {}: a running herald server holds it (sled lets one process open \
                 a log). Stop the server first, or go through it: `herald {what} --url http://HOST:PORT`",
                location.describe()
            )
        } else {
            anyhow::anyhow!("cannot open the event log {}: {error:#}", location.describe())
        }
    })
}

fn migrate(args: &LogArgs) -> anyhow::Result<ExitCode> {
    let location = StoreLocation::from_settings(&args.settings()?)?;
    let applied = location
        .migrate()
        .map_err(|error| anyhow::anyhow!("cannot migrate the event log {}: {error:#}", location.describe()))?;
    match applied.as_slice() {
        _ if matches!(location, StoreLocation::Sled(_)) => {
            println!("{}: a sled log has no schema to migrate", location.describe())
        }
        [] => println!("{}: schema up to date", location.describe()),
        versions => println!("{}: applied migrations {versions:?}", location.describe()),
    }
    Ok(ExitCode::SUCCESS)
}

/// `herald export --url`: a running server writes the export and it is downloaded beside `file`,
/// checked (checksum and structure), then moved into place, so a broken download never takes the
/// name of a backup.
fn download(url: &str, token: Option<&str>, file: &std::path::Path) -> anyhow::Result<ExitCode> {
    use anyhow::Context as _;
    let token = token.context("--url needs an admin token of the host: --token or HERALD_TOKEN")?;
    let address = format!("{}/v1/export", url.trim_end_matches('/'));
    let started = std::time::Instant::now();
    let mut response = reqwest::blocking::Client::builder()
        .timeout(None)
        .build()?
        .get(&address)
        .bearer_auth(token)
        .send()
        .with_context(|| format!("GET {address} (is the server running there?)"))?;
    if !response.status().is_success() {
        let status = response.status();
        let body: serde_json::Value = response.json().unwrap_or_default();
        anyhow::bail!("GET {address}: {status}: {}", body.get("detail").and_then(|d| d.as_str()).unwrap_or(""));
    }
    let directory = file.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mut partial = tempfile::NamedTempFile::new_in(directory)
        .with_context(|| format!("create a file in {}", directory.display()))?;
    let bar = indicatif::ProgressBar::new(response.content_length().unwrap_or(0));
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("export {bar:40} {bytes}/{total_bytes} ({bytes_per_sec})")
    {
        bar.set_style(style);
    }
    std::io::copy(&mut response, &mut bar.wrap_write(partial.as_file_mut())).context("download the export")?;
    bar.finish_and_clear();
    partial.as_file().sync_all()?;
    let counts = crate::archive::check(partial.path()).context("the downloaded export does not check out")?;
    partial.persist(file).with_context(|| format!("write {}", file.display()))?;
    println!(
        "exported {} events (the cut at $all position {}), {} commands, {} secrets ({url} -> {}) in {:.1} s; \
         checksum verified",
        counts.events,
        counts.position().map_or_else(|| "none: an empty log".into(), |position| position.to_string()),
        counts.commands,
        counts.secrets,
        file.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `herald rebuild`: fold the whole log into fresh read models, with a progress bar, and save
/// them where a server looks for them; nothing is saved when some events cannot be folded.
fn rebuild(args: &LogArgs) -> anyhow::Result<ExitCode> {
    let settings = args.settings()?;
    let location = StoreLocation::from_settings(&settings)?;
    let store = open_store(args, "rebuild")?;
    let started = std::time::Instant::now();
    let head = store.head_position()?.map_or(0, |position| position + 1);
    let bar = indicatif::ProgressBar::new(head);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("rebuild {bar:40} {pos}/{len} events ({per_sec}, {eta} left)")
    {
        bar.set_style(style);
    }
    let catalog = herald_projections::Catalog::new();
    catalog.catch_up_reporting(store.as_ref(), &mut |folded| bar.set_position(folded))?;
    bar.finish_and_clear();
    let undecodable = catalog.undecodable();
    if !undecodable.is_empty() {
        eprintln!(
            "herald: the read models cannot fold the events at positions {undecodable:?} (GET /readyz names them \
             too): nothing saved"
        );
        return Ok(ExitCode::FAILURE);
    }
    let dir = crate::snapshots::dir_for(&location, &settings.data_dir);
    crate::snapshots::Snapshots::new(dir.clone()).save(store.as_ref(), &catalog)?;
    println!(
        "folded {} events of {} streams in {:.1} s; read models saved in {}",
        catalog.folded(),
        catalog.streams().len(),
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `herald import` into a sled log, all or nothing: into a new log beside `dir`
/// (`.<name>.importing-<uuid>`), which takes `dir`'s name only once it is imported and verified.
/// A failure (a bad file, a full disk) removes it; a kill midway leaves it beside `dir`, which
/// stays as it was, and the next import removes it (one no process holds) and starts anew.
fn import_sled(dir: &std::path::Path, file: &std::path::Path) -> anyhow::Result<crate::archive::Counts> {
    use anyhow::Context as _;
    crate::archive::check(file)?;
    let empty = match std::fs::read_dir(dir) {
        Ok(mut entries) => entries.next().is_none(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => true,
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", dir.display())),
    };
    if !empty {
        // An existing log: the import itself says whether it is empty (and a running server holds it).
        let store = open_store_at(dir, "import")?;
        if let Some(head) = store.head_position()? {
            anyhow::bail!("the target log is not empty (its head is at {head}): import into a new one");
        }
        anyhow::bail!("{} is not empty: import into a new directory", dir.display());
    }
    let name = dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| "data".into());
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    remove_unfinished_imports(&parent, &name);
    let staging = parent.join(format!(".{name}.importing-{}", uuid::Uuid::now_v7()));
    let imported = (|| {
        let store = herald_store::SledStore::open(&staging)?;
        store.set_reserve(0);
        crate::archive::import(&store, file, true)
    })();
    let counts = match imported {
        Ok(counts) => counts,
        Err(error) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(error.context(format!("nothing was imported: {} is as it was", dir.display())));
        }
    };
    eprintln!("herald import: verified in {}; moving it into place", staging.display());
    if dir.exists() {
        std::fs::remove_dir(dir).with_context(|| format!("cannot replace the empty {}", dir.display()))?;
    }
    std::fs::rename(&staging, dir)
        .with_context(|| format!("cannot move the imported log {} to {}", staging.display(), dir.display()))?;
    Ok(counts)
}

/// Remove the staging logs killed imports into `parent/name` left (`.<name>.importing-*`); one
/// that a process holds (an import running now: sled lets one process open a log) is left be.
fn remove_unfinished_imports(parent: &std::path::Path, name: &str) {
    let prefix = format!(".{name}.importing-");
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(&prefix) {
            continue;
        }
        let path = entry.path();
        // Opening it takes sled's lock: it fails while another import holds it.
        match herald_store::SledStore::open(&path) {
            Ok(store) => drop(store),
            Err(herald_store::StoreError::Locked(_)) => continue,
            // Killed before sled wrote anything readable: nothing there worth keeping either.
            Err(_) => {}
        }
        match std::fs::remove_dir_all(&path) {
            Ok(()) => eprintln!("herald import: removed {}, left by an import that did not finish", path.display()),
            Err(error) => {
                eprintln!("herald import: cannot remove {} (an unfinished import's): {error}", path.display())
            }
        }
    }
}

/// `herald import` into a PostgreSQL log, all or nothing: into a staging schema beside the
/// target's (`herald_import_…`), read back and compared with the file there, then copied into the
/// target's tables in one transaction that drops the staging schema too
/// (`PostgresStore::take_staged_log`). Until that commits the target is as it was; a failure
/// drops the staging schema, a kill leaves it for the next import to drop.
fn import_postgres(url: &str, file: &std::path::Path) -> anyhow::Result<crate::archive::Counts> {
    use anyhow::Context as _;
    use herald_store::{EventStore as _, PostgresOptions, PostgresStore};
    crate::archive::check(file)?;
    let target = PostgresStore::connect(url).context("cannot connect to the target log")?;
    if let Some(head) = target.head_position()? {
        anyhow::bail!("the target log is not empty (its head is at {head}): import into a new one");
    }
    let (staging, leftovers) = target.new_staging_schema()?;
    if leftovers > 0 {
        eprintln!("herald import: dropped {leftovers} staging schema(s) left by imports that did not finish");
    }
    let imported = (|| {
        let store =
            PostgresStore::connect_with(url, PostgresOptions { schema: Some(staging.clone()), ..Default::default() })?;
        let counts = crate::archive::import(&store, file, true)?;
        drop(store);
        eprintln!("herald import: verified in staging schema {staging}; committing into the target");
        target.take_staged_log(&staging)?;
        Ok::<_, anyhow::Error>(counts)
    })();
    let counts = match imported {
        Ok(counts) => counts,
        Err(error) => {
            let _ = target.drop_staging_schema(&staging);
            return Err(error.context("nothing was imported: the target log is as it was"));
        }
    };
    eprintln!("herald import: committed");
    crate::archive::verify(&target, file, true).context("the committed log differs from the file")?;
    Ok(counts)
}

/// [`open_store`] for a sled log in `dir`.
fn open_store_at(dir: &std::path::Path, what: &str) -> anyhow::Result<std::sync::Arc<dyn herald_store::EventStore>> {
    use anyhow::Context as _;
    match herald_store::SledStore::open(dir) {
        Ok(store) => Ok(std::sync::Arc::new(store)),
        Err(herald_store::StoreError::Locked(_)) => anyhow::bail!(
            "cannot open the event log {}: a running herald server holds it. Stop the server first, or go through \
             it: `herald {what} --url http://HOST:PORT`",
            dir.display()
        ),
        Err(error) => Err(error).with_context(|| format!("cannot open the event log {}", dir.display())),
    }
}

/// `herald export` (`exporting`) or `herald import`.
fn move_log(args: &LogArgs, file: &std::path::Path, exporting: bool) -> anyhow::Result<ExitCode> {
    let location = StoreLocation::from_settings(&args.settings()?)?;
    let started = std::time::Instant::now();
    let (verb, counts) = match (&location, exporting) {
        (StoreLocation::Sled(dir), false) => ("imported and verified", import_sled(dir, file)?),
        (StoreLocation::Postgres(url), false) => ("imported and verified", import_postgres(url, file)?),
        (_, true) => {
            let store = open_store(args, "export")?;
            ("exported", crate::archive::export(store.as_ref(), file, true)?)
        }
    };
    println!(
        "{verb} {} events (up to $all position {}), {} commands, {} secrets ({} {} {}) in {:.1} s",
        counts.events,
        counts.position().map_or_else(|| "none: an empty log".into(), |position| position.to_string()),
        counts.commands,
        counts.secrets,
        location.describe(),
        if exporting { "->" } else { "<-" },
        file.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
