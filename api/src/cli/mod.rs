//! The `herald` command line.

mod verify;

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};

use crate::config::{LogFormat, Settings};
use crate::store::StoreLocation;

/// Herald: an event-sourced referee service for tabletop wargame campaigns.
#[derive(Debug, Parser)]
#[command(name = "herald", version, about = "Herald: an event-sourced referee service for tabletop wargame campaigns")]
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
    Serve,
    /// Print the OpenAPI document to stdout.
    Openapi,
    /// Re-run every stored command of a stream, of a campaign and its battles, or of every
    /// stream, and compare the events each produces with the stored ones. Exit status: 0 all
    /// verified (or partially: keys still sealed), 2 a stream differs, 1 one could not be verified.
    ///
    /// Without `--url` it opens the log itself (stop the server first: sled lets one process open
    /// it) and may use the sealed seeds like a judge; with `--url` it goes through a running
    /// server's API and sees what `--token` may see.
    #[command(group(clap::ArgGroup::new("what").required(true).args(["stream", "campaign", "all"])))]
    Verify {
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
    Migrate,
    /// Write the whole log (`$all`, commands, secrets) to a gzipped, checksummed NDJSON file:
    /// the backup of a sled log, and the way to move a log to PostgreSQL and back.
    Export {
        /// The file to write, e.g. `herald-2026-11-23.ndjson.gz`.
        file: PathBuf,
    },
    /// Load an export into an empty log (`--store` or `--data-dir`), then read it back and
    /// compare it with the file.
    Import {
        /// The file `herald export` wrote.
        file: PathBuf,
    },
}

/// Options of the server, each also settable by environment variable or config file.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// TOML config file (see deploy/herald.example.toml).
    #[arg(long, env = "HERALD_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// Directory of the sled event log [default: ./data].
    #[arg(long, env = "HERALD_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// The event log when not sled in --data-dir: `postgres://user:password@host:port/database`
    /// (one database several instances share) or `sled:PATH`.
    #[arg(long, env = "HERALD_STORE", hide_env_values = true, global = true)]
    pub store: Option<String>,
    /// Address to listen on [default: 127.0.0.1].
    #[arg(long, env = "HERALD_BIND", global = true)]
    pub bind: Option<std::net::IpAddr>,
    /// Port to listen on; 0 picks a free port [default: 8080].
    #[arg(long, env = "HERALD_PORT", global = true)]
    pub port: Option<u16>,
    /// Admin bearer token; generated and printed once on first start when unset.
    #[arg(long, env = "HERALD_ADMIN_TOKEN", hide_env_values = true, global = true)]
    pub admin_token: Option<String>,
    /// Log format.
    #[arg(long, env = "HERALD_LOG_FORMAT", global = true)]
    pub log_format: Option<LogFormat>,
    /// Live event streams open at once, in all [default: 512].
    #[arg(long, env = "HERALD_MAX_LIVE_READERS", global = true)]
    pub max_live_readers: Option<usize>,
    /// Who may read /metrics [default: public].
    #[arg(long, env = "HERALD_METRICS", global = true)]
    pub metrics: Option<crate::config::MetricsExposure>,
    /// An origin a browser app may call the API from (CORS), e.g. `https://maps.example.org`;
    /// repeat for several (comma-separated in the environment variable) [default: none].
    #[arg(long = "cors-origin", env = "HERALD_CORS_ORIGINS", value_delimiter = ',', global = true)]
    pub cors_origins: Vec<String>,
}

impl ServeArgs {
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
        Ok(settings)
    }
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&cli.serve),
        Command::Openapi => {
            println!("{}", crate::openapi::spec_json());
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { stream, campaign, all, url, token } => {
            let target = match (stream, campaign, all) {
                (Some(stream), ..) => verify::Target::Stream(stream),
                (None, Some(campaign), _) => verify::Target::Campaign(campaign),
                (None, None, _) => verify::Target::All,
            };
            verify::run(&cli.serve, target, url.as_deref(), token.as_deref())
        }
        Command::Migrate => migrate(&cli.serve),
        Command::Export { file } => move_log(&cli.serve, &file, true),
        Command::Import { file } => move_log(&cli.serve, &file, false),
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
fn open_store(args: &ServeArgs, what: &str) -> anyhow::Result<std::sync::Arc<dyn herald_store::EventStore>> {
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

fn migrate(args: &ServeArgs) -> anyhow::Result<ExitCode> {
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

/// `herald export` (`exporting`) or `herald import`.
fn move_log(args: &ServeArgs, file: &std::path::Path, exporting: bool) -> anyhow::Result<ExitCode> {
    let location = StoreLocation::from_settings(&args.settings()?)?;
    let store = open_store(args, if exporting { "export" } else { "import" })?;
    let started = std::time::Instant::now();
    let (verb, counts) = if exporting {
        ("exported", crate::archive::export(store.as_ref(), file, true)?)
    } else {
        ("imported and verified", crate::archive::import(store.as_ref(), file, true)?)
    };
    println!(
        "{verb} {} events, {} commands, {} secrets ({} {} {}) in {:.1} s",
        counts.events,
        counts.commands,
        counts.secrets,
        location.describe(),
        if exporting { "->" } else { "<-" },
        file.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
