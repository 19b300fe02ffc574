//! Build the server from a [`Settings`] value; tests build their own.
//!
//! Contract: [`Application::build`] opens the database (reporting the
//! backend's own connection error), applies pending migrations, binds the
//! listener (port 0 picks a free one, see [`Application::port`]) and wires
//! middleware in one place: request id outermost, then the problem+json
//! catch-all, then the control-character rule for paths and query strings
//! ([`api::input_guard`]), then the routes. `run` serves until SIGTERM/SIGINT, then stops
//! accepting and lets in-flight requests finish (up to the shutdown timeout).

use std::{net::TcpListener, sync::Arc, time::Duration};

use actix_web::{
    App, HttpResponse, HttpServer,
    dev::Server,
    http::header,
    middleware::{ErrorHandlers, from_fn},
    web,
};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::{
    api,
    auth::{KeyRing, SignInThrottle, ThrottlePolicy, TokenIssuer, TokenVerifier},
    config::Settings,
    db::{self, Db, DbError, Target},
    error::fallback::{self, RouteTable},
    request_context,
};

/// Token issuing and checking, built once at start.
pub struct AuthState {
    /// Signs access tokens with the current key.
    pub issuer: TokenIssuer,
    /// Checks access tokens against every key of the ring.
    pub verifier: TokenVerifier,
    /// The signing keys (published at `/.well-known/jwks.json`).
    pub keys: Arc<KeyRing>,
    /// Failed sign-in throttle (in memory, per process).
    pub throttle: SignInThrottle,
    /// Refresh token lifetime.
    pub refresh_ttl: chrono::Duration,
}

impl std::fmt::Debug for AuthState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthState").finish_non_exhaustive()
    }
}

impl AuthState {
    /// Build from settings: load (or, the first time, generate) the signing keys.
    pub fn from_settings(settings: &Settings) -> Result<Self, StartError> {
        // Previous keys retired longer ago than a token lives can verify nothing: drop them.
        let retention = Duration::from_secs(settings.access_token_ttl_secs + 60);
        let keys_error = |e: crate::auth::KeyError| StartError::Keys(e.to_string());
        if settings.keys_dir.join("signing-current.pem").exists() {
            KeyRing::prune_previous(
                &settings.keys_dir,
                chrono::Utc::now().timestamp(),
                retention,
            )
            .map_err(keys_error)?;
        }
        let keys = Arc::new(KeyRing::load_or_generate(&settings.keys_dir).map_err(keys_error)?);
        let issuer = TokenIssuer::new(
            keys.clone(),
            &settings.token_issuer,
            &settings.token_audience,
        )
        .with_ttl(Duration::from_secs(settings.access_token_ttl_secs));
        // Build the dummy hash now, so the first unknown-email sign-in costs no more than others.
        crate::auth::verify_against_dummy("warm-up");
        Ok(Self {
            verifier: issuer.verifier(),
            issuer,
            keys,
            throttle: SignInThrottle::new(ThrottlePolicy::PER_ACCOUNT, ThrottlePolicy::PER_ADDRESS),
            refresh_ttl: chrono::Duration::days(i64::from(settings.refresh_token_ttl_days)),
        })
    }
}

/// Shared state every handler reaches through `web::Data<AppState>`.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The database pool.
    pub db: Db,
    /// Tokens, keys and throttling.
    pub auth: Arc<AuthState>,
}

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Database unreachable or migrations failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The signing keys could not be loaded or created.
    #[error("signing keys: {0}")]
    Keys(String),
    /// The listener could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
}

/// Apply pending migrations, through the migration role when one is configured.
pub fn migrate(settings: &Settings) -> Result<usize, DbError> {
    let url = settings
        .migration_database_url
        .as_ref()
        .unwrap_or(&settings.database_url);
    let mut conn = Target::parse(url)?.connect()?;
    db::migrations::run(&mut conn)
}

/// A bound, ready-to-run server.
pub struct Application {
    port: u16,
    server: Server,
    state: AppState,
}

impl Application {
    /// Open the database, migrate, bind and wire the server.
    ///
    /// Every check that can refuse the start runs before the connection pool
    /// exists: the pool's worker threads open connections in the background
    /// (r2d2 fills `min_idle` asynchronously), and a refusal that returned while
    /// one of them was still inside libpq or SQLite let the process exit under
    /// that thread (C library teardown racing it: the exit 139 segfault). So
    /// migrations run and the runtime role is checked on plain connections that
    /// are closed again, the signing keys are loaded, the port is bound, and only
    /// then is the pool opened; nothing after it can fail.
    pub fn build(settings: &Settings) -> Result<Self, StartError> {
        let applied = migrate(settings)?;
        {
            let mut conn = Target::parse(&settings.database_url)?.connect()?;
            db::rls::check_runtime_role(&mut conn).map_err(DbError::Setup)?;
        }
        let auth = Arc::new(AuthState::from_settings(settings)?);
        let spec = Arc::new(api::openapi());
        let route_table = web::Data::new(RouteTable::from_openapi(&spec));
        // Bound only now, when the server is about to serve: the kernel accepts
        // connections from here on, and a client (or SIGTERM) must not meet a
        // process that is still migrating.
        let addr = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&addr).map_err(|source| StartError::Bind {
            addr: addr.clone(),
            source,
        })?;
        let port = listener
            .local_addr()
            .map_err(|source| StartError::Bind { addr, source })?
            .port();
        let db = Db::open(&settings.database_url, settings.pool_size)?;
        tracing::info!(backend = db.backend(), applied, "database ready");
        let state = AppState { db, auth };

        let data = web::Data::new(state.clone());
        let server = HttpServer::new(move || {
            App::new()
                .into_utoipa_app()
                .app_data(data.clone())
                .app_data(route_table.clone())
                .configure(api::routes)
                .into_app()
                .service(
                    SwaggerUi::new("/docs/{_:.*}")
                        .url("/openapi.json", (*spec).clone())
                        // No call to swagger.io's online validator: the page works offline.
                        .config(Config::new(["/openapi.json"]).validator_url("none")),
                )
                .route(
                    "/docs",
                    web::get().to(|| async {
                        HttpResponse::PermanentRedirect()
                            .insert_header((header::LOCATION, "/docs/"))
                            .finish()
                    }),
                )
                .default_service(web::to(fallback::default_service))
                .wrap(from_fn(api::input_guard::middleware))
                .wrap(ErrorHandlers::new().default_handler(fallback::catch_all))
                .wrap(from_fn(request_context::middleware))
        })
        .listen(listener)
        .map_err(|source| StartError::Bind {
            addr: format!("port {port}"),
            source,
        })?
        .shutdown_timeout(settings.shutdown_timeout_secs)
        .client_request_timeout(Duration::from_secs(30))
        .run();
        Ok(Self {
            port,
            server,
            state,
        })
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The shared state (tests use it to reach the database).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serve until stopped.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
