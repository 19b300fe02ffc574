//! The ordinance as data: one [`Policy`] per version of a municipality's room-tax rules.
//!
//! Contract:
//! - every parameter is a [`Cited`] value (value plus ordinance citation), or `None`
//!   where the municipality's ordinance has no such provision;
//! - a policy is effective from a date and governs every period whose last day falls on
//!   or after that date until the next version takes effect ([`PolicyHistory`]);
//! - rates are decimals (0.045 for 4.5 %), written as strings in TOML and JSON; amounts
//!   are [`Money`]; nothing is a float;
//! - [`Policy::validate`] (in `policy/validate.rs`) checks the values are coherent.
//!
//! Serde: field names as below, enums in snake_case, unknown fields refused (so a typo
//! in a preset file or a request fails loudly).

mod history;
mod schema;
mod validate;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::attachment::AttachmentKind;
use super::citation::Citation;
use super::money::Money;
use super::quote::DueKind;

pub use history::{PolicyHistory, ended_period_changed};
pub use schema::MonthDay;

/// A value with the ordinance paragraph (and statute) it comes from.
///
/// Its OpenAPI schema is written by hand in `policy/schema.rs` so that `value` carries a
/// description whatever `T` is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cited<T> {
    /// The value.
    pub value: T,
    /// Where the value comes from, e.g. "Montello room tax, interest ¶".
    pub citation: Citation,
}

impl<T> Cited<T> {
    /// Pairs a value with its citation.
    pub fn new(value: T, citation: impl Into<Citation>) -> Cited<T> {
        Cited {
            value,
            citation: citation.into(),
        }
    }
}

/// A class of sales on which no room tax is imposed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Exemption {
    /// Stable id, e.g. `federal_government`.
    pub code: String,
    /// What is exempt, in the ordinance's words.
    pub description: String,
    /// Where the exemption comes from.
    pub citation: String,
}

/// A document the ordinance requires to be attached to returns of some kinds (Hayward:
/// a copy of the state sales-tax return with every quarterly and annual return).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RequiredAttachment {
    /// What must be attached, e.g. `state_sales_tax_return`.
    pub kind: AttachmentKind,
    /// The kinds of return it must be attached to (`quarterly`, `annual`).
    pub returns: Vec<DueKind>,
    /// What the ordinance asks for, in its words.
    pub description: String,
    /// Where the requirement comes from.
    pub citation: String,
}

/// When a quarterly return and its tax are due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuarterlyDueRule {
    /// The last calendar day of the month after the quarter, even on a weekend (Montello).
    LastCalendarDayOfFollowingMonth,
    /// The last business day of the month after the quarter (Hayward).
    LastBusinessDayOfFollowingMonth,
}

impl QuarterlyDueRule {
    /// Stable rule id, the serde name.
    pub fn code(&self) -> &'static str {
        match self {
            QuarterlyDueRule::LastCalendarDayOfFollowingMonth => {
                "last_calendar_day_of_following_month"
            }
            QuarterlyDueRule::LastBusinessDayOfFollowingMonth => {
                "last_business_day_of_following_month"
            }
        }
    }
}

/// When the annual return is due. (Its OpenAPI schema is written in `policy/schema.rs`
/// so that the `kind` tag carries a description.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnnualReturnRule {
    /// Within `days` days after the close of the elected calendar or fiscal year
    /// (Montello: 90); the last day of that window is the due date.
    WithinDaysOfYearEnd {
        /// Days after the year's last day.
        days: u32,
    },
    /// A calendar-year return filed with, and due with, the fourth-quarter return (Hayward).
    WithFourthQuarterReturn,
}

impl AnnualReturnRule {
    /// Stable rule id, the serde `kind`.
    pub fn code(&self) -> &'static str {
        match self {
            AnnualReturnRule::WithinDaysOfYearEnd { .. } => "within_days_of_year_end",
            AnnualReturnRule::WithFourthQuarterReturn => "with_fourth_quarter_return",
        }
    }
}

/// A fee the operator keeps out of the tax it collects (Hayward's text refers to one
/// "authorized below" without defining it, so the rate defaults to 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CollectionFeeRule {
    /// Share of the tax the operator keeps (0 = none).
    pub rate: Decimal,
    /// True when the fee is not kept on a return filed late (Hayward).
    pub forfeited_when_delinquent: bool,
}

/// A forfeiture for tax paid more than some days late (Montello).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LatePaymentForfeitureRule {
    /// Days after the due date still in time (Montello: 30; due + 30 is in time).
    pub days_after_due: u32,
    /// Share of the tax imposed on the payor for the previous year (Montello: 0.25).
    pub share_of_previous_year_tax: Decimal,
    /// The forfeiture is the lesser of the share and this amount (Montello: 1000.00).
    pub cap: Money,
}

/// The penalty added to a non-filer's estimated tax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NonFilerPenaltyRule {
    /// Share of the estimated tax (both ordinances: 0.10).
    pub rate: Decimal,
    /// Most such penalties one payor owes for one calendar year, across determinations
    /// (Hayward: 5000.00; none in Montello).
    pub yearly_cap: Option<Money>,
}

/// Security a payor may be required to deposit (Montello).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityRule {
    /// Largest deposit that may be required (Montello: 5000.00); it earns no interest.
    pub max_deposit: Money,
    /// Days of notice before the deposit is applied to a delinquency (Montello: 10).
    pub notice_days: u32,
}

/// What the ordinance provides when a business is sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SaleProvision {
    /// The buyer withholds enough of the price until the seller produces the
    /// clerk-treasurer's receipt that the tax is paid or a certificate that none is due
    /// (Montello).
    ClearanceCertificate,
    /// The successor is liable for the tax of the preceding calendar quarters for which a
    /// return was not filed or the tax not paid (Hayward).
    SuccessorLiable,
}

/// What the ordinance says of the tax when a business is sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SaleOfBusinessRule {
    /// Which provision the ordinance has.
    pub provision: SaleProvision,
    /// How many calendar quarters before the transfer a successor is liable for
    /// (`successor_liable` only; Hayward: 4).
    #[serde(default)]
    pub quarters: Option<u32>,
}

/// Which receipts the distribution split applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DistributionBase {
    /// Room tax principal received in the period; interest, fees, penalties and
    /// forfeitures stay with the municipality (DESIGN §2, Remittance).
    TaxPrincipalReceived,
}

/// How collected room tax is split between the zone's commission and the municipality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DistributionRule {
    /// Share forwarded to the commission (Montello 0.75; Hayward 0: no zone).
    pub commission_share: Decimal,
    /// Which receipts the split applies to.
    pub applies_to: DistributionBase,
}

/// A kind of charge on a payor's account, for the payment application order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ChargeKind {
    /// Room tax principal.
    Tax,
    /// Interest on late tax.
    Interest,
    /// Fees (late filing fee).
    Fee,
    /// Penalties and forfeitures (late payment, non-filer, fraud, violations).
    Penalty,
}

/// Limits of the forfeiture for violating the ordinance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViolationForfeitureRule {
    /// Least forfeiture per day of violation (Montello 0.00; Hayward 100.00).
    pub min_per_day: Money,
    /// Most forfeiture per day of violation (Montello 250.00; Hayward 500.00).
    pub max_per_day: Money,
    /// Total at most this share of the tax imposed on the person (Montello 0.05).
    pub max_share_of_tax: Option<Decimal>,
}

/// Limits of a forfeiture per act (Montello confidentiality: 100.00..=500.00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForfeitureRange {
    /// Least forfeiture per act.
    pub min_per_act: Money,
    /// Most forfeiture per act.
    pub max_per_act: Money,
}

/// The legal holidays on which the municipal office is closed (see `calendar.rs` for the
/// observance rule of fixed holidays).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalHolidays {
    /// Holidays on the same month and day every year, e.g. "07-04"; observed on the
    /// Friday before when on a Saturday and the Monday after when on a Sunday.
    #[serde(default)]
    pub fixed: Vec<MonthDay>,
    /// Holidays on one date only (floating holidays, closures), taken as given.
    #[serde(default, deserialize_with = "super::iso_date::strict_vec")]
    pub dates: Vec<NaiveDate>,
}

/// The municipal vehicle registration fee collected by the state DOT (Montello).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VehicleFeeRule {
    /// Fee per registered vehicle (Montello: 20.00).
    pub fee_per_vehicle: Cited<Money>,
    /// The DOT's administrative cost kept per vehicle (0.17 today).
    pub dot_retention_per_vehicle: Cited<Money>,
    /// The segregated fund the net goes to, and what it may be spent on.
    pub fund: Cited<String>,
}

/// A rate above the statute's 8 % cap that was in effect on 1994-05-13 and may be kept
/// (Wis. Stat. § 66.0615(1m)(a)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GrandfatheredRate {
    /// The rate levied on 1994-05-13, above 0.08 (e.g. "0.09").
    pub rate: Decimal,
    /// The day that rate took effect: on or before 1994-05-13.
    pub in_effect_since: NaiveDate,
}

/// One version of a municipality's room-tax ordinance, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// The municipality, e.g. "City of Montello".
    pub municipality: String,
    /// The ordinance this version encodes.
    pub title: String,
    /// First day on which this version is in force (ISO 8601).
    #[serde(deserialize_with = "super::iso_date::strict")]
    pub effective_from: NaiveDate,
    /// Where the effective date comes from.
    pub effective_from_source: String,
    /// Tax rate on taxable receipts (0.045 = 4.5 %). At most 0.08 (Wis. Stat.
    /// § 66.0615(1m)(a)) unless `grandfathered_rate` records a higher rate in effect on
    /// 1994-05-13.
    pub rate: Cited<Decimal>,
    /// The statute's one exception to its 8 % cap: the higher rate the municipality
    /// already levied on 1994-05-13, which it may keep (Wis. Stat. § 66.0615(1m)(a)).
    /// Absent for nearly every municipality; needed for a `rate` above 0.08, which may
    /// then be at most this rate. The citation names the ordinance that levied it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grandfathered_rate: Option<Cited<GrandfatheredRate>>,
    /// Sales on which no tax is imposed (subtracted from gross receipts as exempt receipts).
    pub exemptions: Vec<Exemption>,
    /// Documents that must be attached to returns, each with its citation; empty (and
    /// absent from versions stored before the field existed) when none is required.
    #[serde(default)]
    pub required_attachments: Vec<RequiredAttachment>,
    /// When quarterly returns and tax are due.
    pub quarterly_due: Cited<QuarterlyDueRule>,
    /// When the annual return is due.
    pub annual_return: Cited<AnnualReturnRule>,
    /// Whether a payor may elect a fiscal year for its annual return.
    pub fiscal_year_allowed: Cited<bool>,
    /// Longest extension of a filing due date, in months (none: no extension).
    pub max_extension_months: Option<Cited<u32>>,
    /// Interest on unpaid tax per month or part of a month (0.01 = 1 %).
    pub interest_monthly_rate: Cited<Decimal>,
    /// Interest on refunded tax per month (none: refunds bear no interest).
    pub refund_interest_monthly_rate: Option<Cited<Decimal>>,
    /// Fee for a return filed after its (extended) due date.
    pub late_filing_fee: Cited<Money>,
    /// Fee the operator keeps out of the tax it collects.
    pub collection_fee: Cited<CollectionFeeRule>,
    /// Forfeiture for tax paid too late (none in Hayward).
    pub late_payment_forfeiture: Option<Cited<LatePaymentForfeitureRule>>,
    /// Penalty added to a non-filer's estimated tax.
    pub non_filer_penalty: Cited<NonFilerPenaltyRule>,
    /// Penalty on a false or fraudulent return, as a share of the tax (0.50).
    pub fraud_penalty_rate: Cited<Decimal>,
    /// Security a payor may be required to deposit (none in Hayward).
    pub security: Option<Cited<SecurityRule>>,
    /// Split of collected tax between the commission and the municipality.
    pub distribution: Cited<DistributionRule>,
    /// Order in which a payment is applied to the charges of one period.
    pub payment_order: Cited<Vec<ChargeKind>>,
    /// Limits of the forfeiture for violations of the ordinance.
    pub violation_forfeiture: Cited<ViolationForfeitureRule>,
    /// Limits of the forfeiture for breaching confidentiality (none in Hayward).
    pub confidentiality_forfeiture: Option<Cited<ForfeitureRange>>,
    /// Legal holidays for business-day due dates.
    pub legal_holidays: Cited<LegalHolidays>,
    /// Municipal vehicle registration fee (none in Hayward).
    pub vehicle_registration_fee: Option<VehicleFeeRule>,
    /// What the sale of a business means for the tax owed (Montello: the buyer withholds
    /// until a clearance certificate; Hayward: the successor is liable for four quarters);
    /// absent from versions stored before the field existed (no provision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sale_of_business: Option<Cited<SaleOfBusinessRule>>,
}

/// Why a policy, or a new version in a history, is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// A value breaks a rule; `field` is the policy field (dotted path).
    #[error("{field}: {message}")]
    Invalid {
        /// The policy field, e.g. `rate` or `late_payment_forfeiture.cap`.
        field: String,
        /// A sentence for people.
        message: String,
    },
    /// A preset or submitted text is not a policy.
    #[error("not a policy: {0}")]
    Parse(String),
    /// Another version already takes effect on that date.
    #[error("a policy version already takes effect on {0}")]
    DuplicateEffectiveDate(NaiveDate),
    /// The new version would change the rules of a period that has already ended.
    #[error(
        "a version effective {effective_from} would govern the period ending {period_end}, which has already ended (today is {today}); choose a date in the current month or later"
    )]
    WouldChangeEndedPeriod {
        /// The refused effective date.
        effective_from: NaiveDate,
        /// Last day of the first ended period it would change.
        period_end: NaiveDate,
        /// The date the check was made on.
        today: NaiveDate,
    },
}

impl PolicyError {
    pub(crate) fn invalid(field: &str, message: impl Into<String>) -> PolicyError {
        PolicyError::Invalid {
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

impl Policy {
    /// Parses a policy from its TOML text (the format of the files in `policies/`) and
    /// validates it.
    pub fn from_toml(text: &str) -> Result<Policy, PolicyError> {
        let policy: Policy = toml::from_str(text).map_err(|e| PolicyError::Parse(e.to_string()))?;
        policy.validate()?;
        Ok(policy)
    }
}
