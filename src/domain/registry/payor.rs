//! A payor and an establishment as the registry accepts them: every field
//! already parsed.
//!
//! Contract: a [`NewPayor`] or [`NewEstablishment`] holds only valid values
//! (required ones present, never defaulted); a change ([`PayorChanges`],
//! [`EstablishmentChanges`]) holds `None` for "keep", `Some(None)` for
//! "clear" (optional fields only). The transports build them from their own
//! input; the use cases apply them to stored rows.

use chrono::NaiveDate;

use super::{
    AnnualElection, Election, Email, EstablishmentKind, FiscalYearEnd, Name, Phone, SellerPermit,
    Units, text::Address,
};

/// A payor to register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPayor {
    /// Legal name.
    pub legal_name: Name,
    /// Trade name.
    pub dba: Option<Name>,
    /// Contact person.
    pub contact_name: Option<Name>,
    /// Contact e-mail.
    pub contact_email: Option<Email>,
    /// Contact telephone.
    pub contact_phone: Option<Phone>,
    /// Mailing address.
    pub mailing_address: Address,
    /// Seller's permit number.
    pub seller_permit: Option<SellerPermit>,
    /// The annual election (not yet judged against the policy).
    pub election: Election,
}

/// Changes to a payor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayorChanges {
    /// New legal name.
    pub legal_name: Option<Name>,
    /// New or cleared trade name.
    pub dba: Option<Option<Name>>,
    /// New or cleared contact person.
    pub contact_name: Option<Option<Name>>,
    /// New or cleared contact e-mail.
    pub contact_email: Option<Option<Email>>,
    /// New or cleared contact telephone.
    pub contact_phone: Option<Option<Phone>>,
    /// New mailing address.
    pub mailing_address: Option<Address>,
    /// New or cleared seller's permit.
    pub seller_permit: Option<Option<SellerPermit>>,
    /// New election kind.
    pub annual_election: Option<AnnualElection>,
    /// New or cleared fiscal year end month.
    pub fiscal_year_end_month: Option<Option<FiscalYearEnd>>,
}

impl PayorChanges {
    /// Whether the change touches the annual election.
    pub fn touches_election(&self) -> bool {
        self.annual_election.is_some() || self.fiscal_year_end_month.is_some()
    }
}

/// An establishment to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEstablishment {
    /// Name of the place.
    pub name: Name,
    /// Street address.
    pub address: Address,
    /// Kind of place.
    pub kind: EstablishmentKind,
    /// Rooms or sites.
    pub units: Units,
    /// Opening date, if known.
    pub opened_on: Option<NaiveDate>,
}

/// Changes to an establishment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EstablishmentChanges {
    /// New name.
    pub name: Option<Name>,
    /// New address.
    pub address: Option<Address>,
    /// New kind.
    pub kind: Option<EstablishmentKind>,
    /// New number of rooms or sites.
    pub units: Option<Units>,
    /// New or cleared opening date.
    pub opened_on: Option<Option<NaiveDate>>,
}
