//! [`tenant_twins!`]: one administration operation in both kinds of tenant.
//!
//! Contract: the OpenAPI document lists a municipality's operation and its
//! zone twin separately (own path, operation id and wording), so each twin is
//! its own `#[utoipa::path]` handler; this macro writes both from one
//! invocation. What the twins share is written once, here: the tag, the
//! bearer security, the tenant's path parameter first, the extractor
//! ([`InMunicipality`](crate::api::caller::InMunicipality) or
//! [`InZone`](crate::api::caller::InZone)), the action (the variant of
//! [`Action`](crate::tenancy::Action) and of
//! [`ZoneAction`](crate::tenancy::ZoneAction) of one name), and the body: a
//! call of one of the skeletons of `super` (`create_in`, `list_in`,
//! `revoke_at`: authorise, run the resource's work in the unit of work, shape
//! the answer) with the resource's work function.

/// Two thin handlers, a municipality's and a zone's, each
/// `SKELETON(&state, here, action, input, WORK)`.
///
/// ```text
/// tenant_twins! {
///     METHOD SKELETON(INPUT, WORK) ACTION, params(MORE_PARAMS, ...),
///         responses(SHARED_RESPONSES, ...);
///     /// The municipality operation's summary and description.
///     municipality NAME(INPUT_TYPE) -> OUTPUT, "ROUTE", "OPERATION_ID",
///         request_body = BODY, responses(OWN_RESPONSES, ...);
///     /// The zone operation's summary and description.
///     zone NAME(INPUT_TYPE) -> OUTPUT, "ROUTE", "OPERATION_ID",
///         request_body = BODY, responses(OWN_RESPONSES, ...);
/// }
/// ```
///
/// Each side's responses are the shared ones and its own (both lists, the
/// request body and the `params` are optional); `METHOD` (`get`, `post`,
/// `delete`) must be in scope where the macro is invoked.
macro_rules! tenant_twins {
    (
        $method:ident $core:ident($input:ident, $work:path) $action:ident,
        params($($param:tt),*) $(, responses($($shared:tt),*))?;
        $(#[doc = $m_doc:literal])*
        municipality $m_fn:ident($m_in:ty) -> $m_out:ty, $m_route:literal, $m_op:literal
        $(, request_body = $m_body:ident)? $(, responses($($m_own:tt),*))?;
        $(#[doc = $z_doc:literal])*
        zone $z_fn:ident($z_in:ty) -> $z_out:ty, $z_route:literal, $z_op:literal
        $(, request_body = $z_body:ident)? $(, responses($($z_own:tt),*))?;
    ) => {
        tenant_twins!(@handler [$(#[doc = $m_doc])*] $method $m_route $m_op $m_fn InMunicipality
            MunicipalityPath [crate::tenancy::Action::$action] $core($input: $m_in, $work) -> $m_out
            [$($param),*] [$(request_body = $m_body,)?]
            [$($($shared,)*)? $($($m_own,)*)?]);
        tenant_twins!(@handler [$(#[doc = $z_doc])*] $method $z_route $z_op $z_fn InZone
            ZonePath [crate::tenancy::ZoneAction::$action] $core($input: $z_in, $work) -> $z_out
            [$($param),*] [$(request_body = $z_body,)?]
            [$($($shared,)*)? $($($z_own,)*)?]);
    };
    (
        @handler [$($doc:tt)*] $method:ident $route:literal $op:literal $fn:ident $here:ident
        $path:ident [$($action:tt)*] $core:ident($input:ident: $in:ty, $work:path) -> $out:ty
        [$($param:tt),*] [$($body:tt)*] [$($response:tt,)*]
    ) => {
        $($doc)*
        #[utoipa::path(
            operation_id = $op,
            tag = "administration",
            security(("bearer" = [])),
            params(crate::api::params::$path $(, $param)*),
            $($body)*
            responses($($response),*)
        )]
        #[$method($route)]
        pub async fn $fn(
            state: ::actix_web::web::Data<crate::app::AppState>,
            here: crate::api::caller::$here,
            $input: $in,
        ) -> Result<$out, crate::error::ApiError> {
            $core(&state, here, $($action)*, $input, $work).await
        }
    };
}
