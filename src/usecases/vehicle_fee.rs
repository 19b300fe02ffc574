//! Montello's vehicle registration fee: recording the DOT's remittances and
//! their corrections, spending from the segregated fund, and the fund's
//! statement.
//!
//! Contract (issue 10 item 9; Montello vehicle registration fee, fee ¶, DOT
//! retention ¶, purpose ¶; Wis. Stat. § 341.35):
//! - who: the clerk-treasurer and staff (`Action::RecordVehicleFees`, a
//!   person) record and read; every other role related to the municipality
//!   403, anyone else 404. The fund is not confidential (no payor in it) but
//!   not public either: it is the treasurer's book, so readers are those who
//!   keep it;
//! - a municipality whose policy has never had a vehicle fee (Hayward) gets
//!   409 `no_vehicle_fee`, saying so, on every operation; a remittance or a
//!   spending dated where no policy in force has the fee, likewise;
//! - a remittance is recorded per calendar quarter (`domain::vehicle_fee`),
//!   once (409 `already_recorded` on a second; the `UNIQUE (municipality,
//!   period, version)` makes a concurrent second one a 409 too); the figures
//!   are computed by `domain::vehicle_fee::reconcile` from the policy
//!   governing the quarter (in force on its last day), and the row keeps that
//!   policy's fee, retention and effective date, so a past remittance reads
//!   the same forever;
//! - the fund is `municipality:vehicle_fee_fund`, the restricted part of the
//!   city's cash (not a cash account of its own): each remittance posts what
//!   was actually received (cash debited, fund credited), never the expected
//!   net, so a short or over payment shows as its difference while the fund
//!   holds exactly what arrived;
//! - a correction is the quarter's next version, with its figures as
//!   corrected and a reason; it posts the difference between its amount
//!   received and the previous version's (possibly negative or zero), on its
//!   own `received_on` (not before the previous version's); nothing is ever
//!   updated. A correction that takes back more than the fund can give up on
//!   that date is 409 `exceeds_fund_balance`;
//! - spending names one of the ordinance's purposes (409
//!   `purpose_not_allowed`, citing the fee ¶, for any other) and may not
//!   exceed what the fund holds on `spent_on` and keeps holding every later
//!   day (409 `exceeds_fund_balance`); writes that move the fund hold its lock
//!   (`db::vehicle_fee::lock_fund`) so two at once cannot both spend the same
//!   money;
//! - a spending recorded in error is reversed by a new entry (append-only:
//!   the spending stays), once (409 `already_reversed`; the database's
//!   UNIQUE holds it under concurrency), dated `reversed_on`, not before the
//!   spending nor after today, with a reason; its journal puts the amount
//!   back into the fund, so a reversal can never overdraw it; the fund's
//!   statement lists it (`spending_reversed`) and its spending total is net
//!   of reversals;
//! - every fault of a body is a 422 naming the field and the rule, all at
//!   once; free text goes through `registry::text::one_line`;
//! - each write is in the access log (`vehicle_fee_remittance` `create` /
//!   `correct`, `vehicle_fee_spending` `create`); reads are not (nothing
//!   confidential). No amount or payee goes to the application log.

mod check;
mod statement;

pub use check::{Checked, check};
pub use statement::{FundEntry, FundStatement, statement};

use chrono::{Datelike, NaiveDate, Utc};

use crate::{
    db::{
        self, DbConn,
        vehicle_fee::{RemittanceRow, ReversalRow, SpendingRow},
    },
    domain::{
        Money, Period, Policy, PolicyHistory,
        ledger::Journal,
        vehicle_fee::{
            FundLine, Reconciled, SpendingPurpose, available_on, balance_on,
            parse_remittance_quarter, reconcile, remittance_journal, spending_journal,
            spending_reversal_journal,
        },
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        judge::{not_after_today, one_line},
        ledger,
        payors::Actor,
    },
};

/// Longest reference (the DOT's payment or deposit reference), in characters.
pub const REFERENCE_MAX: usize = 100;
/// Longest payee name, in characters.
pub const PAYEE_MAX: usize = 200;
/// Longest description or correction reason, in characters.
pub const DESCRIPTION_MAX: usize = 500;

/// A remittance as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewRemittance {
    /// The quarter, as sent (`2026-Q1`).
    pub period: String,
    /// Registrations the DOT collected the fee on.
    pub vehicle_count: i64,
    /// What the DOT actually remitted.
    pub amount_received: Money,
    /// The local date it was received.
    pub received_on: NaiveDate,
    /// The DOT's payment reference.
    pub reference: String,
}

/// A correction of a quarter's remittance: the quarter's figures as corrected.
#[derive(Debug, Clone)]
pub struct NewCorrection {
    /// Registrations, as corrected.
    pub vehicle_count: i64,
    /// What the DOT remitted for the quarter in all, as corrected.
    pub amount_received: Money,
    /// The local date the difference was received (or the entry error found).
    pub received_on: NaiveDate,
    /// The reference of the further payment or of the correction.
    pub reference: String,
    /// Why the quarter is corrected.
    pub reason: String,
}

/// A payment out of the fund as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewSpending {
    /// The local date it was paid.
    pub spent_on: NaiveDate,
    /// The amount.
    pub amount: Money,
    /// Who was paid.
    pub payee: String,
    /// The purpose, as sent (one of [`SpendingPurpose`]'s names).
    pub purpose: String,
    /// What was paid for.
    pub description: String,
}

/// The reversal of a spending recorded in error, as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewReversal {
    /// The local date of the reversal: not before the spending, not after today.
    pub reversed_on: NaiveDate,
    /// Why the spending was recorded in error.
    pub reason: String,
}

/// A reversal recorded, with the spending it reverses and the balance after.
#[derive(Debug, Clone)]
pub struct RecordedReversal {
    /// The stored reversal.
    pub row: ReversalRow,
    /// The spending reversed.
    pub spending: SpendingRow,
    /// Its purpose.
    pub purpose: SpendingPurpose,
    /// The fund's balance at the end of `reversed_on`, this reversal included.
    pub balance_after: Money,
}

/// A version of a quarter's remittance, with its figures explained.
#[derive(Debug, Clone)]
pub struct RemittanceVersion {
    /// The stored row.
    pub row: RemittanceRow,
    /// Gross, retention, expected net, difference and status.
    pub reconciled: Reconciled,
    /// Whether a later version corrects it.
    pub superseded: bool,
}

/// A spending recorded, with the fund's balance after it.
#[derive(Debug, Clone)]
pub struct RecordedSpending {
    /// The stored row.
    pub row: SpendingRow,
    /// Its purpose.
    pub purpose: SpendingPurpose,
    /// The fund's balance at the end of `spent_on`, this spending included.
    pub balance_after: Money,
}

fn conflict(field: &str, rule: &str, message: impl Into<String>) -> ApiError {
    ApiError::RuleConflict(FieldError::new(field, rule, message.into()))
}

fn vehicles(count: i64, faults: &mut Vec<FieldError>) -> u32 {
    match u32::try_from(count) {
        Ok(n) => n,
        Err(_) if count < 0 => {
            faults.push(FieldError::new(
                "vehicle_count",
                "not_negative",
                "a count of registrations is 0 or more",
            ));
            0
        }
        Err(_) => {
            faults.push(FieldError::new(
                "vehicle_count",
                "max",
                format!("must be at most {}", u32::MAX),
            ));
            0
        }
    }
}

fn not_negative(field: &str, amount: Money, faults: &mut Vec<FieldError>) {
    if amount.is_negative() {
        faults.push(FieldError::new(
            field,
            "not_negative",
            format!("must not be negative (got {amount})"),
        ));
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("vehicle fee: {e}"))
}

/// Refuse the readers the ordinance's book is not for: the clerk-treasurer
/// and staff read it (the same people who record it); other related roles
/// 403 with a reading's words, anyone else 404.
pub fn may_read(ctx: &MunicipalityContext) -> Result<(), ApiError> {
    ctx.require(Action::RecordVehicleFees).map_err(|e| match e {
        ApiError::Forbidden(_) => ApiError::Forbidden(
            "your role in this municipality may not read the vehicle registration fee fund".into(),
        ),
        other => other,
    })
}

/// The municipality's policy history, refused (409 `no_vehicle_fee`) when no
/// version of it has ever levied a vehicle registration fee.
pub fn fee_history(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
) -> Result<PolicyHistory, ApiError> {
    let history = db::policies::load_history(conn, ctx.municipality_id)?;
    if history
        .versions()
        .iter()
        .all(|p| p.vehicle_registration_fee.is_none())
    {
        let name = history
            .latest()
            .map(|p| p.municipality.clone())
            .unwrap_or_else(|| "this municipality".into());
        return Err(conflict(
            "municipality",
            "no_vehicle_fee",
            format!(
                "{name} levies no vehicle registration fee: no version of its ordinance (policy) has one, so there are no DOT remittances and no segregated fund to record"
            ),
        ));
    }
    Ok(history)
}

/// The policy that governs `date` and has the fee, or 409 saying there is none.
fn fee_policy_on<'h>(
    history: &'h PolicyHistory,
    date: NaiveDate,
    field: &str,
    what: &str,
) -> Result<&'h Policy, ApiError> {
    history
        .in_force_on(date)
        .filter(|p| p.vehicle_registration_fee.is_some())
        .ok_or_else(|| {
            conflict(
                field,
                "no_vehicle_fee_in_force",
                format!("no policy in force on {date} ({what}) levies a vehicle registration fee"),
            )
        })
}

/// The figures of a stored version, computed again from the policy version it
/// used (found by its effective date); an internal error if they disagree with
/// what was stored.
fn reconciled_of(history: &PolicyHistory, row: &RemittanceRow) -> Result<Reconciled, ApiError> {
    let policy = history
        .versions()
        .iter()
        .find(|p| p.effective_from == row.policy_effective_from)
        .ok_or_else(|| internal("a remittance names a policy version that does not exist"))?;
    let count = u32::try_from(row.vehicle_count).map_err(internal)?;
    let r = reconcile(policy, count, Money::from_cents(row.received_cents)).map_err(internal)?;
    let rule = policy
        .vehicle_registration_fee
        .as_ref()
        .ok_or_else(|| internal("a remittance names a policy version without the fee"))?;
    if (
        rule.fee_per_vehicle.value.cents(),
        rule.dot_retention_per_vehicle.value.cents(),
    ) != (row.fee_per_vehicle_cents, row.retention_per_vehicle_cents)
    {
        return Err(internal("a stored remittance does not compute as stored"));
    }
    Ok(r)
}

/// The fund's movements (its ledger lines).
fn fund(conn: &mut DbConn, municipality_id: i64) -> Result<Vec<FundLine>, ApiError> {
    Ok(db::vehicle_fee::fund_lines(conn, municipality_id)?
        .into_iter()
        .map(|(posted_on, amount_cents)| FundLine {
            posted_on,
            amount_cents,
        })
        .collect())
}

/// Post `journal` and store `row` pointing at it; log the write.
fn store_remittance(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    mut row: RemittanceRow,
    journal: &Journal,
    action: &str,
) -> Result<RemittanceRow, ApiError> {
    row.journal_id = ledger::post(conn, ctx.municipality_id, journal)?;
    db::vehicle_fee::insert_remittance(conn, &row)?;
    Actor::of(ctx)?.log_write(conn, ctx, "vehicle_fee_remittance", &row.id, action)?;
    Ok(row)
}

struct Figures {
    period: Period,
    vehicles: u32,
    received: Money,
    reference: String,
}

fn row_of(
    ctx: &MunicipalityContext,
    figures: &Figures,
    policy: &Policy,
    version: i32,
    posted: Money,
    received_on: NaiveDate,
    reason: Option<String>,
) -> Result<(RemittanceRow, Reconciled, Journal), ApiError> {
    let reconciled = reconcile(policy, figures.vehicles, figures.received)?;
    let rule = policy
        .vehicle_registration_fee
        .as_ref()
        .ok_or_else(|| internal("the policy chosen has no fee"))?;
    let id = db::identity::new_id();
    let journal =
        remittance_journal(&id, figures.period, version, received_on, posted).map_err(internal)?;
    let row = RemittanceRow {
        municipality_id: ctx.municipality_id,
        id,
        period: figures.period.to_string(),
        version,
        vehicle_count: i64::from(figures.vehicles),
        fee_per_vehicle_cents: rule.fee_per_vehicle.value.cents(),
        retention_per_vehicle_cents: rule.dot_retention_per_vehicle.value.cents(),
        policy_effective_from: policy.effective_from,
        received_cents: figures.received.cents(),
        posted_cents: posted.cents(),
        received_on,
        reference: figures.reference.clone(),
        reason,
        journal_id: String::new(),
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    Ok((row, reconciled, journal))
}

/// The figures a remittance and its correction both give, judged alike: the quarter
/// (`period`), the vehicle count, the amount received (not negative) and the date
/// received (not after today). Faults go to `faults`; the quarter is `None` when
/// refused.
fn remittance_figures(
    period: &str,
    vehicle_count: i64,
    amount_received: Money,
    received_on: NaiveDate,
    today: NaiveDate,
    faults: &mut Vec<FieldError>,
) -> (Option<Period>, u32) {
    let period = match parse_remittance_quarter("period", period) {
        Ok(p) => Some(p),
        Err(e) => {
            faults.push(e.into());
            None
        }
    };
    let count = vehicles(vehicle_count, faults);
    not_negative("amount_received", amount_received, faults);
    not_after_today("received_on", received_on, today, faults);
    (period, count)
}

/// Record the DOT's remittance for a quarter (see the module doc).
pub fn record_remittance(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    body: NewRemittance,
    today: NaiveDate,
) -> Result<RemittanceVersion, ApiError> {
    ctx.require(Action::RecordVehicleFees)?;
    let history = fee_history(conn, ctx)?;
    let mut faults = Vec::new();
    let (period, count) = remittance_figures(
        &body.period,
        body.vehicle_count,
        body.amount_received,
        body.received_on,
        today,
        &mut faults,
    );
    if let Some(p) = period
        && body.received_on < p.first_day()
    {
        faults.push(FieldError::new(
            "received_on",
            "before_period",
            format!(
                "the DOT remits a quarter's fees after they are collected: not before {}",
                p.first_day()
            ),
        ));
    }
    let reference = one_line("reference", &body.reference, REFERENCE_MAX, &mut faults);
    ApiError::refused(faults)?;
    let period = period.expect("refused above when absent");
    let policy = fee_policy_on(
        &history,
        period.last_day(),
        "period",
        &format!("the last day of {period}"),
    )?;
    db::vehicle_fee::lock_fund(conn, ctx.municipality_id)?;
    if let Some(last) =
        db::vehicle_fee::versions_of(conn, ctx.municipality_id, &period.to_string())?.last()
    {
        return Err(conflict(
            "period",
            "already_recorded",
            format!(
                "the DOT's remittance for {period} is already recorded (version {}): correct it with POST .../vehicle-fee-remittances/{period}/corrections, never a second recording",
                last.version
            ),
        ));
    }
    let figures = Figures {
        period,
        vehicles: count,
        received: body.amount_received,
        reference,
    };
    let (row, reconciled, journal) = row_of(
        ctx,
        &figures,
        policy,
        1,
        body.amount_received,
        body.received_on,
        None,
    )?;
    let row = store_remittance(conn, ctx, row, &journal, "create")?;
    Ok(RemittanceVersion {
        row,
        reconciled,
        superseded: false,
    })
}

/// Correct a quarter's remittance with its next version (see the module doc).
pub fn correct_remittance(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    period: &str,
    body: NewCorrection,
    today: NaiveDate,
) -> Result<RemittanceVersion, ApiError> {
    ctx.require(Action::RecordVehicleFees)?;
    let history = fee_history(conn, ctx)?;
    let mut faults = Vec::new();
    let (period, count) = remittance_figures(
        period,
        body.vehicle_count,
        body.amount_received,
        body.received_on,
        today,
        &mut faults,
    );
    let reference = one_line("reference", &body.reference, REFERENCE_MAX, &mut faults);
    let reason = one_line("reason", &body.reason, DESCRIPTION_MAX, &mut faults);
    ApiError::refused(faults)?;
    let period = period.expect("refused above when absent");
    db::vehicle_fee::lock_fund(conn, ctx.municipality_id)?;
    let versions = db::vehicle_fee::versions_of(conn, ctx.municipality_id, &period.to_string())?;
    let previous = versions
        .last()
        .ok_or(ApiError::NotFound("vehicle fee remittance"))?;
    let mut faults = Vec::new();
    if body.received_on < previous.received_on {
        faults.push(FieldError::new(
            "received_on",
            "before_previous_version",
            format!(
                "a correction is posted on or after the version it corrects (version {} on {})",
                previous.version, previous.received_on
            ),
        ));
    }
    let received = body.amount_received;
    if i64::from(count) == previous.vehicle_count && received.cents() == previous.received_cents {
        faults.push(FieldError::new(
            "amount_received",
            "no_change",
            format!(
                "version {} already records {} vehicle(s) and {received} received: nothing to correct",
                previous.version, previous.vehicle_count
            ),
        ));
    }
    ApiError::refused(faults)?;
    let policy = fee_policy_on(
        &history,
        period.last_day(),
        "period",
        &format!("the last day of {period}"),
    )?;
    let posted = received - Money::from_cents(previous.received_cents);
    if posted.is_negative() {
        let lines = fund(conn, ctx.municipality_id)?;
        let available = available_on(&lines, body.received_on);
        if -posted > available {
            return Err(conflict(
                "amount_received",
                "exceeds_fund_balance",
                format!(
                    "the correction takes {} back out of the fund, which can give up at most {available} on {} without being overdrawn then or later",
                    -posted, body.received_on
                ),
            ));
        }
    }
    let figures = Figures {
        period,
        vehicles: count,
        received,
        reference,
    };
    let (row, reconciled, journal) = row_of(
        ctx,
        &figures,
        policy,
        previous.version + 1,
        posted,
        body.received_on,
        Some(reason),
    )?;
    let row = store_remittance(conn, ctx, row, &journal, "correct")?;
    Ok(RemittanceVersion {
        row,
        reconciled,
        superseded: false,
    })
}

/// Every version of the remittances, by quarter then version, filtered to a
/// year or a quarter when asked (the clerk-treasurer and staff).
pub fn remittances(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    year: Option<i32>,
    period: Option<Period>,
) -> Result<Vec<RemittanceVersion>, ApiError> {
    may_read(ctx)?;
    let history = fee_history(conn, ctx)?;
    let mut rows: Vec<(Period, RemittanceRow)> =
        db::vehicle_fee::all_remittances(conn, ctx.municipality_id)?
            .into_iter()
            .map(|r| Ok((Period::parse(&r.period).map_err(internal)?, r)))
            .collect::<Result<_, ApiError>>()?;
    rows.retain(|(p, _)| {
        year.is_none_or(|y| p.first_day().year() == y) && period.is_none_or(|q| q == *p)
    });
    rows.sort_by(|(a, x), (b, y)| a.cmp(b).then(x.version.cmp(&y.version)));
    let mut out = Vec::with_capacity(rows.len());
    for (i, (p, row)) in rows.iter().enumerate() {
        let superseded = rows.get(i + 1).is_some_and(|(next, _)| next == p);
        out.push(RemittanceVersion {
            reconciled: reconciled_of(&history, row)?,
            row: row.clone(),
            superseded,
        });
    }
    Ok(out)
}

/// Record a payment out of the fund (see the module doc).
pub fn record_spending(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    body: NewSpending,
    today: NaiveDate,
) -> Result<RecordedSpending, ApiError> {
    ctx.require(Action::RecordVehicleFees)?;
    let history = fee_history(conn, ctx)?;
    let mut faults = Vec::new();
    not_after_today("spent_on", body.spent_on, today, &mut faults);
    if body.amount.is_negative() || body.amount.is_zero() {
        faults.push(FieldError::new(
            "amount",
            "positive",
            "a payment is more than 0.00",
        ));
    }
    let payee = one_line("payee", &body.payee, PAYEE_MAX, &mut faults);
    let purpose_text = one_line("purpose", &body.purpose, REFERENCE_MAX, &mut faults);
    let description = one_line(
        "description",
        &body.description,
        DESCRIPTION_MAX,
        &mut faults,
    );
    ApiError::refused(faults)?;
    fee_policy_on(&history, body.spent_on, "spent_on", "the day spent")?;
    let purpose = SpendingPurpose::parse(&purpose_text)
        .map_err(|e| conflict("purpose", "purpose_not_allowed", e.to_string()))?;
    db::vehicle_fee::lock_fund(conn, ctx.municipality_id)?;
    let lines = fund(conn, ctx.municipality_id)?;
    let available = available_on(&lines, body.spent_on);
    if body.amount > available {
        let held = balance_on(&lines, body.spent_on);
        return Err(conflict(
            "amount",
            "exceeds_fund_balance",
            format!(
                "the fund holds {held} on {}; at most {available} may be spent that day without overdrawing it then or later: the fee's revenue is segregated ({})",
                body.spent_on,
                crate::domain::vehicle_fee::FUND_CITATION
            ),
        ));
    }
    let id = db::identity::new_id();
    let journal = spending_journal(&id, body.spent_on, purpose, body.amount).map_err(internal)?;
    let journal_id = ledger::post(conn, ctx.municipality_id, &journal)?;
    let row = SpendingRow {
        municipality_id: ctx.municipality_id,
        id,
        spent_on: body.spent_on,
        amount_cents: body.amount.cents(),
        payee,
        purpose: purpose.as_str().to_owned(),
        description,
        journal_id,
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::vehicle_fee::insert_spending(conn, &row)?;
    Actor::of(ctx)?.log_write(conn, ctx, "vehicle_fee_spending", &row.id, "create")?;
    let lines = fund(conn, ctx.municipality_id)?;
    Ok(RecordedSpending {
        balance_after: balance_on(&lines, row.spent_on),
        row,
        purpose,
    })
}

/// Reverse spending `spending_id`, recorded in error (see the module doc).
pub fn reverse_spending(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    spending_id: &str,
    body: NewReversal,
    today: NaiveDate,
) -> Result<RecordedReversal, ApiError> {
    ctx.require(Action::RecordVehicleFees)?;
    fee_history(conn, ctx)?;
    let municipality_id = ctx.municipality_id;
    let spending = db::vehicle_fee::spending(conn, municipality_id, spending_id)?
        .ok_or(ApiError::NotFound("spending"))?;
    let mut faults = Vec::new();
    not_after_today("reversed_on", body.reversed_on, today, &mut faults);
    if body.reversed_on < spending.spent_on {
        faults.push(FieldError::new(
            "reversed_on",
            "before_spending",
            format!(
                "must not be before the spending it reverses ({})",
                spending.spent_on
            ),
        ));
    }
    let reason = one_line("reason", &body.reason, DESCRIPTION_MAX, &mut faults);
    ApiError::refused(faults)?;
    db::vehicle_fee::lock_fund(conn, municipality_id)?;
    if db::vehicle_fee::all_reversals(conn, municipality_id)?
        .iter()
        .any(|r| r.spending_id == spending.id)
    {
        return Err(conflict(
            "spending",
            "already_reversed",
            "this spending has already been reversed: a spending is reversed once (record a new spending for what was really paid)",
        ));
    }
    let purpose = SpendingPurpose::parse(&spending.purpose)
        .map_err(|_| internal("a stored spending has an unknown purpose"))?;
    let journal = spending_reversal_journal(
        &spending.id,
        body.reversed_on,
        Money::from_cents(spending.amount_cents),
    )
    .map_err(internal)?;
    let journal_id = ledger::post(conn, municipality_id, &journal)?;
    let row = ReversalRow {
        municipality_id,
        id: db::identity::new_id(),
        spending_id: spending.id.clone(),
        reversed_on: body.reversed_on,
        reason,
        journal_id,
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::vehicle_fee::insert_reversal(conn, &row)?;
    Actor::of(ctx)?.log_write(conn, ctx, "vehicle_fee_spending", &spending.id, "reverse")?;
    let lines = fund(conn, municipality_id)?;
    Ok(RecordedReversal {
        balance_after: balance_on(&lines, row.reversed_on),
        row,
        spending,
        purpose,
    })
}
