//! Queries over expenditure reports, their review, attachments, inspection
//! requests and the zone's access log (zone-owned, append-only).
//!
//! Contract: every function takes the zone id (the tenant) and runs inside
//! the caller's unit of work; rows are only inserted (both databases refuse
//! UPDATE and DELETE). A report's content is its versions; the latest
//! version is the one with the highest number. Queries a report back or
//! Form SL-304 needs: [`items_of`] and [`sums_of`] by version,
//! [`latest_versions`] of every report, [`large_items`] (each of $1,000 or
//! more, by date) over the latest versions.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{
        expenditure_attachments as att, expenditure_impacts as imp, expenditure_items as it,
        expenditure_report_versions as ver, expenditure_reports as rep, expenditure_reviews as rev,
        expenditure_sums as sum, inspection_answers as ans, inspection_requests as req,
        zone_access_log as zlog,
    },
};
use crate::db::native::Native as _;

/// A report's identity.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = rep)]
pub struct ReportRow {
    pub zone_id: i64,
    pub id: String,
    pub created_by: String,
    pub created_at: NaiveDateTime,
}

/// One version of a report.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = ver)]
pub struct VersionRow {
    pub zone_id: i64,
    pub report_id: String,
    pub version: i64,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub received_declared_cents: i64,
    pub filed_by: String,
    pub filed_at: NaiveDateTime,
}

/// An item listed individually.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = it)]
pub struct ItemRow {
    pub zone_id: i64,
    pub report_id: String,
    pub version: i64,
    pub line: i64,
    pub spent_on: NaiveDate,
    pub payee: String,
    pub amount_cents: i64,
    pub category: String,
    pub description: String,
    pub explanation: Option<String>,
}

/// An impact measure of an item.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = imp)]
pub struct ImpactRow {
    pub zone_id: i64,
    pub report_id: String,
    pub version: i64,
    pub line: i64,
    pub seq: i64,
    pub measure: String,
    pub value: i64,
    pub source: String,
}

/// A summed line.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = sum)]
pub struct SumRow {
    pub zone_id: i64,
    pub report_id: String,
    pub version: i64,
    pub line: i64,
    pub category: String,
    pub amount_cents: i64,
    pub item_count: i64,
    pub description: String,
    pub explanation: Option<String>,
}

/// One act of the review.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = rev)]
pub struct ReviewRow {
    pub zone_id: i64,
    pub id: String,
    pub report_id: String,
    /// The act's place among the report's acts (1, 2, ...).
    pub seq: i64,
    pub version: i64,
    /// `comment`, `question`, `answer`, `accept` or `return`.
    pub act: String,
    pub item_line: Option<i64>,
    /// For an answer: the question's id.
    pub answers: Option<String>,
    pub text: Option<String>,
    pub by_actor: String,
    pub at: NaiveDateTime,
}

/// An attachment's record without its bytes.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = att)]
pub struct AttachmentMeta {
    pub zone_id: i64,
    pub id: String,
    pub report_id: String,
    pub kind: String,
    pub content_type: String,
    pub size_bytes: i64,
    pub sha256: String,
    pub uploaded_by: String,
    pub uploaded_at: NaiveDateTime,
}

/// An attachment to insert, bytes included.
#[derive(Debug, Insertable)]
#[diesel(table_name = att)]
pub struct NewAttachment<'a> {
    pub zone_id: i64,
    pub id: &'a str,
    pub report_id: &'a str,
    pub kind: &'a str,
    pub content_type: &'a str,
    pub size_bytes: i64,
    pub sha256: &'a str,
    pub content: &'a [u8],
    pub uploaded_by: &'a str,
    pub uploaded_at: NaiveDateTime,
}

/// An entry of the zone's access log.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = zlog)]
pub struct ZoneAccessRow {
    pub zone_id: i64,
    pub id: String,
    pub at: NaiveDateTime,
    pub actor_kind: String,
    pub actor_id: String,
    pub basis: String,
    pub record_type: String,
    pub record_id: String,
    pub action: String,
    pub request_id: String,
}

/// An inspection request.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = req)]
pub struct InspectionRow {
    pub zone_id: i64,
    pub id: String,
    pub municipality_id: i64,
    /// `tourism_entity` or `commission`.
    pub records_of: String,
    pub requested_on: NaiveDate,
    pub records: String,
    pub requested_by: String,
    pub created_at: NaiveDateTime,
}

/// The answer to an inspection request.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = ans)]
pub struct InspectionAnswerRow {
    pub zone_id: i64,
    pub request_id: String,
    pub answered_on: NaiveDate,
    pub inspection_on: Option<NaiveDate>,
    pub answer: String,
    pub answered_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a report's identity.
pub fn insert_report(conn: &mut DbConn, row: &ReportRow) -> QueryResult<()> {
    insert_row(conn, rep::table, row)
}

/// Insert one version with its lines (the caller's transaction holds them together).
pub fn insert_version(
    conn: &mut DbConn,
    version: &VersionRow,
    items: &[ItemRow],
    impacts: &[ImpactRow],
    sums: &[SumRow],
) -> QueryResult<()> {
    insert_row(conn, ver::table, version)?;
    for row in items {
        insert_row(conn, it::table, row)?;
    }
    for row in impacts {
        insert_row(conn, imp::table, row)?;
    }
    for row in sums {
        insert_row(conn, sum::table, row)?;
    }
    Ok(())
}

/// A report's identity, if the zone has it.
pub fn report(conn: &mut DbConn, zone_id: i64, id: &str) -> QueryResult<Option<ReportRow>> {
    rep::table
        .filter(rep::zone_id.eq(zone_id))
        .filter(rep::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Every version of a report, oldest first.
pub fn versions(conn: &mut DbConn, zone_id: i64, report_id: &str) -> QueryResult<Vec<VersionRow>> {
    ver::table
        .filter(ver::zone_id.eq(zone_id))
        .filter(ver::report_id.eq(report_id))
        .order(ver::version.asc())
        .load_native(conn)
}

/// Every version of every report of the zone (the latest is each report's highest).
pub fn all_versions(conn: &mut DbConn, zone_id: i64) -> QueryResult<Vec<VersionRow>> {
    ver::table
        .filter(ver::zone_id.eq(zone_id))
        .order((ver::report_id.asc(), ver::version.asc()))
        .load_native(conn)
}

/// The latest version of each report of the zone, by period.
pub fn latest_versions(conn: &mut DbConn, zone_id: i64) -> QueryResult<Vec<VersionRow>> {
    let mut latest: Vec<VersionRow> = Vec::new();
    for v in all_versions(conn, zone_id)? {
        match latest.last_mut() {
            Some(last) if last.report_id == v.report_id => *last = v,
            _ => latest.push(v),
        }
    }
    latest.sort_by(|a, b| (a.period_start, &a.report_id).cmp(&(b.period_start, &b.report_id)));
    Ok(latest)
}

/// The items of one version, by line.
pub fn items_of(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    version: i64,
) -> QueryResult<Vec<ItemRow>> {
    it::table
        .filter(it::zone_id.eq(zone_id))
        .filter(it::report_id.eq(report_id))
        .filter(it::version.eq(version))
        .order(it::line.asc())
        .load_native(conn)
}

/// The impact measures of one version's items, by line and sequence.
pub fn impacts_of(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    version: i64,
) -> QueryResult<Vec<ImpactRow>> {
    imp::table
        .filter(imp::zone_id.eq(zone_id))
        .filter(imp::report_id.eq(report_id))
        .filter(imp::version.eq(version))
        .order((imp::line.asc(), imp::seq.asc()))
        .load_native(conn)
}

/// The summed lines of one version, by line.
pub fn sums_of(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    version: i64,
) -> QueryResult<Vec<SumRow>> {
    sum::table
        .filter(sum::zone_id.eq(zone_id))
        .filter(sum::report_id.eq(report_id))
        .filter(sum::version.eq(version))
        .order(sum::line.asc())
        .load_native(conn)
}

/// Every item of $1,000.00 or more on the latest versions of the zone's
/// reports, spent from `from` to `to`, by date (what Form SL-304 lists).
pub fn large_items(
    conn: &mut DbConn,
    zone_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> QueryResult<Vec<ItemRow>> {
    let mut out = Vec::new();
    for v in latest_versions(conn, zone_id)? {
        let rows: Vec<ItemRow> = it::table
            .filter(it::zone_id.eq(zone_id))
            .filter(it::report_id.eq(&v.report_id))
            .filter(it::version.eq(v.version))
            .filter(it::amount_cents.ge(crate::domain::expenditure::LARGE_ITEM_CENTS))
            .filter(it::spent_on.between(from, to))
            .load_native(conn)?;
        out.extend(rows);
    }
    out.sort_by(|a, b| (a.spent_on, &a.report_id, a.line).cmp(&(b.spent_on, &b.report_id, b.line)));
    Ok(out)
}

/// The sum of `received_declared` over the latest versions of the zone's
/// reports whose period lies within `from..=to`, in cents.
pub fn received_declared_within(
    conn: &mut DbConn,
    zone_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> QueryResult<i64> {
    Ok(latest_versions(conn, zone_id)?
        .iter()
        .filter(|v| v.period_start >= from && v.period_end <= to)
        .map(|v| v.received_declared_cents)
        .sum())
}

/// Insert one review act.
pub fn insert_review(conn: &mut DbConn, row: &ReviewRow) -> QueryResult<()> {
    insert_row(conn, rev::table, row)
}

/// The review of a report, oldest first.
pub fn reviews(conn: &mut DbConn, zone_id: i64, report_id: &str) -> QueryResult<Vec<ReviewRow>> {
    rev::table
        .filter(rev::zone_id.eq(zone_id))
        .filter(rev::report_id.eq(report_id))
        .order(rev::seq.asc())
        .load_native(conn)
}

/// Store an attachment.
pub fn insert_attachment(conn: &mut DbConn, row: &NewAttachment<'_>) -> QueryResult<()> {
    insert_row(conn, att::table, row)
}

/// The attachments of a report, oldest first, without their bytes.
pub fn attachments(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
) -> QueryResult<Vec<AttachmentMeta>> {
    att::table
        .filter(att::zone_id.eq(zone_id))
        .filter(att::report_id.eq(report_id))
        .order((att::uploaded_at.asc(), att::id.asc()))
        .select(AttachmentMeta::as_select())
        .load(conn)
}

/// One attachment with its bytes.
pub fn attachment(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    id: &str,
) -> QueryResult<Option<(AttachmentMeta, Vec<u8>)>> {
    att::table
        .filter(att::zone_id.eq(zone_id))
        .filter(att::report_id.eq(report_id))
        .filter(att::id.eq(id))
        .select((AttachmentMeta::as_select(), att::content))
        .get_result(conn)
        .optional()
}

/// Append an entry to the zone's access log.
pub fn log_access(conn: &mut DbConn, row: &ZoneAccessRow) -> QueryResult<()> {
    insert_row(conn, zlog::table, row)
}

/// The zone's access-log entries about `record_id`, oldest first.
pub fn access_of(
    conn: &mut DbConn,
    zone_id: i64,
    record_id: &str,
) -> QueryResult<Vec<ZoneAccessRow>> {
    zlog::table
        .filter(zlog::zone_id.eq(zone_id))
        .filter(zlog::record_id.eq(record_id))
        .order((zlog::at.asc(), zlog::id.asc()))
        .load_native(conn)
}

/// The zone's access-log entries, newest first, filtered and paged as the
/// municipal log is (`super::access_log::LogQuery`).
pub fn access_list(
    conn: &mut DbConn,
    zone_id: i64,
    q: &super::access_log::LogQuery,
) -> QueryResult<Vec<ZoneAccessRow>> {
    let mut query = zlog::table
        .filter(zlog::zone_id.eq(zone_id))
        .order((zlog::at.desc(), zlog::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if let Some(r) = &q.record_id {
        query = query.filter(zlog::record_id.eq(r.clone()));
    }
    if let Some(a) = &q.actor_id {
        query = query.filter(zlog::actor_id.eq(a.clone()));
    }
    if let Some(s) = q.since {
        query = query.filter(zlog::at.ge(s));
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(zlog::at.lt(at).or(zlog::at.eq(at).and(zlog::id.lt(id))));
    }
    query.load(conn)
}

/// Hold the zone's expenditure reports until the unit of work ends, so that
/// two filings for overlapping periods at once run one after the other and
/// the second sees the first (one report per period): on PostgreSQL a
/// transaction-scoped advisory lock keyed by the zone (no row, no privilege
/// needed; READ COMMITTED, so the next statement sees what the first
/// committed); on SQLite a write unit already holds the database's write
/// lock from its first statement.
pub fn lock_reports(conn: &mut DbConn, zone_id: i64) -> QueryResult<()> {
    match conn {
        DbConn::Sqlite(_) => Ok(()),
        DbConn::Pg(pg) => {
            // The first key names this lock's class ("er" in ASCII), the second the zone.
            diesel::sql_query("SELECT pg_advisory_xact_lock(25970, CAST($1 AS INTEGER))")
                .bind::<diesel::sql_types::BigInt, _>(zone_id)
                .execute(pg)
                .map(|_| ())
        }
    }
}

/// Insert an inspection request.
pub fn insert_inspection(conn: &mut DbConn, row: &InspectionRow) -> QueryResult<()> {
    insert_row(conn, req::table, row)
}

/// Insert the answer to an inspection request.
pub fn insert_inspection_answer(conn: &mut DbConn, row: &InspectionAnswerRow) -> QueryResult<()> {
    insert_row(conn, ans::table, row)
}

/// One inspection request with its answer.
pub fn inspection(
    conn: &mut DbConn,
    zone_id: i64,
    id: &str,
) -> QueryResult<Option<(InspectionRow, Option<InspectionAnswerRow>)>> {
    let Some(row) = req::table
        .filter(req::zone_id.eq(zone_id))
        .filter(req::id.eq(id))
        .get_result::<InspectionRow>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let answer = ans::table
        .filter(ans::zone_id.eq(zone_id))
        .filter(ans::request_id.eq(id))
        .get_native(conn)
        .optional()?;
    Ok(Some((row, answer)))
}

/// The zone's inspection requests (only these municipalities' when given),
/// newest first, with their answers.
pub fn inspections(
    conn: &mut DbConn,
    zone_id: i64,
    of: Option<&[i64]>,
) -> QueryResult<Vec<(InspectionRow, Option<InspectionAnswerRow>)>> {
    let mut query = req::table
        .filter(req::zone_id.eq(zone_id))
        .order((
            req::requested_on.desc(),
            req::created_at.desc(),
            req::id.desc(),
        ))
        .into_boxed();
    if let Some(ids) = of {
        query = query.filter(req::municipality_id.eq_any(ids.to_vec()));
    }
    let rows: Vec<InspectionRow> = query.load(conn)?;
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let answers: Vec<InspectionAnswerRow> = ans::table
        .filter(ans::zone_id.eq(zone_id))
        .filter(ans::request_id.eq_any(ids))
        .load_native(conn)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let a = answers.iter().find(|a| a.request_id == r.id).cloned();
            (r, a)
        })
        .collect())
}
