//! Tracing set up once: pretty or JSON lines, filtered by `RUST_LOG` or the configured filter;
//! ANSI colours only when standard error is a terminal.

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// Install the global subscriber. Safe to call more than once (later calls do nothing).
pub fn init(format: LogFormat, filter: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(filter));
    // Colours only for a person at a terminal: a log file or a collector gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    let _ = match format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
