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
//!
//! The file is `--config FILE` or `ROOMTAX_CONFIG`; unknown keys are refused.

use std::{fmt, path::Path, str::FromStr};

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

impl FromStr for LogFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "human" => Ok(Self::Human),
            "json" => Ok(Self::Json),
            other => Err(format!("`{other}` is not a log format (human, json)")),
        }
    }
}

/// Everything the service needs to start.
#[derive(Clone, Debug)]
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
        }
    }
}

/// The keys a settings file may set; all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    host: Option<String>,
    port: Option<u16>,
    database_url: Option<Secret>,
    migration_database_url: Option<Secret>,
    pool_size: Option<u32>,
    log_format: Option<LogFormat>,
    log_filter: Option<String>,
    shutdown_timeout_secs: Option<u64>,
    keys_dir: Option<std::path::PathBuf>,
    token_issuer: Option<String>,
    token_audience: Option<String>,
    access_token_ttl_secs: Option<u64>,
    refresh_token_ttl_days: Option<u32>,
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

fn env_parse<T: FromStr>(
    env: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> Result<Option<T>, SettingsError>
where
    T::Err: fmt::Display,
{
    env(name)
        .map(|raw| {
            raw.parse::<T>().map_err(|e| SettingsError::Env {
                name: name.into(),
                message: e.to_string(),
            })
        })
        .transpose()
}

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
        let mut s = Self::default();
        let file = file
            .map(Path::to_path_buf)
            .or_else(|| env("ROOMTAX_CONFIG").map(Into::into));
        if let Some(path) = file {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(&path).map_err(|source| SettingsError::Read {
                path: shown.clone(),
                source,
            })?;
            let f: FileSettings = toml::from_str(&text).map_err(|e| SettingsError::Parse {
                path: shown,
                message: e.message().to_owned(),
            })?;
            s.apply_file(f);
        }
        s.apply_env(env)?;
        Ok(s)
    }

    fn apply_file(&mut self, f: FileSettings) {
        if let Some(v) = f.host {
            self.host = v;
        }
        if let Some(v) = f.port {
            self.port = v;
        }
        if let Some(v) = f.database_url {
            self.database_url = v;
        }
        if f.migration_database_url.is_some() {
            self.migration_database_url = f.migration_database_url;
        }
        if let Some(v) = f.pool_size {
            self.pool_size = v;
        }
        if let Some(v) = f.log_format {
            self.log_format = v;
        }
        if let Some(v) = f.log_filter {
            self.log_filter = v;
        }
        if let Some(v) = f.shutdown_timeout_secs {
            self.shutdown_timeout_secs = v;
        }
        if let Some(v) = f.keys_dir {
            self.keys_dir = v;
        }
        if let Some(v) = f.token_issuer {
            self.token_issuer = v;
        }
        if let Some(v) = f.token_audience {
            self.token_audience = v;
        }
        if let Some(v) = f.access_token_ttl_secs {
            self.access_token_ttl_secs = v;
        }
        if let Some(v) = f.refresh_token_ttl_days {
            self.refresh_token_ttl_days = v;
        }
    }

    fn apply_env(&mut self, env: &dyn Fn(&str) -> Option<String>) -> Result<(), SettingsError> {
        if let Some(v) = env("ROOMTAX_HOST") {
            self.host = v;
        }
        if let Some(v) = env_parse(env, "ROOMTAX_PORT")? {
            self.port = v;
        }
        if let Some(v) = env("ROOMTAX_DATABASE_URL").or_else(|| env("DATABASE_URL")) {
            self.database_url = Secret::new(v);
        }
        if let Some(v) = env("ROOMTAX_MIGRATION_DATABASE_URL") {
            self.migration_database_url = Some(Secret::new(v));
        }
        if let Some(v) = env_parse(env, "ROOMTAX_POOL_SIZE")? {
            self.pool_size = v;
        }
        if let Some(v) = env_parse(env, "ROOMTAX_LOG_FORMAT")? {
            self.log_format = v;
        }
        if let Some(v) = env("ROOMTAX_LOG").or_else(|| env("RUST_LOG")) {
            self.log_filter = v;
        }
        if let Some(v) = env_parse(env, "ROOMTAX_SHUTDOWN_TIMEOUT_SECS")? {
            self.shutdown_timeout_secs = v;
        }
        if let Some(v) = env("ROOMTAX_KEYS_DIR") {
            self.keys_dir = v.into();
        }
        if let Some(v) = env("ROOMTAX_TOKEN_ISSUER") {
            self.token_issuer = v;
        }
        if let Some(v) = env("ROOMTAX_TOKEN_AUDIENCE") {
            self.token_audience = v;
        }
        if let Some(v) = env_parse(env, "ROOMTAX_ACCESS_TOKEN_TTL_SECS")? {
            self.access_token_ttl_secs = v;
        }
        if let Some(v) = env_parse(env, "ROOMTAX_REFRESH_TOKEN_TTL_DAYS")? {
            self.refresh_token_ttl_days = v;
        }
        if !(60..=3600).contains(&self.access_token_ttl_secs) {
            return Err(SettingsError::Env {
                name: "ROOMTAX_ACCESS_TOKEN_TTL_SECS".into(),
                message: "access tokens live between 60 and 3600 seconds".into(),
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
}
