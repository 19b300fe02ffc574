//! Test harness: the real application on port 0 against a fresh database.
//!
//! Each test gets its own database: a temporary SQLite file by default, or,
//! when `ROOMTAX_TEST_DATABASE_URL` names a PostgreSQL server, a database
//! created on it from a migrated template and dropped when the test ends. The
//! template (`roomtax_tpl_<pid>_<random>`, so parallel test processes never
//! share one) is made once per test process, under a lock, by running the
//! migrations as the owner; it is dropped when the process exits.
//! A test that does not apply to the current backend calls [`skip`], which
//! reports it as skipped (see `main.rs`), never silently as a pass.

use diesel::{Connection, PgConnection, RunQueryDsl};
use roomtax::{
    app::{AppState, Application},
    config::{Secret, Settings},
    domain::clock::FixedClock,
};

/// The database a test runs against.
pub enum TestDb {
    Sqlite(#[allow(dead_code)] tempfile::TempDir, String),
    Postgres {
        server_url: String,
        name: String,
        /// The runtime role (neither owner nor superuser: row-level security binds it).
        url: String,
        /// The owner (the server URL's user), who runs migrations.
        owner_url: String,
    },
}

/// The runtime role tests connect as on PostgreSQL.
pub const TEST_APP_ROLE: &str = "roomtax_test_app";

/// Replace the user (and password) of a PostgreSQL URL.
pub fn with_user(url: &str, user: &str, password: &str) -> String {
    let scheme_end = url.find("://").map(|i| i + 3).unwrap_or(0);
    let rest = &url[scheme_end..];
    let host_part = rest.split_once('@').map(|(_, h)| h).unwrap_or(rest);
    format!("{}{user}:{password}@{host_part}", &url[..scheme_end])
}

fn ensure_app_role(admin: &mut PgConnection) {
    // Concurrent tests may race to create it: a duplicate is fine.
    let _ = diesel::sql_query(format!(
        "DO $$ BEGIN CREATE ROLE {TEST_APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '{TEST_APP_ROLE}'; \
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
    ))
    .execute(admin);
}

/// The PostgreSQL server URL tests should use, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("ROOMTAX_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// Replace the database name of a PostgreSQL URL.
pub fn with_database(server_url: &str, name: &str) -> String {
    let (base, query) = match server_url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server_url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// The migrated template this test process clones its PostgreSQL databases from.
struct Template {
    server_url: String,
    name: String,
}

static TEMPLATE: std::sync::Mutex<Option<Template>> = std::sync::Mutex::new(None);

/// Drop the template when the test process exits (libtest calls `exit`
/// after the last test, which runs `atexit` handlers).
extern "C" fn drop_template() {
    let taken = TEMPLATE.lock().ok().and_then(|mut t| t.take());
    if let Some(t) = taken
        && let Ok(mut admin) = PgConnection::establish(&t.server_url)
    {
        let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", t.name))
            .execute(&mut admin);
    }
}

unsafe extern "C" {
    fn atexit(cb: extern "C" fn()) -> std::os::raw::c_int;
}

/// The template's name, made (migrated, default privileges granted to the
/// runtime role) the first time it is asked for.
fn template(server_url: &str, admin: &mut PgConnection) -> String {
    let mut slot = TEMPLATE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = slot.as_ref() {
        return t.name.clone();
    }
    let name = format!(
        "roomtax_tpl_{}_{}",
        std::process::id(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(admin)
        .expect("create template database");
    ensure_app_role(admin);
    let owner_url = with_database(server_url, &name);
    let mut owner = PgConnection::establish(&owner_url).expect("connect to template database");
    diesel::sql_query(format!(
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public \
         GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {TEST_APP_ROLE}"
    ))
    .execute(&mut owner)
    .expect("default privileges");
    drop(owner);
    let mut conn = roomtax::db::Target::parse(&Secret::new(&owner_url))
        .and_then(|t| t.connect())
        .expect("owner connection to the template");
    roomtax::db::migrations::run(&mut conn).expect("migrate the template");
    drop(conn);
    // SAFETY: registers a plain function with no captured state.
    unsafe {
        atexit(drop_template);
    }
    *slot = Some(Template {
        server_url: server_url.to_owned(),
        name: name.clone(),
    });
    name
}

impl TestDb {
    /// A new database: a SQLite file, or a PostgreSQL clone of the migrated template.
    pub fn create() -> Self {
        match postgres_server() {
            Some(server_url) => {
                let name = format!("roomtax_test_{}", uuid::Uuid::new_v4().simple());
                let mut admin = PgConnection::establish(&server_url)
                    .expect("ROOMTAX_TEST_DATABASE_URL must reach a PostgreSQL server");
                let template = template(&server_url, &mut admin);
                // CREATE DATABASE ... TEMPLATE needs the template to have no other
                // session: parallel tests serialise on the lock for the copy only.
                {
                    let _copying = TEMPLATE.lock().unwrap_or_else(|e| e.into_inner());
                    diesel::sql_query(format!("CREATE DATABASE {name} TEMPLATE {template}"))
                        .execute(&mut admin)
                        .expect("create test database from the template");
                }
                let owner_url = with_database(&server_url, &name);
                let url = with_user(&owner_url, TEST_APP_ROLE, TEST_APP_ROLE);
                TestDb::Postgres {
                    server_url,
                    name,
                    url,
                    owner_url,
                }
            }
            None => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("roomtax.db").display());
                TestDb::Sqlite(dir, url)
            }
        }
    }

    /// The URL the application connects with.
    pub fn url(&self) -> &str {
        match self {
            TestDb::Sqlite(_, url) => url,
            TestDb::Postgres { url, .. } => url,
        }
    }

    /// `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self {
            TestDb::Sqlite(..) => "sqlite",
            TestDb::Postgres { .. } => "postgres",
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Postgres {
            server_url, name, ..
        } = self
            && let Ok(mut admin) = PgConnection::establish(server_url)
        {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut admin);
        }
    }
}

impl TestDb {
    /// The owner URL that runs migrations (PostgreSQL only).
    pub fn owner_url(&self) -> Option<&str> {
        match self {
            TestDb::Sqlite(..) => None,
            TestDb::Postgres { owner_url, .. } => Some(owner_url),
        }
    }
}

/// Settings for a test application on `db`, keys in `keys_dir`.
pub fn test_settings(db: &TestDb, keys_dir: &std::path::Path) -> Settings {
    Settings {
        host: "127.0.0.1".into(),
        port: 0,
        database_url: Secret::new(db.url()),
        migration_database_url: db.owner_url().map(Secret::new),
        pool_size: 4,
        shutdown_timeout_secs: 5,
        keys_dir: keys_dir.to_path_buf(),
        ..Settings::default()
    }
}

/// A running application.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: AppState,
    /// Demo accounts (after `spawn_demo_app`), with their passwords.
    pub accounts: Vec<roomtax::demo::DemoAccount>,
    pub settings: Settings,
    /// The application's clock when the test fixed it (`spawn_app_at`).
    pub clock: Option<std::sync::Arc<FixedClock>>,
    #[allow(dead_code)] // kept alive: the signing keys live there for the test's duration
    pub keys_dir: tempfile::TempDir,
    // Dropped last: the database outlives the server.
    pub db: TestDb,
}

impl TestApp {
    /// `address` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    /// GET a path.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request sent")
    }

    /// POST a JSON value to a path.
    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("request sent")
    }

    /// Load the demo data (what `roomtax demo` does).
    /// Load the whole demo, its money included (`roomtax demo`).
    pub async fn load_full_demo(&self) -> roomtax::demo::DemoReport {
        self.state
            .db
            .run(roomtax::demo::load)
            .await
            .expect("demo loads")
    }

    /// Load the demo without its money (the fixture most tests start from).
    pub async fn load_demo(&self) -> roomtax::demo::DemoReport {
        self.state
            .db
            .run(roomtax::demo::load_without_money)
            .await
            .expect("demo loads")
    }

    /// A connection as the schema owner (migrations; on SQLite, the file).
    pub fn owner_conn(&self) -> roomtax::db::DbConn {
        let url = self.db.owner_url().unwrap_or(self.db.url());
        roomtax::db::Target::parse(&Secret::new(url))
            .and_then(|t| t.connect())
            .expect("owner connection")
    }

    /// The demo password of `email`.
    pub fn password_of(&self, email: &str) -> String {
        self.accounts
            .iter()
            .find(|a| a.email == email)
            .unwrap_or_else(|| panic!("no demo account {email}"))
            .password
            .clone()
    }

    /// Sign in a demo account; returns the whole token response.
    pub async fn sign_in(&self, email: &str) -> serde_json::Value {
        let res = self
            .post_json(
                "/v1/auth/token",
                &serde_json::json!({"email": email, "password": self.password_of(email)}),
            )
            .await;
        assert_eq!(res.status(), 200, "sign-in of {email}");
        res.json().await.unwrap()
    }

    /// An access token for a demo account.
    pub async fn token(&self, email: &str) -> String {
        self.sign_in(email).await["access_token"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// GET with a bearer token.
    pub async fn get_as(&self, token: &str, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("request sent")
    }
}

/// Start the application on a fresh, empty (migrated) database.
pub async fn spawn_app() -> TestApp {
    spawn_with_clock(None).await
}

/// Start the application with its clock fixed at an RFC 3339 instant
/// (`"2026-05-01T04:30:00Z"`); [`TestApp::set_now`] moves it.
pub async fn spawn_app_at(instant: &str) -> TestApp {
    let clock = FixedClock::at(instant).expect("an RFC 3339 instant");
    spawn_with_clock(Some(std::sync::Arc::new(clock))).await
}

/// [`spawn_app_at`] with the demo data loaded.
pub async fn spawn_demo_app_at(instant: &str) -> TestApp {
    let mut app = spawn_app_at(instant).await;
    app.accounts = app.load_demo().await.accounts;
    app
}

async fn spawn_with_clock(clock: Option<std::sync::Arc<FixedClock>>) -> TestApp {
    let db = TestDb::create();
    let keys_dir = tempfile::tempdir().expect("keys dir");
    let settings = test_settings(&db, keys_dir.path());
    let app = match &clock {
        Some(c) => Application::build_with_clock(&settings, c.clone()),
        None => Application::build(&settings),
    }
    .expect("application builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let state = app.state().clone();
    actix_web::rt::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        state,
        accounts: Vec::new(),
        settings,
        clock,
        keys_dir,
        db,
    }
}

impl TestApp {
    /// Move the fixed clock to an RFC 3339 instant (the app must have been
    /// started with [`spawn_app_at`]).
    pub fn set_now(&self, instant: &str) {
        let at = chrono::DateTime::parse_from_rfc3339(instant)
            .expect("an RFC 3339 instant")
            .with_timezone(&chrono::Utc);
        self.clock
            .as_ref()
            .expect("started with spawn_app_at")
            .set(at);
    }
}

/// Start the application with the demo data loaded.
pub async fn spawn_demo_app() -> TestApp {
    let mut app = spawn_app().await;
    app.accounts = app.load_demo().await.accounts;
    app
}

/// [`spawn_app`] with the whole demo loaded, its money included (`serve --demo`).
pub async fn spawn_full_demo_app() -> TestApp {
    let mut app = spawn_app().await;
    app.accounts = app.load_full_demo().await.accounts;
    app
}

/// Assert a response is a problem with this status and code; return the body.
/// (Kept for the tests not yet converted; it is [`check::assert_problem`] without a field.)
pub async fn assert_problem(res: reqwest::Response, status: u16, code: &str) -> serde_json::Value {
    check::assert_problem(res, status, code, None).await
}

/// The one request builder: method, path, optional bearer, JSON body and headers.
pub struct Call<'a> {
    app: &'a TestApp,
    method: reqwest::Method,
    path: String,
    token: Option<String>,
    body: Option<serde_json::Value>,
    headers: Vec<(String, String)>,
}

impl TestApp {
    /// Start a request: `app.call(Method::PATCH, path).bearer(t).json(body).header("if-match", "\"1\"").send().await`.
    pub fn call(&self, method: reqwest::Method, path: &str) -> Call<'_> {
        Call {
            app: self,
            method,
            path: path.to_owned(),
            token: None,
            body: None,
            headers: Vec::new(),
        }
    }
}

impl Call<'_> {
    /// Send `Authorization: Bearer <token>`.
    pub fn bearer(self, token: &str) -> Self {
        self.maybe_bearer(Some(token))
    }

    /// Send a bearer token if there is one (`None`: anonymous).
    pub fn maybe_bearer(mut self, token: Option<&str>) -> Self {
        self.token = token.map(str::to_owned);
        self
    }

    /// Send this JSON body.
    pub fn json(mut self, body: serde_json::Value) -> Self {
        self.body = Some(body);
        self
    }

    /// Add a header (repeatable; the same name twice sends it twice).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Send it.
    pub async fn send(self) -> reqwest::Response {
        let mut req = self
            .app
            .client
            .request(self.method, self.app.url(&self.path));
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = &self.body {
            req = req.json(b);
        }
        for (name, value) in &self.headers {
            req = req.header(name, value);
        }
        req.send().await.expect("request sent")
    }
}

/// Assertions on responses.
pub mod check {
    /// Assert a response is an RFC 9457 problem with this status and stable
    /// code (`application/problem+json`, `type` `/problems/<code>`, the
    /// request id echoed) and, when `field` is given, that its `errors` name
    /// that field. Returns the body.
    pub async fn assert_problem(
        res: reqwest::Response,
        status: u16,
        code: &str,
        field: Option<&str>,
    ) -> serde_json::Value {
        assert_eq!(res.status().as_u16(), status, "status of {}", res.url());
        let ctype = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        assert!(
            ctype.starts_with("application/problem+json"),
            "content-type was {ctype:?}"
        );
        let request_id = res
            .headers()
            .get("x-request-id")
            .expect("x-request-id header")
            .to_str()
            .unwrap()
            .to_owned();
        let body: serde_json::Value = res.json().await.expect("problem body is JSON");
        assert_eq!(body["status"], status, "{body}");
        assert_eq!(body["code"], code, "{body}");
        assert_eq!(body["type"], format!("/problems/{code}"), "{body}");
        assert_eq!(body["request_id"], request_id, "{body}");
        assert!(
            body["title"].is_string() && body["detail"].is_string(),
            "{body}"
        );
        if let Some(field) = field {
            assert!(
                rule_of(&body, field).is_some(),
                "expected the problem to name `{field}`: {body}"
            );
        }
        body
    }

    /// The rule a problem's `errors` give for `field`, if it names it.
    pub fn rule_of(body: &serde_json::Value, field: &str) -> Option<String> {
        body["errors"]
            .as_array()?
            .iter()
            .find(|e| e["field"] == field)
            .and_then(|e| e["rule"].as_str().map(str::to_owned))
    }
}

/// Report the calling test as skipped on this backend and return `true`
/// (the test then returns at once). The line `SKIPPED: <test>: <reason>` goes
/// straight to the process's stderr (libtest captures only `print!`), and
/// `.ci/run` counts these lines as skipped, not passed.
pub fn skip(test: &str, reason: &str) -> bool {
    use std::io::Write;
    let line = format!("SKIPPED: {test}: {reason}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    true
}

/// Skip the calling test unless it runs on PostgreSQL.
pub fn skip_unless_postgres(db: &TestDb, test: &str) -> bool {
    db.backend() != "postgres" && skip(test, "needs PostgreSQL (row-level security, roles)")
}
