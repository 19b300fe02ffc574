//! A form as typed: what a refused form is shown again from.
//!
//! Contract: [`echo_form!`] declares a struct of `String` fields, one for
//! each form field, with `of(&FormData)` copying each as given
//! ([`FormData::shown`](super::FormData::shown): untrimmed, empty when
//! absent), so the form shows again exactly what the person typed. A field
//! is read from the form field of its own name, or from the name given
//! after `=` (`key = KEY_FIELD`). Parsing stays with each form.

/// Declare a form's as-typed struct and its `of` (see the module doc): a
/// macro, since a function cannot declare a struct's fields.
macro_rules! echo_form {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($field:ident $(= $form_name:expr)?),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                #[doc = concat!("`", stringify!($field), "` as typed.")]
                pub $field: String,
            )*
        }

        impl $name {
            /// The fields as typed in `form`.
            fn of(form: &$crate::web::FormData) -> Self {
                $name {
                    $($field: form
                        .shown($crate::web::echo::echo_name!($field $(= $form_name)?))
                        .to_owned(),)*
                }
            }
        }
    };
}

/// The form field a field of [`echo_form!`] reads: its own name, or the one given.
macro_rules! echo_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident = $form_name:expr) => {
        $form_name
    };
}

pub(crate) use {echo_form, echo_name};
