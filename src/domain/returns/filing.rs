//! A return as filed: the request body ([`ReturnFiling`]) and its checked form
//! ([`Filing`]).
//!
//! Contract: [`ReturnFiling::parse`] judges the body against the policy governing the
//! period and the payor's annual election and reports every fault at once
//! ([`Invalid`], each a [`DomainError::Invalid`] on the request field):
//! - `gross_receipts` not negative (`not_negative`);
//! - `exemptions[i].code` one of the policy's exemption codes (`unknown_exemption`),
//!   never twice (`duplicate_exemption`); `exemptions[i].amount` not negative; their
//!   sum, the exempt receipts, not above the gross (`exemptions`,
//!   `exempt_not_above_gross`);
//! - `establishments` (optional): ids trimmed, 1 to 100 characters (`non_empty`,
//!   `max_length`, `no_control_characters`), each once
//!   (`duplicate_establishment`), receipts not negative, adding up to the gross to the
//!   cent (`establishments`, `establishments_sum`);
//! - `nights_sold` (optional) a non-negative integer (`not_negative`, `range`);
//! - `signer.name`, `signer.title`: the registry's one-line names (1 to 200
//!   characters, trimmed, no control characters: `non_empty`, `max_length`,
//!   `no_control_characters`);
//! - `attested` true (`attestation_required`): every return must be signed by the
//!   person required to file it or an authorized agent ([`SIGNATURE_CITATION`]);
//! - an annual period must be one the payor's election and the policy allow
//!   (`period`: [`check_annual_period`]) and states its receipts by quarter:
//!   `quarters` is required for an annual period (`required_for_annual`) and refused
//!   for a quarter (`only_for_annual`); it lists each of the year's quarters
//!   ([`quarters_of`]) exactly once (`quarters[i].period`: `not_in_year`,
//!   `duplicate_quarter`; `quarters`: `missing_quarter`), each with receipts not
//!   negative and exempt not above gross, and their sums equal the year's gross and
//!   exempt receipts (`quarters`: `quarters_sum`, `quarters_exempt_sum`).
//!
//! A [`Filing`] holds only values that passed; its fields are read through accessors.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::annual::{check_annual_period, quarters_of};
use crate::domain::DomainError;
use crate::domain::error::require_not_negative;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::Policy;
use crate::domain::registry::text::{judge, registry_fault};
use crate::domain::registry::{Election, Faults, Invalid, Name};

/// Where the ordinances require a signed return (the policy files carry no such
/// citation yet; it belongs there once they do).
pub const SIGNATURE_CITATION: &str = "Montello room tax, administration ¶: \"All such returns shall be signed by the person required to file a return or his/her duly authorized agent\"; Hayward room tax, returns ¶B: \"All quarterly returns and all annual returns shall be signed by the persons required to file a return, or his or her or its duly authorized agent\"";

/// Longest establishment id, in characters.
const ID_MAX: usize = 100;

/// One class of exempt receipts claimed on a return.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExemptionClaim {
    /// An exemption code of the municipality's policy, e.g. `federal_government`.
    pub code: String,
    /// Receipts exempt under that code, a decimal string.
    pub amount: Money,
}

/// The gross receipts of one establishment of the payor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstablishmentReceipts {
    /// The establishment's id in the payor registry.
    pub establishment_id: String,
    /// Its gross receipts for the period, a decimal string.
    pub gross_receipts: Money,
}

/// The receipts of one quarter as an annual return states them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuarterReceipts {
    /// The quarter, e.g. "2025-Q3"; one of the annual period's quarters.
    pub period: Period,
    /// Gross receipts of the quarter.
    pub gross_receipts: Money,
    /// Exempt receipts of the quarter; "0.00" when absent.
    #[serde(default)]
    pub exempt_receipts: Money,
}

/// Who signs the return.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Signer {
    /// Full name of the person signing (the payor or its authorized agent).
    pub name: String,
    /// The signer's title or capacity, e.g. "Owner", "Manager".
    pub title: String,
}

/// A return as the operator (or staff, for a paper return) files it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReturnFiling {
    /// The return's period: "2026-Q1", "2026" or "FY2026-06".
    pub period: Period,
    /// Gross receipts from furnishing rooms or lodging in the period ("0.00" for a zero return).
    pub gross_receipts: Money,
    /// Exempt receipts by exemption code of the policy; their sum is the exempt receipts.
    #[serde(default)]
    pub exemptions: Vec<ExemptionClaim>,
    /// Gross receipts per establishment; when given they must add up to `gross_receipts`.
    #[serde(default)]
    pub establishments: Option<Vec<EstablishmentReceipts>>,
    /// Room nights sold in the period.
    #[serde(default)]
    pub nights_sold: Option<i64>,
    /// An annual return's receipts by quarter (required for an annual period, refused for a quarter).
    #[serde(default)]
    pub quarters: Option<Vec<QuarterReceipts>>,
    /// Who signs the return.
    pub signer: Signer,
    /// The signer attests that the return is true and complete; must be true.
    pub attested: bool,
    /// A paper return entered by the clerk-treasurer or staff: the date it was
    /// received (postmark or counter date), which counts as its filing date;
    /// not after today. An operator filing online gives none (it files today).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub received_on: Option<NaiveDate>,
}

/// A return that passed every check of [`ReturnFiling::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filing {
    period: Period,
    gross_receipts: Money,
    exemptions: Vec<ExemptionClaim>,
    exempt_receipts: Money,
    establishments: Option<Vec<EstablishmentReceipts>>,
    nights_sold: Option<u32>,
    quarters: Vec<QuarterReceipts>,
    signer_name: Name,
    signer_title: Name,
}

impl Filing {
    /// The return's period.
    pub fn period(&self) -> Period {
        self.period
    }
    /// Gross receipts.
    pub fn gross_receipts(&self) -> Money {
        self.gross_receipts
    }
    /// The exemptions claimed, in the order filed.
    pub fn exemptions(&self) -> &[ExemptionClaim] {
        &self.exemptions
    }
    /// Exempt receipts: the sum of the exemptions.
    pub fn exempt_receipts(&self) -> Money {
        self.exempt_receipts
    }
    /// Per-establishment receipts, when given (they add up to the gross).
    pub fn establishments(&self) -> Option<&[EstablishmentReceipts]> {
        self.establishments.as_deref()
    }
    /// Room nights sold, when given.
    pub fn nights_sold(&self) -> Option<u32> {
        self.nights_sold
    }
    /// An annual return's receipts by quarter, oldest first (empty for a quarter).
    pub fn quarters(&self) -> &[QuarterReceipts] {
        &self.quarters
    }
    /// The signer's name, trimmed.
    pub fn signer_name(&self) -> &str {
        self.signer_name.as_str()
    }
    /// The signer's title, trimmed.
    pub fn signer_title(&self) -> &str {
        self.signer_title.as_str()
    }
}

fn not_negative(faults: &mut Faults, field: &str, amount: Money) {
    faults.take(require_not_negative(field, amount));
}

fn exempt_not_above_gross(faults: &mut Faults, field: &str, exempt: Money, gross: Money) {
    if exempt > gross && !gross.is_negative() {
        faults.invalid(
            field,
            "exempt_not_above_gross",
            format!("exempt receipts {exempt} must not exceed gross receipts {gross}"),
        );
    }
}

fn parse_exemptions(faults: &mut Faults, policy: &Policy, claims: &[ExemptionClaim]) -> Money {
    let known: Vec<&str> = policy.exemptions.iter().map(|e| e.code.as_str()).collect();
    for (i, claim) in claims.iter().enumerate() {
        let field = format!("exemptions[{i}].code");
        if !known.contains(&claim.code.as_str()) {
            faults.invalid(
                &field,
                "unknown_exemption",
                format!(
                    "{} has no exemption {:?}; its codes are: {}",
                    policy.municipality,
                    claim.code,
                    known.join(", ")
                ),
            );
        } else if claims[..i].iter().any(|c| c.code == claim.code) {
            faults.invalid(
                &field,
                "duplicate_exemption",
                format!("{} is claimed more than once", claim.code),
            );
        }
        not_negative(faults, &format!("exemptions[{i}].amount"), claim.amount);
    }
    claims.iter().map(|c| c.amount).sum()
}

fn parse_establishments(faults: &mut Faults, list: &[EstablishmentReceipts], gross: Money) {
    for (i, e) in list.iter().enumerate() {
        let field = format!("establishments[{i}].establishment_id");
        if let Err(fault) = judge(&e.establishment_id, ID_MAX, false) {
            faults.add(registry_fault(&field, fault, ID_MAX));
        } else if list[..i]
            .iter()
            .any(|o| o.establishment_id.trim() == e.establishment_id.trim())
        {
            faults.invalid(
                &field,
                "duplicate_establishment",
                format!("{} is listed more than once", e.establishment_id.trim()),
            );
        }
        not_negative(
            faults,
            &format!("establishments[{i}].gross_receipts"),
            e.gross_receipts,
        );
    }
    let sum: Money = list.iter().map(|e| e.gross_receipts).sum();
    if sum != gross {
        faults.invalid(
            "establishments",
            "establishments_sum",
            format!("the establishments' gross receipts add up to {sum}, not to the gross receipts {gross}"),
        );
    }
}

fn parse_quarters(
    faults: &mut Faults,
    period: Period,
    quarters: Option<Vec<QuarterReceipts>>,
    gross: Money,
    exempt: Money,
) -> Vec<QuarterReceipts> {
    let Some(year) = quarters_of(&period) else {
        if quarters.is_some() {
            faults.invalid(
                "quarters",
                "only_for_annual",
                format!("{period} is a quarter: receipts by quarter belong on an annual return"),
            );
        }
        return Vec::new();
    };
    let Some(mut list) = quarters else {
        faults.invalid(
            "quarters",
            "required_for_annual",
            format!(
                "an annual return states its receipts by quarter: {}",
                join(&year)
            ),
        );
        return Vec::new();
    };
    for (i, q) in list.iter().enumerate() {
        let field = format!("quarters[{i}].period");
        if !year.contains(&q.period) {
            faults.invalid(
                &field,
                "not_in_year",
                format!(
                    "{} is not a quarter of {period} ({})",
                    q.period,
                    join(&year)
                ),
            );
        } else if list[..i].iter().any(|o| o.period == q.period) {
            faults.invalid(
                &field,
                "duplicate_quarter",
                format!("{} is listed more than once", q.period),
            );
        }
        not_negative(
            faults,
            &format!("quarters[{i}].gross_receipts"),
            q.gross_receipts,
        );
        not_negative(
            faults,
            &format!("quarters[{i}].exempt_receipts"),
            q.exempt_receipts,
        );
        exempt_not_above_gross(
            faults,
            &format!("quarters[{i}].exempt_receipts"),
            q.exempt_receipts,
            q.gross_receipts,
        );
    }
    let missing: Vec<Period> = year
        .into_iter()
        .filter(|p| !list.iter().any(|q| q.period == *p))
        .collect();
    if !missing.is_empty() {
        faults.invalid(
            "quarters",
            "missing_quarter",
            format!("the receipts of {} are missing", join(&missing)),
        );
    }
    let (sum_gross, sum_exempt): (Money, Money) = (
        list.iter().map(|q| q.gross_receipts).sum(),
        list.iter().map(|q| q.exempt_receipts).sum(),
    );
    if sum_gross != gross {
        faults.invalid(
            "quarters",
            "quarters_sum",
            format!(
                "the quarters' gross receipts add up to {sum_gross}, not to the year's {gross}"
            ),
        );
    }
    if sum_exempt != exempt {
        faults.invalid(
            "quarters",
            "quarters_exempt_sum",
            format!("the quarters' exempt receipts add up to {sum_exempt}, not to the exemptions' {exempt}"),
        );
    }
    list.sort_by_key(|q| q.period);
    list
}

fn join(periods: &[Period]) -> String {
    periods
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl ReturnFiling {
    /// Checks the return against `policy` (the version governing its period) and the
    /// payor's `election`; every fault at once (see the module doc).
    pub fn parse(self, policy: &Policy, election: Election) -> Result<Filing, Invalid> {
        let mut faults = Faults::default();
        let period = self.period;
        faults.take(check_annual_period(&period, election, policy));
        let gross = self.gross_receipts;
        not_negative(&mut faults, "gross_receipts", gross);
        let exempt = parse_exemptions(&mut faults, policy, &self.exemptions);
        exempt_not_above_gross(&mut faults, "exemptions", exempt, gross);
        if let Some(list) = &self.establishments {
            parse_establishments(&mut faults, list, gross);
        }
        let nights_sold = self.nights_sold.and_then(|n| match u32::try_from(n) {
            Ok(n) => Some(n),
            Err(_) if n < 0 => {
                faults.invalid(
                    "nights_sold",
                    "not_negative",
                    format!("must not be negative (got {n})"),
                );
                None
            }
            Err(_) => {
                faults.invalid(
                    "nights_sold",
                    "range",
                    format!("must be at most {}", u32::MAX),
                );
                None
            }
        });
        let quarters = parse_quarters(&mut faults, period, self.quarters, gross, exempt);
        let signer_name = faults.take(Name::parse("signer.name", &self.signer.name));
        let signer_title = faults.take(Name::parse("signer.title", &self.signer.title));
        if !self.attested {
            faults.invalid(
                "attested",
                "attestation_required",
                format!(
                    "the return must be signed and attested (attested: true): {SIGNATURE_CITATION}"
                ),
            );
        }
        faults.check()?;
        let (Some(signer_name), Some(signer_title)) = (signer_name, signer_title) else {
            return Err(DomainError::invalid("signer", "non_empty", "a signer is required").into());
        };
        Ok(Filing {
            period,
            gross_receipts: gross,
            exemptions: self.exemptions,
            exempt_receipts: exempt,
            establishments: self.establishments.map(|list| {
                list.into_iter()
                    .map(|e| EstablishmentReceipts {
                        establishment_id: e.establishment_id.trim().to_owned(),
                        ..e
                    })
                    .collect()
            }),
            nights_sold,
            quarters,
            signer_name,
            signer_title,
        })
    }
}

#[cfg(test)]
mod tests;
