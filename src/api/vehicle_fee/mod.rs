//! Montello's vehicle registration fee:
//! `POST .../vehicle-fee-remittances` (the DOT's remittance for a quarter),
//! `POST .../vehicle-fee-remittances/{period}/corrections` (its next version),
//! `GET .../vehicle-fee-remittances` (every version, JSON or CSV),
//! `POST .../vehicle-fee-fund/spending` (a payment out of the fund),
//! `POST .../vehicle-fee-fund/spending/{spending}/reversal` (a payment
//! recorded in error reversed by a new entry) and
//! `GET .../vehicle-fee-fund` (the fund's statement, JSON or CSV).
//!
//! Contract: thin handlers over `usecases::vehicle_fee` (authorise before the
//! body or the query is judged, one use-case call in the request's unit of
//! work, shape the response). The clerk-treasurer and staff only, a person;
//! other roles related to the municipality 403, anyone else 404; a
//! municipality whose ordinance has no vehicle fee 409 `no_vehicle_fee`. The
//! creating `POST`s honour `Idempotency-Key` (`api::idempotency`). Dates are
//! the municipality's local calendar date, read from the application's clock.

mod types;

pub use types::*;

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::vehicle_fee::{self, NewCorrection, NewRemittance, NewReversal, NewSpending},
};

/// `/v1/municipalities/{slug}/vehicle-fee-remittances?period={period}`.
fn remittance_location(slug: &str, period: &str) -> String {
    format!("/v1/municipalities/{slug}/vehicle-fee-remittances?period={period}")
}

/// `{municipality}/vehicle-fee-remittances/{period}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct RemittancePath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// The calendar quarter, e.g. `2026-Q1`.
    period: String,
}

/// `{municipality}/vehicle-fee-fund/spending/{spending}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct SpendingPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// The spending's id.
    spending: String,
}

/// Which remittances to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RemittanceParams {
    /// Only the quarters of this calendar year, e.g. `2026`.
    #[param(minimum = 1990, maximum = 2200)]
    pub year: Option<i32>,
    /// Only this quarter, e.g. `2026-Q1`.
    pub period: Option<String>,
}

/// The statement's span.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FundParams {
    /// The first day covered (ISO 8601); default the 1st of January of `to`'s year.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub from: Option<NaiveDate>,
    /// The last day covered (ISO 8601), not after today; default today.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub to: Option<NaiveDate>,
}

/// Record what the DOT remitted of the city's vehicle registration fee for a quarter.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404; a
/// municipality whose ordinance has no vehicle fee (Hayward) 409 `no_vehicle_fee`. The
/// service computes gross = `vehicle_count` × the fee ($20.00), the DOT's retention =
/// `vehicle_count` × its administrative cost per vehicle ($0.17 today, a policy
/// parameter), the expected net = gross − retention, and the difference = received −
/// expected net, flagged `matches`, `short` or `over` (Montello vehicle registration fee,
/// fee ¶ and DOT retention ¶; Wis. Stat. § 341.35). The amount actually received is
/// posted into the segregated fund (one journal: `municipality:cash` debited,
/// `municipality:vehicle_fee_fund` credited). One recording per quarter: a second is 409
/// `already_recorded`; a correction is a new version (`.../{period}/corrections`).
/// `Location` lists the quarter's versions. Written to the access log
/// (`vehicle_fee_remittance`, `create`).
#[utoipa::path(
    operation_id = "record_vehicle_fee_remittance",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, crate::api::idempotency::KeyHeader),
    request_body = VehicleFeeRemittanceRequest,
    responses(
        (status = 201, description = "Recorded and posted; the body shows the figures explained", body = VehicleFeeRemittanceVersion,
            headers(("Location" = String, description = "Path of the quarter's versions"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No vehicle fee in the municipality's ordinance (`no_vehicle_fee`) or in the policy governing the quarter (`no_vehicle_fee_in_force`); the quarter already recorded (`period`, `already_recorded`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`period` not a calendar quarter, `vehicle_count` negative, `amount_received` negative, `received_on` after today or before the quarter, `reference` blank, too long or with control characters; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/vehicle-fee-remittances")]
pub async fn record_remittance(
    creating: Creating<VehicleFeeRemittanceRequest>,
) -> Result<HttpResponse, ApiError> {
    let slug = creating.slug().to_owned();
    creating
        .run(
            allowed_to(Action::RecordVehicleFees),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = vehicle_fee::record_remittance(
                    conn,
                    &ctx,
                    NewRemittance {
                        period: body.period,
                        vehicle_count: body.vehicle_count,
                        amount_received: body.amount_received,
                        received_on: body.received_on,
                        reference: body.reference,
                    },
                    today,
                )?;
                Reply::created(
                    remittance_location(&slug, &recorded.row.period),
                    &VehicleFeeRemittanceVersion::from(&recorded),
                )
            },
        )
        .await
}

/// Correct a quarter's vehicle fee remittance: a new version with the quarter's figures as corrected.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404; no
/// vehicle fee in the ordinance 409 `no_vehicle_fee`. Nothing is changed: the version
/// recomputes gross, retention, expected net and difference from the corrected
/// `vehicle_count` and `amount_received`, and posts into the fund the difference between
/// its amount received and the previous version's (negative when less was received than
/// first recorded) on `received_on`. 404 when the quarter has no remittance; 409
/// `exceeds_fund_balance` when the correction would take back more than the fund can give
/// up on that date. `Location` lists the quarter's versions. Written to the access log
/// (`vehicle_fee_remittance`, `correct`).
#[utoipa::path(
    operation_id = "correct_vehicle_fee_remittance",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(RemittancePath, crate::api::idempotency::KeyHeader),
    request_body = VehicleFeeCorrectionRequest,
    responses(
        (status = 201, description = "The new version, recorded and its difference posted", body = VehicleFeeRemittanceVersion,
            headers(("Location" = String, description = "Path of the quarter's versions"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No vehicle fee (`no_vehicle_fee`, `no_vehicle_fee_in_force`); the fund cannot give back what the correction takes (`amount_received`, `exceeds_fund_balance`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`period` not a calendar quarter, `vehicle_count` or `amount_received` negative, nothing changed (`no_change`), `received_on` after today or before the previous version's, `reference` or `reason` blank, too long or with control characters; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/vehicle-fee-remittances/{period}/corrections")]
pub async fn correct_remittance(
    path: web::Path<(String, String)>,
    creating: Creating<VehicleFeeCorrectionRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, period) = path.into_inner();
    creating
        .run(
            allowed_to(Action::RecordVehicleFees),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = vehicle_fee::correct_remittance(
                    conn,
                    &ctx,
                    &period,
                    NewCorrection {
                        vehicle_count: body.vehicle_count,
                        amount_received: body.amount_received,
                        received_on: body.received_on,
                        reference: body.reference,
                        reason: body.reason,
                    },
                    today,
                )?;
                Reply::created(
                    remittance_location(&slug, &recorded.row.period),
                    &VehicleFeeRemittanceVersion::from(&recorded),
                )
            },
        )
        .await
}

/// The DOT's vehicle fee remittances recorded, every version, with expected, received and difference.
///
/// Clerk-treasurer or staff only, a person (the fund is the treasurer's book: not
/// confidential, but not public either); related roles get 403, anyone else 404; no
/// vehicle fee in the ordinance 409 `no_vehicle_fee`. Ordered by quarter, then version;
/// a quarter's current figures are its version with `superseded` false. `year` and
/// `period` narrow the list. `Accept: text/csv` answers one row per version.
#[utoipa::path(
    operation_id = "list_vehicle_fee_remittances",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, RemittanceParams),
    responses(
        (status = 200, description = "The versions", content(
            (VehicleFeeRemittanceList = "application/json"),
            (String = "text/csv")
        )),
        (status = 409, description = "No vehicle fee in the municipality's ordinance (`no_vehicle_fee`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`period` not a calendar quarter", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/vehicle-fee-remittances")]
pub async fn list_remittances(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<RemittanceParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let list = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            vehicle_fee::may_read(&ctx)?;
            let params = params?.0;
            let period = params
                .period
                .as_deref()
                .map(|p| crate::domain::vehicle_fee::parse_remittance_quarter("period", p))
                .transpose()?;
            let versions = vehicle_fee::remittances(conn, &ctx, params.year, period)?;
            Ok(VehicleFeeRemittanceList {
                items: versions.iter().map(Into::into).collect(),
            })
        })
        .await?;
    Ok(crate::api::csv::or_json(&req, list, remittances_csv))
}

/// Record a payment out of the vehicle registration fee fund, for a purpose the ordinance allows.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404; no
/// vehicle fee in the ordinance 409 `no_vehicle_fee`. The ordinance restricts the fund
/// "to local street and road improvements, maintenance and operation expenses of said
/// road or streets and transportation-related expenses" (Montello vehicle registration
/// fee, fee ¶): `purpose` must name one of them (any other is 409 `purpose_not_allowed`,
/// citing it), and the amount may not exceed what the fund holds on `spent_on` and keeps
/// holding every later day (409 `exceeds_fund_balance`). One journal
/// (`municipality:vehicle_fee_fund` debited, cash credited). `Location` is the fund's
/// statement. Written to the access log (`vehicle_fee_spending`, `create`).
#[utoipa::path(
    operation_id = "record_vehicle_fee_spending",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, crate::api::idempotency::KeyHeader),
    request_body = VehicleFeeSpendingRequest,
    responses(
        (status = 201, description = "Recorded and posted", body = VehicleFeeSpendingRecorded,
            headers(("Location" = String, description = "Path of the fund's statement"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A purpose the ordinance does not allow (`purpose`, `purpose_not_allowed`); more than the fund holds (`amount`, `exceeds_fund_balance`); no vehicle fee (`no_vehicle_fee`, `no_vehicle_fee_in_force`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`spent_on` after today, `amount` not more than 0.00, `payee`, `purpose` or `description` blank, too long or with control characters; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/vehicle-fee-fund/spending")]
pub async fn record_spending(
    creating: Creating<VehicleFeeSpendingRequest>,
) -> Result<HttpResponse, ApiError> {
    let location = format!("/v1/municipalities/{}/vehicle-fee-fund", creating.slug());
    creating
        .run(
            allowed_to(Action::RecordVehicleFees),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = vehicle_fee::record_spending(
                    conn,
                    &ctx,
                    NewSpending {
                        spent_on: body.spent_on,
                        amount: body.amount,
                        payee: body.payee,
                        purpose: body.purpose,
                        description: body.description,
                    },
                    today,
                )?;
                Reply::created(location, &VehicleFeeSpendingRecorded::from(&recorded))
            },
        )
        .await
}

/// Reverse a payment out of the fund recorded in error: a new entry puts its amount back.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404; no
/// vehicle fee in the ordinance 409 `no_vehicle_fee`. Nothing is edited or deleted: the
/// spending stays on record and a reversing journal (cash debited,
/// `municipality:vehicle_fee_fund` credited with the spending's amount) is posted on
/// `reversed_on`, so the fund's balance can only rise (it is never overdrawn: a payment is
/// refused beyond what the fund holds, 409 `exceeds_fund_balance`). A spending is reversed
/// once (409 `already_reversed`); 404 when there is no such spending. The fund's statement
/// lists the reversal (`spending_reversed`). `Location` is the fund's statement. Written
/// to the access log (`vehicle_fee_spending`, `reverse`).
#[utoipa::path(
    operation_id = "reverse_vehicle_fee_spending",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(SpendingPath, crate::api::idempotency::KeyHeader),
    request_body = VehicleFeeReversalRequest,
    responses(
        (status = 201, description = "Reversed and posted", body = VehicleFeeReversalRecorded,
            headers(("Location" = String, description = "Path of the fund's statement"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already reversed (`spending`, `already_reversed`); no vehicle fee (`no_vehicle_fee`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`reversed_on` after today or before the spending, `reason` blank, too long or with control characters; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/vehicle-fee-fund/spending/{spending}/reversal")]
pub async fn reverse_spending(
    path: web::Path<(String, String)>,
    creating: Creating<VehicleFeeReversalRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, spending) = path.into_inner();
    let location = format!("/v1/municipalities/{slug}/vehicle-fee-fund");
    creating
        .run(
            allowed_to(Action::RecordVehicleFees),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = vehicle_fee::reverse_spending(
                    conn,
                    &ctx,
                    &spending,
                    NewReversal {
                        reversed_on: body.reversed_on,
                        reason: body.reason,
                    },
                    today,
                )?;
                Reply::created(location, &VehicleFeeReversalRecorded::from(&recorded))
            },
        )
        .await
}

/// The vehicle registration fee fund's statement: opening balance, each receipt and spending, closing balance.
///
/// Clerk-treasurer or staff only, a person (the fund is the treasurer's book: not
/// confidential, but not public either); related roles get 403, anyone else 404; no
/// vehicle fee in the ordinance 409 `no_vehicle_fee`. From `from` to `to` (default: the
/// year to date): the fund at the end of the day before `from`, every receipt (each
/// remittance version with its expected net, amount received and difference; a
/// correction's difference) and every payment out, oldest first with the balance after
/// each, and the fund at the end of `to`. The fund is segregated as the ordinance
/// requires ("deposited into a segregated fund", Montello vehicle registration fee, fee
/// ¶): its own account in the ledger, within the city's cash. `Accept: text/csv` answers
/// the opening row, one row per movement and the closing row.
#[utoipa::path(
    operation_id = "get_vehicle_fee_fund",
    tag = "vehicle_fee",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, FundParams),
    responses(
        (status = 200, description = "The statement", content(
            (VehicleFeeFund = "application/json"),
            (String = "text/csv")
        )),
        (status = 409, description = "No vehicle fee in the municipality's ordinance (`no_vehicle_fee`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`to` after today or `from` after `to`", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/vehicle-fee-fund")]
pub async fn fund(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<FundParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let statement = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            vehicle_fee::may_read(&ctx)?;
            let params = params?.0;
            vehicle_fee::statement(conn, &ctx, params.from, params.to, today)
        })
        .await?;
    Ok(crate::api::csv::or_json(
        &req,
        VehicleFeeFund::from(&statement),
        fund_csv,
    ))
}
