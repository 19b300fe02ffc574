//! Build the server from a [`Settings`] value; tests build their own.
//!
//! Contract: [`Application::build`] opens the database (reporting the
//! backend's own connection error), applies pending migrations, binds the
//! listener (port 0 picks a free one, see [`Application::port`]) and wires
//! middleware in one place: request id outermost, then the problem+json
//! catch-all, then the control-character rule for paths and query strings
//! ([`api::input_guard`]), then the routes.
//!
//! Shutdown: the server never installs signal handlers of its own (actix's
//! would only exist once the server future is first polled, after the workers
//! have started: a SIGTERM in the window between bind and then killed the
//! process with every queued connection). The binary installs
//! [`ShutdownSignals`] before it binds, and [`Application::serve`] stops on
//! them: no more accepting, in-flight requests finish (up to the shutdown
//! timeout), exit 0. [`Application::serve`] reports the bound address only once
//! the workers are up and the acceptor runs, so that line means "serving".

use std::{
    future::Future,
    net::{SocketAddr, TcpListener},
    pin::pin,
    sync::Arc,
    time::Duration,
};

use actix_http::{HttpService, KeepAlive, Protocol, error::DispatchError};
use actix_service::{IntoServiceFactory, ServiceFactoryExt, fn_service, map_config};
use actix_web::{
    App, HttpResponse,
    dev::{AppConfig, Server},
    http::header,
    middleware::{ErrorHandlers, from_fn},
    rt::net::TcpStream,
    web,
};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::{
    api,
    auth::{KeyRing, SignInThrottle, ThrottlePolicy, TokenIssuer, TokenVerifier},
    config::Settings,
    db::{self, Db, DbError, Target},
    domain::clock::{Clock, SystemClock},
    error::fallback::{self, RouteTable},
    head_guard::Guarded,
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
    /// The configured public address is `https://`: web portal cookies are `Secure`
    /// on every response (they are also when a request itself came over TLS).
    pub public_https: bool,
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
            public_https: settings
                .public_url
                .as_deref()
                .is_some_and(|u| u.trim().to_ascii_lowercase().starts_with("https://")),
        })
    }
}

/// Tune glibc's malloc for a long-running server. Two arenas: by default every
/// thread that allocates gets an arena of its own (up to eight per core), each
/// holding on to the memory it once used: the service's resident memory grew
/// with the number of blocking threads that ever ran a request
/// (bench/results/README.md); two keep two workers from contending on one
/// lock. And a fixed mmap threshold of 1 MiB: glibc's threshold otherwise
/// rises to the size of the largest block freed (up to 32 MiB), so after the
/// first sign-in every Argon2 buffer (19 MiB) came from an arena and stayed
/// resident when freed (20 sign-ins: 74 → 172 MiB; with the threshold fixed,
/// 76 MiB). Anywhere but glibc this does nothing.
pub fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called once at
    // startup, before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Shared state every handler reaches through `web::Data<AppState>`.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The database pool.
    pub db: Db,
    /// Tokens, keys and throttling.
    pub auth: Arc<AuthState>,
    /// What time it is: the system clock in production, a fixed one in tests.
    /// Filing and payment dates are its local (America/Chicago) date.
    pub clock: Arc<dyn Clock>,
    /// How long a claimed `Idempotency-Key` whose request died holds the key.
    pub idempotency_lease: chrono::TimeDelta,
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

/// SIGTERM and SIGINT, caught from the moment this value exists: a signal that
/// arrives before the server runs is kept and stops it as soon as it serves.
#[derive(Debug)]
pub struct ShutdownSignals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl ShutdownSignals {
    /// Replace the default action (the process dies) of SIGTERM and SIGINT.
    /// Call inside the runtime (the actix `System`), before binding.
    pub fn install() -> std::io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
        })
    }

    /// Wait for the first of them; its name.
    pub async fn recv(mut self) -> &'static str {
        tokio::select! {
            _ = self.term.recv() => "SIGTERM",
            _ = self.int.recv() => "SIGINT",
        }
    }
}

/// A bound, ready-to-run server.
pub struct Application {
    addr: SocketAddr,
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
        Self::build_with_clock(settings, Arc::new(SystemClock))
    }

    /// [`Application::build`] with another clock (tests fix the time with
    /// `domain::clock::FixedClock`).
    pub fn build_with_clock(
        settings: &Settings,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, StartError> {
        let applied = migrate(settings)?;
        {
            let mut conn = Target::parse(&settings.database_url)?.connect()?;
            db::rls::check_runtime_role(&mut conn).map_err(DbError::Setup)?;
            if db::rls::autovacuum_off(&mut conn) {
                tracing::warn!(
                    "PostgreSQL runs with autovacuum = off: the planner's statistics go stale \
                     and cached plans with them; turn it on, or run ANALYZE after bulk loads \
                     and regularly (README, \"PostgreSQL and docker compose\")"
                );
            }
        }
        let auth = Arc::new(AuthState::from_settings(settings)?);
        // The document is built once and kept only as its JSON (some 14 MiB
        // of utoipa's structures when each worker held a copy for Swagger UI).
        let spec = api::openapi();
        let route_table = web::Data::new(RouteTable::from_openapi(&spec));
        let spec_json =
            web::Bytes::from(serde_json::to_vec(&spec).expect("the OpenAPI document serialises"));
        drop(spec);
        // Bound only now, when the server is about to serve: the kernel accepts
        // connections from here on, and a client (or SIGTERM) must not meet a
        // process that is still migrating.
        let addr = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&addr).map_err(|source| StartError::Bind {
            addr: addr.clone(),
            source,
        })?;
        let bound = listener
            .local_addr()
            .map_err(|source| StartError::Bind { addr, source })?;
        let port = bound.port();
        let db = Db::open(&settings.database_url, settings.pool_size)?;
        tracing::info!(backend = db.backend(), applied, "database ready");
        let idempotency_lease = chrono::TimeDelta::seconds(
            i64::try_from(settings.idempotency_lease_secs).unwrap_or(i64::MAX),
        );
        let state = AppState {
            db,
            auth,
            clock,
            idempotency_lease,
        };

        let data = web::Data::new(state.clone());
        let make_app = move || {
            let spec_json = spec_json.clone();
            App::new()
                .app_data(data.clone())
                .app_data(route_table.clone())
                .configure(api::router)
                .route(
                    "/openapi.json",
                    web::get().to(move || {
                        let body = spec_json.clone();
                        async move {
                            HttpResponse::Ok()
                                .content_type(header::ContentType::json())
                                .body(body)
                        }
                    }),
                )
                .service(
                    SwaggerUi::new("/docs/{_:.*}")
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
                .configure(crate::web::routes)
                .default_service(web::to(fallback::default_service))
                .wrap(from_fn(api::input_guard::middleware))
                .wrap(ErrorHandlers::new().default_handler(fallback::catch_all))
                .wrap(from_fn(request_context::middleware))
        };
        // Served through `head_guard::Guarded`: a request head with a
        // control byte gets problem+json, not actix's bare 400.
        let builder = Server::build();
        // As actix-web's HttpServer does: a graceful stop tells each connection,
        // so an idle kept-alive one closes at once instead of holding the stop
        // until `shutdown_timeout`.
        let stopping = builder.graceful_shutdown_signal();
        let server = builder
            .listen("roomtax", listener, move || {
                let stopping = stopping.clone();
                let app = make_app()
                    .into_factory()
                    .map_err(|err: actix_web::Error| err.error_response());
                let http = HttpService::build()
                    .graceful_shutdown_signal(move || {
                        let stopping = stopping.clone();
                        async move { stopping.notified().await }
                    })
                    .keep_alive(KeepAlive::default())
                    .client_request_timeout(Duration::from_secs(30))
                    .client_disconnect_timeout(Duration::from_secs(1))
                    .local_addr(bound)
                    .finish(map_config(app, |_| AppConfig::default()));
                fn_service(|io: TcpStream| async move {
                    let peer = io.peer_addr().ok();
                    Ok::<_, DispatchError>((Guarded::new(io), Protocol::Http1, peer))
                })
                .and_then(http)
            })
            .map_err(|source| StartError::Bind {
                addr: format!("port {port}"),
                source,
            })?
            .disable_signals()
            .shutdown_timeout(settings.shutdown_timeout_secs)
            // Database work runs on each worker's blocking pool; more threads
            // than pooled connections only wait for one (and each thread that
            // ever ran grows the resident memory by its malloc arena), so the
            // pool is capped at the connections plus two instead of tokio's
            // 512 ÷ cores (bench/results/README.md: peak RSS).
            .worker_max_blocking_threads(settings.pool_size as usize + 2)
            .run();
        Ok(Self {
            addr: bound,
            port,
            server,
            state,
        })
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The shared state (tests use it to reach the database).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serve until stopped through the server handle (tests: until the runtime ends).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }

    /// Serve until one of `signals`, then stop gracefully. `on_serving` is called
    /// once with the bound address when the workers are up and connections are
    /// accepted (not called when the workers fail to start).
    pub async fn serve(
        self,
        signals: ShutdownSignals,
        on_serving: impl FnOnce(SocketAddr),
    ) -> std::io::Result<()> {
        let handle = self.server.handle();
        actix_web::rt::spawn(async move {
            let signal = signals.recv().await;
            tracing::info!(
                signal,
                "stopping: no new connections, in-flight requests finish"
            );
            handle.stop(true).await;
        });
        // The server's first poll starts the workers, waits until every one is
        // ready and starts the acceptor; it returns Pending once serving.
        let mut server = pin!(self.server);
        let mut on_serving = Some(on_serving);
        let addr = self.addr;
        std::future::poll_fn(|cx| {
            let polled = server.as_mut().poll(cx);
            if polled.is_pending()
                && let Some(report) = on_serving.take()
            {
                report(addr);
            }
            polled
        })
        .await
    }
}
