//! Migration guardrails: both backends have the same migrations, and they
//! run up, down and up again.

use std::{collections::BTreeSet, path::Path};

use crate::helpers::spawn_app;

fn migration_names(backend: &str) -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend);
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            for file in ["up.sql", "down.sql"] {
                assert!(
                    entry.path().join(file).is_file(),
                    "{backend}/{name} lacks {file}"
                );
            }
            name
        })
        .collect()
}

#[test]
fn both_backends_have_the_same_migrations() {
    let sqlite = migration_names("sqlite");
    let postgres = migration_names("postgres");
    assert!(!sqlite.is_empty());
    assert_eq!(
        sqlite, postgres,
        "migrations/sqlite and migrations/postgres must hold the same migration names"
    );
}

#[actix_web::test]
async fn migrations_run_down_and_up_again() {
    let app = spawn_app().await;
    let mut conn = app.owner_conn();
    let down = roomtax::db::migrations::revert_all(&mut conn).expect("down");
    let up = roomtax::db::migrations::run(&mut conn).expect("up");
    assert_eq!(down, up);
    assert_eq!(migration_names("sqlite").len(), up);
    assert_eq!(app.get("/readyz").await.status(), 200);
}
