//! `GET .../payors/{payor}/notices` (a page of the payor's written notices,
//! metadata only), `GET .../notices/{notice}` (one notice's metadata and
//! content as JSON, or its document with `Accept: application/pdf`) and
//! `GET .../notices/{notice}/document` (the PDF as sent).
//!
//! Contract: thin handlers over `usecases::notices` (one unit of work per
//! request; the clerk-treasurer, staff and the payor's own operator read,
//! anyone else 404; every read is in the access log). The document is the
//! stored bytes, served as an attachment with a filename.

use actix_web::{HttpRequest, HttpResponse, get, http::header, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        pagination::{PageParams, TimeCursor, next_cursor},
    },
    app::AppState,
    db::notices::{DocumentRow, NoticeRow},
    domain::{Money, notice::NoticeKind},
    error::{ApiError, Problem},
    usecases::notices,
};

/// `{municipality}/payors/{payor}/notices/{notice}`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct NoticePath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Notice id (UUID).
    notice: String,
}

/// A notice as listed (no content).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NoticeSummary {
    /// The notice's id.
    pub id: String,
    /// The payor it is addressed to.
    pub payor_id: String,
    /// Its kind.
    pub kind: NoticeKind,
    /// The local date issued (a clock that runs from the notice starts here).
    #[schema(value_type = String, format = Date)]
    pub issued_on: NaiveDate,
    /// Its title.
    pub title: String,
    /// The ledger journal it reports; absent for a letter that posts nothing.
    pub journal_id: Option<String>,
    /// What it is about: `determination`, `security_deposit`, `return`, `payor`, ...
    pub cause_type: String,
    /// The id of what it is about.
    pub cause_id: String,
    /// Who issued it (`user:ID`).
    pub issued_by: String,
    /// Path of its PDF document.
    pub document: String,
}

/// One amount a notice states.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NoticeAmountBody {
    /// What the amount is.
    pub label: String,
    /// The period it belongs to, if any.
    pub period: Option<String>,
    /// The amount.
    pub amount: Money,
}

/// A notice with its content.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Notice {
    /// The notice's metadata.
    #[serde(flatten)]
    pub summary: NoticeSummary,
    /// The addressee block, one line per entry.
    pub addressee: Vec<String>,
    /// The body, one paragraph per entry.
    pub paragraphs: Vec<String>,
    /// The amounts it states, in order.
    pub amounts: Vec<NoticeAmountBody>,
    /// The provisions it relies on.
    pub citations: Vec<String>,
    /// Hex SHA-256 of its PDF document as sent.
    pub document_sha256: Option<String>,
}

/// A page of a payor's notices, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NoticeList {
    /// The notices on this page.
    pub items: Vec<NoticeSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

fn document_path(slug: &str, row: &NoticeRow) -> String {
    format!(
        "/v1/municipalities/{slug}/payors/{}/notices/{}/document",
        row.payor_id, row.id
    )
}

pub fn summary_of(slug: &str, row: &NoticeRow) -> Result<NoticeSummary, ApiError> {
    Ok(NoticeSummary {
        id: row.id.clone(),
        payor_id: row.payor_id.clone(),
        kind: NoticeKind::parse(&row.kind)
            .ok_or_else(|| ApiError::internal("stored notice has an unknown kind"))?,
        issued_on: row.issued_on,
        title: row.title.clone(),
        journal_id: row.journal_id.clone(),
        cause_type: row.cause_type.clone(),
        cause_id: row.cause_id.clone(),
        issued_by: row.issued_by.clone(),
        document: document_path(slug, row),
    })
}

/// The PDF answer of a notice's document (also the portal's download).
pub fn pdf_response(row: &NoticeRow, doc: DocumentRow) -> HttpResponse {
    let short: String = row.id.chars().take(8).collect();
    let filename = format!("notice-{}-{}-{short}.pdf", row.kind, row.issued_on);
    HttpResponse::Ok()
        .content_type(doc.media_type.as_str())
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(doc.bytes)
}

/// The payor's written notices, newest first (metadata only).
///
/// Whoever may see the payor's account: the clerk-treasurer, staff or the payor's own
/// operator; anyone else gets 404. Written to the access log (`payor_notices`, `read`).
#[utoipa::path(
    operation_id = "list_payor_notices",
    tag = "notices",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, PageParams),
    responses(
        (status = 200, description = "A page of the payor's notices", body = NoticeList),
        (status = 400, description = "`limit` out of range or a `cursor` this service did not return", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/notices")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<PageParams>, ApiError>,
) -> Result<web::Json<NoticeList>, ApiError> {
    let (slug, payor_id) = path.into_inner();
    let list = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.account_reader(&payor_id)?;
            let params = params?.0;
            let limit = params.limit()?;
            let after = params
                .cursor
                .as_deref()
                .map(TimeCursor::parse)
                .transpose()?
                .map(|c| (c.at, c.id));
            let rows = notices::list(conn, &ctx, &payor_id, after, i64::from(limit))?;
            let next = next_cursor(&rows, limit, |r| {
                TimeCursor::new(r.created_at, r.id.clone()).encode()
            });
            Ok(NoticeList {
                items: rows
                    .iter()
                    .map(|r| summary_of(&slug, r))
                    .collect::<Result<_, _>>()?,
                next_cursor: next,
            })
        })
        .await?;
    Ok(web::Json(list))
}

/// One written notice: its metadata and content, or with `Accept: application/pdf` its document.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff or the payor's own
/// operator; anyone else gets 404. The document is the PDF rendered when the notice was
/// issued, as sent. Written to the access log (`notice`, `read`).
#[utoipa::path(
    operation_id = "get_payor_notice",
    tag = "notices",
    security(("bearer" = [])),
    params(NoticePath),
    responses(
        (status = 200, description = "The notice, or its document", content(
            (Notice = "application/json"),
            (Vec<u8> = "application/pdf")
        ))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/notices/{notice}")]
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let wants_pdf = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/pdf"));
    if wants_pdf {
        return document_of(state, here, path.into_inner()).await;
    }
    let (slug, payor_id, notice_id) = path.into_inner();
    let notice = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            let (row, draft, digest) = notices::show(conn, &ctx, &payor_id, &notice_id)?;
            Ok(Notice {
                summary: summary_of(&slug, &row)?,
                addressee: draft.addressee,
                paragraphs: draft.paragraphs,
                amounts: draft
                    .amounts
                    .into_iter()
                    .map(|a| NoticeAmountBody {
                        label: a.label,
                        period: a.period,
                        amount: a.amount,
                    })
                    .collect(),
                citations: draft.citations,
                document_sha256: digest,
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(notice))
}

async fn document_of(
    state: web::Data<AppState>,
    here: InMunicipality,
    (_, payor_id, notice_id): (String, String, String),
) -> Result<HttpResponse, ApiError> {
    let (row, doc) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            notices::document(conn, &ctx, &payor_id, &notice_id)
        })
        .await?;
    Ok(pdf_response(&row, doc))
}

/// A written notice's PDF document, as sent (an attachment with a filename).
///
/// Whoever may see the payor's account: the clerk-treasurer, staff or the payor's own
/// operator; anyone else gets 404. Written to the access log (`notice`, `read`).
#[utoipa::path(
    operation_id = "get_payor_notice_document",
    tag = "notices",
    security(("bearer" = [])),
    params(NoticePath),
    responses(
        (status = 200, description = "The PDF document", content_type = "application/pdf", body = Vec<u8>,
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"notice-<kind>-<date>-<id>.pdf\"`")))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/notices/{notice}/document")]
pub async fn document(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    document_of(state, here, path.into_inner()).await
}
