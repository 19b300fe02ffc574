//! The demo's money: payments, a refund, estimates, notices, a security
//! deposit and a clearance certificate on the 2025 returns ([`super::returns`]),
//! so the statement of account, the notices and the public verification show
//! something real.
//!
//! - Lakeside Motel (Montello): pays its returns after the annual return, in
//!   two parts: 1500.00 on 2026-04-06 settles Q1 with its interest and part of
//!   the late Q2 (interest posted on the part paid); the rest on 2026-04-20
//!   settles Q2 (its interest, the late filing fee and the late-payment
//!   forfeiture, 0.00: no 2024 returns on file), Q3 as amended, Q4 as
//!   adjusted by the annual return, and 200.00 more, held as credit; the
//!   credit is refunded on 2026-04-27 with Montello's refund interest (period
//!   2025-Q4, due 2026-01-31: 3 months at 1 %); on 2026-04-30, owing nothing,
//!   it gets a clearance certificate (its code is in the report, shown once).
//! - Buffalo Lake Campground (Montello, no 2025-Q4 return): a non-filer
//!   estimate of 2025-Q4 on 2026-03-02 (8000.00 of receipts: tax 360.00 and
//!   the 10 % penalty 36.00) with its notice; a delinquency letter on
//!   2026-04-01; a security deposit of 1000.00 required that day (with its
//!   notice) and received on 2026-04-15. Its tax stays unpaid.
//! - Northwoods Lodge (Hayward): its 2025-Q4 return is on file though
//!   incomplete, so no estimate can replace it; the quarter it did not file is
//!   2026-Q1, estimated on 2026-05-15 (30000.00: tax 1200.00, penalty 120.00).
//!   It paid its 2025-Q1 tax, 1600.00, with the return (2025-04-25).
//!
//! Contract: every item goes through the use case its endpoint calls
//! (`payments::record`, `refunds::record`, `determinations::make`,
//! `delinquency::letter`, `security::require` and `receive`,
//! `clearance::issue`), as the municipality's clerk-treasurer, with "today"
//! the item's own date; an item dated after the real local date is left for
//! a later load. The access log records them as the clerk's writes in one
//! request named `demo-<uuid>`. Each is made only when missing (found by its reference,
//! period or kind), so loading twice changes nothing.

use chrono::NaiveDate;

use super::{
    DemoCertificate, DemoReport, HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID, date,
};
use crate::{
    auth::Role,
    db::{self, DbConn},
    domain::{Money, Period, clock::local_date, determination::DeterminationKind},
    error::ApiError,
    request_context::{self, RequestContext},
    tenancy::{Caller, DbScope, GrantRef, MunicipalityContext, Subject, Tenant},
    usecases::{
        clearance,
        ledger::{
            delinquency, determinations,
            determinations::NewDetermination,
            payments::{self, NewPayment, PaymentMethod},
            refunds::{self, NewRefund},
            security::{self, NewReceipt},
        },
    },
};

/// A demo payment: (received on, amount, method, reference).
type DemoPayment = ((i32, u32, u32), &'static str, PaymentMethod, &'static str);

/// The motel's payments.
const MOTEL_PAYMENTS: [DemoPayment; 2] = [
    (
        (2026, 4, 6),
        "1500.00",
        PaymentMethod::Check,
        "demo check 1187",
    ),
    (
        (2026, 4, 20),
        "3443.05",
        PaymentMethod::Ach,
        "demo ACH 20260420",
    ),
];

/// The motel's refund of its credit (the 200.00 beyond its charges).
const MOTEL_REFUND: ((i32, u32, u32), &str, &str) = ((2026, 4, 27), "200.00", "demo check 5012");

fn money(text: &str) -> Result<Money, ApiError> {
    Money::parse(text).map_err(|e| ApiError::internal(format!("demo amount: {e:?}")))
}

fn period(text: &str) -> Result<Period, ApiError> {
    Period::parse(text).map_err(|e| ApiError::internal(format!("demo period: {e:?}")))
}

fn day((y, m, d): (i32, u32, u32)) -> NaiveDate {
    date(y, m, d)
}

/// The municipality's clerk-treasurer as a caller, with the tenant set; `None`
/// when the demo account is absent (nothing is done then).
pub(super) fn clerk(
    conn: &mut DbConn,
    municipality_id: i64,
    email: &str,
) -> Result<Option<MunicipalityContext>, ApiError> {
    let Some(user) = db::identity::user_by_email(conn, email)? else {
        return Ok(None);
    };
    // The user's own grants are visible to the user alone (row-level security).
    db::rls::apply(conn, &DbScope::user(&user.id))?;
    let mut grants = Vec::new();
    for g in db::identity::active_municipality_grants(conn, &user.id)? {
        let role =
            Role::parse(&g.role).map_err(|e| ApiError::internal(format!("stored grant: {e}")))?;
        grants.push(GrantRef {
            id: g.id,
            role,
            tenant: Tenant::Municipality(g.municipality_id),
            payor_id: g.payor_id,
        });
    }
    let caller = Caller {
        subject: Subject::User {
            id: user.id,
            email: user.email,
        },
        grants,
        disclosures: Vec::new(),
        client_tenant: None,
    };
    let ctx = caller.in_municipality(municipality_id, None);
    db::rls::apply(conn, &ctx.db_scope())?;
    Ok(Some(ctx))
}

/// Create the demo's money items that are missing (see the module doc).
pub(super) fn ensure(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
    hayward: i64,
) -> Result<(), ApiError> {
    // The access log names a request: the demo load is one.
    let request = RequestContext {
        id: format!("demo-{}", db::identity::new_id()),
        path: "roomtax demo".to_owned(),
    };
    request_context::within(Some(request), || {
        ensure_as_clerks(conn, report, montello, hayward)
    })
}

fn ensure_as_clerks(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
    hayward: i64,
) -> Result<(), ApiError> {
    let real_today = local_date(chrono::Utc::now());
    if let Some(ctx) = clerk(conn, montello, "clerk@montello.demo")? {
        motel(conn, report, &ctx, real_today)?;
        campground(conn, report, &ctx, real_today)?;
    }
    if let Some(ctx) = clerk(conn, hayward, "clerk@hayward.demo")? {
        lodge(conn, report, &ctx, real_today)?;
    }
    Ok(())
}

/// Record a payment unless one with its reference is on file.
fn pay_once(
    conn: &mut DbConn,
    report: &mut DemoReport,
    ctx: &MunicipalityContext,
    payor: &str,
    (on, amount, method, reference): DemoPayment,
) -> Result<(), ApiError> {
    let on = day(on);
    if db::payments::of_payor(conn, ctx.municipality_id, payor)?
        .iter()
        .any(|p| p.reference == reference)
    {
        return Ok(());
    }
    payments::record(
        conn,
        ctx,
        payor,
        NewPayment {
            received_on: on,
            amount: money(amount)?,
            method,
            reference: reference.to_owned(),
        },
        on,
    )?;
    report.created.push(format!("payment {on} {payor}"));
    Ok(())
}

/// Make a non-filer estimate of `quarter` unless one is on file for it.
fn estimate_once(
    conn: &mut DbConn,
    report: &mut DemoReport,
    ctx: &MunicipalityContext,
    (slug, payor): (&str, &str),
    (quarter, receipts, on): (&str, &str, NaiveDate),
) -> Result<(), ApiError> {
    if !db::determinations::of_payor_period(conn, ctx.municipality_id, payor, quarter)?.is_empty() {
        return Ok(());
    }
    determinations::make(
        conn,
        ctx,
        slug,
        payor,
        NewDetermination {
            kind: DeterminationKind::NonFilerEstimate,
            period: period(quarter)?,
            determined_on: Some(on),
            basis: format!(
                "No return filed for {quarter}; estimated from the establishment's occupancy and the state sales-tax return."
            ),
            gross_receipts: None,
            exempt_receipts: None,
            tax_found: None,
            estimated_receipts: Some(money(receipts)?),
        },
        on,
    )?;
    report.created.push(format!("estimate {quarter} {payor}"));
    Ok(())
}

fn motel(
    conn: &mut DbConn,
    report: &mut DemoReport,
    ctx: &MunicipalityContext,
    real_today: NaiveDate,
) -> Result<(), ApiError> {
    for p in MOTEL_PAYMENTS {
        if day(p.0) > real_today {
            return Ok(());
        }
        pay_once(conn, report, ctx, MONTELLO_MOTEL_ID, p)?;
    }
    let (on, amount, reference) = MOTEL_REFUND;
    let on = day(on);
    if on > real_today {
        return Ok(());
    }
    if !db::refunds::of_payor(conn, ctx.municipality_id, MONTELLO_MOTEL_ID)?
        .iter()
        .any(|r| r.reference == reference)
    {
        refunds::record(
            conn,
            ctx,
            MONTELLO_MOTEL_ID,
            NewRefund {
                refunded_on: on,
                amount: money(amount)?,
                method: PaymentMethod::Check,
                reference: reference.to_owned(),
                overpayment_intentional_or_careless: false,
                period: "2025-Q4".to_owned(),
            },
            on,
        )?;
        report
            .created
            .push(format!("refund {on} {MONTELLO_MOTEL_ID}"));
    }
    let on = date(2026, 4, 30);
    if on > real_today
        || !db::clearance::of_payor(conn, ctx.municipality_id, MONTELLO_MOTEL_ID)?.is_empty()
    {
        return Ok(());
    }
    let issued = clearance::issue(conn, ctx, MONTELLO_MOTEL_ID, None, on)?;
    report
        .created
        .push(format!("clearance certificate {on} {MONTELLO_MOTEL_ID}"));
    report.certificates.push(DemoCertificate {
        payor_id: MONTELLO_MOTEL_ID.to_owned(),
        verification_code: issued.code,
    });
    Ok(())
}

fn campground(
    conn: &mut DbConn,
    report: &mut DemoReport,
    ctx: &MunicipalityContext,
    real_today: NaiveDate,
) -> Result<(), ApiError> {
    let payor = MONTELLO_CAMPGROUND_ID;
    let on = date(2026, 3, 2);
    if on > real_today {
        return Ok(());
    }
    estimate_once(
        conn,
        report,
        ctx,
        ("montello", payor),
        ("2025-Q4", "8000.00", on),
    )?;
    let on = date(2026, 4, 1);
    if on > real_today {
        return Ok(());
    }
    if !db::notices::of_payor(conn, ctx.municipality_id, payor)?
        .iter()
        .any(|n| n.kind == "delinquency")
    {
        delinquency::letter(conn, ctx, payor, on)?;
        report
            .created
            .push(format!("delinquency letter {on} {payor}"));
    }
    let deposit_id = match db::security::of_payor(conn, ctx.municipality_id, payor)?.first() {
        Some(d) => d.id.clone(),
        None => {
            let d = security::require(
                conn,
                ctx,
                payor,
                money("1000.00")?,
                "no 2025-Q4 return and the 2025 tax unpaid",
                on,
            )?;
            report
                .created
                .push(format!("security deposit {on} {payor}"));
            d.row.id
        }
    };
    let on = date(2026, 4, 15);
    if on > real_today
        || !db::security::events_of(conn, ctx.municipality_id, &deposit_id)?.is_empty()
    {
        return Ok(());
    }
    security::receive(
        conn,
        ctx,
        payor,
        &deposit_id,
        NewReceipt {
            received_on: on,
            amount: money("1000.00")?,
            method: PaymentMethod::Check,
            reference: "demo check 3301".to_owned(),
        },
        on,
    )?;
    report
        .created
        .push(format!("security deposit received {on} {payor}"));
    Ok(())
}

fn lodge(
    conn: &mut DbConn,
    report: &mut DemoReport,
    ctx: &MunicipalityContext,
    real_today: NaiveDate,
) -> Result<(), ApiError> {
    let payment = (
        (2025, 4, 25),
        "1600.00",
        PaymentMethod::Ach,
        "demo ACH 20250425",
    );
    if day(payment.0) > real_today {
        return Ok(());
    }
    pay_once(conn, report, ctx, HAYWARD_LODGE_ID, payment)?;
    let on = date(2026, 5, 15);
    if on > real_today {
        return Ok(());
    }
    estimate_once(
        conn,
        report,
        ctx,
        ("hayward", HAYWARD_LODGE_ID),
        ("2026-Q1", "30000.00", on),
    )
}
