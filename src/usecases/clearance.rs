//! The sale of a business (issue 9 item 8): Montello's clearance certificate
//! and its public verification, Hayward's successor liability.
//!
//! Contract:
//! - the policy in force today says which rule applies
//!   (`Policy::sale_of_business`); asking for the other one is refused 422
//!   citing it (`clearance_not_provided` in Hayward,
//!   `successor_liability_not_provided` in Montello);
//! - [`issue`] (clerk-treasurer or staff, `Action::EnforceCollection`): refused
//!   409 `amount_owed` while the payor owes anything as of today, interest
//!   accrued included, naming each period and amount, and 409
//!   `returns_missing` while a return whose filing due date has passed is
//!   not on file (what is due for that period is not known: "no amount is
//!   due" cannot be certified); otherwise a
//!   `tax_paid_receipt` (tax was charged, and it is all paid) or a
//!   `nothing_due` certificate, with a verification code of 128 random bits
//!   (base32, 26 characters) shown in this answer and on the notice, and the
//!   buyer's duty to withhold explained in the ordinance's words. Stored as a
//!   `clearance_certificate` notice plus a certificate row holding only the
//!   code's SHA-256 digest, the payor's public name and the date;
//! - [`verify`] (public, no caller): the code (case, spaces and dashes
//!   ignored) locates the certificate in whichever municipality
//!   (`db::clearance::by_code_hash`); the answer is validity, the payor's
//!   public name and the date, nothing else; an unknown or malformed code is
//!   404;
//! - [`successor_liability`] (clerk or staff): the policy's preceding
//!   calendar quarters before the transfer date (Hayward: four), each with
//!   whether the payor owed a return for it (the quarter shares a day with
//!   its registration, as the obligations count it), whether its return is
//!   on file and what is owed on it as of the transfer
//!   date (interest accrued included); the quarters for which a return was
//!   not filed or the tax not paid are the successor's liability. Nothing is
//!   posted: the liability is the predecessor's debt, which the successor
//!   also answers for; posting it again on the successor's accounts would
//!   count the same tax twice. The clerk collects it from either, and a
//!   payment is recorded on the predecessor's account.
//!
//! The public name is the payor's trade name, else its establishments'
//! names; never the legal (owner's) name.

use chrono::{Datelike, NaiveDate};

use crate::{
    auth::opaque::digest,
    db::{self, DbConn, clearance::CertificateRow},
    domain::{
        Money, Period, Policy,
        ledger::Component,
        notice::{NoticeDraft, NoticeKind},
        policy::SaleProvision,
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        ledger::{
            payments::book_as_of,
            security::{Owed, addressee, describe_owed, owed_as_of},
        },
        notices,
        payors::Actor,
        returns::PayorTerms,
    },
};

fn policy_on(terms: &PayorTerms, today: NaiveDate) -> Result<Policy, ApiError> {
    terms
        .history
        .governing_on(today)
        .cloned()
        .map_err(|e| ApiError::from(Invalid(vec![e])))
}

/// The buyer's duty to withhold, in the ordinance's words.
pub const WITHHOLDING_DUTY: &str = "If any person liable for any amount of tax under this article sells out his business or stock of goods or quits the business, his successors or assigns shall withhold sufficient of the purchase price to cover such amount until the former owner produces a receipt from the Municipal Clerk-Treasurer that it has been paid or a certificate stating that no amount is due. If any person subject to the tax imposed by this article fails to withhold such amount of tax from the purchase price as required, he shall become personally liable for payment of the amount required to be withheld by him to the extent of the price of the accommodations valued in money.";

/// A certificate just issued (the code is shown once, here and on the notice).
#[derive(Debug, Clone)]
pub struct IssuedCertificate {
    /// The stored row.
    pub row: CertificateRow,
    /// The verification code.
    pub code: String,
    /// The buyer's duty to withhold, explained.
    pub withholding_duty: String,
    /// The paragraph it rests on.
    pub citation: String,
}

/// 16 random bytes as RFC 4648 base32 without padding (26 characters).
fn new_code() -> Result<String, ApiError> {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|_| ApiError::internal("the OS random number generator failed"))?;
    let mut out = String::with_capacity(26);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[((acc >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((acc << (5 - bits)) & 31) as usize]));
    }
    Ok(out)
}

/// A code as typed: upper case, without spaces or dashes; `None` when it
/// cannot be a code (so it is never looked up).
pub fn normalise_code(raw: &str) -> Option<String> {
    let code: String = raw
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == 26
        && code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)))
    .then_some(code)
}

fn public_name(conn: &mut DbConn, terms: &PayorTerms) -> Result<String, ApiError> {
    if let Some(dba) = terms.payor.dba.as_ref().filter(|d| !d.trim().is_empty()) {
        return Ok(dba.clone());
    }
    let names: Vec<String> =
        db::payors::establishments_of(conn, terms.payor.municipality_id, &terms.payor.id)?
            .into_iter()
            .map(|e| e.name)
            .collect();
    if names.is_empty() {
        return Err(ApiError::Validation(vec![FieldError::new(
            "dba",
            "no_public_name",
            "the certificate shows the payor's public name: record its trade name (dba) or an establishment first",
        )]));
    }
    Ok(names.join(", "))
}

/// Issue a clearance certificate for the payor (see the module doc).
pub fn issue(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    sale_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<IssuedCertificate, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let policy = policy_on(&terms, today)?;
    let citation = match &policy.sale_of_business {
        Some(rule) if rule.value.provision == SaleProvision::ClearanceCertificate => {
            rule.citation.to_string()
        }
        other => {
            let why = other
                .as_ref()
                .map(|r| r.citation.to_string())
                .unwrap_or_else(|| format!("{}: no such provision", policy.title));
            return Err(ApiError::Validation(vec![FieldError::new(
                "payor",
                "clearance_not_provided",
                format!(
                    "{}'s ordinance provides no clearance certificate ({why})",
                    policy.municipality
                ),
            )]));
        }
    };
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let owed = owed_as_of(conn, &terms, today)?;
    if !owed.is_empty() {
        return Err(ApiError::RuleConflict(FieldError::new(
            "payor",
            "amount_owed",
            format!(
                "{}: a clearance certificate is issued only when nothing is owed",
                describe_owed(&owed, today)
            ),
        )));
    }
    let missing = crate::usecases::returns::reading::missing_returns(
        conn,
        ctx.municipality_id,
        payor_id,
        today,
    )?;
    if !missing.is_empty() {
        let periods: Vec<String> = missing.iter().map(|o| o.period.to_string()).collect();
        return Err(ApiError::RuleConflict(FieldError::new(
            "payor",
            "returns_missing",
            format!(
                "no return is on file for {} (past the filing due date): until they are filed, what is due is not known, and a clearance certificate is issued only when nothing is due ({citation})",
                periods.join(", ")
            ),
        )));
    }
    let name = public_name(conn, &terms)?;
    let book = book_as_of(conn, ctx.municipality_id, payor_id, today)?;
    let tax_charged: Money = book
        .periods
        .keys()
        .map(|p| book.component(p, Component::Tax).charged)
        .sum();
    let (kind, title, statement) = if tax_charged > Money::ZERO {
        (
            "tax_paid_receipt",
            "Receipt: room tax paid",
            format!(
                "The Municipal Clerk-Treasurer certifies that the room tax imposed on this payor ({tax_charged} in all, with its interest, fees and penalties) has been paid as of {today}."
            ),
        )
    } else {
        (
            "nothing_due",
            "Certificate: no room tax due",
            format!(
                "The Municipal Clerk-Treasurer certifies that no amount of room tax is due from this payor as of {today}."
            ),
        )
    };
    let code = new_code()?;
    let id = db::identity::new_id();
    let by = ctx.caller.actor().to_string();
    let mut paragraphs = vec![statement];
    if let Some(sale) = sale_on {
        paragraphs.push(format!("Issued for the sale of the business on {sale}."));
    }
    paragraphs.push(format!("Buyer's duty to withhold: {WITHHOLDING_DUTY}"));
    paragraphs.push(format!(
        "Verification code {code}: anyone may check this document at /v1/clearance-certificates/{code}, which shows its validity, the business's public name ({name}) and its date."
    ));
    let notice = notices::issue(
        conn,
        ctx.municipality_id,
        &NoticeDraft {
            kind: NoticeKind::ClearanceCertificate,
            payor_id: payor_id.to_owned(),
            issued_on: today,
            title: title.to_owned(),
            addressee: addressee(&terms),
            paragraphs,
            amounts: Vec::new(),
            citations: vec![citation.clone()],
            journal_id: None,
            cause_type: "payor".to_owned(),
            cause_id: payor_id.to_owned(),
        },
        &by,
    )?;
    let row = CertificateRow {
        municipality_id: ctx.municipality_id,
        id: id.clone(),
        payor_id: payor_id.to_owned(),
        kind: kind.to_owned(),
        code_hash: digest(&code),
        public_name: name,
        issued_on: today,
        notice_id: notice.id,
        issued_by: by,
        created_at: db::identity::now(),
    };
    db::clearance::insert(conn, &row)?;
    Actor::of(ctx)?.log_write(conn, ctx, "clearance_certificate", &id, "create")?;
    Ok(IssuedCertificate {
        row,
        code,
        withholding_duty: WITHHOLDING_DUTY.to_owned(),
        citation,
    })
}

/// What the public verification shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The business's public name.
    pub public_name: String,
    /// The date it was issued.
    pub issued_on: NaiveDate,
}

/// Verify a code (public; see the module doc). `None`: no such certificate.
pub fn verify(conn: &mut DbConn, raw_code: &str) -> Result<Option<Verified>, ApiError> {
    let Some(code) = normalise_code(raw_code) else {
        return Ok(None);
    };
    Ok(
        db::clearance::by_code_hash(conn, &digest(&code))?.map(|row| Verified {
            public_name: row.public_name,
            issued_on: row.issued_on,
        }),
    )
}

/// One quarter before a transfer, as the successor inherits it.
#[derive(Debug, Clone)]
pub struct InheritedQuarter {
    /// The quarter.
    pub period: Period,
    /// Whether a return is on file for it.
    pub return_filed: bool,
    /// Whether the payor owed a return for it (the quarter shares a day with its
    /// registration: its first establishment's opening, else the day it was entered,
    /// to its closing date).
    pub return_required: bool,
    /// What is owed on it as of the transfer date (zero when nothing is).
    pub owed: Option<Owed>,
}

impl InheritedQuarter {
    /// Whether the successor is liable for it: not filed, or not paid.
    pub fn liable(&self) -> bool {
        (self.return_required && !self.return_filed) || self.owed.is_some()
    }
}

/// The successor liability of a transfer of the payor's business on `transfer_on`.
#[derive(Debug, Clone)]
pub struct SuccessorLiability {
    /// The transfer date.
    pub transfer_on: NaiveDate,
    /// The preceding quarters, oldest first.
    pub quarters: Vec<InheritedQuarter>,
    /// The paragraph it rests on.
    pub citation: String,
}

/// The calendar quarter before `period`.
fn previous_quarter(period: Period) -> Result<Period, ApiError> {
    let day_before = period.first_day().pred_opt().unwrap_or(period.first_day());
    let q = u8::try_from((day_before.month() - 1) / 3 + 1).unwrap_or(1);
    Period::quarter(day_before.year(), q).map_err(|e| ApiError::internal(e.to_string()))
}

/// What a successor taking over the payor's business on `transfer_on` is
/// liable for (see the module doc).
pub fn successor_liability(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    transfer_on: NaiveDate,
    today: NaiveDate,
) -> Result<SuccessorLiability, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    if transfer_on > today {
        return Err(ApiError::Validation(vec![FieldError::new(
            "transfer_on",
            "in_the_future",
            format!(
                "must not be after today ({today}): what is owed is known as of today at the latest"
            ),
        )]));
    }
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let policy = policy_on(&terms, transfer_on)?;
    let (quarters, citation) = match &policy.sale_of_business {
        Some(rule) => match rule.value.provision {
            SaleProvision::SuccessorLiable => (
                rule.value.quarters.unwrap_or_default(),
                rule.citation.clone(),
            ),
            SaleProvision::ClearanceCertificate => {
                return Err(ApiError::Validation(vec![FieldError::new(
                    "payor",
                    "successor_liability_not_provided",
                    format!(
                        "{}'s ordinance makes the buyer withhold until a clearance certificate instead ({})",
                        policy.municipality, rule.citation
                    ),
                )]));
            }
        },
        None => {
            return Err(ApiError::Validation(vec![FieldError::new(
                "payor",
                "successor_liability_not_provided",
                format!("{}: no such provision", policy.title),
            )]));
        }
    };
    let containing = Period::quarter(
        transfer_on.year(),
        u8::try_from((transfer_on.month() - 1) / 3 + 1).unwrap_or(1),
    )
    .map_err(|e| ApiError::internal(e.to_string()))?;
    let mut periods = Vec::new();
    let mut p = containing;
    for _ in 0..quarters {
        p = previous_quarter(p)?;
        periods.push(p);
    }
    periods.reverse();
    let on_file: Vec<String> = db::returns::of_payor(conn, ctx.municipality_id, payor_id)?
        .into_iter()
        .map(|r| r.period)
        .collect();
    let owed = owed_as_of(conn, &terms, transfer_on)?;
    // Registered as the obligations count it (`usecases::returns::reading`).
    let opened_on = db::payors::establishments_of(conn, ctx.municipality_id, payor_id)?
        .iter()
        .filter_map(|e| e.opened_on)
        .min()
        .unwrap_or(terms.payor.created_at.date());
    let closed_on = terms.payor.closed_on;
    let quarters = periods
        .into_iter()
        .map(|period| InheritedQuarter {
            period,
            return_filed: on_file.contains(&period.to_string()),
            return_required: period.last_day() >= opened_on
                && closed_on.is_none_or(|c| period.first_day() <= c),
            owed: owed.iter().find(|o| o.period == period).cloned(),
        })
        .collect();
    let basis = ctx.account_reader(payor_id)?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&basis),
        "payor_account",
        payor_id,
    )?;
    Ok(SuccessorLiability {
        transfer_on,
        quarters,
        citation: citation.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_26_base32_characters_and_typed_codes_normalise() {
        let a = new_code().unwrap();
        let b = new_code().unwrap();
        assert_eq!(a.len(), 26);
        assert_ne!(a, b);
        assert_eq!(normalise_code(&a), Some(a.clone()));
        let typed = format!("{}-{} ", &a[..13].to_lowercase(), &a[13..]);
        assert_eq!(normalise_code(&typed), Some(a));
        assert_eq!(normalise_code("ABC"), None);
        assert_eq!(normalise_code(&"1".repeat(26)), None);
    }

    #[test]
    fn the_quarter_before() {
        let q = |s: &str| Period::parse(s).unwrap();
        assert_eq!(previous_quarter(q("2026-Q1")).unwrap(), q("2025-Q4"));
        assert_eq!(previous_quarter(q("2026-Q3")).unwrap(), q("2026-Q2"));
    }
}
