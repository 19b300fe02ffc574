//! Every fault of one request, collected so that a client learns them all at once.
//!
//! Contract: [`Faults`] gathers [`DomainError::Invalid`] values in the order
//! fields are judged; [`Invalid`] is the non-empty result a request answers
//! with (the API maps it to one 422 listing each field and rule).

use crate::domain::DomainError;

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
}

impl From<DomainError> for Invalid {
    fn from(error: DomainError) -> Self {
        Invalid(vec![error])
    }
}
