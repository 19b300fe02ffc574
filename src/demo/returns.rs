//! The demo's returns: the calendar year 2025 of every demo payor, so the
//! clerk's views and the README's examples show something real.
//!
//! - Lakeside Motel (Montello, its operator online): Q1 on time; Q2 filed
//!   four days late (fee and a month of interest); Q3 amended up a month
//!   later; Q4 on time; the annual return 2025, whose Q4 figure differs, so
//!   the reconciliation adjusts that quarter.
//! - Buffalo Lake Campground (Montello, paper returns entered by staff with
//!   their postmark dates): Q1 to Q3; **Q4 missing**.
//! - Northwoods Lodge (Hayward, its operator online): all four quarters on
//!   time, each with the state sales-tax return Hayward requires, except
//!   **Q4, incomplete** (no copy attached).
//!
//! Contract: filed through the returns use cases (`record_filing`,
//! `record_amendment`, `record_attachment`), as the demo users; a period already on file is left
//! alone, so loading twice changes nothing.

use chrono::NaiveDate;
use serde_json::json;

use super::{DemoReport, HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID, date};
use crate::{
    db::{self, DbConn},
    domain::{
        attachment::{Attachment, AttachmentKind},
        returns::ReturnFiling,
    },
    error::ApiError,
    tenancy::{DbScope, EnteredAs, Tenant},
    usecases::{
        payors::Precondition,
        returns::{
            attachments::record_attachment,
            filing::{Filer, record_amendment, record_filing},
        },
    },
};

/// A one-page PDF standing in for a scanned state sales-tax return.
const SALES_TAX_RETURN_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

/// One demo filing: period, gross, federal exemption, filed (or received) on
/// as (year, month, day), and what follows it.
struct Filed {
    period: &'static str,
    gross: &'static str,
    exempt: &'static str,
    on: (i32, u32, u32),
    then: Then,
}

/// What the demo does after a filing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Nothing.
    Nothing,
    /// Amend it to this gross on this day.
    AmendTo(&'static str, (i32, u32, u32)),
    /// Attach the state sales-tax return (Hayward).
    AttachSalesTaxReturn,
}

const fn f(
    period: &'static str,
    gross: &'static str,
    exempt: &'static str,
    on: (i32, u32, u32),
    then: Then,
) -> Filed {
    Filed {
        period,
        gross,
        exempt,
        on,
        then,
    }
}

/// An annual return: the receipts it states by quarter (gross, exempt), and
/// the day it is filed.
struct Annual {
    quarters: [(&'static str, &'static str); 4],
    on: (i32, u32, u32),
}

/// One demo payor's year: where, as whom, what.
struct Year {
    municipality: &'static str,
    payor: &'static str,
    filer: &'static str,
    entered_as: EnteredAs,
    returns: &'static [Filed],
    /// An annual return's receipts by quarter (gross, exempt), filed on a day.
    annual: Option<Annual>,
}

use Then::{AmendTo, AttachSalesTaxReturn, Nothing};

const YEARS: [Year; 3] = [
    Year {
        municipality: "montello",
        payor: MONTELLO_MOTEL_ID,
        filer: "operator@montello.demo",
        entered_as: EnteredAs::Operator,
        returns: &[
            f("2025-Q1", "18400.00", "400.00", (2025, 4, 28), Nothing),
            // Four days late: the fee and a month of interest.
            f("2025-Q2", "31250.00", "0.00", (2025, 8, 4), Nothing),
            f(
                "2025-Q3",
                "35000.00",
                "0.00",
                (2025, 10, 30),
                AmendTo("36000.00", (2025, 11, 20)),
            ),
            f("2025-Q4", "12000.00", "0.00", (2026, 1, 29), Nothing),
        ],
        // Q3 as amended, and 100.00 more in Q4 than its return said.
        annual: Some(Annual {
            quarters: [
                ("18400.00", "400.00"),
                ("31250.00", "0.00"),
                ("36000.00", "0.00"),
                ("12100.00", "0.00"),
            ],
            on: (2026, 3, 20),
        }),
    },
    Year {
        municipality: "montello",
        payor: MONTELLO_CAMPGROUND_ID,
        filer: "staff@montello.demo",
        entered_as: EnteredAs::Staff,
        // Paper returns by their postmark dates; no Q4.
        returns: &[
            f("2025-Q1", "5000.00", "0.00", (2025, 4, 30), Nothing),
            f("2025-Q2", "22000.00", "0.00", (2025, 7, 29), Nothing),
            f("2025-Q3", "19500.00", "0.00", (2025, 10, 31), Nothing),
        ],
        annual: None,
    },
    Year {
        municipality: "hayward",
        payor: HAYWARD_LODGE_ID,
        filer: "operator@hayward.demo",
        entered_as: EnteredAs::Operator,
        // Q4 without the state sales-tax return: incomplete.
        returns: &[
            f(
                "2025-Q1",
                "40000.00",
                "0.00",
                (2025, 4, 25),
                AttachSalesTaxReturn,
            ),
            f(
                "2025-Q2",
                "52000.00",
                "0.00",
                (2025, 7, 30),
                AttachSalesTaxReturn,
            ),
            f(
                "2025-Q3",
                "61000.00",
                "0.00",
                (2025, 10, 29),
                AttachSalesTaxReturn,
            ),
            f("2025-Q4", "38000.00", "0.00", (2026, 1, 28), Nothing),
        ],
        annual: None,
    },
];

fn day((y, m, d): (i32, u32, u32)) -> NaiveDate {
    date(y, m, d)
}

fn body(
    period: &str,
    (gross, exempt): (&str, &str),
    received_on: Option<NaiveDate>,
    quarters: Option<serde_json::Value>,
) -> Result<ReturnFiling, ApiError> {
    let mut value = json!({
        "period": period,
        "gross_receipts": gross,
        "exemptions": if exempt == "0.00" { json!([]) } else {
            json!([{"code": "federal_government", "amount": exempt}])
        },
        "signer": {"name": "Demo Signer", "title": "Owner"},
        "attested": true
    });
    if let Some(on) = received_on {
        value["received_on"] = json!(on.to_string());
    }
    if let Some(q) = quarters {
        value["quarters"] = q;
    }
    serde_json::from_value(value).map_err(|e| ApiError::internal(format!("demo filing: {e}")))
}

/// File one return unless its period is on file; the return's id when filed now.
fn file_once(
    conn: &mut DbConn,
    report: &mut DemoReport,
    filer: &Filer,
    payor: &str,
    (period, figures): (&str, (&str, &str)),
    on: NaiveDate,
    quarters: Option<serde_json::Value>,
) -> Result<Option<String>, ApiError> {
    if db::returns::of_payor_period(conn, filer.municipality_id, payor, period)?.is_some() {
        return Ok(None);
    }
    // A paper return is entered after it arrives (dated by its postmark); online,
    // "today" is the filing day.
    let (received_on, today) = match filer.entered_as {
        EnteredAs::Staff => (Some(on), on + chrono::Days::new(3)),
        EnteredAs::Operator => (None, on),
    };
    let record = record_filing(
        conn,
        filer,
        payor,
        body(period, figures, received_on, quarters)?,
        today,
    )?;
    report.created.push(format!("return {period} {payor}"));
    Ok(Some(record.header.id))
}

/// Create the demo returns that are missing (see the module doc).
pub(super) fn ensure(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
    hayward: i64,
) -> Result<(), ApiError> {
    for year in &YEARS {
        let municipality_id = if year.municipality == "montello" {
            montello
        } else {
            hayward
        };
        db::rls::apply(
            conn,
            &DbScope::tenant(Tenant::Municipality(municipality_id)),
        )?;
        let Some(user) = db::identity::user_by_email(conn, year.filer)? else {
            continue;
        };
        let filer = Filer {
            municipality_id,
            slug: year.municipality.to_owned(),
            entered_by: format!("user:{}", user.id),
            entered_as: year.entered_as,
        };
        for r in year.returns {
            let on = day(r.on);
            let Some(id) = file_once(
                conn,
                report,
                &filer,
                year.payor,
                (r.period, (r.gross, r.exempt)),
                on,
                None,
            )?
            else {
                continue;
            };
            match r.then {
                Nothing => {}
                AmendTo(gross, when) => {
                    let amended = body(r.period, (gross, r.exempt), None, None)?;
                    let precondition = Precondition::OneOf(vec![1]);
                    record_amendment(
                        conn,
                        &filer,
                        year.payor,
                        &id,
                        precondition,
                        amended,
                        day(when),
                    )?;
                }
                AttachSalesTaxReturn => attach_sales_tax_return(conn, &filer, year.payor, &id, on)?,
            }
        }
        if let Some(Annual { quarters, on }) = &year.annual {
            let stated: Vec<serde_json::Value> = quarters
                .iter()
                .enumerate()
                .map(|(i, (gross, exempt))| {
                    json!({"period": format!("2025-Q{}", i + 1), "gross_receipts": gross, "exempt_receipts": exempt})
                })
                .collect();
            let gross = sum(quarters.iter().map(|q| q.0))?;
            let exempt = sum(quarters.iter().map(|q| q.1))?;
            file_once(
                conn,
                report,
                &filer,
                year.payor,
                ("2025", (&gross, &exempt)),
                day(*on),
                Some(json!(stated)),
            )?;
        }
    }
    Ok(())
}

/// The sum of decimal amounts, as text.
fn sum<'a>(amounts: impl Iterator<Item = &'a str>) -> Result<String, ApiError> {
    let mut total = crate::domain::Money::ZERO;
    for a in amounts {
        total += crate::domain::Money::parse(a)
            .map_err(|e| ApiError::internal(format!("demo amount: {e:?}")))?;
    }
    Ok(total.to_string())
}

/// Attach the stand-in state sales-tax return to a Hayward return.
fn attach_sales_tax_return(
    conn: &mut DbConn,
    filer: &Filer,
    payor: &str,
    return_id: &str,
    on: NaiveDate,
) -> Result<(), ApiError> {
    let checked = Attachment::accept(
        AttachmentKind::StateSalesTaxReturn,
        "application/pdf",
        SALES_TAX_RETURN_PDF,
    )
    .map_err(|e| ApiError::internal(format!("demo attachment: {e:?}")))?;
    let at = on.and_hms_opt(12, 0, 0).expect("noon");
    record_attachment(
        conn,
        filer,
        payor,
        return_id,
        &checked,
        SALES_TAX_RETURN_PDF,
        at,
    )?;
    Ok(())
}
