//! `GET .../delinquencies?as_of=` (JSON or CSV), `GET .../special-assessments?as_of=`
//! (CSV or JSON), `POST .../payors/{payor}/delinquency-letters` and
//! `POST .../ledger/daily-posting`.
//!
//! Contract: thin handlers over `usecases::ledger::{delinquency, daily}` (one
//! unit of work per request; the use case authorises: the clerk-treasurer and
//! staff, related roles 403, anyone else 404). Dates are the municipality's
//! local date from the application's clock. CSV fields that may hold text
//! (names, addresses) are quoted.

use crate::api::csv::field;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        idempotency::Reply,
    },
    app::AppState,
    domain::{Money, delinquency::AgeBucket},
    error::{ApiError, Problem},
    usecases::ledger::{
        daily::{self, DailyPosting},
        delinquency::{self, AssessmentRow, Delinquent},
    },
};

/// The list's date.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AsOfParams {
    /// The date (ISO 8601), not after today; default today.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub as_of: Option<NaiveDate>,
}

/// An unpaid component of a period.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct UnpaidComponent {
    /// `tax`, `interest` (posted), `late_filing_fee`, `late_payment_forfeiture`, `estimate_penalty`, `fraud_penalty`.
    pub component: String,
    /// Unpaid.
    pub amount: Money,
}

/// A period past due.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PastDuePeriod {
    /// The period.
    pub period: String,
    /// The (extended) due date of its return.
    #[schema(value_type = String, format = Date)]
    pub due_date: NaiveDate,
    /// Days past the due date as of the list's date.
    pub days_past_due: i64,
    /// `1-30`, `31-60`, `61-90` or `over-90`.
    pub bucket: AgeBucket,
    /// Unpaid by component (posted).
    pub components: Vec<UnpaidComponent>,
    /// Interest accrued to the date on the unpaid tax (computed, not posted).
    pub interest_accrued: Money,
    /// Owed for the period: the components plus the accrued interest.
    pub balance: Money,
}

/// A payor with amounts past due.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DelinquentPayor {
    /// The payor.
    pub payor_id: String,
    /// Its legal name.
    pub legal_name: String,
    /// Its periods past due, oldest first.
    pub periods: Vec<PastDuePeriod>,
    /// Past due over the periods.
    pub past_due: Money,
    /// Credit it holds.
    pub credit: Money,
    /// Past due less the credit.
    pub owed: Money,
}

/// The amounts past due in one age bucket.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BucketTotal {
    /// The bucket.
    pub bucket: AgeBucket,
    /// Periods past due in it.
    pub periods: usize,
    /// Their balances.
    pub amount: Money,
}

/// Payors with unpaid amounts past due as of a date, by age.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Delinquencies {
    /// The list's date.
    #[schema(value_type = String, format = Date)]
    pub as_of: NaiveDate,
    /// Per bucket, youngest first.
    pub buckets: Vec<BucketTotal>,
    /// The payors, in id order.
    pub payors: Vec<DelinquentPayor>,
    /// Owed over the payors (past due less credit).
    pub total_owed: Money,
}

impl Delinquencies {
    fn of(as_of: NaiveDate, found: &[Delinquent]) -> Self {
        let payors: Vec<DelinquentPayor> = found
            .iter()
            .map(|d| DelinquentPayor {
                payor_id: d.payor.id.clone(),
                legal_name: d.payor.legal_name.clone(),
                periods: d
                    .periods
                    .iter()
                    .map(|p| PastDuePeriod {
                        period: p.period.to_string(),
                        due_date: p.due_date,
                        days_past_due: p.days_past_due,
                        bucket: p.bucket,
                        components: p
                            .components
                            .iter()
                            .map(|(c, m)| UnpaidComponent {
                                component: c.as_str().to_owned(),
                                amount: *m,
                            })
                            .collect(),
                        interest_accrued: p.interest_accrued,
                        balance: p.balance,
                    })
                    .collect(),
                past_due: d.past_due(),
                credit: d.credit,
                owed: d.past_due() - d.credit,
            })
            .collect();
        let buckets = AgeBucket::ALL
            .into_iter()
            .map(|b| {
                let ps: Vec<&PastDuePeriod> = payors
                    .iter()
                    .flat_map(|p| &p.periods)
                    .filter(|p| p.bucket == b)
                    .collect();
                BucketTotal {
                    bucket: b,
                    periods: ps.len(),
                    amount: ps.iter().map(|p| p.balance).sum(),
                }
            })
            .collect();
        Delinquencies {
            as_of,
            buckets,
            total_owed: payors.iter().map(|p| p.owed).sum(),
            payors,
        }
    }
}

/// One row per payor and period past due.
fn delinquencies_csv(d: &Delinquencies) -> String {
    let components = [
        "tax",
        "interest",
        "late_filing_fee",
        "late_payment_forfeiture",
        "estimate_penalty",
        "fraud_penalty",
    ];
    let mut out = format!(
        "payor_id,legal_name,period,due_date,days_past_due,bucket,{},interest_accrued,balance\r\n",
        components.join(",")
    );
    for p in &d.payors {
        for period in &p.periods {
            let amounts: Vec<String> = components
                .iter()
                .map(|c| {
                    period
                        .components
                        .iter()
                        .find(|u| u.component == *c)
                        .map(|u| u.amount)
                        .unwrap_or_default()
                        .to_string()
                })
                .collect();
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{}\r\n",
                p.payor_id,
                field(&p.legal_name),
                period.period,
                period.due_date,
                period.days_past_due,
                period.bucket.as_str(),
                amounts.join(","),
                period.interest_accrued,
                period.balance
            ));
        }
    }
    out
}

/// Payors with unpaid amounts past due as of a date, by age (1-30, 31-60, 61-90, over 90 days).
///
/// Clerk-treasurer or staff; related roles get 403, anyone else 404. Each period's
/// figures are the statement of account's as of `as_of` (posted balances by component,
/// interest accrued to the date); a period is past due after the (extended) due date of
/// its return. `Accept: text/csv` answers one row per payor and period. Every payor
/// listed is written to the access log (`payor_account`, `read`).
#[utoipa::path(
    operation_id = "list_delinquencies",
    tag = "delinquencies",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, AsOfParams),
    responses(
        (status = 200, description = "The delinquencies", content(
            (Delinquencies = "application/json"),
            (String = "text/csv")
        )),
        (status = 422, description = "`as_of` after today", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/delinquencies")]
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<AsOfParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let body = here
        .read_for(
            &state,
            crate::tenancy::Action::ReviewReturns,
            move |MunicipalUnit { conn, ctx, .. }| {
                let (as_of, found) = delinquency::list(conn, &ctx, params?.0.as_of, today)?;
                Ok(Delinquencies::of(as_of, &found))
            },
        )
        .await?;
    Ok(crate::api::csv::or_json(&req, body, delinquencies_csv))
}

/// One row of the special-assessment roll.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SpecialAssessment {
    /// The payor.
    pub payor_id: String,
    /// Its legal name.
    pub legal_name: String,
    /// Its mailing address.
    pub mailing_address: String,
    /// Its establishments' addresses in the municipality (the registry holds no parcel numbers).
    pub establishment_addresses: Vec<String>,
    /// The period.
    pub period: String,
    /// The (extended) due date of its return.
    #[schema(value_type = String, format = Date)]
    pub due_date: NaiveDate,
    /// Tax unpaid.
    pub unpaid_tax: Money,
    /// Interest accrued to the date on it (computed, not posted).
    pub interest_accrued: Money,
}

/// The special-assessment roll.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SpecialAssessmentRoll {
    /// The roll's date.
    #[schema(value_type = String, format = Date)]
    pub as_of: NaiveDate,
    /// The ordinance provision it rests on.
    pub citation: String,
    /// One row per payor and period with tax unpaid past due.
    pub rows: Vec<SpecialAssessment>,
}

pub(crate) fn roll_of(
    as_of: NaiveDate,
    citation: &str,
    rows: Vec<AssessmentRow>,
) -> SpecialAssessmentRoll {
    SpecialAssessmentRoll {
        as_of,
        citation: citation.to_owned(),
        rows: rows
            .into_iter()
            .map(|r| SpecialAssessment {
                payor_id: r.payor.id,
                legal_name: r.payor.legal_name,
                mailing_address: r.payor.mailing_address,
                establishment_addresses: r.addresses,
                period: r.period.to_string(),
                due_date: r.due_date,
                unpaid_tax: r.unpaid_tax,
                interest_accrued: r.interest_accrued,
            })
            .collect(),
    }
}

pub(crate) fn roll_csv(roll: &SpecialAssessmentRoll) -> String {
    let mut out = String::from(
        "payor_id,legal_name,mailing_address,establishment_addresses,period,due_date,unpaid_tax,interest_accrued\r\n",
    );
    for r in &roll.rows {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\r\n",
            r.payor_id,
            field(&r.legal_name),
            field(&r.mailing_address),
            field(&r.establishment_addresses.join("; ")),
            r.period,
            r.due_date,
            r.unpaid_tax,
            r.interest_accrued
        ));
    }
    out
}

/// The special-assessment roll: unpaid tax past due, per payor and period, for entry as an assessment on the payor's land (Montello).
///
/// Clerk-treasurer or staff; related roles get 403, anyone else 404. Montello room tax,
/// administration ¶: unpaid tax "may ... be deemed to be an assessment on any land owned
/// by the payor inside the legal boundaries of the municipality". Hayward's ordinance has
/// no such provision: 422 (`municipality`, `no_special_assessment`). CSV by default
/// (`Accept: application/json` for JSON). Every payor listed is written to the access
/// log (`payor_account`, `read`).
#[utoipa::path(
    operation_id = "list_special_assessments",
    tag = "delinquencies",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, AsOfParams),
    responses(
        (status = 200, description = "The roll", content(
            (String = "text/csv"),
            (SpecialAssessmentRoll = "application/json")
        )),
        (status = 422, description = "`as_of` after today; or the municipality's ordinance has no special assessment (`municipality`, `no_special_assessment`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/special-assessments")]
pub async fn special_assessments(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<AsOfParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let roll = here
        .read_for(
            &state,
            crate::tenancy::Action::ReviewReturns,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let as_of = params?.0.as_of.unwrap_or(today);
                let (citation, rows) = delinquency::special_assessments(
                    conn,
                    &ctx,
                    &municipality.slug,
                    Some(as_of),
                    today,
                )?;
                Ok(roll_of(as_of, citation, rows))
            },
        )
        .await?;
    if crate::api::csv::accepts(&req, "application/json") {
        return Ok(HttpResponse::Ok().json(roll));
    }
    Ok(crate::api::csv::ok(roll_csv(&roll)))
}

/// Issue a delinquency letter: a written notice of what the payor owes past due as of today.
///
/// Clerk-treasurer or staff, a person; related roles get 403, anyone else 404. The letter
/// lists each period past due by component with interest accrued to today, the credit
/// held and the total; it posts no journal (cause `payor`). 422 (`payor`,
/// `nothing_past_due`) when nothing is past due. The body is the notice; `Location` its
/// path. Written to the access log (`notice`, `create`).
#[utoipa::path(
    operation_id = "issue_delinquency_letter",
    tag = "delinquencies",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    responses(
        (status = 201, description = "Issued", body = crate::api::notices::NoticeSummary,
            headers(("Location" = String, description = "Path of the notice"))),
        (status = 422, description = "Nothing past due (`payor`, `nothing_past_due`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/delinquency-letters")]
pub async fn letter(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    let today = state.clock.today();
    let row = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            delinquency::letter(conn, &ctx, &payor_id, today).map(|(row, _)| row)
        })
        .await?;
    let summary = crate::api::notices::summary_of(&slug, &row)?;
    let location = format!(
        "/v1/municipalities/{slug}/payors/{}/notices/{}",
        row.payor_id, row.id
    );
    Ok(Reply::created(location, &summary)?.response())
}

/// A forfeiture the daily posting charged.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PostedForfeitureBody {
    /// The payor.
    pub payor_id: String,
    /// The period.
    pub period: String,
    /// The return it is charged on.
    pub return_id: String,
    /// The ledger journal posted (`forfeiture_posted`, cause `return`).
    pub journal_id: String,
    /// The forfeiture.
    pub amount: Money,
    /// How the engine computed it, with its inputs.
    pub explanation: String,
    /// The ordinance paragraph it comes from.
    pub citation: String,
}

/// What the daily posting posted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DailyPostingBody {
    /// The date posted (today).
    #[schema(value_type = String, format = Date)]
    pub posted_on: NaiveDate,
    /// Returns examined: tax unpaid and no forfeiture charged yet.
    pub examined: usize,
    /// The forfeitures posted (none on a second run the same day).
    pub posted: Vec<PostedForfeitureBody>,
    /// Their total.
    pub total: Money,
}

impl From<DailyPosting> for DailyPostingBody {
    fn from(d: DailyPosting) -> Self {
        DailyPostingBody {
            posted_on: d.posted_on,
            examined: d.examined,
            total: d.total(),
            posted: d
                .posted
                .into_iter()
                .map(|p| PostedForfeitureBody {
                    payor_id: p.payor_id,
                    period: p.period.to_string(),
                    return_id: p.return_id,
                    journal_id: p.journal_id,
                    amount: p.line.amount,
                    explanation: p.line.explanation,
                    citation: p.line.citation.into(),
                })
                .collect(),
        }
    }
}

/// Run the daily posting: Montello's late-payment forfeiture on tax unpaid more than 30 days after its due date.
///
/// Clerk-treasurer or staff, a person; related roles get 403, anyone else 404. For every
/// return whose tax is unpaid today more than 30 days after its (extended) due date and
/// whose forfeiture is not yet charged, the engine's forfeiture (the lesser of 25 % of the
/// previous year's tax and $1,000; none without a previous year) is posted as a
/// `forfeiture_posted` journal. Running it again posts nothing; a later payment does not
/// charge it again. Hayward has no such forfeiture: nothing posts. Also `roomtax
/// post-daily --municipality SLUG`. Written to the access log (`daily_posting`, `create`).
#[utoipa::path(
    operation_id = "run_daily_posting",
    tag = "delinquencies",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    responses(
        (status = 200, description = "What was posted", body = DailyPostingBody)
    )
)]
#[post("/v1/municipalities/{municipality}/ledger/daily-posting")]
pub async fn daily_posting(
    state: web::Data<AppState>,
    here: InMunicipality,
) -> Result<web::Json<DailyPostingBody>, ApiError> {
    let today = state.clock.today();
    let posting = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            daily::run(conn, &ctx, today)
        })
        .await?;
    Ok(web::Json(posting.into()))
}
