//! `POST /app/m/{m}/payors/{payor}/filed/{return_id}/amend`: amend a return.
//!
//! Contract: the API's amendment (`usecases::returns::filing::amend_return`)
//! with the form's `version` as its `If-Match` (a stale form: 412, shown on
//! the page) behind the form's idempotency key (`api::idempotency`, as
//! `POST .../amendments` with `Idempotency-Key`); `303` to the return on
//! success, the return's page with the problems next to their fields (422)
//! otherwise.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};

use super::{
    ReturnForm,
    file::{KeyedFiling, to_filed},
    filed,
};
use crate::{
    api::{caller::MunicipalUnit, idempotency::fingerprint},
    app::AppState,
    error::{ApiError, FieldError},
    usecases::{payors::Precondition, returns::filing},
    web::{Posted, WebError, keyed::KEY_FIELD, layout, render},
};

/// `POST .../filed/{return_id}/amend`.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, return_id) = path.into_inner();
    let (record, codes, items) = filed::load(&state, &visit, &slug, &payor, &return_id).await?;
    let uploads = super::attachments::Uploads::listed(items);
    let period = record.period()?;
    let mut f = ReturnForm::posted(codes, &form);
    let version: Option<i64> = form.get("version").and_then(|v| v.parse().ok());
    let outcome = match (f.filing(&period, false), version) {
        (Ok(body), Some(version)) => {
            let today = state.clock.today();
            let fingerprint = fingerprint(&body);
            let (p, id) = (payor.clone(), return_id.clone());
            let filing = KeyedFiling {
                visit: &visit,
                target: req.path(),
                key: form.get(KEY_FIELD),
                slug: &slug,
                payor: &payor,
            };
            filing
                .run(
                    &state,
                    fingerprint,
                    move |MunicipalUnit { conn, ctx, .. }| {
                        filing::amend_return(
                            conn,
                            &ctx,
                            &p,
                            &id,
                            Precondition::OneOf(vec![version]),
                            body,
                            today,
                        )
                    },
                )
                .await
        }
        (Ok(_), None) => Err(ApiError::Validation(vec![FieldError::new(
            "version",
            "required",
            "the form lost the version it amends: reload the page",
        )])),
        (Err(e), _) => Err(e),
    };
    match outcome {
        Ok(id) => Ok(to_filed(&slug, &payor, &id)),
        Err(ApiError::PreconditionFailed) => {
            f.errors = vec![FieldError::new(
                "version",
                "stale",
                "the return was amended since this page was shown: reload it and amend the version in force",
            )];
            Ok(render(
                &visit,
                StatusCode::PRECONDITION_FAILED,
                layout::page(
                    &visit,
                    "Amend",
                    filed::page(&visit, &slug, &payor, &record, &f, &uploads),
                ),
            ))
        }
        Err(e) => {
            f.absorb(e)?;
            Ok(render(
                &visit,
                StatusCode::UNPROCESSABLE_ENTITY,
                layout::page(
                    &visit,
                    "Amend",
                    filed::page(&visit, &slug, &payor, &record, &f, &uploads),
                ),
            ))
        }
    }
}
