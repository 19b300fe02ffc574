//! Exact money: US dollars held as a `rust_decimal::Decimal` with exactly two decimals.
//!
//! Contract (DESIGN §3, "Money is exact"):
//! - a [`Money`] always holds a whole number of cents (scale 2, never a negative zero);
//! - every computed amount is rounded once, to the cent, half away from zero
//!   ([`Money::round`]);
//! - splits conserve every cent ([`allocate`]: the first part is rounded, the second is
//!   the remainder);
//! - text and JSON form is a decimal string with exactly two decimals (`"1234.50"`);
//!   JSON input must be a string (a JSON number is refused, so no float ever carries money).
//!
//! Never uses `f32`/`f64`. Pure: no I/O.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use rust_decimal::{Decimal, RoundingStrategy};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

/// An amount of money in US dollars, exactly to the cent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(Decimal);

/// Why a text is not an amount of money.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyParseError {
    /// Empty input.
    #[error("an amount is required, e.g. \"1234.50\"")]
    Empty,
    /// Characters other than an optional `-`, digits and one decimal point.
    #[error("an amount is digits with an optional \"-\" and at most one \".\", e.g. \"1234.50\"")]
    Format,
    /// More than two digits after the decimal point.
    #[error("an amount has at most two decimals (cents)")]
    TooManyDecimals,
    /// More than [`Money::MAX_WHOLE_DIGITS`] digits before the decimal point.
    #[error("an amount has at most 12 digits before the decimal point (at most 999999999999.99)")]
    TooLarge,
}

impl MoneyParseError {
    /// Stable rule id for API problem details (e.g. `"money_format"`).
    pub fn rule(&self) -> &'static str {
        match self {
            MoneyParseError::Empty => "money_required",
            MoneyParseError::Format => "money_format",
            MoneyParseError::TooManyDecimals => "money_at_most_two_decimals",
            MoneyParseError::TooLarge => "money_too_large",
        }
    }
}

impl Money {
    /// The most digits an amount given to the service has before its decimal
    /// point: no room-tax figure reaches a trillion dollars, and so a sum of
    /// millions of given amounts stays far inside the ledger's 64-bit cents
    /// (a payment of 92 quadrillion dollars would otherwise be accepted and
    /// overflow the first journal that adds two of them).
    pub const MAX_WHOLE_DIGITS: usize = 12;

    /// Zero dollars.
    pub const ZERO: Money = Money(Decimal::from_parts(0, 0, 0, false, 2));

    /// Builds an amount from a count of cents (`from_cents(123450)` is 1234.50).
    pub fn from_cents(cents: i64) -> Money {
        Money(Decimal::new(cents, 2))
    }

    /// The amount as a count of cents (what storage keeps). Saturates at the `i64` bounds,
    /// which only sums of amounts beyond ninety quadrillion dollars could reach.
    pub fn cents(&self) -> i64 {
        let mantissa = self.0.mantissa();
        i64::try_from(mantissa).unwrap_or(if mantissa < 0 { i64::MIN } else { i64::MAX })
    }

    /// The amount as a decimal with two decimals.
    pub fn amount(&self) -> Decimal {
        self.0
    }

    /// Rounds an exact decimal once to the cent, half away from zero (DESIGN §3):
    /// 0.005 → 0.01, −0.005 → −0.01, 0.0049 → 0.00.
    pub fn round(value: Decimal) -> Money {
        Money::normalized(value.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero))
    }

    /// Parses `"12"`, `"12.5"`, `"12.50"` or `"-3.10"`. Refuses more than 12 digits
    /// before the point ([`Money::MAX_WHOLE_DIGITS`]), more than two decimals,
    /// exponents, signs other than a leading `-`, spaces and anything else. Negative
    /// amounts parse: callers that need a non-negative amount check the sign.
    pub fn parse(text: &str) -> Result<Money, MoneyParseError> {
        if text.is_empty() {
            return Err(MoneyParseError::Empty);
        }
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match unsigned.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (unsigned, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(whole) || fraction.is_some_and(|f| !all_digits(f)) {
            return Err(MoneyParseError::Format);
        }
        let fraction = fraction.unwrap_or("");
        if fraction.len() > 2 {
            return Err(MoneyParseError::TooManyDecimals);
        }
        if whole.len() > Money::MAX_WHOLE_DIGITS {
            return Err(MoneyParseError::TooLarge);
        }
        let mut cents: i64 = 0;
        for digit in whole
            .bytes()
            .chain(fraction.bytes())
            .chain("00".bytes().take(2 - fraction.len()))
        {
            cents = cents
                .checked_mul(10)
                .and_then(|c| c.checked_add(i64::from(digit - b'0')))
                .ok_or(MoneyParseError::TooLarge)?;
        }
        Ok(Money::from_cents(if negative { -cents } else { cents }))
    }

    /// True when the amount is below zero.
    pub fn is_negative(&self) -> bool {
        self.0.is_sign_negative() && !self.0.is_zero()
    }

    /// True when the amount is zero.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// The larger of zero and this amount.
    pub fn max_zero(self) -> Money {
        if self.is_negative() {
            Money::ZERO
        } else {
            self
        }
    }

    /// Same as the free function [`allocate`]: `(round(total × share), remainder)`.
    pub fn allocate(total: Money, share: Decimal) -> (Money, Money) {
        allocate(total, share)
    }

    /// Keeps the two-decimal invariant: scale exactly 2 and no negative zero.
    fn normalized(mut value: Decimal) -> Money {
        value.rescale(2);
        if value.is_zero() {
            value.set_sign_positive(true);
        }
        Money(value)
    }
}

/// Splits `total` in two so that the parts always sum to `total`: the first part is
/// `round(total × share)` (half away from zero, DESIGN §3 "Splits"), the second is the
/// remainder. E.g. 555.56 at 0.75 → (416.67, 138.89).
pub fn allocate(total: Money, share: Decimal) -> (Money, Money) {
    let first = Money::round(total.amount() * share);
    (first, total - first)
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money::normalized(self.0 + rhs.0)
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        *self = *self + rhs;
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money::normalized(self.0 - rhs.0)
    }
}

impl SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        *self = *self - rhs;
    }
}

impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money::normalized(-self.0)
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

impl<'a> Sum<&'a Money> for Money {
    fn sum<I: Iterator<Item = &'a Money>>(iter: I) -> Money {
        iter.copied().sum()
    }
}

/// Room for the text of any amount: a sign, 29 digits of a 96-bit mantissa and the point.
const TEXT_LEN: usize = 32;

impl Money {
    /// The two-decimal text (`1234.50`, `-0.05`, `0.00`) written into `buf`, without
    /// allocating: a quote serialises some forty amounts, and `to_string` went through
    /// `u128` formatting and a heap string for each (issue 12's profile of the quote).
    fn text(self, buf: &mut [u8; TEXT_LEN]) -> &str {
        fn digits<N>(mut n: N, buf: &mut [u8], mut at: usize, min: usize) -> usize
        where
            N: Copy + PartialEq + From<u8> + std::ops::Rem<Output = N> + std::ops::Div<Output = N>,
            u8: TryFrom<N>,
        {
            let ten = N::from(10);
            let mut written = 0;
            while written < min || n != N::from(0) {
                at -= 1;
                buf[at] = b'0' + u8::try_from(n % ten).unwrap_or(0);
                n = n / ten;
                written += 1;
            }
            at
        }
        let cents = self.0.mantissa();
        let abs = cents.unsigned_abs();
        let (units, hundredths) = (abs / 100, (abs % 100) as u8);
        let mut at = TEXT_LEN;
        at = digits(hundredths, buf, at, 2);
        at -= 1;
        buf[at] = b'.';
        at = match u64::try_from(units) {
            Ok(small) => digits(small, buf, at, 1),
            Err(_) => digits(units, buf, at, 1),
        };
        if cents < 0 {
            at -= 1;
            buf[at] = b'-';
        }
        std::str::from_utf8(&buf[at..]).expect("ASCII digits, a point and a sign")
    }
}

impl fmt::Display for Money {
    /// Always two decimals: `1234.50`, `-0.05`, `0.00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text(&mut [0; TEXT_LEN]))
    }
}

impl std::str::FromStr for Money {
    type Err = MoneyParseError;
    fn from_str(s: &str) -> Result<Money, MoneyParseError> {
        Money::parse(s)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text(&mut [0; TEXT_LEN]))
    }
}

struct MoneyVisitor;

impl Visitor<'_> for MoneyVisitor {
    type Value = Money;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an amount as a decimal string with at most two decimals, e.g. \"1234.50\"")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Money, E> {
        Money::parse(v).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Money, D::Error> {
        deserializer.deserialize_str(MoneyVisitor)
    }
}

impl utoipa::PartialSchema for Money {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "An amount in US dollars as a decimal string. Responses always carry exactly \
                 two decimals (\"1234.50\"); requests may give 0, 1 or 2 decimals and at \
                 most 12 digits before the point (at most 999999999999.99). Never a JSON \
                 number.",
            ))
            .pattern(Some(r"^-?[0-9]{1,12}(\.[0-9]{1,2})?$"))
            .examples([serde_json::Value::from("1234.50")])
            .into()
    }
}

impl utoipa::ToSchema for Money {
    fn name() -> std::borrow::Cow<'static, str> {
        "Money".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::str::FromStr;

    fn m(s: &str) -> Money {
        Money::parse(s).unwrap()
    }

    #[test]
    fn parse_accepts_zero_one_or_two_decimals() {
        let cases = [
            ("12", 1200),
            ("12.5", 1250),
            ("12.50", 1250),
            ("0", 0),
            ("0.01", 1),
            ("-3.10", -310),
            ("-0", 0),
            ("007.05", 705),
        ];
        for (text, cents) in cases {
            assert_eq!(m(text).cents(), cents, "{text}");
        }
    }

    #[test]
    fn parse_refuses_garbage() {
        let cases = [
            ("", MoneyParseError::Empty),
            ("12.345", MoneyParseError::TooManyDecimals),
            ("1e3", MoneyParseError::Format),
            ("1.2e1", MoneyParseError::Format),
            ("+12", MoneyParseError::Format),
            (" 12", MoneyParseError::Format),
            ("12 ", MoneyParseError::Format),
            ("12.", MoneyParseError::Format),
            (".5", MoneyParseError::Format),
            ("1,000.00", MoneyParseError::Format),
            ("NaN", MoneyParseError::Format),
            ("--1", MoneyParseError::Format),
            ("$5", MoneyParseError::Format),
            ("99999999999999999999", MoneyParseError::TooLarge),
            ("92233720368547758.07", MoneyParseError::TooLarge),
            ("1000000000000", MoneyParseError::TooLarge),
            ("-0000000000001", MoneyParseError::TooLarge),
        ];
        for (text, err) in cases {
            assert_eq!(Money::parse(text), Err(err), "{text:?}");
        }
    }

    #[test]
    fn displays_exactly_two_decimals() {
        let cases = [
            (Money::from_cents(123450), "1234.50"),
            (Money::from_cents(-5), "-0.05"),
            (Money::ZERO, "0.00"),
            (-Money::ZERO, "0.00"),
            (Money::round(Decimal::from_str("-0.001").unwrap()), "0.00"),
            (m("7"), "7.00"),
        ];
        for (money, text) in cases {
            assert_eq!(money.to_string(), text);
            assert_eq!(money.amount().scale(), 2);
        }
    }

    #[test]
    fn rounds_once_half_away_from_zero() {
        let cases = [
            ("0.005", "0.01"),
            ("-0.005", "-0.01"),
            ("0.0049999", "0.00"),
            ("555.5551", "555.56"),
            ("1.125", "1.13"),
            ("1.135", "1.14"),
            ("2.5", "2.50"),
        ];
        for (exact, rounded) in cases {
            assert_eq!(
                Money::round(Decimal::from_str(exact).unwrap()).to_string(),
                rounded
            );
        }
    }

    #[test]
    fn arithmetic_and_sum() {
        assert_eq!(m("1.10") + m("2.05"), m("3.15"));
        assert_eq!(m("1.10") - m("2.05"), m("-0.95"));
        assert!((m("1.10") - m("2.05")).is_negative());
        assert!(!Money::ZERO.is_negative());
        assert_eq!(-m("1.10"), m("-1.10"));
        assert_eq!(
            [m("1"), m("2.5"), m("0.01")].iter().sum::<Money>(),
            m("3.51")
        );
        assert_eq!(m("-4").max_zero(), Money::ZERO);
        assert!(m("1.01") > m("1"));
    }

    #[test]
    fn allocate_rounds_first_and_keeps_remainder() {
        let cases = [
            ("555.56", "0.75", "416.67", "138.89"),
            ("0.01", "0.75", "0.01", "0.00"),
            ("0.02", "0.75", "0.02", "0.00"),
            ("0.03", "0.5", "0.02", "0.01"),
            ("100.00", "0", "0.00", "100.00"),
            ("100.00", "1", "100.00", "0.00"),
            ("-0.03", "0.5", "-0.02", "-0.01"),
        ];
        for (total, share, first, second) in cases {
            let (a, b) = allocate(m(total), Decimal::from_str(share).unwrap());
            assert_eq!(
                (a.to_string().as_str(), b.to_string().as_str()),
                (first, second),
                "{total} × {share}"
            );
        }
    }

    #[test]
    fn serde_is_a_two_decimal_string_and_refuses_numbers() {
        assert_eq!(serde_json::to_string(&m("1234.5")).unwrap(), "\"1234.50\"");
        assert_eq!(
            serde_json::from_str::<Money>("\"12.5\"").unwrap(),
            m("12.50")
        );
        assert!(serde_json::from_str::<Money>("12.5").is_err());
        assert!(serde_json::from_str::<Money>("12").is_err());
        assert!(serde_json::from_str::<Money>("\"12.345\"").is_err());
    }

    proptest! {
        #[test]
        fn allocation_parts_sum_to_the_whole(cents in -10_000_000_000i64..10_000_000_000, share_bp in 0u32..=10_000) {
            let total = Money::from_cents(cents);
            let share = Decimal::new(i64::from(share_bp), 4);
            let (a, b) = allocate(total, share);
            prop_assert_eq!(a + b, total);
            prop_assert_eq!(a.cents() + b.cents(), cents);
        }

        #[test]
        fn display_then_parse_round_trips(cents in -99_999_999_999_999i64..=99_999_999_999_999) {
            let money = Money::from_cents(cents);
            prop_assert_eq!(Money::parse(&money.to_string()), Ok(money));
        }

        #[test]
        fn text_is_the_decimal_of_the_cents(cents in proptest::num::i128::ANY) {
            // Every mantissa a Decimal holds (96 bits), on both sides of u64's range.
            let cents = cents % (1i128 << 96);
            let money = Money(Decimal::from_i128_with_scale(cents, 2));
            let abs = cents.unsigned_abs();
            let sign = if cents < 0 { "-" } else { "" };
            let expected = format!("{sign}{}.{:02}", abs / 100, abs % 100);
            prop_assert_eq!(money.to_string(), expected.clone());
            prop_assert_eq!(serde_json::to_string(&money).unwrap(), format!("\"{expected}\""));
        }

        #[test]
        fn beyond_twelve_digits_is_refused_not_wrapped(cents in 100_000_000_000_000i64..=i64::MAX) {
            let text = Money::from_cents(cents).to_string();
            prop_assert_eq!(Money::parse(&text), Err(MoneyParseError::TooLarge));
            let negative = format!("-{text}");
            prop_assert_eq!(Money::parse(&negative), Err(MoneyParseError::TooLarge));
        }
    }
}
