//! A payor's statement of account as a PDF document ([`statement_pdf`]).
//!
//! Contract: pure and deterministic, like the notices (`render::pdf`, whose
//! layout, fonts and writer it uses: US Letter, the built-in Helvetica,
//! uncompressed streams so the figures can be searched in the bytes). The
//! document's date is the statement's `as_of`, never the clock. It shows the
//! municipality as sender, the payor's name and address, the date, then the
//! figures the caller gives, as given (the use case takes them from the same
//! statement the page, the CSV and the JSON show): one row per period and
//! component, the interest accrued, each period's total, the totals, the
//! payments received; a footer on every page names the payor, the date and
//! the page.

use chrono::NaiveDate;

use super::pdf::{DocumentInfo, Layout, TEXT_W, write};
use crate::domain::Money;

/// One row of the by-period table.
#[derive(Debug, Clone)]
pub struct StatementLine {
    /// The period ("2026-Q1").
    pub period: String,
    /// Its due date, or "-".
    pub due: String,
    /// The component ("tax", "interest accrued (not posted)", "period balance").
    pub what: String,
    /// Charged.
    pub charged: Money,
    /// Paid.
    pub paid: Money,
    /// Balance.
    pub balance: Money,
    /// A period's total (set in bold).
    pub total: bool,
}

/// One payment received.
#[derive(Debug, Clone)]
pub struct StatementPaymentLine {
    /// When it was received.
    pub received_on: NaiveDate,
    /// How (`check`, `ach`, ...).
    pub method: String,
    /// Its reference.
    pub reference: String,
    /// Its amount.
    pub amount: Money,
    /// When it was reversed, if it was by the statement's date.
    pub reversed_on: Option<NaiveDate>,
}

/// What the document shows.
#[derive(Debug, Clone)]
pub struct StatementDocument {
    /// The sender ("City of Montello").
    pub municipality: String,
    /// The payor's id.
    pub payor_id: String,
    /// The addressee block (name, mailing address).
    pub addressee: Vec<String>,
    /// The statement's date.
    pub as_of: NaiveDate,
    /// The by-period rows.
    pub lines: Vec<StatementLine>,
    /// The totals, label and amount ("Balance", ...).
    pub totals: Vec<(String, Money)>,
    /// The payments received.
    pub payments: Vec<StatementPaymentLine>,
    /// Closing remarks (the security deposit held, ...).
    pub notes: Vec<String>,
}

/// At most `n` characters of `text` (a long reference stays in its column).
fn clip(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().count() > n {
        out.push_str("...");
    }
    out
}

/// The statement `doc` as a PDF document (see the module doc).
pub fn statement_pdf(doc: &StatementDocument) -> Vec<u8> {
    let mut l = Layout::new();
    l.line(&doc.municipality, 16.0, true, 0.0);
    l.line("Office of the Clerk-Treasurer", 10.0, false, 0.0);
    l.gap(4.0);
    l.line(&format!("Payor {}", doc.payor_id), 9.0, false, 0.0);
    l.line(&format!("As of: {}", doc.as_of), 10.0, false, 0.0);
    l.gap(12.0);
    for a in &doc.addressee {
        l.paragraph(a, 10.5, false, 0.0);
    }
    l.gap(16.0);
    l.paragraph("Statement of account", 13.0, true, 0.0);
    l.gap(6.0);
    l.paragraph(
        "What was charged and paid by period and component as of the date above, in US dollars; interest accrued on unpaid tax is computed to that date and not yet posted.",
        10.0,
        false,
        0.0,
    );
    l.gap(8.0);
    let (charged_x, paid_x, balance_x) = (TEXT_W - 128.0, TEXT_W - 64.0, TEXT_W);
    l.cells(
        &[
            ("Period", 0.0, false),
            ("Due", 62.0, false),
            ("Component", 124.0, false),
            ("Charged", charged_x, true),
            ("Paid", paid_x, true),
            ("Balance", balance_x, true),
        ],
        true,
    );
    l.rule();
    for row in &doc.lines {
        let (c, p, b) = (
            row.charged.to_string(),
            row.paid.to_string(),
            row.balance.to_string(),
        );
        l.cells(
            &[
                (row.period.as_str(), 0.0, false),
                (row.due.as_str(), 62.0, false),
                (clip(&row.what, 30).as_str(), 124.0, false),
                (c.as_str(), charged_x, true),
                (p.as_str(), paid_x, true),
                (b.as_str(), balance_x, true),
            ],
            row.total,
        );
    }
    l.rule();
    l.gap(10.0);
    for (label, amount) in &doc.totals {
        let a = amount.to_string();
        l.cells(
            &[(label.as_str(), 0.0, false), (a.as_str(), balance_x, true)],
            label == "Balance",
        );
    }
    l.gap(12.0);
    l.line("Payments received", 10.5, true, 0.0);
    if doc.payments.is_empty() {
        l.line("None by this date.", 9.5, false, 0.0);
    } else {
        l.cells(
            &[
                ("Received", 0.0, false),
                ("Method", 70.0, false),
                ("Reference", 140.0, false),
                ("Amount", 380.0, true),
                ("Reversed", 400.0, false),
            ],
            true,
        );
        l.rule();
        for pay in &doc.payments {
            let (on, amount) = (pay.received_on.to_string(), pay.amount.to_string());
            let reversed = pay
                .reversed_on
                .map_or_else(|| "-".to_owned(), |d| d.to_string());
            l.cells(
                &[
                    (on.as_str(), 0.0, false),
                    (pay.method.as_str(), 70.0, false),
                    (clip(&pay.reference, 28).as_str(), 140.0, false),
                    (amount.as_str(), 380.0, true),
                    (reversed.as_str(), 400.0, false),
                ],
                false,
            );
        }
    }
    for note in &doc.notes {
        l.gap(6.0);
        l.paragraph(note, 9.5, false, 0.0);
    }
    l.footers(|n, total| {
        format!(
            "Statement of account of payor {} as of {} | Page {n} of {total}",
            doc.payor_id, doc.as_of
        )
    });
    let subject = format!("Statement of account as of {}", doc.as_of);
    write(
        &DocumentInfo {
            title: "Statement of account",
            author: &doc.municipality,
            subject: &subject,
            date: doc.as_of,
        },
        l.pages,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(periods: usize) -> StatementDocument {
        let line = |what: &str, cents: i64, total: bool| StatementLine {
            period: "2026-Q1".into(),
            due: "2026-04-30".into(),
            what: what.into(),
            charged: Money::from_cents(cents),
            paid: Money::from_cents(10000),
            balance: Money::from_cents(cents - 10000),
            total,
        };
        let mut lines = Vec::new();
        for _ in 0..periods {
            lines.push(line("tax", 42750, false));
            lines.push(line("period balance", 42750, true));
        }
        StatementDocument {
            municipality: "City of Montello".into(),
            payor_id: "p-1".into(),
            addressee: vec!["Lakeside Motel LLC".into()],
            as_of: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
            lines,
            totals: vec![("Balance".into(), Money::from_cents(32750))],
            payments: vec![StatementPaymentLine {
                received_on: NaiveDate::from_ymd_opt(2026, 5, 1).unwrap(),
                method: "check".into(),
                reference: "1001".into(),
                amount: Money::from_cents(10000),
                reversed_on: None,
            }],
            notes: vec![],
        }
    }

    fn contains(bytes: &[u8], needle: &str) -> bool {
        bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
    }

    #[test]
    fn a_statement_is_a_pdf_with_its_figures_in_plain_streams() {
        let bytes = statement_pdf(&doc(1));
        assert!(bytes.starts_with(b"%PDF-"));
        for text in [
            "(City of Montello)",
            "(Lakeside Motel LLC)",
            "(427.50)",
            "(327.50)",
            "(100.00)",
            "(As of: 2026-12-01)",
            "Page 1 of 1",
        ] {
            assert!(contains(&bytes, text), "{text}");
        }
        assert_eq!(bytes, statement_pdf(&doc(1)));
        assert!(contains(&statement_pdf(&doc(60)), "Page 3 of"));
    }
}
