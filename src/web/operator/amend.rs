//! `POST /app/m/{m}/payors/{payor}/filed/{return_id}/amend`: amend a return.
//!
//! Contract: the API's amendment (`usecases::returns::filing::amend_return`)
//! with the form's `version` as its `If-Match` (a stale form: 412, shown on
//! the page) behind the form's idempotency key (`api::idempotency`, as
//! `POST .../amendments` with `Idempotency-Key`); `303` to the return on
//! success, the return's page with the problems next to their fields (422)
//! otherwise.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};

use super::{ReturnForm, caller_of, file::return_id_of, filed, payor_path};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
        idempotency::{Idempotency, Reply, json_body},
        payors::precondition::etag,
        returns::{TaxReturn, return_location},
    },
    app::AppState,
    error::{ApiError, FieldError},
    usecases::{payors::Precondition, returns::filing},
    web::{FormData, WebError, layout, render, see_other, session::Visit},
};

/// `POST .../filed/{return_id}/amend`.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, WebError> {
    let form = FormData::checked(&visit, &body)?;
    let (slug, payor, return_id) = path.into_inner();
    let (record, codes, items) = filed::load(&state, &visit, &slug, &payor, &return_id).await?;
    let uploads = super::attachments::Uploads::listed(items);
    let period = record.period()?;
    let mut f = ReturnForm::posted(codes, &form);
    let version: Option<i64> = form.get("version").and_then(|v| v.parse().ok());
    let outcome = match (f.filing(&period, false), version) {
        (Ok(body), Some(version)) => {
            let here = InMunicipality::new(caller_of(&visit)?, slug.clone());
            let today = state.clock.today();
            let fingerprint = json_body(&Ok(ApiJson(body.clone())));
            let (s, p, id) = (slug.clone(), payor.clone(), return_id.clone());
            let check = p.clone();
            Idempotency::from_form(form.get("idempotency_key"), req.path())
                .write(
                    &state,
                    here,
                    fingerprint,
                    move |ctx| ctx.return_filer(&check),
                    move |MunicipalUnit { conn, ctx, .. }| {
                        let record = filing::amend_return(
                            conn,
                            &ctx,
                            &p,
                            &id,
                            Precondition::OneOf(vec![version]),
                            body,
                            today,
                        )?;
                        let tax_return = TaxReturn::latest(&record);
                        Ok(
                            Reply::created(return_location(&s, &p, &tax_return.id), &tax_return)?
                                .with_etag(etag(tax_return.latest_version)),
                        )
                    },
                )
                .await
                .and_then(|res| return_id_of(&res))
        }
        (Ok(_), None) => Err(ApiError::Validation(vec![FieldError::new(
            "version",
            "required",
            "the form lost the version it amends: reload the page",
        )])),
        (Err(e), _) => Err(e),
    };
    match outcome {
        Ok(id) => Ok(see_other(&format!(
            "{}/filed/{id}",
            payor_path(&slug, &payor)
        ))),
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
