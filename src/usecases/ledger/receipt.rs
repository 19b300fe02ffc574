//! One payment read back with where it went: the receipt the web portal
//! shows after a payment is recorded (issue 11 item 4).
//!
//! Contract:
//! - readable by whoever may see the payor's account
//!   (`MunicipalityContext::account_reader`: the clerk-treasurer, staff and
//!   the payor's own operator); anyone else 404, as is a payment that is not
//!   this payor's; the read is written to the access log (`payment`, its id);
//! - the allocation is read from the ledger, never recomputed: the lines of
//!   the payment's own journal (kind `payment`) and of the credit applied
//!   automatically right after it (kind `credit_applied`, caused by the
//!   payment) on the payor's period accounts; a credit (negative line) is an
//!   amount paid, a debit an interest or forfeiture charge the payment
//!   posted because it settled tax; the line on the payor's credit account is
//!   what the payment left as credit;
//! - a reversal (kind `payment_reversed`) is reported by its date.

use chrono::NaiveDate;

use crate::{
    db::{self, DbConn, payments::PaymentRow},
    domain::{
        Money, Period,
        ledger::{Account, Component, JournalKind},
    },
    error::ApiError,
    tenancy::MunicipalityContext,
    usecases::payors::Actor,
};

/// One line of the allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocated {
    /// The period.
    pub period: Period,
    /// The component.
    pub component: Component,
    /// Paid (credited to the payor's account).
    pub amount: Money,
    /// Whether it came from the credit applied after the payment.
    pub from_credit: bool,
}

/// A payment and where it went.
#[derive(Debug, Clone)]
pub struct Receipt {
    /// The stored payment.
    pub row: PaymentRow,
    /// What it paid, in the journal's order.
    pub allocations: Vec<Allocated>,
    /// Charges it posted because it settled tax (interest, forfeiture).
    pub charges: Vec<(Period, Component, Money)>,
    /// What it left as the payor's credit (before the automatic application).
    pub credit: Money,
    /// The date it was reversed, if it was.
    pub reversed_on: Option<NaiveDate>,
}

/// The payor's payment `payment_id` with its allocation (see the module doc).
pub fn receipt(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    payment_id: &str,
) -> Result<Receipt, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let municipality_id = ctx.municipality_id;
    let row = db::payments::get(conn, municipality_id, payor_id, payment_id)?
        .ok_or(ApiError::NotFound("payment"))?;
    let mut out = Receipt {
        row,
        allocations: Vec::new(),
        charges: Vec::new(),
        credit: Money::ZERO,
        reversed_on: None,
    };
    for journal in db::ledger::of_cause(conn, municipality_id, "payment", payment_id)? {
        let kind = JournalKind::parse(&journal.kind)
            .ok_or_else(|| ApiError::internal("stored journal has an unknown kind"))?;
        let from_credit = match kind {
            JournalKind::Payment => false,
            JournalKind::CreditApplied => true,
            JournalKind::PaymentReversed => {
                out.reversed_on = Some(journal.posted_on);
                continue;
            }
            _ => continue,
        };
        for line in db::ledger::lines_of(conn, municipality_id, &journal.id)? {
            let account = Account::parse(&line.account)
                .map_err(|e| ApiError::internal(format!("stored ledger line: {e}")))?;
            let amount = Money::from_cents(line.amount_cents);
            match account {
                Account::Payor {
                    payor_id: p,
                    period,
                    component,
                } if p == payor_id => {
                    if amount.is_negative() {
                        out.allocations.push(Allocated {
                            period,
                            component,
                            amount: -amount,
                            from_credit,
                        });
                    } else if !from_credit {
                        out.charges.push((period, component, amount));
                    }
                }
                Account::PayorCredit { payor_id: p } if p == payor_id && !from_credit => {
                    out.credit += -amount;
                }
                _ => {}
            }
        }
    }
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        municipality_id,
        &actor.reader(&basis),
        "payment",
        payment_id,
    )?;
    Ok(out)
}
