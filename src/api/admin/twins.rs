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
///     METHOD SKELETON(INPUT, WORK) ACTION, params(MORE_PARAMS, ...);
///     /// The municipality operation's summary and description.
///     municipality NAME(INPUT_TYPE) -> OUTPUT, "ROUTE", (UTOIPA_PATH_ARGS);
///     /// The zone operation's summary and description.
///     zone NAME(INPUT_TYPE) -> OUTPUT, "ROUTE", (UTOIPA_PATH_ARGS);
/// }
/// ```
///
/// `UTOIPA_PATH_ARGS` are the rest of each `#[utoipa::path]` (operation id,
/// request body, responses); `METHOD` (`get`, `post`, `delete`) must be in
/// scope where the macro is invoked.
macro_rules! tenant_twins {
    (
        $method:ident $core:ident($input:ident, $work:path) $action:ident, params($($param:tt),*);
        $(#[doc = $m_doc:literal])*
        municipality $m_fn:ident($m_in:ty) -> $m_out:ty, $m_route:literal, ($($m_spec:tt)*);
        $(#[doc = $z_doc:literal])*
        zone $z_fn:ident($z_in:ty) -> $z_out:ty, $z_route:literal, ($($z_spec:tt)*);
    ) => {
        tenant_twins!(@handler [$(#[doc = $m_doc])*] $method $m_route $m_fn InMunicipality
            MunicipalityPath [crate::tenancy::Action::$action] $core($input: $m_in, $work) -> $m_out
            [$($param),*] ($($m_spec)*));
        tenant_twins!(@handler [$(#[doc = $z_doc])*] $method $z_route $z_fn InZone
            ZonePath [crate::tenancy::ZoneAction::$action] $core($input: $z_in, $work) -> $z_out
            [$($param),*] ($($z_spec)*));
    };
    (
        @handler [$($doc:tt)*] $method:ident $route:literal $fn:ident $here:ident
        $path:ident [$($action:tt)*] $core:ident($input:ident: $in:ty, $work:path) -> $out:ty
        [$($param:tt),*] ($($spec:tt)*)
    ) => {
        $($doc)*
        #[utoipa::path(
            tag = "administration",
            security(("bearer" = [])),
            params(crate::api::params::$path $(, $param)*),
            $($spec)*
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
