//! A census of the OpenAPI component names: two Rust types that give their schema
//! the same name (two `TransferRequest`s in two modules, say) would otherwise be
//! merged silently, the later one replacing the earlier in `components.schemas`, and
//! every operation that refers to the name would document the wrong body. The census
//! walks the same [`register`](super::register) list the router uses and collects
//! every schema each operation brings, with the static ones of the document.

use std::collections::BTreeMap;

use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

/// Every (name, schema) pair the registered operations bring, in order.
#[derive(Default)]
pub struct Census {
    schemas: Vec<(String, RefOr<Schema>)>,
}

impl super::Registry for Census {
    fn service<F>(&mut self, factory: F) -> &mut Self
    where
        F: actix_web::dev::HttpServiceFactory + utoipa_actix_web::OpenApiFactory + 'static,
    {
        factory.schemas(&mut self.schemas);
        self
    }
}

impl Census {
    /// The census of the whole API: the document's own schemas and every operation's.
    pub fn of_api() -> Census {
        let mut census = Census::default();
        if let Some(components) = super::ApiDoc::openapi().components {
            census.schemas.extend(components.schemas);
        }
        super::register(&mut census);
        census
    }

    /// Names that stand for two or more different schemas, each with its variants
    /// (as JSON, so the message shows what differs).
    pub fn clashes(&self) -> BTreeMap<String, Vec<String>> {
        let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (name, schema) in &self.schemas {
            let text = serde_json::to_string(schema).expect("a schema serialises");
            let variants = by_name.entry(name).or_default();
            if !variants.contains(&text) {
                variants.push(text);
            }
        }
        by_name
            .into_iter()
            .filter(|(_, variants)| variants.len() > 1)
            .map(|(name, variants)| (name.to_owned(), variants))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::openapi::schema::{ObjectBuilder, Type};

    #[test]
    fn no_two_schemas_share_a_component_name() {
        let census = Census::of_api();
        assert!(
            census.schemas.len() > 100,
            "the census saw the operations' schemas"
        );
        let clashes = census.clashes();
        assert!(
            clashes.is_empty(),
            "these component names stand for more than one schema (give one a \
             `#[schema(as = ...)]`): {clashes:#?}"
        );
    }

    #[test]
    fn a_name_with_two_schemas_is_a_clash() {
        let one = |field: &str| {
            RefOr::T(Schema::Object(
                ObjectBuilder::new()
                    .property(field, ObjectBuilder::new().schema_type(Type::String))
                    .build(),
            ))
        };
        let census = Census {
            schemas: vec![
                ("Same".into(), one("a")),
                ("Same".into(), one("a")),
                ("Twice".into(), one("a")),
                ("Twice".into(), one("b")),
            ],
        };
        let clashes = census.clashes();
        assert_eq!(clashes.keys().collect::<Vec<_>>(), vec!["Twice"]);
        assert_eq!(clashes["Twice"].len(), 2);
    }
}
