//! Queries over disclosure grants (court orders, legal duties) and their payors.
//!
//! Contract: tenant-scoped like every confidential table; a grant's payors are
//! resolved inside the tenant transaction of the read they authorise.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{
    DbConn,
    models::DisclosureGrantRow,
    schema::{disclosure_grant_payors, disclosure_grants},
};
use crate::db::native::Native as _;

/// The payor ids the given (active) grants cover in this municipality.
pub fn payors_of(
    conn: &mut DbConn,
    municipality_id: i64,
    grant_ids: &[String],
) -> QueryResult<Vec<String>> {
    if grant_ids.is_empty() {
        return Ok(Vec::new());
    }
    disclosure_grant_payors::table
        .filter(disclosure_grant_payors::municipality_id.eq(municipality_id))
        .filter(disclosure_grant_payors::grant_id.eq_any(grant_ids.to_vec()))
        .select(disclosure_grant_payors::payor_id)
        .distinct()
        .load_native(conn)
}

/// Record a grant and the payors it covers.
pub fn insert(
    conn: &mut DbConn,
    row: &DisclosureGrantRow,
    payor_ids: &[String],
) -> QueryResult<()> {
    super::epochs::ACCESS.bump();
    super::insert_row(conn, disclosure_grants::table, row)?;
    for payor_id in payor_ids {
        let link = (
            disclosure_grant_payors::municipality_id.eq(row.municipality_id),
            disclosure_grant_payors::grant_id.eq(&row.id),
            disclosure_grant_payors::payor_id.eq(payor_id),
        );
        super::insert_row(conn, disclosure_grant_payors::table, link)?;
    }
    Ok(())
}

/// Which grants a list returns.
#[derive(Debug, Clone, Default)]
pub struct DisclosureQuery {
    /// Only grants neither revoked nor expired at this instant.
    pub active_at: Option<NaiveDateTime>,
    /// Only grants strictly after this `(created_at, id)` in newest-first order.
    pub before: Option<(NaiveDateTime, String)>,
    /// Page size.
    pub limit: i64,
}

/// A page of the tenant's grants, newest first, each with its payor ids.
pub fn list(
    conn: &mut DbConn,
    municipality_id: i64,
    q: &DisclosureQuery,
) -> QueryResult<Vec<(DisclosureGrantRow, Vec<String>)>> {
    use disclosure_grants as d;
    let mut query = d::table
        .filter(d::municipality_id.eq(municipality_id))
        .order((d::created_at.desc(), d::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if let Some(at) = q.active_at {
        query = query
            .filter(d::revoked_at.is_null())
            .filter(d::expires_at.gt(at));
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(
            d::created_at
                .lt(at)
                .or(d::created_at.eq(at).and(d::id.lt(id))),
        );
    }
    let grants: Vec<DisclosureGrantRow> = query.load(conn)?;
    let ids: Vec<String> = grants.iter().map(|g| g.id.clone()).collect();
    let links: Vec<(String, String)> = disclosure_grant_payors::table
        .filter(disclosure_grant_payors::municipality_id.eq(municipality_id))
        .filter(disclosure_grant_payors::grant_id.eq_any(ids))
        .select((
            disclosure_grant_payors::grant_id,
            disclosure_grant_payors::payor_id,
        ))
        .order(disclosure_grant_payors::payor_id.asc())
        .load_native(conn)?;
    Ok(grants
        .into_iter()
        .map(|g| {
            let payors = links
                .iter()
                .filter(|(grant, _)| grant == &g.id)
                .map(|(_, p)| p.clone())
                .collect();
            (g, payors)
        })
        .collect())
}

/// One grant of the tenant with its payor ids.
pub fn get(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
) -> QueryResult<Option<(DisclosureGrantRow, Vec<String>)>> {
    let Some(grant) = disclosure_grants::table
        .filter(disclosure_grants::municipality_id.eq(municipality_id))
        .filter(disclosure_grants::id.eq(id))
        .get_result::<DisclosureGrantRow>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let payors = disclosure_grant_payors::table
        .filter(disclosure_grant_payors::municipality_id.eq(municipality_id))
        .filter(disclosure_grant_payors::grant_id.eq(id))
        .select(disclosure_grant_payors::payor_id)
        .order(disclosure_grant_payors::payor_id.asc())
        .load_native(conn)?;
    Ok(Some((grant, payors)))
}

/// Revoke a grant; false when it does not exist here or was already revoked.
pub fn revoke(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    super::epochs::ACCESS.bump();
    diesel::update(
        disclosure_grants::table
            .filter(disclosure_grants::municipality_id.eq(municipality_id))
            .filter(disclosure_grants::id.eq(id))
            .filter(disclosure_grants::revoked_at.is_null()),
    )
    .set(disclosure_grants::revoked_at.eq(Some(at)))
    .execute_native(conn)
    .map(|n| n == 1)
}
