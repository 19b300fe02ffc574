//! The request and response shapes of `api::expenditures`, and their
//! conversions from the use cases' records.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    db::expenditures::{AttachmentMeta, ReviewRow},
    domain::{
        Money,
        expenditure::{
            Category, DocumentKind, Impact, Item, Measure, ReportDraft, Sum, is_large,
            review::{Act, Status},
        },
    },
    error::ApiError,
    usecases::expenditures::ReportView,
};

/// An impact measure of an item.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactIn {
    /// What it counts: `inquiries`, `visits`, `room_nights`, `website_sessions` or `event_attendance`.
    pub measure: Measure,
    /// How many (a whole number, at least 0).
    pub value: i64,
    /// Where the figure comes from (1 to 200 characters), e.g. "booking-code redemptions".
    pub source: String,
}

/// An expenditure listed individually (every one of $1,000.00 or more must be).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemIn {
    /// The date spent, within the report's period.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub date: NaiveDate,
    /// Who was paid (1 to 200 characters).
    pub payee: String,
    /// How much, more than "0.00".
    pub amount: Money,
    /// What for (Wis. Stat. § 66.0615(1)(fm)); `lodging_facility_construction` is always refused.
    pub category: Category,
    /// What it bought (1 to 2000 characters).
    pub description: String,
    /// Required for category `other`: how it is tourism promotion or tourism development.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The filer's statement whether the expenditure constructs or develops a lodging facility (required; `true` is refused: Montello room tax, distribution ¶B).
    pub constructs_or_develops_lodging_facility: bool,
    /// Its measured impact (at most 20 measures).
    #[serde(default)]
    pub impact: Vec<ImpactIn>,
}

/// Expenditures under $1,000.00 of one category, summed: the amount must be less than $1,000.00 × `count`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SumIn {
    /// What for.
    pub category: Category,
    /// Their total, more than "0.00" and less than 1000.00 × `count`.
    pub amount: Money,
    /// How many expenditures (at least 1).
    pub count: i64,
    /// What they bought (1 to 2000 characters).
    pub description: String,
    /// Required for category `other`.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The filer's statement whether they construct or develop a lodging facility (required; `true` is refused).
    pub constructs_or_develops_lodging_facility: bool,
}

/// An expenditure report (or a new version of one) as the tourism entity files it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportIn {
    /// First day covered.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub period_start: NaiveDate,
    /// Last day covered: at most one year after `period_start` (2026-01-01 to 2026-12-31 is a year).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub period_end: NaiveDate,
    /// What the commission received in the period, as the tourism entity states it (not negative); kept as `totals.declared` beside `totals.received` (from the members' transfers).
    pub received_declared: Money,
    /// Expenditures listed individually.
    #[serde(default)]
    pub items: Vec<ItemIn>,
    /// Expenditures under $1,000.00 summed by category.
    #[serde(default)]
    pub summed: Vec<SumIn>,
}

impl From<ReportIn> for ReportDraft {
    fn from(r: ReportIn) -> Self {
        ReportDraft {
            period_start: r.period_start,
            period_end: r.period_end,
            received_declared: r.received_declared,
            items: r
                .items
                .into_iter()
                .map(|i| Item {
                    date: i.date,
                    payee: i.payee,
                    amount: i.amount,
                    category: i.category,
                    description: i.description,
                    explanation: i.explanation,
                    lodging_facility: i.constructs_or_develops_lodging_facility,
                    impact: i
                        .impact
                        .into_iter()
                        .map(|m| Impact {
                            measure: m.measure,
                            value: m.value,
                            source: m.source,
                        })
                        .collect(),
                })
                .collect(),
            summed: r
                .summed
                .into_iter()
                .map(|s| Sum {
                    category: s.category,
                    amount: s.amount,
                    count: s.count,
                    description: s.description,
                    explanation: s.explanation,
                    lodging_facility: s.constructs_or_develops_lodging_facility,
                })
                .collect(),
        }
    }
}

/// An impact measure as filed.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = FiledImpact)]
pub struct ImpactOut {
    /// What it counts.
    pub measure: Measure,
    /// How many.
    pub value: i64,
    /// Where the figure comes from.
    pub source: String,
}

/// An expenditure listed individually.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ItemOut {
    /// Its line on this version (1, 2, ...).
    pub line: i64,
    /// The date spent.
    #[schema(value_type = String, format = Date)]
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
    /// Its measured impact.
    pub impact: Vec<ImpactOut>,
    /// $1,000.00 or more: Form SL-304 lists it.
    pub listed_individually_for_sl304: bool,
}

/// Expenditures under $1,000.00 summed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SumOut {
    /// Its line on this version.
    pub line: i64,
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
}

/// What was spent in one category.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CategoryTotal {
    /// The category.
    pub category: Category,
    /// Items and summed lines of the category.
    pub amount: Money,
    /// How many expenditures (items, plus each summed line's count).
    pub count: i64,
}

/// The money of the report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportTotals {
    /// The commission's receipts in the period.
    pub received: Money,
    /// Where `received` comes from.
    pub received_source: String,
    /// What the tourism entity declared received on this version (`received_declared`).
    pub declared: Money,
    /// received − declared: what the declaration is off by (0.00 when they agree).
    pub declared_difference: Money,
    /// Items and summed lines.
    pub spent: Money,
    /// received − spent; negative is a deficit.
    pub carried_over: Money,
    /// More was spent than received.
    pub deficit: bool,
}

/// One version of the report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionOut {
    /// Its number (1, 2, ...).
    pub version: i64,
    /// `submitted`, `returned`, `accepted` or `superseded`.
    pub status: Status,
    /// First day covered.
    #[schema(value_type = String, format = Date)]
    pub period_start: NaiveDate,
    /// Last day covered.
    #[schema(value_type = String, format = Date)]
    pub period_end: NaiveDate,
    /// Who filed it (`user:<id>`).
    pub filed_by: String,
    /// When (RFC 3339, UTC).
    pub filed_at: DateTime<Utc>,
}

/// One act of the review.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReviewActOut {
    /// Its id.
    pub id: String,
    /// The version it is about.
    pub version: i64,
    /// `comment`, `question`, `answer`, `accept` or `return`.
    pub act: Act,
    /// The item line it is about, if any.
    pub item: Option<i64>,
    /// For an answer: the question's id.
    pub answers: Option<String>,
    /// Its text (a return's reason).
    pub text: Option<String>,
    /// Who (`user:<id>`).
    pub by: String,
    /// When (RFC 3339, UTC).
    pub at: DateTime<Utc>,
}

impl ReviewActOut {
    /// The act as shown.
    pub fn of(r: &ReviewRow) -> Result<Self, ApiError> {
        Ok(ReviewActOut {
            id: r.id.clone(),
            version: r.version,
            act: Act::from_stored(&r.act)
                .ok_or_else(|| ApiError::internal("stored review act is unknown"))?,
            item: r.item_line,
            answers: r.answers.clone(),
            text: r.text.clone(),
            by: r.by_actor.clone(),
            at: r.at.and_utc(),
        })
    }
}

/// A receipt or invoice on the report (its bytes are at its own path; every download is logged).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttachmentOut {
    /// Attachment id.
    pub id: String,
    /// `receipt`, `invoice` or `other`.
    pub kind: DocumentKind,
    /// `application/pdf`, `image/png` or `image/jpeg`, judged from the content.
    pub content_type: String,
    /// Size in bytes.
    pub size: i64,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
    /// When it was uploaded (RFC 3339, UTC).
    pub uploaded_at: DateTime<Utc>,
}

impl AttachmentOut {
    /// The record as shown.
    pub fn of(m: &AttachmentMeta) -> Result<Self, ApiError> {
        Ok(AttachmentOut {
            id: m.id.clone(),
            kind: DocumentKind::parse("kind", &m.kind)
                .map_err(|_| ApiError::internal("stored attachment kind is unknown"))?,
            content_type: m.content_type.clone(),
            size: m.size_bytes,
            sha256: m.sha256.clone(),
            uploaded_at: m.uploaded_at.and_utc(),
        })
    }
}

/// An expenditure report at one version, with its review.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExpenditureReport {
    /// Report id.
    pub id: String,
    /// The version shown.
    pub version: i64,
    /// The latest version (amend with `If-Match` naming it).
    pub latest_version: i64,
    /// The shown version's status.
    pub status: Status,
    /// First day covered.
    #[schema(value_type = String, format = Date)]
    pub period_start: NaiveDate,
    /// Last day covered.
    #[schema(value_type = String, format = Date)]
    pub period_end: NaiveDate,
    /// What the commission received in the period, as the tourism entity stated it on this version.
    pub received_declared: Money,
    /// Received, spent, carried over.
    pub totals: ReportTotals,
    /// Expenditures listed individually, by line.
    pub items: Vec<ItemOut>,
    /// Expenditures under $1,000.00 summed by category, by line.
    pub summed: Vec<SumOut>,
    /// Spending by category (categories with spending only, in category order).
    pub by_category: Vec<CategoryTotal>,
    /// Every version, oldest first.
    pub versions: Vec<VersionOut>,
    /// The review trail: every comment, question, answer and decision, oldest first.
    pub review: Vec<ReviewActOut>,
    /// Receipts and invoices attached.
    pub attachments: Vec<AttachmentOut>,
}

/// The expenditure reports of a zone, at their latest versions.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExpenditureReportList {
    /// The reports, by period.
    pub items: Vec<ExpenditureReport>,
}

fn category_of(raw: &str) -> Result<Category, ApiError> {
    Category::from_stored(raw).ok_or_else(|| ApiError::internal("stored category is unknown"))
}

impl ExpenditureReport {
    /// The report as shown.
    pub fn of(v: &ReportView) -> Result<Self, ApiError> {
        let shown = v.shown();
        let mut items = Vec::with_capacity(v.items.len());
        let mut by: std::collections::BTreeMap<Category, (Money, i64)> = Default::default();
        for (i, impacts) in &v.items {
            let category = category_of(&i.category)?;
            let amount = Money::from_cents(i.amount_cents);
            let e = by.entry(category).or_insert((Money::from_cents(0), 0));
            e.0 += amount;
            e.1 += 1;
            items.push(ItemOut {
                line: i.line,
                date: i.spent_on,
                payee: i.payee.clone(),
                amount,
                category,
                description: i.description.clone(),
                explanation: i.explanation.clone(),
                impact: impacts
                    .iter()
                    .map(|m| {
                        Ok(ImpactOut {
                            measure: Measure::from_stored(&m.measure)
                                .ok_or_else(|| ApiError::internal("stored measure is unknown"))?,
                            value: m.value,
                            source: m.source.clone(),
                        })
                    })
                    .collect::<Result<_, ApiError>>()?,
                listed_individually_for_sl304: is_large(amount),
            });
        }
        let mut summed = Vec::with_capacity(v.sums.len());
        for s in &v.sums {
            let category = category_of(&s.category)?;
            let amount = Money::from_cents(s.amount_cents);
            let e = by.entry(category).or_insert((Money::from_cents(0), 0));
            e.0 += amount;
            e.1 += s.item_count;
            summed.push(SumOut {
                line: s.line,
                category,
                amount,
                count: s.item_count,
                description: s.description.clone(),
                explanation: s.explanation.clone(),
            });
        }
        Ok(ExpenditureReport {
            id: v.report.id.clone(),
            version: shown.row.version,
            latest_version: v.latest().row.version,
            status: shown.status,
            period_start: shown.row.period_start,
            period_end: shown.row.period_end,
            received_declared: Money::from_cents(shown.row.received_declared_cents),
            totals: ReportTotals {
                received: v.totals.received,
                received_source: "transfers: the commission shares of the members' remittances whose transfer was marked paid within the report's period (usecases::expenditures::filing::commission_received; Montello room tax, distribution ¶A)".into(),
                declared: Money::from_cents(shown.row.received_declared_cents),
                declared_difference: v.totals.received
                    - Money::from_cents(shown.row.received_declared_cents),
                spent: v.totals.spent,
                carried_over: v.totals.carried_over,
                deficit: v.totals.is_deficit(),
            },
            items,
            summed,
            by_category: by
                .into_iter()
                .map(|(category, (amount, count))| CategoryTotal {
                    category,
                    amount,
                    count,
                })
                .collect(),
            versions: v
                .versions
                .iter()
                .map(|s| VersionOut {
                    version: s.row.version,
                    status: s.status,
                    period_start: s.row.period_start,
                    period_end: s.row.period_end,
                    filed_by: s.row.filed_by.clone(),
                    filed_at: s.row.filed_at.and_utc(),
                })
                .collect(),
            review: v
                .reviews
                .iter()
                .map(ReviewActOut::of)
                .collect::<Result<_, _>>()?,
            attachments: v
                .attachments
                .iter()
                .map(AttachmentOut::of)
                .collect::<Result<_, _>>()?,
        })
    }
}
