//! `GET .../payors/{payor}/obligations` (what one payor owes, and where each
//! return stands) and `GET /v1/municipalities/{municipality}/returns` (every
//! payor's return for a period, filed or not: the clerk's non-filer view,
//! paginated, CSV with `Accept: text/csv`).

use crate::api::csv::field;
use actix_web::{HttpRequest, HttpResponse, get, web};
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;

use super::{ObligationList, PeriodReturn, PeriodReturnList};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        pagination::{KeyCursor, next_cursor},
    },
    app::AppState,
    domain::{
        Period,
        obligations::{DueRange, ObligationStatus},
    },
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::{self, returns::reading},
};

/// The range of due dates asked.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ObligationParams {
    /// First due date listed (ISO 8601); default: 1 January of this year.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub from: Option<NaiveDate>,
    /// Last due date listed (ISO 8601); default: 31 December of this year.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub to: Option<NaiveDate>,
}

/// Every return the payor owes with a due date in the range, and its status.
///
/// Whoever may read the payor's returns (its operator, the clerk-treasurer, staff, a
/// disclosure grantee for it). Statuses: `filed`, `filed_late`, `missing` (due date
/// passed, none on file), `not_yet_due`, `extended` (an extension granted and its date
/// not passed). Written to the access log (`payor_obligations`, `read`).
#[utoipa::path(
    operation_id = "list_payor_obligations",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, ObligationParams),
    responses(
        (status = 200, description = "The returns due, by due date", body = ObligationList),
        (status = 422, description = "`from` after `to`", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/obligations")]
pub async fn obligations(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<ObligationParams>, ApiError>,
) -> Result<web::Json<ObligationList>, ApiError> {
    let (_, payor_id) = path.into_inner();
    let today = state.clock.today();
    let items = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            usecases::returns::reading_for(conn, &ctx, &payor_id)?;
            let params = params?.0;
            let year = chrono::Datelike::year(&today);
            let range = DueRange {
                from: params
                    .from
                    .unwrap_or_else(|| NaiveDate::from_ymd_opt(year, 1, 1).expect("1 January")),
                to: params
                    .to
                    .unwrap_or_else(|| NaiveDate::from_ymd_opt(year, 12, 31).expect("31 December")),
            };
            reading::payor_obligations(conn, &ctx, &payor_id, range, today)
        })
        .await?;
    Ok(web::Json(ObligationList {
        items: items.into_iter().map(Into::into).collect(),
    }))
}

/// The period and filters of the municipality's view.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PeriodParams {
    /// The period: `2026-Q1`, `2026` or `FY2026-06` (required).
    #[param(value_type = String, example = "2026-Q1")]
    pub period: Period,
    /// Only returns with this status: `filed`, `filed_late`, `missing`, `not_yet_due`, `extended`.
    #[param(inline)]
    pub status: Option<ObligationStatus>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

const CSV_HEADER: &str = "payor_id,legal_name,period,due_date,filing_due_date,status,return_id,filed_on,tax,amount_due_on_filing,missing_attachments\r\n";

fn csv_row(r: &PeriodReturn) -> String {
    let o = &r.obligation;
    let opt = |v: Option<String>| v.unwrap_or_default();
    [
        field(&r.payor_id),
        field(&r.legal_name),
        o.period.to_string(),
        o.due_date.to_string(),
        o.filing_due_date.to_string(),
        o.status.as_str().to_owned(),
        opt(o.return_id.clone()),
        opt(o.filed_on.map(|d| d.to_string())),
        opt(r.tax.map(|m| m.to_string())),
        opt(r.amount_due_on_filing.map(|m| m.to_string())),
        field(&r.missing_attachments.join(" ")),
    ]
    .join(",")
        + "\r\n"
}

/// Every payor's return for a period, filed or not: who filed, who is late, who is missing.
///
/// Clerk-treasurer and staff only. One entry per payor that owes a return for the
/// period (registered during it), in payor-id order, with the return's status; filter
/// with `status=missing` for the non-filers. `Accept: text/csv` answers the same page
/// as CSV for a spreadsheet. Every return shown is written to the access log.
#[utoipa::path(
    operation_id = "list_period_returns",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, PeriodParams),
    responses(
        (status = 200, description = "A page of the period's returns (as CSV, the next page is in a `Link` header)",
            headers(("Link" = String, description = "CSV only, when there is a next page: `<?period=...&limit=...&cursor=...>; rel=\"next\"`, the request's filters kept")),
            content(
            (PeriodReturnList = "application/json"),
            (String = "text/csv")
        ))
    )
)]
#[get("/v1/municipalities/{municipality}/returns")]
pub async fn for_period(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<PeriodParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let (entries, limit, query) = here
        .read_for(
            &state,
            Action::ReviewReturns,
            move |MunicipalUnit { conn, ctx, .. }| {
                let params = params?.0;
                let (limit, after) = KeyCursor::page(params.limit, params.cursor.as_deref())?;
                // The request's own filters, for the CSV's link to the next page.
                let mut query = format!("period={}&limit={limit}", params.period);
                if let Some(status) = params.status {
                    query.push_str(&format!("&status={}", status.as_str()));
                }
                let entries = reading::for_period(
                    conn,
                    &ctx,
                    params.period,
                    params.status,
                    after.as_deref(),
                    limit as usize,
                    today,
                )?;
                Ok((entries, limit, query))
            },
        )
        .await?;
    let items: Vec<PeriodReturn> = entries.into_iter().map(Into::into).collect();
    let next_cursor = next_cursor(&items, limit, |r| KeyCursor::encode(&r.payor_id));
    let mut res = HttpResponse::Ok();
    // The CSV's rows carry no cursor: its next page is in a `Link` header.
    let csv_next = next_cursor
        .as_ref()
        .filter(|_| crate::api::csv::wanted(&req));
    if let Some(c) = csv_next {
        res.insert_header(("Link", format!("<?{query}&cursor={c}>; rel=\"next\"")));
    }
    let list = PeriodReturnList { items, next_cursor };
    Ok(crate::api::csv::or_json_in(res, &req, list, |list| {
        let mut body = String::from(CSV_HEADER);
        list.items.iter().for_each(|r| body.push_str(&csv_row(r)));
        body
    }))
}
