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
//! `record_amendment`), as the demo users; a period already on file is left
//! alone, so loading twice changes nothing.

use chrono::NaiveDate;
use serde_json::json;

use super::{DemoReport, HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID, date};
use crate::{
    db::{self, DbConn, returns::rows::NewAttachment},
    domain::{
        attachment::{Attachment, AttachmentKind},
        returns::ReturnFiling,
    },
    error::ApiError,
    tenancy::{DbScope, EnteredAs},
    usecases::{
        payors::Precondition,
        returns::filing::{Filer, record_amendment, record_filing},
    },
};

/// A one-page PDF standing in for a scanned state sales-tax return.
const SALES_TAX_RETURN_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

/// One demo filing: period, gross, federal exemption, filed (or received) on.
struct Filed {
    period: &'static str,
    gross: &'static str,
    exempt: &'static str,
    on: NaiveDate,
}

fn body(
    f: &Filed,
    paper: bool,
    quarters: Option<serde_json::Value>,
) -> Result<ReturnFiling, ApiError> {
    let mut value = json!({
        "period": f.period,
        "gross_receipts": f.gross,
        "exemptions": if f.exempt == "0.00" { json!([]) } else {
            json!([{"code": "federal_government", "amount": f.exempt}])
        },
        "signer": {"name": "Demo Signer", "title": if paper { "Owner (paper return)" } else { "Owner" }},
        "attested": true
    });
    if paper {
        value["received_on"] = json!(f.on.to_string());
    }
    if let Some(q) = quarters {
        value["quarters"] = q;
    }
    serde_json::from_value(value).map_err(|e| ApiError::internal(format!("demo filing: {e}")))
}

fn filer(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    email: &str,
    entered_as: EnteredAs,
) -> Result<Option<Filer>, ApiError> {
    let Some(user) = db::identity::user_by_email(conn, email)? else {
        return Ok(None);
    };
    Ok(Some(Filer {
        municipality_id,
        slug: slug.to_owned(),
        entered_by: format!("user:{}", user.id),
        entered_as,
    }))
}

/// File `f` for `payor` unless its period is on file; the return's id.
fn file_once(
    conn: &mut DbConn,
    report: &mut DemoReport,
    filer: &Filer,
    payor: &str,
    f: &Filed,
    quarters: Option<serde_json::Value>,
) -> Result<Option<String>, ApiError> {
    if db::returns::of_payor_period(conn, filer.municipality_id, payor, f.period)?.is_some() {
        return Ok(None);
    }
    let paper = filer.entered_as == EnteredAs::Staff;
    // A paper return is entered after it arrives; online, "today" is the filing day.
    let today = if paper {
        f.on + chrono::Days::new(3)
    } else {
        f.on
    };
    let record = record_filing(conn, filer, payor, body(f, paper, quarters)?, today)?;
    report
        .created
        .push(format!("return {} {}", f.period, payor));
    Ok(Some(record.header.id))
}

fn q(period: &'static str, gross: &'static str, exempt: &'static str, on: NaiveDate) -> Filed {
    Filed {
        period,
        gross,
        exempt,
        on,
    }
}

/// Create the demo returns that are missing (see the module doc).
pub(super) fn ensure(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
    hayward: i64,
) -> Result<(), ApiError> {
    db::rls::apply(
        conn,
        &DbScope {
            municipality_id: Some(montello),
            ..DbScope::default()
        },
    )?;
    if let Some(operator) = filer(
        conn,
        montello,
        "montello",
        "operator@montello.demo",
        EnteredAs::Operator,
    )? {
        let motel = MONTELLO_MOTEL_ID;
        file_once(
            conn,
            report,
            &operator,
            motel,
            &q("2025-Q1", "18400.00", "400.00", date(2025, 4, 28)),
            None,
        )?;
        file_once(
            conn,
            report,
            &operator,
            motel,
            &q("2025-Q2", "31250.00", "0.00", date(2025, 8, 4)),
            None,
        )?;
        if let Some(id) = file_once(
            conn,
            report,
            &operator,
            motel,
            &q("2025-Q3", "35000.00", "0.00", date(2025, 10, 30)),
            None,
        )? {
            let amended = q("2025-Q3", "36000.00", "0.00", date(2025, 11, 20));
            record_amendment(
                conn,
                &operator,
                motel,
                &id,
                Precondition::OneOf(vec![1]),
                body(&amended, false, None)?,
                amended.on,
            )?;
        }
        file_once(
            conn,
            report,
            &operator,
            motel,
            &q("2025-Q4", "12000.00", "0.00", date(2026, 1, 29)),
            None,
        )?;
        // The annual return states Q3 as amended and finds 100.00 more in Q4.
        let quarters = json!([
            {"period": "2025-Q1", "gross_receipts": "18400.00", "exempt_receipts": "400.00"},
            {"period": "2025-Q2", "gross_receipts": "31250.00", "exempt_receipts": "0.00"},
            {"period": "2025-Q3", "gross_receipts": "36000.00", "exempt_receipts": "0.00"},
            {"period": "2025-Q4", "gross_receipts": "12100.00", "exempt_receipts": "0.00"}
        ]);
        file_once(
            conn,
            report,
            &operator,
            motel,
            &q("2025", "97750.00", "400.00", date(2026, 3, 20)),
            Some(quarters),
        )?;
    }
    if let Some(staff) = filer(
        conn,
        montello,
        "montello",
        "staff@montello.demo",
        EnteredAs::Staff,
    )? {
        let camp = MONTELLO_CAMPGROUND_ID;
        file_once(
            conn,
            report,
            &staff,
            camp,
            &q("2025-Q1", "5000.00", "0.00", date(2025, 4, 30)),
            None,
        )?;
        file_once(
            conn,
            report,
            &staff,
            camp,
            &q("2025-Q2", "22000.00", "0.00", date(2025, 7, 29)),
            None,
        )?;
        file_once(
            conn,
            report,
            &staff,
            camp,
            &q("2025-Q3", "19500.00", "0.00", date(2025, 10, 31)),
            None,
        )?;
    }
    db::rls::apply(
        conn,
        &DbScope {
            municipality_id: Some(hayward),
            ..DbScope::default()
        },
    )?;
    if let Some(operator) = filer(
        conn,
        hayward,
        "hayward",
        "operator@hayward.demo",
        EnteredAs::Operator,
    )? {
        let lodge = HAYWARD_LODGE_ID;
        let quarters = [
            q("2025-Q1", "40000.00", "0.00", date(2025, 4, 25)),
            q("2025-Q2", "52000.00", "0.00", date(2025, 7, 30)),
            q("2025-Q3", "61000.00", "0.00", date(2025, 10, 29)),
            q("2025-Q4", "38000.00", "0.00", date(2026, 1, 28)),
        ];
        for (i, f) in quarters.iter().enumerate() {
            let Some(id) = file_once(conn, report, &operator, lodge, f, None)? else {
                continue;
            };
            if i < 3 {
                attach_sales_tax_return(conn, &operator, &id, f.on)?;
            }
        }
    }
    Ok(())
}

/// Attach the stand-in state sales-tax return to a Hayward return.
fn attach_sales_tax_return(
    conn: &mut DbConn,
    filer: &Filer,
    return_id: &str,
    on: NaiveDate,
) -> Result<(), ApiError> {
    let checked = Attachment::accept(
        AttachmentKind::StateSalesTaxReturn,
        "application/pdf",
        SALES_TAX_RETURN_PDF,
    )
    .map_err(|e| ApiError::internal(format!("demo attachment: {e:?}")))?;
    db::returns::attachments::insert(
        conn,
        &NewAttachment {
            municipality_id: filer.municipality_id,
            id: &db::identity::new_id(),
            return_id,
            kind: checked.kind.as_str(),
            content_type: checked.media_type.mime(),
            size_bytes: checked.size as i64,
            sha256: &checked.sha256,
            content: SALES_TAX_RETURN_PDF,
            uploaded_by: &filer.entered_by,
            uploaded_at: on.and_hms_opt(12, 0, 0).expect("noon"),
        },
    )?;
    Ok(())
}
