//! The one skeleton of every registry request: take what the request
//! carries, authorise, judge the input and then `If-Match`, name the actor,
//! and run the use case with one [`Call`].
//!
//! Contract: a handler takes a [`Request`] ([`Create`], [`Change`] or
//! [`Read`]) and calls [`Request::write`] (the caller must be allowed
//! `WritePayors`) or [`Request::read`] (the caller must be able to read some
//! payor here; the use case decides which). The order of answers is the
//! registry's (module docs of `payors`): 401 (the token, on extraction),
//! 404/403 (authorisation), then the body or query (400/415/422), then
//! `If-Match` (428), then the actor (a person or a client; `Actor::of`);
//! the use case's own answers (404, 412, 409) come last. Everything runs in
//! one write unit of work: even a read appends to the access log. Handlers
//! only choose the use case and the shape of the answer.

use std::{future::Future, pin::Pin};

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use serde::de::DeserializeOwned;

use super::{CloseRequest, EstablishmentPatch, IfMatch, NewEstablishment, NewPayor, PayorPatch};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    db::Mode,
    domain::registry,
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
    usecases::payors::{Actor, Call, Precondition},
};

/// A registry request body or query and the domain value it parses into.
pub trait Parse: DeserializeOwned + Send + 'static {
    /// What the use case takes.
    type Into: Send;
    /// Every field parsed, every fault reported at once (422).
    fn parse_into(self) -> Result<Self::Into, ApiError>;
}

macro_rules! parse_as {
    ($($body:ty => $into:ty),* $(,)?) => {$(
        impl Parse for $body {
            type Into = $into;
            fn parse_into(self) -> Result<$into, ApiError> {
                Ok(self.parse()?)
            }
        }
    )*};
}

parse_as! {
    NewPayor => registry::NewPayor,
    PayorPatch => registry::PayorChanges,
    CloseRequest => chrono::NaiveDate,
    NewEstablishment => registry::NewEstablishment,
    EstablishmentPatch => registry::EstablishmentChanges,
}

/// Something a registry request carries besides its path, extracted
/// without judging it (it is judged only after authorisation).
pub trait Input: FromRequest + Send + 'static {
    /// What the use case receives.
    type Into: Send;
    /// Judge it: the value, or the request's fault.
    fn judge(self) -> Result<Self::Into, ApiError>;
}

/// A JSON body (400/415 when it cannot be read, 422 when a field breaks a rule).
pub type Body<B> = Result<ApiJson<B>, ApiError>;

/// A query string (400 when it cannot be read, 422 when a value breaks a rule).
pub type Query<Q> = Result<ApiQuery<Q>, ApiError>;

impl Input for () {
    type Into = ();
    fn judge(self) -> Result<(), ApiError> {
        Ok(())
    }
}

impl<B: Parse> Input for Body<B> {
    type Into = B::Into;
    fn judge(self) -> Result<B::Into, ApiError> {
        self?.0.parse_into()
    }
}

impl<Q: Parse> Input for Query<Q> {
    type Into = Q::Into;
    fn judge(self) -> Result<Q::Into, ApiError> {
        self?.0.parse_into()
    }
}

impl Input for IfMatch {
    type Into = Precondition;
    fn judge(self) -> Result<Precondition, ApiError> {
        self.required()
    }
}

/// A registry request as it arrives: the caller in its municipality, the
/// input `I` and the precondition `C`, not yet judged.
pub struct Request<I, C = ()> {
    state: web::Data<AppState>,
    here: InMunicipality,
    input: I,
    condition: C,
}

/// A creation: a body, no precondition.
pub type Create<B> = Request<Body<B>>;

/// A change or a close: a body and `If-Match`.
pub type Change<B> = Request<Body<B>, IfMatch>;

/// A read: nothing but the path, or (the list) a query.
pub type Read<I = ()> = Request<I>;

impl<I: Input, C: Input> FromRequest for Request<I, C> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(web::Data<AppState>, InMunicipality, I, C)>::from_request(req, payload);
        Box::pin(async move {
            let (state, here, input, condition) = parts.await?;
            Ok(Self {
                state,
                here,
                input,
                condition,
            })
        })
    }
}

impl<I: Input, C: Input> Request<I, C> {
    /// The municipality's slug, as the path gave it.
    pub fn slug(&self) -> &str {
        self.here.slug()
    }

    /// A write: the caller must be allowed `WritePayors`.
    pub async fn write<T, F>(self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(Call<'c, I::Into, C::Into>) -> Result<T, ApiError> + Send + 'static,
    {
        self.run(Mode::Write, |ctx| ctx.require(Action::WritePayors), work)
            .await
    }

    /// A read: 404 unless the caller may read some payor here. Every active
    /// disclosure grant names at least one payor, so its id stands in for
    /// the payors it covers (the use case resolves them and decides which
    /// payors the caller may read).
    pub async fn read<T, F>(self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(Call<'c, I::Into, C::Into>) -> Result<T, ApiError> + Send + 'static,
    {
        self.run(
            Mode::Read,
            |ctx| ctx.payor_filter(&ctx.disclosure_ids()).map(drop),
            work,
        )
        .await
    }

    async fn run<T, F>(
        self,
        mode: Mode,
        authorise: fn(&MunicipalityContext) -> Result<(), ApiError>,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(Call<'c, I::Into, C::Into>) -> Result<T, ApiError> + Send + 'static,
    {
        let Self {
            state,
            here,
            input,
            condition,
        } = self;
        here.unit(&state, mode, move |MunicipalUnit { conn, ctx, .. }| {
            authorise(&ctx)?;
            let input = input.judge()?;
            let precondition = condition.judge()?;
            let actor = Actor::of(&ctx)?;
            work(Call {
                conn,
                ctx,
                actor,
                input,
                precondition,
            })
        })
        .await
    }
}
