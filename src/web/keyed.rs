//! The clerk's idempotent forms (a payment, a determination, a remittance
//! and its transfer): a hidden `idempotency_key` field sent through
//! `api::idempotency` as the API's `Idempotency-Key` header would be, so a
//! second submit of one rendered form (a double click, a reload of the POST)
//! answers the first result and does the work once.
//!
//! Contract of [`KeyedPost::run`]:
//! - the body that parsed is fingerprinted (canonical JSON); one that did not
//!   parse is never claimed: the work refuses it with its problems (422);
//! - `authorise` runs first in the unit, as in the API;
//! - success is a `303 See Other` to the `Location` the work's reply named;
//! - a refusal a form shows ([`Refused`]) is a validation's problems, a rule
//!   conflict's when the form shows those ([`KeyedPost::shows_conflicts`]),
//!   or a malformed key (the form's own field), which the form is shown
//!   again with a fresh one; anything else is the error page.

use actix_web::{HttpResponse, http::header};
use maud::{Markup, html};
use serde::Serialize;

use super::{FormData, WebError, see_other};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        idempotency::{Idempotency, Reply, fingerprint},
    },
    app::AppState,
    error::{ApiError, FieldError},
    tenancy::MunicipalityContext,
};

/// The hidden field that carries a form's idempotency key.
pub const KEY_FIELD: &str = "idempotency_key";

/// A fresh idempotency key for a form about to be shown.
pub fn new_key() -> String {
    // Random throughout (version 4), unlike row ids: nothing to learn from it.
    uuid::Uuid::new_v4().to_string()
}

/// The hidden field of a form with `key`.
pub fn key_field(key: &str) -> Markup {
    html! { input type="hidden" name=(KEY_FIELD) value=(key); }
}

/// What a keyed form was refused for, to show it again.
#[derive(Debug)]
pub struct Refused {
    /// The problems, each naming its field.
    pub errors: Vec<FieldError>,
    /// The key to show the form again with: the one sent (the refused
    /// request claimed nothing), or a fresh one when that was malformed.
    pub key: String,
}

/// How a keyed form was answered.
#[derive(Debug)]
pub enum Outcome {
    /// Done (or done before): the `303` to what it made.
    Done(HttpResponse),
    /// Refused: the form again, with these problems.
    Refused(Refused),
}

/// A keyed form posted to `target`.
pub struct KeyedPost<'a> {
    /// The posted form (its CSRF token checked).
    pub form: &'a FormData,
    /// The path the form posts to (the key's scope, as the API's target).
    pub target: String,
    /// Whether a rule conflict (409) is shown on the form rather than as the error page.
    pub shows_conflicts: bool,
    /// The internal error's message should the reply name no `Location`.
    pub unlocated: &'static str,
}

impl KeyedPost<'_> {
    /// Run `work` on the `parsed` body in `here` behind the form's key (see the module doc).
    pub async fn run<B, R, A, W>(
        self,
        state: &AppState,
        here: InMunicipality,
        parsed: Result<B, Vec<FieldError>>,
        authorise: A,
        work: W,
    ) -> Result<Outcome, WebError>
    where
        B: Serialize + Send + 'static,
        A: Fn(&MunicipalityContext) -> Result<R, ApiError> + Clone + Send + 'static,
        W: for<'c> FnOnce(MunicipalUnit<'c>, B) -> Result<Reply, ApiError> + Send + 'static,
    {
        let fingerprint = parsed.as_ref().ok().and_then(fingerprint);
        let answered = Idempotency::from_form(self.form.get(KEY_FIELD), &self.target)
            .write(state, here, fingerprint, authorise, move |unit| {
                let body = parsed.map_err(ApiError::Validation)?;
                work(unit, body)
            })
            .await;
        let mut key = self.form.shown(KEY_FIELD).to_owned();
        let errors = match answered {
            Ok(res) => {
                let location = res
                    .headers()
                    .get(header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .ok_or_else(|| ApiError::internal(self.unlocated))?;
                return Ok(Outcome::Done(see_other(location)));
            }
            Err(ApiError::Validation(errors)) => errors,
            Err(ApiError::RuleConflict(error)) if self.shows_conflicts => vec![error],
            // A malformed key (the form's own field): a fresh one on the form.
            Err(ApiError::InvalidParameter { name, message }) => {
                key = new_key();
                vec![FieldError::new(name, "invalid", message)]
            }
            Err(other) => return Err(other.into()),
        };
        Ok(Outcome::Refused(Refused { errors, key }))
    }
}
