//! The frame every page shares: document head (our stylesheet, htmx, no
//! inline script or style, so the Content-Security-Policy can allow only
//! 'self'), a skip link, the site header with the sign-in or sign-out
//! control, the main landmark and the footer. Plus the small pieces forms
//! share: a labelled field with its hint and its error, and the hidden CSRF
//! field.
//!
//! Contract: every value reaches the page through maud's escaping; nothing
//! here is marked pre-escaped but the fixed doctype.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::{
    assets,
    session::{CSRF_FIELD, Visit},
};
use crate::error::FieldError;

/// htmx settings (read by htmx from this meta element): no inline indicator
/// style (the CSP forbids it; ours is in the stylesheet), no eval, no
/// scripts run from swapped content.
const HTMX_CONFIG: &str = r#"{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true}"#;

/// A whole page.
pub fn page(visit: &Visit, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="htmx-config" content=(HTMX_CONFIG);
                title { (title) " · roomtax" }
                link rel="stylesheet" href=(assets::css_path());
                script src=(assets::htmx_path()) defer {}
            }
            body {
                a.skip href="#main" { "Skip to the content" }
                header.site {
                    div.bar {
                        a.brand href="/" { "roomtax" }
                        nav aria-label="Site" {
                            ul {
                                li { a href="/app/public" { "Public information" } }
                                li { a href="/app/public/calculator" { "Room-tax calculator" } }
                                @if visit.has_session() {
                                    li { a href="/app/" { "My places" } }
                                    li {
                                        form method="post" action="/app/sign-out" {
                                            (csrf_field(visit))
                                            button type="submit" { "Sign out" }
                                        }
                                    }
                                } @else {
                                    li { a href="/app/sign-in" { "Sign in" } }
                                }
                            }
                        }
                    }
                }
                main #main tabindex="-1" { (body) }
                footer.site {
                    p { "Room tax administration under Wis. Stat. § 66.0615. "
                        "Machine-readable: " a href="/docs/" { "the JSON API" } "." }
                }
            }
        }
    }
}

/// The hidden CSRF field of every form.
pub fn csrf_field(visit: &Visit) -> Markup {
    html! { input type="hidden" name=(CSRF_FIELD) value=(visit.csrf_token()); }
}

/// The id of the element holding `field`'s error.
pub fn error_id(field: &str) -> String {
    format!("error-{field}")
}

/// The messages for `field` among `errors`, joined.
pub fn error_of(errors: &[FieldError], field: &str) -> Option<String> {
    let found: Vec<&str> = errors
        .iter()
        .filter(|e| e.field == field)
        .map(|e| e.message.as_str())
        .collect();
    (!found.is_empty()).then(|| found.join("; "))
}

/// One labelled input: label, hint, the error next to it (always present, empty
/// when none, so htmx can fill it), `aria-invalid` and `aria-describedby`.
pub struct Field<'a> {
    /// Form name (also the id, and the API field the errors name).
    pub name: &'a str,
    /// The label.
    pub label: &'a str,
    /// A hint under the label.
    pub hint: Option<&'a str>,
    /// `type` attribute.
    pub kind: &'a str,
    /// The value to show.
    pub value: &'a str,
    /// Required field.
    pub required: bool,
    /// `autocomplete` attribute.
    pub autocomplete: Option<&'a str>,
    /// `inputmode` attribute.
    pub inputmode: Option<&'a str>,
}

impl<'a> Field<'a> {
    /// A text field.
    pub fn text(name: &'a str, label: &'a str, value: &'a str) -> Self {
        Field {
            name,
            label,
            hint: None,
            kind: "text",
            value,
            required: false,
            autocomplete: None,
            inputmode: None,
        }
    }

    /// Render it with `errors`.
    pub fn render(&self, errors: &[FieldError]) -> Markup {
        let error = error_of(errors, self.name);
        let hint_id = format!("hint-{}", self.name);
        let described = match self.hint {
            Some(_) => format!("{hint_id} {}", error_id(self.name)),
            None => error_id(self.name),
        };
        html! {
            div.field {
                label for=(self.name) { (self.label) }
                @if let Some(hint) = self.hint { span.hint id=(hint_id) { (hint) } }
                span.error id=(error_id(self.name)) { (error.clone().unwrap_or_default()) }
                input id=(self.name) name=(self.name) type=(self.kind) value=(self.value)
                    required[self.required]
                    autocomplete=[self.autocomplete]
                    inputmode=[self.inputmode]
                    aria-invalid=[error.is_some().then_some("true")]
                    aria-describedby=(described);
            }
        }
    }
}

/// One labelled `select` of `options` (value, label), `chosen` selected,
/// with the same error element and `aria-*` as a [`Field`] (no hint): the
/// error next to it (always present, empty when none), `aria-invalid` when
/// there is one, `aria-describedby` naming it.
pub fn select<V: AsRef<str>, L: maud::Render>(
    name: &str,
    label: &str,
    chosen: &str,
    options: impl IntoIterator<Item = (V, L)>,
    errors: &[FieldError],
) -> Markup {
    let error = error_of(errors, name);
    html! {
        div.field {
            label for=(name) { (label) }
            span.error id=(error_id(name)) { (error.clone().unwrap_or_default()) }
            select id=(name) name=(name) aria-describedby=(error_id(name))
                aria-invalid=[error.is_some().then_some("true")] {
                @for (value, text) in options {
                    option value=(value.as_ref()) selected[chosen == value.as_ref()] { (text) }
                }
            }
        }
    }
}

/// An alert box listing problems that name no field of the form.
pub fn alert(message: &str, errors: &[FieldError], fields: &[&str]) -> Markup {
    let others: Vec<&FieldError> = errors
        .iter()
        .filter(|e| !fields.contains(&e.field.as_str()))
        .collect();
    html! {
        div.alert role="alert" {
            p { strong { (message) } }
            @if !others.is_empty() {
                ul { @for e in others { li { (e.field) ": " (e.message) } } }
            }
            @else if errors.iter().any(|e| fields.contains(&e.field.as_str())) {
                p { "Each problem is shown next to its field." }
            }
        }
    }
}

/// Nothing (an empty fragment).
pub fn empty() -> Markup {
    PreEscaped(String::new())
}
