//! `GET /app/m/{municipality}/clerk/users` (the municipality's grants, with a
//! form to grant a role and one to revoke each active grant),
//! `POST .../clerk/users` (grant) and `POST .../clerk/users/{grant}/revoke`.
//!
//! Contract: clerk-treasurer only (`Action::ManageUsers`, as the API: staff,
//! operators and the zone's roles 403, anyone else 404). The list is the
//! API's `GET .../grants` work (`api::admin::grants::page_in`), granting its
//! `POST .../grants` work (`grant_in`, which calls
//! `usecases::accounts::grant_role`), revoking its `DELETE .../grants/{id}`
//! work (`revoke_in`, `usecases::accounts::revoke_grant`, with the
//! last-clerk rule). After the CSRF check; success is a `303` back to the
//! list, a refusal the list again (422) with each problem next to its field
//! (a revoke's refusal, such as the last-clerk rule, the API's 409, in the
//! alert above the list). No password or email is
//! logged.

use actix_web::{HttpResponse, web};
use maud::html;

use super::{Menu, enter, href, nav};
use crate::{
    api::{
        admin::{
            GrantListParams,
            grants::{GrantRequest, MunicipalityGrantList, grant_in, page_in, revoke_in},
        },
        caller::{Authorised, MunicipalUnit},
    },
    app::AppState,
    error::{ApiError, FieldError},
    tenancy::Action,
    web::{
        Posted, WebError,
        echo::echo_form,
        layout::{self, Field},
        render, see_other,
        session::Visit,
    },
};

echo_form! {
    /// What the grant form held.
    #[derive(Default)]
    struct Entered {
        email,
        display_name,
        role,
        payor_id,
    }
}

/// `GET .../clerk/users`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    list(
        &state,
        &visit,
        path.into_inner(),
        Entered::default(),
        Vec::new(),
    )
    .await
}

async fn list(
    state: &AppState,
    visit: &Visit,
    slug: String,
    entered: Entered,
    errors: Vec<FieldError>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let (grants, menu): (MunicipalityGrantList, Menu) = here
        .read_for(
            state,
            Action::ManageUsers,
            |MunicipalUnit { conn, ctx, .. }| {
                let menu = Menu::of(&ctx);
                let unit = Authorised {
                    conn,
                    tenant: ctx.tenant(),
                    caller: ctx.caller,
                };
                let grants = page_in(
                    unit,
                    GrantListParams {
                        active: None,
                        limit: Some(200),
                        cursor: None,
                    },
                )?;
                Ok((grants, menu))
            },
        )
        .await?;
    let status = crate::web::form_status(&errors);
    let fields = ["email", "display_name", "role", "payor_id", "password"];
    let roles = [
        ("municipal_staff", "Staff"),
        ("clerk_treasurer", "Clerk-treasurer"),
        ("operator", "Operator (of one payor)"),
        ("marketplace_provider", "Marketplace provider"),
    ];
    let body = html! {
        (nav(&slug, "/users", menu))
        h1 { "Users and grants" }
        @if !errors.is_empty() {
            (layout::alert("Nothing was changed.", &errors, &fields))
        }
        table {
            caption { "Grants in this municipality, newest first" }
            thead { tr { th scope="col" { "Person" } th scope="col" { "Role" } th scope="col" { "Payor" } th scope="col" { "Since" } th scope="col" { "Status" } } }
            tbody {
                @for g in &grants.items {
                    tr #(format!("grant-{}", g.id)) {
                        th scope="row" { (g.user.display_name) " " small { (g.user.email) } }
                        td { (g.role.as_str()) }
                        td { @if let Some(p) = &g.payor_id { code { (p) } } }
                        td { (g.created_at.format("%Y-%m-%d")) }
                        td {
                            @if g.active {
                                form.inline method="post" action=(href(&slug, &format!("/users/{}/revoke", g.id))) {
                                    (layout::csrf_field(visit))
                                    button.secondary type="submit" { "Revoke " span.visually-hidden { (g.role.as_str()) " of " (g.user.email) } }
                                }
                            } @else { "revoked" }
                        }
                    }
                }
            }
        }
        h2 { "Grant a role" }
        form.stack method="post" action=(href(&slug, "/users")) {
            (layout::csrf_field(visit))
            (Field { kind: "email", required: true, autocomplete: Some("off"), ..Field::text("email", "Email", &entered.email) }.render(&errors))
            (Field { hint: Some("Used only when the account is created now."), ..Field::text("display_name", "Name", &entered.display_name) }.render(&errors))
            (layout::select("role", "Role", &entered.role, roles, &errors))
            (Field { hint: Some("For an operator only: the payor they act for."), ..Field::text("payor_id", "Payor id", &entered.payor_id) }.render(&errors))
            (Field { kind: "password", autocomplete: Some("new-password"), hint: Some("At least 12 characters; needed only when the account is created now."), ..Field::text("password", "Initial password", "") }.render(&errors))
            div { button type="submit" { "Grant" } }
        }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Users and grants", body),
    ))
}

/// `POST .../clerk/users`.
pub async fn grant(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let entered = Entered::of(&form);
    let ask = GrantRequest {
        email: entered.email.clone(),
        display_name: form
            .get("display_name")
            .or(form.get("email"))
            .unwrap_or_default()
            .to_owned(),
        role: entered.role.clone(),
        payor_id: form.get("payor_id").map(str::to_owned),
        password: form.get("password").map(str::to_owned),
    };
    let done = here
        .write_as(&state, Action::ManageUsers, move |unit| {
            grant_in(unit, ask).map(|_| ())
        })
        .await;
    match done {
        Ok(()) => Ok(see_other(&href(&slug, "/users"))),
        Err(ApiError::Validation(errors)) => list(&state, &visit, slug, entered, errors).await,
        Err(ApiError::RuleConflict(error)) => {
            list(&state, &visit, slug, entered, vec![error]).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST .../clerk/users/{grant}/revoke`.
pub async fn revoke(
    state: web::Data<AppState>,
    Posted { visit, .. }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let done = here
        .write_as(&state, Action::ManageUsers, move |unit| revoke_in(unit, id))
        .await;
    match done {
        Ok(()) => Ok(see_other(&href(&slug, "/users"))),
        Err(ApiError::Validation(errors)) => {
            list(&state, &visit, slug, Entered::default(), errors).await
        }
        Err(ApiError::RuleConflict(error)) => {
            list(&state, &visit, slug, Entered::default(), vec![error]).await
        }
        // The last-clerk rule (the API's 409), shown above the list.
        Err(ApiError::Conflict(message)) => {
            let error = FieldError::new("grant", "last_administrator", message);
            list(&state, &visit, slug, Entered::default(), vec![error]).await
        }
        Err(other) => Err(other.into()),
    }
}
