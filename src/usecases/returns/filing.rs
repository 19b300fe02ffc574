//! Filing a return and amending it; an annual return's reconciliation
//! records each quarter's adjustment as a new version of that quarter.
//!
//! Contract:
//! - `preview` assesses a new return exactly as `file` does (the same
//!   judging and assessment, `assess_new`) and stores nothing: the
//!   operator's form shows its figures as they type;
//! - one return per payor and period: filing again is a 409 naming `period`
//!   that points at the return's amendments;
//! - the filing date is `today` (the municipality's local date), or for a
//!   paper return entered by staff its `received_on` (postmark or counter
//!   date, not after today); an operator cannot give one (422);
//! - a period is filed only once it has ended (422 `period_not_ended`);
//! - per-establishment receipts name the payor's own establishments;
//! - a granted extension moves the filing due date (never interest's);
//! - an amendment (`If-Match` on the current version) is assessed on the
//!   original's timing, so its fee and lateness stay; the difference in tax
//!   is owed from the original due date, a decrease is a credit;
//! - an annual return owes only the adjustments of its quarters (and its own
//!   late fee): each quarter whose figures differ gets a version
//!   `annual_adjustment` stating the annual return's receipts for it;
//! - each version is stored with the payor's row locked
//!   (`db::payments::lock_payor`) before the version, its journal and the
//!   credit it takes are written, so a payor's journals commit in the order
//!   they are stored (`usecases::ledger::check` replays payments in it).

use chrono::{NaiveDate, SubsecRound, Utc};

use super::{
    PayorTerms, ReturnRecord, StoredFiling, VersionRecord, previous_year_tax, previous_year_tax_of,
    stored::StoredAssessment,
};
use crate::{
    db::{
        self, DbConn,
        returns::{ReturnRow, VersionRow},
    },
    domain::{
        DomainError, Period,
        registry::Invalid,
        returns::{
            Assessment, Filing, QuarterOnFile, Receipts, Reconciliation, ReturnFiling, Timing,
            amend, assess, assess_receipts, reconcile,
        },
    },
    error::{ApiError, FieldError},
    tenancy::{EnteredAs, MunicipalityContext},
    usecases::payors::{Actor, Precondition},
};

/// Who records a filing: the tenant, the actor (`user:ID`), and whose hand
/// (the operator's own, or staff for it). The API builds it from the
/// authorised context; the demo names its demo users.
#[derive(Debug, Clone)]
pub struct Filer {
    /// The municipality.
    pub municipality_id: i64,
    /// Its slug (for the paths problems point at).
    pub slug: String,
    /// The actor recorded on the version.
    pub entered_by: String,
    /// Operator or staff.
    pub entered_as: EnteredAs,
}

impl Filer {
    /// The caller of `ctx`, authorised to file for `payor_id` (404 otherwise).
    pub fn authorised(
        ctx: &MunicipalityContext,
        slug: &str,
        payor_id: &str,
    ) -> Result<Self, ApiError> {
        Ok(Self {
            municipality_id: ctx.municipality_id,
            slug: slug.to_owned(),
            entered_by: ctx.caller.actor().to_string(),
            entered_as: ctx.return_filer(payor_id)?,
        })
    }
}

fn invalid(field: &str, rule: &str, message: impl Into<String>) -> ApiError {
    ApiError::Validation(vec![FieldError::new(field, rule, message.into())])
}

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

/// The date the filing counts as filed on.
fn filing_date(
    entered_as: EnteredAs,
    received_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<NaiveDate, ApiError> {
    match (entered_as, received_on) {
        (EnteredAs::Operator, Some(_)) => Err(invalid(
            "received_on",
            "staff_only",
            "only the clerk-treasurer or staff entering a paper return give the date it was received; an operator's return is filed today",
        )),
        (EnteredAs::Staff, Some(date)) if date > today => Err(invalid(
            "received_on",
            "in_the_future",
            format!("a return cannot have been received after today ({today})"),
        )),
        (_, Some(date)) => Ok(date),
        (_, None) => Ok(today),
    }
}

/// Parse the body against the policy of its period and the payor's election,
/// and check its establishments are the payor's.
fn parse(
    conn: &mut DbConn,
    terms: &PayorTerms,
    body: ReturnFiling,
    filed_on: NaiveDate,
) -> Result<Filing, ApiError> {
    let period = body.period;
    if filed_on < period.last_day() {
        return Err(invalid(
            "period",
            "period_not_ended",
            format!(
                "{period} ends on {}: its return can be filed from that day",
                period.last_day()
            ),
        ));
    }
    let policy = terms.history.governing(&period).map_err(domain)?;
    let filing = body.parse(policy, terms.election)?;
    if let Some(list) = filing.establishments() {
        let own =
            db::payors::establishments_of(conn, terms.payor.municipality_id, &terms.payor.id)?;
        let faults: Vec<FieldError> = list
            .iter()
            .enumerate()
            .filter(|(_, e)| !own.iter().any(|o| o.id == e.establishment_id))
            .map(|(i, _)| {
                FieldError::new(
                    format!("establishments[{i}].establishment_id"),
                    "unknown_establishment",
                    "not an establishment of this payor".to_owned(),
                )
            })
            .collect();
        if !faults.is_empty() {
            return Err(ApiError::Validation(faults));
        }
    }
    Ok(filing)
}

/// The extended filing due date granted for the payor's period, if any.
fn extension_for(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &Period,
) -> Result<Option<NaiveDate>, ApiError> {
    Ok(
        db::returns::extensions::of_payor(conn, municipality_id, payor_id)?
            .into_iter()
            .find(|e| e.status == "granted" && e.period == period.to_string())
            .and_then(|e| e.extended_to),
    )
}

/// What a new version stores.
struct NewVersion<'a> {
    payor_id: &'a str,
    return_id: &'a str,
    version: i64,
    source: &'a str,
    filed_on: NaiveDate,
    received_on: Option<NaiveDate>,
    entered_as: &'a str,
    receipts: Receipts,
    details: StoredFiling,
    assessed: StoredAssessment,
    amount_due: crate::domain::Money,
}

/// Store a version and post its journal; the row stored (its `created_at`
/// to the microsecond, as both backends keep it), so the answer is built
/// from it without reading it back.
fn insert_version(
    conn: &mut DbConn,
    filer: &Filer,
    v: NewVersion<'_>,
) -> Result<VersionRow, ApiError> {
    // The payor's lock before the version and its journals are written, as
    // every writer to a payor's ledger takes it (payments, determinations,
    // refunds): the journals of one payor are then stored in commit order,
    // which `roomtax check` replays payments in.
    db::payments::lock_payor(conn, filer.municipality_id, v.payor_id)?;
    let row = VersionRow {
        municipality_id: filer.municipality_id,
        return_id: v.return_id.to_owned(),
        version: v.version,
        source: v.source.to_owned(),
        filed_on: v.filed_on,
        received_on: v.received_on,
        entered_by: filer.entered_by.clone(),
        entered_as: v.entered_as.to_owned(),
        gross_receipts_cents: v.receipts.gross_receipts.cents(),
        exempt_receipts_cents: v.receipts.exempt_receipts.cents(),
        tax_cents: v.assessed.assessment.tax.cents(),
        amount_due_cents: v.amount_due.cents(),
        policy_version: v.assessed.assessment.policy_version,
        filing: serde_json::to_string(&v.details).map_err(|e| ApiError::internal(e.to_string()))?,
        assessment: serde_json::to_string(&v.assessed)
            .map_err(|e| ApiError::internal(e.to_string()))?,
        created_at: Utc::now().naive_utc().trunc_subsecs(6),
        due_date: v.assessed.assessment.due_date,
        filing_due_date: v.assessed.assessment.filing_due_date,
    };
    db::returns::insert_version(conn, v.payor_id, &row).map_err(|e| match e {
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ) => ApiError::PreconditionFailed,
        e => e.into(),
    })?;
    // Every stored version posts its journal in the same transaction.
    crate::usecases::ledger::post_return_version(
        conn,
        v.payor_id,
        &row,
        &v.assessed.assessment,
        v.assessed.difference.as_ref(),
    )?;
    Ok(row)
}

fn details_of(filing: &Filing) -> StoredFiling {
    StoredFiling {
        exemptions: filing.exemptions().to_vec(),
        establishments: filing.establishments().map(<[_]>::to_vec),
        nights_sold: filing.nights_sold(),
        quarters: filing.quarters().to_vec(),
        signer: crate::domain::returns::Signer {
            name: filing.signer_name().to_owned(),
            title: filing.signer_title().to_owned(),
        },
        from_annual_return: None,
    }
}

fn receipts_of(filing: &Filing) -> Receipts {
    Receipts {
        period: filing.period(),
        gross_receipts: filing.gross_receipts(),
        exempt_receipts: filing.exempt_receipts(),
    }
}

/// A new return judged and assessed, not stored.
struct Assessed {
    terms: PayorTerms,
    filing: Filing,
    assessment: Assessment,
    filed_on: NaiveDate,
}

/// Judge `body` as a new return of `payor_id` and assess it as filed on its
/// filing date: what [`record_filing`] stores and [`preview`] shows (one
/// path, so the preview is the filing's own figures).
fn assess_new(
    conn: &mut DbConn,
    filer: &Filer,
    payor_id: &str,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<Assessed, ApiError> {
    let entered_as = filer.entered_as;
    let municipality_id = filer.municipality_id;
    let slug = filer.slug.as_str();
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    let received_on = body.received_on;
    let filed_on = filing_date(entered_as, received_on, today)?;
    let filing = parse(conn, &terms, body, filed_on)?;
    let period = filing.period();
    // The payor's returns once: the one already on file for the period, and
    // the previous year's (Montello's late-payment forfeiture).
    let headers = db::returns::of_payor(conn, municipality_id, payor_id)?;
    let stored_period = period.to_string();
    if let Some(existing) = headers.iter().find(|h| h.period == stored_period) {
        return Err(ApiError::RuleConflict(FieldError::new(
            "period",
            "return_already_filed",
            format!(
                "a return for {period} is already on file; amend it with POST /v1/municipalities/{slug}/payors/{payor_id}/returns/{}/amendments",
                existing.id
            ),
        )));
    }
    let timing = Timing {
        filed_on,
        paid_on: None,
        extended_to: extension_for(conn, municipality_id, payor_id, &period)?,
    };
    let previous = previous_year_tax_of(conn, municipality_id, &headers, &period, None)?;
    let assessment =
        assess(&terms.history, &filing, &timing, previous, &terms.zone).map_err(domain)?;
    Ok(Assessed {
        terms,
        filing,
        assessment,
        filed_on,
    })
}

/// What filing `body` today would assess (tax, fee, interest, forfeiture,
/// amount due), computed exactly as [`file`] computes it, storing nothing:
/// the operator's form shows it as they type. Authorised as filing is (404
/// for a payor the caller may not file for); it reads only the payor's
/// terms and shows only figures derived from what the caller typed, so it
/// is not written to the access log.
pub fn preview(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    payor_id: &str,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<Assessment, ApiError> {
    let filer = Filer::authorised(ctx, slug, payor_id)?;
    Ok(assess_new(conn, &filer, payor_id, body, today)?.assessment)
}

/// The exemption codes (code, description) of the policy governing
/// `period`, for the lines of a return's form; authorised as filing is.
pub fn exemption_codes(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    period: &Period,
) -> Result<Vec<(String, String)>, ApiError> {
    ctx.return_filer(payor_id)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    Ok(terms
        .history
        .for_period(period)
        .map(|p| {
            p.exemptions
                .iter()
                .map(|e| (e.code.clone(), e.description.clone()))
                .collect()
        })
        .unwrap_or_default())
}

/// File a return (see the module doc).
pub fn file(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    payor_id: &str,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<ReturnRecord, ApiError> {
    let filer = Filer::authorised(ctx, slug, payor_id)?;
    let record = record_filing(conn, &filer, payor_id, body, today)?;
    Actor::of(ctx)?.log_write(conn, ctx, "return", &record.header.id, "create")?;
    Ok(record)
}

/// [`file`] once authorised, without the access log (the demo files this way).
pub fn record_filing(
    conn: &mut DbConn,
    filer: &Filer,
    payor_id: &str,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<ReturnRecord, ApiError> {
    let entered_as = filer.entered_as;
    let municipality_id = filer.municipality_id;
    let received_on = body.received_on;
    // The payor's lock first (`insert_version` takes it in any case): what
    // the filing reads of the payor's returns then stays true to the end of
    // the unit, and the credit applied after it reads them from the unit's
    // memo (`db::returns::of_payor`).
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let Assessed {
        terms,
        filing,
        assessment,
        filed_on,
    } = assess_new(conn, filer, payor_id, body, today)?;
    let period = filing.period();
    let header = ReturnRow {
        municipality_id,
        id: db::identity::new_id(),
        payor_id: payor_id.to_owned(),
        period: period.to_string(),
        kind: if period.is_quarter() {
            "quarterly"
        } else {
            "annual"
        }
        .to_owned(),
        created_at: Utc::now().naive_utc().trunc_subsecs(6),
    };
    db::returns::insert(conn, &header)?;
    let reconciliation = reconcile_annual(
        conn,
        filer,
        &terms,
        &filing,
        &assessment,
        &header.id,
        entered_as,
        filed_on,
    )?;
    let amount_due = reconciliation
        .as_ref()
        .map(|r| r.amount_due)
        .unwrap_or(assessment.amount_due);
    let version = insert_version(
        conn,
        filer,
        NewVersion {
            payor_id,
            return_id: &header.id,
            version: 1,
            source: "filed",
            filed_on,
            received_on,
            entered_as: entered_as.as_str(),
            receipts: receipts_of(&filing),
            details: details_of(&filing),
            assessed: StoredAssessment {
                assessment,
                difference: None,
                reconciliation,
            },
            amount_due,
        },
    )?;
    super::reading::record_new(conn, municipality_id, header, version)
}

/// Amend a return: a new version, judged against `precondition`.
pub fn amend_return(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
    precondition: Precondition,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<ReturnRecord, ApiError> {
    let filer = Filer::authorised(ctx, "", payor_id)?;
    let record = record_amendment(conn, &filer, payor_id, return_id, precondition, body, today)?;
    Actor::of(ctx)?.log_write(conn, ctx, "return", return_id, "amend")?;
    Ok(record)
}

/// [`amend_return`] once authorised, without the access log (the demo amends this way).
pub fn record_amendment(
    conn: &mut DbConn,
    filer: &Filer,
    payor_id: &str,
    return_id: &str,
    precondition: Precondition,
    body: ReturnFiling,
    today: NaiveDate,
) -> Result<ReturnRecord, ApiError> {
    let entered_as = filer.entered_as;
    let municipality_id = filer.municipality_id;
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    let mut current = super::reading::record_of(conn, municipality_id, payor_id, return_id)?;
    let latest = current.latest();
    precondition.check(latest.row.version)?;
    if body.period.to_string() != current.header.period {
        return Err(invalid(
            "period",
            "not_the_returns_period",
            format!(
                "this return is for {}; an amendment states the same period",
                current.header.period
            ),
        ));
    }
    let received_on = body.received_on;
    let amended_on = filing_date(entered_as, received_on, today)?;
    let filing = parse(conn, &terms, body, amended_on)?;
    let previous_assessment = &latest.assessed.assessment;
    let previous = previous_year_tax(conn, municipality_id, payor_id, &filing.period())?;
    let assessment = assess(
        &terms.history,
        &filing,
        &current.original().assessed.assessment.timing(),
        previous,
        &terms.zone,
    )
    .map_err(domain)?;
    let difference = amend(
        &terms.history,
        previous_assessment,
        &assessment,
        amended_on,
        None,
    )
    .map_err(domain)?;
    let reconciliation = reconcile_annual(
        conn,
        filer,
        &terms,
        &filing,
        &assessment,
        return_id,
        entered_as,
        amended_on,
    )?;
    let amount_due = difference.amount_due
        + reconciliation
            .as_ref()
            .map(|r| r.amount_due - r.annual.amount_due)
            .unwrap_or_default();
    let version = insert_version(
        conn,
        filer,
        NewVersion {
            payor_id,
            return_id,
            version: latest.row.version + 1,
            source: "amended",
            filed_on: amended_on,
            received_on,
            entered_as: entered_as.as_str(),
            receipts: receipts_of(&filing),
            details: details_of(&filing),
            assessed: StoredAssessment {
                assessment,
                difference: Some(difference),
                reconciliation,
            },
            amount_due,
        },
    )?;
    // The return as read above and the version just stored: an amendment
    // changes no attachment, so what they leave missing stands.
    current.versions.push(VersionRecord::from_row(version)?);
    Ok(current)
}

/// For an annual filing: reconcile with the quarters on file and record each
/// adjustment as a new version of its quarter (`None` for a quarter).
#[allow(clippy::too_many_arguments)]
fn reconcile_annual(
    conn: &mut DbConn,
    filer: &Filer,
    terms: &PayorTerms,
    filing: &Filing,
    annual: &Assessment,
    annual_id: &str,
    entered_as: EnteredAs,
    filed_on: NaiveDate,
) -> Result<Option<Reconciliation>, ApiError> {
    let Some(quarters) = crate::domain::returns::quarters_of(&filing.period()) else {
        return Ok(None);
    };
    let mut on_file = Vec::new();
    let mut records: Vec<ReturnRecord> = Vec::new();
    for q in quarters {
        if let Some(header) = db::returns::of_payor_period(
            conn,
            filer.municipality_id,
            &terms.payor.id,
            &q.to_string(),
        )? {
            let record = super::reading::record(conn, filer.municipality_id, header)?;
            let latest = &record.latest().assessed.assessment;
            on_file.push(QuarterOnFile {
                period: q,
                gross_receipts: latest.gross_receipts,
                exempt_receipts: latest.exempt_receipts,
                tax: latest.tax,
                collection_fee: latest.collection_fee,
                filed_late: record.original().assessed.assessment.filed_late,
            });
            records.push(record);
        }
    }
    let reconciliation = reconcile(&terms.history, filing, annual, &on_file).map_err(domain)?;
    for quarter in &reconciliation.quarters {
        let Some(adjustment) = &quarter.adjustment else {
            continue;
        };
        let Some(record) = records
            .iter()
            .find(|r| r.header.period == quarter.period.to_string())
        else {
            continue;
        };
        let latest: &VersionRecord = record.latest();
        let original = &record.original().assessed.assessment;
        let receipts = Receipts {
            period: quarter.period,
            gross_receipts: quarter.stated_gross_receipts,
            exempt_receipts: quarter.stated_exempt_receipts,
        };
        let previous = previous_year_tax(
            conn,
            filer.municipality_id,
            &terms.payor.id,
            &quarter.period,
        )?;
        let assessment = assess_receipts(
            &terms.history,
            &receipts,
            &original.timing(),
            previous,
            &terms.zone,
        )
        .map_err(domain)?;
        let mut details = latest.filing.clone();
        details.from_annual_return = Some(annual_id.to_owned());
        if quarter.stated_exempt_receipts != latest.assessed.assessment.exempt_receipts {
            // The annual return states the quarter's exempt receipts as one sum.
            details.exemptions = Vec::new();
        }
        insert_version(
            conn,
            filer,
            NewVersion {
                payor_id: &terms.payor.id,
                return_id: &record.header.id,
                version: latest.row.version + 1,
                source: "annual_adjustment",
                filed_on,
                received_on: None,
                entered_as: entered_as.as_str(),
                receipts,
                details,
                assessed: StoredAssessment {
                    assessment,
                    difference: Some(adjustment.clone()),
                    reconciliation: None,
                },
                amount_due: adjustment.amount_due,
            },
        )?;
    }
    Ok(Some(reconciliation))
}
