//! `POST /v1/municipalities/{municipality}/remittances` (submit or correct a
//! quarter's remittance to the zone), `GET .../remittances/preview?period=`
//! (the figures before submitting), `POST .../remittances/{remittance}/transfer`
//! (the commission's share marked paid); the lists and the seats are in
//! [`views`].
//!
//! Contract: thin handlers over `usecases::remittances` (authorise before
//! the body or the query is judged, one use-case call in the request's unit
//! of work, shape). The clerk-treasurer only, a person (related roles 403,
//! anyone else 404); `Idempotency-Key` honoured on both POSTs
//! (`api::idempotency`). A submission with the same figures as the version on
//! file answers 200 with it; a new version 201. `Location` is the
//! municipality's remittances of the quarter's year.

pub mod views;

use actix_web::{HttpResponse, get, post, web};
use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    domain::{Line, Money},
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::remittances::{
        self, Computed, NewTransfer, Recorded, RecordedTransfer, Submission, TransferMethod,
    },
};

/// `/v1/municipalities/{slug}/remittances?year={year}`.
pub fn year_location(slug: &str, submitted_on: NaiveDate, period: &str) -> String {
    let year = period
        .get(..4)
        .and_then(|y| y.parse::<i32>().ok())
        .unwrap_or(submitted_on.year());
    format!("/v1/municipalities/{slug}/remittances?year={year}")
}

/// A quarter's collected totals, as the clerk-treasurer submits them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RemittanceRequest {
    /// The calendar quarter, e.g. "2026-Q1"; it must have ended.
    pub period: String,
    /// Only for a municipality that administers its tax elsewhere (no payor in this service's registry): the taxable gross receipts of the quarter, a decimal string, not negative. Refused (`computed_from_ledger`) where the figures come from the ledger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gross_receipts: Option<Money>,
    /// Only for a municipality that administers its tax elsewhere: the room tax collected in the quarter, not negative and at most `gross_receipts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_collected: Option<Money>,
    /// Only for a municipality that administers its tax elsewhere: the number of payors who paid tax in the quarter, not negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payor_count: Option<i64>,
}

/// A version of a quarter's remittance to the zone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Remittance {
    /// The version's id.
    pub id: String,
    /// The municipality's slug.
    pub municipality: String,
    /// The zone it is remitted to (the membership covering the quarter's last day).
    pub zone: String,
    /// The quarter.
    pub period: String,
    /// 1 for the first submission; each correction adds one.
    pub version: i32,
    /// `ledger` (computed from the municipality's ledger) or `entered` (the clerk's totals).
    pub source: String,
    /// Taxable receipts behind the tax: from the ledger, per period charged, tax ÷ that period's rate, rounded to the cent.
    pub gross_receipts: Money,
    /// Room tax principal received in the quarter, by the date received (interest, fees and penalties stay with the municipality).
    pub tax_collected: Money,
    /// Payors who paid tax in the quarter (a count; no payor is named).
    pub payor_count: i64,
    /// The commission's share of the policy governing the quarter, e.g. "0.75".
    pub commission_share: String,
    /// Forwarded to the commission: the tax × the share, rounded once, half away from zero.
    pub commission: Money,
    /// Retained in the municipality's general fund: the remainder (commission + retained = tax_collected).
    pub retained: Money,
    /// What this version moved to the commission payable: its share less the previous version's.
    pub commission_difference: Money,
    /// The local date it was submitted.
    #[schema(value_type = String, format = Date)]
    pub submitted_on: NaiveDate,
    /// When the quarter's remittance is due (the end of the month after the quarter's return due date).
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    /// How the split was computed, with the ordinance's citation.
    pub explanation: Vec<Line>,
}

impl Remittance {
    /// The version `r` of the municipality `slug`, as answered.
    pub fn of(slug: &str, r: &Recorded) -> Remittance {
        let row = &r.row;
        Remittance {
            id: row.id.clone(),
            municipality: slug.to_owned(),
            zone: r.zone.clone(),
            period: row.period.clone(),
            version: row.version,
            source: row.source.clone(),
            gross_receipts: Money::from_cents(row.gross_receipts_cents),
            tax_collected: Money::from_cents(row.tax_collected_cents),
            payor_count: i64::from(row.payor_count),
            commission_share: row.commission_share.clone(),
            commission: Money::from_cents(row.commission_cents),
            retained: Money::from_cents(row.retained_cents),
            commission_difference: Money::from_cents(row.commission_difference_cents),
            submitted_on: row.submitted_on,
            due_on: row
                .period
                .parse()
                .map(|p| crate::domain::remittance::due_date(&p))
                .unwrap_or(row.submitted_on),
            explanation: r.lines.clone(),
        }
    }
}

/// What a quarter's remittance comes to now, before it is submitted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RemittancePreview {
    /// The quarter.
    pub period: String,
    /// The zone it would be remitted to.
    pub zone: String,
    /// Always `ledger`: only computed figures are previewed.
    pub source: String,
    /// Taxable receipts behind the tax (per period charged, tax ÷ rate).
    pub gross_receipts: Money,
    /// Room tax principal received in the quarter, by the date received.
    pub tax_collected: Money,
    /// Payors who paid tax in the quarter.
    pub payor_count: i64,
    /// The commission's share of the policy governing the quarter.
    pub commission_share: String,
    /// The commission's part.
    pub commission: Money,
    /// The municipality's part.
    pub retained: Money,
    /// What submitting now would move to the commission payable (the share less the latest version's).
    pub commission_difference: Money,
    /// The latest version on file, if any.
    pub latest_version: Option<i32>,
    /// True when the figures are those of the latest version: submitting would answer it unchanged.
    pub unchanged: bool,
    /// How the split was computed, with the ordinance's citation.
    pub explanation: Vec<Line>,
}

impl From<Computed> for RemittancePreview {
    fn from(c: Computed) -> Self {
        let unchanged = c.latest.as_ref().is_some_and(|l| {
            l.source == c.source.as_str()
                && l.gross_receipts_cents == c.figures.gross_receipts.cents()
                && l.tax_collected_cents == c.figures.tax_collected.cents()
                && i64::from(l.payor_count) == c.figures.payor_count
        });
        RemittancePreview {
            period: c.period.to_string(),
            zone: c.zone,
            source: c.source.as_str().to_owned(),
            gross_receipts: c.figures.gross_receipts,
            tax_collected: c.figures.tax_collected,
            payor_count: c.figures.payor_count,
            commission_share: c.commission_share.normalize().to_string(),
            commission: c.split.distribution.commission,
            retained: c.split.distribution.municipality,
            commission_difference: if unchanged {
                Money::ZERO
            } else {
                c.split.commission_difference
            },
            latest_version: c.latest.as_ref().map(|l| l.version),
            unchanged,
            explanation: c.split.lines,
        }
    }
}

/// Submit (or correct) a quarter's remittance to the zone: the commission's share of the tax collected.
///
/// Clerk-treasurer only, a person; related roles get 403, anyone else 404. Where the
/// municipality administers its payors here (it has payors in the registry) the figures
/// come from its ledger: the tax principal received in the quarter by the date received
/// (payments, reversals, credit applied and security applied on `tax`, of any period);
/// otherwise the clerk enters `gross_receipts`, `tax_collected` and `payor_count`. The
/// tax is split by the policy governing the quarter (Montello room tax, distribution ¶A:
/// 75 % to the commission, rounded half away from zero; 25 % to the general fund, the
/// remainder). A journal (`remittance`) debits `municipality:revenue:tax` and credits
/// `municipality:commission_payable`. The same figures again answer the version on file
/// (200, nothing posted); changed figures (a late payment) are a new version posting the
/// difference (201).
#[utoipa::path(
    operation_id = "submit_remittance",
    tag = "remittances",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, crate::api::idempotency::KeyHeader),
    request_body = RemittanceRequest,
    responses(
        (status = 200, description = "The same figures are on file: the version on file", body = Remittance,
            headers(("Location" = String, description = "Path of the municipality's remittances of the year"))),
        (status = 201, description = "A new version recorded and its journal posted", body = Remittance,
            headers(("Location" = String, description = "Path of the municipality's remittances of the year"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No zone membership covers the quarter's last day (`period`, `not_a_zone_member`, citing Wis. Stat. § 66.0615(1m)(c)); a concurrent submission; or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`period` not a quarter or not ended (`not_ended`); totals sent where they come from the ledger (`computed_from_ledger`) or missing where they must be entered (`required`), negative, or tax above the receipts; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/remittances")]
pub async fn submit(creating: Creating<RemittanceRequest>) -> Result<HttpResponse, ApiError> {
    let slug = creating.slug().to_owned();
    creating
        .run(
            allowed_to(Action::SubmitRemittances),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = remittances::submit(
                    conn,
                    &ctx,
                    &Submission {
                        period: body.period,
                        gross_receipts: body.gross_receipts,
                        tax_collected: body.tax_collected,
                        payor_count: body.payor_count,
                    },
                    today,
                )?;
                let location = year_location(&slug, today, &recorded.row.period);
                let out = Remittance::of(&slug, &recorded);
                if recorded.created {
                    Reply::created(location, &out)
                } else {
                    Reply::ok(location, &out)
                }
            },
        )
        .await
}

/// The quarter to preview.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PreviewParams {
    /// The calendar quarter, e.g. `2026-Q1`; it must have ended.
    pub period: String,
}

/// The figures a quarter's remittance would have if submitted now (nothing is written).
///
/// Clerk-treasurer only; related roles get 403, anyone else 404. The same computation as
/// the submission, from the ledger; a municipality that enters its totals has nothing to
/// preview (409 `entered_totals`).
#[utoipa::path(
    operation_id = "preview_remittance",
    tag = "remittances",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, PreviewParams),
    responses(
        (status = 200, description = "The figures and their split", body = RemittancePreview),
        (status = 400, description = "`period` missing", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a zone member on the quarter's last day (`not_a_zone_member`), or the municipality enters its totals (`entered_totals`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`period` not a quarter or not ended", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/remittances/preview")]
pub async fn preview(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<PreviewParams>, ApiError>,
) -> Result<web::Json<RemittancePreview>, ApiError> {
    let today = state.clock.today();
    let computed = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            remittances::preview(conn, &ctx, params.map(|p| p.0.period), today)
        })
        .await?;
    Ok(web::Json(RemittancePreview::from(computed)))
}

/// `{municipality}/remittances/{remittance}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct RemittancePath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// The remittance version's id (UUID).
    remittance: String,
}

/// The commission's share marked paid, as the clerk-treasurer enters it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferRequest {
    /// The local date the share was paid to the commission: not before the version was submitted, not after today.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub paid_on: NaiveDate,
    /// How: `check`, `ach`, `card`, `cash` or `wire`.
    pub method: TransferMethod,
    /// The check number or transaction id (1 to 100 characters, one line).
    pub reference: String,
}

/// The commission's share of a version, paid.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Transfer {
    /// The transfer's id.
    pub id: String,
    /// The version whose share it paid.
    pub remittance_id: String,
    /// The quarter.
    pub period: String,
    /// The local date paid.
    #[schema(value_type = String, format = Date)]
    pub paid_on: NaiveDate,
    /// The amount paid: what was outstanding of the quarter's commission share.
    pub amount: Money,
    /// `check`, `ach`, `card`, `cash` or `wire`.
    pub method: TransferMethod,
    /// The check number or transaction id.
    pub reference: String,
    /// The journal it posted (commission payable debited, cash credited).
    pub journal_id: String,
}

impl From<RecordedTransfer> for Transfer {
    fn from(t: RecordedTransfer) -> Self {
        Transfer {
            id: t.row.id,
            remittance_id: t.row.remittance_id,
            period: t.row.period,
            paid_on: t.row.paid_on,
            amount: Money::from_cents(t.row.amount_cents),
            method: TransferMethod::of(&t.row.method),
            reference: t.row.reference,
            journal_id: t.journal_id,
        }
    }
}

/// Mark the commission's share of a remittance version paid to the commission.
///
/// Clerk-treasurer only, a person; related roles get 403, anyone else 404. Pays what is
/// outstanding of the quarter's commission share (the latest version's share less earlier
/// transfers); a journal (`remittance_transfer`) debits `municipality:commission_payable`
/// and credits `municipality:cash` on `paid_on`. Once per version; only the latest version.
#[utoipa::path(
    operation_id = "record_remittance_transfer",
    tag = "remittances",
    security(("bearer" = [])),
    params(RemittancePath, crate::api::idempotency::KeyHeader),
    request_body = TransferRequest,
    responses(
        (status = 201, description = "Recorded", body = Transfer,
            headers(("Location" = String, description = "Path of the municipality's remittances of the year"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such remittance version", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already paid (`already_paid`), corrected by a later version (`superseded`), nothing outstanding (`nothing_outstanding`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`paid_on` after today or before the submission (`before_submission`), `reference` blank, too long or with control characters; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/remittances/{remittance}/transfer")]
pub async fn transfer(
    path: web::Path<(String, String)>,
    creating: Creating<TransferRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::SubmitRemittances),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = remittances::transfer(
                    conn,
                    &ctx,
                    &id,
                    NewTransfer {
                        paid_on: body.paid_on,
                        method: body.method,
                        reference: body.reference,
                    },
                    today,
                )?;
                let location = year_location(&slug, today, &recorded.row.period);
                Reply::created(location, &Transfer::from(recorded))
            },
        )
        .await
}
