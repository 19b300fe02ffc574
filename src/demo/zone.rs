//! The demo zone's year (issue 10 item 11): Montello's remittances of 2026
//! to the Marquette County tourism zone, computed from its demo ledger, the
//! commission roster, the tourism entity's expenditure report of 2026 and the
//! commission's review of it. The report back to Montello and the 2026 SL-304
//! figures are computed from these on every read; nothing else is stored.
//!
//! Why 2026: the demo ledger holds no tax received by Montello in 2025 (the
//! motel paid its 2025 returns in April 2026, the campground's stays unpaid),
//! so 2025's remittances would all be 0.00; 2026-Q2 holds the motel's
//! payments. The quarters of 2026 that have ended by the load's date are
//! submitted (Q1 and Q3 with nothing received: 0.00, still submitted, as a
//! zero return is a return); Q2's commission share is marked paid.
//!
//! Figures (hand-computed from `super::money`, Montello 4.5 %, 75 % to the
//! commission): 2026-Q2 tax principal received 810.00 + 1,406.25 + 1,620.00 +
//! 544.50 = 4,380.75 (the 2025 quarters' tax; interest, the fee and the
//! refunded credit stay with the city), from receipts of 18,000.00 +
//! 31,250.00 + 36,000.00 + 12,100.00 = 97,350.00 of one payor; commission
//! 3,285.5625 → 3,285.56, general fund 1,095.19. The report spends
//! 1,850.00 + 212.40 + 640.00 + 395.00 = 3,097.40 of it, carrying 188.16 over.
//!
//! Contract: as `super::money`: every item goes through the use case its
//! endpoint calls (`remittances::submit` and `transfer` as Montello's
//! clerk-treasurer, `roster::add` as the zone admin, `filing::file` and
//! `review::answer` as the tourism entity, `review::act` as the commission
//! member), each on its own date; an item dated after the real local date is
//! left for a later load, and one found on file is not made again.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

use super::{DemoReport, date};
use crate::{
    auth::Role,
    db::{self, DbConn},
    domain::{
        Money,
        clock::local_date,
        expenditure::{Category, Impact, Item, Measure, ReportDraft, Sum, review::Act},
    },
    error::ApiError,
    request_context::{self, RequestContext},
    tenancy::{Caller, GrantRef, Subject, Tenant, ZoneContext},
    usecases::{
        expenditures::{filing, review},
        remittances::{self, NewTransfer, Submission, TransferMethod},
        roster::{self, NewMember},
    },
};

/// The quarters submitted, each with its submission date.
const SUBMISSIONS: [(&str, (i32, u32, u32)); 3] = [
    ("2026-Q1", (2026, 4, 15)),
    ("2026-Q2", (2026, 7, 15)),
    ("2026-Q3", (2026, 10, 15)),
];

/// The one transfer marked paid: (quarter, paid on, reference).
const TRANSFER: (&str, (i32, u32, u32), &str) = ("2026-Q2", (2026, 7, 31), "demo check 2207");

/// The commission roster: (name, affiliation, represents the industry).
const ROSTER: [(&str, &str, bool); 3] = [
    ("Ruth Ellison", "Marquette County Lodging Association", true),
    ("Tom Brekke", "Montello Area Chamber of Commerce", true),
    ("Jean Marsh", "City of Montello Common Council", false),
];

/// When the report is filed, commented on, questioned, answered and accepted.
const FILED_ON: (i32, u32, u32) = (2026, 11, 16);
const REVIEWED_ON: (i32, u32, u32) = (2026, 11, 18);
const ANSWERED_ON: (i32, u32, u32) = (2026, 11, 20);
const ACCEPTED_ON: (i32, u32, u32) = (2026, 11, 24);

/// The question the commission asks (found again by its text).
const QUESTION: &str = "How were the 420 inquiries attributed to the visitor guide counted?";

fn day((y, m, d): (i32, u32, u32)) -> NaiveDate {
    date(y, m, d)
}

/// Noon in Wisconsin on `on`, as the UTC instant stored (18:00 UTC in winter).
fn noon(on: (i32, u32, u32)) -> NaiveDateTime {
    day(on).and_time(NaiveTime::from_hms_opt(18, 0, 0).expect("a valid time"))
}

fn money(text: &str) -> Result<Money, ApiError> {
    Money::parse(text).map_err(|e| ApiError::internal(format!("demo amount: {e:?}")))
}

/// The demo user `email` with its grants; `None` when the account is absent.
fn caller(conn: &mut DbConn, email: &str) -> Result<Option<Caller>, ApiError> {
    let Some(user) = db::identity::user_by_email(conn, email)? else {
        return Ok(None);
    };
    db::rls::apply(conn, &crate::tenancy::DbScope::user(&user.id))?;
    let role = |r: &str| Role::parse(r).map_err(|e| ApiError::internal(format!("grant: {e}")));
    let mut grants = Vec::new();
    for g in db::identity::active_municipality_grants(conn, &user.id)? {
        grants.push(GrantRef {
            id: g.id,
            role: role(&g.role)?,
            tenant: Tenant::Municipality(g.municipality_id),
            payor_id: g.payor_id,
        });
    }
    for g in db::identity::active_zone_grants(conn, &user.id)? {
        grants.push(GrantRef {
            id: g.id,
            role: role(&g.role)?,
            tenant: Tenant::Zone(g.zone_id),
            payor_id: None,
        });
    }
    Ok(Some(Caller {
        subject: Subject::User {
            id: user.id,
            email: user.email,
        },
        grants,
        disclosures: Vec::new(),
        client_tenant: None,
    }))
}

/// `email` in the zone, with the row-level-security scope set.
fn in_zone(
    conn: &mut DbConn,
    email: &str,
    zone_id: i64,
    members: &[i64],
) -> Result<Option<ZoneContext>, ApiError> {
    let Some(caller) = caller(conn, email)? else {
        return Ok(None);
    };
    let ctx = caller.in_zone(zone_id, members);
    db::rls::apply(conn, &ctx.db_scope())?;
    Ok(Some(ctx))
}

/// Create the demo zone's year where missing (see the module doc).
pub(super) fn ensure(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
) -> Result<(), ApiError> {
    let request = RequestContext {
        id: format!("demo-{}", db::identity::new_id()),
        path: "roomtax demo".to_owned(),
    };
    request_context::within(Some(request), || {
        let Some(zone) = db::zones::by_slug(conn, "marquette-county")? else {
            return Ok(());
        };
        let today = local_date(chrono::Utc::now());
        remittances_of_montello(conn, report, montello, zone.id, today)?;
        let members = [montello];
        if let Some(admin) = in_zone(conn, "admin@marquette-county.demo", zone.id, &members)? {
            commission_roster(conn, report, &admin, today)?;
        }
        let Some(entity) = in_zone(conn, "tourism@marquette-county.demo", zone.id, &members)?
        else {
            return Ok(());
        };
        let Some(report_id) = expenditure_report(conn, report, &entity, today)? else {
            return Ok(());
        };
        review_of(conn, report, (zone.id, &members), &report_id, today)
    })
}

fn remittances_of_montello(
    conn: &mut DbConn,
    report: &mut DemoReport,
    montello: i64,
    zone_id: i64,
    today: NaiveDate,
) -> Result<(), ApiError> {
    let Some(clerk) = caller(conn, "clerk@montello.demo")? else {
        return Ok(());
    };
    let ctx = clerk.in_municipality(montello, Some(zone_id));
    db::rls::apply(conn, &ctx.db_scope())?;
    for (period, on) in SUBMISSIONS {
        let on = day(on);
        if on > today {
            break;
        }
        let recorded = remittances::submit(
            conn,
            &ctx,
            &Submission {
                period: period.to_owned(),
                ..Submission::default()
            },
            on,
        )?;
        if recorded.created {
            report.created.push(format!("remittance {period} montello"));
        }
    }
    let (period, on, reference) = TRANSFER;
    let on = day(on);
    if on > today {
        return Ok(());
    }
    let periods = [period.to_owned()];
    if !db::remittances::transfers_of_municipality(conn, montello, &periods)?.is_empty() {
        return Ok(());
    }
    let versions = db::remittances::of_municipality(conn, montello, &periods)?;
    let Some(latest) = remittances::latest_of(&versions, period) else {
        return Ok(());
    };
    let id = latest.id.clone();
    remittances::transfer(
        conn,
        &ctx,
        &id,
        NewTransfer {
            paid_on: on,
            method: TransferMethod::Check,
            reference: reference.to_owned(),
        },
        on,
    )?;
    report
        .created
        .push(format!("transfer {period} montello {on}"));
    Ok(())
}

fn commission_roster(
    conn: &mut DbConn,
    report: &mut DemoReport,
    admin: &ZoneContext,
    today: NaiveDate,
) -> Result<(), ApiError> {
    let on = date(2026, 1, 5);
    if on > today {
        return Ok(());
    }
    let existing = db::roster::all(conn, admin.zone_id)?;
    for (name, affiliation, industry) in ROSTER {
        if existing.iter().any(|(m, _)| m.name == name) {
            continue;
        }
        roster::add(
            conn,
            admin,
            Ok(NewMember {
                name: name.to_owned(),
                affiliation: affiliation.to_owned(),
                represents_lodging_and_tourism_industry: industry,
                appointed_by: "montello".to_owned(),
                term_start: date(2026, 1, 1),
                term_end: None,
            }),
            on,
            noon((2026, 1, 5)),
        )?;
        report.created.push(format!("commission member {name}"));
    }
    Ok(())
}

/// The report's draft: one item of $1,000 or more with its impact, three
/// categories of small expenditures summed.
fn draft() -> Result<ReportDraft, ApiError> {
    let sum = |category, amount, count, description: &str| -> Result<Sum, ApiError> {
        Ok(Sum {
            category,
            amount: money(amount)?,
            count,
            description: description.to_owned(),
            explanation: None,
            lodging_facility: false,
        })
    };
    Ok(ReportDraft {
        period_start: date(2026, 1, 1),
        period_end: date(2026, 12, 31),
        received_declared: money("3285.56")?,
        items: vec![Item {
            date: date(2026, 5, 12),
            payee: "Lakeland Printing".to_owned(),
            amount: money("1850.00")?,
            category: Category::MarketingProjects,
            description: "Marquette County visitor guide 2026, 10,000 copies".to_owned(),
            explanation: None,
            lodging_facility: false,
            impact: vec![
                Impact {
                    measure: Measure::Inquiries,
                    value: 420,
                    source: "guide reply cards and calls logged by the Council".to_owned(),
                },
                Impact {
                    measure: Measure::WebsiteSessions,
                    value: 1960,
                    source: "web analytics of the guide's address, May to October".to_owned(),
                },
            ],
        }],
        summed: vec![
            sum(
                Category::TouristInformationServices,
                "640.00",
                4,
                "Brochure restocking of the visitor information kiosk",
            )?,
            sum(
                Category::MarketingProjects,
                "395.00",
                2,
                "Social media advertisements for the summer season",
            )?,
            sum(
                Category::Administration,
                "212.40",
                3,
                "Postage and office supplies",
            )?,
        ],
    })
}

/// The 2026 report's id, filed now when missing; `None` before its date.
fn expenditure_report(
    conn: &mut DbConn,
    report: &mut DemoReport,
    entity: &ZoneContext,
    today: NaiveDate,
) -> Result<Option<String>, ApiError> {
    if let Some(v) = db::expenditures::latest_versions(conn, entity.zone_id)?
        .into_iter()
        .find(|v| v.period_start == date(2026, 1, 1))
    {
        return Ok(Some(v.report_id));
    }
    if day(FILED_ON) > today {
        return Ok(None);
    }
    let view = filing::file(conn, entity, draft()?, noon(FILED_ON))?;
    report.created.push("expenditure report 2026".to_owned());
    Ok(Some(view.report.id))
}

/// The commission's comment and question, the entity's answer, the acceptance.
fn review_of(
    conn: &mut DbConn,
    report: &mut DemoReport,
    (zone_id, members): (i64, &[i64]),
    report_id: &str,
    today: NaiveDate,
) -> Result<(), ApiError> {
    let Some(commission) = in_zone(conn, "commission@marquette-county.demo", zone_id, members)?
    else {
        return Ok(());
    };
    let acts = db::expenditures::reviews(conn, zone_id, report_id)?;
    let has = |act: Act| acts.iter().any(|r| r.act == act.as_str());
    if day(REVIEWED_ON) > today {
        return Ok(());
    }
    if !has(Act::Comment) {
        let text = "The guide's invoice and print run match the item.";
        review::act(
            conn,
            &commission,
            report_id,
            review::NewAct {
                act: Act::Comment,
                item: Some(1),
                text: Some(text.to_owned()),
            },
            noon(REVIEWED_ON),
        )?;
        report.created.push("review comment".to_owned());
    }
    let question = match acts.iter().find(|r| r.act == Act::Question.as_str()) {
        Some(q) => q.id.clone(),
        None => {
            let q = review::act(
                conn,
                &commission,
                report_id,
                review::NewAct {
                    act: Act::Question,
                    item: Some(1),
                    text: Some(QUESTION.to_owned()),
                },
                noon(REVIEWED_ON),
            )?;
            report.created.push("review question".to_owned());
            q.id
        }
    };
    if day(ANSWERED_ON) > today {
        return Ok(());
    }
    if !has(Act::Answer) {
        let Some(entity) = in_zone(conn, "tourism@marquette-county.demo", zone_id, members)? else {
            return Ok(());
        };
        review::answer(
            conn,
            &entity,
            report_id,
            &question,
            "From the guide's reply cards returned (310) and the calls to the number printed only in the guide (110), counted by the Council's staff.",
            noon(ANSWERED_ON),
        )?;
        report.created.push("review answer".to_owned());
    }
    if day(ACCEPTED_ON) > today || has(Act::Accept) {
        return Ok(());
    }
    let commission = in_zone(conn, "commission@marquette-county.demo", zone_id, members)?
        .ok_or_else(|| ApiError::internal("the demo commission member vanished"))?;
    review::act(
        conn,
        &commission,
        report_id,
        review::NewAct {
            act: Act::Accept,
            item: None,
            text: None,
        },
        noon(ACCEPTED_ON),
    )?;
    report.created.push("review accepted".to_owned());
    Ok(())
}
