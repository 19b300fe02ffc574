//! Security deposits in the ledger (Montello room tax, security ¶): what a
//! deposit holds, when it may be applied, and the journals it posts.
//!
//! Contract: pure (no I/O).
//! - a deposit's state is read from its events ([`DepositState::from_events`]):
//!   what was required, received, applied and returned, the money still held
//!   (received − applied − returned) and the latest written notice of
//!   application;
//! - a receipt is more than 0.00 and, with what was received before, at most
//!   the amount required (field `amount`, rule `above_required`);
//! - application: only from the engine's
//!   [`security_application_date`] (the notice date + 10 days: "upon 10 days'
//!   notice", so a notice given on June 1 allows application from June 11,
//!   not June 10); refused without a notice (`no_application_notice`) or
//!   before that date (`before_notice_period`, naming the first allowed date);
//! - [`application_journal`] applies the money held to unpaid TAX only
//!   (issue 9 item 7), the payor's oldest period first, through the engine's
//!   [`apply_payment`] with the period's tax as the only charge; the interest
//!   on the tax it settles is computed to the application date and posted
//!   (left owed), and Montello's late-payment forfeiture is posted when the
//!   tax is settled more than 30 days late, exactly as a payment would
//!   ([`super::payments`]); the deposit account is debited with what was
//!   applied;
//! - a receipt debits cash and credits `payor:<p>:security_deposit` (a
//!   liability of the municipality: the payor's money it holds, which earns
//!   no interest); a return is the reverse, for what is still held.
//!
//! Every journal sums to zero (`Journal::new` refuses anything else).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::book::PayorBook;
use super::journal::{Cause, Journal, JournalKind, JournalLine, LedgerError};
use super::payments::{Applied, PeriodTerms, Posted};
use crate::domain::compute::{
    Charge, apply_payment, interest, late_payment_forfeiture, security_application_date,
};
use crate::domain::error::DomainError;
use crate::domain::explain::{DateLine, Line};
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::{ChargeKind, Policy};

/// What happened to a deposit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecurityEventKind {
    /// Money received.
    Received,
    /// The written notice before an application.
    ApplicationNotice,
    /// Money applied to unpaid tax.
    Applied,
    /// Money returned to the payor.
    Returned,
}

impl SecurityEventKind {
    /// Every kind.
    pub const ALL: [SecurityEventKind; 4] = [
        SecurityEventKind::Received,
        SecurityEventKind::ApplicationNotice,
        SecurityEventKind::Applied,
        SecurityEventKind::Returned,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            SecurityEventKind::Received => "received",
            SecurityEventKind::ApplicationNotice => "application_notice",
            SecurityEventKind::Applied => "applied",
            SecurityEventKind::Returned => "returned",
        }
    }

    /// The kind named `text`.
    pub fn parse(text: &str) -> Option<SecurityEventKind> {
        SecurityEventKind::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// One event as the state reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecurityEvent {
    /// What happened.
    pub kind: SecurityEventKind,
    /// When (local date).
    pub on: NaiveDate,
    /// The amount (0.00 for a notice).
    pub amount: Money,
}

/// A deposit's state (see the module doc).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DepositState {
    /// The amount required.
    pub required: Money,
    /// Received in all.
    pub received: Money,
    /// Applied to unpaid tax in all.
    pub applied: Money,
    /// Returned to the payor.
    pub returned: Money,
    /// Whether the deposit has been returned (it is then closed).
    pub closed: bool,
    /// The date of the latest notice of application.
    pub notice_on: Option<NaiveDate>,
}

impl DepositState {
    /// The state after `events`, for a deposit requiring `required`.
    pub fn from_events(required: Money, events: &[SecurityEvent]) -> DepositState {
        let mut s = DepositState {
            required,
            ..DepositState::default()
        };
        for e in events {
            match e.kind {
                SecurityEventKind::Received => s.received += e.amount,
                SecurityEventKind::Applied => s.applied += e.amount,
                SecurityEventKind::Returned => {
                    s.returned += e.amount;
                    s.closed = true;
                }
                SecurityEventKind::ApplicationNotice => {
                    s.notice_on = Some(s.notice_on.map_or(e.on, |d| d.max(e.on)));
                }
            }
        }
        s
    }

    /// The money still held.
    pub fn held(&self) -> Money {
        self.received - self.applied - self.returned
    }

    /// What may still be received.
    pub fn outstanding(&self) -> Money {
        (self.required - self.received).max_zero()
    }
}

fn invalid(field: &str, rule: &str, message: impl Into<String>) -> DomainError {
    DomainError::invalid(field, rule, message)
}

fn ledger(e: LedgerError) -> DomainError {
    invalid("amount", "unbalanced", e.to_string())
}

fn cause(deposit_id: &str) -> Cause {
    Cause::SecurityDeposit {
        deposit_id: deposit_id.to_owned(),
    }
}

fn deposit_account(payor_id: &str) -> Account {
    Account::PayorSecurityDeposit {
        payor_id: payor_id.to_owned(),
    }
}

/// Refuse a receipt of `amount` that is not more than 0.00 or would take the
/// deposit past what was required, or a receipt on a returned deposit.
pub fn check_receipt(state: &DepositState, amount: Money) -> Result<(), DomainError> {
    if state.closed {
        return Err(invalid(
            "deposit",
            "already_returned",
            "this deposit has been returned",
        ));
    }
    if amount.is_negative() || amount.is_zero() {
        return Err(invalid("amount", "positive", "a receipt is more than 0.00"));
    }
    if amount > state.outstanding() {
        return Err(invalid(
            "amount",
            "above_required",
            format!(
                "{} was required and {} received: at most {} more may be received",
                state.required,
                state.received,
                state.outstanding()
            ),
        ));
    }
    Ok(())
}

/// The journal of `amount` received on `on`: cash debited, the payor's
/// security deposit account credited.
pub fn received_journal(
    payor_id: &str,
    deposit_id: &str,
    on: NaiveDate,
    amount: Money,
) -> Result<Journal, DomainError> {
    Journal::new(
        JournalKind::SecurityReceived,
        on,
        cause(deposit_id),
        format!("security deposit {deposit_id} received {on}"),
        vec![
            JournalLine::debit(Account::Cash, amount),
            JournalLine::credit(deposit_account(payor_id), amount),
        ],
    )
    .map_err(ledger)
}

/// The journal of the `held` money returned on `on`.
pub fn returned_journal(
    payor_id: &str,
    deposit_id: &str,
    on: NaiveDate,
    held: Money,
) -> Result<Journal, DomainError> {
    Journal::new(
        JournalKind::SecurityReturned,
        on,
        cause(deposit_id),
        format!("security deposit {deposit_id} returned {on}"),
        vec![
            JournalLine::debit(deposit_account(payor_id), held),
            JournalLine::credit(Account::Cash, held),
        ],
    )
    .map_err(ledger)
}

/// The first day the deposit may be applied, or why not on `on` (see the
/// module doc); field `applied_on`.
pub fn may_apply_on(
    policy: &Policy,
    notice_on: Option<NaiveDate>,
    on: NaiveDate,
) -> Result<DateLine, DomainError> {
    let citation = policy
        .security
        .as_ref()
        .map(|s| s.citation.clone())
        .unwrap_or_default();
    let Some(notice_on) = notice_on else {
        return Err(invalid(
            "applied_on",
            "no_application_notice",
            format!(
                "a security deposit is applied only after written notice: give the notice of application first ({citation})"
            ),
        ));
    };
    let first = security_application_date(policy, notice_on)?;
    if on < first.date {
        return Err(invalid(
            "applied_on",
            "before_notice_period",
            format!(
                "notice was given {notice_on}: the deposit may be applied from {} ({citation})",
                first.date
            ),
        ));
    }
    Ok(first)
}

/// What an application posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityApplication {
    /// The balanced journal.
    pub journal: Journal,
    /// The tax settled, oldest period first.
    pub allocations: Vec<Applied>,
    /// Interest and forfeiture posted because tax was settled.
    pub charges: Vec<Posted>,
    /// The amount applied (at most the money held).
    pub applied: Money,
}

/// Apply up to `held` of the deposit to the payor's unpaid tax on `on` (see
/// the module doc). Refused when nothing is held (`nothing_held`) or no tax is
/// unpaid (`nothing_to_apply`).
pub fn application_journal(
    payor_id: &str,
    deposit_id: &str,
    on: NaiveDate,
    held: Money,
    book: &PayorBook,
    terms: &BTreeMap<Period, PeriodTerms>,
) -> Result<SecurityApplication, DomainError> {
    if held.is_negative() || held.is_zero() {
        return Err(invalid(
            "deposit",
            "nothing_held",
            "the deposit holds nothing to apply",
        ));
    }
    let mut left = held;
    let mut lines = Vec::new();
    let mut allocations = Vec::new();
    let mut charges = Vec::new();
    for period in book.periods.keys() {
        if left.is_zero() {
            break;
        }
        let tax_book = book.component(period, Component::Tax);
        let open = tax_book.balance().max_zero();
        if open.is_zero() {
            continue;
        }
        let t = terms.get(period).ok_or(DomainError::NoPolicy {
            date: period.last_day(),
        })?;
        let only_tax = [Charge {
            period: *period,
            kind: ChargeKind::Tax,
            amount: open,
        }];
        let applied = apply_payment(&t.policy, left, &only_tax)?;
        let x: Money = applied.allocations.iter().map(|a| a.amount).sum();
        if x.is_zero() {
            continue;
        }
        let mut post = |component: Component, line: Line| {
            if line.amount.is_zero() {
                return;
            }
            lines.push(JournalLine::debit(
                Account::payor(payor_id, *period, component),
                line.amount,
            ));
            lines.push(JournalLine::credit(
                Account::Revenue(component),
                line.amount,
            ));
            charges.push(Posted {
                period: *period,
                component,
                line,
            });
        };
        post(
            Component::Interest,
            interest(&t.policy, x, t.due_date, Some(on))?,
        );
        if book
            .component(period, Component::LatePaymentForfeiture)
            .charged
            .is_zero()
        {
            post(
                Component::LatePaymentForfeiture,
                late_payment_forfeiture(
                    &t.policy,
                    tax_book.charged,
                    t.filing_due_date,
                    Some(on),
                    t.previous_year_tax,
                )?,
            );
        }
        lines.push(JournalLine::credit(
            Account::payor(payor_id, *period, Component::Tax),
            x,
        ));
        allocations.push(Applied {
            period: *period,
            component: Component::Tax,
            amount: x,
        });
        left = applied.unapplied;
    }
    let total = held - left;
    if total.is_zero() {
        return Err(invalid(
            "deposit",
            "nothing_to_apply",
            "the payor owes no unpaid tax: a security deposit is applied to unpaid tax only",
        ));
    }
    lines.insert(0, JournalLine::debit(deposit_account(payor_id), total));
    let journal = Journal::new(
        JournalKind::SecurityApplied,
        on,
        cause(deposit_id),
        format!("security deposit {deposit_id} applied {on}"),
        lines,
    )
    .map_err(ledger)?;
    Ok(SecurityApplication {
        journal,
        allocations,
        charges,
        applied: total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::ledger::book::PostedLine;
    use crate::domain::presets::montello;

    const P: &str = "p1";

    fn rule_of<T: std::fmt::Debug>(r: Result<T, DomainError>) -> String {
        match r {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn state_from_events_and_receipts_up_to_the_requirement() {
        let ev = |kind, on: &str, a: &str| SecurityEvent {
            kind,
            on: d(on),
            amount: m(a),
        };
        let s = DepositState::from_events(
            m("1000.00"),
            &[
                ev(SecurityEventKind::Received, "2026-06-01", "600.00"),
                ev(SecurityEventKind::ApplicationNotice, "2026-07-01", "0"),
                ev(SecurityEventKind::Applied, "2026-07-11", "250.00"),
            ],
        );
        // 600.00 − 250.00 = 350.00 held; 1,000.00 − 600.00 = 400.00 still to receive.
        assert_eq!((s.held(), s.outstanding()), (m("350.00"), m("400.00")));
        assert_eq!(s.notice_on, Some(d("2026-07-01")));
        assert!(check_receipt(&s, m("400.00")).is_ok());
        assert_eq!(
            rule_of(check_receipt(&s, m("400.01"))),
            "amount/above_required"
        );
        assert_eq!(rule_of(check_receipt(&s, m("0"))), "amount/positive");
    }

    #[test]
    fn applied_from_the_tenth_day_after_notice() {
        let p = montello();
        assert_eq!(
            rule_of(may_apply_on(&p, None, d("2026-07-20"))),
            "applied_on/no_application_notice"
        );
        // Notice 2026-07-01 + 10 days = 2026-07-11.
        assert_eq!(
            rule_of(may_apply_on(&p, Some(d("2026-07-01")), d("2026-07-10"))),
            "applied_on/before_notice_period"
        );
        assert_eq!(
            may_apply_on(&p, Some(d("2026-07-01")), d("2026-07-11"))
                .unwrap()
                .date,
            d("2026-07-11")
        );
    }

    #[test]
    fn applied_to_tax_only_with_interest_on_what_it_settles() {
        // 2026-Q1 tax 427.50 and fee 25.00, due 2026-04-30, filed on time.
        let q1 = Period::parse("2026-Q1").unwrap();
        let line = |c, cents| PostedLine {
            kind: JournalKind::ReturnFiled,
            posted_on: d("2026-04-30"),
            account: Account::payor(P, q1, c),
            amount_cents: cents,
        };
        let book = PayorBook::from_lines(&[
            line(Component::Tax, 42_750),
            line(Component::LateFilingFee, 2_500),
        ]);
        let terms = BTreeMap::from([(
            q1,
            PeriodTerms {
                policy: montello(),
                due_date: d("2026-04-30"),
                filing_due_date: d("2026-04-30"),
                previous_year_tax: None,
            },
        )]);
        // 300.00 held, applied 2026-05-20: tax 300.00 settled; interest
        // 300.00 × 1 % × 1 month (2026-04 → 2026-05) = 3.00 posted; the fee
        // is not touched; no previous year: no forfeiture.
        let a = application_journal(P, "dep", d("2026-05-20"), m("300.00"), &book, &terms).unwrap();
        assert_eq!(a.applied, m("300.00"));
        assert_eq!(a.allocations.len(), 1);
        assert_eq!(a.allocations[0].amount, m("300.00"));
        assert_eq!(a.charges.len(), 1);
        assert_eq!(a.charges[0].line.amount, m("3.00"));
        let sum: i64 = a.journal.lines().iter().map(|l| l.amount_cents).sum();
        assert_eq!(sum, 0);
        // 1,000.00 held: only the tax 427.50 is applied; interest 4.28 (4.275).
        let a =
            application_journal(P, "dep", d("2026-05-20"), m("1000.00"), &book, &terms).unwrap();
        assert_eq!(a.applied, m("427.50"));
        assert_eq!(a.charges[0].line.amount, m("4.28"));
        let empty = PayorBook::default();
        assert_eq!(
            rule_of(application_journal(
                P,
                "dep",
                d("2026-05-20"),
                m("1.00"),
                &empty,
                &terms
            )),
            "deposit/nothing_to_apply"
        );
    }

    #[test]
    fn received_and_returned_journals_balance() {
        let r = received_journal(P, "dep", d("2026-06-01"), m("500.00")).unwrap();
        assert_eq!(r.lines()[0].amount_cents, 50_000);
        assert_eq!(
            r.lines()[1].account.to_string(),
            "payor:p1:security_deposit"
        );
        let back = returned_journal(P, "dep", d("2026-09-01"), m("500.00")).unwrap();
        assert_eq!(back.lines()[1].account, Account::Cash);
        assert_eq!(back.lines()[1].amount_cents, -50_000);
    }
}
