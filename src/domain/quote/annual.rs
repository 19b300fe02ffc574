//! The quote of an annual return: only what its reconciliation would owe.
//!
//! Contract: the annual return "shall summarize the quarterly returns, reconcile and
//! adjust for errors in the quarterly returns" (Montello room tax, administration ¶;
//! Hayward room tax, returns ¶B). The year's tax was owed, with its interest and
//! forfeitures, on each quarter's return, so an annual return never owes it a second
//! time (DESIGN §3 "Annual return"). A quote sees no quarterly return on file, so it
//! assumes they state the receipts given and its reconciliation owes nothing:
//! - `tax`, `interest`, `collection_fee`, `late_payment_forfeiture` and the
//!   distribution are 0.00 (what the annual return itself imposes);
//! - line `annual_summary` states the year's tax on the receipts given (information,
//!   not owed), line `reconciliation` says why nothing more is owed and where the
//!   differences go (`domain::returns::annual` computes them against the returns on
//!   file: each is an adjustment of its quarter, interest from that quarter's due date);
//! - the annual return is a return: filed after its (extended) filing due date it owes
//!   the late filing fee (Montello room tax, late filing fee ¶; Hayward room tax, late
//!   filing fee), so `total_due` is that fee or 0.00.

use crate::domain::compute::{Distribution, late_filing_fee};
use crate::domain::explain::{DateLine, Line};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

use super::{Quote, QuoteInput};

/// The quote of an annual `input` whose year's tax is `year_tax` (the `tax` line of the
/// receipts given), due on `due`, to be filed by `filing_due`.
pub(super) fn annual_quote(
    policy: &Policy,
    input: &QuoteInput,
    year_tax: Line,
    due: DateLine,
    filing_due: DateLine,
) -> Quote {
    let period = input.period;
    let annual = &policy.annual_return.citation;
    let summary = Line {
        code: "annual_summary".into(),
        explanation: format!(
            "the annual return for {period} summarises the quarterly returns: {}; that tax was due with each quarter's return and is not owed again",
            year_tax.explanation
        ),
        citation: year_tax.citation.joined(&format!("; {annual}")),
        ..year_tax
    };
    let reconciliation = Line::new(
        "reconciliation",
        Money::ZERO,
        "the annual return owes only the differences it reveals against the quarterly returns on file, each an adjustment of its quarter with interest from that quarter's due date; a quote sees no return on file, so it assumes they agree and owes nothing",
        format!(
            "{annual}; the annual return shall \"reconcile and adjust for errors in the quarterly returns\" (roomtax DESIGN §3: each difference is an adjustment of its quarter)"
        ),
    )
    .input("period", period);
    let fee = late_filing_fee(policy, filing_due.date, input.filed_on);
    let total_due = fee.amount;
    let total = Line::new(
        "total_due",
        total_due,
        format!(
            "reconciliation {} + late filing fee {} = {total_due}",
            reconciliation.amount, fee.amount
        ),
        format!(
            "{}: the amounts above, each with its own citation",
            policy.title
        ),
    )
    .input("policy_effective_from", policy.effective_from);
    Quote {
        period,
        tax: Money::ZERO,
        due_date: due.date,
        filing_due_date: filing_due.date,
        interest: Money::ZERO,
        late_filing_fee: fee.amount,
        late_payment_forfeiture: Money::ZERO,
        collection_fee: Money::ZERO,
        total_due,
        distribution: Distribution {
            commission: Money::ZERO,
            municipality: Money::ZERO,
        },
        policy_version: policy.effective_from,
        lines: vec![summary, reconciliation, fee, total],
        dates: vec![due, filing_due],
    }
}
