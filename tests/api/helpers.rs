//! Test harness: the real application on port 0 against a fresh database.
//!
//! Each test gets its own database: a temporary SQLite file by default, or,
//! when `ROOMTAX_TEST_DATABASE_URL` names a PostgreSQL server, a freshly
//! created database on it, dropped when the test ends.

use diesel::{Connection, PgConnection, RunQueryDsl};
use roomtax::{
    app::{AppState, Application},
    config::{Secret, Settings},
};

/// The database a test runs against.
pub enum TestDb {
    Sqlite(#[allow(dead_code)] tempfile::TempDir, String),
    Postgres {
        server_url: String,
        name: String,
        url: String,
    },
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

impl TestDb {
    /// A new, empty database.
    pub fn create() -> Self {
        match postgres_server() {
            Some(server_url) => {
                let name = format!("roomtax_test_{}", uuid::Uuid::new_v4().simple());
                let mut admin = PgConnection::establish(&server_url)
                    .expect("ROOMTAX_TEST_DATABASE_URL must reach a PostgreSQL server");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .expect("create test database");
                let url = with_database(&server_url, &name);
                TestDb::Postgres {
                    server_url,
                    name,
                    url,
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

/// Settings for a test application on `db`.
pub fn test_settings(db: &TestDb) -> Settings {
    Settings {
        host: "127.0.0.1".into(),
        port: 0,
        database_url: Secret::new(db.url()),
        pool_size: 4,
        shutdown_timeout_secs: 5,
        ..Settings::default()
    }
}

/// A running application.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: AppState,
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
    pub async fn load_demo(&self) -> roomtax::demo::DemoReport {
        self.state
            .db
            .run(roomtax::demo::load)
            .await
            .expect("demo loads")
    }
}

/// Start the application on a fresh, empty (migrated) database.
pub async fn spawn_app() -> TestApp {
    let db = TestDb::create();
    let app = Application::build(&test_settings(&db)).expect("application builds");
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
        db,
    }
}

/// Start the application with the demo data loaded.
pub async fn spawn_demo_app() -> TestApp {
    let app = spawn_app().await;
    app.load_demo().await;
    app
}

/// Assert a response is a problem with this status and code; return the body.
pub async fn assert_problem(res: reqwest::Response, status: u16, code: &str) -> serde_json::Value {
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
    body
}
