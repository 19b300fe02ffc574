//! Requests of member municipalities to inspect the records of the tourism
//! entity or the commission, and their answers.
//!
//! Contract: the tourism entity "shall permit and allow inspections of its
//! records pertaining to the use of the room tax funds upon request of the
//! municipalities, at reasonable times", and so shall the commission
//! (Montello room tax, distribution ¶B). [`request`]: only the
//! clerk-treasurer of a current member municipality, for that municipality
//! (`ZoneContext::member_clerk_of`; anyone else related to the zone 403,
//! unrelated 404). [`answer`]: the tourism entity or a commission member,
//! once per request (409 `already_answered`), with the date answered and the
//! date of the inspection if one was arranged. [`list`]: the commission and
//! the tourism entity see every request; a member's clerk-treasurer sees its
//! own municipality's.

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{actor, conflict, current_members};
use crate::{
    db::{
        self, DbConn,
        expenditures::{InspectionAnswerRow, InspectionRow},
    },
    domain::{
        expenditure::TEXT_MAX,
        registry::text::{judge, registry_fault},
    },
    error::{ApiError, FieldError},
    tenancy::{ZoneAction, ZoneContext},
};

/// The citation of the inspection duty.
pub const INSPECTION_CITATION: &str = "Montello room tax, distribution ¶B (the tourism entity and the commission \"shall permit and allow inspections of its records pertaining to the use of the room tax funds upon request of the municipalities, at reasonable times\")";

/// Whose records a municipality asks to inspect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordsOf {
    /// The tourism entity's records.
    TourismEntity,
    /// The commission's records.
    Commission,
}

impl RecordsOf {
    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordsOf::TourismEntity => "tourism_entity",
            RecordsOf::Commission => "commission",
        }
    }
}

/// A request as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewRequest {
    /// The requesting member's slug.
    pub municipality: String,
    /// Whose records.
    pub records_of: RecordsOf,
    /// Which records, in words.
    pub records: String,
    /// When the request was made (default today; not after today).
    pub requested_on: Option<NaiveDate>,
}

/// An answer as recorded.
#[derive(Debug, Clone)]
pub struct NewAnswer {
    /// When it was answered (not after today).
    pub answered_on: NaiveDate,
    /// The day of the inspection, if one was arranged (not before the request).
    pub inspection_on: Option<NaiveDate>,
    /// The answer, in words.
    pub answer: String,
}

/// A request with its answer and the requesting member's slug.
pub type Inspection = (InspectionRow, Option<InspectionAnswerRow>, String);

fn text(field: &str, raw: &str, max: usize) -> Result<String, ApiError> {
    judge(raw, max, true).map_err(|f| ApiError::from(registry_fault(field, f, max)))
}

fn slug_of(members: &[(i64, String)], id: i64) -> String {
    members
        .iter()
        .find(|(m, _)| *m == id)
        .map(|(_, s)| s.clone())
        .unwrap_or_default()
}

/// Record a member municipality's request (see the module doc).
pub fn request(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    new: Result<NewRequest, ApiError>,
    today: NaiveDate,
    now: NaiveDateTime,
) -> Result<Inspection, ApiError> {
    let members = current_members(conn, ctx.zone_id, today)?;
    if !members.iter().any(|(m, _)| ctx.member_clerk_of(*m)) {
        return Err(ctx.refuse(
            "only the clerk-treasurer of a member municipality may request an inspection".into(),
        ));
    }
    let new = new?;
    let Some((municipality_id, slug)) = members
        .iter()
        .find(|(_, s)| *s == new.municipality.trim())
        .cloned()
    else {
        return Err(ApiError::invalid(
            "municipality",
            "zone_member",
            "must be the slug of a current member municipality of this zone",
        ));
    };
    if !ctx.member_clerk_of(municipality_id) {
        return Err(ctx.refuse(format!(
            "only the clerk-treasurer of {slug} may request an inspection for it"
        )));
    }
    let records = text("records", &new.records, TEXT_MAX)?;
    let requested_on = new.requested_on.unwrap_or(today);
    if requested_on > today {
        return Err(ApiError::invalid(
            "requested_on",
            "in_the_future",
            format!("must not be after today ({today})"),
        ));
    }
    let row = InspectionRow {
        zone_id: ctx.zone_id,
        id: db::identity::new_id(),
        municipality_id,
        records_of: new.records_of.as_str().to_owned(),
        requested_on,
        records,
        requested_by: actor(ctx),
        created_at: now,
    };
    db::expenditures::insert_inspection(conn, &row)?;
    Ok((row, None, slug))
}

/// Record the answer to a request (see the module doc).
pub fn answer(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    id: &str,
    new: Result<NewAnswer, ApiError>,
    today: NaiveDate,
    now: NaiveDateTime,
) -> Result<Inspection, ApiError> {
    ctx.require(ZoneAction::ReviewExpenditureReports)
        .or_else(|_| ctx.require(ZoneAction::FileExpenditureReports))?;
    let (row, existing) = db::expenditures::inspection(conn, ctx.zone_id, id)?
        .ok_or(ApiError::NotFound("inspection request"))?;
    let new = new?;
    let mut faults: Vec<FieldError> = Vec::new();
    if new.answered_on > today {
        faults.push(FieldError::new(
            "answered_on",
            "in_the_future",
            format!("must not be after today ({today})"),
        ));
    }
    if new.answered_on < row.requested_on {
        faults.push(FieldError::new(
            "answered_on",
            "not_before_request",
            format!("must not be before the request ({})", row.requested_on),
        ));
    }
    if new.inspection_on.is_some_and(|d| d < row.requested_on) {
        faults.push(FieldError::new(
            "inspection_on",
            "not_before_request",
            format!("must not be before the request ({})", row.requested_on),
        ));
    }
    let answer = match judge(&new.answer, TEXT_MAX, true) {
        Ok(a) => a,
        Err(f) => {
            faults.push(registry_fault("answer", f, TEXT_MAX).into());
            String::new()
        }
    };
    ApiError::refused(faults)?;
    if existing.is_some() {
        return Err(conflict(
            "id",
            "already_answered",
            "this inspection request has been answered",
        ));
    }
    let answer = InspectionAnswerRow {
        zone_id: ctx.zone_id,
        request_id: row.id.clone(),
        answered_on: new.answered_on,
        inspection_on: new.inspection_on,
        answer,
        answered_by: actor(ctx),
        created_at: now,
    };
    db::expenditures::insert_inspection_answer(conn, &answer)?;
    let slug = db::zones::municipality_by_id(conn, row.municipality_id)?
        .map(|m| m.slug)
        .unwrap_or_default();
    Ok((row, Some(answer), slug))
}

/// The requests the caller may see (see the module doc), newest first.
pub fn list(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    today: NaiveDate,
) -> Result<Vec<Inspection>, ApiError> {
    let members = current_members(conn, ctx.zone_id, today)?;
    let all = ctx.require(ZoneAction::ReadExpenditureReports);
    let rows = match all {
        Ok(()) => db::expenditures::inspections(conn, ctx.zone_id, None)?,
        Err(refusal) => {
            let own: Vec<i64> = members
                .iter()
                .map(|(m, _)| *m)
                .filter(|m| ctx.member_clerk_of(*m))
                .collect();
            if own.is_empty() {
                return Err(refusal);
            }
            db::expenditures::inspections(conn, ctx.zone_id, Some(&own))?
        }
    };
    let mut out = Vec::with_capacity(rows.len());
    for (row, answer) in rows {
        let slug = match members.iter().any(|(m, _)| *m == row.municipality_id) {
            true => slug_of(&members, row.municipality_id),
            false => db::zones::municipality_by_id(conn, row.municipality_id)?
                .map(|m| m.slug)
                .unwrap_or_default(),
        };
        out.push((row, answer, slug));
    }
    Ok(out)
}
