//! Refunding a payor's credit, with Montello's refund interest.
//!
//! Contract (issue 9 item 4; Montello room tax, interest ¶ and office audit
//! ¶A, "determine ... the refund due to any person"; Hayward room tax,
//! interest):
//! - only the clerk-treasurer and staff (`Action::RecordPayments`, as for
//!   payments: a person); related roles 403, anyone else 404;
//! - every fault of the body at once (422): `refunded_on` not after today
//!   (the municipality's local date), `amount` more than 0.00, `reference`
//!   one line of 1 to 100 characters, `period` a period; then, the payor
//!   found (404 otherwise) and its row locked (`db::payments::lock_payor`),
//!   `period` must name a return of the payor on file (`no_return`) and
//!   `amount` be at most the credit held (`exceeds_credit`): the credit as
//!   of `refunded_on`, and no more than is held on every later date to now
//!   (a credit applied to a later charge since is no longer there to refund;
//!   so the credit is never negative on any date, which `roomtax check`
//!   verifies);
//! - where the credit came from: the ledger holds credit in one account per
//!   payor (`payor:<p>:credit`: overpayments, and tax overpaid moved there
//!   when an amendment lowered it, see `credit`), so it does not say which
//!   return a cent of it came from. The clerk-treasurer, who determines the
//!   refund due (office audit ¶A), names it: `period` is the period of the
//!   return whose overpayment is refunded. That return's due date (never
//!   extended) starts the interest; its status decides the "complete return"
//!   exclusion (`incomplete`: a required document is still missing when the
//!   refund is made); `overpayment_intentional_or_careless` is the clerk's
//!   finding ("intentionally or by reason of carelessness or neglect");
//! - the refund interest is the engine's (`domain::compute::refund_interest`:
//!   whole months from the due date to the refund's month, as DESIGN §3 reads
//!   "until the first day of the month following the month in which said
//!   taxes are refunded"); Hayward's ordinance has none;
//! - the refund's row and its journal (`domain::ledger::refund_journal`:
//!   credit and `municipality:refund_interest_expense` debited, cash
//!   credited) land in the request's one unit of work; both are append-only;
//!   the write is in the access log (`refund`, `create`).

use chrono::{NaiveDate, Utc};

use super::payments::{PaymentMethod, lines_as_of};
use crate::{
    db::{self, DbConn, ledger::LineRow, refunds::RefundRow},
    domain::{
        DomainError, Money, Period,
        compute::RefundInterestExclusions,
        ledger::{
            JournalKind, PayorBook, RefundIn, RefundPosting, RefundTerms, posted_by, refund_journal,
        },
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{payors::Actor, returns::PayorTerms, returns::reading},
};

/// A refund as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewRefund {
    /// The local date it is paid out.
    pub refunded_on: NaiveDate,
    /// The credit refunded.
    pub amount: Money,
    /// How it is paid out.
    pub method: PaymentMethod,
    /// Check number or transaction id.
    pub reference: String,
    /// The clerk's finding: the overpayment was made intentionally or by
    /// reason of carelessness or neglect.
    pub overpayment_intentional_or_careless: bool,
    /// The period of the return whose overpayment is refunded (as sent).
    pub period: String,
}

/// A refund recorded, with what it posted.
#[derive(Debug, Clone)]
pub struct RecordedRefund {
    /// The stored row.
    pub row: RefundRow,
    /// Its journal's id.
    pub journal_id: String,
    /// The journal and the interest line.
    pub posting: RefundPosting,
    /// The credit still held afterwards.
    pub credit_left: Money,
}

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

/// Record a refund of credit (see the module doc).
pub fn record(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    body: NewRefund,
    today: NaiveDate,
) -> Result<RecordedRefund, ApiError> {
    ctx.require(Action::RecordPayments)?;
    let municipality_id = ctx.municipality_id;
    let mut faults = Vec::new();
    crate::usecases::judge::not_after_today("refunded_on", body.refunded_on, today, &mut faults);
    if body.amount.is_negative() || body.amount.is_zero() {
        faults.push(FieldError::new(
            "amount",
            "positive",
            "a refund is more than 0.00",
        ));
    }
    let reference = body.reference.trim().to_owned();
    if reference.is_empty() {
        faults.push(FieldError::new(
            "reference",
            "non_empty",
            "must not be empty",
        ));
    } else if reference.chars().count() > 100 {
        faults.push(FieldError::new(
            "reference",
            "max_length",
            "at most 100 characters",
        ));
    } else if reference.chars().any(char::is_control) {
        faults.push(FieldError::new(
            "reference",
            "no_control_characters",
            "one line, no control characters",
        ));
    }
    let period = match Period::parse(body.period.trim()) {
        Ok(p) => Some(p),
        Err(e) => {
            faults.push(FieldError::new("period", e.rule(), e.to_string()));
            None
        }
    };
    ApiError::refused(faults)?;
    let period = period.expect("refused above when absent");
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let mut faults = Vec::new();
    let header =
        db::returns::of_payor_period(conn, municipality_id, payor_id, &period.to_string())?;
    if header.is_none() {
        faults.push(FieldError::new(
            "period",
            "no_return",
            format!("the payor has no return for {period}: a refund names the return whose overpayment it refunds"),
        ));
    }
    let lines = lines_as_of(conn, municipality_id, payor_id, today.max(body.refunded_on))?;
    let then = PayorBook::from_lines(posted_by(&lines, body.refunded_on)).credit;
    let now = PayorBook::from_lines(&lines).credit;
    let since =
        super::payments::credit_held_since(conn, municipality_id, payor_id, body.refunded_on)?;
    let held = then.min(now).min(since);
    if body.amount > held.max_zero() {
        faults.push(FieldError::new(
            "amount",
            "exceeds_credit",
            format!(
                "a refund is at most the credit held for the payor on {} ({}{})",
                body.refunded_on,
                held.max_zero(),
                if held < then {
                    ", less what was applied to later charges"
                } else {
                    ""
                }
            ),
        ));
    }
    ApiError::refused(faults)?;
    let header = header.expect("refused above when absent");
    let record = reading::record(conn, municipality_id, header)?;
    let return_incomplete = record.status() == "incomplete";
    let due_date = record.latest().assessed.assessment.due_date;
    let policy = terms.history.governing(&period).map_err(domain)?;
    let id = db::identity::new_id();
    let posting = refund_journal(
        &RefundIn {
            payor_id,
            refund_id: &id,
            refunded_on: body.refunded_on,
            amount: body.amount,
        },
        held,
        &RefundTerms {
            policy,
            due_date,
            exclusions: RefundInterestExclusions {
                intentional_careless_or_neglect: body.overpayment_intentional_or_careless,
                return_incomplete,
            },
        },
    )
    .map_err(domain)?;
    let row = RefundRow {
        municipality_id,
        id: id.clone(),
        payor_id: payor_id.to_owned(),
        period: period.to_string(),
        return_id: record.header.id.clone(),
        refunded_on: body.refunded_on,
        amount_cents: body.amount.cents(),
        interest_cents: posting.interest.amount.cents(),
        method: body.method.as_str().to_owned(),
        reference,
        overpayment_intentional_or_careless: body.overpayment_intentional_or_careless,
        return_incomplete,
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::refunds::insert(conn, &row)?;
    let journal_id = super::post(conn, municipality_id, &posting.journal)?;
    Actor::of(ctx)?.log_write(conn, ctx, "refund", &id, "create")?;
    Ok(RecordedRefund {
        row,
        journal_id,
        posting,
        credit_left: held - body.amount,
    })
}

/// `roomtax check` on refunds: every refund has one `refund` journal, posted
/// on the day refunded, debiting the payor's credit with the amount and
/// crediting cash with the amount and its interest; no refund journal names a
/// refund that does not exist. Violations go to `broken`; returns how many
/// refunds were checked.
pub(super) fn check(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    by_cause: &super::check::ByCause<'_>,
    lines: &std::collections::BTreeMap<String, Vec<LineRow>>,
    broken: &mut Vec<String>,
) -> Result<usize, ApiError> {
    let refunds = db::refunds::all(conn, municipality_id)?;
    let mut seen = std::collections::BTreeSet::new();
    for r in &refunds {
        seen.insert(r.id.clone());
        let name = format!("{slug}: refund {}", r.id);
        let posted: Vec<_> = by_cause
            .get(&("refund".to_owned(), r.id.clone()))
            .into_iter()
            .flatten()
            .filter(|j| j.kind == JournalKind::Refund.as_str())
            .collect();
        let [journal] = posted[..] else {
            broken.push(format!(
                "{name} has {} refund journal(s) (expected one)",
                posted.len()
            ));
            continue;
        };
        let sum_on = |account: &str| -> i64 {
            lines
                .get(&journal.id)
                .into_iter()
                .flatten()
                .filter(|l| l.account == account)
                .map(|l| l.amount_cents)
                .sum()
        };
        let credit = sum_on(&format!("payor:{}:credit", r.payor_id));
        let cash = sum_on("municipality:cash");
        if credit != r.amount_cents
            || cash != -(r.amount_cents + r.interest_cents)
            || journal.posted_on != r.refunded_on
        {
            broken.push(format!(
                "{name}: journal {} does not debit the credit with the refund and credit cash with it and its interest on the day refunded",
                journal.id
            ));
        }
    }
    for ((cause_type, cause_id), posted) in by_cause {
        if cause_type == "refund" && !seen.contains(cause_id) {
            for j in posted {
                broken.push(format!(
                    "{slug}: journal {} names refund {cause_id}, which does not exist",
                    j.id
                ));
            }
        }
    }
    Ok(refunds.len())
}
