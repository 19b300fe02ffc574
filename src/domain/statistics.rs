//! Public statistics without disclosure: which cells of a table of tax collected
//! (municipality × quarter) must be withheld so that no operator's figures can be
//! read from it or worked out from what is shown.
//!
//! Contract. The input is a table of [`Cell`]s (tax collected in cents and the
//! number of payors behind it), one row per municipality and one column per
//! quarter. [`suppress`] answers which cells are withheld and whether each
//! column's total is withheld; row totals (a municipality's year) are always
//! shown, because the municipality's annual room tax is public anyway on its
//! Form SL-304 (Wis. Stat. § 66.0615(4)), and so is the grand total (their
//! sum). The rules, applied until nothing changes:
//!
//! 1. **Primary**: a cell built from one or two payors is withheld
//!    (`FewerThanThreePayors`): with fewer than three, a payor who knows its own
//!    figure could subtract it and learn the other's. A cell with no payor is
//!    shown (it is zero and says nothing about anyone); a non-zero cell claiming
//!    no payor is withheld too, since nothing vouches for it.
//! 2. **Rows**: the row total is shown, so a row with exactly one withheld cell
//!    would give it away by subtraction: the row's smallest other cell is
//!    withheld too (`Complementary`; cells with payors first, the fewest
//!    payors first, then a zero, whose being zero is then hidden as well).
//! 3. **Columns**: where a column's total is shown, its withheld cells must be at
//!    least two and, when one of them rests on fewer than three payors,
//!    together rest on at least three (the municipalities of a column are
//!    different, so their payors add up); otherwise the column's smallest
//!    other cell is withheld, or, when there is none, the column's total.
//! 4. **Totals of the quarters**: the grand total is shown, so exactly one
//!    withheld column total would be given away: another is withheld too, a
//!    column with withheld cells first.
//! 5. **Exactly**: after the rules above, every withheld cell is tested for
//!    whether the shown figures determine it (the linear equations of the rows,
//!    columns and totals, solved exactly: [`determined`]); for a determined
//!    one its column total is withheld, or, when it already is, another cell
//!    of its row (else of its column), and the rules run again. Every round
//!    withholds one more figure, so it ends.
//!
//! What cannot be hidden is stated rather than hidden: a municipality whose
//! every payor-bearing quarter rests on fewer than three payors has its year
//! published on SL-304 all the same; [`Suppression::row_rests_on_few`] names
//! such rows so the page can say so. Pure: no I/O.

/// One cell of the table: tax collected and the payors it was collected from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// Tax collected, in cents.
    pub cents: i64,
    /// How many payors paid it.
    pub payors: u32,
}

/// Why a cell is withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// It rests on one or two payors (rule 1).
    FewerThanThreePayors,
    /// It is withheld so that another withheld cell cannot be worked out from
    /// the totals (rules 2 and 3).
    Complementary,
}

impl Reason {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::FewerThanThreePayors => "fewer_than_three_payors",
            Reason::Complementary => "complementary",
        }
    }

    /// The sentence a reader sees.
    pub fn explain(self) -> &'static str {
        match self {
            Reason::FewerThanThreePayors => {
                "withheld: collected from fewer than three payors, so a payor could work out another's receipts"
            }
            Reason::Complementary => {
                "withheld so that a withheld cell cannot be worked out by subtracting the shown figures from a total"
            }
        }
    }
}

/// The fewest payors a shown figure may rest on.
pub const MIN_PAYORS: u32 = 3;

/// Which parts of a table are withheld.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// Per row and column: why the cell is withheld, or `None` when shown.
    pub cells: Vec<Vec<Option<Reason>>>,
    /// Per column: whether its total is withheld.
    pub column_totals: Vec<bool>,
    /// Per row: whether its shown total rests on fewer than three payors in
    /// every quarter that had any (published on SL-304 regardless).
    pub row_rests_on_few: Vec<bool>,
}

impl Suppression {
    /// Whether anything at all is withheld.
    pub fn any(&self) -> bool {
        self.column_totals.iter().any(|c| *c) || self.cells.iter().flatten().any(|c| c.is_some())
    }
}

fn primary(cell: &Cell) -> bool {
    (cell.payors > 0 && cell.payors < MIN_PAYORS) || (cell.payors == 0 && cell.cents != 0)
}

/// The smallest shown cell among `candidates`: cells with payors first
/// (fewest payors, then smallest amount, then first), then cells without
/// (withholding a zero hides that it is zero), if any is still shown.
fn smallest(
    table: &[Vec<Cell>],
    out: &[Vec<Option<Reason>>],
    candidates: &[(usize, usize)],
) -> Option<(usize, usize)> {
    candidates
        .iter()
        .copied()
        .filter(|&(r, c)| out[r][c].is_none())
        .min_by_key(|&(r, c)| {
            let cell = table[r][c];
            (cell.payors == 0, cell.payors, cell.cents.abs(), r, c)
        })
}

/// Decide what to withhold in `table` (rows × columns; every row has the same
/// number of columns). See the module doc for the rules.
#[allow(clippy::needless_range_loop)] // a table is read by (row, column) index
pub fn suppress(table: &[Vec<Cell>]) -> Suppression {
    let rows = table.len();
    let cols = table.first().map_or(0, Vec::len);
    debug_assert!(table.iter().all(|r| r.len() == cols), "ragged table");
    let mut out: Vec<Vec<Option<Reason>>> = table
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| primary(c).then_some(Reason::FewerThanThreePayors))
                .collect()
        })
        .collect();
    let mut col_hidden = vec![false; cols];
    loop {
        let mut changed = false;
        // Rule 2: rows (their totals are shown).
        for r in 0..rows {
            let hidden = (0..cols).filter(|&c| out[r][c].is_some()).count();
            if hidden == 1 {
                let cand: Vec<_> = (0..cols).map(|c| (r, c)).collect();
                if let Some((r, c)) = smallest(table, &out, &cand) {
                    out[r][c] = Some(Reason::Complementary);
                    changed = true;
                }
            }
        }
        // Rule 3: columns whose totals are shown.
        for c in 0..cols {
            if col_hidden[c] {
                continue;
            }
            let hidden: Vec<usize> = (0..rows).filter(|&r| out[r][c].is_some()).collect();
            let payors: u32 = hidden.iter().map(|&r| table[r][c].payors).sum();
            let sensitive = hidden.iter().any(|&r| primary(&table[r][c]));
            if !hidden.is_empty() && (hidden.len() < 2 || (sensitive && payors < MIN_PAYORS)) {
                let cand: Vec<_> = (0..rows).map(|r| (r, c)).collect();
                match smallest(table, &out, &cand) {
                    Some((r, c)) => out[r][c] = Some(Reason::Complementary),
                    None => col_hidden[c] = true,
                }
                changed = true;
            }
        }
        // Rule 4: the column totals against the grand total.
        if col_hidden.iter().filter(|h| **h).count() == 1 {
            // Prefer a column with withheld cells: withholding the total of a
            // column whose cells are all shown hides nothing.
            let other = (0..cols).filter(|&c| !col_hidden[c]).min_by_key(|&c| {
                let has_hidden = (0..rows).any(|r| out[r][c].is_some());
                (
                    !has_hidden,
                    table.iter().map(|r| r[c].cents).sum::<i64>().abs(),
                    c,
                )
            });
            if let Some(c) = other {
                col_hidden[c] = true;
                changed = true;
            }
        }
        if changed {
            continue;
        }
        // Rule 5: exactly, every withheld cell against the shown figures.
        for r in 0..rows {
            for c in 0..cols {
                if changed || out[r][c].is_none() || !determined(table, &out, &col_hidden, (r, c)) {
                    continue;
                }
                // Its column total first; then another cell of its row, then
                // of its column; one change at a time, then the rules again.
                if !col_hidden[c] {
                    col_hidden[c] = true;
                    changed = true;
                } else {
                    let row: Vec<_> = (0..cols).map(|c| (r, c)).collect();
                    let col: Vec<_> = (0..rows).map(|r| (r, c)).collect();
                    if let Some((r, c)) =
                        smallest(table, &out, &row).or_else(|| smallest(table, &out, &col))
                    {
                        out[r][c] = Some(Reason::Complementary);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let row_rests_on_few = table
        .iter()
        .map(|r| {
            let with_payors: Vec<&Cell> = r.iter().filter(|c| c.payors > 0).collect();
            !with_payors.is_empty() && with_payors.iter().all(|c| c.payors < MIN_PAYORS)
        })
        .collect();
    Suppression {
        cells: out,
        column_totals: col_hidden,
        row_rests_on_few,
    }
}

/// A prime for exact elimination: the coefficients are 0 and ±1 and the
/// tables small, so the rank over this field is the rank over the rationals
/// (a minor divisible by it would need thousands of rows).
const PRIME: u64 = (1 << 61) - 1;

fn mul(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % PRIME as u128) as u64
}

fn inverse(a: u64) -> u64 {
    // Fermat: a^(p-2).
    let (mut base, mut exp, mut acc) = (a, PRIME - 2, 1u64);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    acc
}

fn rank(mut m: Vec<Vec<u64>>) -> usize {
    let width = m.first().map_or(0, Vec::len);
    let mut rank = 0;
    for col in 0..width {
        let Some(pivot) = (rank..m.len()).find(|&i| m[i][col] != 0) else {
            continue;
        };
        m.swap(rank, pivot);
        let inv = inverse(m[rank][col]);
        for v in m[rank].iter_mut() {
            *v = mul(*v, inv);
        }
        let pivot_row = m[rank].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != rank && row[col] != 0 {
                let f = row[col];
                for (v, p) in row.iter_mut().zip(&pivot_row) {
                    *v = (*v + PRIME - mul(f, *p)) % PRIME;
                }
            }
        }
        rank += 1;
    }
    rank
}

/// Whether the figures shown (the cells not withheld, the column totals not
/// withheld in `col_hidden`, every row total and the grand total) determine
/// the withheld cell `target` exactly: whether its unit vector lies in the row
/// space of the equations restricted to the unknowns.
#[allow(clippy::needless_range_loop)] // a table is read by (row, column) index
pub fn determined(
    table: &[Vec<Cell>],
    hidden: &[Vec<Option<Reason>>],
    col_hidden: &[bool],
    target: (usize, usize),
) -> bool {
    let rows = table.len();
    let cols = table.first().map_or(0, Vec::len);
    // Unknowns: the withheld cells, then the withheld column totals.
    let mut index = std::collections::HashMap::new();
    for r in 0..rows {
        for c in 0..cols {
            if hidden[r][c].is_some() {
                let n = index.len();
                index.insert((r, Some(c)), n);
            }
        }
    }
    for (c, h) in col_hidden.iter().enumerate() {
        if *h {
            let n = index.len();
            index.insert((usize::MAX, Some(c)), n);
        }
    }
    let width = index.len();
    let Some(&t) = index.get(&(target.0, Some(target.1))) else {
        return true;
    };
    let minus_one = PRIME - 1;
    let mut eqs: Vec<Vec<u64>> = Vec::new();
    for r in 0..rows {
        let mut e = vec![0; width];
        for c in 0..cols {
            if let Some(&i) = index.get(&(r, Some(c))) {
                e[i] = 1;
            }
        }
        eqs.push(e);
    }
    for c in 0..cols {
        let mut e = vec![0; width];
        for r in 0..rows {
            if let Some(&i) = index.get(&(r, Some(c))) {
                e[i] = 1;
            }
        }
        if let Some(&i) = index.get(&(usize::MAX, Some(c))) {
            e[i] = minus_one;
        }
        eqs.push(e);
    }
    let mut margin = vec![0; width];
    for c in 0..cols {
        if let Some(&i) = index.get(&(usize::MAX, Some(c))) {
            margin[i] = 1;
        }
    }
    eqs.push(margin);
    eqs.retain(|e| e.iter().any(|v| *v != 0));
    let before = rank(eqs.clone());
    let mut unit = vec![0; width];
    unit[t] = 1;
    eqs.push(unit);
    rank(eqs) == before
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cell(dollars: i64, payors: u32) -> Cell {
        Cell {
            cents: dollars * 100,
            payors,
        }
    }

    #[test]
    fn a_table_of_many_payors_hides_nothing() {
        let t = vec![
            vec![cell(100, 5), cell(200, 4)],
            vec![cell(50, 3), cell(70, 9)],
        ];
        let s = suppress(&t);
        assert!(!s.any());
        assert_eq!(s.row_rests_on_few, vec![false, false]);
    }

    #[test]
    fn one_small_cell_takes_a_partner_in_its_row_and_column() {
        // Row 0 Q1 rests on 2 payors. Its row total is shown, so another of
        // row 0's cells goes; its column total is shown, so another of Q1's.
        let t = vec![
            vec![cell(900, 2), cell(4000, 5), cell(3000, 6), cell(5000, 7)],
            vec![cell(7000, 8), cell(6000, 4), cell(8000, 9), cell(9000, 9)],
            vec![cell(7500, 3), cell(6500, 5), cell(8500, 5), cell(9500, 5)],
        ];
        let s = suppress(&t);
        assert_eq!(s.cells[0][0], Some(Reason::FewerThanThreePayors));
        // Row 0: the fewest-payor other cell (Q2, 5 payors).
        assert_eq!(s.cells[0][1], Some(Reason::Complementary));
        // Q1: the fewest-payor other cell (row 2, 3 payors).
        assert_eq!(s.cells[2][0], Some(Reason::Complementary));
        for (r, c) in [(0, 0), (0, 1), (2, 0)] {
            assert!(
                !determined(&t, &s.cells, &s.column_totals, (r, c)),
                "{r},{c}"
            );
        }
    }

    #[test]
    fn two_one_payor_cells_of_a_column_are_not_enough() {
        // Two withheld cells in a column resting on 1 + 1 payors: their sum
        // would tell each payor the other's figure, so a third cell goes.
        let t = vec![
            vec![cell(100, 1), cell(400, 1)],
            vec![cell(200, 1), cell(300, 1)],
            vec![cell(5000, 6), cell(6000, 6)],
        ];
        let s = suppress(&t);
        assert!(s.cells[2][0].is_some() || s.column_totals[0]);
        assert!(s.cells[2][1].is_some() || s.column_totals[1]);
        assert_eq!(s.row_rests_on_few, vec![true, true, false]);
    }

    #[test]
    fn a_single_municipality_withholds_its_quarter_totals() {
        // One row: each column total is the cell itself.
        let t = vec![vec![cell(100, 2), cell(500, 4), cell(600, 5), cell(700, 6)]];
        let s = suppress(&t);
        assert_eq!(s.cells[0][0], Some(Reason::FewerThanThreePayors));
        assert_eq!(s.cells[0][1], Some(Reason::Complementary));
        assert!(s.column_totals[0] && s.column_totals[1]);
        assert!(!s.column_totals[2] && !s.column_totals[3]);
    }

    #[test]
    fn a_zero_cell_without_payors_is_shown() {
        let t = vec![vec![cell(0, 0), cell(500, 4)]];
        assert!(!suppress(&t).any());
        let t = vec![vec![cell(10, 0), cell(500, 4)]];
        assert_eq!(suppress(&t).cells[0][0], Some(Reason::FewerThanThreePayors));
    }

    proptest! {
        /// Whatever the table, no withheld cell resting on fewer than three
        /// payors can be worked out exactly from what is shown.
        #[test]
        fn no_small_cell_can_be_recovered(
            raw in prop::collection::vec(prop::collection::vec((0i64..100_000, 0u32..7), 4), 1..7)
        ) {
            let t: Vec<Vec<Cell>> = raw
                .iter()
                .map(|r| r.iter().map(|&(d, p)| Cell { cents: if p == 0 { 0 } else { d }, payors: p }).collect())
                .collect();
            let s = suppress(&t);
            for (r, row) in t.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if primary(cell) {
                        prop_assert!(s.cells[r][c].is_some());
                        {
                            prop_assert!(
                                !determined(&t, &s.cells, &s.column_totals, (r, c)),
                                "cell {r},{c} of {t:?} recoverable from {s:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
