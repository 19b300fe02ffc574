//! Parse payor and establishment request fields into values the rows may hold.
//!
//! Contract: every field is checked and every fault reported at once, each as
//! a 422 naming the JSON field and a stable rule: `required`, `not_null`
//! (a PATCH cannot clear this field), `non_empty`, `max_length`,
//! `no_control_characters`, `email`, `phone`, `seller_permit`, `one_of`,
//! `range`, `required_for_fiscal`, `only_for_fiscal`, `not_after_closed`,
//! `not_before_opened`, `at_least_one_field`. Text is trimmed before it is
//! checked and stored. What leaves here satisfies every CHECK of the
//! `payors` and `establishments` tables, so the database never has to refuse it.

use chrono::NaiveDate;

use super::{
    AnnualElection, CloseRequest, EstablishmentKind, EstablishmentPatch, NewEstablishment,
    NewPayor, PayorPatch,
};
use crate::{
    db::models::{EstablishmentRow, PayorRow},
    error::{ApiError, FieldError},
};

/// Longest names (legal name, trade name, contact, establishment name).
const NAME_MAX: usize = 200;
/// Longest address.
const ADDRESS_MAX: usize = 500;
/// Longest email address (RFC 5321 path limit).
const EMAIL_MAX: usize = 254;
/// Longest telephone number as written.
const PHONE_MAX: usize = 40;
/// Longest seller's permit number as written.
const PERMIT_MAX: usize = 32;
/// Most rooms or sites one establishment may declare.
const UNITS_MAX: i64 = 100_000;

/// Field faults collected while parsing one request.
#[derive(Debug, Default)]
struct Faults(Vec<FieldError>);

impl Faults {
    fn add(&mut self, field: &str, rule: &str, message: impl Into<String>) {
        self.0.push(FieldError::new(field, rule, message));
    }

    fn finish<T>(self, value: impl FnOnce() -> T) -> Result<T, ApiError> {
        if self.0.is_empty() {
            Ok(value())
        } else {
            Err(ApiError::Validation(self.0))
        }
    }
}

/// Text kinds: one line, or lines (addresses).
#[derive(Debug, Clone, Copy)]
enum Lines {
    One,
    Many,
}

/// Trimmed text of 1..=`max` characters without control characters (line
/// breaks allowed in `Lines::Many`).
fn text(f: &mut Faults, field: &str, raw: &str, max: usize, lines: Lines) -> Option<String> {
    let value = raw.trim();
    if value.is_empty() {
        f.add(field, "non_empty", "must not be empty or blank");
        return None;
    }
    if value.chars().count() > max {
        f.add(
            field,
            "max_length",
            format!("must be at most {max} characters"),
        );
        return None;
    }
    let allowed = |c: char| match lines {
        Lines::One => !c.is_control(),
        Lines::Many => !c.is_control() || c == '\n' || c == '\r' || c == '\t',
    };
    if !value.chars().all(allowed) {
        f.add(
            field,
            "no_control_characters",
            "must not contain control characters",
        );
        return None;
    }
    Some(value.to_owned())
}

/// A plausible email address: one `@`, a local part, a dotted domain, no spaces.
fn email(f: &mut Faults, field: &str, raw: &str) -> Option<String> {
    let value = text(f, field, raw, EMAIL_MAX, Lines::One)?;
    let shaped = match value.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
                && !value.chars().any(char::is_whitespace)
        }
        None => false,
    };
    if shaped {
        Some(value)
    } else {
        f.add(
            field,
            "email",
            "must be an email address such as name@example.com",
        );
        None
    }
}

/// A telephone number as people write it: 7 to 15 digits, with `+`, spaces,
/// `-`, `.`, parentheses and `x` (before an extension) allowed.
fn phone(f: &mut Faults, field: &str, raw: &str) -> Option<String> {
    let value = text(f, field, raw, PHONE_MAX, Lines::One)?;
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let chars_ok = value
        .chars()
        .all(|c| c.is_ascii_digit() || " +-.()xX".contains(c));
    if chars_ok && (7..=15).contains(&digits) {
        Some(value)
    } else {
        f.add(
            field,
            "phone",
            "must be a telephone number: 7 to 15 digits, with +, spaces, -, ., parentheses or x for an extension",
        );
        None
    }
}

/// A seller's permit number: digits and hyphens, starting and ending with a digit.
/// (The Department of Revenue's exact layout is not enforced.)
fn seller_permit(f: &mut Faults, field: &str, raw: &str) -> Option<String> {
    let value = text(f, field, raw, PERMIT_MAX, Lines::One)?;
    let ok = value.chars().all(|c| c.is_ascii_digit() || c == '-')
        && value.starts_with(|c: char| c.is_ascii_digit())
        && value.ends_with(|c: char| c.is_ascii_digit());
    if ok {
        Some(value)
    } else {
        f.add(
            field,
            "seller_permit",
            "must be digits and hyphens, e.g. 456-1234567890-02",
        );
        None
    }
}

fn election(f: &mut Faults, field: &str, raw: &str) -> Option<AnnualElection> {
    let found = AnnualElection::parse(raw.trim());
    if found.is_none() {
        f.add(field, "one_of", "must be one of: calendar, fiscal");
    }
    found
}

fn month(f: &mut Faults, field: &str, raw: i64) -> Option<i32> {
    if (1..=11).contains(&raw) {
        i32::try_from(raw).ok()
    } else {
        f.add(
            field,
            "range",
            "must be a month from 1 to 11 (a fiscal year ending in December is the calendar year)",
        );
        None
    }
}

fn kind(f: &mut Faults, field: &str, raw: &str) -> Option<EstablishmentKind> {
    let found = EstablishmentKind::parse(raw.trim());
    if found.is_none() {
        let all: Vec<&str> = EstablishmentKind::ALL.iter().map(|k| k.as_str()).collect();
        f.add(
            field,
            "one_of",
            format!("must be one of: {}", all.join(", ")),
        );
    }
    found
}

fn units(f: &mut Faults, field: &str, raw: i64) -> Option<i32> {
    if (0..=UNITS_MAX).contains(&raw) {
        i32::try_from(raw).ok()
    } else {
        f.add(
            field,
            "range",
            format!("must be a whole number from 0 to {UNITS_MAX}"),
        );
        None
    }
}

/// A required field of a create request.
fn required<T>(f: &mut Faults, field: &str, value: Option<T>) -> Option<T> {
    if value.is_none() {
        f.add(field, "required", "this field is required");
    }
    value
}

/// A field of a PATCH that cannot be cleared: `null` is refused.
fn not_null<T>(f: &mut Faults, field: &str, value: Option<Option<T>>) -> Option<T> {
    match value {
        Some(None) => {
            f.add(
                field,
                "not_null",
                "cannot be cleared; omit it to keep the current value",
            );
            None
        }
        Some(Some(v)) => Some(v),
        None => None,
    }
}

/// Parse an optional field of a PATCH: absent stays `None`, `null` is `Some(None)`.
fn clearable<T, U>(
    f: &mut Faults,
    value: Option<Option<T>>,
    parse: impl FnOnce(&mut Faults, T) -> Option<U>,
) -> Option<Option<U>> {
    match value {
        None => None,
        Some(None) => Some(None),
        Some(Some(raw)) => parse(f, raw).map(Some),
    }
}

/// Check the election and the fiscal year end month together.
fn election_and_month(f: &mut Faults, election: AnnualElection, month: Option<i32>) {
    match (election, month) {
        (AnnualElection::Fiscal, None) => f.add(
            "fiscal_year_end_month",
            "required_for_fiscal",
            "a fiscal election needs the month (1 to 11) its fiscal year ends in",
        ),
        (AnnualElection::Calendar, Some(_)) => f.add(
            "fiscal_year_end_month",
            "only_for_fiscal",
            "only a fiscal election has a fiscal year end month",
        ),
        _ => {}
    }
}

/// The fields of a payor, every one valid.
#[derive(Debug, Clone)]
pub(super) struct PayorFields {
    legal_name: String,
    dba: Option<String>,
    contact_name: Option<String>,
    contact_email: Option<String>,
    contact_phone: Option<String>,
    mailing_address: String,
    seller_permit: Option<String>,
    annual_election: AnnualElection,
    fiscal_year_end_month: Option<i32>,
}

impl NewPayor {
    /// Parse every field, reporting every fault at once.
    pub(super) fn parse(self) -> Result<PayorFields, ApiError> {
        let mut f = Faults::default();
        let legal_name = required(&mut f, "legal_name", self.legal_name)
            .and_then(|v| text(&mut f, "legal_name", &v, NAME_MAX, Lines::One));
        let dba = self
            .dba
            .map(|v| text(&mut f, "dba", &v, NAME_MAX, Lines::One));
        let contact_name = self
            .contact_name
            .map(|v| text(&mut f, "contact_name", &v, NAME_MAX, Lines::One));
        let contact_email = self
            .contact_email
            .map(|v| email(&mut f, "contact_email", &v));
        let contact_phone = self
            .contact_phone
            .map(|v| phone(&mut f, "contact_phone", &v));
        let mailing_address = required(&mut f, "mailing_address", self.mailing_address)
            .and_then(|v| text(&mut f, "mailing_address", &v, ADDRESS_MAX, Lines::Many));
        let permit = self
            .seller_permit
            .map(|v| seller_permit(&mut f, "seller_permit", &v));
        let annual_election = required(&mut f, "annual_election", self.annual_election)
            .and_then(|v| election(&mut f, "annual_election", &v));
        let fiscal_month = self
            .fiscal_year_end_month
            .map(|v| month(&mut f, "fiscal_year_end_month", v));
        if let Some(e) = annual_election
            && fiscal_month.is_none_or(|m| m.is_some())
        {
            election_and_month(&mut f, e, fiscal_month.flatten());
        }
        f.finish(|| PayorFields {
            legal_name: legal_name.unwrap_or_default(),
            dba: dba.flatten(),
            contact_name: contact_name.flatten(),
            contact_email: contact_email.flatten(),
            contact_phone: contact_phone.flatten(),
            mailing_address: mailing_address.unwrap_or_default(),
            seller_permit: permit.flatten(),
            annual_election: annual_election.unwrap_or(AnnualElection::Calendar),
            fiscal_year_end_month: fiscal_month.flatten(),
        })
    }
}

impl PayorFields {
    /// A new row (version 1) for these fields.
    pub(super) fn into_row(
        self,
        municipality_id: i64,
        id: String,
        now: chrono::NaiveDateTime,
    ) -> PayorRow {
        PayorRow {
            municipality_id,
            id,
            legal_name: self.legal_name,
            dba: self.dba,
            contact_name: self.contact_name,
            contact_email: self.contact_email,
            contact_phone: self.contact_phone,
            mailing_address: self.mailing_address,
            seller_permit: self.seller_permit,
            annual_election: self.annual_election.as_str().to_owned(),
            fiscal_year_end_month: self.fiscal_year_end_month,
            closed_on: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }
}

/// Parsed changes to a payor: `None` keeps a field, `Some(None)` clears it.
#[derive(Debug, Clone, Default)]
pub(super) struct PayorChanges {
    legal_name: Option<String>,
    dba: Option<Option<String>>,
    contact_name: Option<Option<String>>,
    contact_email: Option<Option<String>>,
    contact_phone: Option<Option<String>>,
    mailing_address: Option<String>,
    seller_permit: Option<Option<String>>,
    annual_election: Option<AnnualElection>,
    fiscal_year_end_month: Option<Option<i32>>,
}

impl PayorPatch {
    /// Parse every field present, reporting every fault at once; an empty
    /// patch is refused (it would bump the version for nothing).
    pub(super) fn parse(self) -> Result<PayorChanges, ApiError> {
        let mut f = Faults::default();
        let empty = self.legal_name.is_none()
            && self.dba.is_none()
            && self.contact_name.is_none()
            && self.contact_email.is_none()
            && self.contact_phone.is_none()
            && self.mailing_address.is_none()
            && self.seller_permit.is_none()
            && self.annual_election.is_none()
            && self.fiscal_year_end_month.is_none();
        if empty {
            f.add(
                "body",
                "at_least_one_field",
                "send at least one field to change",
            );
        }
        let legal_name = not_null(&mut f, "legal_name", self.legal_name)
            .and_then(|v| text(&mut f, "legal_name", &v, NAME_MAX, Lines::One));
        let dba = clearable(&mut f, self.dba, |f, v| {
            text(f, "dba", &v, NAME_MAX, Lines::One)
        });
        let contact_name = clearable(&mut f, self.contact_name, |f, v| {
            text(f, "contact_name", &v, NAME_MAX, Lines::One)
        });
        let contact_email = clearable(&mut f, self.contact_email, |f, v| {
            email(f, "contact_email", &v)
        });
        let contact_phone = clearable(&mut f, self.contact_phone, |f, v| {
            phone(f, "contact_phone", &v)
        });
        let mailing_address = not_null(&mut f, "mailing_address", self.mailing_address)
            .and_then(|v| text(&mut f, "mailing_address", &v, ADDRESS_MAX, Lines::Many));
        let permit = clearable(&mut f, self.seller_permit, |f, v| {
            seller_permit(f, "seller_permit", &v)
        });
        let annual_election = not_null(&mut f, "annual_election", self.annual_election)
            .and_then(|v| election(&mut f, "annual_election", &v));
        let fiscal_year_end_month = clearable(&mut f, self.fiscal_year_end_month, |f, v| {
            month(f, "fiscal_year_end_month", v)
        });
        f.finish(|| PayorChanges {
            legal_name,
            dba,
            contact_name,
            contact_email,
            contact_phone,
            mailing_address,
            seller_permit: permit,
            annual_election,
            fiscal_year_end_month,
        })
    }
}

impl PayorChanges {
    /// Apply to the stored row, checking the election and month together.
    /// Switching to `calendar` without naming the month clears a stored one.
    pub(super) fn apply(self, row: &mut PayorRow) -> Result<(), ApiError> {
        let mut f = Faults::default();
        let stored = AnnualElection::parse(&row.annual_election)
            .ok_or_else(|| ApiError::internal("stored payor has an unknown annual election"))?;
        let election = self.annual_election.unwrap_or(stored);
        let month = match self.fiscal_year_end_month {
            Some(m) => m,
            None if election == AnnualElection::Calendar => None,
            None => row.fiscal_year_end_month,
        };
        election_and_month(&mut f, election, month);
        f.finish(|| ())?;
        if let Some(v) = self.legal_name {
            row.legal_name = v;
        }
        if let Some(v) = self.dba {
            row.dba = v;
        }
        if let Some(v) = self.contact_name {
            row.contact_name = v;
        }
        if let Some(v) = self.contact_email {
            row.contact_email = v;
        }
        if let Some(v) = self.contact_phone {
            row.contact_phone = v;
        }
        if let Some(v) = self.mailing_address {
            row.mailing_address = v;
        }
        if let Some(v) = self.seller_permit {
            row.seller_permit = v;
        }
        row.annual_election = election.as_str().to_owned();
        row.fiscal_year_end_month = month;
        Ok(())
    }
}

impl CloseRequest {
    /// The closing date (required).
    pub(super) fn parse(self) -> Result<NaiveDate, ApiError> {
        let mut f = Faults::default();
        let closed_on = required(&mut f, "closed_on", self.closed_on);
        f.finish(|| closed_on.unwrap_or_default())
    }
}

/// The fields of an establishment, every one valid.
#[derive(Debug, Clone)]
pub(super) struct EstablishmentFields {
    name: String,
    address: String,
    kind: EstablishmentKind,
    units: i32,
    opened_on: Option<NaiveDate>,
}

impl NewEstablishment {
    /// Parse every field, reporting every fault at once.
    pub(super) fn parse(self) -> Result<EstablishmentFields, ApiError> {
        let mut f = Faults::default();
        let name = required(&mut f, "name", self.name)
            .and_then(|v| text(&mut f, "name", &v, NAME_MAX, Lines::One));
        let address = required(&mut f, "address", self.address)
            .and_then(|v| text(&mut f, "address", &v, ADDRESS_MAX, Lines::Many));
        let kind = required(&mut f, "kind", self.kind).and_then(|v| kind(&mut f, "kind", &v));
        let units = required(&mut f, "units", self.units).and_then(|v| units(&mut f, "units", v));
        f.finish(|| EstablishmentFields {
            name: name.unwrap_or_default(),
            address: address.unwrap_or_default(),
            kind: kind.unwrap_or(EstablishmentKind::Hotel),
            units: units.unwrap_or_default(),
            opened_on: self.opened_on,
        })
    }
}

impl EstablishmentFields {
    /// A new row (version 1) for these fields.
    pub(super) fn into_row(
        self,
        municipality_id: i64,
        id: String,
        payor_id: String,
        now: chrono::NaiveDateTime,
    ) -> EstablishmentRow {
        EstablishmentRow {
            municipality_id,
            id,
            payor_id,
            name: self.name,
            address: self.address,
            kind: self.kind.as_str().to_owned(),
            units: self.units,
            opened_on: self.opened_on,
            closed_on: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }
}

/// Parsed changes to an establishment.
#[derive(Debug, Clone, Default)]
pub(super) struct EstablishmentChanges {
    name: Option<String>,
    address: Option<String>,
    kind: Option<EstablishmentKind>,
    units: Option<i32>,
    opened_on: Option<Option<NaiveDate>>,
}

impl EstablishmentPatch {
    /// Parse every field present, reporting every fault at once.
    pub(super) fn parse(self) -> Result<EstablishmentChanges, ApiError> {
        let mut f = Faults::default();
        if self.name.is_none()
            && self.address.is_none()
            && self.kind.is_none()
            && self.units.is_none()
            && self.opened_on.is_none()
        {
            f.add(
                "body",
                "at_least_one_field",
                "send at least one field to change",
            );
        }
        let name = not_null(&mut f, "name", self.name)
            .and_then(|v| text(&mut f, "name", &v, NAME_MAX, Lines::One));
        let address = not_null(&mut f, "address", self.address)
            .and_then(|v| text(&mut f, "address", &v, ADDRESS_MAX, Lines::Many));
        let kind = not_null(&mut f, "kind", self.kind).and_then(|v| kind(&mut f, "kind", &v));
        let units = not_null(&mut f, "units", self.units).and_then(|v| units(&mut f, "units", v));
        f.finish(|| EstablishmentChanges {
            name,
            address,
            kind,
            units,
            opened_on: self.opened_on,
        })
    }
}

impl EstablishmentChanges {
    /// Apply to the stored row; an opening date after a recorded closing date is refused.
    pub(super) fn apply(self, row: &mut EstablishmentRow) -> Result<(), ApiError> {
        let opened_on = self.opened_on.unwrap_or(row.opened_on);
        if let (Some(opened), Some(closed)) = (opened_on, row.closed_on)
            && opened > closed
        {
            return Err(ApiError::invalid(
                "opened_on",
                "not_after_closed",
                format!("must not be after the recorded closing date {closed}"),
            ));
        }
        if let Some(v) = self.name {
            row.name = v;
        }
        if let Some(v) = self.address {
            row.address = v;
        }
        if let Some(v) = self.kind {
            row.kind = v.as_str().to_owned();
        }
        if let Some(v) = self.units {
            row.units = v;
        }
        row.opened_on = opened_on;
        Ok(())
    }
}

/// Check a closing date against an establishment's opening date.
pub(super) fn closing_after_opening(
    opened_on: Option<NaiveDate>,
    closed_on: NaiveDate,
) -> Result<(), ApiError> {
    match opened_on {
        Some(opened) if closed_on < opened => Err(ApiError::invalid(
            "closed_on",
            "not_before_opened",
            format!("must not be before the opening date {opened}"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(err: ApiError) -> Vec<(String, String)> {
        match err {
            ApiError::Validation(v) => v.into_iter().map(|e| (e.field, e.rule)).collect(),
            other => panic!("not a validation error: {other:?}"),
        }
    }

    fn pair(field: &str, rule: &str) -> (String, String) {
        (field.to_owned(), rule.to_owned())
    }

    fn valid() -> NewPayor {
        NewPayor {
            legal_name: Some("  Lakeside Motel LLC ".into()),
            mailing_address: Some("12 Lake Street\nMontello, WI 53949".into()),
            annual_election: Some("calendar".into()),
            ..NewPayor::default()
        }
    }

    #[test]
    fn a_valid_payor_is_trimmed() {
        let fields = valid().parse().unwrap();
        assert_eq!(fields.legal_name, "Lakeside Motel LLC");
        assert_eq!(fields.annual_election, AnnualElection::Calendar);
    }

    #[test]
    fn every_fault_is_reported_at_once() {
        let err = NewPayor {
            legal_name: Some(" ".into()),
            dba: Some("x".repeat(201)),
            contact_email: Some("not-an-email".into()),
            contact_phone: Some("12".into()),
            seller_permit: Some("ABC".into()),
            annual_election: Some("lunar".into()),
            fiscal_year_end_month: Some(12),
            ..NewPayor::default()
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![
                pair("legal_name", "non_empty"),
                pair("dba", "max_length"),
                pair("contact_email", "email"),
                pair("contact_phone", "phone"),
                pair("mailing_address", "required"),
                pair("seller_permit", "seller_permit"),
                pair("annual_election", "one_of"),
                pair("fiscal_year_end_month", "range"),
            ]
        );
    }

    #[test]
    fn the_month_goes_with_a_fiscal_election_only() {
        let err = NewPayor {
            annual_election: Some("fiscal".into()),
            ..valid()
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![pair("fiscal_year_end_month", "required_for_fiscal")]
        );
        let err = NewPayor {
            fiscal_year_end_month: Some(6),
            ..valid()
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![pair("fiscal_year_end_month", "only_for_fiscal")]
        );
        let ok = NewPayor {
            annual_election: Some("fiscal".into()),
            fiscal_year_end_month: Some(6),
            ..valid()
        }
        .parse()
        .unwrap();
        assert_eq!(ok.fiscal_year_end_month, Some(6));
    }

    #[test]
    fn emails_and_phones_have_a_shape() {
        let mut f = Faults::default();
        assert!(email(&mut f, "e", "a@b.co").is_some());
        assert!(email(&mut f, "e", "a@b").is_none());
        assert!(email(&mut f, "e", "a b@c.de").is_none());
        assert!(email(&mut f, "e", "@c.de").is_none());
        assert!(phone(&mut f, "p", "+1 (608) 555-0142 x12").is_some());
        assert!(phone(&mut f, "p", "call me").is_none());
        assert!(seller_permit(&mut f, "s", "456-1234567890-02").is_some());
        assert!(seller_permit(&mut f, "s", "-456").is_none());
    }

    fn row() -> PayorRow {
        NewPayor {
            annual_election: Some("fiscal".into()),
            fiscal_year_end_month: Some(6),
            dba: Some("Lakeside".into()),
            ..valid()
        }
        .parse()
        .unwrap()
        .into_row(1, "p".into(), chrono::NaiveDateTime::default())
    }

    #[test]
    fn a_patch_clears_with_null_and_switching_to_calendar_drops_the_month() {
        let patch: PayorPatch =
            serde_json::from_str(r#"{"dba": null, "annual_election": "calendar"}"#).unwrap();
        let mut r = row();
        patch.parse().unwrap().apply(&mut r).unwrap();
        assert_eq!(r.dba, None);
        assert_eq!(r.annual_election, "calendar");
        assert_eq!(r.fiscal_year_end_month, None);

        let patch: PayorPatch =
            serde_json::from_str(r#"{"legal_name": null, "fiscal_year_end_month": null}"#).unwrap();
        assert_eq!(
            rules(patch.parse().unwrap_err()),
            vec![pair("legal_name", "not_null")]
        );
        let patch: PayorPatch = serde_json::from_str(r#"{"fiscal_year_end_month": null}"#).unwrap();
        let mut r = row();
        assert_eq!(
            rules(patch.parse().unwrap().apply(&mut r).unwrap_err()),
            vec![pair("fiscal_year_end_month", "required_for_fiscal")]
        );
        let patch: PayorPatch = serde_json::from_str("{}").unwrap();
        assert_eq!(
            rules(patch.parse().unwrap_err()),
            vec![pair("body", "at_least_one_field")]
        );
    }

    #[test]
    fn establishments_check_kind_units_and_dates() {
        let err = NewEstablishment {
            name: Some("Cabins".into()),
            address: Some("1 Road".into()),
            kind: Some("castle".into()),
            units: Some(-1),
            opened_on: None,
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![pair("kind", "one_of"), pair("units", "range")]
        );
        let d = |s: &str| s.parse::<NaiveDate>().unwrap();
        assert!(closing_after_opening(Some(d("2026-05-01")), d("2026-04-30")).is_err());
        assert!(closing_after_opening(Some(d("2026-05-01")), d("2026-05-01")).is_ok());
        assert!(closing_after_opening(None, d("2026-05-01")).is_ok());
    }
}
