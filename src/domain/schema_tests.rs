//! Guardrail: the OpenAPI schemas of the domain's value types give every field a
//! description (the API's spec requires one on every request and response field).
//! An optional reference (`oneOf: [ {$ref, description}, {type: null} ]`, utoipa's form
//! for `Option<T>`) counts as described when its non-null item is.

use serde_json::Value;
use utoipa::OpenApi;

use super::compute::{
    Charge, ForfeitureLimits, NonFilerEstimate, PaymentApplication, RefundInterestExclusions,
    SeatAllocation, VehicleFeeRemittance,
};
use super::{DueItem, Policy, Quote, QuoteInput};

#[derive(OpenApi)]
#[openapi(components(schemas(
    Policy,
    Quote,
    QuoteInput,
    DueItem,
    Charge,
    PaymentApplication,
    NonFilerEstimate,
    ForfeitureLimits,
    SeatAllocation,
    VehicleFeeRemittance,
    RefundInterestExclusions
)))]
struct DomainSchemas;

fn described(property: &Value) -> bool {
    property.get("description").is_some()
        || property["oneOf"]
            .as_array()
            .is_some_and(|items| items.iter().any(|i| i.get("description").is_some()))
}

fn undescribed(path: &str, schema: &Value, out: &mut Vec<String>) {
    if let Some(properties) = schema["properties"].as_object() {
        for (name, property) in properties {
            if !described(property) {
                out.push(format!("{path}.{name}"));
            }
            undescribed(&format!("{path}.{name}"), property, out);
        }
    }
    for key in ["oneOf", "allOf", "anyOf"] {
        for (i, item) in schema[key].as_array().into_iter().flatten().enumerate() {
            undescribed(&format!("{path}/{key}{i}"), item, out);
        }
    }
    if schema.get("items").is_some() {
        undescribed(&format!("{path}[]"), &schema["items"], out);
    }
}

#[test]
fn every_schema_field_has_a_description() {
    let spec = serde_json::to_value(DomainSchemas::openapi()).unwrap();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    for name in [
        "Money",
        "Period",
        "Line",
        "Policy",
        "Quote",
        "Cited_Money",
        "Cited_AnnualReturnRule",
    ] {
        assert!(schemas.contains_key(name), "{name} not registered");
    }
    let mut missing = Vec::new();
    for (name, schema) in schemas {
        undescribed(name, schema, &mut missing);
    }
    assert!(
        missing.is_empty(),
        "fields without a description: {missing:?}"
    );
    assert_eq!(schemas["Money"]["type"], "string");
}
