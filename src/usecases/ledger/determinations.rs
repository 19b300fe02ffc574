//! Determinations: the clerk-treasurer's audits, non-filer estimates and
//! fraud findings, their charges and their written notices (issue 9 item 6).
//!
//! Contract:
//! - made only by the clerk-treasurer, a person (`Action::MakeDeterminations`:
//!   the ordinances give the determination to the Clerk-Treasurer; staff read
//!   them); related roles 403, anyone else 404; read by the clerk-treasurer,
//!   staff and the payor's own operator (`account_reader`), anyone else 404,
//!   every read in the access log (`determination`, its id);
//! - every fault of the body at once (422): `basis` 1 to 4,000 characters;
//!   `period` a quarter (the annual return only reconciles quarters) that has
//!   ended by `determined_on`; `determined_on` (default today, the
//!   municipality's local date) not after today and not before the payor's
//!   latest payment (payments were applied in that order) nor before any
//!   later posting on the payor's accounts (`before_latest_posting`: credit
//!   applied, a refund, a security application read the balances on their
//!   day; a charge dated before them would be paid or refunded twice); the
//!   figures of the kind and no others (`not_for_kind`);
//! - audits (`office_audit`, `field_audit`) need a return on file for the
//!   period; the clerk gives the audited `gross_receipts` (and
//!   `exempt_receipts`) or the `tax_found`; the charge is the tax found less
//!   the tax already charged to the period (by its return, amendments, annual
//!   adjustments and earlier audits): negative when the audit finds less.
//!   Interest on it is computed from the return's due date, never posted
//!   ahead (the statement accrues it; a payment posts it);
//! - `non_filer_estimate`: only for a period with no return filed, after its
//!   filing due date, once per period (409 `already_estimated`); tax on the
//!   `estimated_receipts` plus the 10 % penalty (`compute::non_filer_estimate`;
//!   Hayward's $5,000 cap per calendar year summed over the payor's earlier
//!   estimates of that year, from the stored determinations). A return filed
//!   later for the period takes back the estimate's tax
//!   ([`replace_estimates`], called from `post_return_version`); the penalty
//!   stands;
//! - `fraud`: a return on file; 50 % (`compute::fraud_penalty`) of the tax
//!   required to be paid for the period: the whole tax charged to the period
//!   as determined, that is its return's tax as amended and as corrected by
//!   any audit made before (make the audit first, then the fraud finding),
//!   exclusive of interest and other penalties. We read "the tax required to
//!   be paid" as the period's tax, not only the part the return left out: the
//!   ordinance adds the penalty "to the tax required to be paid". A second
//!   fraud finding for the period charges only the difference from the
//!   penalty already charged (after a later audit);
//! - audits and fraud findings are refused after the four-year limit
//!   (`domain::determination::check_limit`, Wis. Stat. § 66.0615(2)(a)).
//!   A determination is "made in writing" when it is recorded here (its
//!   notice is issued in the same unit of work), so the limit is judged on
//!   the recording day (today); `determined_on` may be earlier (the day the
//!   clerk decided) but never before the payor's latest posting, and a
//!   backdated `determined_on` does not move the limit;
//! - in one unit of work: the journal (kind `determination`, cause the
//!   determination), the written notice (`usecases::notices::issue`, kind
//!   `estimate` or `determination`, with the journal's id), the append-only
//!   row, the access-log write; the payor's row is locked first
//!   (`db::payments::lock_payor`) so the cap and the latest payment are read
//!   consistently.

use chrono::{Datelike, NaiveDate};

use crate::{
    db::{self, DbConn, determinations::DeterminationRow, notices::NoticeRow},
    domain::{
        DomainError, Line, Money, Period, Policy,
        compute::{fraud_penalty, non_filer_estimate, quarterly_due_date, tax, tax_on_taxable},
        determination::{
            DeterminationKind, DeterminedCharge, ESTIMATE_STATUTE, LIMIT_CITATION, check_limit,
            determination_journal, limit_deadline, penalties_in_year, replacement_journal,
        },
        explain::percent,
        ledger::{Component, JournalKind, PeriodTerms},
        notice::{NoticeAmount, NoticeDraft, NoticeKind},
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        payors::Actor,
        returns::{PayorTerms, VersionRecord},
    },
};

/// A determination as the clerk-treasurer enters it.
#[derive(Debug, Clone)]
pub struct NewDetermination {
    /// Its kind.
    pub kind: DeterminationKind,
    /// The quarter determined.
    pub period: Period,
    /// The local date it is made; today when absent.
    pub determined_on: Option<NaiveDate>,
    /// The clerk's written basis.
    pub basis: String,
    /// Audits: the audited gross receipts.
    pub gross_receipts: Option<Money>,
    /// Audits: the audited exempt receipts (default 0.00 with `gross_receipts`).
    pub exempt_receipts: Option<Money>,
    /// Audits: the tax found due, instead of receipts.
    pub tax_found: Option<Money>,
    /// Estimates: the estimated gross receipts.
    pub estimated_receipts: Option<Money>,
}

/// What a determination stores beside its amounts (the row's `content`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredContent {
    /// Audits: the audited gross receipts; estimates: the estimated receipts.
    pub gross_receipts: Option<Money>,
    /// Audits: the audited exempt receipts.
    pub exempt_receipts: Option<Money>,
    /// The period's tax the determination found (audit: the audited tax;
    /// estimate: the estimated tax; fraud: the tax the penalty is 50 % of).
    pub tax_found: Option<Money>,
    /// The four-year limit's last day (none for an estimate).
    pub limit_date: Option<NaiveDate>,
    /// The engine's explained lines.
    pub lines: Vec<Line>,
    /// The provisions relied on.
    pub citations: Vec<String>,
}

/// A stored determination with its content.
#[derive(Debug, Clone)]
pub struct DeterminationRecord {
    /// The stored row.
    pub row: DeterminationRow,
    /// Its kind.
    pub kind: DeterminationKind,
    /// Its quarter.
    pub period: Period,
    /// Its figures, explained lines and citations.
    pub content: StoredContent,
}

impl DeterminationRecord {
    /// Read a stored row back.
    pub fn from_row(row: DeterminationRow) -> Result<Self, ApiError> {
        let kind = DeterminationKind::parse(&row.kind)
            .ok_or_else(|| ApiError::internal("stored determination has an unknown kind"))?;
        let period = Period::parse(&row.period)
            .map_err(|_| ApiError::internal("stored determination has an invalid period"))?;
        let content = serde_json::from_str(&row.content)
            .map_err(|e| ApiError::internal(format!("a stored determination: {e}")))?;
        Ok(Self {
            row,
            kind,
            period,
            content,
        })
    }
}

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

fn one(field: &str, rule: &str, message: impl Into<String>) -> ApiError {
    ApiError::Validation(vec![FieldError::new(field, rule, message)])
}

/// The faults of the body alone (see the module doc).
fn judge_body(
    body: &NewDetermination,
    determined_on: NaiveDate,
    today: NaiveDate,
) -> Vec<FieldError> {
    let mut faults = Vec::new();
    let basis = body.basis.trim();
    if basis.is_empty() {
        faults.push(FieldError::new(
            "basis",
            "non_empty",
            "state the basis of the determination",
        ));
    } else if basis.chars().count() > 4000 {
        faults.push(FieldError::new(
            "basis",
            "max_length",
            "at most 4000 characters",
        ));
    }
    crate::usecases::judge::not_after_today("determined_on", determined_on, today, &mut faults);
    if !body.period.is_quarter() {
        faults.push(FieldError::new(
            "period",
            "quarter_only",
            "a determination is made for a calendar quarter (the annual return reconciles quarters)",
        ));
    } else if determined_on <= body.period.last_day() {
        faults.push(FieldError::new(
            "determined_on",
            "before_period_end",
            format!(
                "{} ends on {}: it can be determined after that day",
                body.period,
                body.period.last_day()
            ),
        ));
    }
    let mut not_for = |field: &str, given: bool| {
        if given {
            faults.push(FieldError::new(
                field,
                "not_for_kind",
                format!("not a figure of a {} determination", body.kind),
            ));
        }
    };
    let kind = body.kind;
    not_for(
        "gross_receipts",
        !kind.is_audit() && body.gross_receipts.is_some(),
    );
    not_for(
        "exempt_receipts",
        !kind.is_audit() && body.exempt_receipts.is_some(),
    );
    not_for("tax_found", !kind.is_audit() && body.tax_found.is_some());
    not_for(
        "estimated_receipts",
        kind != DeterminationKind::NonFilerEstimate && body.estimated_receipts.is_some(),
    );
    let negative = |field: &str, m: Option<Money>, faults: &mut Vec<FieldError>| {
        if m.is_some_and(|m| m.is_negative()) {
            faults.push(FieldError::new(
                field,
                "not_negative",
                "must not be negative",
            ));
        }
    };
    for (field, m) in [
        ("gross_receipts", body.gross_receipts),
        ("exempt_receipts", body.exempt_receipts),
        ("tax_found", body.tax_found),
        ("estimated_receipts", body.estimated_receipts),
    ] {
        negative(field, m, &mut faults);
    }
    if kind.is_audit() {
        match (body.gross_receipts, body.tax_found) {
            (None, None) => faults.push(FieldError::new(
                "gross_receipts",
                "required",
                "an audit states the audited gross_receipts (and exempt_receipts) or the tax_found",
            )),
            (Some(_), Some(_)) => faults.push(FieldError::new(
                "tax_found",
                "one_of",
                "give the audited receipts or the tax found, not both",
            )),
            (None, Some(_)) if body.exempt_receipts.is_some() => faults.push(FieldError::new(
                "exempt_receipts",
                "one_of",
                "exempt receipts go with gross_receipts, not with tax_found",
            )),
            _ => {}
        }
    }
    if kind == DeterminationKind::NonFilerEstimate && body.estimated_receipts.is_none() {
        faults.push(FieldError::new(
            "estimated_receipts",
            "required",
            "an estimate states the estimated gross receipts",
        ));
    }
    faults
}

/// The due date of a quarter's return per the policy, and its filing due
/// date (extended when the clerk granted an extension).
fn due_dates_without_return(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    policy: &Policy,
    period: &Period,
) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let due = quarterly_due_date(policy, period).map_err(domain)?.date;
    let extended = db::returns::extensions::of_payor(conn, municipality_id, payor_id)?
        .into_iter()
        .find(|e| e.status == "granted" && e.period == period.to_string())
        .and_then(|e| e.extended_to);
    Ok((due, extended.unwrap_or(due)))
}

/// The terms of a period charged without a return (an estimate): the policy,
/// the due date its return had, the previous year's tax. `None` when the
/// payor has no determination of the period (the caller skips it). The
/// payment and statement use cases call this for periods without a return;
/// `stored_by`: the previous year's tax as the versions stored by then gave
/// it (`None`: now).
pub(crate) fn terms_without_return(
    conn: &mut DbConn,
    terms: &PayorTerms,
    period: &Period,
    stored_by: Option<chrono::NaiveDateTime>,
) -> Result<Option<PeriodTerms>, ApiError> {
    let municipality_id = terms.payor.municipality_id;
    let payor_id = terms.payor.id.as_str();
    if !period.is_quarter()
        || db::determinations::of_payor_period(
            conn,
            municipality_id,
            payor_id,
            &period.to_string(),
        )?
        .is_empty()
    {
        return Ok(None);
    }
    let policy = terms.history.governing(period).map_err(domain)?.clone();
    let (due_date, filing_due_date) =
        due_dates_without_return(conn, municipality_id, payor_id, &policy, period)?;
    Ok(Some(PeriodTerms {
        previous_year_tax: crate::usecases::returns::previous_year_tax_stored_by(
            conn,
            municipality_id,
            payor_id,
            period,
            stored_by,
        )?,
        policy,
        due_date,
        filing_due_date,
    }))
}

/// What a determination computed: its explained lines, charges, figures.
struct Computed {
    lines: Vec<Line>,
    charges: Vec<DeterminedCharge>,
    tax_found: Option<Money>,
    limit_date: Option<NaiveDate>,
    due_date: NaiveDate,
    citations: Vec<String>,
}

fn charge(component: Component, amount: Money) -> DeterminedCharge {
    DeterminedCharge { component, amount }
}

/// Make a determination (see the module doc).
pub fn make(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    payor_id: &str,
    body: NewDetermination,
    today: NaiveDate,
) -> Result<DeterminationRecord, ApiError> {
    ctx.require(Action::MakeDeterminations)?;
    let municipality_id = ctx.municipality_id;
    let determined_on = body.determined_on.unwrap_or(today);
    let faults = judge_body(&body, determined_on, today);
    ApiError::refused(faults)?;
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    if let Some(latest) = db::payments::of_payor(conn, municipality_id, payor_id)?
        .iter()
        .map(|p| p.received_on)
        .max()
        && determined_on < latest
    {
        return Err(one(
            "determined_on",
            "before_latest_payment",
            format!(
                "a payment of this payor received {latest} is already recorded: a determination is dated on or after it"
            ),
        ));
    }
    let kinds = JournalKind::ALL.map(JournalKind::as_str);
    if let Some(latest) = db::ledger::latest_posted_of_kinds(
        conn,
        municipality_id,
        &crate::domain::ledger::Account::payor_prefix(payor_id),
        &kinds,
    )? && determined_on < latest
    {
        return Err(one(
            "determined_on",
            "before_latest_posting",
            format!(
                "this payor's ledger has a posting of {latest}: a determination is dated on or after it"
            ),
        ));
    }
    let period = body.period;
    let policy = terms.history.governing(&period).map_err(domain)?.clone();
    let authority = body.kind.authority(slug).to_owned();
    let header =
        db::returns::of_payor_period(conn, municipality_id, payor_id, &period.to_string())?;
    let computed = match body.kind {
        DeterminationKind::NonFilerEstimate => {
            if header.is_some() {
                return Err(one(
                    "period",
                    "return_filed",
                    format!(
                        "a return for {period} is on file: audit it (office_audit or field_audit) instead of estimating"
                    ),
                ));
            }
            estimate(conn, &terms, &policy, &body, determined_on, authority)?
        }
        _ => {
            let Some(header) = header else {
                return Err(one(
                    "period",
                    "no_return_filed",
                    format!(
                        "no return for {period} is on file: a non-filer is estimated (non_filer_estimate)"
                    ),
                ));
            };
            let versions = db::returns::versions_of_many(
                conn,
                municipality_id,
                std::slice::from_ref(&header.id),
            )?;
            let latest = versions
                .into_iter()
                .last()
                .ok_or_else(|| ApiError::internal("a return without versions"))?;
            let assessment = VersionRecord::from_row(latest)?.assessed.assessment;
            // Made in writing when recorded: the limit is judged on the day
            // it is recorded (today, never before `determined_on`), so a
            // backdated `determined_on` cannot reach past the deadline.
            check_limit(Some(assessment.filing_due_date), today.max(determined_on))
                .map_err(domain)?;
            let book = super::payments::book_as_of(conn, municipality_id, payor_id, today)?;
            let mut c = if body.kind == DeterminationKind::Fraud {
                fraud(&policy, &book, &period, authority)?
            } else {
                audit(&policy, &book, &period, &body, authority)?
            };
            c.limit_date = Some(limit_deadline(assessment.filing_due_date));
            c.due_date = assessment.due_date;
            c.citations.push(LIMIT_CITATION.to_owned());
            c
        }
    };
    let id = db::identity::new_id();
    let journal = determination_journal(
        payor_id,
        &id,
        period,
        determined_on,
        body.kind,
        &computed.charges,
    )
    .map_err(domain)?;
    let journal_id = super::post(conn, municipality_id, &journal)?;
    let actor = ctx.caller.actor().to_string();
    let basis = body.basis.trim().to_owned();
    let draft = notice(
        &terms,
        &policy,
        &id,
        &journal_id,
        body.kind,
        period,
        determined_on,
        &basis,
        &computed,
    );
    let notice: NoticeRow = crate::usecases::notices::issue(conn, municipality_id, &draft, &actor)?;
    let amount_of = |component: Component| -> i64 {
        computed
            .charges
            .iter()
            .filter(|c| c.component == component)
            .map(|c| c.amount.cents())
            .sum()
    };
    let row = DeterminationRow {
        municipality_id,
        id: id.clone(),
        payor_id: payor_id.to_owned(),
        kind: body.kind.as_str().to_owned(),
        period: period.to_string(),
        determined_on,
        basis,
        tax_charged_cents: amount_of(Component::Tax),
        estimate_penalty_cents: amount_of(Component::EstimatePenalty),
        fraud_penalty_cents: amount_of(Component::FraudPenalty),
        content: to_json(&StoredContent {
            gross_receipts: body.gross_receipts.or(body.estimated_receipts),
            exempt_receipts: match (body.kind.is_audit(), body.gross_receipts) {
                (true, Some(_)) => Some(body.exempt_receipts.unwrap_or_default()),
                _ => None,
            },
            tax_found: computed.tax_found,
            limit_date: computed.limit_date,
            lines: computed.lines,
            citations: computed.citations,
        })?,
        journal_id,
        notice_id: notice.id,
        determined_by: actor,
        created_at: db::identity::now(),
    };
    db::determinations::insert(conn, &row)?;
    super::credit::apply_credit(
        conn,
        municipality_id,
        payor_id,
        determined_on,
        crate::domain::ledger::Cause::Determination {
            determination_id: id.clone(),
        },
    )?;
    Actor::of(ctx)?.log_write(conn, ctx, "determination", &id, "create")?;
    DeterminationRecord::from_row(row)
}

/// A stored list as JSON.
fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value)
        .map_err(|e| ApiError::internal(format!("a determination's content: {e}")))
}

fn estimate(
    conn: &mut DbConn,
    terms: &PayorTerms,
    policy: &Policy,
    body: &NewDetermination,
    determined_on: NaiveDate,
    authority: String,
) -> Result<Computed, ApiError> {
    let municipality_id = terms.payor.municipality_id;
    let payor_id = terms.payor.id.as_str();
    let period = body.period;
    let (due_date, filing_due) =
        due_dates_without_return(conn, municipality_id, payor_id, policy, &period)?;
    if determined_on <= filing_due {
        return Err(one(
            "determined_on",
            "return_not_yet_due",
            format!(
                "the return for {period} is due by {filing_due}: a non-filer is estimated after that day"
            ),
        ));
    }
    let earlier = db::determinations::of_payor(conn, municipality_id, payor_id)?;
    if earlier.iter().any(|d| {
        d.kind == DeterminationKind::NonFilerEstimate.as_str() && d.period == period.to_string()
    }) {
        return Err(ApiError::RuleConflict(FieldError::new(
            "period",
            "already_estimated",
            format!(
                "{period} is already estimated: a return filed for it replaces the estimate's tax"
            ),
        )));
    }
    let mut penalties = Vec::new();
    for d in &earlier {
        if d.kind == DeterminationKind::NonFilerEstimate.as_str() {
            let p = Period::parse(&d.period)
                .map_err(|_| ApiError::internal("stored determination has an invalid period"))?;
            penalties.push((p, Money::from_cents(d.estimate_penalty_cents)));
        }
    }
    let already = penalties_in_year(&penalties, period.last_day().year());
    let receipts = body.estimated_receipts.unwrap_or_default();
    let e = non_filer_estimate(policy, receipts, already).map_err(domain)?;
    let charges = vec![
        charge(Component::Tax, e.tax.amount),
        charge(Component::EstimatePenalty, e.penalty.amount),
    ];
    let citations = vec![
        authority,
        policy.non_filer_penalty.citation.to_string(),
        ESTIMATE_STATUTE.to_owned(),
        policy.interest_monthly_rate.citation.to_string(),
    ];
    Ok(Computed {
        tax_found: Some(e.tax.amount),
        lines: vec![e.tax, e.penalty],
        charges,
        limit_date: None,
        due_date,
        citations,
    })
}

fn audit(
    policy: &Policy,
    book: &crate::domain::ledger::PayorBook,
    period: &Period,
    body: &NewDetermination,
    authority: String,
) -> Result<Computed, ApiError> {
    let found = match (body.gross_receipts, body.tax_found) {
        (Some(gross), _) => {
            let mut l =
                tax(policy, gross, body.exempt_receipts.unwrap_or_default()).map_err(domain)?;
            l.code = "tax_found".into();
            l.explanation = format!("audited: {}", l.explanation);
            l
        }
        (None, Some(t)) => Line::new(
            "tax_found",
            t,
            format!("tax found due by the audit: {t}"),
            &authority,
        ),
        (None, None) => tax_on_taxable(policy, Money::ZERO),
    };
    let assessed = book.component(period, Component::Tax).charged;
    let difference = found.amount - assessed;
    let diff = Line::new(
        "audit_difference",
        difference,
        format!(
            "tax found {} less tax already assessed for {period} {assessed} = {difference}",
            found.amount
        ),
        &authority,
    )
    .input("tax_found", found.amount)
    .input("tax_assessed", assessed);
    Ok(Computed {
        tax_found: Some(found.amount),
        charges: vec![charge(Component::Tax, difference)],
        lines: vec![found, diff],
        limit_date: None,
        due_date: period.last_day(),
        citations: vec![authority, policy.interest_monthly_rate.citation.to_string()],
    })
}

fn fraud(
    policy: &Policy,
    book: &crate::domain::ledger::PayorBook,
    period: &Period,
    authority: String,
) -> Result<Computed, ApiError> {
    let required = book.component(period, Component::Tax).charged;
    let mut penalty = fraud_penalty(policy, required).map_err(domain)?;
    let already = book.component(period, Component::FraudPenalty).charged;
    let amount = penalty.amount - already;
    if !already.is_zero() {
        penalty.explanation = format!(
            "{}; {already} already charged for {period}, so {amount} now",
            penalty.explanation
        );
        penalty = penalty.input("already_charged", already);
    }
    Ok(Computed {
        tax_found: Some(required),
        charges: vec![charge(Component::FraudPenalty, amount)],
        lines: vec![penalty],
        limit_date: None,
        due_date: period.last_day(),
        citations: vec![authority, policy.fraud_penalty_rate.citation.to_string()],
    })
}

/// The written notice of a determination (see the module doc).
#[allow(clippy::too_many_arguments)]
fn notice(
    terms: &PayorTerms,
    policy: &Policy,
    id: &str,
    journal_id: &str,
    kind: DeterminationKind,
    period: Period,
    determined_on: NaiveDate,
    basis: &str,
    c: &Computed,
) -> NoticeDraft {
    let payor = &terms.payor;
    let mut addressee = vec![payor.legal_name.clone()];
    if let Some(dba) = &payor.dba {
        addressee.push(format!("d/b/a {dba}"));
    }
    addressee.extend(payor.mailing_address.lines().map(str::to_owned));
    let mut paragraphs = vec![
        format!(
            "On {determined_on} the Clerk-Treasurer of the {} made the following {} of the room tax for {period}.",
            policy.municipality,
            match kind {
                DeterminationKind::OfficeAudit => "office audit determination",
                DeterminationKind::FieldAudit => "field audit determination",
                DeterminationKind::NonFilerEstimate => "estimate, no return having been filed,",
                DeterminationKind::Fraud =>
                    "determination that a false or fraudulent return was filed",
            }
        ),
        format!("Basis: {basis}"),
    ];
    paragraphs.extend(c.lines.iter().map(|l| l.explanation.clone()));
    paragraphs.push(format!(
        "The amounts below are due upon this notice. Unpaid tax bears interest from the due date of the return, {}, until the first day of the month following the month in which it is paid ({}).",
        c.due_date, policy.interest_monthly_rate.citation
    ));
    paragraphs.push(match kind {
        DeterminationKind::NonFilerEstimate => format!(
            "Your rights: this estimate stands until a correct return for {period} is filed; a return filed for the period replaces the estimate's tax, and the penalty stands. {ESTIMATE_STATUTE}."
        ),
        _ => format!(
            "Your rights: the ordinance provides no appeal or redetermination procedure of its own. You may give the Clerk-Treasurer records showing the tax due for {period}; the Clerk-Treasurer may make a further determination for the period until {} ({LIMIT_CITATION}).",
            c.limit_date.map(|d| d.to_string()).unwrap_or_default()
        ),
    });
    let label = |component: Component| match component {
        Component::Tax if kind.is_audit() => "Additional tax found by audit".to_owned(),
        Component::Tax => "Tax on the estimated receipts".to_owned(),
        Component::EstimatePenalty => format!(
            "Penalty on the estimate ({})",
            percent(policy.non_filer_penalty.value.rate)
        ),
        Component::FraudPenalty => format!(
            "Fraud penalty ({} of the tax)",
            percent(policy.fraud_penalty_rate.value)
        ),
        other => other.as_str().to_owned(),
    };
    NoticeDraft {
        kind: if kind == DeterminationKind::NonFilerEstimate {
            NoticeKind::Estimate
        } else {
            NoticeKind::Determination
        },
        payor_id: payor.id.clone(),
        issued_on: determined_on,
        title: format!("{}, {period}", kind.title()),
        addressee,
        paragraphs,
        amounts: c
            .charges
            .iter()
            .map(|ch| NoticeAmount {
                label: label(ch.component),
                period: Some(period.to_string()),
                amount: ch.amount,
            })
            .collect(),
        citations: c.citations.clone(),
        journal_id: Some(journal_id.to_owned()),
        cause_type: "determination".to_owned(),
        cause_id: id.to_owned(),
    }
}

/// When a return is first filed for a period the payor's estimate covered,
/// post the journal taking back the estimate's tax (kind `estimate_replaced`,
/// on the filing date); its penalty stands. At most once per estimate (the
/// ledger's unique key on cause and kind). Called from
/// `usecases::ledger::post_return_version` for every version; only an
/// original filing (`source` `filed`) of a quarter replaces anything. It
/// takes the payor's lock (`db::payments::lock_payor`) as the estimate does,
/// so a return and an estimate of the same quarter made at the same moment
/// never both charge its tax.
pub fn replace_estimates(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    row: &db::returns::VersionRow,
    period: &Period,
) -> Result<(), ApiError> {
    if row.source != "filed" || !period.is_quarter() {
        return Ok(());
    }
    // An estimate made at the same moment either committed before this lock
    // (and is replaced here) or waits for it and then sees the return.
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let estimates =
        db::determinations::of_payor_period(conn, municipality_id, payor_id, &period.to_string())?;
    for d in estimates
        .iter()
        .filter(|d| d.kind == DeterminationKind::NonFilerEstimate.as_str())
    {
        let done = db::ledger::of_cause(conn, municipality_id, "determination", &d.id)?
            .iter()
            .any(|j| j.kind == JournalKind::EstimateReplaced.as_str());
        if done {
            continue;
        }
        let journal = replacement_journal(
            payor_id,
            &d.id,
            *period,
            row.filed_on,
            Money::from_cents(d.tax_charged_cents),
        )
        .map_err(domain)?;
        super::post(conn, municipality_id, &journal)?;
    }
    Ok(())
}

/// The payor's determinations (see the module doc), each read logged.
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
) -> Result<Vec<DeterminationRecord>, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let municipality_id = ctx.municipality_id;
    db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let rows = db::determinations::of_payor(conn, municipality_id, payor_id)?;
    let actor = Actor::of(ctx)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        db::access_log::record(
            conn,
            municipality_id,
            &actor.reader(&basis),
            "determination",
            &row.id,
        )?;
        out.push(DeterminationRecord::from_row(row)?);
    }
    Ok(out)
}

/// Every determination of the municipality, newest first (by the date made,
/// then the id): the clerk-treasurer's and staff's register of them
/// (`Action::ReviewReturns`; related roles 403, anyone else 404), each read
/// logged as [`list`] logs it.
pub fn of_municipality(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
) -> Result<Vec<DeterminationRecord>, ApiError> {
    ctx.require(Action::ReviewReturns)?;
    let municipality_id = ctx.municipality_id;
    let basis = ctx.role_basis();
    let actor = Actor::of(ctx)?;
    let mut rows = db::determinations::all(conn, municipality_id)?;
    rows.sort_by(|a, b| {
        b.determined_on
            .cmp(&a.determined_on)
            .then_with(|| b.id.cmp(&a.id))
    });
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        db::access_log::record(
            conn,
            municipality_id,
            &actor.reader(&basis),
            "determination",
            &row.id,
        )?;
        out.push(DeterminationRecord::from_row(row)?);
    }
    Ok(out)
}

/// One determination of the payor (404 when there is none), its read logged.
pub fn get(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    id: &str,
) -> Result<DeterminationRecord, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let municipality_id = ctx.municipality_id;
    let row = db::determinations::get(conn, municipality_id, payor_id, id)?
        .ok_or(ApiError::NotFound("determination"))?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        municipality_id,
        &actor.reader(&basis),
        "determination",
        &row.id,
    )?;
    DeterminationRecord::from_row(row)
}

/// The payor's determinations of each period, for the statement (no log:
/// the statement logs its own read).
pub(crate) fn of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> Result<Vec<DeterminationRecord>, ApiError> {
    db::determinations::of_payor(conn, municipality_id, payor_id)?
        .into_iter()
        .map(DeterminationRecord::from_row)
        .collect()
}

/// `roomtax check` for one municipality's determinations (see
/// `usecases::ledger::check`): the journals they caused, by cause, and the
/// lines by journal are the check's; returns how many were checked.
pub(crate) fn check(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    by_cause: &std::collections::BTreeMap<(String, String), Vec<&db::ledger::JournalRow>>,
    lines: &std::collections::BTreeMap<String, Vec<db::ledger::LineRow>>,
    report: &mut super::check::CheckReport,
) -> Result<usize, ApiError> {
    let rows = db::determinations::all(conn, municipality_id)?;
    let mut seen = std::collections::BTreeSet::new();
    for row in &rows {
        seen.insert(row.id.clone());
        let name = format!("{slug}: determination {}", row.id);
        let record = match DeterminationRecord::from_row(row.clone()) {
            Ok(r) => r,
            Err(_) => {
                report.broken.push(format!("{name} does not parse"));
                continue;
            }
        };
        let posted = by_cause
            .get(&("determination".to_owned(), row.id.clone()))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let stored = |journal_id: &str| -> Vec<(String, i64)> {
            lines
                .get(journal_id)
                .into_iter()
                .flatten()
                .map(|l| (l.account.clone(), l.amount_cents))
                .collect()
        };
        let wanted = |j: &crate::domain::ledger::Journal| -> Vec<(String, i64)> {
            j.lines()
                .iter()
                .map(|l| (l.account.to_string(), l.amount_cents))
                .collect()
        };
        let made: Vec<_> = posted
            .iter()
            .filter(|j| j.kind == JournalKind::Determination.as_str())
            .collect();
        let expected = determination_journal(
            &row.payor_id,
            &row.id,
            record.period,
            row.determined_on,
            record.kind,
            &[
                charge(Component::Tax, Money::from_cents(row.tax_charged_cents)),
                charge(
                    Component::EstimatePenalty,
                    Money::from_cents(row.estimate_penalty_cents),
                ),
                charge(
                    Component::FraudPenalty,
                    Money::from_cents(row.fraud_penalty_cents),
                ),
            ],
        )
        .map_err(domain)?;
        match made.as_slice() {
            [j] if j.id == row.journal_id
                && j.posted_on == row.determined_on
                && stored(&j.id) == wanted(&expected) => {}
            [] => report.broken.push(format!("{name} has no journal")),
            [_] => report.broken.push(format!(
                "{name}: its journal does not post what it determined on {}",
                row.determined_on
            )),
            many => report
                .broken
                .push(format!("{name} has {} journals (expected one)", many.len())),
        }
        let replaced: Vec<_> = posted
            .iter()
            .filter(|j| j.kind == JournalKind::EstimateReplaced.as_str())
            .collect();
        match (record.kind, replaced.as_slice()) {
            (_, []) => {}
            (DeterminationKind::NonFilerEstimate, [j]) => {
                let back = replacement_journal(
                    &row.payor_id,
                    &row.id,
                    record.period,
                    j.posted_on,
                    Money::from_cents(row.tax_charged_cents),
                )
                .map_err(domain)?;
                if stored(&j.id) != wanted(&back) {
                    report.broken.push(format!(
                        "{name}: journal {} does not take back the estimate's tax exactly",
                        j.id
                    ));
                }
            }
            _ => report.broken.push(format!(
                "{name} has {} estimate replacement(s) (at most one, for an estimate)",
                replaced.len()
            )),
        }
        let notices = db::notices::of_cause(conn, municipality_id, "determination", &row.id)?;
        if !notices.iter().any(|n| {
            n.id == row.notice_id && n.journal_id.as_deref() == Some(row.journal_id.as_str())
        }) {
            report
                .broken
                .push(format!("{name} has no notice naming its journal"));
        }
    }
    for ((cause_type, cause_id), posted) in by_cause {
        if cause_type == "determination" && !seen.contains(cause_id) {
            for j in posted {
                report.broken.push(format!(
                    "{slug}: journal {} names determination {cause_id}, which does not exist",
                    j.id
                ));
            }
        }
    }
    Ok(rows.len())
}
