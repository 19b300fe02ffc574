//! A unit of work reads a payor's returns and their versions once
//! (`db::returns::of_payor`, `version_summaries_of_payor`, remembered in
//! `db::unit`): a filing that applies credit read them twice. What the unit
//! writes through `db::returns::insert` and `insert_version` is added to what
//! it remembers. On PostgreSQL, whose statements each see what others
//! committed before them, nothing is remembered until the unit holds the
//! payor's lock; on SQLite a unit reads one snapshot and remembers at once.
//! Rows written past `db::returns` (a bare insert) show which reads went to
//! the database.

use chrono::{NaiveDate, Utc};
use diesel::{QueryableByName, RunQueryDsl, sql_types::BigInt, sql_types::Text};
use roomtax::db::{
    DbConn, Mode, in_transaction_in, insert_row, payments,
    returns::{self, ReturnRow, VersionRow},
    rls,
    schema::tax_returns,
};
use roomtax::tenancy::{DbScope, Tenant};

use crate::helpers::spawn_demo_app;

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName)]
struct PayorId {
    #[diesel(sql_type = Text)]
    id: String,
}

fn header(municipality_id: i64, payor_id: &str, period: &str) -> ReturnRow {
    ReturnRow {
        municipality_id,
        id: format!("unit-memo-{period}"),
        payor_id: payor_id.to_owned(),
        period: period.to_owned(),
        kind: "quarterly".into(),
        created_at: Utc::now().naive_utc(),
    }
}

fn version(header: &ReturnRow) -> VersionRow {
    let day = NaiveDate::from_ymd_opt(2031, 10, 31).expect("a date");
    VersionRow {
        municipality_id: header.municipality_id,
        return_id: header.id.clone(),
        version: 1,
        source: "filed".into(),
        filed_on: day,
        received_on: None,
        entered_by: "user:unit-memo".into(),
        entered_as: "staff".into(),
        gross_receipts_cents: 100_000,
        exempt_receipts_cents: 0,
        tax_cents: 4_500,
        amount_due_cents: 4_500,
        policy_version: NaiveDate::from_ymd_opt(2020, 1, 1).expect("a date"),
        filing: "{}".into(),
        assessment: "{}".into(),
        created_at: Utc::now().naive_utc(),
        due_date: day,
        filing_due_date: day,
    }
}

#[actix_web::test]
async fn a_unit_reads_a_payors_returns_once_and_adds_what_it_writes() {
    let app = spawn_demo_app().await;
    let postgres = app.db.backend() == "postgres";
    let mut conn = app.owner_conn();
    let montello = diesel::sql_query("SELECT id FROM municipalities WHERE slug = 'montello'")
        .get_result::<Id>(&mut conn)
        .expect("montello")
        .id;
    in_transaction_in(&mut conn, Mode::Write, |conn: &mut DbConn| {
        rls::apply(conn, &DbScope::tenant(Tenant::Municipality(montello)))?;
        let payor = diesel::sql_query(format!(
            "SELECT id FROM payors WHERE municipality_id = {montello} ORDER BY id LIMIT 1"
        ))
        .get_result::<PayorId>(conn)?
        .id;
        let bare = |conn: &mut DbConn, period: &str| {
            insert_row(conn, tax_returns::table, header(montello, &payor, period))
        };

        let before = returns::of_payor(conn, montello, &payor)?;
        bare(conn, "2031-Q1")?;
        let again = returns::of_payor(conn, montello, &payor)?.len();
        if postgres {
            assert_eq!(again, before.len() + 1, "PostgreSQL, no lock: read again");
        } else {
            assert_eq!(
                again,
                before.len(),
                "SQLite: remembered from the first read"
            );
        }

        payments::lock_payor(conn, montello, &payor)?;
        let locked = returns::of_payor(conn, montello, &payor)?;
        bare(conn, "2031-Q2")?;
        assert_eq!(
            returns::of_payor(conn, montello, &payor)?.len(),
            locked.len(),
            "with the lock: read once"
        );

        let q3 = header(montello, &payor, "2031-Q3");
        returns::insert(conn, &q3)?;
        let after = returns::of_payor(conn, montello, &payor)?;
        assert_eq!(
            after.len(),
            locked.len() + 1,
            "what the unit wrote is added"
        );
        assert!(after.iter().any(|h| h.id == q3.id));
        assert!(
            after.windows(2).all(|w| w[0].period <= w[1].period),
            "still in period order"
        );

        let versions = returns::version_summaries_of_payor(conn, montello, &payor)?;
        let v = version(&q3);
        returns::insert_version(conn, &payor, &v)?;
        let added = returns::version_summaries_of_payor(conn, montello, &payor)?;
        assert_eq!(added.len(), versions.len() + 1);
        let summary = added
            .iter()
            .find(|s| s.return_id == q3.id)
            .expect("the new version");
        assert_eq!(
            (summary.version, summary.tax_cents, summary.due_date),
            (1, 4_500, v.due_date)
        );
        Ok(())
    })
    .expect("the unit");
}
