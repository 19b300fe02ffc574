//! Every fault of one request, collected so that a client learns them all at once.
//!
//! Contract: [`Faults`] gathers [`DomainError::Invalid`] values in the order
//! fields are judged; [`Invalid`] is the non-empty result a request answers
//! with (the API maps it to one 422 listing each field and rule). Besides
//! the rules of each value ([`FieldValue`]), it owns the rules of a
//! request's shape: a creation's field is `required` (never filled with a
//! default) or optional; a change's field cannot be cleared (`not_null`) or
//! may be (`null` clears it); a change must change something
//! (`at_least_one_field`: an empty one would bump the version for nothing).

use chrono::NaiveDate;

use super::{
    AnnualElection, Email, EstablishmentKind, FiscalYearEnd, Name, Phone, SellerPermit, Units,
    text::Address,
};
use crate::domain::DomainError;

/// A registry value a request carries in one field, parsed from what the
/// transport gives (text, a whole number, a date already read strictly).
pub trait FieldValue: Sized {
    /// What the transport gives.
    type Raw;
    /// Parse the value of `field`.
    fn parse_field(field: &str, raw: Self::Raw) -> Result<Self, DomainError>;
}

/// `FieldValue` through each type's own `parse(field, raw)`.
macro_rules! field_values {
    (text: $($ty:ident),*) => {$(
        impl FieldValue for $ty {
            type Raw = String;
            fn parse_field(field: &str, raw: String) -> Result<Self, DomainError> {
                $ty::parse(field, &raw)
            }
        }
    )*};
    (number: $($ty:ident),*) => {$(
        impl FieldValue for $ty {
            type Raw = i64;
            fn parse_field(field: &str, raw: i64) -> Result<Self, DomainError> {
                $ty::parse(field, raw)
            }
        }
    )*};
}

field_values!(text: Name, Address, Email, Phone, SellerPermit, AnnualElection, EstablishmentKind);
field_values!(number: FiscalYearEnd, Units);

/// A date: the transports read it strictly (ISO 8601) before it gets here.
impl FieldValue for NaiveDate {
    type Raw = NaiveDate;
    fn parse_field(_: &str, raw: NaiveDate) -> Result<Self, DomainError> {
        Ok(raw)
    }
}

/// The faults found so far while parsing one request.
#[derive(Debug, Default)]
pub struct Faults(Vec<DomainError>);

/// One or more field faults of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub Vec<DomainError>);

impl Faults {
    /// Record a fault.
    pub fn add(&mut self, error: DomainError) {
        self.0.push(error);
    }

    /// Record a fault on `field`.
    pub fn invalid(&mut self, field: &str, rule: &str, message: impl Into<String>) {
        self.add(DomainError::invalid(field, rule, message));
    }

    /// The value, or `None` with its fault recorded.
    pub fn take<T>(&mut self, result: Result<T, DomainError>) -> Option<T> {
        result.map_err(|e| self.add(e)).ok()
    }

    /// Whether no fault was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(())` when no fault was found.
    pub fn check(self) -> Result<(), Invalid> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Invalid(self.0))
        }
    }

    /// The faults found (possibly none).
    pub fn into_invalid(self) -> Invalid {
        Invalid(self.0)
    }

    /// A required field of a creation: absent is refused (rule `required`).
    pub fn required<T: FieldValue>(&mut self, field: &str, value: Option<T::Raw>) -> Option<T> {
        if value.is_none() {
            self.invalid(field, "required", "this field is required");
        }
        self.take(T::parse_field(field, value?))
    }

    /// An optional field of a creation: absent is `Some(None)`, a fault `None`.
    pub fn optional<T: FieldValue>(
        &mut self,
        field: &str,
        value: Option<T::Raw>,
    ) -> Option<Option<T>> {
        match value {
            None => Some(None),
            Some(raw) => self.take(T::parse_field(field, raw)).map(Some),
        }
    }

    /// A field of a change that cannot be cleared: absent is `None`, `null`
    /// refused (rule `not_null`).
    pub fn kept<T: FieldValue>(&mut self, field: &str, value: Option<Option<T::Raw>>) -> Option<T> {
        if let Some(None) = value {
            self.invalid(
                field,
                "not_null",
                "cannot be cleared; omit it to keep the current value",
            );
        }
        self.take(T::parse_field(field, value.flatten()?))
    }

    /// A field of a change that `null` clears: absent is `None`, `null`
    /// `Some(None)`, a fault `None`.
    pub fn clearable<T: FieldValue>(
        &mut self,
        field: &str,
        value: Option<Option<T::Raw>>,
    ) -> Option<Option<T>> {
        self.optional(field, value?)
    }

    /// The value assembled from every field, unless a fault was found.
    pub fn finish<T>(self, value: Option<T>) -> Result<T, Invalid> {
        match value {
            Some(value) if self.is_empty() => Ok(value),
            _ => Err(self.into_invalid()),
        }
    }

    /// The change, unless a fault was found or it changes nothing (rule
    /// `at_least_one_field` on `body`).
    pub fn change<C: Default + PartialEq>(mut self, change: C) -> Result<C, Invalid> {
        if self.is_empty() && change == C::default() {
            self.invalid(
                "body",
                "at_least_one_field",
                "send at least one field to change",
            );
        }
        self.check().map(|()| change)
    }
}

impl From<DomainError> for Invalid {
    fn from(error: DomainError) -> Self {
        Invalid(vec![error])
    }
}

/// What tests compare of a refused request: each fault's field and rule, in order.
#[cfg(test)]
pub(crate) mod testing {
    use super::Invalid;
    use crate::domain::DomainError;

    /// The (field, rule) of every fault of `err`, in order.
    pub fn rules(err: Invalid) -> Vec<(String, String)> {
        err.0
            .into_iter()
            .map(|e| match e {
                DomainError::Invalid { field, rule, .. } => (field, rule),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    /// [`rules`] of a parse that must be refused (panics if it was accepted).
    pub fn refused<T: std::fmt::Debug>(result: Result<T, Invalid>) -> Vec<(String, String)> {
        match result {
            Err(err) => rules(err),
            Ok(value) => panic!("accepted: {value:?}"),
        }
    }

    /// A (field, rule) to compare with.
    pub fn pair(field: &str, rule: &str) -> (String, String) {
        (field.to_owned(), rule.to_owned())
    }

    /// The (field, rule) pairs to compare with.
    pub fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected.iter().map(|(f, r)| pair(f, r)).collect()
    }
}
