//! Layered settings: defaults, then an optional TOML file, then environment.
//!
//! Contract: the server is built from a [`Settings`] value passed in; nothing
//! reads configuration globally. Database URLs may carry passwords, so they
//! are [`Secret`]s whose `Debug` and `Display` never show the value.
//!
//! | setting | TOML key | environment |
//! | --- | --- | --- |
//! | listen address | `host` | `ROOMTAX_HOST` (default `127.0.0.1`) |
//! | listen port | `port` | `ROOMTAX_PORT` (default `8080`; `0` picks a free port) |
//! | database | `database_url` | `DATABASE_URL` or `ROOMTAX_DATABASE_URL` (default `sqlite://data/roomtax.db`) |
//! | migration role (PostgreSQL) | `migration_database_url` | `ROOMTAX_MIGRATION_DATABASE_URL` |
//! | pool size | `pool_size` | `ROOMTAX_POOL_SIZE` (default 8) |
//! | log format | `log_format` | `ROOMTAX_LOG_FORMAT` (`human` or `json`) |
//! | log filter | `log_filter` | `ROOMTAX_LOG` or `RUST_LOG` (default `info`) |
//! | graceful shutdown | `shutdown_timeout_secs` | `ROOMTAX_SHUTDOWN_TIMEOUT_SECS` (default 30) |
//! | signing keys folder | `keys_dir` | `ROOMTAX_KEYS_DIR` (default `data/keys`; a key is generated on first start) |
//! | token issuer (`iss`) | `token_issuer` | `ROOMTAX_TOKEN_ISSUER` (default `roomtax`) |
//! | token audience (`aud`) | `token_audience` | `ROOMTAX_TOKEN_AUDIENCE` (default `roomtax-api`) |
//! | access token lifetime | `access_token_ttl_secs` | `ROOMTAX_ACCESS_TOKEN_TTL_SECS` (default 900) |
//! | refresh token lifetime | `refresh_token_ttl_days` | `ROOMTAX_REFRESH_TOKEN_TTL_DAYS` (default 30) |
//! | idempotency lease | `idempotency_lease_secs` | `ROOMTAX_IDEMPOTENCY_LEASE_SECS` (default 300; 10 to 3600): how long a claim left in progress by a version before 2026-12-03 (which claimed in a transaction of its own) keeps its `Idempotency-Key` before a retry may take it over |
//! | public address | `public_url` | `ROOMTAX_PUBLIC_URL` (e.g. `https://roomtax.example.gov`; when it is `https://`, the web portal's cookies are `Secure`) |
//!
//! The file is `--config FILE` or `ROOMTAX_CONFIG`; unknown keys are refused.

use std::{fmt, path::Path};

use serde::Deserialize;

/// A value that must never be printed (a URL with a password, a key).
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wrap a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    /// The secret itself; call only where it is used, never to log it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Readable lines for a terminal.
    Human,
    /// One JSON object per line for log collectors.
    Json,
}

/// Everything the service needs to start. A settings file is this struct in
/// TOML (every key optional: [`Default`] fills the rest; unknown keys are refused).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Address to listen on.
    pub host: String,
    /// Port to listen on (0: any free port).
    pub port: u16,
    /// `sqlite://PATH` or `postgres://...`.
    pub database_url: Secret,
    /// PostgreSQL only: the owner role that runs migrations (the runtime role may not).
    pub migration_database_url: Option<Secret>,
    /// Maximum pooled connections.
    pub pool_size: u32,
    /// Log line format.
    pub log_format: LogFormat,
    /// tracing-subscriber filter directive.
    pub log_filter: String,
    /// Seconds in-flight requests get to finish after SIGTERM.
    pub shutdown_timeout_secs: u64,
    /// Folder of the Ed25519 signing keys (`signing-current.pem`, `signing-previous-*.pem`).
    pub keys_dir: std::path::PathBuf,
    /// `iss` of the access tokens this service issues and accepts.
    pub token_issuer: String,
    /// `aud` of the access tokens this service issues and accepts.
    pub token_audience: String,
    /// Access token lifetime in seconds.
    pub access_token_ttl_secs: u64,
    /// Refresh token lifetime in days.
    pub refresh_token_ttl_days: u32,
    /// Seconds a claimed `Idempotency-Key` whose request died stays in progress
    /// before a retry with the key may take it over.
    pub idempotency_lease_secs: u64,
    /// The address people reach the service at (behind a TLS proxy: its
    /// `https://` URL). An `https://` address makes the web portal's cookies
    /// `Secure` even when the proxy speaks plain HTTP to the service.
    pub public_url: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 8080,
            database_url: Secret::new("sqlite://data/roomtax.db"),
            migration_database_url: None,
            pool_size: 8,
            log_format: LogFormat::Human,
            log_filter: "info".into(),
            shutdown_timeout_secs: 30,
            keys_dir: "data/keys".into(),
            token_issuer: "roomtax".into(),
            token_audience: "roomtax-api".into(),
            access_token_ttl_secs: 900,
            refresh_token_ttl_days: 30,
            idempotency_lease_secs: 60 * crate::domain::idempotency::LEASE_MINUTES as u64,
            public_url: None,
        }
    }
}

/// Why settings could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The file could not be read.
    #[error("cannot read settings file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// The file is not valid settings TOML.
    #[error("invalid settings file {path}: {message}")]
    Parse { path: String, message: String },
    /// An environment variable has an unusable value.
    #[error("invalid environment variable {name}: {message}")]
    Env { name: String, message: String },
}

/// The environment layer: each setting's TOML key and the variables that set
/// it, the first one set winning (see the table in the module docs).
const ENV: &[(&str, &[&str])] = &[
    ("host", &["ROOMTAX_HOST"]),
    ("port", &["ROOMTAX_PORT"]),
    ("database_url", &["ROOMTAX_DATABASE_URL", "DATABASE_URL"]),
    (
        "migration_database_url",
        &["ROOMTAX_MIGRATION_DATABASE_URL"],
    ),
    ("pool_size", &["ROOMTAX_POOL_SIZE"]),
    ("log_format", &["ROOMTAX_LOG_FORMAT"]),
    ("log_filter", &["ROOMTAX_LOG", "RUST_LOG"]),
    ("shutdown_timeout_secs", &["ROOMTAX_SHUTDOWN_TIMEOUT_SECS"]),
    ("keys_dir", &["ROOMTAX_KEYS_DIR"]),
    ("token_issuer", &["ROOMTAX_TOKEN_ISSUER"]),
    ("token_audience", &["ROOMTAX_TOKEN_AUDIENCE"]),
    ("access_token_ttl_secs", &["ROOMTAX_ACCESS_TOKEN_TTL_SECS"]),
    (
        "refresh_token_ttl_days",
        &["ROOMTAX_REFRESH_TOKEN_TTL_DAYS"],
    ),
    (
        "idempotency_lease_secs",
        &["ROOMTAX_IDEMPOTENCY_LEASE_SECS"],
    ),
    ("public_url", &["ROOMTAX_PUBLIC_URL"]),
];

impl Settings {
    /// Load defaults, then `file` (if any), then the process environment.
    pub fn load(file: Option<&Path>) -> Result<Self, SettingsError> {
        Self::load_with(file, &|name| std::env::var(name).ok())
    }

    /// As [`Settings::load`], with the environment supplied (for tests).
    pub fn load_with(
        file: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, SettingsError> {
        let file = file
            .map(Path::to_path_buf)
            .or_else(|| env("ROOMTAX_CONFIG").map(Into::into));
        let mut layers = match file {
            Some(path) => file_layer(&path)?,
            None => toml::Table::new(),
        };
        for (key, names) in ENV {
            let Some((name, raw)) = names.iter().find_map(|n| env(n).map(|v| (*n, v))) else {
                continue;
            };
            let value = env_value(key, raw).map_err(|message| SettingsError::Env {
                name: name.into(),
                message,
            })?;
            layers.insert((*key).into(), value);
        }
        let s = from_table(layers).map_err(|message| SettingsError::Env {
            name: "ROOMTAX_*".into(),
            message,
        })?;
        s.check()?;
        Ok(s)
    }

    /// The rules across values of any layer.
    fn check(&self) -> Result<(), SettingsError> {
        if !(60..=3600).contains(&self.access_token_ttl_secs) {
            return Err(SettingsError::Env {
                name: "ROOMTAX_ACCESS_TOKEN_TTL_SECS".into(),
                message: "access tokens live between 60 and 3600 seconds".into(),
            });
        }
        if !crate::domain::idempotency::LEASE_SECS_RANGE.contains(&self.idempotency_lease_secs) {
            return Err(SettingsError::Env {
                name: "ROOMTAX_IDEMPOTENCY_LEASE_SECS".into(),
                message: "an idempotency lease lasts between 10 and 3600 seconds".into(),
            });
        }
        if self.pool_size == 0 {
            return Err(SettingsError::Env {
                name: "ROOMTAX_POOL_SIZE".into(),
                message: "must be at least 1".into(),
            });
        }
        Ok(())
    }
}

/// Settings from TOML keys (the defaults for every key not given).
fn from_table(table: toml::Table) -> Result<Settings, String> {
    Settings::deserialize(toml::Value::Table(table)).map_err(|e| e.to_string())
}

/// The settings file's keys, each checked against its setting.
fn file_layer(path: &Path) -> Result<toml::Table, SettingsError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| SettingsError::Read {
        path: shown.clone(),
        source,
    })?;
    let parse_error = |message: String| SettingsError::Parse {
        path: shown.clone(),
        message,
    };
    let table: toml::Table = toml::from_str(&text).map_err(|e| parse_error(e.message().into()))?;
    from_table(table.clone()).map_err(parse_error)?;
    Ok(table)
}

/// An environment value as the TOML value of setting `key`: text, or a
/// number where the setting is one; refused (with the reason) when it fits
/// neither.
fn env_value(key: &str, raw: String) -> Result<toml::Value, String> {
    let alone =
        |value: &toml::Value| from_table(toml::Table::from_iter([(key.to_owned(), value.clone())]));
    let text = toml::Value::String(raw);
    if alone(&text).is_ok() {
        return Ok(text);
    }
    let number = text
        .as_str()
        .and_then(|t| t.parse::<i64>().ok())
        .map(toml::Value::Integer);
    match number {
        Some(n) => alone(&n).map(|_| n),
        None => alone(&text).map(|_| text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn layers_apply_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("roomtax.toml");
        std::fs::write(
            &file,
            "port = 9000\nhost = \"0.0.0.0\"\nlog_format = \"json\"\n",
        )
        .unwrap();
        let env: HashMap<&str, &str> = [
            ("ROOMTAX_PORT", "9100"),
            ("DATABASE_URL", "postgres://u:hunter2@db/x"),
        ]
        .into();
        let s = Settings::load_with(Some(&file), &|k| env.get(k).map(|v| v.to_string())).unwrap();
        assert_eq!(s.port, 9100, "environment beats file");
        assert_eq!(s.host, "0.0.0.0", "file beats default");
        assert_eq!(s.log_format, LogFormat::Json);
        assert_eq!(s.database_url.expose(), "postgres://u:hunter2@db/x");
        assert!(
            !format!("{s:?}").contains("hunter2"),
            "Debug must not print secrets"
        );
    }

    #[test]
    fn environment_values_take_the_settings_types() {
        let env: HashMap<&str, &str> = [
            ("ROOMTAX_DATABASE_URL", "sqlite://first.db"),
            ("DATABASE_URL", "sqlite://second.db"),
            ("ROOMTAX_TOKEN_ISSUER", "123"),
            ("ROOMTAX_POOL_SIZE", "3"),
            ("ROOMTAX_MIGRATION_DATABASE_URL", "postgres://owner@db/x"),
        ]
        .into();
        let s = Settings::load_with(None, &|k| env.get(k).map(|v| v.to_string())).unwrap();
        assert_eq!(s.database_url.expose(), "sqlite://first.db");
        assert_eq!(s.token_issuer, "123", "a number-like text stays text");
        assert_eq!(s.pool_size, 3);
        assert!(s.migration_database_url.is_some());
        let err = Settings::load_with(None, &|k| (k == "ROOMTAX_PORT").then(|| "70000".into()))
            .unwrap_err();
        assert!(err.to_string().contains("ROOMTAX_PORT"), "{err}");
    }

    #[test]
    fn bad_values_are_named() {
        let err = Settings::load_with(None, &|k| (k == "ROOMTAX_PORT").then(|| "eighty".into()))
            .unwrap_err();
        assert!(err.to_string().contains("ROOMTAX_PORT"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, "prot = 1\n").unwrap();
        let err = Settings::load_with(Some(&file), &|_| None).unwrap_err();
        assert!(err.to_string().contains("prot"), "{err}");
    }

    #[test]
    fn the_idempotency_lease_defaults_to_five_minutes_and_is_bounded() {
        let s = Settings::load_with(None, &|_| None).unwrap();
        assert_eq!(s.idempotency_lease_secs, 300);
        let lease = |v: &'static str| {
            Settings::load_with(None, &move |k| {
                (k == "ROOMTAX_IDEMPOTENCY_LEASE_SECS").then(|| v.to_string())
            })
        };
        assert_eq!(lease("20").unwrap().idempotency_lease_secs, 20);
        for bad in ["9", "3601", "0"] {
            let err = lease(bad).unwrap_err();
            assert!(
                err.to_string().contains("ROOMTAX_IDEMPOTENCY_LEASE_SECS"),
                "{bad}: {err}"
            );
        }
    }
}
