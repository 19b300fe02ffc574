//! The HTTP API: one registration feeds both the router and the OpenAPI spec.
//!
//! Contract: every operation is an actix handler annotated with
//! `#[utoipa::path]` and registered once in [`routes`]; [`openapi`] builds the
//! document from that same registration, so the spec cannot list a route
//! the server lacks or miss one it has.

pub mod access_log;
pub mod admin;
pub mod auth;
pub mod calendar;
pub mod caller;
pub mod clearance;
pub mod csv;
pub mod delinquencies;
pub mod determinations;
pub mod disclosures;
pub mod documents;
pub mod expenditures;
pub mod extract;
pub mod framework_answers;
pub mod health;
pub mod idempotency;
pub mod input_guard;
pub mod marketplace;
pub mod municipalities;
pub mod notices;
pub mod pagination;
pub mod params;
pub mod payments;
pub mod payors;
pub mod policies;
pub mod problems;
pub mod quotes;
pub mod remittances;
pub mod reports;
pub mod returns;
pub mod roster;
pub mod schema_names;
pub mod security;
pub mod stamp;
pub mod statistics;
pub mod vehicle_fee;
pub mod zones;

use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::{AppExt, service_config::ServiceConfig};

/// Static parts of the document: info, tags, shared schemas.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "roomtax",
        contact(name = "roomtax maintainers"),
        description = "Municipal room tax (lodging tax) administration for Wisconsin municipalities \
                       and tourism zones (Wis. Stat. § 66.0615). Errors are RFC 9457 problem details \
                       (`application/problem+json`); money is a decimal string with two decimals."
    ),
    tags(
        (name = "auth", description = "Sign-in, tokens, signing keys and the caller's grants"),
        (name = "zones", description = "Tourism zones and their members (public)"),
        (name = "municipalities", description = "Municipalities levying room tax (public)"),
        (name = "policies", description = "The ordinance as data, due calendars and quotes (public law)"),
        (name = "payors", description = "The payor registry: payors and their establishments (confidential; every read is written to the access log)"),
        (name = "returns", description = "Room-tax returns: filing, amendments, annual reconciliation, obligations and the clerk's view of who filed (confidential; every read is written to the access log)"),
        (name = "payments", description = "Payments received, their reversal, and a payor's statement of account (confidential; every read is written to the access log)"),
        (name = "notices", description = "Written notices (determinations, estimates, security, delinquency letters) as issued, with their PDF documents (confidential; every read is written to the access log)"),
        (name = "delinquencies", description = "Unpaid amounts past due by age, the special-assessment roll, delinquency letters and the clerk's daily posting of late-payment forfeitures"),
        (name = "security", description = "Security deposits, clearance certificates on the sale of a business and successor liability (confidential, except the public verification of a certificate's code)"),
        (name = "remittances", description = "Member municipalities' quarterly remittances of collected room tax to their zone's commission, the transfers of the commission's share, the zone's view and the commission's seats (totals per municipality only; never an operator's figures)"),
        (name = "administration", description = "Users and role grants, zone membership and API clients (clerk-treasurers and zone admins)"),
        (name = "disclosures", description = "Court-order and legal-duty disclosure grants, and the access log of every read of a confidential record"),
        (name = "vehicle_fee", description = "Montello's city vehicle registration fee: the DOT's remittances (expected, received, difference), their corrections, and the segregated fund's spending and statement (clerk-treasurer and staff)"),
        (name = "expenditures", description = "The tourism entity's expenditure reports, the commission's review, inspection requests of member municipalities and the commission roster (Montello room tax, distribution ¶B; Wis. Stat. § 66.0615(1)(fm))"),
        (name = "operations", description = "Health, readiness and the problem catalogue")
    ),
    components(schemas(
        crate::error::Problem,
        crate::error::FieldError,
        crate::domain::policy::MonthDay,
        crate::domain::policy::DistributionBase,
        crate::domain::policy::SaleProvision,
        payors::Payor
    )),
    modifiers(&BearerScheme)
)]
struct ApiDoc;

/// Declares the `bearer` security scheme (EdDSA JWT access tokens).
struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "Access token from POST /v1/auth/token (people) or POST /v1/oauth/token (API clients).",
                    ))
                    .build(),
            ),
        );
    }
}

/// Where [`register`] puts operations: the router and spec (utoipa's
/// [`ServiceConfig`]) or a census of the schemas they use ([`schema_names`]).
pub trait Registry {
    /// Add one operation.
    fn service<F>(&mut self, factory: F) -> &mut Self
    where
        F: actix_web::dev::HttpServiceFactory + utoipa_actix_web::OpenApiFactory + 'static;
}

impl Registry for ServiceConfig<'_> {
    fn service<F>(&mut self, factory: F) -> &mut Self
    where
        F: actix_web::dev::HttpServiceFactory + utoipa_actix_web::OpenApiFactory + 'static,
    {
        ServiceConfig::service(self, factory)
    }
}

/// The router alone (actix's own `ServiceConfig`): what the server's workers
/// use, so that none of them builds a copy of the OpenAPI document (see
/// `app::Application`).
impl Registry for actix_web::web::ServiceConfig {
    fn service<F>(&mut self, factory: F) -> &mut Self
    where
        F: actix_web::dev::HttpServiceFactory + utoipa_actix_web::OpenApiFactory + 'static,
    {
        actix_web::web::ServiceConfig::service(self, factory)
    }
}

/// Register every operation in the router and the OpenAPI document.
pub fn routes(cfg: &mut ServiceConfig) {
    register(cfg);
}

/// Register every operation in the router only.
pub fn router(cfg: &mut actix_web::web::ServiceConfig) {
    register(cfg);
}

/// Every operation, in routing order (the single source of router and spec).
///
/// The router tries resources in this order, and each one with a `{segment}`
/// costs a regular-expression capture when tried (actix-router), so the hot
/// public paths come first: `/healthz`, then the quote (about 5 % of a quote's
/// CPU was spent matching the seven patterns before it; bench/results/README.md).
/// Every path is distinct, so the order changes no answer.
pub fn register<R: Registry>(cfg: &mut R) {
    cfg.service(health::healthz)
        .service(quotes::create)
        .service(auth::jwks)
        .service(auth::session::sign_in)
        .service(auth::session::refresh)
        .service(auth::session::logout)
        .service(auth::oauth::client_credentials)
        .service(auth::me::me)
        .service(auth::password::change)
        .service(health::readyz)
        .service(problems::catalogue)
        .service(problems::show)
        .service(zones::list)
        .service(zones::show)
        .service(municipalities::list)
        .service(municipalities::show)
        .service(policies::history)
        .service(policies::current)
        .service(policies::create)
        .service(calendar::show)
        .service(payors::list::list)
        .service(payors::create::create)
        .service(payors::show::show)
        .service(payors::update::update)
        .service(payors::close::close)
        .service(payors::establishments::create)
        .service(payors::establishments::show)
        .service(payors::establishments::update)
        .service(payors::establishments::close)
        .service(returns::file::file)
        .service(returns::file::amend)
        .service(returns::read::show)
        .service(returns::read::versions)
        .service(returns::attachments::upload)
        .service(returns::attachments::list)
        .service(returns::attachments::download)
        .service(returns::obligations::obligations)
        .service(returns::obligations::for_period)
        .service(marketplace::file)
        .service(marketplace::list)
        .service(marketplace::show)
        .service(returns::extensions::request)
        .service(returns::extensions::of_payor)
        .service(returns::extensions::of_municipality)
        .service(returns::extensions::show)
        .service(returns::extensions::grant)
        .service(returns::extensions::refuse)
        .service(payments::record)
        .service(payments::reverse)
        .service(payments::account)
        .service(determinations::make)
        .service(determinations::list)
        .service(determinations::show)
        .service(payments::refunds::record)
        .service(notices::list)
        .service(notices::show)
        .service(notices::document)
        .service(delinquencies::list)
        .service(delinquencies::special_assessments)
        .service(delinquencies::letter)
        .service(delinquencies::daily_posting)
        .service(security::require)
        .service(security::list)
        .service(security::show)
        .service(security::receive)
        .service(security::notify)
        .service(security::apply)
        .service(security::give_back)
        .service(clearance::issue)
        .service(clearance::verify)
        .service(clearance::successor_liability)
        .service(payors::transfers::record)
        .service(payors::transfers::list)
        .service(admin::grants::create)
        .service(admin::grants::list)
        .service(admin::grants::revoke)
        .service(admin::grants::create_for_zone)
        .service(admin::grants::list_for_zone)
        .service(admin::grants::revoke_for_zone)
        .service(admin::members::invite::invite)
        .service(admin::members::invite::list)
        .service(admin::members::invite::withdraw)
        .service(admin::members::leave::leave)
        .service(admin::members::answer::list)
        .service(admin::members::answer::accept)
        .service(admin::members::answer::decline)
        .service(admin::api_clients::create_for_municipality)
        .service(admin::api_clients::list_for_municipality)
        .service(admin::api_clients::revoke_for_municipality)
        .service(admin::api_clients::create_for_zone)
        .service(admin::api_clients::list_for_zone)
        .service(admin::api_clients::revoke_for_zone)
        .service(disclosures::create)
        .service(disclosures::list)
        .service(disclosures::revoke)
        .service(access_log::list)
        .service(access_log::list_for_zone);
    cfg.service(vehicle_fee::record_remittance)
        .service(vehicle_fee::correct_remittance)
        .service(vehicle_fee::list_remittances)
        .service(vehicle_fee::record_spending)
        .service(vehicle_fee::reverse_spending)
        .service(vehicle_fee::fund);
    cfg.service(remittances::preview)
        .service(remittances::submit)
        .service(remittances::transfer)
        .service(remittances::views::of_municipality)
        .service(remittances::views::of_zone)
        .service(remittances::views::seats);
    // Expenditure reports, their review, inspection requests, the commission roster.
    cfg.service(expenditures::file)
        .service(expenditures::list)
        .service(expenditures::show)
        .service(expenditures::amend)
        .service(expenditures::review::act)
        .service(expenditures::review::answer)
        .service(expenditures::attachments::upload)
        .service(expenditures::attachments::download)
        .service(expenditures::inspections::request)
        .service(expenditures::inspections::list)
        .service(expenditures::inspections::answer)
        .service(roster::show)
        .service(roster::add)
        .service(roster::end);
    // Public statistics (small cells withheld).
    cfg.service(statistics::of_zone)
        .service(statistics::of_municipality);
    // The commission's report back to each member and Form SL-304's figures.
    cfg.service(reports::report_back)
        .service(reports::state_report);
}

/// The OpenAPI document generated from [`routes`].
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes)
        .split_for_parts();
    // After the routes are merged: it derives each operation's answers from it.
    utoipa::Modify::modify(&framework_answers::FrameworkAnswers, &mut doc);
    let mut value = serde_json::to_value(&doc).expect("the OpenAPI document serialises");
    lift_optional_descriptions(&mut value);
    serde_json::from_value(value).expect("the completed document is still an OpenAPI document")
}

/// utoipa describes an optional reference inside its `oneOf` item; clients and
/// checkers read the description on the property itself, so put it there too.
fn lift_optional_descriptions(doc: &mut serde_json::Value) {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(props) = map.get_mut("properties").and_then(|p| p.as_object_mut()) {
                    for prop in props.values_mut() {
                        if prop.get("description").is_none()
                            && let Some(d) = prop["oneOf"]
                                .as_array()
                                .and_then(|items| items.iter().find_map(|i| i.get("description")))
                                .cloned()
                        {
                            prop["description"] = d;
                        }
                    }
                }
                map.values_mut().for_each(walk);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut doc["components"]);
}

/// The document as committed in `openapi/openapi.json` (pretty, newline-terminated).
pub fn openapi_json() -> String {
    let mut text = openapi()
        .to_pretty_json()
        .expect("the OpenAPI document always serialises");
    text.push('\n');
    text
}
