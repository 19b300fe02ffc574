//! Request and response bodies of payments and the statement of account.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    domain::{Money, Period},
    usecases::ledger::{
        payments::{PaymentMethod, RecordedPayment, RecordedReversal},
        statement::{Statement, StatementPayment, StatementPeriod},
    },
};

/// A payment received, as the clerk-treasurer or staff enter it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentRequest {
    /// The local date the payment was received (not after today, not before the payor's latest payment).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub received_on: NaiveDate,
    /// The amount received, a decimal string more than "0.00".
    pub amount: Money,
    /// How it was paid: `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number, transaction id or receipt number (1 to 100 characters).
    pub reference: String,
}

/// A reversal of a payment that bounced.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReversalRequest {
    /// The local date the payment was returned (default today; not before its receipt, not after today).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub reversed_on: Option<NaiveDate>,
    /// Why, e.g. "returned: insufficient funds" (1 to 200 characters).
    pub reason: String,
}

/// A part of the payment applied to one component of one period.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PaymentAllocation {
    /// The period, e.g. "2026-Q1".
    #[schema(value_type = String)]
    pub period: Period,
    /// `tax`, `interest`, `late_filing_fee`, `late_payment_forfeiture`, `estimate_penalty`, `fraud_penalty` or `refund_reclaimed`.
    pub component: String,
    /// The amount applied.
    pub amount: Money,
}

/// A charge the payment posted because it settled tax (interest, Montello's forfeiture).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PostedCharge {
    /// The period.
    #[schema(value_type = String)]
    pub period: Period,
    /// `interest` or `late_payment_forfeiture`.
    pub component: String,
    /// The amount charged.
    pub amount: Money,
    /// How the engine computed it, with its inputs.
    pub explanation: String,
    /// The ordinance paragraph it comes from.
    pub citation: String,
}

/// A payment recorded, and where it went.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Payment {
    /// The payment's id.
    pub id: String,
    /// The payor.
    pub payor_id: String,
    /// The local date received.
    #[schema(value_type = String, format = Date)]
    pub received_on: NaiveDate,
    /// The amount received.
    pub amount: Money,
    /// `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number, transaction id or receipt number.
    pub reference: String,
    /// The ledger journal the payment posted.
    pub journal_id: String,
    /// Interest and forfeiture posted because the payment settled tax.
    pub charges_posted: Vec<PostedCharge>,
    /// Where the payment went, in the order applied: oldest period first; tax, interest, fees, penalties.
    pub allocations: Vec<PaymentAllocation>,
    /// What this payment left after every charge open on `received_on`, put to the payor's credit (before `credit_applied`).
    pub credit: Money,
    /// The payor's credit applied automatically right after this payment, to charges posted after `received_on` (a payment recorded late); absent when none was.
    pub credit_applied: Option<CreditApplication>,
    /// The payor's credit held after the payment and the automatic application (all of the payor's credit, not only this payment's).
    pub credit_held: Money,
}

/// Credit applied automatically to open charges, as a payment received on the credit's deposit date would be.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreditApplication {
    /// The local date the application was posted.
    #[schema(value_type = String, format = Date)]
    pub applied_on: NaiveDate,
    /// Interest and forfeiture posted because the credit settled tax.
    pub charges_posted: Vec<PostedCharge>,
    /// Where the credit went, in the order applied.
    pub allocations: Vec<PaymentAllocation>,
}

fn posted_charges(charges: Vec<crate::domain::ledger::Posted>) -> Vec<PostedCharge> {
    charges
        .into_iter()
        .map(|c| PostedCharge {
            period: c.period,
            component: c.component.as_str().to_owned(),
            amount: c.line.amount,
            explanation: c.line.explanation,
            citation: c.line.citation.into(),
        })
        .collect()
}

fn allocations(list: Vec<crate::domain::ledger::Applied>) -> Vec<PaymentAllocation> {
    list.into_iter()
        .map(|a| PaymentAllocation {
            period: a.period,
            component: a.component.as_str().to_owned(),
            amount: a.amount,
        })
        .collect()
}

impl From<RecordedPayment> for Payment {
    fn from(p: RecordedPayment) -> Self {
        Payment {
            id: p.row.id,
            payor_id: p.row.payor_id,
            received_on: p.row.received_on,
            amount: Money::from_cents(p.row.amount_cents),
            method: method_of(&p.row.method),
            reference: p.row.reference,
            journal_id: p.journal_id,
            charges_posted: posted_charges(p.posting.charges),
            allocations: allocations(p.posting.allocations),
            credit_applied: p.auto_applied.map(|a| CreditApplication {
                applied_on: p.applied_on,
                charges_posted: posted_charges(a.charges),
                allocations: allocations(a.allocations),
            }),
            credit_held: p.credit_held,
            credit: p.posting.credit,
        }
    }
}

pub(super) fn method_of(text: &str) -> PaymentMethod {
    match text {
        "ach" => PaymentMethod::Ach,
        "card" => PaymentMethod::Card,
        "cash" => PaymentMethod::Cash,
        _ => PaymentMethod::Check,
    }
}

/// An amount of one period (interest withdrawn, a refund owed back).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PeriodAmount {
    /// The period, e.g. "2026-Q1".
    #[schema(value_type = String)]
    pub period: Period,
    /// The amount.
    pub amount: Money,
}

/// A payment reversed: the whole payment taken back, and where its credit came back from.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PaymentReversal {
    /// The payment reversed.
    pub payment_id: String,
    /// Its amount, no longer received.
    pub amount: Money,
    /// The reversing journal.
    pub journal_id: String,
    /// The local date of the reversal.
    #[schema(value_type = String, format = Date)]
    pub reversed_on: NaiveDate,
    /// Why.
    pub reason: String,
    /// What the payment had left over as the payor's credit.
    pub overpayment: Money,
    /// The part of it still held, taken out of the payor's credit.
    pub credit_withdrawn: Money,
    /// The charges that credit had paid since (credit applications, latest first), owed again.
    pub reopened: Vec<PaymentAllocation>,
    /// Interest those applications had posted on the tax now reopened, withdrawn (it accrues again until the tax is paid).
    pub interest_withdrawn: Vec<PeriodAmount>,
    /// Credit refunded since that the payor owes back (`refund_reclaimed`, in the refund's period).
    pub refund_reclaimed: Vec<PeriodAmount>,
}

fn period_amounts(list: Vec<(Period, Money)>) -> Vec<PeriodAmount> {
    list.into_iter()
        .map(|(period, amount)| PeriodAmount { period, amount })
        .collect()
}

impl From<RecordedReversal> for PaymentReversal {
    fn from(r: RecordedReversal) -> Self {
        let p = r.posting;
        PaymentReversal {
            payment_id: r.payment.id,
            amount: Money::from_cents(r.payment.amount_cents),
            journal_id: r.journal_id,
            reversed_on: r.reversed_on,
            reason: r.reason,
            overpayment: p.overpayment,
            credit_withdrawn: p.credit_withdrawn,
            reopened: allocations(p.reopened),
            interest_withdrawn: period_amounts(p.interest_withdrawn),
            refund_reclaimed: period_amounts(p.refund_reclaimed),
        }
    }
}

/// One component of a period on the statement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountComponent {
    /// `tax`, `interest` (posted when a payment settled tax), `late_filing_fee`, `late_payment_forfeiture`, `estimate_penalty`, `fraud_penalty`, `refund_reclaimed` (credit refunded out of a payment later reversed, owed back; caused by that reversal)
    pub component: String,
    /// Charged by the statement's date (net of amendments and reversals).
    pub charged: Money,
    /// Paid by the statement's date (net of reversals).
    pub paid: Money,
    /// Charged less paid.
    pub balance: Money,
}

/// One period of the statement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountPeriod {
    /// The period.
    #[schema(value_type = String)]
    pub period: Period,
    /// The due date of its return (interest runs from it); absent without a return.
    #[schema(value_type = Option<String>, format = Date)]
    pub due_date: Option<NaiveDate>,
    /// Every component with postings.
    pub components: Vec<AccountComponent>,
    /// Charged over the components.
    pub charged: Money,
    /// Paid over the components.
    pub paid: Money,
    /// Interest accrued to the statement's date on the tax still unpaid (computed, not posted).
    pub interest_accrued: Money,
    /// How the accrued interest was computed; absent when no tax is unpaid.
    pub interest_explanation: Option<String>,
    /// Charged less paid plus the accrued interest.
    pub balance: Money,
    /// The determinations of the period made by the statement's date (their charges are in `components`).
    pub determinations: Vec<AccountDetermination>,
}

/// A determination on the statement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountDetermination {
    /// The determination's id.
    pub id: String,
    /// `office_audit`, `field_audit`, `non_filer_estimate` or `fraud`.
    pub kind: crate::domain::determination::DeterminationKind,
    /// The local date it was made.
    #[schema(value_type = String, format = Date)]
    pub determined_on: NaiveDate,
    /// The tax it charged (an audit: the difference from what was assessed).
    pub tax: Money,
    /// The estimate penalty it charged.
    pub estimate_penalty: Money,
    /// The fraud penalty it charged.
    pub fraud_penalty: Money,
}

/// A payment on the statement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountPayment {
    /// The payment's id.
    pub id: String,
    /// The local date received.
    #[schema(value_type = String, format = Date)]
    pub received_on: NaiveDate,
    /// The amount.
    pub amount: Money,
    /// `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number, transaction id or receipt number.
    pub reference: String,
    /// The date it was reversed, when reversed by the statement's date.
    #[schema(value_type = Option<String>, format = Date)]
    pub reversed_on: Option<NaiveDate>,
}

/// The statement's totals.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountTotals {
    /// Charged over every period.
    pub charged: Money,
    /// Paid over every period.
    pub paid: Money,
    /// Interest accrued over every period (computed, not posted).
    pub interest_accrued: Money,
    /// Credit held for the payor (overpayments).
    pub credit: Money,
    /// What the payor owes as of the date: the periods' balances less the credit (negative: in credit).
    pub balance: Money,
}

/// A payor's statement of account as of a date.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Account {
    /// The payor.
    pub payor_id: String,
    /// The statement's date: only what was posted and received by then counts.
    #[schema(value_type = String, format = Date)]
    pub as_of: NaiveDate,
    /// Every period with charges, oldest first.
    pub periods: Vec<AccountPeriod>,
    /// Payments received by the date, oldest first.
    pub payments: Vec<AccountPayment>,
    /// Refunds of credit paid out by the date, oldest first.
    pub refunds: Vec<super::refunds::AccountRefund>,
    /// The security deposit held on the date (received less applied and
    /// returned); not deducted from the balance.
    pub security_deposit: Money,
    /// Totals.
    pub totals: AccountTotals,
}

fn period_of(p: &StatementPeriod) -> AccountPeriod {
    AccountPeriod {
        period: p.period,
        due_date: p.due_date,
        components: p
            .components
            .iter()
            .map(|(c, b)| AccountComponent {
                component: c.as_str().to_owned(),
                charged: b.charged,
                paid: b.paid,
                balance: b.balance(),
            })
            .collect(),
        charged: p.charged(),
        paid: p.paid(),
        interest_accrued: p.accrued(),
        interest_explanation: p.interest_accrued.as_ref().map(|l| l.explanation.clone()),
        balance: p.balance(),
        determinations: p
            .determinations
            .iter()
            .map(|d| AccountDetermination {
                id: d.row.id.clone(),
                kind: d.kind,
                determined_on: d.row.determined_on,
                tax: Money::from_cents(d.row.tax_charged_cents),
                estimate_penalty: Money::from_cents(d.row.estimate_penalty_cents),
                fraud_penalty: Money::from_cents(d.row.fraud_penalty_cents),
            })
            .collect(),
    }
}

fn payment_of(p: &StatementPayment) -> AccountPayment {
    AccountPayment {
        id: p.row.id.clone(),
        received_on: p.row.received_on,
        amount: Money::from_cents(p.row.amount_cents),
        method: method_of(&p.row.method),
        reference: p.row.reference.clone(),
        reversed_on: p.reversed_on,
    }
}

impl From<&Statement> for Account {
    fn from(s: &Statement) -> Self {
        let periods: Vec<AccountPeriod> = s.periods.iter().map(period_of).collect();
        Account {
            payor_id: s.payor_id.clone(),
            as_of: s.as_of,
            totals: AccountTotals {
                charged: periods.iter().map(|p| p.charged).sum(),
                paid: periods.iter().map(|p| p.paid).sum(),
                interest_accrued: periods.iter().map(|p| p.interest_accrued).sum(),
                credit: s.credit,
                balance: s.balance(),
            },
            periods,
            payments: s.payments.iter().map(payment_of).collect(),
            security_deposit: s.security_deposit,
            refunds: s
                .refunds
                .iter()
                .map(super::refunds::AccountRefund::from)
                .collect(),
        }
    }
}

/// The statement as CSV: one row per period, then one `refund` row per
/// refund (its date in `due_date`, the credit refunded in `paid`, its refund
/// interest in `interest_accrued`), then `credit`, `security_deposit` (held,
/// not deducted) and `total` (every field is a period, a date or an amount:
/// nothing needs quoting).
pub fn account_csv(a: &Account) -> String {
    let mut out = String::from("period,due_date,charged,paid,interest_accrued,balance\r\n");
    for p in &a.periods {
        out.push_str(&format!(
            "{},{},{},{},{},{}\r\n",
            p.period,
            p.due_date.map(|d| d.to_string()).unwrap_or_default(),
            p.charged,
            p.paid,
            p.interest_accrued,
            p.balance
        ));
    }
    for r in &a.refunds {
        out.push_str(&format!(
            "refund,{},,{},{},\r\n",
            r.refunded_on, r.amount, r.interest
        ));
    }
    let t = &a.totals;
    let held = if t.credit.is_zero() {
        t.credit
    } else {
        -t.credit
    };
    out.push_str(&format!("credit,,,,,{held}\r\n"));
    out.push_str(&format!("security_deposit,,,,,{}\r\n", a.security_deposit));
    out.push_str(&format!(
        "total,,{},{},{},{}\r\n",
        t.charged, t.paid, t.interest_accrued, t.balance
    ));
    out
}
