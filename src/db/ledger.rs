//! Queries over the ledger (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work, scoped on PostgreSQL to that tenant by
//! row-level security. Rows are only ever inserted: the database refuses
//! UPDATE, DELETE (and on PostgreSQL TRUNCATE) on both tables, and
//! `(municipality, cause_type, cause_id, kind)` is unique, so a cause cannot
//! post the same journal twice. Amounts are signed integer cents (debit
//! positive); sums are taken in SQL as BIGINT or here in `i128`, never as
//! floats. The integrity queries at the end serve `roomtax check`.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

use crate::domain::ledger::JournalKind;

use super::{
    DbConn, insert_row,
    native::{Native, NoRow, Reused, Rowless},
    schema::{ledger_journals, ledger_lines, return_versions, tax_returns},
};

/// A journal's header.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = ledger_journals)]
pub struct JournalRow {
    pub municipality_id: i64,
    pub id: String,
    pub posted_on: NaiveDate,
    pub kind: String,
    pub cause_type: String,
    pub cause_id: String,
    pub memo: String,
    pub created_at: NaiveDateTime,
}

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = ledger_lines)]
pub struct LineRow {
    pub municipality_id: i64,
    pub journal_id: String,
    /// 1, 2, ... in posting order.
    pub line_no: i32,
    /// The account's structured name (`domain::ledger::Account`).
    pub account: String,
    /// Signed cents: debit positive, credit negative.
    pub amount_cents: i64,
}

/// Lines of a journal whose `INSERT` stays prepared on PostgreSQL: its text
/// depends on the number of rows, and a return's or a payment's journal has
/// two to six lines.
const REUSED_LINES: usize = 8;

/// Insert a journal and its lines (the lines in one statement).
pub fn insert(conn: &mut DbConn, journal: &JournalRow, lines: &[LineRow]) -> QueryResult<()> {
    insert_row(conn, ledger_journals::table, journal)?;
    match conn {
        _ if lines.is_empty() => Ok(()),
        DbConn::Pg(pg) if lines.len() <= REUSED_LINES => Reused(Rowless(
            diesel::insert_into(ledger_lines::table).values(lines),
        ))
        .load::<NoRow>(pg)
        .map(|_| ()),
        _ => super::insert_rows(conn, ledger_lines::table, lines),
    }
}

/// The journals a cause posted.
pub fn of_cause(
    conn: &mut DbConn,
    municipality_id: i64,
    cause_type: &str,
    cause_id: &str,
) -> QueryResult<Vec<JournalRow>> {
    ledger_journals::table
        .filter(ledger_journals::municipality_id.eq(municipality_id))
        .filter(ledger_journals::cause_type.eq(cause_type))
        .filter(ledger_journals::cause_id.eq(cause_id))
        .order(ledger_journals::created_at.asc())
        .load_native(conn)
}

/// The `payment_reversed` journals of the payor's payments, oldest first.
/// The payments are a subquery, so the statement is one text for every
/// payor and stays prepared, and only reversals are read (by the unique
/// index on cause and kind), never the payments' own journals.
pub fn payment_reversals_of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<JournalRow>> {
    use super::schema::payments;
    let of_payor = payments::table
        .filter(payments::municipality_id.eq(municipality_id))
        .filter(payments::payor_id.eq(payor_id))
        .select(payments::id);
    ledger_journals::table
        .filter(ledger_journals::municipality_id.eq(municipality_id))
        .filter(ledger_journals::cause_type.eq("payment"))
        .filter(ledger_journals::cause_id.eq_any(of_payor))
        .filter(ledger_journals::kind.eq(JournalKind::PaymentReversed.as_str()))
        .order(ledger_journals::created_at.asc())
        .load_native(conn)
}

/// The lines of one journal, line 1 first.
pub fn lines_of(
    conn: &mut DbConn,
    municipality_id: i64,
    journal_id: &str,
) -> QueryResult<Vec<LineRow>> {
    ledger_lines::table
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::journal_id.eq(journal_id))
        .order(ledger_lines::line_no.asc())
        .load_native(conn)
}

/// The half-open range `[prefix, upper)` of account names that start with
/// `prefix`, compared byte by byte: SQLite's default BINARY collation and the
/// `"C"` collation PostgreSQL's `ledger_lines.account` carries (migration
/// `ledger_account_order`). Unlike `LIKE 'prefix%'` (case-insensitive on
/// SQLite, locale-bound on PostgreSQL) it uses the `(municipality_id,
/// account)` index on both backends, so reading one payor's lines costs the
/// payor's lines, not the municipality's (the bench seed found filing and
/// payments slowing as a municipality grew).
fn prefix_range(prefix: &str) -> (String, String) {
    let mut upper = prefix.to_owned();
    match upper.pop() {
        Some(last) => {
            let next = char::from_u32(last as u32 + 1).unwrap_or(char::MAX);
            upper.push(next);
        }
        None => upper.push(char::MAX),
    }
    (prefix.to_owned(), upper)
}

/// `(account, amount_cents)` of every line on an account whose name starts
/// with `prefix`, in journals posted on or before `as_of`.
pub fn lines_by_prefix_as_of(
    conn: &mut DbConn,
    municipality_id: i64,
    prefix: &str,
    as_of: NaiveDate,
) -> QueryResult<Vec<(String, i64)>> {
    let (from, to) = prefix_range(prefix);
    ledger_lines::table
        .inner_join(
            ledger_journals::table.on(ledger_journals::municipality_id
                .eq(ledger_lines::municipality_id)
                .and(ledger_journals::id.eq(ledger_lines::journal_id))),
        )
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.ge(from))
        .filter(ledger_lines::account.lt(to))
        .filter(ledger_journals::posted_on.le(as_of))
        .select((ledger_lines::account, ledger_lines::amount_cents))
        .load_native(conn)
}

/// Every journal of the municipality, oldest posting first.
pub fn journals(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<JournalRow>> {
    ledger_journals::table
        .filter(ledger_journals::municipality_id.eq(municipality_id))
        .order((ledger_journals::posted_on.asc(), ledger_journals::id.asc()))
        .load_native(conn)
}

/// Per journal that has lines: `(journal_id, sum of its lines, number of lines)`.
pub fn sums_by_journal(
    conn: &mut DbConn,
    municipality_id: i64,
) -> QueryResult<Vec<(String, i64, i64)>> {
    ledger_lines::table
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .group_by(ledger_lines::journal_id)
        .select((
            ledger_lines::journal_id,
            // SUM of BIGINT is NUMERIC on PostgreSQL: cast back (exact).
            sql::<BigInt>("CAST(SUM(amount_cents) AS BIGINT)"),
            diesel::dsl::count_star(),
        ))
        .load_native(conn)
}

/// Every line of the municipality (the check compares journals with the
/// versions that caused them).
pub fn all_lines(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<LineRow>> {
    ledger_lines::table
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .order((ledger_lines::journal_id.asc(), ledger_lines::line_no.asc()))
        .load_native(conn)
}

/// `(return id, payor id)` of every return of the municipality.
pub fn return_payors(
    conn: &mut DbConn,
    municipality_id: i64,
) -> QueryResult<Vec<(String, String)>> {
    tax_returns::table
        .filter(tax_returns::municipality_id.eq(municipality_id))
        .select((tax_returns::id, tax_returns::payor_id))
        .load_native(conn)
}

/// Every version of every return of the municipality.
pub fn all_versions(
    conn: &mut DbConn,
    municipality_id: i64,
) -> QueryResult<Vec<super::returns::VersionRow>> {
    return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .order((
            return_versions::return_id.asc(),
            return_versions::version.asc(),
        ))
        .load_native(conn)
}

/// The append-only tables of the money: the ledger, what caused its journals
/// (the vehicle registration fee's remittances and spending among them) and
/// the notices sent. `roomtax check` verifies each one's triggers and
/// (PostgreSQL) that no role but the owner may change it.
pub const APPEND_ONLY_TABLES: [&str; 12] = [
    "ledger_journals",
    "ledger_lines",
    "payments",
    "refunds",
    "determinations",
    "security_deposits",
    "security_events",
    "clearance_certificates",
    "notices",
    "notice_documents",
    "vehicle_fee_remittances",
    "vehicle_fee_spending",
];

/// `'a', 'b', ...`: the append-only tables as an SQL list (constant names only).
fn append_only_list() -> String {
    APPEND_ONLY_TABLES
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The names of the triggers on the append-only tables that are in force
/// (PostgreSQL: enabled; SQLite: present), as `table.trigger`.
pub fn triggers(conn: &mut DbConn) -> QueryResult<Vec<String>> {
    #[derive(QueryableByName)]
    struct Name {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
    }
    let tables = append_only_list();
    let query = match conn {
        DbConn::Sqlite(_) => format!(
            "SELECT tbl_name || '.' || name AS name FROM sqlite_master \
             WHERE type = 'trigger' AND tbl_name IN ({tables})"
        ),
        DbConn::Pg(_) => format!(
            "SELECT c.relname || '.' || t.tgname AS name FROM pg_trigger t \
             JOIN pg_class c ON c.oid = t.tgrelid \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND t.tgenabled <> 'D' \
               AND c.relname IN ({tables})"
        ),
    };
    Ok(diesel::sql_query(query)
        .load::<Name>(conn)?
        .into_iter()
        .map(|n| n.name)
        .collect())
}

/// PostgreSQL: `table: role PRIVILEGE` for every UPDATE, DELETE or TRUNCATE
/// privilege on an append-only table ([`APPEND_ONLY_TABLES`]) held by anyone but its owner (PUBLIC
/// included). SQLite has no privileges: empty.
pub fn change_privileges(conn: &mut DbConn) -> QueryResult<Vec<String>> {
    #[derive(QueryableByName)]
    struct Grant {
        #[diesel(sql_type = diesel::sql_types::Text)]
        entry: String,
    }
    if let DbConn::Sqlite(_) = conn {
        return Ok(Vec::new());
    }
    let tables = append_only_list();
    Ok(diesel::sql_query(format!(
        "SELECT c.relname || ': ' || CASE WHEN a.grantee = 0 THEN 'PUBLIC' \
                ELSE pg_get_userbyid(a.grantee) END || ' ' || a.privilege_type AS entry \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         CROSS JOIN LATERAL aclexplode(c.relacl) a \
         WHERE n.nspname = current_schema() AND c.relname IN ({tables}) \
           AND a.grantee <> c.relowner AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') \
         ORDER BY 1"
    ))
    .load::<Grant>(conn)?
    .into_iter()
    .map(|g| g.entry)
    .collect())
}

/// A line on one of a payor's accounts with its journal's kind and date.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct PayorLine {
    pub kind: String,
    pub posted_on: NaiveDate,
    pub account: String,
    pub amount_cents: i64,
}

/// Every line on an account whose name starts with `prefix`, in journals
/// posted on or before `as_of`, with the journal's kind and date.
pub fn payor_lines_as_of(
    conn: &mut DbConn,
    municipality_id: i64,
    prefix: &str,
    as_of: NaiveDate,
) -> QueryResult<Vec<PayorLine>> {
    let (from, to) = prefix_range(prefix);
    ledger_lines::table
        .inner_join(
            ledger_journals::table.on(ledger_journals::municipality_id
                .eq(ledger_lines::municipality_id)
                .and(ledger_journals::id.eq(ledger_lines::journal_id))),
        )
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.ge(from))
        .filter(ledger_lines::account.lt(to))
        .filter(ledger_journals::posted_on.le(as_of))
        .order((
            ledger_journals::posted_on.asc(),
            ledger_journals::created_at.asc(),
            ledger_lines::line_no.asc(),
        ))
        .select((
            ledger_journals::kind,
            ledger_journals::posted_on,
            ledger_lines::account,
            ledger_lines::amount_cents,
        ))
        .load_native(conn)
}

/// The latest date of a journal of one of `kinds` with a line on an account
/// whose name starts with `prefix` (a payor's), if any: money already moved
/// by the ledger itself (credit applied, a refund, a security application),
/// before which nothing of that payor may be backdated.
pub fn latest_posted_of_kinds(
    conn: &mut DbConn,
    municipality_id: i64,
    prefix: &str,
    kinds: &[&str],
) -> QueryResult<Option<NaiveDate>> {
    let (from, to) = prefix_range(prefix);
    ledger_lines::table
        .inner_join(
            ledger_journals::table.on(ledger_journals::municipality_id
                .eq(ledger_lines::municipality_id)
                .and(ledger_journals::id.eq(ledger_lines::journal_id))),
        )
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.ge(from))
        .filter(ledger_lines::account.lt(to))
        .filter(ledger_journals::kind.eq_any(kinds))
        .select(diesel::dsl::max(ledger_journals::posted_on))
        .get_native(conn)
}

/// The journals with a line on `account` (exactly that name), oldest posting
/// first (by date, then by when they were stored): a payor's credit account's
/// history, which a reversal reads to find where a payment's credit went.
pub fn journals_on_account(
    conn: &mut DbConn,
    municipality_id: i64,
    account: &str,
) -> QueryResult<Vec<JournalRow>> {
    let ids = ledger_lines::table
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.eq(account))
        .select(ledger_lines::journal_id);
    ledger_journals::table
        .filter(ledger_journals::municipality_id.eq(municipality_id))
        .filter(ledger_journals::id.eq_any(ids))
        .order((
            ledger_journals::posted_on.asc(),
            ledger_journals::created_at.asc(),
        ))
        .load_native(conn)
}
