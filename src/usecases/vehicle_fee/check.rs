//! `roomtax check` on the vehicle registration fee (called from
//! `usecases::ledger::check`).
//!
//! Contract: reads only, inside the check's read transaction for one
//! municipality. Verified, each violation pushed to `broken` naming the
//! municipality and the row or journal at fault (never an amount):
//! - every remittance version has exactly one `vehicle_fee_remittance`
//!   journal, the one its row names, posted on its `received_on`, debiting
//!   `municipality:cash` and crediting `municipality:vehicle_fee_fund` with
//!   its `posted_cents` and nothing else; its versions run 1, 2, ...; version
//!   1 posts the amount received and each correction the difference from the
//!   version before;
//! - every spending has exactly one `vehicle_fee_spending` journal, the one
//!   its row names, on its `spent_on`, debiting the fund and crediting cash
//!   with its amount; a spending reversed (at most one reversal, the
//!   database's UNIQUE) has exactly one `vehicle_fee_spending_reversed`
//!   journal (cause the spending), the one the reversal names, on its
//!   `reversed_on`, debiting cash and crediting the fund with the spending's
//!   amount, and a spending never reversed has none;
//! - no journal of either kind names a row that does not exist, and no other
//!   kind of journal touches the fund;
//! - the fund's balance is never negative on any day.

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    db::{
        self, DbConn,
        ledger::{JournalRow, LineRow},
    },
    domain::{
        ledger::JournalKind,
        vehicle_fee::{FundLine, first_overdraft},
    },
    error::ApiError,
};

const CASH: &str = "municipality:cash";
const FUND: &str = "municipality:vehicle_fee_fund";

/// Journals by `(cause_type, cause_id)`, as the ledger check groups them.
pub type ByCause<'a> = BTreeMap<(String, String), Vec<&'a JournalRow>>;

/// What the check counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// Remittance versions checked.
    pub remittances: usize,
    /// Spending checked.
    pub spending: usize,
}

/// The one journal of `kind` caused by `cause` (`cause_type`, row id), which
/// must be `journal_id`, on `on`, with exactly `wanted` as its lines.
#[allow(clippy::too_many_arguments)]
fn one_journal(
    name: &str,
    by_cause: &ByCause<'_>,
    lines: &BTreeMap<String, Vec<LineRow>>,
    kind: JournalKind,
    cause: (&str, &str),
    journal_id: &str,
    on: chrono::NaiveDate,
    wanted: &[(&str, i64)],
    broken: &mut Vec<String>,
) {
    let posted: Vec<&JournalRow> = by_cause
        .get(&(cause.0.to_owned(), cause.1.to_owned()))
        .into_iter()
        .flatten()
        .copied()
        .filter(|j| j.kind == kind.as_str())
        .collect();
    let [journal] = posted[..] else {
        broken.push(format!(
            "{name} has {} {kind} journal(s) (expected one)",
            posted.len()
        ));
        return;
    };
    let stored: Vec<(&str, i64)> = lines
        .get(&journal.id)
        .into_iter()
        .flatten()
        .map(|l| (l.account.as_str(), l.amount_cents))
        .collect();
    if journal.id != journal_id || journal.posted_on != on || stored != wanted {
        broken.push(format!(
            "{name}: journal {} is not the one its row names, on its day, moving cash and the fund by what the row says",
            journal.id
        ));
    }
}

/// Run the checks of the module doc for one municipality.
pub fn check(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    by_cause: &ByCause<'_>,
    lines: &BTreeMap<String, Vec<LineRow>>,
    broken: &mut Vec<String>,
) -> Result<Checked, ApiError> {
    let remittances = db::vehicle_fee::all_remittances(conn, municipality_id)?;
    let mut rows = BTreeSet::new();
    let mut previous: Option<&db::vehicle_fee::RemittanceRow> = None;
    for r in &remittances {
        rows.insert(("vehicle_fee_remittance", r.id.clone()));
        let name = format!(
            "{slug}: vehicle fee remittance {} version {} ({})",
            r.period, r.version, r.id
        );
        let before = previous.filter(|p| p.period == r.period);
        let expected_version = before.map_or(1, |p| p.version + 1);
        let expected_posted = r.received_cents - before.map_or(0, |p| p.received_cents);
        if r.version != expected_version || r.posted_cents != expected_posted {
            broken.push(format!(
                "{name} does not follow its previous version (versions run 1, 2, ...; each posts its amount received less the previous version's)"
            ));
        }
        one_journal(
            &name,
            by_cause,
            lines,
            JournalKind::VehicleFeeRemittance,
            ("vehicle_fee_remittance", &r.id),
            &r.journal_id,
            r.received_on,
            &[(CASH, r.posted_cents), (FUND, -r.posted_cents)],
            broken,
        );
        previous = Some(r);
    }
    let spending = db::vehicle_fee::all_spending(conn, municipality_id)?;
    let reversals = db::vehicle_fee::all_reversals(conn, municipality_id)?;
    for s in &spending {
        rows.insert(("vehicle_fee_spending", s.id.clone()));
        let name = format!("{slug}: vehicle fee spending {}", s.id);
        one_journal(
            &name,
            by_cause,
            lines,
            JournalKind::VehicleFeeSpending,
            ("vehicle_fee_spending", &s.id),
            &s.journal_id,
            s.spent_on,
            &[(FUND, s.amount_cents), (CASH, -s.amount_cents)],
            broken,
        );
        match reversals.iter().find(|r| r.spending_id == s.id) {
            Some(r) => one_journal(
                &format!("{name} reversal {}", r.id),
                by_cause,
                lines,
                JournalKind::VehicleFeeSpendingReversed,
                ("vehicle_fee_spending", &s.id),
                &r.journal_id,
                r.reversed_on,
                &[(CASH, s.amount_cents), (FUND, -s.amount_cents)],
                broken,
            ),
            None => {
                let stray = by_cause
                    .get(&("vehicle_fee_spending".to_owned(), s.id.clone()))
                    .into_iter()
                    .flatten()
                    .any(|j| j.kind == JournalKind::VehicleFeeSpendingReversed.as_str());
                if stray {
                    broken.push(format!("{name} has a reversal journal but no reversal row"));
                }
            }
        }
    }
    for r in &reversals {
        if !spending.iter().any(|s| s.id == r.spending_id) {
            broken.push(format!(
                "{slug}: vehicle fee reversal {} names spending {}, which does not exist",
                r.id, r.spending_id
            ));
        }
    }
    let mut fund = Vec::new();
    for ((cause_type, cause_id), posted) in by_cause {
        let ours = matches!(
            cause_type.as_str(),
            "vehicle_fee_remittance" | "vehicle_fee_spending"
        );
        if ours && !rows.contains(&(cause_type.as_str(), cause_id.clone())) {
            for j in posted {
                broken.push(format!(
                    "{slug}: journal {} names {cause_type} {cause_id}, which does not exist",
                    j.id
                ));
            }
        }
        for j in posted {
            for l in lines.get(&j.id).into_iter().flatten() {
                if l.account != FUND {
                    continue;
                }
                fund.push(FundLine {
                    posted_on: j.posted_on,
                    amount_cents: l.amount_cents,
                });
                let allowed = j.kind == JournalKind::VehicleFeeRemittance.as_str()
                    || j.kind == JournalKind::VehicleFeeSpending.as_str()
                    || j.kind == JournalKind::VehicleFeeSpendingReversed.as_str();
                if !allowed {
                    broken.push(format!(
                        "{slug}: journal {} ({}) moves the vehicle registration fee fund, which only its remittances and spending may",
                        j.id, j.kind
                    ));
                }
            }
        }
    }
    if let Some((day, _)) = first_overdraft(&fund) {
        broken.push(format!(
            "{slug}: the vehicle registration fee fund is overdrawn at the end of {day}"
        ));
    }
    Ok(Checked {
        remittances: remittances.len(),
        spending: spending.len(),
    })
}
