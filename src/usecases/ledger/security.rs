//! Security deposits (issue 9 item 7; Montello room tax, security ¶).
//!
//! Contract:
//! - writes (require, receive, notice of application, apply, return) are the
//!   clerk-treasurer's and staff's (`Action::EnforceCollection`, a person);
//!   related roles 403, anyone else 404; reads (list, one) also the payor's
//!   own operator (`MunicipalityContext::account_reader`), each logged;
//! - the policy in force today judges a requirement through the engine's
//!   [`security_deposit`]: at most $5,000; Hayward, which has no such
//!   provision, is refused (422 `security_not_provided`). A requirement
//!   issues a `security_required` notice in the same unit of work;
//! - a receipt posts `security_received` (cash debited, the payor's
//!   `security_deposit` account credited), up to the amount required;
//! - a notice of application (a `security_application` notice, dated today)
//!   starts the 10 days; it is refused while the payor owes no unpaid tax;
//! - an application (default today) before notice + 10 days is refused
//!   citing the paragraph and the first allowed date; it applies the money
//!   held to unpaid tax only (`domain::ledger::security`), posting
//!   `security_applied`;
//! - a return posts `security_returned` for what is held, only when the payor
//!   has closed (its registry closing date has come, or every establishment
//!   it runs is closed) and owes nothing as of today, interest accrued
//!   included (409 `payor_not_closed` / `amount_owed`, naming what is owed);
//! - an application is not dated before the payor's latest payment
//!   (`before_latest_payment`), as payments are recorded in order;
//! - the payor's row is locked first (as payments do), every event is a new
//!   row (nothing is updated), every write is in the access log
//!   (`security_deposit`).

use chrono::NaiveDate;

use super::payments::{PaymentMethod, book_as_of, terms_of};
use crate::{
    db::{
        self, DbConn,
        security::{DepositRow, EventRow},
    },
    domain::{
        DomainError, Money, Period, Policy,
        compute::{interest, security_application_date, security_deposit},
        ledger::{
            Applied, Component, Posted,
            security::{
                DepositState, SecurityEvent, SecurityEventKind, application_journal, check_receipt,
                may_apply_on, received_journal, returned_journal,
            },
        },
        notice::{NoticeAmount, NoticeDraft, NoticeKind},
        registry::{Invalid, RegistryStatus},
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{notices, payors::Actor, returns::PayorTerms},
};

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

/// What a payor owes for one period as of a date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owed {
    /// The period.
    pub period: Period,
    /// Posted charges less payments (every component).
    pub posted: Money,
    /// Interest accrued to the date on the unpaid tax (computed, not posted).
    pub interest_accrued: Money,
}

impl Owed {
    /// Posted plus accrued.
    pub fn total(&self) -> Money {
        self.posted + self.interest_accrued
    }
}

/// Every period on which `payor_id` owes something as of `as_of`, with
/// interest accrued to that date (as the statement of account computes it).
pub(crate) fn owed_as_of(
    conn: &mut DbConn,
    terms: &PayorTerms,
    as_of: NaiveDate,
) -> Result<Vec<Owed>, ApiError> {
    let municipality_id = terms.payor.municipality_id;
    let book = book_as_of(conn, municipality_id, &terms.payor.id, as_of)?;
    let period_terms = terms_of(conn, terms, &book)?;
    let mut out = Vec::new();
    for (period, components) in &book.periods {
        let posted: Money = components.values().map(|b| b.balance()).sum();
        let unpaid_tax = book.component(period, Component::Tax).balance().max_zero();
        let interest_accrued = match period_terms.get(period) {
            Some(t) if !unpaid_tax.is_zero() => {
                interest(&t.policy, unpaid_tax, t.due_date, Some(as_of))
                    .map_err(domain)?
                    .amount
            }
            _ => Money::ZERO,
        };
        let owed = Owed {
            period: *period,
            posted,
            interest_accrued,
        };
        if owed.total() > Money::ZERO {
            out.push(owed);
        }
    }
    Ok(out)
}

/// A sentence naming what is owed, e.g. "2026-Q1 334.20 (interest accrued 6.04 included)".
pub(crate) fn describe_owed(owed: &[Owed], as_of: NaiveDate) -> String {
    let parts: Vec<String> = owed
        .iter()
        .map(|o| {
            format!(
                "{} {} (interest accrued {} included)",
                o.period,
                o.total(),
                o.interest_accrued
            )
        })
        .collect();
    let total: Money = owed.iter().map(Owed::total).sum();
    format!("as of {as_of} the payor owes {total}: {}", parts.join("; "))
}

/// The policy in force on `today` for the payor's municipality.
fn policy_on(terms: &PayorTerms, today: NaiveDate) -> Result<Policy, ApiError> {
    terms.history.governing_on(today).cloned().map_err(domain)
}

/// The addressee block of a notice to the payor (confidential: stored, never logged).
pub(crate) fn addressee(terms: &PayorTerms) -> Vec<String> {
    let p = &terms.payor;
    let mut lines = vec![p.legal_name.clone()];
    if let Some(dba) = &p.dba {
        lines.push(format!("d/b/a {dba}"));
    }
    lines.extend(p.mailing_address.lines().map(str::to_owned));
    lines
}

/// A deposit with its events and its state.
#[derive(Debug, Clone)]
pub struct Deposit {
    /// The requirement.
    pub row: DepositRow,
    /// What happened to it, oldest first.
    pub events: Vec<EventRow>,
    /// Its state.
    pub state: DepositState,
    /// The first date it may be applied, when notice has been given.
    pub applicable_from: Option<NaiveDate>,
}

fn load(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
) -> Result<Deposit, ApiError> {
    let row = db::security::get(conn, ctx.municipality_id, payor_id, deposit_id)?
        .ok_or(ApiError::NotFound("security deposit"))?;
    assemble(conn, row)
}

fn assemble(conn: &mut DbConn, row: DepositRow) -> Result<Deposit, ApiError> {
    let events = db::security::events_of(conn, row.municipality_id, &row.id)?;
    let mut read = Vec::with_capacity(events.len());
    for e in &events {
        read.push(SecurityEvent {
            kind: SecurityEventKind::parse(&e.kind)
                .ok_or_else(|| ApiError::internal("stored security event has an unknown kind"))?,
            on: e.occurred_on,
            amount: Money::from_cents(e.amount_cents),
        });
    }
    let state = DepositState::from_events(Money::from_cents(row.amount_cents), &read);
    let applicable_from = match state.notice_on {
        Some(on) => {
            let history = db::policies::load_history(conn, row.municipality_id)?;
            history
                .in_force_on(on)
                .and_then(|p| security_application_date(p, on).ok())
                .map(|l| l.date)
        }
        None => None,
    };
    Ok(Deposit {
        row,
        events,
        state,
        applicable_from,
    })
}

#[allow(clippy::too_many_arguments)]
fn record_event(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    deposit_id: &str,
    kind: SecurityEventKind,
    on: NaiveDate,
    amount: Money,
    reference: String,
    journal_id: Option<String>,
    notice_id: Option<String>,
) -> Result<(), ApiError> {
    db::security::insert_event(
        conn,
        &EventRow {
            municipality_id: ctx.municipality_id,
            id: db::identity::new_id(),
            deposit_id: deposit_id.to_owned(),
            kind: kind.as_str().to_owned(),
            occurred_on: on,
            amount_cents: amount.cents(),
            reference,
            journal_id,
            notice_id,
            recorded_by: ctx.caller.actor().to_string(),
            created_at: db::identity::now(),
        },
    )?;
    Ok(())
}

/// A one-line text of 1 to `max` characters, trimmed (`registry::text::one_line`).
fn one_line(field: &str, text: &str, max: usize) -> Result<String, ApiError> {
    Ok(crate::domain::registry::text::one_line(field, text, max)?)
}

/// Require a security deposit of `amount` for `reason` (see the module doc).
pub fn require(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    amount: Money,
    reason: &str,
    today: NaiveDate,
) -> Result<Deposit, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let policy = policy_on(&terms, today)?;
    let mut faults = Vec::new();
    let line = match security_deposit(&policy, amount) {
        Ok(line) if amount.is_zero() => {
            faults.push(FieldError::new(
                "amount",
                "positive",
                "a deposit is more than 0.00",
            ));
            Some(line)
        }
        Ok(line) => Some(line),
        Err(DomainError::Invalid { rule, message, .. }) => {
            faults.push(FieldError::new("amount", &rule, message));
            None
        }
        Err(e) => return Err(domain(e)),
    };
    let reason = match one_line("reason", reason, 500) {
        Ok(r) => r,
        Err(ApiError::Validation(mut f)) => {
            faults.append(&mut f);
            String::new()
        }
        Err(e) => return Err(e),
    };
    let (Some(line), true) = (line, faults.is_empty()) else {
        return Err(ApiError::Validation(faults));
    };
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let id = db::identity::new_id();
    let by = ctx.caller.actor().to_string();
    let notice = notices::issue(
        conn,
        ctx.municipality_id,
        &NoticeDraft {
            kind: NoticeKind::SecurityRequired,
            payor_id: payor_id.to_owned(),
            issued_on: today,
            title: "Notice: security deposit required".to_owned(),
            addressee: addressee(&terms),
            paragraphs: vec![
                format!(
                    "To protect the revenue of the municipality, the Municipal Clerk-Treasurer requires you to place with the Clerk-Treasurer a security deposit of {amount}. Reason: {reason}."
                ),
                "No interest is paid or allowed on the deposit. If you become delinquent in paying the room tax, the tax may be recovered from the deposit upon 10 days' written notice.".to_owned(),
                "Failing to post security requested by the Clerk-Treasurer is a violation of the room tax article.".to_owned(),
            ],
            amounts: vec![NoticeAmount {
                label: "Security deposit required".to_owned(),
                period: None,
                amount,
            }],
            citations: vec![line.citation.to_string()],
            journal_id: None,
            cause_type: "security_deposit".to_owned(),
            cause_id: id.clone(),
        },
        &by,
    )?;
    let row = DepositRow {
        municipality_id: ctx.municipality_id,
        id: id.clone(),
        payor_id: payor_id.to_owned(),
        amount_cents: amount.cents(),
        reason,
        required_on: today,
        notice_id: notice.id,
        required_by: by,
        created_at: db::identity::now(),
    };
    db::security::insert_deposit(conn, &row)?;
    Actor::of(ctx)?.log_write(conn, ctx, "security_deposit", &id, "create")?;
    assemble(conn, row)
}

/// Money received for a deposit, as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewReceipt {
    /// The local date received.
    pub received_on: NaiveDate,
    /// The amount.
    pub amount: Money,
    /// How.
    pub method: PaymentMethod,
    /// Check number, transaction id, receipt number.
    pub reference: String,
}

/// Record money received for a deposit (see the module doc).
pub fn receive(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
    receipt: NewReceipt,
    today: NaiveDate,
) -> Result<(Deposit, String), ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let NewReceipt {
        received_on,
        amount,
        method,
        reference,
    } = receipt;
    let mut faults = Vec::new();
    crate::usecases::judge::not_after_today("received_on", received_on, today, &mut faults);
    let reference = match one_line("reference", &reference, 100) {
        Ok(r) => format!("{}: {r}", method.as_str()),
        Err(ApiError::Validation(mut f)) => {
            faults.append(&mut f);
            String::new()
        }
        Err(e) => return Err(e),
    };
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let deposit = load(conn, ctx, payor_id, deposit_id)?;
    if received_on < deposit.row.required_on {
        faults.push(FieldError::new(
            "received_on",
            "before_requirement",
            format!(
                "the deposit was required {}: it cannot be received before",
                deposit.row.required_on
            ),
        ));
    }
    if let Err(DomainError::Invalid {
        field,
        rule,
        message,
    }) = check_receipt(&deposit.state, amount)
    {
        faults.push(FieldError::new(&field, &rule, message));
    }
    ApiError::refused(faults)?;
    let journal = received_journal(payor_id, deposit_id, received_on, amount).map_err(domain)?;
    let journal_id = super::post(conn, ctx.municipality_id, &journal)?;
    record_event(
        conn,
        ctx,
        deposit_id,
        SecurityEventKind::Received,
        received_on,
        amount,
        reference,
        Some(journal_id.clone()),
        None,
    )?;
    Actor::of(ctx)?.log_write(conn, ctx, "security_deposit", deposit_id, "receive")?;
    Ok((assemble(conn, deposit.row)?, journal_id))
}

/// Give the written notice of application, dated today (see the module doc).
pub fn notify_application(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
    today: NaiveDate,
) -> Result<(Deposit, String), ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let policy = policy_on(&terms, today)?;
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let deposit = load(conn, ctx, payor_id, deposit_id)?;
    if deposit.state.closed || deposit.state.held().is_zero() {
        return Err(ApiError::RuleConflict(FieldError::new(
            "deposit",
            "nothing_held",
            "the deposit holds nothing to apply",
        )));
    }
    let first = security_application_date(&policy, today).map_err(domain)?;
    let owed = owed_as_of(conn, &terms, today)?;
    let book = book_as_of(conn, ctx.municipality_id, payor_id, today)?;
    let unpaid: Vec<(Period, Money)> = book
        .periods
        .keys()
        .map(|p| (*p, book.component(p, Component::Tax).balance().max_zero()))
        .filter(|(_, m)| !m.is_zero())
        .collect();
    if unpaid.is_empty() {
        return Err(ApiError::RuleConflict(FieldError::new(
            "deposit",
            "not_delinquent",
            "the payor owes no unpaid tax: there is nothing to recover from the deposit",
        )));
    }
    let notice = notices::issue(
        conn,
        ctx.municipality_id,
        &NoticeDraft {
            kind: NoticeKind::SecurityApplication,
            payor_id: payor_id.to_owned(),
            issued_on: today,
            title: "Notice: security deposit to be applied to unpaid tax".to_owned(),
            addressee: addressee(&terms),
            paragraphs: vec![
                format!(
                    "You are delinquent in the payment of room tax ({}). The Municipal Clerk-Treasurer gives you notice that the tax will be recovered from the security deposit of {} you placed with the Clerk-Treasurer.",
                    describe_owed(&owed, today),
                    deposit.state.held()
                ),
                format!(
                    "The deposit may be applied from {} (10 days after this notice). Pay the tax before then to avoid it.",
                    first.date
                ),
            ],
            amounts: unpaid
                .iter()
                .map(|(p, m)| NoticeAmount {
                    label: "Unpaid tax".to_owned(),
                    period: Some(p.to_string()),
                    amount: *m,
                })
                .collect(),
            citations: vec![first.citation.to_string()],
            journal_id: None,
            cause_type: "security_deposit".to_owned(),
            cause_id: deposit_id.to_owned(),
        },
        &ctx.caller.actor().to_string(),
    )?;
    record_event(
        conn,
        ctx,
        deposit_id,
        SecurityEventKind::ApplicationNotice,
        today,
        Money::ZERO,
        "written notice of application".to_owned(),
        None,
        Some(notice.id.clone()),
    )?;
    Actor::of(ctx)?.log_write(conn, ctx, "security_deposit", deposit_id, "notify")?;
    Ok((assemble(conn, deposit.row)?, notice.id))
}

/// What an application posted.
#[derive(Debug, Clone)]
pub struct AppliedDeposit {
    /// The deposit after it.
    pub deposit: Deposit,
    /// The journal.
    pub journal_id: String,
    /// The tax settled.
    pub allocations: Vec<Applied>,
    /// Interest and forfeiture posted.
    pub charges: Vec<Posted>,
    /// The amount applied.
    pub applied: Money,
}

/// Apply the deposit to unpaid tax on `applied_on` (default today).
pub fn apply(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
    applied_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<AppliedDeposit, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let on = applied_on.unwrap_or(today);
    if on > today {
        return Err(ApiError::Validation(vec![FieldError::new(
            "applied_on",
            "in_the_future",
            format!("must not be after today ({today})"),
        )]));
    }
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let policy = policy_on(&terms, on)?;
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let deposit = load(conn, ctx, payor_id, deposit_id)?;
    may_apply_on(&policy, deposit.state.notice_on, on).map_err(domain)?;
    // Like a payment, an application is not backdated before the payor's
    // latest payment: the ledger read as of any date then agrees with the
    // order in which money was applied.
    if let Some(latest) = db::payments::of_payor(conn, ctx.municipality_id, payor_id)?
        .iter()
        .map(|p| p.received_on)
        .max()
        && on < latest
    {
        return Err(ApiError::Validation(vec![FieldError::new(
            "applied_on",
            "before_latest_payment",
            format!(
                "a payment of this payor received {latest} is already recorded: apply the deposit on or after it"
            ),
        )]));
    }
    if deposit.state.closed {
        return Err(ApiError::RuleConflict(FieldError::new(
            "deposit",
            "already_returned",
            "this deposit has been returned",
        )));
    }
    let book = book_as_of(conn, ctx.municipality_id, payor_id, on)?;
    let period_terms = terms_of(conn, &terms, &book)?;
    let a = application_journal(
        payor_id,
        deposit_id,
        on,
        deposit.state.held(),
        &book,
        &period_terms,
    )
    .map_err(|e| match e {
        DomainError::Invalid {
            field,
            rule,
            message,
        } => ApiError::RuleConflict(FieldError::new(field, rule, message)),
        e => domain(e),
    })?;
    let journal_id = super::post(conn, ctx.municipality_id, &a.journal)?;
    record_event(
        conn,
        ctx,
        deposit_id,
        SecurityEventKind::Applied,
        on,
        a.applied,
        "applied to unpaid tax".to_owned(),
        Some(journal_id.clone()),
        None,
    )?;
    Actor::of(ctx)?.log_write(conn, ctx, "security_deposit", deposit_id, "apply")?;
    Ok(AppliedDeposit {
        deposit: assemble(conn, deposit.row)?,
        journal_id,
        allocations: a.allocations,
        charges: a.charges,
        applied: a.applied,
    })
}

/// Whether the payor has closed on `today`: its own closing date has come,
/// or it runs establishments and every one of them is closed.
fn payor_closed(conn: &mut DbConn, terms: &PayorTerms, today: NaiveDate) -> Result<bool, ApiError> {
    if RegistryStatus::on(terms.payor.closed_on, today) == RegistryStatus::Closed {
        return Ok(true);
    }
    let places = db::payors::establishments_of(conn, terms.payor.municipality_id, &terms.payor.id)?;
    Ok(!places.is_empty()
        && places
            .iter()
            .all(|e| RegistryStatus::on(e.closed_on, today) == RegistryStatus::Closed))
}

/// Return what the deposit holds, today (see the module doc).
pub fn return_deposit(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
    today: NaiveDate,
) -> Result<(Deposit, String), ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let citation = policy_on(&terms, today)?
        .security
        .map(|s| s.citation)
        .unwrap_or_default();
    db::payments::lock_payor(conn, ctx.municipality_id, payor_id)?;
    let deposit = load(conn, ctx, payor_id, deposit_id)?;
    if deposit.state.closed {
        return Err(ApiError::RuleConflict(FieldError::new(
            "deposit",
            "already_returned",
            "this deposit has been returned",
        )));
    }
    if !payor_closed(conn, &terms, today)? {
        return Err(ApiError::RuleConflict(FieldError::new(
            "payor",
            "payor_not_closed",
            "a security deposit is returned when the payor has closed (its closing date, or every establishment's, has come)",
        )));
    }
    let owed = owed_as_of(conn, &terms, today)?;
    if !owed.is_empty() {
        return Err(ApiError::RuleConflict(FieldError::new(
            "payor",
            "amount_owed",
            format!(
                "{}: the deposit is returned only when nothing is owed (apply it instead, {citation})",
                describe_owed(&owed, today)
            ),
        )));
    }
    let held = deposit.state.held();
    let journal_id = if held.is_zero() {
        None
    } else {
        let journal = returned_journal(payor_id, deposit_id, today, held).map_err(domain)?;
        Some(super::post(conn, ctx.municipality_id, &journal)?)
    };
    record_event(
        conn,
        ctx,
        deposit_id,
        SecurityEventKind::Returned,
        today,
        held,
        "returned: the payor closed with nothing owed".to_owned(),
        journal_id.clone(),
        None,
    )
    .map_err(|e| match e {
        ApiError::Conflict(_) => ApiError::RuleConflict(FieldError::new(
            "deposit",
            "already_returned",
            "this deposit has been returned",
        )),
        e => e,
    })?;
    Actor::of(ctx)?.log_write(conn, ctx, "security_deposit", deposit_id, "return")?;
    Ok((assemble(conn, deposit.row)?, journal_id.unwrap_or_default()))
}

/// The payor's deposits (clerk, staff, its own operator), logged as a read.
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
) -> Result<Vec<Deposit>, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    db::payors::get(conn, ctx.municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let rows = db::security::of_payor(conn, ctx.municipality_id, payor_id)?;
    let out = rows
        .into_iter()
        .map(|r| assemble(conn, r))
        .collect::<Result<Vec<_>, _>>()?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&basis),
        "security_deposit",
        payor_id,
    )?;
    Ok(out)
}

/// One deposit (clerk, staff, its own operator), logged as a read.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    deposit_id: &str,
) -> Result<Deposit, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let deposit = load(conn, ctx, payor_id, deposit_id)?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&basis),
        "security_deposit",
        deposit_id,
    )?;
    Ok(deposit)
}
