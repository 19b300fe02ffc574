//! Log output: human lines by default, JSON lines by setting.
//!
//! Contract: installed once by the binary (tests do not install it). No
//! confidential value (payor names, receipts, amounts) may be logged anywhere
//! in the service; request logs carry method, route pattern, status, latency
//! and request id only.

use tracing_subscriber::{EnvFilter, fmt};

use crate::config::{LogFormat, Settings};

/// Install the global subscriber; a second call is a no-op.
pub fn init(settings: &Settings) {
    let filter =
        EnvFilter::try_new(&settings.log_filter).unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only on a terminal: log files and collectors get plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    let _ = match settings.log_format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
