//! Journals: balanced sets of lines, each tied to its cause.
//!
//! Contract: [`Journal::new`] refuses a journal with no lines
//! ([`LedgerError::Empty`]) and one whose lines do not sum to zero
//! ([`LedgerError::Unbalanced`], the sum computed without overflow), so every
//! `Journal` value is balanced. Amounts are signed integer cents, debit
//! positive, credit negative. A line of 0 cents is allowed: a zero return
//! still posts its journal (the tax lines say 0.00), so that every version of
//! a return has one. Kinds and causes have stable text names, parsed back by
//! [`JournalKind::parse`] and [`Cause::parse`].

use std::fmt;

use chrono::NaiveDate;

use super::account::Account;
use crate::domain::money::Money;

/// What kind of posting a journal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JournalKind {
    /// The charges of a return as first filed.
    ReturnFiled,
    /// The tax difference of an amended return.
    ReturnAmended,
    /// The tax difference the annual return reveals for one quarter.
    AnnualAdjustment,
    /// A payment received: cash in, the payor's accounts credited, and the
    /// interest and forfeiture the payment settles charged.
    Payment,
    /// The exact negation of a payment's journal (a bounced check).
    PaymentReversed,
    /// Credit held applied to charges of the payor's periods.
    CreditApplied,
    /// A refund of credit paid out (with Montello's refund interest).
    Refund,
    /// The charges of a determination (audit, estimate, fraud).
    Determination,
    /// A filed return replacing the tax of an estimate for its period.
    EstimateReplaced,
    /// A security deposit received.
    SecurityReceived,
    /// A security deposit applied to unpaid tax (after notice).
    SecurityApplied,
    /// A security deposit returned to the payor.
    SecurityReturned,
    /// Montello's late-payment forfeiture posted by the clerk's daily posting.
    ForfeiturePosted,
    /// What the DOT remitted of Montello's vehicle registration fee for a
    /// quarter (or a correction's difference): cash debited, the segregated
    /// fund credited (Montello vehicle registration fee, fee ¶).
    VehicleFeeRemittance,
    /// A payment out of the vehicle registration fee fund: the fund debited,
    /// cash credited.
    VehicleFeeSpending,
    /// The reversal of a payment out of the fund recorded in error: cash
    /// debited, the fund credited with the spending's amount (its cause is
    /// the spending, as a payment's reversal is caused by the payment).
    VehicleFeeSpendingReversed,
    /// A remittance version: the commission's share of the tax collected in a
    /// quarter (or the difference a correction makes) moved from tax revenue
    /// to the commission payable (Montello room tax, distribution ¶A).
    Remittance,
    /// A remittance version's commission share paid to the commission.
    RemittanceTransfer,
}

impl JournalKind {
    /// Every kind.
    pub const ALL: [JournalKind; 18] = [
        JournalKind::ReturnFiled,
        JournalKind::ReturnAmended,
        JournalKind::AnnualAdjustment,
        JournalKind::Payment,
        JournalKind::PaymentReversed,
        JournalKind::CreditApplied,
        JournalKind::Refund,
        JournalKind::Determination,
        JournalKind::EstimateReplaced,
        JournalKind::SecurityReceived,
        JournalKind::SecurityApplied,
        JournalKind::SecurityReturned,
        JournalKind::ForfeiturePosted,
        JournalKind::VehicleFeeRemittance,
        JournalKind::VehicleFeeSpending,
        JournalKind::VehicleFeeSpendingReversed,
        JournalKind::Remittance,
        JournalKind::RemittanceTransfer,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            JournalKind::ReturnFiled => "return_filed",
            JournalKind::ReturnAmended => "return_amended",
            JournalKind::AnnualAdjustment => "annual_adjustment",
            JournalKind::Payment => "payment",
            JournalKind::PaymentReversed => "payment_reversed",
            JournalKind::CreditApplied => "credit_applied",
            JournalKind::Refund => "refund",
            JournalKind::Determination => "determination",
            JournalKind::EstimateReplaced => "estimate_replaced",
            JournalKind::SecurityReceived => "security_received",
            JournalKind::SecurityApplied => "security_applied",
            JournalKind::SecurityReturned => "security_returned",
            JournalKind::ForfeiturePosted => "forfeiture_posted",
            JournalKind::VehicleFeeRemittance => "vehicle_fee_remittance",
            JournalKind::VehicleFeeSpending => "vehicle_fee_spending",
            JournalKind::VehicleFeeSpendingReversed => "vehicle_fee_spending_reversed",
            JournalKind::Remittance => "remittance",
            JournalKind::RemittanceTransfer => "remittance_transfer",
        }
    }

    /// The kind named `text`.
    pub fn parse(text: &str) -> Option<JournalKind> {
        JournalKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

impl fmt::Display for JournalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What caused a journal, stored as `cause_type` and `cause_id`.
///
/// Besides a return's version, every cause is one stored row named by its id
/// (no `:` in it): a payment (its journal and its reversal's), a refund, a
/// determination, a security deposit (received, applied, returned), and a
/// posting run (the forfeiture posted for one return: `cause_id` the
/// return's id, so each is posted at most once per kind). Credit applied
/// after a version of a return charged the payor (`credit_applied`) is
/// caused by that version, so each version may apply credit once.
/// A version of a vehicle registration fee remittance and a payment out of
/// the fund are rows of their own too (`vehicle_fee_remittance`,
/// `vehicle_fee_spending`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A version of a return: `cause_id` is `<return id>:<version>`.
    ReturnVersion {
        /// The return.
        return_id: String,
        /// Its version (1 = as filed).
        version: i64,
    },
    /// A payment (its journal, and its reversal's): `cause_id` is the payment's id.
    Payment {
        /// The payment.
        payment_id: String,
    },
    /// A refund of credit.
    Refund {
        /// The refund.
        refund_id: String,
    },
    /// A determination (audit, estimate, fraud) and what replaces its tax.
    Determination {
        /// The determination.
        determination_id: String,
    },
    /// A security deposit: received, applied, returned.
    SecurityDeposit {
        /// The deposit.
        deposit_id: String,
    },
    /// A posting the ledger makes for one return on its own schedule (the
    /// clerk's daily forfeiture posting).
    Return {
        /// The return.
        return_id: String,
    },
    /// A version of a vehicle registration fee remittance (its row's id).
    VehicleFeeRemittance {
        /// The remittance version's id.
        remittance_id: String,
    },
    /// A payment out of the vehicle registration fee fund (its row's id).
    VehicleFeeSpending {
        /// The spending's id.
        spending_id: String,
    },
    /// A version of a municipality's remittance to its zone (its journal and
    /// its transfer's): `cause_id` is the version's id.
    Remittance {
        /// The remittance version.
        remittance_id: String,
    },
}

impl Cause {
    /// The causes named by one id, with their stored `cause_type`.
    const BY_ID: [&'static str; 8] = [
        "payment",
        "refund",
        "determination",
        "security_deposit",
        "return",
        "vehicle_fee_remittance",
        "vehicle_fee_spending",
        "remittance",
    ];

    /// The stored `cause_type`.
    pub fn cause_type(&self) -> &'static str {
        match self {
            Cause::ReturnVersion { .. } => "return_version",
            Cause::Payment { .. } => "payment",
            Cause::Refund { .. } => "refund",
            Cause::Determination { .. } => "determination",
            Cause::SecurityDeposit { .. } => "security_deposit",
            Cause::Return { .. } => "return",
            Cause::VehicleFeeRemittance { .. } => "vehicle_fee_remittance",
            Cause::VehicleFeeSpending { .. } => "vehicle_fee_spending",
            Cause::Remittance { .. } => "remittance",
        }
    }

    /// The stored `cause_id`.
    pub fn cause_id(&self) -> String {
        match self {
            Cause::ReturnVersion { return_id, version } => format!("{return_id}:{version}"),
            Cause::Payment { payment_id: id }
            | Cause::Refund { refund_id: id }
            | Cause::Determination {
                determination_id: id,
            }
            | Cause::SecurityDeposit { deposit_id: id }
            | Cause::Return { return_id: id } => id.clone(),
            Cause::VehicleFeeRemittance { remittance_id: id } => id.clone(),
            Cause::VehicleFeeSpending { spending_id: id } => id.clone(),
            Cause::Remittance { remittance_id: id } => id.clone(),
        }
    }

    /// The cause stored as `cause_type` and `cause_id`.
    pub fn parse(cause_type: &str, cause_id: &str) -> Option<Cause> {
        if cause_type == "return_version" {
            let (return_id, version) = cause_id.rsplit_once(':')?;
            let version: i64 = version.parse().ok().filter(|v| *v >= 1)?;
            return (!return_id.is_empty()).then(|| Cause::ReturnVersion {
                return_id: return_id.to_owned(),
                version,
            });
        }
        if !Cause::BY_ID.contains(&cause_type) || cause_id.is_empty() || cause_id.contains(':') {
            return None;
        }
        let id = cause_id.to_owned();
        Some(match cause_type {
            "payment" => Cause::Payment { payment_id: id },
            "refund" => Cause::Refund { refund_id: id },
            "determination" => Cause::Determination {
                determination_id: id,
            },
            "security_deposit" => Cause::SecurityDeposit { deposit_id: id },
            "vehicle_fee_remittance" => Cause::VehicleFeeRemittance { remittance_id: id },
            "vehicle_fee_spending" => Cause::VehicleFeeSpending { spending_id: id },
            "remittance" => Cause::Remittance { remittance_id: id },
            _ => Cause::Return { return_id: id },
        })
    }
}

/// One line: an amount on an account.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JournalLine {
    /// The account.
    pub account: Account,
    /// Signed cents: debit positive, credit negative.
    pub amount_cents: i64,
}

impl JournalLine {
    /// A debit of `amount` (a negative amount is a credit).
    pub fn debit(account: Account, amount: Money) -> JournalLine {
        JournalLine {
            account,
            amount_cents: amount.cents(),
        }
    }

    /// A credit of `amount` (stored negated).
    pub fn credit(account: Account, amount: Money) -> JournalLine {
        JournalLine {
            account,
            amount_cents: -amount.cents(),
        }
    }
}

/// Why a journal cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// A journal needs at least one line.
    #[error("a journal needs at least one line")]
    Empty,
    /// The lines do not sum to zero.
    #[error("the journal's lines sum to {sum} cents, not zero")]
    Unbalanced {
        /// The sum of the lines, in cents.
        sum: i128,
    },
}

/// A balanced posting (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    kind: JournalKind,
    posted_on: NaiveDate,
    cause: Cause,
    memo: String,
    lines: Vec<JournalLine>,
}

/// The sum of `amounts`, exact (no overflow for any number of `i64`s a
/// journal or an account can hold).
pub fn sum_cents(amounts: impl IntoIterator<Item = i64>) -> i128 {
    amounts.into_iter().map(i128::from).sum()
}

impl Journal {
    /// A journal of `lines`, refused when empty or unbalanced.
    pub fn new(
        kind: JournalKind,
        posted_on: NaiveDate,
        cause: Cause,
        memo: impl Into<String>,
        lines: Vec<JournalLine>,
    ) -> Result<Journal, LedgerError> {
        if lines.is_empty() {
            return Err(LedgerError::Empty);
        }
        let sum = sum_cents(lines.iter().map(|l| l.amount_cents));
        if sum != 0 {
            return Err(LedgerError::Unbalanced { sum });
        }
        Ok(Journal {
            kind,
            posted_on,
            cause,
            memo: memo.into(),
            lines,
        })
    }

    /// Its kind.
    pub fn kind(&self) -> JournalKind {
        self.kind
    }

    /// The date it counts from in balances.
    pub fn posted_on(&self) -> NaiveDate {
        self.posted_on
    }

    /// What caused it.
    pub fn cause(&self) -> &Cause {
        &self.cause
    }

    /// A sentence for people (no confidential values: amounts live in the lines).
    pub fn memo(&self) -> &str {
        &self.memo
    }

    /// Its lines, in posting order (line 1 first).
    pub fn lines(&self) -> &[JournalLine] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ledger::account::{Component, tests::any_account};
    use proptest::prelude::*;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 5, 1).unwrap()
    }

    fn cause() -> Cause {
        Cause::ReturnVersion {
            return_id: "r1".into(),
            version: 1,
        }
    }

    fn line(account: Account, cents: i64) -> JournalLine {
        JournalLine {
            account,
            amount_cents: cents,
        }
    }

    #[test]
    fn a_balanced_journal_is_built() {
        let j = Journal::new(
            JournalKind::ReturnFiled,
            day(),
            cause(),
            "m",
            vec![
                line(Account::Cash, 100),
                line(Account::Revenue(Component::Tax), -100),
            ],
        )
        .unwrap();
        assert_eq!(j.lines().len(), 2);
        assert_eq!(j.kind().as_str(), "return_filed");
        assert_eq!(j.cause().cause_id(), "r1:1");
    }

    #[test]
    fn an_empty_or_unbalanced_journal_is_refused() {
        let empty = Journal::new(JournalKind::ReturnFiled, day(), cause(), "m", vec![]);
        assert_eq!(empty, Err(LedgerError::Empty));
        let off = Journal::new(
            JournalKind::ReturnFiled,
            day(),
            cause(),
            "m",
            vec![
                line(Account::Cash, 100),
                line(Account::CommissionPayable, -99),
            ],
        );
        assert_eq!(off, Err(LedgerError::Unbalanced { sum: 1 }));
        // i64 extremes neither overflow nor wrap round to a false zero.
        let huge = Journal::new(
            JournalKind::ReturnFiled,
            day(),
            cause(),
            "m",
            vec![
                line(Account::Cash, i64::MAX),
                line(Account::Cash, i64::MAX),
                line(Account::Cash, 2),
            ],
        );
        assert!(matches!(huge, Err(LedgerError::Unbalanced { .. })));
    }

    #[test]
    fn causes_and_kinds_round_trip() {
        let c = Cause::ReturnVersion {
            return_id: "5b0c:x".into(),
            version: 12,
        };
        assert_eq!(Cause::parse(c.cause_type(), &c.cause_id()), Some(c));
        assert_eq!(Cause::parse("return_version", "r:0"), None);
        assert_eq!(Cause::parse("payment", "r:1"), None);
        let p = Cause::Payment {
            payment_id: "p1".into(),
        };
        assert_eq!(Cause::parse(p.cause_type(), &p.cause_id()), Some(p));
        assert_eq!(Cause::parse("refund_of", "p1"), None);
        for c in [
            Cause::Refund {
                refund_id: "f1".into(),
            },
            Cause::Determination {
                determination_id: "d1".into(),
            },
            Cause::SecurityDeposit {
                deposit_id: "s1".into(),
            },
            Cause::Return {
                return_id: "r1".into(),
            },
            Cause::VehicleFeeRemittance {
                remittance_id: "v1".into(),
            },
            Cause::VehicleFeeSpending {
                spending_id: "s1".into(),
            },
            Cause::Remittance {
                remittance_id: "m1".into(),
            },
        ] {
            assert_eq!(Cause::parse(c.cause_type(), &c.cause_id()), Some(c));
        }
        assert_eq!(Cause::parse("determination", ""), None);
        for k in JournalKind::ALL {
            assert_eq!(JournalKind::parse(k.as_str()), Some(k));
        }
    }

    proptest! {
        /// Whatever lines are offered, a journal is built exactly when they
        /// are non-empty and sum to zero.
        #[test]
        fn a_journal_is_built_only_when_balanced(
            lines in proptest::collection::vec((any_account(), -1_000_000_000i64..1_000_000_000), 0..8),
            balance in any::<bool>(),
        ) {
            let mut lines: Vec<JournalLine> =
                lines.into_iter().map(|(a, c)| line(a, c)).collect();
            if balance && !lines.is_empty() {
                let sum = sum_cents(lines.iter().map(|l| l.amount_cents)) as i64;
                lines.push(line(Account::Cash, -sum));
            }
            let sum = sum_cents(lines.iter().map(|l| l.amount_cents));
            let built = Journal::new(JournalKind::ReturnFiled, day(), cause(), "m", lines.clone());
            match built {
                Ok(j) => {
                    prop_assert!(!lines.is_empty());
                    prop_assert_eq!(sum_cents(j.lines().iter().map(|l| l.amount_cents)), 0);
                }
                Err(LedgerError::Empty) => prop_assert!(lines.is_empty()),
                Err(LedgerError::Unbalanced { sum: s }) => {
                    prop_assert_eq!(s, sum);
                    prop_assert!(s != 0);
                }
            }
        }
    }
}
