//! `GET /app/m/{municipality}/clerk/disclosures[?limit=&cursor=]` (the
//! municipality's disclosure grants, newest first, with a form to record
//! one and a button to revoke each grant in force),
//! `POST .../clerk/disclosures` (record) and
//! `POST .../clerk/disclosures/{disclosure}/revoke`.
//!
//! Contract: clerk-treasurer only (`Action::ManageDisclosures`, as the API:
//! staff, operators and the zone's roles 403, anyone else 404), checked
//! before anything is read or judged. The list is the API's
//! `GET .../disclosures` work (`usecases::disclosures::list`, its page size
//! and cursor: `api::admin::Page`); recording is the API's
//! `POST .../disclosures` (`DisclosureRequest::terms`, then
//! `usecases::disclosures::record`); revoking its `DELETE .../disclosures/{id}`
//! (`usecases::disclosures::revoke`). The form takes the API's fields: the
//! payors as ids separated by commas or spaces, the expiry as the
//! last local day of access (the end of that day, America/Chicago, is the
//! API's `expires_at`). After the CSRF check; success is a `303` back to the
//! list, a refusal the list again (422) with each problem next to its field
//! (a payor's, `payor_ids[i]`, next to the payors with its line). Nothing
//! here is logged (references and payor ids stay out of the log).

use actix_web::{HttpRequest, HttpResponse, web};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use maud::html;

use super::{
    Menu, enter, href, nav,
    pager::{Pager, limit_of},
    query_value,
};
use crate::{
    api::{
        admin::Page,
        caller::MunicipalUnit,
        disclosures::{DisclosureBasis, DisclosureRequest},
    },
    app::AppState,
    domain::{clock::MUNICIPAL_TIME_ZONE, disclosure::in_force},
    error::{ApiError, FieldError},
    tenancy::Action,
    usecases::disclosures::{self, DisclosureRecord, ListRequest},
    web::{
        Posted, WebError,
        echo::echo_form,
        layout::{self, Field},
        render, see_other,
        session::Visit,
    },
};

/// Grants per page when `limit` is not given.
pub const PAGE: u32 = 50;

echo_form! {
    /// What the form held (as typed, to show again).
    #[derive(Debug, Default, Clone)]
    struct Entered {
        reference,
        basis,
        grantee_email,
        payor_ids,
        expires_on = "expires_at",
    }
}

impl Entered {
    fn payor_ids(&self) -> Vec<String> {
        self.payor_ids
            .split(|c: char| c == ',' || c.is_whitespace())
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// The API's body: the expiry date as the end of that local day.
    fn request(&self) -> Result<DisclosureRequest, FieldError> {
        let day = NaiveDate::parse_from_str(self.expires_on.trim(), "%Y-%m-%d").map_err(|_| {
            FieldError::new(
                "expires_at",
                "date",
                "enter the last day of access as YYYY-MM-DD",
            )
        })?;
        let end = day
            .and_time(NaiveTime::from_hms_opt(23, 59, 59).unwrap_or_default())
            .and_local_timezone(MUNICIPAL_TIME_ZONE)
            .latest()
            .ok_or_else(|| FieldError::new("expires_at", "date", "not a day in Wisconsin"))?
            .with_timezone(&Utc);
        Ok(DisclosureRequest {
            reference: self.reference.clone(),
            basis: self.basis.clone(),
            grantee_email: self.grantee_email.clone(),
            payor_ids: self.payor_ids(),
            expires_at: end.to_rfc3339(),
        })
    }
}

/// The use case's problems, each on a field of the form: a payor's
/// (`payor_ids[i]`) on the payors, naming its line.
fn on_fields(errors: Vec<FieldError>, entered: &Entered) -> Vec<FieldError> {
    let ids = entered.payor_ids();
    errors
        .into_iter()
        .map(|e| {
            let Some(i) = e
                .field
                .strip_prefix("payor_ids[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|i| i.parse::<usize>().ok())
            else {
                return e;
            };
            let id = ids.get(i).map(String::as_str).unwrap_or("");
            FieldError::new(
                "payor_ids",
                &e.rule,
                format!("payor {} ({id}): {}", i + 1, e.message),
            )
        })
        .collect()
}

/// `GET .../clerk/disclosures`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    list(
        &state,
        &visit,
        path.into_inner(),
        req.query_string(),
        Entered::default(),
        Vec::new(),
    )
    .await
}

async fn list(
    state: &AppState,
    visit: &Visit,
    slug: String,
    query: &str,
    entered: Entered,
    errors: Vec<FieldError>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let now = Utc::now();
    let limit = limit_of(query, PAGE);
    let cursor = query_value(query, "cursor");
    let asked = cursor.clone();
    let (records, next, menu) = here
        .read_for(
            state,
            Action::ManageDisclosures,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let page = Page::parse(Some(limit?), asked.as_deref())?;
                let request = ListRequest {
                    active_at: None,
                    before: page.before.clone(),
                    limit: i64::from(page.limit),
                };
                let records = disclosures::list(conn, municipality.id, &request)?;
                let next = page.next(&records, |r| (r.grant.created_at, r.grant.id.clone()));
                Ok((records, next, Menu::of(&ctx)))
            },
        )
        .await?;
    let pages = Pager {
        base: href(&slug, "/disclosures"),
        param: "cursor",
        keep: Vec::new(),
        limit: query_value(query, "limit"),
        after: cursor,
        trail: query_value(query, "trail")
            .map(|t| t.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        next,
    };
    let status = crate::web::form_status(&errors);
    let body = html! {
        (nav(&slug, "/disclosures", menu))
        h1 { "Disclosures" }
        p { "Court orders and legal duties that let one person read named payors, read-only, until the grant expires or is revoked (Montello room tax, confidentiality ¶). Every read under a grant is in the "
            a href=(href(&slug, "/access-log")) { "access log" } "." }
        @if !errors.is_empty() {
            (layout::alert("Nothing was changed.", &errors, &FIELDS))
        }
        @if records.is_empty() {
            p #no-disclosures { "No disclosure has been recorded." }
        } @else {
            table #disclosures {
                caption { "Disclosure grants, newest first" }
                thead { tr {
                    th scope="col" { "Reference" } th scope="col" { "Basis" } th scope="col" { "Grantee" }
                    th scope="col" { "Payors" } th scope="col" { "Expires (UTC)" } th scope="col" { "Status" }
                } }
                tbody { @for r in &records { (row(visit, &slug, r, now)) } }
            }
        }
        (pages.links())
        h2 { "Record a disclosure" }
        (form(visit, &slug, &entered, &errors))
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Disclosures", body),
    ))
}

const FIELDS: [&str; 5] = [
    "reference",
    "basis",
    "grantee_email",
    "payor_ids",
    "expires_at",
];

fn row(visit: &Visit, slug: &str, r: &DisclosureRecord, now: DateTime<Utc>) -> maud::Markup {
    let g = &r.grant;
    let expires = g.expires_at.and_utc();
    let active = in_force(g.revoked_at.is_some(), expires, now);
    let basis = DisclosureBasis::from_name(&g.basis).map_or("", |b| match b {
        DisclosureBasis::CourtOrder => "court order",
        DisclosureBasis::LegalDuty => "legal duty",
    });
    html! {
        tr #(format!("disclosure-{}", g.id)) {
            th scope="row" { (g.reference) }
            td { (basis) }
            td { (r.grantee.display_name) " " small { (r.grantee.email) } }
            td { ul.plain { @for p in &r.payor_ids {
                li { a href=(href(slug, &format!("/payors/{p}"))) { code { (p) } } }
            } } }
            td { (expires.format("%Y-%m-%d %H:%M")) }
            td {
                @if active {
                    form.inline method="post" action=(href(slug, &format!("/disclosures/{}/revoke", g.id))) {
                        (layout::csrf_field(visit))
                        button.secondary type="submit" { "Revoke " span.visually-hidden { (g.reference) } }
                    }
                } @else if let Some(at) = g.revoked_at {
                    "revoked " (at.format("%Y-%m-%d"))
                } @else { "expired" }
            }
        }
    }
}

fn form(visit: &Visit, slug: &str, entered: &Entered, errors: &[FieldError]) -> maud::Markup {
    let bases = [
        ("court_order", "A court order"),
        ("legal_duty", "Duties imposed by law"),
    ];
    html! {
        form.stack #disclosure-form method="post" action=(href(slug, "/disclosures")) novalidate {
            (layout::csrf_field(visit))
            (Field { required: true, hint: Some("The order's case number or the statute, 1 to 200 characters."),
                     ..Field::text("reference", "Reference", &entered.reference) }.render(errors))
            (layout::select("basis", "Basis", &entered.basis, bases, errors))
            (Field { kind: "email", required: true, autocomplete: Some("off"), hint: Some("An existing user of the service: the person who may read the payors."),
                     ..Field::text("grantee_email", "Grantee's email", &entered.grantee_email) }.render(errors))
            (Field { required: true, autocomplete: Some("off"), hint: Some("Payor ids of this municipality, separated by commas or spaces (1 to 100)."),
                     ..Field::text("payor_ids", "Payors", &entered.payor_ids) }.render(errors))
            (Field { kind: "date", required: true, hint: Some("The last day of access (it ends at 23:59 that day); at most 366 days away."),
                     ..Field::text("expires_at", "Access until", &entered.expires_on) }.render(errors))
            div { button type="submit" { "Record the disclosure" } }
        }
    }
}

/// `POST .../clerk/disclosures`.
pub async fn create(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let entered = Entered::of(&form);
    let request = entered.request();
    let now = Utc::now();
    let done = here
        .write_for(
            &state,
            Action::ManageDisclosures,
            move |MunicipalUnit { conn, ctx, .. }| {
                let request = request.map_err(|e| ApiError::Validation(vec![e]))?;
                let terms = request.terms(now)?;
                disclosures::record(conn, &ctx, terms, now).map(|_| ())
            },
        )
        .await;
    match done {
        Ok(()) => Ok(see_other(&href(&slug, "/disclosures"))),
        Err(ApiError::Validation(errors)) => {
            let errors = on_fields(errors, &entered);
            list(&state, &visit, slug, "", entered, errors).await
        }
        Err(ApiError::InvalidParameter { name, message }) => {
            let errors = vec![FieldError::new(&name, "invalid", message)];
            list(&state, &visit, slug, "", entered, errors).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST .../clerk/disclosures/{disclosure}/revoke`.
pub async fn revoke(
    state: web::Data<AppState>,
    Posted { visit, .. }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    here.write_for(
        &state,
        Action::ManageDisclosures,
        move |MunicipalUnit {
                  conn, municipality, ..
              }| disclosures::revoke(conn, municipality.id, &id),
    )
    .await?;
    Ok(see_other(&href(&slug, "/disclosures")))
}
