//! The journal a refund of credit posts: [`refund_journal`].
//!
//! Contract (issue 9 item 4; Montello room tax, interest ¶; Hayward room tax,
//! interest):
//! - a refund pays out money of the payor held as credit
//!   (`payor:<p>:credit`); it is more than 0.00 and at most the credit held
//!   (`amount`, rules `positive` and `exceeds_credit`; the caller passes the
//!   credit held as of the refund's date, or less when later postings used
//!   some of it);
//! - refund interest is the engine's [`refund_interest`] (never re-derived):
//!   Montello's 12 % a year (1 % a month) "from the due date of the return
//!   until the first day of the month following the month in which said
//!   taxes are refunded", counted in whole months like late interest
//!   (`months_late`: due 2026-04-30, refunded 2026-06-15 → 2 months), the due
//!   date never moved by an extension; none where the clerk-treasurer finds
//!   the overpayment made intentionally or by reason of carelessness or
//!   neglect, or where the tax was not accompanied by a complete return (the
//!   return is `incomplete`); Hayward's ordinance has no refund interest;
//! - the journal (kind `refund`, cause the refund's id, on the refund's
//!   date): the payor's credit debited with the refund, the municipality's
//!   `refund_interest_expense` debited with the interest (an expense of the
//!   municipality, not a reduction of tax revenue, so the tax received and
//!   the commission's share computed from it are untouched), cash credited
//!   with both (what leaves the municipality). It sums to zero.

use chrono::NaiveDate;

use super::account::Account;
use super::journal::{Cause, Journal, JournalKind, JournalLine};
use crate::domain::compute::{RefundInterestExclusions, refund_interest};
use crate::domain::error::DomainError;
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// A refund to post.
#[derive(Debug, Clone, Copy)]
pub struct RefundIn<'a> {
    /// The payor.
    pub payor_id: &'a str,
    /// The refund's id (the journal's cause).
    pub refund_id: &'a str,
    /// The local date it is paid out.
    pub refunded_on: NaiveDate,
    /// The credit refunded (positive).
    pub amount: Money,
}

/// What the refund's interest is judged by: the return the overpayment came from.
#[derive(Debug, Clone, Copy)]
pub struct RefundTerms<'a> {
    /// The policy governing the return's period.
    pub policy: &'a Policy,
    /// The return's due date (never extended for interest).
    pub due_date: NaiveDate,
    /// The ordinance's exclusions, as found.
    pub exclusions: RefundInterestExclusions,
}

/// What a refund posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundPosting {
    /// The balanced journal.
    pub journal: Journal,
    /// The engine's refund interest line (0.00 with the reason when none).
    pub interest: Line,
    /// Paid out: the refund plus its interest.
    pub paid_out: Money,
}

/// The journal `refund` posts, `credit_held` being the most it may take (see
/// the module doc).
pub fn refund_journal(
    refund: &RefundIn<'_>,
    credit_held: Money,
    terms: &RefundTerms<'_>,
) -> Result<RefundPosting, DomainError> {
    if refund.amount.is_negative() || refund.amount.is_zero() {
        return Err(DomainError::invalid(
            "amount",
            "positive",
            "a refund is more than 0.00",
        ));
    }
    if refund.amount > credit_held.max_zero() {
        return Err(DomainError::invalid(
            "amount",
            "exceeds_credit",
            format!(
                "a refund is at most the credit held for the payor on {} ({})",
                refund.refunded_on,
                credit_held.max_zero()
            ),
        ));
    }
    let interest = refund_interest(
        terms.policy,
        refund.amount,
        terms.due_date,
        refund.refunded_on,
        terms.exclusions,
    )?;
    let paid_out = refund.amount + interest.amount;
    let mut lines = vec![JournalLine::debit(
        Account::PayorCredit {
            payor_id: refund.payor_id.to_owned(),
        },
        refund.amount,
    )];
    if !interest.amount.is_zero() {
        lines.push(JournalLine::debit(
            Account::RefundInterestExpense,
            interest.amount,
        ));
    }
    lines.push(JournalLine::credit(Account::Cash, paid_out));
    let journal = Journal::new(
        JournalKind::Refund,
        refund.refunded_on,
        Cause::Refund {
            refund_id: refund.refund_id.to_owned(),
        },
        format!("refund {} paid {}", refund.refund_id, refund.refunded_on),
        lines,
    )
    .map_err(|e| DomainError::invalid("amount", "unbalanced", e.to_string()))?;
    Ok(RefundPosting {
        journal,
        interest,
        paid_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::ledger::journal::sum_cents;
    use crate::domain::presets::{hayward, montello};

    fn refund(amount: &str, on: &str) -> RefundIn<'static> {
        RefundIn {
            payor_id: "p",
            refund_id: "f1",
            refunded_on: d(on),
            amount: m(amount),
        }
    }

    fn lines(p: &RefundPosting) -> Vec<(String, i64)> {
        p.journal
            .lines()
            .iter()
            .map(|l| (l.account.to_string(), l.amount_cents))
            .collect()
    }

    #[test]
    fn montello_refund_interest_runs_from_the_due_date_to_the_month_after_the_refund() {
        // Due 2026-04-30, refunded 2026-06-15: interest until 2026-07-01, months
        // (12·2026 + 6) − (12·2026 + 4) = 2; 45.00 × 1 % × 2 = 0.90; paid out 45.90.
        let policy = montello();
        let terms = RefundTerms {
            policy: &policy,
            due_date: d("2026-04-30"),
            exclusions: RefundInterestExclusions::default(),
        };
        let p = refund_journal(&refund("45.00", "2026-06-15"), m("45.00"), &terms).unwrap();
        assert_eq!(p.interest.amount, m("0.90"));
        assert_eq!(p.paid_out, m("45.90"));
        assert_eq!(
            lines(&p),
            vec![
                ("payor:p:credit".to_owned(), 4500),
                ("municipality:refund_interest_expense".to_owned(), 90),
                ("municipality:cash".to_owned(), -4590)
            ]
        );
        assert_eq!(
            sum_cents(p.journal.lines().iter().map(|l| l.amount_cents)),
            0
        );
        assert!(p.interest.citation.contains("refunded taxes"));
        // Refunded on or before the due date: no month has begun, 0.00.
        let early = refund_journal(&refund("45.00", "2026-04-30"), m("45.00"), &terms).unwrap();
        assert_eq!(early.interest.amount, m("0.00"));
        assert_eq!(lines(&early).len(), 2);
    }

    #[test]
    fn no_refund_interest_under_the_exclusions_or_in_hayward() {
        let policy = montello();
        for exclusions in [
            RefundInterestExclusions {
                intentional_careless_or_neglect: true,
                return_incomplete: false,
            },
            RefundInterestExclusions {
                intentional_careless_or_neglect: false,
                return_incomplete: true,
            },
        ] {
            let terms = RefundTerms {
                policy: &policy,
                due_date: d("2026-04-30"),
                exclusions,
            };
            let p = refund_journal(&refund("45.00", "2026-06-15"), m("45.00"), &terms).unwrap();
            assert_eq!(p.interest.amount, m("0.00"));
            assert_eq!(p.paid_out, m("45.00"));
            assert!(p.interest.explanation.contains("no interest"));
        }
        let policy = hayward();
        let terms = RefundTerms {
            policy: &policy,
            due_date: d("2026-04-30"),
            exclusions: RefundInterestExclusions::default(),
        };
        let p = refund_journal(&refund("45.00", "2026-09-15"), m("45.00"), &terms).unwrap();
        assert_eq!(p.interest.amount, m("0.00"));
        assert_eq!(
            lines(&p),
            vec![
                ("payor:p:credit".to_owned(), 4500),
                ("municipality:cash".to_owned(), -4500)
            ]
        );
    }

    #[test]
    fn a_refund_is_positive_and_at_most_the_credit_held() {
        let policy = montello();
        let terms = RefundTerms {
            policy: &policy,
            due_date: d("2026-04-30"),
            exclusions: RefundInterestExclusions::default(),
        };
        let rule = |amount: &str, held: &str| match refund_journal(
            &refund(amount, "2026-06-15"),
            m(held),
            &terms,
        ) {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}:{rule}"),
            other => format!("{other:?}"),
        };
        assert_eq!(rule("45.01", "45.00"), "amount:exceeds_credit");
        assert_eq!(rule("0.01", "0.00"), "amount:exceeds_credit");
        assert_eq!(rule("0.01", "-5.00"), "amount:exceeds_credit");
        assert_eq!(rule("0.00", "45.00"), "amount:positive");
        assert_eq!(rule("-1.00", "45.00"), "amount:positive");
        assert!(refund_journal(&refund("45.00", "2026-06-15"), m("45.00"), &terms).is_ok());
    }
}
