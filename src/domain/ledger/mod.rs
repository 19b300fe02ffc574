//! The ledger's rules: accounts, balanced journals, and what a return version posts.
//!
//! Contract: pure (no I/O). Double-entry in integer cents, debit positive and
//! credit negative: a payor's receivable accounts (what it owes, per period and
//! component) carry positive balances, the municipality's revenue accounts
//! negative ones, and every [`Journal`] sums to zero and has at least one line
//! (its constructor refuses anything else, so an unbalanced journal cannot be
//! built, let alone stored). Journals are never changed: a correction is a
//! reversing journal. Balances are sums of lines as of a date (the use case
//! sums; the domain only names the accounts).
//!
//! Map:
//! - [`account`]: [`Account`] and [`Component`], parsed from and formatted to
//!   their stored names (`payor:<payor>:<period>:<component>`, ...);
//! - [`journal`]: [`Journal`], [`JournalLine`], [`JournalKind`], [`Cause`];
//! - [`returns`]: the journal a return version posts ([`return_version_journal`]):
//!   tax principal and late filing fee for an original filing, the tax principal
//!   difference for an amendment or an annual return's adjustment. Interest and
//!   the late-payment forfeiture are not posted ahead of time (DESIGN §5:
//!   interest is computed as of a date and posted when a payment settles it;
//!   the forfeiture is posted when the late payment arrives);
//! - [`book`]: a payor's accounts read back from posted lines ([`PayorBook`]:
//!   charged, paid and owed per period and component, and the credit held);
//! - [`payments`]: the journal a payment posts ([`payment_journal`]: the
//!   policy's payment order, interest on the tax it settles, Montello's
//!   forfeiture when late, an overpayment to credit) and its reversal;
//! - [`credit`]: credit applied when a new charge is posted
//!   ([`credit_journal`]: tax overpaid moved back to credit, then the credit
//!   applied like a payment);
//! - [`reversal`]: the journal a payment's reversal posts
//!   ([`reversal_posting`]: the whole payment taken back; its credit from
//!   what is still held, then the later credit applications reopened, then
//!   the refunds made a receivable, never a negative credit);
//! - [`refunds`]: the journal a refund of credit posts ([`refund_journal`]:
//!   Montello's refund interest and its exclusions, an expense of the
//!   municipality).
//! - [`replay`]: a stored payment journal computed again from the journals
//!   written before it ([`replay_payment`]), for `roomtax check`;
//! - [`security`]: a security deposit's state and the journals it posts
//!   (received, applied to unpaid tax after notice, returned).

pub mod account;
pub mod book;
pub mod credit;
pub mod journal;
pub mod payments;
pub mod refunds;
pub mod replay;
pub mod returns;
pub mod reversal;
pub mod security;

pub use account::{Account, Component};
pub use book::{ComponentBook, PayorBook, PostedLine, deposit_held, posted_by};
pub use credit::{CreditPosting, credit_journal, credit_journal_dated, credit_lots};
pub use journal::{Cause, Journal, JournalKind, JournalLine, LedgerError};
pub use payments::reversal_keeps;
pub use payments::{
    Applied, PaymentIn, PaymentPosting, PeriodTerms, Posted, payment_journal,
    payment_journal_after, reversal_journal,
};
pub use refunds::{RefundIn, RefundPosting, RefundTerms, refund_journal};
pub use replay::{ReplayMismatch, ReplayState, replay_payment, state_before};
pub use returns::{PostedVersion, VersionSource, return_version_journal};
pub use reversal::{
    CreditUse, ReversalError, ReversalIn, ReversalPosting, reversal_posting, reversal_rest_is_sound,
};
