//! Request and response bodies of the vehicle registration fee operations,
//! and their CSV forms.

use crate::api::csv::field;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    db::vehicle_fee::SpendingRow,
    domain::{
        Line, Money,
        vehicle_fee::{FUND_CITATION, RemittanceStatus, SpendingPurpose},
    },
    usecases::vehicle_fee::{
        FundEntry, FundStatement, RecordedReversal, RecordedSpending, RemittanceVersion,
    },
};

/// The DOT's remittance for a quarter, as the clerk-treasurer or staff enter it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VehicleFeeRemittanceRequest {
    /// The calendar quarter the DOT remitted for, e.g. "2026-Q1" (quarters only: the period the service reports in; a later DOT payment for the same quarter is a correction).
    pub period: String,
    /// Registrations and renewals the DOT collected the city's fee on (an integer, 0 or more).
    pub vehicle_count: i64,
    /// What the DOT actually remitted, a decimal string of 0.00 or more (posted into the fund as received).
    pub amount_received: Money,
    /// The local date it was received: not after today, not before the quarter's first day.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub received_on: NaiveDate,
    /// The DOT's payment or deposit reference (1 to 100 characters, one line).
    pub reference: String,
}

/// A correction of a quarter's remittance: the quarter's figures as they should read.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VehicleFeeCorrectionRequest {
    /// Registrations for the quarter, as corrected (an integer, 0 or more).
    pub vehicle_count: i64,
    /// What the DOT remitted for the quarter in all, as corrected (0.00 or more); the difference from the previous version is posted.
    pub amount_received: Money,
    /// The local date the difference is posted (a further payment's arrival, or the day the error was found): not after today, not before the previous version's.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub received_on: NaiveDate,
    /// The reference of the further payment or of the correction (1 to 100 characters, one line).
    pub reference: String,
    /// Why the quarter is corrected (1 to 500 characters, one line).
    pub reason: String,
}

/// A payment out of the fund, as the clerk-treasurer or staff enter it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VehicleFeeSpendingRequest {
    /// The local date paid (not after today).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub spent_on: NaiveDate,
    /// The amount, more than "0.00" and at most what the fund can give up on `spent_on`.
    pub amount: Money,
    /// Who was paid (1 to 200 characters, one line).
    pub payee: String,
    /// What the ordinance allows the fund to be spent on: `local_street_and_road_improvements` ("local street and road improvements"), `road_and_street_maintenance_and_operation` ("maintenance and operation expenses of said road or streets") or `transportation_related_expenses` ("transportation-related expenses"). Anything else is refused with 409 `purpose_not_allowed` (Montello vehicle registration fee, fee ¶).
    #[schema(example = "local_street_and_road_improvements")]
    pub purpose: String,
    /// What was paid for (1 to 500 characters, one line).
    pub description: String,
}

/// The reversal of a payment out of the fund recorded in error.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VehicleFeeReversalRequest {
    /// The local date of the reversal: not before the spending, not after today.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub reversed_on: NaiveDate,
    /// Why the spending was recorded in error (1 to 500 characters, one line).
    pub reason: String,
}

/// A reversal of a payment out of the fund.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeReversal {
    /// The reversal's id.
    pub id: String,
    /// The local date of the reversal.
    #[schema(value_type = String, format = Date)]
    pub reversed_on: NaiveDate,
    /// Why the spending was recorded in error.
    pub reason: String,
    /// The ledger journal it posted (cash debited, `municipality:vehicle_fee_fund` credited with the spending's amount).
    pub journal_id: String,
    /// Who recorded it (`user:ID`).
    pub recorded_by: String,
}

/// A reversal recorded, with the spending it reverses.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeReversalRecorded {
    /// The reversal.
    #[serde(flatten)]
    pub reversal: VehicleFeeReversal,
    /// The spending reversed (it stays on record, as entered).
    pub spending: VehicleFeeSpending,
    /// The fund's balance at the end of `reversed_on`, this reversal included.
    pub fund_balance_after: Money,
}

fn reversal_of(r: &crate::db::vehicle_fee::ReversalRow) -> VehicleFeeReversal {
    VehicleFeeReversal {
        id: r.id.clone(),
        reversed_on: r.reversed_on,
        reason: r.reason.clone(),
        journal_id: r.journal_id.clone(),
        recorded_by: r.recorded_by.clone(),
    }
}

impl From<&RecordedReversal> for VehicleFeeReversalRecorded {
    fn from(r: &RecordedReversal) -> Self {
        VehicleFeeReversalRecorded {
            reversal: reversal_of(&r.row),
            spending: spending_of(&r.spending, r.purpose),
            fund_balance_after: r.balance_after,
        }
    }
}

/// One version of a quarter's remittance, reconciled.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeRemittanceVersion {
    /// The version's id.
    pub id: String,
    /// The calendar quarter.
    pub period: String,
    /// 1 as first recorded; each correction the next.
    pub version: i32,
    /// True when a later version corrects this one.
    pub superseded: bool,
    /// Registrations the DOT collected the fee on.
    pub vehicle_count: i64,
    /// The fee per vehicle of the policy used (Montello: 20.00).
    pub fee_per_vehicle: Money,
    /// The DOT's retention per vehicle of the policy used (0.17 today).
    pub dot_retention_per_vehicle: Money,
    /// The effective date of the policy version used.
    #[schema(value_type = String, format = Date)]
    pub policy_effective_from: NaiveDate,
    /// Fees the DOT collected: count × fee, explained.
    pub gross: Line,
    /// The DOT's administrative retention: count × retention per vehicle, explained.
    pub dot_retention: Line,
    /// What the DOT should remit: gross − retention, explained.
    pub expected_net: Line,
    /// What the DOT remitted for the quarter (as of this version).
    pub amount_received: Money,
    /// Received − expected net, explained (negative: short).
    pub difference: Line,
    /// `matches`, `short` or `over`.
    pub status: RemittanceStatus,
    /// What this version posted into the fund: version 1 the amount received, a correction the difference from the previous version.
    pub posted_to_fund: Money,
    /// The local date received (a correction: the date its difference was posted).
    #[schema(value_type = String, format = Date)]
    pub received_on: NaiveDate,
    /// The payment's or correction's reference.
    pub reference: String,
    /// Why it was corrected (absent for version 1).
    pub reason: Option<String>,
    /// The ledger journal it posted (cash debited, `municipality:vehicle_fee_fund` credited).
    pub journal_id: String,
    /// Who recorded it (`user:ID`).
    pub recorded_by: String,
}

impl From<&RemittanceVersion> for VehicleFeeRemittanceVersion {
    fn from(v: &RemittanceVersion) -> Self {
        let r = &v.row;
        VehicleFeeRemittanceVersion {
            id: r.id.clone(),
            period: r.period.clone(),
            version: r.version,
            superseded: v.superseded,
            vehicle_count: r.vehicle_count,
            fee_per_vehicle: Money::from_cents(r.fee_per_vehicle_cents),
            dot_retention_per_vehicle: Money::from_cents(r.retention_per_vehicle_cents),
            policy_effective_from: r.policy_effective_from,
            gross: v.reconciled.gross.clone(),
            dot_retention: v.reconciled.dot_retention.clone(),
            expected_net: v.reconciled.expected_net.clone(),
            amount_received: Money::from_cents(r.received_cents),
            difference: v.reconciled.difference.clone(),
            status: v.reconciled.status,
            posted_to_fund: Money::from_cents(r.posted_cents),
            received_on: r.received_on,
            reference: r.reference.clone(),
            reason: r.reason.clone(),
            journal_id: r.journal_id.clone(),
            recorded_by: r.recorded_by.clone(),
        }
    }
}

/// The remittances recorded, every version, by quarter then version.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeRemittanceList {
    /// Every version asked for; the current figures of a quarter are its version with `superseded` false.
    pub items: Vec<VehicleFeeRemittanceVersion>,
}

/// A payment out of the fund.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeSpending {
    /// The spending's id.
    pub id: String,
    /// The local date paid.
    #[schema(value_type = String, format = Date)]
    pub spent_on: NaiveDate,
    /// The amount.
    pub amount: Money,
    /// Who was paid.
    pub payee: String,
    /// The ordinance's purpose it served.
    pub purpose: SpendingPurpose,
    /// The ordinance's words for that purpose.
    pub purpose_words: String,
    /// What was paid for.
    pub description: String,
    /// The ledger journal it posted (`municipality:vehicle_fee_fund` debited, cash credited).
    pub journal_id: String,
    /// Who recorded it (`user:ID`).
    pub recorded_by: String,
}

fn spending_of(s: &SpendingRow, purpose: SpendingPurpose) -> VehicleFeeSpending {
    VehicleFeeSpending {
        id: s.id.clone(),
        spent_on: s.spent_on,
        amount: Money::from_cents(s.amount_cents),
        payee: s.payee.clone(),
        purpose,
        purpose_words: purpose.words().to_owned(),
        description: s.description.clone(),
        journal_id: s.journal_id.clone(),
        recorded_by: s.recorded_by.clone(),
    }
}

/// A payment out of the fund, recorded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeSpendingRecorded {
    /// The payment.
    #[serde(flatten)]
    pub spending: VehicleFeeSpending,
    /// The fund's balance at the end of `spent_on`, this payment included.
    pub fund_balance_after: Money,
}

impl From<&RecordedSpending> for VehicleFeeSpendingRecorded {
    fn from(r: &RecordedSpending) -> Self {
        VehicleFeeSpendingRecorded {
            spending: spending_of(&r.row, r.purpose),
            fund_balance_after: r.balance_after,
        }
    }
}

/// What a movement of the fund is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FundEntryKind {
    /// A remittance version's posting (a correction's difference included).
    Receipt,
    /// A payment out of the fund.
    Spending,
    /// The reversal of a payment recorded in error: its amount back in the fund.
    SpendingReversed,
}

/// One movement of the fund.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeFundEntry {
    /// The day it counts from.
    #[schema(value_type = String, format = Date)]
    pub date: NaiveDate,
    /// `receipt`, `spending` or `spending_reversed`.
    pub kind: FundEntryKind,
    /// What it moved into the fund (spending negative).
    pub amount: Money,
    /// The fund's balance after it.
    pub balance: Money,
    /// The remittance version, with its expected net, amount received and difference (receipts only).
    pub receipt: Option<VehicleFeeRemittanceVersion>,
    /// The payment (spending, and the spending a reversal reverses).
    pub spending: Option<VehicleFeeSpending>,
    /// The reversal (spending_reversed only).
    pub reversal: Option<VehicleFeeReversal>,
}

/// An allowed use of the fund.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AllowedPurpose {
    /// The purpose's name, as `purpose` takes it.
    pub purpose: SpendingPurpose,
    /// The ordinance's words.
    pub words: String,
}

/// The vehicle registration fee fund's statement for a span of days.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeFund {
    /// The municipality.
    pub municipality: String,
    /// The first day covered.
    #[schema(value_type = String, format = Date)]
    pub from: NaiveDate,
    /// The last day covered.
    #[schema(value_type = String, format = Date)]
    pub to: NaiveDate,
    /// The fund at the end of the day before `from`.
    pub opening_balance: Money,
    /// Each receipt and spending in the span, oldest first, with the balance after it.
    pub entries: Vec<VehicleFeeFundEntry>,
    /// Receipts in the span (corrections' differences included).
    pub receipts: Money,
    /// Spending in the span, net of the reversals in the span.
    pub spending: Money,
    /// The fund at the end of `to`: opening + receipts − spending.
    pub closing_balance: Money,
    /// What the fund may be spent on.
    pub allowed_purposes: Vec<AllowedPurpose>,
    /// Where the fund and its restriction come from.
    pub citation: String,
}

impl From<&FundStatement> for VehicleFeeFund {
    fn from(s: &FundStatement) -> Self {
        VehicleFeeFund {
            municipality: s.municipality.clone(),
            from: s.from,
            to: s.to,
            opening_balance: s.opening_balance,
            entries: s
                .entries
                .iter()
                .map(|(e, balance)| {
                    let (kind, receipt, spending, reversal) = match e {
                        FundEntry::Receipt(v) => {
                            (FundEntryKind::Receipt, Some(v.as_ref().into()), None, None)
                        }
                        FundEntry::Spending(row, purpose) => (
                            FundEntryKind::Spending,
                            None,
                            Some(spending_of(row, *purpose)),
                            None,
                        ),
                        FundEntry::Reversal(r, row, purpose) => (
                            FundEntryKind::SpendingReversed,
                            None,
                            Some(spending_of(row, *purpose)),
                            Some(reversal_of(r)),
                        ),
                    };
                    VehicleFeeFundEntry {
                        date: e.on(),
                        kind,
                        amount: e.into_fund(),
                        balance: *balance,
                        receipt,
                        spending,
                        reversal,
                    }
                })
                .collect(),
            receipts: s.receipts,
            spending: s.spending,
            closing_balance: s.closing_balance,
            allowed_purposes: SpendingPurpose::ALL
                .into_iter()
                .map(|p| AllowedPurpose {
                    purpose: p,
                    words: p.words().to_owned(),
                })
                .collect(),
            citation: FUND_CITATION.to_owned(),
        }
    }
}

fn row(fields: &[String]) -> String {
    let mut line = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    line.push_str("\r\n");
    line
}

/// The remittances as CSV: one row per version.
pub fn remittances_csv(list: &VehicleFeeRemittanceList) -> String {
    let mut out = String::from(
        "period,version,superseded,vehicle_count,fee_per_vehicle,dot_retention_per_vehicle,gross,dot_retention,expected_net,amount_received,difference,status,posted_to_fund,received_on,reference,reason\r\n",
    );
    for v in &list.items {
        out.push_str(&row(&[
            v.period.clone(),
            v.version.to_string(),
            v.superseded.to_string(),
            v.vehicle_count.to_string(),
            v.fee_per_vehicle.to_string(),
            v.dot_retention_per_vehicle.to_string(),
            v.gross.amount.to_string(),
            v.dot_retention.amount.to_string(),
            v.expected_net.amount.to_string(),
            v.amount_received.to_string(),
            v.difference.amount.to_string(),
            v.status.as_str().to_owned(),
            v.posted_to_fund.to_string(),
            v.received_on.to_string(),
            v.reference.clone(),
            v.reason.clone().unwrap_or_default(),
        ]));
    }
    out
}

/// The fund's statement as CSV: the opening balance, one row per movement,
/// the closing balance.
pub fn fund_csv(f: &VehicleFeeFund) -> String {
    let mut out = String::from(
        "date,kind,period,version,vehicle_count,expected_net,amount_received,difference,status,payee,purpose,description,amount,balance\r\n",
    );
    let empty = || String::new();
    let day_before = f.from.pred_opt().map(|d| d.to_string()).unwrap_or_default();
    out.push_str(&row(&[
        day_before,
        "opening_balance".into(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        empty(),
        f.opening_balance.to_string(),
    ]));
    for e in &f.entries {
        let mut fields = vec![
            e.date.to_string(),
            match e.kind {
                FundEntryKind::Receipt => "receipt".into(),
                FundEntryKind::Spending => "spending".into(),
                FundEntryKind::SpendingReversed => "spending_reversed".into(),
            },
        ];
        match (&e.receipt, &e.spending) {
            (Some(r), _) => fields.extend([
                r.period.clone(),
                r.version.to_string(),
                r.vehicle_count.to_string(),
                r.expected_net.amount.to_string(),
                r.amount_received.to_string(),
                r.difference.amount.to_string(),
                r.status.as_str().to_owned(),
                empty(),
                empty(),
                r.reason.clone().unwrap_or_default(),
            ]),
            (None, Some(s)) => fields.extend([
                empty(),
                empty(),
                empty(),
                empty(),
                empty(),
                empty(),
                empty(),
                s.payee.clone(),
                s.purpose.as_str().to_owned(),
                match &e.reversal {
                    Some(r) => format!("reversed: {}", r.reason),
                    None => s.description.clone(),
                },
            ]),
            (None, None) => fields.extend(std::iter::repeat_n(empty(), 10)),
        }
        fields.push(e.amount.to_string());
        fields.push(e.balance.to_string());
        out.push_str(&row(&fields));
    }
    let mut closing = vec![f.to.to_string(), "closing_balance".into()];
    closing.extend(std::iter::repeat_n(empty(), 11));
    closing.push(f.closing_balance.to_string());
    out.push_str(&row(&closing));
    out
}
