//! Recording a payment and reversing a bounced one.
//!
//! Contract (issue 9 item 3; DESIGN §3, §5):
//! - only the clerk-treasurer and staff (`Action::RecordPayments`; a person,
//!   never an API client); related roles 403, anyone else 404;
//! - every fault of the body at once (422): `received_on` not after today
//!   (the municipality's local date) and not before the payor's latest
//!   payment (so the ledger read as of any date agrees with the order
//!   payments were applied in) nor before the payor's latest credit
//!   applied, refund or security application (`before_latest_application`:
//!   those journals moved money on their day; a payment dated before one
//!   would pay the same charge twice), `amount` more than 0.00, `reference`
//!   one line of 1 to 100 characters;
//! - the payor's row is locked first (`db::payments::lock_payor`: PostgreSQL
//!   `FOR UPDATE`; SQLite's write unit already holds the write lock), so two
//!   payments posted at once to one account apply one after the other, each
//!   exactly once, the second seeing the first's journal;
//! - the payor's accounts as of `received_on` and each open period's terms
//!   (its policy, the due and filing due dates of its return, the previous
//!   year's tax) go to `domain::ledger::payment_journal`, whose journal is
//!   posted in the same unit as the payment's row: one journal per payment;
//! - a reversal (`reversed_on` between the receipt and today, a reason) takes
//!   the whole payment back (`domain::ledger::reversal`): it negates the
//!   payment's journal but for the forfeiture it charged and its credit; the
//!   credit it left comes back from the credit still held without a break
//!   since `reversed_on`, then from the credit applications posted after it
//!   (latest first: the charges they paid are owed again, the interest they
//!   posted on reopened tax withdrawn), then from the refunds posted after it
//!   (a `refund_reclaimed` receivable in the refund's period), so the credit
//!   is never negative. A reversal that undoes an application or a refund is
//!   dated on or after it (422 `reversed_on` `before_credit_used`). A payment
//!   is reversed at most once (409 `already_reversed`); nothing is ever
//!   updated;
//! - both are written to the access log as writes (`payment`, `create` /
//!   `reverse`).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{NaiveDate, Utc};

use crate::{
    db::{self, DbConn, payments::PaymentRow},
    domain::{
        DomainError, Money, Period,
        ledger::{
            Account, Component, CreditUse, JournalKind, JournalLine, PaymentIn, PaymentPosting,
            PayorBook, PeriodTerms, PostedLine, ReversalIn, ReversalPosting, payment_journal_after,
            posted_by, reversal_posting,
        },
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        judge::{not_after_today, one_line},
        payors::Actor,
        returns::PayorTerms,
    },
};

/// How a payment was made.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    /// A check (it may bounce: reverse it).
    Check,
    /// An ACH transfer.
    Ach,
    /// A card payment.
    Card,
    /// Cash at the counter.
    Cash,
}

impl PaymentMethod {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Check => "check",
            PaymentMethod::Ach => "ach",
            PaymentMethod::Card => "card",
            PaymentMethod::Cash => "cash",
        }
    }
}

/// A payment as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewPayment {
    /// The local date it was received.
    pub received_on: NaiveDate,
    /// The amount.
    pub amount: Money,
    /// How.
    pub method: PaymentMethod,
    /// Check number, transaction id, receipt number.
    pub reference: String,
}

/// A payment recorded, with what it posted.
#[derive(Debug, Clone)]
pub struct RecordedPayment {
    /// The stored row.
    pub row: PaymentRow,
    /// Its journal's id.
    pub journal_id: String,
    /// What the journal posted.
    pub posting: PaymentPosting,
    /// The credit applied automatically right after it (a payment recorded
    /// after charges posted later than its receipt: `credit::apply_credit`).
    pub auto_applied: Option<crate::domain::ledger::CreditPosting>,
    /// The date of that application (today).
    pub applied_on: NaiveDate,
    /// The payor's credit held after both (all of it, not only this payment's).
    pub credit_held: Money,
}

/// A reversal recorded.
#[derive(Debug, Clone)]
pub struct RecordedReversal {
    /// The payment reversed.
    pub payment: PaymentRow,
    /// The reversing journal's id.
    pub journal_id: String,
    /// Its date.
    pub reversed_on: NaiveDate,
    /// Why.
    pub reason: String,
    /// The journal and where the payment's credit was taken back from.
    pub posting: ReversalPosting,
}

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

/// The payor's lines posted on or before `as_of`, in posting order (date,
/// then when stored, then line): [`posted_by`] takes an earlier day's from them.
pub(crate) fn lines_as_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    as_of: NaiveDate,
) -> Result<Vec<PostedLine>, ApiError> {
    db::ledger::payor_lines_as_of(
        conn,
        municipality_id,
        &Account::payor_prefix(payor_id),
        as_of,
    )?
    .into_iter()
    .map(|r| {
        Ok(PostedLine {
            kind: JournalKind::parse(&r.kind)
                .ok_or_else(|| ApiError::internal("stored journal has an unknown kind"))?,
            posted_on: r.posted_on,
            account: Account::parse(&r.account)
                .map_err(|e| ApiError::internal(format!("stored ledger line: {e}")))?,
            amount_cents: r.amount_cents,
        })
    })
    .collect()
}

/// The payor's lines posted on or before `as_of`, read as a book.
pub(crate) fn book_as_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    as_of: NaiveDate,
) -> Result<PayorBook, ApiError> {
    Ok(PayorBook::from_lines(&lines_as_of(
        conn,
        municipality_id,
        payor_id,
        as_of,
    )?))
}

/// The terms of every period of `book`: its policy, its return's due dates
/// (the latest version's assessment) and the previous year's tax.
pub(crate) fn terms_of(
    conn: &mut DbConn,
    terms: &PayorTerms,
    book: &PayorBook,
) -> Result<BTreeMap<Period, PeriodTerms>, ApiError> {
    terms_stored_by(conn, terms, book, None)
}

/// [`terms_of`] as they stood when the versions of returns stored by
/// `stored_by` were all there were (`None`: now): the latest version then,
/// the previous year's tax then. The policy governing an ended period never
/// changes (`PolicyHistory::can_add`). `roomtax check` replays a payment's
/// journal on the terms as of when it was written.
pub(crate) fn terms_stored_by(
    conn: &mut DbConn,
    terms: &PayorTerms,
    book: &PayorBook,
    stored_by: Option<chrono::NaiveDateTime>,
) -> Result<BTreeMap<Period, PeriodTerms>, ApiError> {
    let municipality_id = terms.payor.municipality_id;
    let payor_id = terms.payor.id.as_str();
    // The payor's returns and their versions' figures (due dates included),
    // read once for every period from the index `return_versions_terms`:
    // never a version's stored documents.
    let headers = db::returns::of_payor(conn, municipality_id, payor_id)?;
    let versions = db::returns::version_summaries_of_payor(conn, municipality_id, payor_id)?;
    // The latest version (then) of each period's return.
    let latest: Vec<(Period, Option<&db::returns::VersionSummary>)> = book
        .periods
        .keys()
        .map(|period| {
            let key = period.to_string();
            let latest = headers.iter().find(|h| h.period == key).and_then(|h| {
                versions
                    .iter()
                    .filter(|v| v.return_id == h.id)
                    .rfind(|v| stored_by.is_none_or(|by| v.created_at <= by))
            });
            (*period, latest)
        })
        .collect();
    let mut out = BTreeMap::new();
    for (period, latest) in latest {
        let Some(latest) = latest else {
            // Charges without a return (on file then): a non-filer
            // estimate's period.
            if let Some(t) =
                super::determinations::terms_without_return(conn, terms, &period, stored_by)?
            {
                out.insert(period, t);
            }
            continue;
        };
        let (due_date, filing_due_date) = (latest.due_date, latest.filing_due_date);
        let policy = terms.history.governing(&period).map_err(domain)?.clone();
        out.insert(
            period,
            PeriodTerms {
                policy,
                due_date,
                filing_due_date,
                previous_year_tax: crate::usecases::returns::previous_year_tax_in(
                    &headers, &versions, &period, stored_by,
                ),
            },
        );
    }
    Ok(out)
}

/// Refuse `date` (422 naming `field`, rule `before_latest_application`) when
/// it is before the payor's latest journal that moved money by itself:
/// credit applied to a charge, a refund of credit, or a security deposit
/// applied. Such a journal read the payor's balances on its day; a payment
/// (or determination) dated before it would be applied to the same charge
/// again, or refund credit that a backdated charge already used.
pub(crate) fn not_before_ledger_application(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    field: &str,
    date: NaiveDate,
) -> Result<(), ApiError> {
    let kinds = [
        JournalKind::CreditApplied.as_str(),
        JournalKind::Refund.as_str(),
        JournalKind::SecurityApplied.as_str(),
    ];
    if let Some(latest) = db::ledger::latest_posted_of_kinds(
        conn,
        municipality_id,
        &Account::payor_prefix(payor_id),
        &kinds,
    )? && date < latest
    {
        ApiError::refused(vec![FieldError::new(
            field,
            "before_latest_application",
            format!(
                "credit applied, a refund or a security application of this payor is posted {latest}: date this on or after it"
            ),
        )])?;
    }
    Ok(())
}

/// Record a payment (see the module doc).
pub fn record(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    body: NewPayment,
    today: NaiveDate,
) -> Result<RecordedPayment, ApiError> {
    ctx.require(Action::RecordPayments)?;
    let municipality_id = ctx.municipality_id;
    let mut faults = Vec::new();
    not_after_today("received_on", body.received_on, today, &mut faults);
    if body.amount.is_negative() || body.amount.is_zero() {
        faults.push(FieldError::new(
            "amount",
            "positive",
            "a payment is more than 0.00",
        ));
    }
    let reference = one_line("reference", &body.reference, 100, &mut faults);
    ApiError::refused(faults)?;
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    if let Some(latest) = db::payments::of_payor(conn, municipality_id, payor_id)?
        .iter()
        .map(|p| p.received_on)
        .max()
        && body.received_on < latest
    {
        ApiError::refused(vec![FieldError::new(
            "received_on",
            "before_latest_payment",
            format!(
                "a payment of this payor received {latest} is already recorded: payments are recorded in the order received"
            ),
        )])?;
    }
    not_before_ledger_application(
        conn,
        municipality_id,
        payor_id,
        "received_on",
        body.received_on,
    )?;
    // The lines to today once (`received_on` is not after it): the book on
    // `received_on` is their prefix.
    let lines = lines_as_of(conn, municipality_id, payor_id, today)?;
    let book = PayorBook::from_lines(posted_by(&lines, body.received_on));
    let period_terms = terms_of(conn, &terms, &book)?;
    // A forfeiture posted after `received_on` (the daily posting ran before
    // this payment was recorded) is charged already: never twice.
    let forfeiture_posted: BTreeSet<Period> = PayorBook::from_lines(&lines)
        .periods
        .iter()
        .filter(|(_, c)| {
            c.get(&Component::LatePaymentForfeiture)
                .is_some_and(|b| !b.charged.is_zero())
        })
        .map(|(p, _)| *p)
        .collect();
    let id = db::identity::new_id();
    let posting = payment_journal_after(
        &PaymentIn {
            payor_id,
            payment_id: &id,
            received_on: body.received_on,
            amount: body.amount,
        },
        &book,
        &period_terms,
        &forfeiture_posted,
    )
    .map_err(domain)?;
    let row = PaymentRow {
        municipality_id,
        id: id.clone(),
        payor_id: payor_id.to_owned(),
        received_on: body.received_on,
        amount_cents: body.amount.cents(),
        method: body.method.as_str().to_owned(),
        reference,
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::payments::insert(conn, &row)?;
    let journal_id = super::post(conn, municipality_id, &posting.journal)?;
    // Credit left while charges posted after `received_on` (a payment
    // recorded late) are open: applied to them today (`credit::apply_credit`).
    let auto_applied = if !posting.credit.is_zero() && today > body.received_on {
        super::credit::apply_credit(
            conn,
            municipality_id,
            payor_id,
            today,
            crate::domain::ledger::Cause::Payment {
                payment_id: id.clone(),
            },
        )?
    } else {
        None
    };
    let credit_held = book_as_of(conn, municipality_id, payor_id, today)?.credit;
    Actor::of(ctx)?.log_write(conn, ctx, "payment", &id, "create")?;
    Ok(RecordedPayment {
        row,
        journal_id,
        posting,
        auto_applied,
        applied_on: today,
        credit_held,
    })
}

/// A reversal as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewReversal {
    /// The local date the payment bounced; today when absent.
    pub reversed_on: Option<NaiveDate>,
    /// Why (e.g. "returned: insufficient funds").
    pub reason: String,
}

/// Reverse a payment (see the module doc).
pub fn reverse(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    payment_id: &str,
    body: NewReversal,
    today: NaiveDate,
) -> Result<RecordedReversal, ApiError> {
    ctx.require(Action::RecordPayments)?;
    let municipality_id = ctx.municipality_id;
    let mut faults = Vec::new();
    let reversed_on = body.reversed_on.unwrap_or(today);
    not_after_today("reversed_on", reversed_on, today, &mut faults);
    let reason = one_line("reason", &body.reason, 200, &mut faults);
    ApiError::refused(faults)?;
    let payment = db::payments::get(conn, municipality_id, payor_id, payment_id)?
        .ok_or(ApiError::NotFound("payment"))?;
    if reversed_on < payment.received_on {
        ApiError::refused(vec![FieldError::new(
            "reversed_on",
            "before_receipt",
            format!(
                "the payment was received {}: it cannot be reversed before",
                payment.received_on
            ),
        )])?;
    }
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let journals = db::ledger::of_cause(conn, municipality_id, "payment", payment_id)?;
    if journals
        .iter()
        .any(|j| j.kind == JournalKind::PaymentReversed.as_str())
    {
        return Err(ApiError::RuleConflict(FieldError::new(
            "payment",
            "already_reversed",
            "this payment is already reversed",
        )));
    }
    let original = journals
        .iter()
        .find(|j| j.kind == JournalKind::Payment.as_str())
        .ok_or_else(|| ApiError::internal("a payment without its journal"))?;
    let lines = journal_lines(conn, municipality_id, &original.id)?;
    let (held, uses) = credit_history(conn, municipality_id, payor_id, original, reversed_on)?;
    let posting = reversal_posting(&ReversalIn {
        payor_id,
        payment_id,
        payment_lines: &lines,
        reversed_on,
        reason: &reason,
        held,
        uses: &uses,
    })
    .map_err(|e| ApiError::internal(format!("a reversal's journal: {e}")))?;
    if let Some(latest) = posting.undone.iter().map(|(_, on)| *on).max()
        && latest > reversed_on
    {
        ApiError::refused(vec![FieldError::new(
            "reversed_on",
            "before_credit_used",
            format!(
                "the payment's credit was applied or refunded on {latest}: a reversal that takes it back is dated on or after it"
            ),
        )])?;
    }
    let journal_id = super::post(conn, municipality_id, &posting.journal).map_err(|e| match e {
        // A concurrent reversal of the same payment lost the race.
        ApiError::Conflict(_) => ApiError::RuleConflict(FieldError::new(
            "payment",
            "already_reversed",
            "this payment is already reversed",
        )),
        e => e,
    })?;
    Actor::of(ctx)?.log_write(conn, ctx, "payment", payment_id, "reverse")?;
    Ok(RecordedReversal {
        payment,
        journal_id,
        reversed_on,
        reason,
        posting,
    })
}

/// The credit held for the payor without a break from `on` to now: the
/// lowest balance of its credit account as of `on` and as of every later date
/// it moved. A refund (or a reversal) dated `on` takes at most this, so the
/// credit is never negative on any date (`roomtax check`).
pub(crate) fn credit_held_since(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    on: NaiveDate,
) -> Result<Money, ApiError> {
    let account = Account::PayorCredit {
        payor_id: payor_id.to_owned(),
    }
    .to_string();
    let mut by_date: BTreeMap<NaiveDate, i64> = BTreeMap::new();
    for l in db::ledger::payor_lines_as_of(conn, municipality_id, &account, far_future())? {
        if l.account == account {
            *by_date.entry(l.posted_on).or_default() -= l.amount_cents;
        }
    }
    Ok(Money::from_cents(lowest_from(&by_date, on)))
}

/// A date after every posting (and within every backend's date range).
fn far_future() -> NaiveDate {
    NaiveDate::from_ymd_opt(9999, 12, 31).expect("a valid date")
}

/// The lowest running sum of `by_date` as of `on` and every later date.
fn lowest_from(by_date: &BTreeMap<NaiveDate, i64>, on: NaiveDate) -> i64 {
    let on_the_day: i64 = by_date.range(..=on).map(|(_, c)| c).sum();
    let (mut balance, mut lowest) = (on_the_day, on_the_day);
    if let Some(next) = on.succ_opt() {
        for (_, change) in by_date.range(next..) {
            balance += change;
            lowest = lowest.min(balance);
        }
    }
    lowest
}

/// The lines of a stored journal, parsed.
fn journal_lines(
    conn: &mut DbConn,
    municipality_id: i64,
    journal_id: &str,
) -> Result<Vec<JournalLine>, ApiError> {
    db::ledger::lines_of(conn, municipality_id, journal_id)?
        .into_iter()
        .map(|l| {
            Ok(JournalLine {
                account: Account::parse(&l.account)
                    .map_err(|e| ApiError::internal(format!("stored ledger line: {e}")))?,
                amount_cents: l.amount_cents,
            })
        })
        .collect()
}

/// What a reversal dated `reversed_on` reads of the payor's credit account
/// (`domain::ledger::reversal`): the credit held without a break from that
/// date to now (the lowest balance on any date from it on), and the credit
/// applications and refunds posted after the payment's journal `original`,
/// oldest first.
fn credit_history(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    original: &db::ledger::JournalRow,
    reversed_on: NaiveDate,
) -> Result<(Money, Vec<CreditUse>), ApiError> {
    let account = Account::PayorCredit {
        payor_id: payor_id.to_owned(),
    }
    .to_string();
    let journals = db::ledger::journals_on_account(conn, municipality_id, &account)?;
    let refunds: BTreeMap<String, db::refunds::RefundRow> =
        db::refunds::of_payor(conn, municipality_id, payor_id)?
            .into_iter()
            .map(|r| (r.id.clone(), r))
            .collect();
    // Credit balance by date (credit is negative on the account).
    let mut by_date: BTreeMap<NaiveDate, i64> = BTreeMap::new();
    let mut uses = Vec::new();
    let after = |j: &db::ledger::JournalRow| {
        (j.posted_on, j.created_at, &j.id) > (original.posted_on, original.created_at, &original.id)
    };
    for j in &journals {
        let lines = journal_lines(conn, municipality_id, &j.id)?;
        let on_credit: i64 = lines
            .iter()
            .filter(|l| l.account.to_string() == account)
            .map(|l| l.amount_cents)
            .sum();
        *by_date.entry(j.posted_on).or_default() -= on_credit;
        if !after(j) {
            continue;
        }
        if j.kind == JournalKind::CreditApplied.as_str() {
            uses.push(CreditUse::Applied {
                journal_id: j.id.clone(),
                posted_on: j.posted_on,
                lines,
            });
        } else if j.kind == JournalKind::Refund.as_str()
            && let Some(r) = refunds.get(&j.cause_id)
        {
            uses.push(CreditUse::Refunded {
                journal_id: j.id.clone(),
                posted_on: j.posted_on,
                period: Period::parse(&r.period)
                    .map_err(|e| ApiError::internal(format!("stored refund period: {e}")))?,
                amount: Money::from_cents(r.amount_cents),
            });
        }
    }
    Ok((Money::from_cents(lowest_from(&by_date, reversed_on)), uses))
}
