//! The grant routes of a municipality and of a zone, twin by twin, over the
//! shared core (`super`): in a municipality only municipality roles (an
//! operator's grant names its payor), in a zone only zone roles and no
//! `payor_id` (a zone role acts for no payor).

use actix_web::{HttpResponse, delete, get, post, web};

use super::{
    CreatedMunicipalityGrant, CreatedZoneGrant, GrantRequest, MunicipalityGrantList, ZoneGrantList,
    ZoneGrantRequest, grant_in, page_in, revoke_in,
};
use crate::{
    api::{
        admin::{GrantListParams, PageRefused, create_in, list_in, revoke_at},
        extract::{ApiJson, ApiQuery},
    },
    error::{ApiError, Problem},
};

tenant_twins! {
    post create_in(body, grant_in) ManageUsers, params();
    /// Grant a municipality role to a user (created when the email has no account).
    ///
    /// Only the municipality's clerk-treasurer, as a person. Roles: `clerk_treasurer`,
    /// `municipal_staff` (the clerk-treasurer's officers, employees and agents, Montello
    /// room tax, confidentiality ¶), `operator` (for one payor, named by `payor_id`) or
    /// `marketplace_provider`. An existing account keeps its password (the answer says
    /// whether the user was created). Not written to the access log.
    municipality create(Result<ApiJson<GrantRequest>, ApiError>) -> HttpResponse,
    "/v1/municipalities/{municipality}/grants", "create_municipality_grant",
    request_body = GrantRequest, responses(
        (status = 201, description = "Granted", body = CreatedMunicipalityGrant),
        (status = 409, description = "The user already holds this role (for an operator: for this payor) here", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a municipality role, `payor_id` missing or not a payor here, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    );
    /// Grant a zone role to a user (created when the email has no account).
    ///
    /// Only the zone's zone_admin, as a person. Roles: `commission_member`,
    /// `tourism_entity` or `zone_admin`; none of them sees an operator's confidential data.
    /// An existing account keeps its password. Not written to the access log.
    zone create_for_zone(Result<ApiJson<ZoneGrantRequest>, ApiError>) -> HttpResponse,
    "/v1/zones/{zone}/grants", "create_zone_grant",
    request_body = ZoneGrantRequest, responses(
        (status = 201, description = "Granted", body = CreatedZoneGrant),
        (status = 409, description = "The user already holds this role in the zone", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a zone role, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    );
}

tenant_twins! {
    get list_in(params, page_in) ManageUsers, params(GrantListParams), responses(PageRefused);
    /// List the municipality's role grants, active and revoked (filter with `active=true`).
    ///
    /// Only the municipality's clerk-treasurer, as a person. Revoked grants are listed with their
    /// revocation time. Not written to the access log.
    municipality list(Result<ApiQuery<GrantListParams>, ApiError>) -> web::Json<MunicipalityGrantList>,
    "/v1/municipalities/{municipality}/grants", "list_municipality_grants", responses(
        (status = 200, description = "A page of grants, newest first", body = MunicipalityGrantList)
    );
    /// List the zone's role grants, active and revoked (filter with `active=true`).
    ///
    /// Only the zone's zone_admin, as a person. Revoked grants are listed with their revocation time.
    /// Not written to the access log.
    zone list_for_zone(Result<ApiQuery<GrantListParams>, ApiError>) -> web::Json<ZoneGrantList>,
    "/v1/zones/{zone}/grants", "list_zone_grants", responses(
        (status = 200, description = "A page of grants, newest first", body = ZoneGrantList)
    );
}

tenant_twins! {
    delete revoke_at(path, revoke_in) ManageUsers,
    params(("grant" = String, Path, description = "Grant id")), responses(
        (status = 204, description = "Revoked (or already revoked): the user's tokens lose the role at their next request")
    );
    /// Revoke a role grant (idempotent: revoking a revoked grant changes nothing).
    ///
    /// Only the municipality's clerk-treasurer, as a person. A clerk-treasurer may not
    /// revoke their own last clerk_treasurer grant here (409), so the municipality always
    /// keeps one. Not written to the access log.
    municipality revoke(web::Path<(String, String)>) -> HttpResponse,
    "/v1/municipalities/{municipality}/grants/{grant}", "revoke_municipality_grant", responses(
        (status = 409, description = "This is the caller's own last clerk_treasurer grant here", body = Problem, content_type = "application/problem+json")
    );
    /// Revoke a zone role grant (idempotent: revoking a revoked grant changes nothing).
    ///
    /// Only the zone's zone_admin, as a person. A zone admin may not revoke their own last
    /// zone_admin grant in the zone (409). Not written to the access log.
    zone revoke_for_zone(web::Path<(String, String)>) -> HttpResponse,
    "/v1/zones/{zone}/grants/{grant}", "revoke_zone_grant", responses(
        (status = 409, description = "This is the caller's own last zone_admin grant in the zone", body = Problem, content_type = "application/problem+json")
    );
}
