//! The figures of the commission's report back to a member and of Form
//! SL-304 (issue 10 items 5 and 6): how spending is shown, and when the form
//! is due.
//!
//! Contract: [`breakdown`] takes the expenditures of accepted reports (items
//! and summed lines) and answers each item of $1,000 or more listed
//! individually (Wis. Stat. § 66.0615(4) and Form SL-304) and every
//! category's total with the smaller items and the summed lines folded in,
//! so the listed items plus the categories' small parts add up to the whole
//! spent; [`due_on`] is May 1 of the following year; [`sum_split`] adds the
//! members' quarters. Pure: no I/O.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::domain::{
    Money,
    expenditure::{Category, LARGE_ITEM_CENTS},
};

/// The commission's duty to report back to each member.
pub const REPORT_BACK_CITATION: &str = "Montello room tax, distribution ¶B (the tourism entity \"shall report at least annually to the commission the purposes for which the room tax revenues it received were spent and the impact of such expenditures\"; \"the commission in turn shall report back to the municipality\")";

/// Form SL-304 and its due date.
pub const SL304_CITATION: &str = "Wis. Stat. § 66.0615(4): a municipality that imposes room tax reports to the Department of Revenue by May 1 the tax collected in the previous year, the amounts forwarded to a commission or tourism entity, and the commission's expenditures of $1,000 or more (Form SL-304)";

/// One expenditure as the reports need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expenditure {
    /// When it was spent.
    pub date: NaiveDate,
    /// Who was paid.
    pub payee: String,
    /// What it cost.
    pub amount: Money,
    /// Its category.
    pub category: Category,
    /// What it was.
    pub description: String,
}

/// A summed line of small expenditures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summed {
    /// Its category.
    pub category: Category,
    /// Their total.
    pub amount: Money,
    /// How many expenditures.
    pub count: i64,
}

/// A category's spending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CategorySpending {
    /// Everything spent in the category.
    pub total: Money,
    /// Of it, the items under $1,000 and the summed lines.
    pub small: Money,
    /// How many expenditures in all (items, plus each summed line's count).
    pub count: i64,
}

/// Spending shown as SL-304 wants it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Breakdown {
    /// Each item of $1,000 or more, by date.
    pub large: Vec<Expenditure>,
    /// Each category's spending.
    pub by_category: BTreeMap<Category, CategorySpending>,
    /// Everything spent.
    pub total: Money,
}

/// The breakdown of `items` and `summed` (see the module doc).
pub fn breakdown(items: &[Expenditure], summed: &[Summed]) -> Breakdown {
    let mut out = Breakdown::default();
    for item in items {
        let e = out.by_category.entry(item.category).or_default();
        e.total += item.amount;
        e.count += 1;
        if item.amount.cents() >= LARGE_ITEM_CENTS {
            out.large.push(item.clone());
        } else {
            e.small += item.amount;
        }
        out.total += item.amount;
    }
    for s in summed {
        let e = out.by_category.entry(s.category).or_default();
        e.total += s.amount;
        e.small += s.amount;
        e.count += s.count;
        out.total += s.amount;
    }
    out.large.sort_by_key(|e| e.date);
    out
}

/// Form SL-304 for `year` is due May 1 of the next year.
pub fn due_on(year: i32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(year.checked_add(1)?, 5, 1)
}

/// The year's totals of a municipality's quarters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct YearSplit {
    /// Room tax collected.
    pub collected: Money,
    /// Forwarded to the commission.
    pub forwarded: Money,
    /// Retained by the municipality.
    pub retained: Money,
}

/// The sum of quarters given as `(collected, forwarded, retained)`; each
/// quarter's parts already add up to its whole, so the year's do too.
pub fn sum_split(quarters: &[(Money, Money, Money)]) -> YearSplit {
    quarters
        .iter()
        .fold(YearSplit::default(), |acc, (c, f, r)| YearSplit {
            collected: acc.collected + *c,
            forwarded: acc.forwarded + *f,
            retained: acc.retained + *r,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn item(cents: i64, category: Category, day: u32) -> Expenditure {
        Expenditure {
            date: NaiveDate::from_ymd_opt(2026, 3, day).unwrap(),
            payee: format!("payee {day}"),
            amount: Money::from_cents(cents),
            category,
            description: String::new(),
        }
    }

    #[test]
    fn items_of_1000_or_more_are_listed_and_the_rest_summed_by_category() {
        let items = [
            item(450_000, Category::MarketingProjects, 15),
            item(100_000, Category::TouristInformationServices, 1),
            item(99_999, Category::MarketingProjects, 2),
        ];
        let summed = [Summed {
            category: Category::MarketingProjects,
            amount: Money::from_cents(299_997),
            count: 3,
        }];
        let b = breakdown(&items, &summed);
        // 1000.00 is listed (the boundary), 999.99 is not; by date.
        let listed: Vec<i64> = b.large.iter().map(|e| e.amount.cents()).collect();
        assert_eq!(listed, [100_000, 450_000]);
        let m = b.by_category[&Category::MarketingProjects];
        // 4500.00 + 999.99 + 2999.97 = 8499.96; small 999.99 + 2999.97 = 3999.96.
        assert_eq!(m.total, Money::from_cents(849_996));
        assert_eq!(m.small, Money::from_cents(399_996));
        assert_eq!(m.count, 5);
        assert_eq!(b.total, Money::from_cents(949_996));
    }

    #[test]
    fn sl304_is_due_may_first_of_the_next_year() {
        assert_eq!(due_on(2026), NaiveDate::from_ymd_opt(2027, 5, 1));
        assert_eq!(due_on(i32::MAX), None);
    }

    proptest! {
        #[test]
        fn listed_items_and_small_parts_add_up_to_the_whole(
            cents in proptest::collection::vec(0i64..500_000, 0..20),
            sums in proptest::collection::vec(0i64..500_000, 0..5),
        ) {
            let items: Vec<Expenditure> = cents
                .iter()
                .enumerate()
                .map(|(i, c)| item(*c, Category::ALLOWED[i % 5], (i % 28) as u32 + 1))
                .collect();
            let summed: Vec<Summed> = sums
                .iter()
                .enumerate()
                .map(|(i, c)| Summed { category: Category::ALLOWED[i % 5], amount: Money::from_cents(*c), count: 1 })
                .collect();
            let b = breakdown(&items, &summed);
            let large: Money = b.large.iter().map(|e| e.amount).sum();
            let small: Money = b.by_category.values().map(|c| c.small).sum();
            let total: Money = b.by_category.values().map(|c| c.total).sum();
            prop_assert_eq!(large + small, b.total);
            prop_assert_eq!(total, b.total);
            prop_assert!(b.large.iter().all(|e| e.amount.cents() >= LARGE_ITEM_CENTS));
        }

        #[test]
        fn the_years_split_adds_up(parts in proptest::collection::vec((0i64..10_000_000, 0i64..10_000_000), 0..8)) {
            let quarters: Vec<(Money, Money, Money)> = parts
                .iter()
                .map(|(f, r)| (Money::from_cents(f + r), Money::from_cents(*f), Money::from_cents(*r)))
                .collect();
            let y = sum_split(&quarters);
            prop_assert_eq!(y.forwarded + y.retained, y.collected);
        }
    }
}
