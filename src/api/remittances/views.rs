//! `GET /v1/municipalities/{municipality}/remittances?year=` (the clerk's
//! view), `GET /v1/zones/{zone}/remittances?year=` (the zone's view), both
//! JSON or CSV (`Accept: text/csv`), and `GET /v1/zones/{zone}/seats?year=`.
//!
//! Contract: thin handlers over `usecases::remittances::view` (authorise
//! before the query is judged). Totals per member and quarter only: no payor
//! id and no per-payor figure is ever in these answers. CSV fields are the
//! same as JSON's; slugs and names go through [`field`] (quoted, never read
//! as a formula).

use crate::api::csv::{field, opt};
use actix_web::{HttpRequest, HttpResponse, get, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InMunicipality, InZone, MunicipalUnit, ZoneUnit},
        extract::ApiQuery,
    },
    app::AppState,
    domain::{Line, Money, remittance::RemittanceStatus},
    error::{ApiError, Problem},
    usecases::remittances::view::{self, MemberSeats, QuarterView},
};

/// Which year to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct YearParams {
    /// Calendar year, e.g. 2026 (1990 to 2200).
    pub year: i32,
}

impl YearParams {
    /// The query's year as a handler here takes it: the year to shape the
    /// answer with, and the year (or the query's refusal) the use case judges.
    /// The refusal is answered by the use case, once the caller is authorised;
    /// the first part is then never shown (it is 0).
    fn asked(params: Result<ApiQuery<YearParams>, ApiError>) -> (i32, Result<i32, ApiError>) {
        let asked = params.map(|p| p.0.year);
        (asked.as_ref().map_or(0, |year| *year), asked)
    }
}

/// One member's quarter.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RemittanceQuarter {
    /// The member municipality's slug.
    pub municipality: String,
    /// Its name.
    pub name: String,
    /// The quarter.
    pub period: String,
    /// When the quarter's remittance is due (the end of the month after its return due date).
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    /// `due` (not submitted, not yet due), `submitted` (some of the commission's share outstanding), `paid` (nothing outstanding) or `missing` (not submitted after its due date).
    pub status: RemittanceStatus,
    /// The latest version's number, if submitted.
    pub version: Option<i32>,
    /// The latest version's id, if submitted.
    pub remittance_id: Option<String>,
    /// `ledger` or `entered`, if submitted.
    pub source: Option<String>,
    /// Taxable receipts behind the tax, if submitted.
    pub gross_receipts: Option<Money>,
    /// Room tax collected in the quarter, if submitted.
    pub tax_collected: Option<Money>,
    /// Payors who paid tax in the quarter (a count), if submitted.
    pub payor_count: Option<i64>,
    /// The commission's share of the policy, e.g. "0.75", if submitted.
    pub commission_share: Option<String>,
    /// Forwarded to the commission, if submitted.
    pub commission: Option<Money>,
    /// Retained by the municipality, if submitted.
    pub retained: Option<Money>,
    /// The local date the latest version was submitted.
    #[schema(value_type = Option<String>, format = Date)]
    pub submitted_on: Option<NaiveDate>,
    /// Transferred to the commission so far.
    pub transferred: Money,
    /// The commission's share not yet transferred (0.00 when nothing was submitted).
    pub outstanding: Money,
    /// The date of the latest transfer, if any.
    #[schema(value_type = Option<String>, format = Date)]
    pub last_paid_on: Option<NaiveDate>,
}

impl From<QuarterView> for RemittanceQuarter {
    fn from(q: QuarterView) -> Self {
        let l = q.latest.as_ref();
        RemittanceQuarter {
            municipality: q.municipality,
            name: q.name,
            period: q.period.to_string(),
            due_on: q.due_on,
            status: q.status,
            version: l.map(|l| l.version),
            remittance_id: l.map(|l| l.id.clone()),
            source: l.map(|l| l.source.clone()),
            gross_receipts: l.map(|l| Money::from_cents(l.gross_receipts_cents)),
            tax_collected: l.map(|l| Money::from_cents(l.tax_collected_cents)),
            payor_count: l.map(|l| i64::from(l.payor_count)),
            commission_share: l.map(|l| l.commission_share.clone()),
            commission: l.map(|l| Money::from_cents(l.commission_cents)),
            retained: l.map(|l| Money::from_cents(l.retained_cents)),
            submitted_on: l.map(|l| l.submitted_on),
            transferred: q.transferred,
            outstanding: q.outstanding,
            last_paid_on: q.last_paid_on,
        }
    }
}

/// The members' quarters of a year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RemittanceYear {
    /// The year listed.
    pub year: i32,
    /// Each member's quarters (members during the quarter: a membership covering its last day), by member then quarter.
    pub items: Vec<RemittanceQuarter>,
    /// Totals of the rows listed.
    pub totals: RemittanceTotals,
}

/// Totals of a list of quarters.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RemittanceTotals {
    /// Tax collected in the quarters submitted.
    pub tax_collected: Money,
    /// The commission's share of them.
    pub commission: Money,
    /// Transferred to the commission.
    pub transferred: Money,
    /// Outstanding.
    pub outstanding: Money,
}

impl RemittanceYear {
    fn of(year: i32, rows: Vec<QuarterView>) -> Self {
        let items: Vec<RemittanceQuarter> = rows.into_iter().map(Into::into).collect();
        let sum = |f: &dyn Fn(&RemittanceQuarter) -> Money| items.iter().map(f).sum();
        let totals = RemittanceTotals {
            tax_collected: sum(&|q| q.tax_collected.unwrap_or_default()),
            commission: sum(&|q| q.commission.unwrap_or_default()),
            transferred: sum(&|q| q.transferred),
            outstanding: sum(&|q| q.outstanding),
        };
        RemittanceYear {
            year,
            items,
            totals,
        }
    }
}

/// One row per member and quarter.
fn year_csv(y: &RemittanceYear) -> String {
    let mut out = String::from(
        "municipality,name,period,due_on,status,version,source,gross_receipts,tax_collected,payor_count,commission_share,commission,retained,submitted_on,transferred,outstanding,last_paid_on\r\n",
    );
    for q in &y.items {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n",
            field(&q.municipality),
            field(&q.name),
            q.period,
            q.due_on,
            q.status.as_str(),
            opt(&q.version),
            opt(&q.source),
            opt(&q.gross_receipts),
            opt(&q.tax_collected),
            opt(&q.payor_count),
            opt(&q.commission_share),
            opt(&q.commission),
            opt(&q.retained),
            opt(&q.submitted_on),
            q.transferred,
            q.outstanding,
            opt(&q.last_paid_on),
        ));
    }
    out
}

fn answer(req: &HttpRequest, body: RemittanceYear) -> HttpResponse {
    crate::api::csv::or_json(req, body, year_csv)
}

/// The municipality's quarters of a year: what it submitted to its zone, the commission's share, what is outstanding.
///
/// Clerk-treasurer or staff; related roles get 403, anyone else 404. One row per quarter
/// in which a zone membership covers the quarter's last day. `Accept: text/csv` answers
/// the same rows as CSV.
#[utoipa::path(
    operation_id = "list_municipality_remittances",
    tag = "remittances",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, YearParams),
    responses(
        (status = 200, description = "The quarters", content(
            (RemittanceYear = "application/json"),
            (String = "text/csv")
        )),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/remittances")]
pub async fn of_municipality(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<YearParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let (year, asked) = YearParams::asked(params);
    let rows = here
        .read(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| { view::of_municipality(conn, &ctx, &municipality, asked, today) },
        )
        .await?;
    Ok(answer(&req, RemittanceYear::of(year, rows)))
}

/// The zone's members' quarters of a year: submitted totals, the commission's share, status and what is outstanding.
///
/// Only the zone admin, commission members, the tourism entity and the zone's API
/// clients; a member's clerk-treasurer sees its own municipality's rows only; other
/// related callers get 403, anyone else 404. Totals per member only: no operator is named and no
/// operator's figure is shown. A quarter not submitted is `missing` after its due date
/// (the end of the month after the quarter's return due date), `due` before. `Accept:
/// text/csv` answers the same rows as CSV.
#[utoipa::path(
    operation_id = "list_zone_remittances",
    tag = "remittances",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath, YearParams),
    responses(
        (status = 200, description = "The quarters", content(
            (RemittanceYear = "application/json"),
            (String = "text/csv")
        )),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/remittances")]
pub async fn of_zone(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<YearParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let (year, asked) = YearParams::asked(params);
    let rows = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            view::of_zone(conn, &ctx, asked, today)
        })
        .await?;
    Ok(answer(&req, RemittanceYear::of(year, rows)))
}

/// A member's seats on the commission.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MemberSeatsOut {
    /// The member municipality's slug.
    pub municipality: String,
    /// Its name.
    pub name: String,
    /// Seats on the commission: 1, 2 or 3.
    pub seats: u8,
    /// The previous year's submitted tax collected the seats are counted from.
    pub collections: Money,
    /// Quarters of the previous year with no submission (their tax is not counted).
    pub missing_quarters: Vec<String>,
    /// How the seats were counted, with the statute's citation.
    pub explanation: Line,
}

impl From<MemberSeats> for MemberSeatsOut {
    fn from(m: MemberSeats) -> Self {
        MemberSeatsOut {
            municipality: m.municipality,
            name: m.name,
            seats: m.seats.allocation.seats,
            collections: m.seats.collections,
            missing_quarters: m.seats.missing.iter().map(ToString::to_string).collect(),
            explanation: m.seats.allocation.line,
        }
    }
}

/// The commission's seats for a year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ZoneSeats {
    /// The year the seats are for.
    pub year: i32,
    /// The year whose collections count (the previous one).
    pub collections_year: i32,
    /// Each member during `year`, by slug.
    pub members: Vec<MemberSeatsOut>,
}

/// Each member's seats on the zone's commission for a year, from its previous year's submitted tax collected.
///
/// Only the callers of the zone's remittances (a member's clerk-treasurer: its own seats).
/// Wis. Stat. § 66.0615(1m)(c): 1 seat at or below $300,000, 2 above $300,000 up to
/// $1,000,000, 3 above $1,000,000. Counted from the remittances submitted for the previous
/// year's quarters, naming the quarters missing.
#[utoipa::path(
    operation_id = "get_zone_seats",
    tag = "remittances",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath, YearParams),
    responses(
        (status = 200, description = "The seats", body = ZoneSeats),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/seats")]
pub async fn seats(
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<YearParams>, ApiError>,
) -> Result<web::Json<ZoneSeats>, ApiError> {
    let (year, asked) = YearParams::asked(params);
    let members = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            view::seats(conn, &ctx, asked)
        })
        .await?;
    Ok(web::Json(ZoneSeats {
        year,
        collections_year: year - 1,
        members: members.into_iter().map(Into::into).collect(),
    }))
}
