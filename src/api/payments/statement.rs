//! `GET .../payors/{payor}/account?as_of=DATE`: the statement of account.

use actix_web::{HttpRequest, HttpResponse, get, web};
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;

use super::types::{Account, account_csv};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
    },
    app::AppState,
    error::{ApiError, Problem},
    usecases::ledger::statement,
};

/// The statement's date.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AccountParams {
    /// The statement's date (ISO 8601), not after today; default today.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub as_of: Option<NaiveDate>,
}

/// A payor's statement of account as of a date: every period's charges, payments, accrued interest and balance.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff, or the payor's own
/// operator; anyone else gets 404. Only what was posted on or before `as_of` counts (the
/// same statement as of a past date shows what was known and owed then); interest on tax
/// still unpaid is accrued to `as_of` (computed, never stored). `Accept: text/csv` answers
/// one row per period, then the credit and the total. Written to the access log
/// (`payor_account`, `read`).
#[utoipa::path(
    operation_id = "get_payor_account",
    tag = "payments",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, AccountParams),
    responses(
        (status = 200, description = "The statement", content(
            (Account = "application/json"),
            (String = "text/csv")
        )),
        (status = 422, description = "`as_of` after today", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/account")]
pub async fn account(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<AccountParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    let today = state.clock.today();
    let statement = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.account_reader(&payor_id)?;
            let as_of = params?.0.as_of;
            statement::statement(conn, &ctx, &payor_id, as_of, today)
        })
        .await?;
    Ok(crate::api::csv::or_json(
        &req,
        Account::from(&statement),
        account_csv,
    ))
}
