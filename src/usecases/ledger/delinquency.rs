//! Delinquencies: what each payor owes past due as of a date, by age; the
//! special-assessment roll of unpaid tax (Montello); a delinquency letter.
//!
//! Contract (issue 9 items 9 and 10):
//! - the list and the roll are the clerk-treasurer's and staff's
//!   (`Action::ReviewReturns`; related roles 403, anyone else 404), as of a
//!   date not after today; a letter is issued by them as a person
//!   (`Action::RecordPayments`);
//! - every figure comes from the payor's statement of account as of the
//!   date (`statement::compute`: the posted balances by component and the
//!   interest accrued to the date, computed once there): a period is past
//!   due when its balance (accrued interest included) is more than zero and
//!   the date is after its return's filing due date (extended when an
//!   extension was granted; `domain::delinquency`); periods with charges but
//!   no return on file have no due date here and are left out;
//! - a payor is listed when its past-due balances exceed the credit it
//!   holds; the credit is shown beside them;
//! - the roll has one row per payor and period with tax unpaid past due,
//!   with the payor's mailing address and its establishments' addresses
//!   (the registry holds no parcel numbers); Hayward's ordinance has no such
//!   provision: 422 naming `municipality`, rule `no_special_assessment`,
//!   citing why;
//! - every payor whose account is read is written to the access log
//!   (`payor_account`, its id); a letter is a write (`notice`, `create`).

use chrono::NaiveDate;

use super::statement::{Statement, StatementPeriod, compute};
use crate::{
    db::{self, DbConn, models::PayorRow, notices::NoticeRow, payors::PayorQuery},
    domain::{
        Money, Period,
        delinquency::{AgeBucket, days_past_due, special_assessment},
        ledger::Component,
        notice::{NoticeAmount, NoticeDraft, NoticeKind},
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{notices, payors::Actor},
};

/// One period past due.
#[derive(Debug, Clone)]
pub struct PastDue {
    /// The period.
    pub period: Period,
    /// The filing due date the days count from.
    pub due_date: NaiveDate,
    /// Days past it.
    pub days_past_due: i64,
    /// Their bucket.
    pub bucket: AgeBucket,
    /// The unpaid balance by component (posted, more than zero).
    pub components: Vec<(Component, Money)>,
    /// Interest accrued to the date on the unpaid tax (not posted).
    pub interest_accrued: Money,
    /// Owed for the period: the components plus the accrued interest.
    pub balance: Money,
}

/// One payor with amounts past due.
#[derive(Debug, Clone)]
pub struct Delinquent {
    /// The payor.
    pub payor: PayorRow,
    /// Its periods past due, oldest first.
    pub periods: Vec<PastDue>,
    /// Credit it holds.
    pub credit: Money,
}

impl Delinquent {
    /// Past due over its periods.
    pub fn past_due(&self) -> Money {
        self.periods.iter().map(|p| p.balance).sum()
    }
}

fn past_due_of(p: &StatementPeriod, as_of: NaiveDate) -> Option<PastDue> {
    let due_date = p.filing_due_date?;
    let days = days_past_due(due_date, as_of);
    let bucket = AgeBucket::of(days)?;
    let components: Vec<(Component, Money)> = p
        .components
        .iter()
        .map(|(c, b)| (*c, b.balance()))
        .filter(|(_, m)| !m.is_negative() && !m.is_zero())
        .collect();
    let balance = components.iter().map(|(_, m)| *m).sum::<Money>() + p.accrued();
    (!balance.is_negative() && !balance.is_zero()).then(|| PastDue {
        period: p.period,
        due_date,
        days_past_due: days,
        bucket,
        components,
        interest_accrued: p.accrued(),
        balance,
    })
}

fn delinquent_of(payor: PayorRow, statement: &Statement) -> Option<Delinquent> {
    let periods: Vec<PastDue> = statement
        .periods
        .iter()
        .filter_map(|p| past_due_of(p, statement.as_of))
        .collect();
    let d = Delinquent {
        payor,
        periods,
        credit: statement.credit,
    };
    (d.past_due() > d.credit).then_some(d)
}

fn check_date(as_of: Option<NaiveDate>, today: NaiveDate) -> Result<NaiveDate, ApiError> {
    let as_of = as_of.unwrap_or(today);
    if as_of > today {
        return Err(ApiError::Validation(vec![FieldError::new(
            "as_of",
            "in_the_future",
            format!("as of today ({today}) or an earlier date"),
        )]));
    }
    Ok(as_of)
}

fn every_payor(conn: &mut DbConn, municipality_id: i64) -> Result<Vec<PayorRow>, ApiError> {
    let mut out = Vec::new();
    loop {
        let page = db::payors::list(
            conn,
            municipality_id,
            &PayorQuery {
                after: out.last().map(|p: &PayorRow| p.id.clone()),
                limit: 500,
                ..PayorQuery::default()
            },
        )?;
        let done = page.len() < 500;
        out.extend(page);
        if done {
            return Ok(out);
        }
    }
}

fn log_read(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
) -> Result<(), ApiError> {
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&ctx.role_basis()),
        "payor_account",
        payor_id,
    )?;
    Ok(())
}

/// Every payor with amounts past due as of `as_of` (default today), in
/// payor id order (see the module doc).
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    as_of: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(NaiveDate, Vec<Delinquent>), ApiError> {
    ctx.require(Action::ReviewReturns)?;
    let as_of = check_date(as_of, today)?;
    let actor = Actor::of(ctx)?;
    let mut out = Vec::new();
    for payor in every_payor(conn, ctx.municipality_id)? {
        let statement = compute(conn, ctx.municipality_id, &payor.id, as_of)?;
        if let Some(d) = delinquent_of(payor, &statement) {
            log_read(conn, ctx, &actor, &d.payor.id)?;
            out.push(d);
        }
    }
    Ok((as_of, out))
}

/// One row of the special-assessment roll.
#[derive(Debug, Clone)]
pub struct AssessmentRow {
    /// The payor.
    pub payor: PayorRow,
    /// Its establishments' addresses in the municipality.
    pub addresses: Vec<String>,
    /// The period.
    pub period: Period,
    /// The filing due date.
    pub due_date: NaiveDate,
    /// Tax unpaid.
    pub unpaid_tax: Money,
    /// Interest accrued to the date on it (not posted).
    pub interest_accrued: Money,
}

/// The special-assessment roll as of `as_of`, with the citation it rests on.
pub fn special_assessments(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    as_of: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(&'static str, Vec<AssessmentRow>), ApiError> {
    ctx.require(Action::ReviewReturns)?;
    let citation = special_assessment(slug).map_err(|why| {
        ApiError::Validation(vec![FieldError::new(
            "municipality",
            "no_special_assessment",
            why.to_owned(),
        )])
    })?;
    let (_, delinquents) = list(conn, ctx, as_of, today)?;
    let mut rows = Vec::new();
    for d in delinquents {
        let addresses: Vec<String> =
            db::payors::establishments_of(conn, ctx.municipality_id, &d.payor.id)?
                .into_iter()
                .map(|e| e.address)
                .collect();
        for p in &d.periods {
            let unpaid_tax = p
                .components
                .iter()
                .find(|(c, _)| *c == Component::Tax)
                .map(|(_, m)| *m)
                .unwrap_or_default();
            if unpaid_tax.is_zero() {
                continue;
            }
            rows.push(AssessmentRow {
                payor: d.payor.clone(),
                addresses: addresses.clone(),
                period: p.period,
                due_date: p.due_date,
                unpaid_tax,
                interest_accrued: p.interest_accrued,
            });
        }
    }
    Ok((citation, rows))
}

fn label(component: Component) -> &'static str {
    match component {
        Component::Tax => "Room tax",
        Component::Interest => "Interest posted",
        Component::LateFilingFee => "Late filing fee",
        Component::LatePaymentForfeiture => "Late-payment forfeiture",
        Component::EstimatePenalty => "Estimate penalty",
        Component::FraudPenalty => "Fraud penalty",
        Component::RefundReclaimed => "Refund of a reversed payment, owed back",
    }
}

/// Issue a delinquency letter to the payor stating what it owes past due as
/// of `today`; posts no journal (cause `payor`). 422 `nothing_past_due` when
/// nothing is.
pub fn letter(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    today: NaiveDate,
) -> Result<(NoticeRow, NoticeDraft), ApiError> {
    ctx.require(Action::RecordPayments)?;
    let municipality_id = ctx.municipality_id;
    let payor =
        db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let statement = compute(conn, municipality_id, payor_id, today)?;
    let Some(d) = delinquent_of(payor, &statement) else {
        return Err(ApiError::Validation(vec![FieldError::new(
            "payor",
            "nothing_past_due",
            format!("the payor owes nothing past due as of {today}: no letter to send"),
        )]));
    };
    let mut amounts = Vec::new();
    let mut citations: Vec<String> = Vec::new();
    for p in &d.periods {
        let period = Some(p.period.to_string());
        for (c, m) in &p.components {
            amounts.push(NoticeAmount {
                label: label(*c).to_owned(),
                period: period.clone(),
                amount: *m,
            });
        }
        if !p.interest_accrued.is_zero() {
            amounts.push(NoticeAmount {
                label: format!("Interest accrued to {today}"),
                period: period.clone(),
                amount: p.interest_accrued,
            });
        }
        let line = statement
            .periods
            .iter()
            .find(|s| s.period == p.period)
            .and_then(|s| s.interest_accrued.as_ref());
        if let Some(line) = line
            && !citations.iter().any(|c| *line.citation == **c)
        {
            citations.push(line.citation.to_string());
        }
    }
    if !d.credit.is_zero() {
        amounts.push(NoticeAmount {
            label: "Less credit held".to_owned(),
            period: None,
            amount: -d.credit,
        });
    }
    let total = d.past_due() - d.credit;
    amounts.push(NoticeAmount {
        label: "Total owed".to_owned(),
        period: None,
        amount: total,
    });
    citations.push("Wis. Stat. § 66.0615".to_owned());
    let periods: Vec<String> = d.periods.iter().map(|p| p.period.to_string()).collect();
    let mut addressee = vec![d.payor.legal_name.clone()];
    if let Some(dba) = &d.payor.dba {
        addressee.push(format!("d/b/a {dba}"));
    }
    addressee.extend(d.payor.mailing_address.lines().map(str::to_owned));
    let draft = NoticeDraft {
        kind: NoticeKind::Delinquency,
        payor_id: payor_id.to_owned(),
        issued_on: today,
        title: format!("Notice of delinquent room tax as of {today}"),
        addressee,
        paragraphs: vec![
            format!(
                "Our records show that the room tax and charges listed below for {} were not paid by the due date of the return and remain unpaid as of {today}.",
                periods.join(", ")
            ),
            "Interest on unpaid tax continues to accrue from the due date of the return until the first day of the month following the month in which the tax is paid. Please pay the total owed to the Clerk-Treasurer, or contact the office if you believe this notice is in error.".to_owned(),
        ],
        amounts,
        citations,
        journal_id: None,
        cause_type: "payor".to_owned(),
        cause_id: payor_id.to_owned(),
    };
    let actor = Actor::of(ctx)?;
    let row = notices::issue(
        conn,
        municipality_id,
        &draft,
        &ctx.caller.actor().to_string(),
    )?;
    actor.log_write(conn, ctx, "notice", &row.id, "create")?;
    Ok((row, draft))
}
