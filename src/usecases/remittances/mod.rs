//! Member remittances to the zone: submitting a quarter's collected totals
//! (and correcting them), previewing them, and marking the commission's share
//! transferred (issue 10, items 1 and 2). The zone's view and the seats are
//! in [`view`].
//!
//! Contract:
//! - only the clerk-treasurer, a person (`Action::SubmitRemittances`; Montello
//!   room tax, distribution ¶A gives the distribution to the municipality);
//!   related roles 403, anyone else 404; the body is judged after that;
//! - the quarter (`period`, e.g. `2026-Q1`) must have ended (422 `period`
//!   `not_ended`), and a zone membership must cover its last day (409
//!   `period` `not_a_zone_member`, citing Wis. Stat. § 66.0615(1m)(c) and the
//!   distribution ¶A): that zone receives it, as a quote's distribution does;
//! - "administers its payors here" is decided from data: a municipality with
//!   any payor in its registry has its figures computed from its ledger
//!   (`source` `ledger`; sending `gross_receipts`, `tax_collected` or
//!   `payor_count` is then 422 `computed_from_ledger`); one with none enters
//!   them (`source` `entered`; each is required, amounts not negative, tax at
//!   most the receipts). From the ledger: the tax principal received in the
//!   quarter, by the date received: every line on a payor's `tax` account in a
//!   payment, its reversal, credit applied or a security deposit applied
//!   (`db::remittances::RECEIPT_KINDS`) whose journal is dated in the quarter,
//!   whatever period the tax was charged for. Credit applied counts on the
//!   date it was applied (until then it is the payor's money, refundable, not
//!   tax); tax overpaid moved back to credit counts as given back on that date.
//!   Interest, fees and penalties stay with the municipality (the policy's
//!   `distribution.applies_to`, `tax_principal_received`, the only base);
//! - the split is the policy governing the quarter (`domain::remittance`);
//! - idempotent per municipality and period: the same figures as the latest
//!   version answer that version (200, nothing posted); other figures are a
//!   new version whose journal (kind and cause `remittance`) debits
//!   `municipality:revenue:tax` and credits `municipality:commission_payable`
//!   with the difference of the commission's share from the previous version;
//! - a transfer pays what is outstanding of the period's commission share
//!   (the latest version's share less earlier transfers), recorded on the
//!   latest version only (409 `superseded`), once per version (409
//!   `already_paid`), not before the version was submitted (422 `paid_on`
//!   `before_submission`) nor after today; nothing outstanding is 409
//!   `nothing_outstanding`. Its journal (kind `remittance_transfer`, cause the
//!   version) debits the payable and credits `municipality:cash`;
//! - no payor id or per-payor amount leaves this module: only totals.

pub mod view;

use std::collections::BTreeSet;

use chrono::{NaiveDate, Utc};
use rust_decimal::Decimal;

use crate::{
    db::{
        self, DbConn,
        remittances::{RemittanceRow, TransferRow},
    },
    domain::{
        Money, Period,
        explain::Line,
        ledger::{Account, Cause, Component, Journal, JournalKind, JournalLine},
        registry::text::one_line,
        remittance::{
            Figures, NOT_A_MEMBER_CITATION, TaxReceipt, VersionSplit, check_entered,
            ledger_figures, split_version,
        },
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
};

/// Where a version's figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Computed from the municipality's ledger.
    Ledger,
    /// Entered by the clerk (the tax is administered elsewhere).
    Entered,
}

impl Source {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Ledger => "ledger",
            Source::Entered => "entered",
        }
    }
}

/// A submission as the clerk sends it.
#[derive(Debug, Clone, Default)]
pub struct Submission {
    /// The quarter, as sent.
    pub period: String,
    /// Entered totals (a municipality administering its tax elsewhere).
    pub gross_receipts: Option<Money>,
    /// Entered tax collected.
    pub tax_collected: Option<Money>,
    /// Entered number of payors.
    pub payor_count: Option<i64>,
}

/// What a quarter's remittance comes to now (a preview, or the version to record).
#[derive(Debug, Clone)]
pub struct Computed {
    /// The quarter.
    pub period: Period,
    /// The zone receiving it.
    pub zone_id: i64,
    /// The zone's slug.
    pub zone: String,
    /// Where the figures come from.
    pub source: Source,
    /// The figures.
    pub figures: Figures,
    /// The policy's commission share.
    pub commission_share: Decimal,
    /// The split and the difference from the latest version.
    pub split: VersionSplit,
    /// The latest version, if the quarter was submitted before.
    pub latest: Option<RemittanceRow>,
}

/// A version, with the zone it went to and its explanation.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The stored version.
    pub row: RemittanceRow,
    /// The zone's slug.
    pub zone: String,
    /// The split's lines (codes `commission_share`, `municipality_share`).
    pub lines: Vec<Line>,
    /// The id of the journal this version posted (none when answered unchanged).
    pub journal_id: Option<String>,
    /// Whether this request recorded it (false: the same figures were on file).
    pub created: bool,
}

/// The quarter named by `raw`: a quarter that has ended before `today`.
pub fn ended_quarter(raw: &str, today: NaiveDate) -> Result<Period, ApiError> {
    let period = Period::parse(raw.trim())
        .map_err(|e| ApiError::invalid("period", e.rule(), e.to_string()))?;
    if !period.is_quarter() {
        return Err(ApiError::invalid(
            "period",
            "quarter",
            "a remittance is for a calendar quarter, e.g. \"2026-Q1\"",
        ));
    }
    if period.last_day() >= today {
        return Err(ApiError::invalid(
            "period",
            "not_ended",
            format!(
                "{period} ends on {}: its remittance can be submitted from the day after",
                period.last_day()
            ),
        ));
    }
    Ok(period)
}

/// The latest version of each period among `rows` (any order).
pub fn latest_of<'a>(rows: &'a [RemittanceRow], period: &str) -> Option<&'a RemittanceRow> {
    rows.iter()
        .filter(|r| r.period == period)
        .max_by_key(|r| r.version)
}

/// Compute the quarter's remittance (see the module doc); nothing is written.
pub fn compute(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    body: &Submission,
    today: NaiveDate,
) -> Result<Computed, ApiError> {
    ctx.require(Action::SubmitRemittances)?;
    let municipality_id = ctx.municipality_id;
    let period = ended_quarter(&body.period, today)?;
    let last_day = period.last_day();
    let Some((_, zone)) = db::municipalities::memberships_on(conn, &[municipality_id], last_day)?
        .into_iter()
        .next()
    else {
        return Err(ApiError::RuleConflict(FieldError::new(
            "period",
            "not_a_zone_member",
            format!(
                "the municipality is not a member of a tourism zone on {last_day}, the last day of {period}: it has no commission to remit to ({NOT_A_MEMBER_CITATION})"
            ),
        )));
    };
    let history = db::policies::load_history(conn, municipality_id)?;
    let policy = history.governing(&period)?.clone();
    let (source, figures) = if db::remittances::administers_payors(conn, municipality_id)? {
        let faults = [
            ("gross_receipts", body.gross_receipts.is_some()),
            ("tax_collected", body.tax_collected.is_some()),
            ("payor_count", body.payor_count.is_some()),
        ]
        .into_iter()
        .filter(|(_, sent)| *sent)
        .map(|(field, _)| {
            FieldError::new(
                field,
                "computed_from_ledger",
                "the municipality administers its payors here: its totals are computed from its ledger, not entered",
            )
        })
        .collect();
        ApiError::refused(faults)?;
        let receipts = tax_receipts(conn, municipality_id, &period)?;
        let figures = ledger_figures(&receipts, |p| {
            history.for_period(p).map(|policy| policy.rate.value)
        })?;
        (Source::Ledger, figures)
    } else {
        let missing: Vec<FieldError> = [
            ("gross_receipts", body.gross_receipts.is_none()),
            ("tax_collected", body.tax_collected.is_none()),
            ("payor_count", body.payor_count.is_none()),
        ]
        .into_iter()
        .filter(|(_, absent)| *absent)
        .map(|(field, _)| {
            FieldError::new(
                field,
                "required",
                "the municipality administers its tax elsewhere: enter its totals",
            )
        })
        .collect();
        ApiError::refused(missing)?;
        let figures = Figures {
            gross_receipts: body.gross_receipts.unwrap_or_default(),
            tax_collected: body.tax_collected.unwrap_or_default(),
            payor_count: body.payor_count.unwrap_or_default(),
        };
        let faults: Vec<FieldError> = check_entered(&figures)
            .into_iter()
            .map(FieldError::from)
            .collect();
        ApiError::refused(faults)?;
        (Source::Entered, figures)
    };
    let versions = db::remittances::of_municipality(conn, municipality_id, &[period.to_string()])?;
    let latest = latest_of(&versions, &period.to_string()).cloned();
    let split = split_version(
        &policy,
        figures.tax_collected,
        latest
            .as_ref()
            .map(|l| Money::from_cents(l.commission_cents)),
    );
    Ok(Computed {
        period,
        zone_id: zone.id,
        zone: zone.slug,
        source,
        figures,
        commission_share: policy.distribution.value.commission_share,
        split,
        latest,
    })
}

/// The preview of a quarter's remittance computed from the ledger (a
/// municipality entering its totals has nothing to preview: 409
/// `municipality` `entered_totals`).
pub fn preview(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    period: Result<String, ApiError>,
    today: NaiveDate,
) -> Result<Computed, ApiError> {
    ctx.require(Action::SubmitRemittances)?;
    let period = period?;
    if !db::remittances::administers_payors(conn, ctx.municipality_id)? {
        return Err(ApiError::RuleConflict(FieldError::new(
            "municipality",
            "entered_totals",
            "the municipality administers its tax elsewhere: its clerk enters the totals, so there is nothing to compute",
        )));
    }
    compute(
        conn,
        ctx,
        &Submission {
            period,
            ..Submission::default()
        },
        today,
    )
}

/// The quarter's tax receipts from the municipality's ledger (the lines
/// `db::remittances::RECEIPT_KINDS` names, by the date received); also the
/// public statistics' source for a municipality in no zone.
pub fn tax_receipts(
    conn: &mut DbConn,
    municipality_id: i64,
    quarter: &Period,
) -> Result<Vec<TaxReceipt>, ApiError> {
    let mut receipts = Vec::new();
    for (name, cents) in db::remittances::receipt_lines(
        conn,
        municipality_id,
        quarter.first_day(),
        quarter.last_day(),
    )? {
        let account = Account::parse(&name)
            .map_err(|e| ApiError::internal(format!("stored ledger line: {e}")))?;
        if let Account::Payor {
            payor_id,
            period,
            component: Component::Tax,
        } = account
        {
            // A credit to the receivable is tax received: negate the sign.
            receipts.push(TaxReceipt {
                payor_id,
                period,
                amount: -Money::from_cents(cents),
            });
        }
    }
    Ok(receipts)
}

fn same_figures(row: &RemittanceRow, c: &Computed) -> bool {
    row.source == c.source.as_str()
        && row.gross_receipts_cents == c.figures.gross_receipts.cents()
        && row.tax_collected_cents == c.figures.tax_collected.cents()
        && i64::from(row.payor_count) == c.figures.payor_count
}

/// Submit the quarter (see the module doc): the version on file when the
/// figures are the same, else a new version and its journal.
pub fn submit(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    body: &Submission,
    today: NaiveDate,
) -> Result<Recorded, ApiError> {
    let computed = compute(conn, ctx, body, today)?;
    if let Some(latest) = computed
        .latest
        .as_ref()
        .filter(|l| same_figures(l, &computed))
    {
        return Ok(Recorded {
            row: latest.clone(),
            zone: computed.zone.clone(),
            lines: computed.split.lines.clone(),
            journal_id: None,
            created: false,
        });
    }
    let payor_count = i32::try_from(computed.figures.payor_count)
        .map_err(|_| ApiError::invalid("payor_count", "too_large", "at most 2147483647"))?;
    let row = RemittanceRow {
        municipality_id: ctx.municipality_id,
        id: db::identity::new_id(),
        zone_id: computed.zone_id,
        period: computed.period.to_string(),
        version: computed.latest.as_ref().map_or(1, |l| l.version + 1),
        source: computed.source.as_str().to_owned(),
        gross_receipts_cents: computed.figures.gross_receipts.cents(),
        tax_collected_cents: computed.figures.tax_collected.cents(),
        payor_count,
        commission_share: computed.commission_share.normalize().to_string(),
        commission_cents: computed.split.distribution.commission.cents(),
        retained_cents: computed.split.distribution.municipality.cents(),
        commission_difference_cents: computed.split.commission_difference.cents(),
        submitted_on: today,
        submitted_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::remittances::insert(conn, &row)?;
    let difference = computed.split.commission_difference;
    let journal = Journal::new(
        JournalKind::Remittance,
        today,
        Cause::Remittance {
            remittance_id: row.id.clone(),
        },
        format!(
            "remittance of {} to the zone's commission, version {}",
            row.period, row.version
        ),
        vec![
            JournalLine::debit(Account::Revenue(Component::Tax), difference),
            JournalLine::credit(Account::CommissionPayable, difference),
        ],
    )
    .map_err(|e| ApiError::internal(format!("a remittance's journal: {e}")))?;
    let journal_id = crate::usecases::ledger::post(conn, ctx.municipality_id, &journal)?;
    Ok(Recorded {
        row,
        zone: computed.zone,
        lines: computed.split.lines,
        journal_id: Some(journal_id),
        created: true,
    })
}

/// How the commission's share was paid.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TransferMethod {
    /// A check.
    Check,
    /// An ACH transfer.
    Ach,
    /// A card payment.
    Card,
    /// Cash.
    Cash,
    /// A wire transfer.
    Wire,
}

impl TransferMethod {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TransferMethod::Check => "check",
            TransferMethod::Ach => "ach",
            TransferMethod::Card => "card",
            TransferMethod::Cash => "cash",
            TransferMethod::Wire => "wire",
        }
    }

    /// The method stored as `text` (`check` for anything unknown: the
    /// database's CHECK admits only the five).
    pub fn of(text: &str) -> TransferMethod {
        match text {
            "ach" => TransferMethod::Ach,
            "card" => TransferMethod::Card,
            "cash" => TransferMethod::Cash,
            "wire" => TransferMethod::Wire,
            _ => TransferMethod::Check,
        }
    }
}

/// A transfer as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewTransfer {
    /// The local date the share was paid.
    pub paid_on: NaiveDate,
    /// How.
    pub method: TransferMethod,
    /// Check number or transaction id (1 to 100 characters, one line).
    pub reference: String,
}

/// A transfer recorded, with its version and journal.
#[derive(Debug, Clone)]
pub struct RecordedTransfer {
    /// The stored transfer.
    pub row: TransferRow,
    /// The version it paid.
    pub remittance: RemittanceRow,
    /// Its journal's id.
    pub journal_id: String,
}

/// Mark the commission's share of version `id` paid (see the module doc).
pub fn transfer(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    id: &str,
    body: NewTransfer,
    today: NaiveDate,
) -> Result<RecordedTransfer, ApiError> {
    ctx.require(Action::SubmitRemittances)?;
    let municipality_id = ctx.municipality_id;
    let mut faults = Vec::new();
    crate::usecases::judge::not_after_today("paid_on", body.paid_on, today, &mut faults);
    let reference = match one_line("reference", &body.reference, 100) {
        Ok(r) => Some(r),
        Err(e) => {
            faults.push(e.into());
            None
        }
    };
    ApiError::refused(faults)?;
    let version = db::remittances::by_id(conn, municipality_id, id)?
        .ok_or(ApiError::NotFound("remittance"))?;
    let periods = [version.period.clone()];
    let versions = db::remittances::of_municipality(conn, municipality_id, &periods)?;
    if latest_of(&versions, &version.period).is_some_and(|l| l.id != version.id) {
        return Err(ApiError::RuleConflict(FieldError::new(
            "remittance",
            "superseded",
            format!(
                "version {} of {} was corrected by a later version: record the transfer on the latest",
                version.version, version.period
            ),
        )));
    }
    let transfers = db::remittances::transfers_of_municipality(conn, municipality_id, &periods)?;
    if transfers.iter().any(|t| t.remittance_id == version.id) {
        return Err(ApiError::RuleConflict(FieldError::new(
            "remittance",
            "already_paid",
            "the commission's share of this version is already marked paid",
        )));
    }
    if body.paid_on < version.submitted_on {
        return Err(ApiError::invalid(
            "paid_on",
            "before_submission",
            format!(
                "must not be before the version was submitted ({})",
                version.submitted_on
            ),
        ));
    }
    let paid: i64 = transfers.iter().map(|t| t.amount_cents).sum();
    let amount = version.commission_cents - paid;
    if amount <= 0 {
        return Err(ApiError::RuleConflict(FieldError::new(
            "remittance",
            "nothing_outstanding",
            format!(
                "nothing of the commission's share of {} is outstanding",
                version.period
            ),
        )));
    }
    let row = TransferRow {
        municipality_id,
        id: db::identity::new_id(),
        remittance_id: version.id.clone(),
        zone_id: version.zone_id,
        period: version.period.clone(),
        paid_on: body.paid_on,
        amount_cents: amount,
        method: body.method.as_str().to_owned(),
        reference: reference.unwrap_or_default(),
        recorded_by: ctx.caller.actor().to_string(),
        created_at: Utc::now().naive_utc(),
    };
    db::remittances::insert_transfer(conn, &row)?;
    let journal = Journal::new(
        JournalKind::RemittanceTransfer,
        body.paid_on,
        Cause::Remittance {
            remittance_id: version.id.clone(),
        },
        format!(
            "commission share of {} paid to the commission",
            version.period
        ),
        vec![
            JournalLine::debit(Account::CommissionPayable, Money::from_cents(amount)),
            JournalLine::credit(Account::Cash, Money::from_cents(amount)),
        ],
    )
    .map_err(|e| ApiError::internal(format!("a transfer's journal: {e}")))?;
    let journal_id = crate::usecases::ledger::post(conn, municipality_id, &journal)?;
    Ok(RecordedTransfer {
        row,
        remittance: version,
        journal_id,
    })
}

/// `roomtax check` on remittances: each version has one `remittance` journal
/// moving its commission difference from tax revenue to the payable; each
/// transfer one `remittance_transfer` journal moving its amount from the
/// payable to cash; a version's split sums to its tax. Violations go to
/// `broken`; returns how many versions were checked.
pub fn check(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    journals: &[db::ledger::JournalRow],
    lines: &std::collections::BTreeMap<String, Vec<db::ledger::LineRow>>,
    broken: &mut Vec<String>,
) -> Result<usize, ApiError> {
    let (versions, transfers) = db::remittances::all(conn, municipality_id)?;
    let sum_on = |journal_id: &str, account: &str| -> i64 {
        lines
            .get(journal_id)
            .into_iter()
            .flatten()
            .filter(|l| l.account == account)
            .map(|l| l.amount_cents)
            .sum()
    };
    let of = |id: &str, kind: JournalKind| -> Vec<&db::ledger::JournalRow> {
        journals
            .iter()
            .filter(|j| j.cause_type == "remittance" && j.cause_id == id && j.kind == kind.as_str())
            .collect()
    };
    let ids: BTreeSet<&str> = versions.iter().map(|v| v.id.as_str()).collect();
    for v in &versions {
        let name = format!("{slug}: remittance {} version {}", v.period, v.version);
        if v.commission_cents + v.retained_cents != v.tax_collected_cents {
            broken.push(format!("{name}: its split does not sum to its tax"));
        }
        match of(&v.id, JournalKind::Remittance)[..] {
            [j] if sum_on(&j.id, "municipality:commission_payable")
                == -v.commission_difference_cents => {}
            ref posted => broken.push(format!(
                "{name} has {} remittance journal(s) (expected one crediting the payable with {})",
                posted.len(),
                Money::from_cents(v.commission_difference_cents)
            )),
        }
    }
    for t in &transfers {
        match of(&t.remittance_id, JournalKind::RemittanceTransfer)[..] {
            [j] if sum_on(&j.id, "municipality:cash") == -t.amount_cents
                && j.posted_on == t.paid_on => {}
            _ => broken.push(format!(
                "{slug}: transfer {} has no journal paying its amount out of cash on the day paid",
                t.id
            )),
        }
    }
    for j in journals {
        if j.cause_type == "remittance" && !ids.contains(j.cause_id.as_str()) {
            broken.push(format!(
                "{slug}: journal {} names remittance {}, which does not exist",
                j.id, j.cause_id
            ));
        }
    }
    Ok(versions.len())
}
