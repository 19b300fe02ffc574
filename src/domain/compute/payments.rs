//! Payment application: which open charges a payment settles.
//!
//! Contract (DESIGN §3; the ordinances are silent, so the rule and order are ours and a
//! policy parameter): a payment goes to the oldest open period first (periods ordered by
//! last day, see `period.rs`), and within a period to its charges in the policy's kind
//! order (presets: tax, interest, fee, penalty); charges of the same period and kind in
//! the order given. Each charge takes what it can; what is left after every charge is an
//! unapplied credit. Every cent is conserved: the allocations plus the credit equal the
//! payment. Fields `payment` and `charges` must not be negative.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::{ChargeKind, Policy};

/// An open (unpaid) charge on a payor's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Charge {
    /// The period the charge belongs to.
    pub period: Period,
    /// What kind of charge it is.
    pub kind: ChargeKind,
    /// The amount still open.
    pub amount: Money,
}

/// A part of the payment applied to one charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Allocation {
    /// The period of the charge.
    pub period: Period,
    /// The kind of the charge.
    pub kind: ChargeKind,
    /// How much of the payment went to it.
    pub amount: Money,
    /// Index of the charge in the input list.
    pub charge_index: usize,
}

/// How a payment was applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PaymentApplication {
    /// Allocations in the order applied (zero allocations are left out).
    pub allocations: Vec<Allocation>,
    /// What was left after every charge (a credit on the account).
    pub unapplied: Money,
    /// One line per allocation (code `payment_applied`), and one for any credit (code
    /// `unapplied_credit`).
    pub lines: Vec<Line>,
}

fn kind_name(kind: ChargeKind) -> &'static str {
    match kind {
        ChargeKind::Tax => "tax",
        ChargeKind::Interest => "interest",
        ChargeKind::Fee => "fee",
        ChargeKind::Penalty => "penalty",
    }
}

/// Applies `payment` to `charges` (see module doc).
pub fn apply_payment(
    policy: &Policy,
    payment: Money,
    charges: &[Charge],
) -> Result<PaymentApplication, DomainError> {
    require_not_negative("payment", payment)?;
    if let Some(bad) = charges.iter().find(|c| c.amount.is_negative()) {
        return Err(DomainError::invalid(
            "charges",
            "not_negative",
            format!(
                "an open charge must not be negative (got {} for {})",
                bad.amount, bad.period
            ),
        ));
    }
    let order = &policy.payment_order.value;
    let rank = |kind: ChargeKind| order.iter().position(|&k| k == kind).unwrap_or(order.len());
    let mut indices: Vec<usize> = (0..charges.len()).collect();
    indices.sort_by_key(|&i| (charges[i].period, rank(charges[i].kind), i));

    let citation = &policy.payment_order.citation;
    let mut left = payment;
    let mut allocations = Vec::new();
    let mut lines = Vec::new();
    for i in indices {
        let charge = charges[i];
        let amount = left.min(charge.amount);
        if amount.is_zero() {
            continue;
        }
        left -= amount;
        allocations.push(Allocation {
            period: charge.period,
            kind: charge.kind,
            amount,
            charge_index: i,
        });
        let explanation = format!(
            "{amount} of the payment {payment} to {} of {} (open {}), oldest period first, then {}",
            kind_name(charge.kind),
            charge.period,
            charge.amount,
            order
                .iter()
                .map(|&k| kind_name(k))
                .collect::<Vec<_>>()
                .join(", ")
        );
        lines.push(
            Line::new("payment_applied", amount, explanation, citation)
                .input("period", charge.period)
                .input("kind", kind_name(charge.kind))
                .input("open", charge.amount),
        );
    }
    if !left.is_zero() {
        lines.push(Line::new(
            "unapplied_credit",
            left,
            format!("{left} of the payment {payment} is left after every open charge: a credit"),
            citation,
        ));
    }
    Ok(PaymentApplication {
        allocations,
        unapplied: left,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::m;
    use crate::domain::presets::montello;
    use proptest::prelude::*;

    fn charge(period: &str, kind: ChargeKind, amount: &str) -> Charge {
        Charge {
            period: period.parse().unwrap(),
            kind,
            amount: m(amount),
        }
    }

    #[test]
    fn oldest_period_first_then_kind_order() {
        let charges = [
            charge("2026-Q1", ChargeKind::Tax, "500.00"),
            charge("2025-Q4", ChargeKind::Penalty, "25.00"),
            charge("2025-Q4", ChargeKind::Interest, "10.00"),
            charge("2025-Q4", ChargeKind::Tax, "300.00"),
            charge("2025-Q4", ChargeKind::Fee, "25.00"),
        ];
        let result = apply_payment(&montello(), m("400.00"), &charges).unwrap();
        let applied: Vec<(String, ChargeKind, Money)> = result
            .allocations
            .iter()
            .map(|a| (a.period.to_string(), a.kind, a.amount))
            .collect();
        assert_eq!(
            applied,
            vec![
                ("2025-Q4".to_owned(), ChargeKind::Tax, m("300.00")),
                ("2025-Q4".to_owned(), ChargeKind::Interest, m("10.00")),
                ("2025-Q4".to_owned(), ChargeKind::Fee, m("25.00")),
                ("2025-Q4".to_owned(), ChargeKind::Penalty, m("25.00")),
                ("2026-Q1".to_owned(), ChargeKind::Tax, m("40.00")),
            ]
        );
        assert_eq!(result.unapplied, Money::ZERO);
        assert_eq!(result.allocations[4].charge_index, 0);
    }

    #[test]
    fn overpayment_leaves_a_credit() {
        let charges = [charge("2026-Q1", ChargeKind::Tax, "100.00")];
        let result = apply_payment(&montello(), m("150.00"), &charges).unwrap();
        assert_eq!(result.unapplied, m("50.00"));
        assert_eq!(
            result.lines.last().map(|l| l.code.as_ref()),
            Some("unapplied_credit")
        );
        assert!(apply_payment(&montello(), m("-1"), &charges).is_err());
        assert!(
            apply_payment(
                &montello(),
                m("1"),
                &[charge("2026-Q1", ChargeKind::Tax, "-1")]
            )
            .is_err()
        );
    }

    fn arb_charge() -> impl Strategy<Value = Charge> {
        (2024i32..2027, 1u8..=4, 0usize..4, 0i64..100_000).prop_map(
            |(year, quarter, kind, cents)| Charge {
                period: Period::Quarter { year, quarter },
                kind: [
                    ChargeKind::Tax,
                    ChargeKind::Interest,
                    ChargeKind::Fee,
                    ChargeKind::Penalty,
                ][kind],
                amount: Money::from_cents(cents),
            },
        )
    }

    proptest! {
        #[test]
        fn payment_application_conserves_cents(payment in 0i64..1_000_000, charges in proptest::collection::vec(arb_charge(), 0..12)) {
            let result = apply_payment(&montello(), Money::from_cents(payment), &charges).unwrap();
            let applied: Money = result.allocations.iter().map(|a| a.amount).sum();
            prop_assert_eq!(applied + result.unapplied, Money::from_cents(payment));
            prop_assert!(!result.unapplied.is_negative());
            for allocation in &result.allocations {
                prop_assert!(allocation.amount <= charges[allocation.charge_index].amount);
            }
            let open: Money = charges.iter().map(|c| c.amount).sum();
            // a credit only when every charge is paid in full
            if !result.unapplied.is_zero() {
                prop_assert_eq!(applied, open);
            }
        }
    }
}
