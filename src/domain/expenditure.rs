//! A tourism entity's report of how it spent room-tax revenue, judged.
//!
//! Contract (issue 10 item 3; Montello room tax, distribution ¶B; Wis. Stat.
//! § 66.0615(1)(fm)): [`judge`] takes a [`ReportDraft`] as the transport
//! parsed it and answers a [`Report`] (every text trimmed and judged) or a
//! [`Refusal`]; every fault of the draft is reported at once, named by its
//! JSON path (`items[2].amount`) and a stable rule:
//! - the period covers at most one year: `period_end` is on or after
//!   `period_start` (`period_end_not_before_start`) and before the same day
//!   a year later (`at_most_one_year`: 2026-01-01..2026-12-31 is a year,
//!   2026-01-01..2027-01-01 is not); the ordinance asks for a report "at
//!   least annually", so no report may span more;
//! - an item's date lies in the period (`within_period`), its amount is more
//!   than 0.00 (`positive`), payee and description are text of the registry's
//!   rules (`no_control_characters`, `non_empty`, `max_length`), and an item
//!   of category `other` carries an `explanation` (`explanation_required_for_other`);
//!   impact measures have a value of at least 0 and a source;
//! - a summed line (expenditures under $1,000.00 summed by category) has a
//!   count of at least 1 and an amount **less than $1,000.00 × count**
//!   (`summed_items_under_1000`): every expenditure of $1,000.00 or more must
//!   be listed individually (Form SL-304 lists each one), and a sum of `count`
//!   items each under $1,000.00 is always under that bound, so a sum at or over
//!   it must hide one (a count of 1 with $1,000.00 or more is the plain case);
//! - **no lodging facility**: "No room tax revenue may be used to construct or
//!   develop a lodging facility" (Montello room tax, distribution ¶B; Wis.
//!   Stat. § 66.0615(1)(fm) excludes it from tourism promotion and
//!   development). The rule is explicit, never a keyword search: every item
//!   and summed line states `constructs_or_develops_lodging_facility` (the
//!   filer's statement, required), and the category
//!   `lodging_facility_construction` exists only to be refused. Either one
//!   makes the whole report a [`Refusal::LodgingFacility`] (the API's 409
//!   citing the ordinance), judged after the field rules.
//!
//! Totals ([`Totals`]): spent is the sum of items and summed lines; carried
//! over is received − spent, negative when more was spent than received (a
//! deficit). Pure: no I/O.

use chrono::{Months, NaiveDate};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{
    DomainError, Money,
    registry::text::{judge as judge_text, registry_fault},
};

/// The citation of the lodging-facility rule.
pub const LODGING_FACILITY_CITATION: &str = "Montello room tax, distribution ¶B (\"No room tax revenue may be used to construct or develop a lodging facility\"); Wis. Stat. § 66.0615(1)(fm) (tourism promotion and tourism development exclude building or developing a lodging facility)";

/// The citation of the individually listed items.
pub const LARGE_ITEM_CITATION: &str =
    "Wis. Stat. § 66.0615(4) and Form SL-304: each expenditure of $1,000 or more is listed";

/// An expenditure of this many cents or more is listed individually.
pub const LARGE_ITEM_CENTS: i64 = 100_000;

/// Longest payee, source or one-line text.
pub const LINE_MAX: usize = 200;
/// Longest description, explanation or review text.
pub const TEXT_MAX: usize = 2000;
/// Most item and summed lines on one report.
pub const LINES_MAX: usize = 1000;
/// Most impact measures on one item.
pub const IMPACTS_MAX: usize = 20;

/// What an expenditure was for (Wis. Stat. § 66.0615(1)(fm), plus
/// administration and other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Marketing projects: advertising, printed or electronic materials,
    /// recruiting conventions, sporting events, motorcoach groups.
    MarketingProjects,
    /// Transient tourist information services.
    TouristInformationServices,
    /// Tangible municipal development, including a convention center.
    TangibleMunicipalDevelopment,
    /// The tourism entity's administration of the programme.
    Administration,
    /// Anything else, with an explanation.
    Other,
    /// Constructing or developing a lodging facility: exists only to be
    /// refused (Montello room tax, distribution ¶B).
    LodgingFacilityConstruction,
}

impl Category {
    /// Every category a report may hold.
    pub const ALLOWED: [Category; 5] = [
        Category::MarketingProjects,
        Category::TouristInformationServices,
        Category::TangibleMunicipalDevelopment,
        Category::Administration,
        Category::Other,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::MarketingProjects => "marketing_projects",
            Category::TouristInformationServices => "tourist_information_services",
            Category::TangibleMunicipalDevelopment => "tangible_municipal_development",
            Category::Administration => "administration",
            Category::Other => "other",
            Category::LodgingFacilityConstruction => "lodging_facility_construction",
        }
    }

    /// A stored category (only allowed ones are ever stored).
    pub fn from_stored(raw: &str) -> Option<Category> {
        Category::ALLOWED.into_iter().find(|c| c.as_str() == raw)
    }
}

/// What an impact measure counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Visitor inquiries (calls, emails, requests for materials).
    Inquiries,
    /// Visits (to an information centre, an event, an attraction).
    Visits,
    /// Room nights attributed to the expenditure.
    RoomNights,
    /// Sessions on a website or landing page.
    WebsiteSessions,
    /// People attending an event.
    EventAttendance,
}

impl Measure {
    /// Every measure.
    pub const ALL: [Measure; 5] = [
        Measure::Inquiries,
        Measure::Visits,
        Measure::RoomNights,
        Measure::WebsiteSessions,
        Measure::EventAttendance,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Inquiries => "inquiries",
            Measure::Visits => "visits",
            Measure::RoomNights => "room_nights",
            Measure::WebsiteSessions => "website_sessions",
            Measure::EventAttendance => "event_attendance",
        }
    }

    /// A stored measure.
    pub fn from_stored(raw: &str) -> Option<Measure> {
        Measure::ALL.into_iter().find(|m| m.as_str() == raw)
    }
}

/// What a document attached to a report is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    /// A receipt for money paid.
    Receipt,
    /// An invoice.
    Invoice,
    /// Anything else supporting the report.
    Other,
}

impl DocumentKind {
    /// Every kind.
    pub const ALL: [DocumentKind; 3] = [
        DocumentKind::Receipt,
        DocumentKind::Invoice,
        DocumentKind::Other,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Receipt => "receipt",
            DocumentKind::Invoice => "invoice",
            DocumentKind::Other => "other",
        }
    }

    /// Parse the value of `field` (rule `one_of`).
    pub fn parse(field: &str, raw: &str) -> Result<DocumentKind, DomainError> {
        DocumentKind::ALL
            .into_iter()
            .find(|k| k.as_str() == raw.trim())
            .ok_or_else(|| {
                DomainError::invalid(field, "one_of", "must be one of receipt, invoice, other")
            })
    }
}

/// One impact measure of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Impact {
    /// What it counts.
    pub measure: Measure,
    /// How many (at least 0).
    pub value: i64,
    /// Where the figure comes from.
    pub source: String,
}

/// One expenditure listed individually.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The date spent.
    pub date: NaiveDate,
    /// Who was paid.
    pub payee: String,
    /// How much.
    pub amount: Money,
    /// What for.
    pub category: Category,
    /// What it bought.
    pub description: String,
    /// Why an `other` expenditure is tourism promotion or development.
    pub explanation: Option<String>,
    /// The filer's statement that it constructs or develops a lodging facility.
    pub lodging_facility: bool,
    /// Its measured impact.
    pub impact: Vec<Impact>,
}

impl Item {
    /// Whether Form SL-304 lists it ($1,000.00 or more).
    pub fn listed_individually_for_sl304(&self) -> bool {
        is_large(self.amount)
    }
}

/// Expenditures under $1,000.00 of one category, summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    /// What for.
    pub category: Category,
    /// Their total.
    pub amount: Money,
    /// How many expenditures.
    pub count: i64,
    /// What they bought.
    pub description: String,
    /// Why `other` expenditures are tourism promotion or development.
    pub explanation: Option<String>,
    /// The filer's statement that they construct or develop a lodging facility.
    pub lodging_facility: bool,
}

/// A report as the transport parsed it (texts untrimmed), or as judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportDraft {
    /// First day covered.
    pub period_start: NaiveDate,
    /// Last day covered.
    pub period_end: NaiveDate,
    /// The commission's receipts in the period as the tourism entity states them.
    pub received_declared: Money,
    /// Expenditures listed individually.
    pub items: Vec<Item>,
    /// Expenditures under $1,000.00 summed by category.
    pub summed: Vec<Sum>,
}

/// A report that passed [`judge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report(ReportDraft);

impl Report {
    /// What it says.
    pub fn get(&self) -> &ReportDraft {
        &self.0
    }

    /// Spent: items and summed lines.
    pub fn spent(&self) -> Money {
        self.0.items.iter().map(|i| i.amount).sum::<Money>()
            + self.0.summed.iter().map(|s| s.amount).sum::<Money>()
    }
}

/// Why a report is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Fields that break a rule (the API's 422).
    Invalid(Vec<DomainError>),
    /// Lines that construct or develop a lodging facility, by field path
    /// (the API's 409 citing [`LODGING_FACILITY_CITATION`]).
    LodgingFacility(Vec<String>),
}

/// Whether an amount is listed individually ($1,000.00 or more).
pub fn is_large(amount: Money) -> bool {
    amount.cents() >= LARGE_ITEM_CENTS
}

/// Judge free text of `field` (`lines`: line breaks allowed).
fn text(faults: &mut Vec<DomainError>, field: &str, raw: &str, max: usize, lines: bool) -> String {
    match judge_text(raw, max, lines) {
        Ok(v) => v,
        Err(f) => {
            faults.push(registry_fault(field, f, max));
            raw.to_owned()
        }
    }
}

fn positive(faults: &mut Vec<DomainError>, field: &str, amount: Money) {
    if amount.is_negative() || amount.is_zero() {
        faults.push(DomainError::invalid(
            field,
            "positive",
            "must be more than 0.00",
        ));
    }
}

fn explanation(
    faults: &mut Vec<DomainError>,
    field: &str,
    category: Category,
    raw: Option<&str>,
) -> Option<String> {
    match raw {
        Some(raw) => Some(text(faults, field, raw, TEXT_MAX, true)),
        None if category == Category::Other => {
            faults.push(DomainError::invalid(
                field,
                "explanation_required_for_other",
                "an expenditure of category `other` needs an explanation of how it is tourism promotion or tourism development",
            ));
            None
        }
        None => None,
    }
}

/// Judge a draft (see the module doc).
pub fn judge(draft: ReportDraft) -> Result<Report, Refusal> {
    let mut faults = Vec::new();
    let (start, end) = (draft.period_start, draft.period_end);
    if end < start {
        faults.push(DomainError::invalid(
            "period_end",
            "period_end_not_before_start",
            format!("must not be before period_start ({start})"),
        ));
    } else if start
        .checked_add_months(Months::new(12))
        .is_none_or(|year_later| end >= year_later)
    {
        faults.push(DomainError::invalid(
            "period_end",
            "at_most_one_year",
            format!(
                "a report covers at most one year (Montello room tax, distribution ¶B: at least annually): from {start} it ends before {}",
                start
                    .checked_add_months(Months::new(12))
                    .map(|d| d.to_string())
                    .unwrap_or_default()
            ),
        ));
    }
    if draft.received_declared.is_negative() {
        faults.push(DomainError::invalid(
            "received_declared",
            "not_negative",
            "must not be negative",
        ));
    }
    if draft.items.len() + draft.summed.len() > LINES_MAX {
        faults.push(DomainError::invalid(
            "items",
            "max_lines",
            format!("a report has at most {LINES_MAX} item and summed lines"),
        ));
    }
    let mut lodging = Vec::new();
    let mut items = Vec::with_capacity(draft.items.len());
    for (i, item) in draft.items.into_iter().enumerate() {
        let at = |f: &str| format!("items[{i}].{f}");
        if item.date < start || item.date > end {
            faults.push(DomainError::invalid(
                &at("date"),
                "within_period",
                format!("must lie in the report's period ({start} to {end})"),
            ));
        }
        positive(&mut faults, &at("amount"), item.amount);
        let payee = text(&mut faults, &at("payee"), &item.payee, LINE_MAX, false);
        let description = text(
            &mut faults,
            &at("description"),
            &item.description,
            TEXT_MAX,
            true,
        );
        let explanation = explanation(
            &mut faults,
            &at("explanation"),
            item.category,
            item.explanation.as_deref(),
        );
        if item.impact.len() > IMPACTS_MAX {
            faults.push(DomainError::invalid(
                &at("impact"),
                "max_measures",
                format!("at most {IMPACTS_MAX} impact measures per item"),
            ));
        }
        let mut impact = Vec::with_capacity(item.impact.len());
        for (j, m) in item.impact.into_iter().enumerate() {
            let at = |f: &str| format!("items[{i}].impact[{j}].{f}");
            if m.value < 0 {
                faults.push(DomainError::invalid(
                    &at("value"),
                    "not_negative",
                    "must not be negative",
                ));
            }
            let source = text(&mut faults, &at("source"), &m.source, LINE_MAX, false);
            impact.push(Impact { source, ..m });
        }
        if item.lodging_facility {
            lodging.push(at("constructs_or_develops_lodging_facility"));
        } else if item.category == Category::LodgingFacilityConstruction {
            lodging.push(at("category"));
        }
        items.push(Item {
            payee,
            description,
            explanation,
            impact,
            ..item
        });
    }
    let mut summed = Vec::with_capacity(draft.summed.len());
    for (i, sum) in draft.summed.into_iter().enumerate() {
        let at = |f: &str| format!("summed[{i}].{f}");
        positive(&mut faults, &at("amount"), sum.amount);
        if sum.count < 1 {
            faults.push(DomainError::invalid(
                &at("count"),
                "at_least_one",
                "a summed line sums at least 1 expenditure",
            ));
        } else if sum.amount.cents() >= LARGE_ITEM_CENTS.saturating_mul(sum.count) {
            faults.push(DomainError::invalid(
                &at("amount"),
                "summed_items_under_1000",
                format!(
                    "each expenditure of $1,000.00 or more must be listed individually ({LARGE_ITEM_CITATION}): {} expenditure(s) under $1,000.00 sum to less than {}",
                    sum.count,
                    Money::from_cents(LARGE_ITEM_CENTS.saturating_mul(sum.count))
                ),
            ));
        }
        let description = text(
            &mut faults,
            &at("description"),
            &sum.description,
            TEXT_MAX,
            true,
        );
        let explanation = explanation(
            &mut faults,
            &at("explanation"),
            sum.category,
            sum.explanation.as_deref(),
        );
        if sum.lodging_facility {
            lodging.push(at("constructs_or_develops_lodging_facility"));
        } else if sum.category == Category::LodgingFacilityConstruction {
            lodging.push(at("category"));
        }
        summed.push(Sum {
            description,
            explanation,
            ..sum
        });
    }
    if !faults.is_empty() {
        return Err(Refusal::Invalid(faults));
    }
    if !lodging.is_empty() {
        return Err(Refusal::LodgingFacility(lodging));
    }
    Ok(Report(ReportDraft {
        items,
        summed,
        ..draft
    }))
}

/// What a report shows of the money.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// The commission's receipts in the period.
    pub received: Money,
    /// Items and summed lines.
    pub spent: Money,
    /// received − spent (negative: a deficit).
    pub carried_over: Money,
}

impl Totals {
    /// The totals of `spent` against `received`.
    pub fn of(received: Money, spent: Money) -> Totals {
        Totals {
            received,
            spent,
            carried_over: received - spent,
        }
    }

    /// More was spent than received.
    pub fn is_deficit(&self) -> bool {
        self.carried_over.is_negative()
    }
}

pub mod review;

#[cfg(test)]
mod tests;
