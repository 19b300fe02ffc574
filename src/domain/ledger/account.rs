//! Ledger accounts and their stored names.
//!
//! Contract: every account has exactly one text name, and [`Account::parse`]
//! accepts exactly the names [`Account`]'s `Display` writes (a round trip is
//! the identity; a property test checks it). The names:
//!
//! | account | name |
//! | --- | --- |
//! | what a payor owes for a period, by component | `payor:<payor>:<period>:<component>` |
//! | a payor's credit (overpayments held) | `payor:<payor>:credit` |
//! | a payor's security deposit (Montello) | `payor:<payor>:security_deposit` |
//! | the municipality's cash | `municipality:cash` |
//! | its revenue, by component | `municipality:revenue:<component>` |
//! | its payable to the zone's commission | `municipality:commission_payable` |
//! | the vehicle registration fee fund | `municipality:vehicle_fee_fund` |
//! | its expense of interest paid on refunds (Montello) | `municipality:refund_interest_expense` |
//!
//! `<payor>` is the payor's id (letters, digits, `-`, `_`; never `:`),
//! `<period>` a [`Period`]'s text (`2026-Q1`, `2026`, `FY2026-06`),
//! `<component>` one of [`Component::ALL`]'s names. Within a municipality (the
//! tenant column of every ledger row) these names are unique.

use std::fmt;
use std::str::FromStr;

use crate::domain::period::Period;

/// What a charge is for: the components of a payor's period (issue 9: tax,
/// interest, late filing fee, late-payment forfeiture, estimate penalty, fraud
/// penalty; and a refund of a reversed payment's credit owed back), in the
/// order payments apply to them within a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// Room tax principal (tax less the operator's collection fee).
    Tax,
    /// Interest on unpaid tax (posted when settled, never ahead).
    Interest,
    /// The fee for a return filed after its (extended) due date.
    LateFilingFee,
    /// Montello's forfeiture for tax paid more than 30 days late.
    LatePaymentForfeiture,
    /// The 10 % penalty of a non-filer estimate.
    EstimatePenalty,
    /// The 50 % fraud penalty.
    FraudPenalty,
    /// Credit refunded out of a payment that was later reversed (a bounced
    /// check): owed back by the payor, posted by the reversal
    /// (`ledger::reversal`) in the period of the return whose overpayment the
    /// refund named. Not revenue: the municipality's cash paid it out.
    RefundReclaimed,
}

impl Component {
    /// Every component, in payment-application order.
    pub const ALL: [Component; 7] = [
        Component::Tax,
        Component::Interest,
        Component::LateFilingFee,
        Component::LatePaymentForfeiture,
        Component::EstimatePenalty,
        Component::FraudPenalty,
        Component::RefundReclaimed,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Tax => "tax",
            Component::Interest => "interest",
            Component::LateFilingFee => "late_filing_fee",
            Component::LatePaymentForfeiture => "late_payment_forfeiture",
            Component::EstimatePenalty => "estimate_penalty",
            Component::FraudPenalty => "fraud_penalty",
            Component::RefundReclaimed => "refund_reclaimed",
        }
    }

    /// The component named `text`.
    pub fn parse(text: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A ledger account of one municipality (see the module doc for the names).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Account {
    /// What `payor` owes for `period` on `component` (a receivable).
    Payor {
        /// The payor's id.
        payor_id: String,
        /// The period charged.
        period: Period,
        /// What the charge is for.
        component: Component,
    },
    /// Money of the payor held as credit (an overpayment), not tied to a period.
    PayorCredit {
        /// The payor's id.
        payor_id: String,
    },
    /// The payor's security deposit held by the municipality.
    PayorSecurityDeposit {
        /// The payor's id.
        payor_id: String,
    },
    /// The municipality's cash.
    Cash,
    /// The municipality's revenue from a component.
    Revenue(Component),
    /// What the municipality owes the zone's tourism commission.
    CommissionPayable,
    /// Montello's segregated vehicle registration fee fund.
    VehicleFeeFund,
    /// The municipality's expense of the interest it pays on refunds (Montello
    /// room tax, interest ¶: "All refunded taxes shall bear interest"). An
    /// expense of the municipality's own, never a payor's receivable nor a
    /// reduction of tax revenue: the tax refunded leaves the payor's credit,
    /// the interest is what the municipality pays on top of it.
    RefundInterestExpense,
}

/// Why a text is not an account name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a ledger account name")]
pub struct AccountParseError(pub String);

/// A payor id as account names carry it: non-empty, letters, digits, `-`, `_`.
pub fn valid_payor_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Account {
    /// The receivable of `payor_id` for `period` and `component`.
    pub fn payor(payor_id: &str, period: Period, component: Component) -> Account {
        Account::Payor {
            payor_id: payor_id.to_owned(),
            period,
            component,
        }
    }

    /// Parse a stored name (exactly the names `Display` writes).
    pub fn parse(text: &str) -> Result<Account, AccountParseError> {
        let fail = || AccountParseError(text.to_owned());
        let parts: Vec<&str> = text.split(':').collect();
        let account = match parts.as_slice() {
            ["municipality", "cash"] => Account::Cash,
            ["municipality", "commission_payable"] => Account::CommissionPayable,
            ["municipality", "vehicle_fee_fund"] => Account::VehicleFeeFund,
            ["municipality", "refund_interest_expense"] => Account::RefundInterestExpense,
            ["municipality", "revenue", c] => {
                Account::Revenue(Component::parse(c).ok_or_else(fail)?)
            }
            ["payor", id, "credit"] if valid_payor_id(id) => Account::PayorCredit {
                payor_id: (*id).to_owned(),
            },
            ["payor", id, "security_deposit"] if valid_payor_id(id) => {
                Account::PayorSecurityDeposit {
                    payor_id: (*id).to_owned(),
                }
            }
            ["payor", id, period, c] if valid_payor_id(id) => {
                let period = Period::parse(period).map_err(|_| fail())?;
                Account::Payor {
                    payor_id: (*id).to_owned(),
                    period,
                    component: Component::parse(c).ok_or_else(fail)?,
                }
            }
            _ => return Err(fail()),
        };
        // One spelling per account: a period with another text is refused.
        if !writes_as(&account, text) {
            return Err(fail());
        }
        Ok(account)
    }

    /// The payor this account belongs to, if it is a payor's.
    pub fn payor_id(&self) -> Option<&str> {
        match self {
            Account::Payor { payor_id, .. }
            | Account::PayorCredit { payor_id }
            | Account::PayorSecurityDeposit { payor_id } => Some(payor_id),
            _ => None,
        }
    }

    /// The prefix every account name of `payor_id` starts with (`payor:<id>:`).
    pub fn payor_prefix(payor_id: &str) -> String {
        format!("payor:{payor_id}:")
    }
}

impl fmt::Display for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Account::Payor {
                payor_id,
                period,
                component,
            } => write!(f, "payor:{payor_id}:{period}:{component}"),
            Account::PayorCredit { payor_id } => write!(f, "payor:{payor_id}:credit"),
            Account::PayorSecurityDeposit { payor_id } => {
                write!(f, "payor:{payor_id}:security_deposit")
            }
            Account::Cash => f.write_str("municipality:cash"),
            Account::Revenue(c) => write!(f, "municipality:revenue:{c}"),
            Account::CommissionPayable => f.write_str("municipality:commission_payable"),
            Account::VehicleFeeFund => f.write_str("municipality:vehicle_fee_fund"),
            Account::RefundInterestExpense => f.write_str("municipality:refund_interest_expense"),
        }
    }
}

/// True when `value` displays as exactly `text`, compared as it is written
/// (no `String` is made: every ledger line read is parsed, and checked, once).
fn writes_as(value: &impl fmt::Display, text: &str) -> bool {
    struct Against<'a>(&'a str);
    impl fmt::Write for Against<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
            Ok(())
        }
    }
    let mut rest = Against(text);
    fmt::write(&mut rest, format_args!("{value}")).is_ok() && rest.0.is_empty()
}

impl FromStr for Account {
    type Err = AccountParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Account::parse(s)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    const MOTEL: &str = "5b0c8c1e-0000-4000-8000-000000000001";

    #[test]
    fn names_are_structured() {
        let q1 = Period::parse("2026-Q1").unwrap();
        assert_eq!(
            Account::payor(MOTEL, q1, Component::Tax).to_string(),
            format!("payor:{MOTEL}:2026-Q1:tax")
        );
        assert_eq!(
            Account::Revenue(Component::LateFilingFee).to_string(),
            "municipality:revenue:late_filing_fee"
        );
        for name in [
            format!("payor:{MOTEL}:FY2026-06:late_filing_fee"),
            format!("payor:{MOTEL}:2025:interest"),
            format!("payor:{MOTEL}:credit"),
            format!("payor:{MOTEL}:security_deposit"),
            "municipality:cash".to_owned(),
            "municipality:commission_payable".to_owned(),
            "municipality:vehicle_fee_fund".to_owned(),
            "municipality:refund_interest_expense".to_owned(),
            "municipality:revenue:fraud_penalty".to_owned(),
        ] {
            assert_eq!(Account::parse(&name).unwrap().to_string(), name);
        }
    }

    #[test]
    fn writes_as_compares_the_whole_text_without_a_copy() {
        let account = Account::payor(MOTEL, Period::parse("2026-Q1").unwrap(), Component::Tax);
        let name = account.to_string();
        assert!(writes_as(&account, &name));
        assert!(!writes_as(&account, &name[..name.len() - 1]));
        assert!(!writes_as(&account, &format!("{name}x")));
        assert!(!writes_as(&account, &name.replace("tax", "tay")));
        assert!(!writes_as(&account, ""));
        assert!(writes_as(&Account::Cash, "municipality:cash"));
    }

    #[test]
    fn other_names_are_refused() {
        for bad in [
            "",
            "cash",
            "municipality:revenue",
            "municipality:revenue:beer",
            "payor::2026-Q1:tax",
            "payor:a b:2026-Q1:tax",
            "payor:p:2026-Q5:tax",
            "payor:p:2026-Q1:tip",
            "payor:p:2026-Q1:tax:extra",
            "payor:p:FY2026-12:tax",
            "payor:p:credit:x",
            "MUNICIPALITY:cash",
            "municipality:refund_interest_expense:x",
            "municipality:refund_interest",
        ] {
            assert!(Account::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    fn any_period() -> impl Strategy<Value = Period> {
        prop_oneof![
            (1990..=2200i32, 1..=4u8).prop_map(|(y, q)| Period::quarter(y, q).unwrap()),
            (1990..=2200i32).prop_map(|y| Period::calendar_year(y).unwrap()),
            (1991..=2200i32, 1..=11u32).prop_map(|(y, m)| Period::fiscal_year(y, m).unwrap()),
        ]
    }

    pub(crate) fn any_account() -> impl Strategy<Value = Account> {
        let component = proptest::sample::select(Component::ALL.to_vec());
        let id = "[A-Za-z0-9_-]{1,40}";
        prop_oneof![
            (id, any_period(), component.clone())
                .prop_map(|(p, period, c)| Account::payor(&p, period, c)),
            id.prop_map(|payor_id| Account::PayorCredit { payor_id }),
            id.prop_map(|payor_id| Account::PayorSecurityDeposit { payor_id }),
            Just(Account::Cash),
            component.prop_map(Account::Revenue),
            Just(Account::CommissionPayable),
            Just(Account::VehicleFeeFund),
            Just(Account::RefundInterestExpense),
        ]
    }

    proptest! {
        #[test]
        fn every_account_round_trips_through_its_name(account in any_account()) {
            prop_assert_eq!(Account::parse(&account.to_string()), Ok(account));
        }
    }
}
