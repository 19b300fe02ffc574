//! `POST /v1/municipalities/{municipality}/quotes`: what a return owes.
//!
//! Contract: public (the ordinance is public law and a quote stores nothing).
//! Amounts are decimal strings; a value that does not parse, a negative
//! amount, exempt above gross, a period that does not exist or an extension
//! beyond the limit is a 422 naming the field and the rule. The response
//! explains every amount (`lines`: code, amount, explanation, citation,
//! inputs) and every date (`dates`). The commission's share follows the
//! policy only while the municipality is a zone member on the period's last
//! day: from the day after its `left_on`, nothing goes to a commission.

use actix_web::{post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{caller::PublicMunicipality, extract::ApiJson};
use crate::{
    app::AppState,
    domain::{DomainError, Money, Period, Quote, QuoteInput},
    error::{ApiError, FieldError},
    usecases,
};

/// A return to quote.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuoteRequest {
    /// The return's period: a quarter (`2026-Q1`), a calendar year (`2026`) or a fiscal year (`FY2026-06`, ending June 2026).
    #[schema(
        example = "2026-Q1",
        pattern = r"^[0-9]{4}(-Q[1-4])?$|^FY[0-9]{4}-(0[1-9]|1[01])$"
    )]
    pub period: String,
    /// Gross receipts from furnishing rooms or lodging in the period, a decimal string with at most two decimals.
    #[schema(example = "12345.67")]
    pub gross_receipts: String,
    /// Exempt receipts (federal government, Wis. Stat. § 77.54(9a) buyers, long stays); default "0.00".
    #[schema(example = "0.00")]
    pub exempt_receipts: Option<String>,
    /// Date the return is or was filed; absent means on time.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    pub filed_on: Option<NaiveDate>,
    /// Date the tax is or was paid (received); absent means on time.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    pub paid_on: Option<NaiveDate>,
    /// Extended filing due date granted by the clerk-treasurer (Montello: at most one month).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    pub extended_to: Option<NaiveDate>,
    /// Room tax imposed on the payor for the previous year (Montello's late-payment forfeiture uses it).
    #[schema(example = "2400.00")]
    pub previous_year_tax: Option<String>,
}

/// What a return owes, with its explanation.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteResponse {
    /// Slug of the municipality the quote is for.
    pub municipality: String,
    /// The amounts, dates and their explanation.
    #[serde(flatten)]
    pub quote: Quote,
}

fn money(field: &str, raw: Option<&str>, errors: &mut Vec<FieldError>) -> Option<Money> {
    let raw = raw?;
    match Money::parse(raw) {
        Ok(m) => Some(m),
        Err(e) => {
            if let ApiError::Validation(mut v) = DomainError::from_money_parse(field, &e).into() {
                errors.append(&mut v);
            }
            None
        }
    }
}

impl QuoteRequest {
    /// Parse every field, reporting every bad one at once.
    pub fn into_input(self) -> Result<QuoteInput, ApiError> {
        let mut errors = Vec::new();
        let period = match Period::parse(&self.period) {
            Ok(p) => Some(p),
            Err(e) => {
                if let ApiError::Validation(mut v) =
                    DomainError::from_period_parse("period", &e).into()
                {
                    errors.append(&mut v);
                }
                None
            }
        };
        let gross = money("gross_receipts", Some(&self.gross_receipts), &mut errors);
        let exempt = money(
            "exempt_receipts",
            self.exempt_receipts.as_deref(),
            &mut errors,
        );
        let previous = money(
            "previous_year_tax",
            self.previous_year_tax.as_deref(),
            &mut errors,
        );
        match (period, gross) {
            (Some(period), Some(gross_receipts)) if errors.is_empty() => Ok(QuoteInput {
                period,
                gross_receipts,
                exempt_receipts: exempt.unwrap_or(Money::ZERO),
                filed_on: self.filed_on,
                paid_on: self.paid_on,
                extended_to: self.extended_to,
                previous_year_tax: previous,
            }),
            _ => Err(ApiError::Validation(errors)),
        }
    }
}

/// Quote what a return owes: tax, due date, interest, fees, forfeitures and the distribution.
///
/// Public, no sign-in (nothing is stored): the policy in force on the period's last day
/// gives the rate and the rules: tax on taxable receipts, the due date, interest in
/// whole months, the late filing fee, Montello's late-payment forfeiture, and the zone
/// commission's share (Montello room tax, distribution ¶A). Not written to the access
/// log.
#[utoipa::path(
    operation_id = "create_quote",
    tag = "policies",
    params(crate::api::params::MunicipalityPath),
    request_body = QuoteRequest,
    responses(
        (status = 200, description = "The quote, every amount explained and cited", body = QuoteResponse)
    )
)]
#[post("/v1/municipalities/{municipality}/quotes")]
pub async fn create(
    state: web::Data<AppState>,
    at: PublicMunicipality,
    ApiJson(request): ApiJson<QuoteRequest>,
) -> Result<web::Json<QuoteResponse>, ApiError> {
    let input = request.into_input()?;
    let answer = |law: &usecases::public_law::PublicLaw| {
        Ok(web::Json(QuoteResponse {
            municipality: law.municipality.slug.clone(),
            quote: law.quote(&input)?,
        }))
    };
    // The public law read a moment ago answers without the database (see
    // `usecases::public_law`); otherwise one read unit reads it.
    if let Some(law) = usecases::public_law::remembered(at.slug()) {
        return answer(&law);
    }
    let law = at.read(&state, usecases::public_law::read).await?;
    answer(&law)
}
