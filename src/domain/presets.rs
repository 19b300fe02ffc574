//! The shipped policy presets, one TOML file per municipality under `policies/`.
//!
//! Contract: the files are compiled in (`include_str!`), parse into a [`Policy`] and
//! validate; the tests below prove it, so the `expect`s here never fire in a build whose
//! tests passed. Slugs are lower-case municipality names: `montello`, `hayward`.

use super::policy::Policy;

const MONTELLO: &str = include_str!("../../policies/montello.toml");
const HAYWARD: &str = include_str!("../../policies/hayward.toml");

/// The slugs of the shipped presets.
pub const SLUGS: [&str; 2] = ["montello", "hayward"];

/// City of Montello (Marquette County tourism zone member), from `policies/montello.toml`.
pub fn montello() -> Policy {
    Policy::from_toml(MONTELLO).expect("policies/montello.toml is a valid policy (tested)")
}

/// City of Hayward (Ord. No. 301), from `policies/hayward.toml`.
pub fn hayward() -> Policy {
    Policy::from_toml(HAYWARD).expect("policies/hayward.toml is a valid policy (tested)")
}

/// The preset for a slug (`"montello"`, `"hayward"`), or `None`.
pub fn by_slug(slug: &str) -> Option<Policy> {
    match slug {
        "montello" => Some(montello()),
        "hayward" => Some(hayward()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::money::Money;
    use crate::domain::policy::{AnnualReturnRule, QuarterlyDueRule};
    use chrono::NaiveDate;
    use rust_decimal::Decimal;

    #[test]
    fn both_presets_parse_and_validate() {
        for text in [MONTELLO, HAYWARD] {
            let policy = Policy::from_toml(text).unwrap();
            assert_eq!(policy.validate(), Ok(()));
        }
    }

    #[test]
    fn montello_values() {
        let p = montello();
        assert_eq!(
            p.effective_from,
            NaiveDate::from_ymd_opt(2020, 1, 1).unwrap()
        );
        assert_eq!(p.rate.value, Decimal::new(45, 3));
        assert_eq!(
            p.quarterly_due.value,
            QuarterlyDueRule::LastCalendarDayOfFollowingMonth
        );
        assert_eq!(
            p.annual_return.value,
            AnnualReturnRule::WithinDaysOfYearEnd { days: 90 }
        );
        assert!(p.fiscal_year_allowed.value);
        assert_eq!(p.max_extension_months.as_ref().map(|m| m.value), Some(1));
        assert_eq!(p.distribution.value.commission_share, Decimal::new(75, 2));
        assert_eq!(
            p.security.as_ref().map(|s| s.value.max_deposit),
            Some(Money::from_cents(500_000))
        );
        let fee = p.vehicle_registration_fee.as_ref().unwrap();
        assert_eq!(fee.dot_retention_per_vehicle.value, Money::from_cents(17));
        assert_eq!(p.exemptions.len(), 3);
    }

    #[test]
    fn hayward_values() {
        let p = hayward();
        assert_eq!(
            p.effective_from,
            NaiveDate::from_ymd_opt(1993, 8, 1).unwrap()
        );
        assert_eq!(p.rate.value, Decimal::new(4, 2));
        assert_eq!(
            p.quarterly_due.value,
            QuarterlyDueRule::LastBusinessDayOfFollowingMonth
        );
        assert_eq!(
            p.annual_return.value,
            AnnualReturnRule::WithFourthQuarterReturn
        );
        assert!(!p.fiscal_year_allowed.value);
        assert!(p.max_extension_months.is_none());
        assert!(p.late_payment_forfeiture.is_none());
        assert!(p.refund_interest_monthly_rate.is_none());
        assert_eq!(
            p.non_filer_penalty.value.yearly_cap,
            Some(Money::from_cents(500_000))
        );
        assert!(p.distribution.value.commission_share.is_zero());
        assert!(p.collection_fee.value.forfeited_when_delinquent);
    }

    #[test]
    fn by_slug_finds_the_presets() {
        assert_eq!(
            by_slug("montello").map(|p| p.municipality),
            Some("City of Montello".to_owned())
        );
        assert_eq!(
            by_slug("hayward").map(|p| p.municipality),
            Some("City of Hayward".to_owned())
        );
        assert!(by_slug("Montello").is_none());
        assert!(by_slug("madison").is_none());
        assert!(SLUGS.iter().all(|slug| by_slug(slug).is_some()));
    }

    #[test]
    fn every_citation_names_its_source() {
        for policy in [montello(), hayward()] {
            let json = serde_json::to_value(&policy).unwrap();
            let mut citations = Vec::new();
            collect_citations(&json, &mut citations);
            assert!(citations.len() >= 16, "{}", citations.len());
            for citation in citations {
                assert!(
                    citation.contains("room tax")
                        || citation.contains("roomtax")
                        || citation.contains("vehicle")
                        || citation.contains("Wis. Stat."),
                    "{citation}"
                );
            }
        }
    }

    fn collect_citations(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map {
                    if key == "citation" {
                        out.push(inner.as_str().unwrap_or_default().to_owned());
                    } else {
                        collect_citations(inner, out);
                    }
                }
            }
            serde_json::Value::Array(items) => {
                items.iter().for_each(|item| collect_citations(item, out))
            }
            _ => {}
        }
    }

    #[test]
    fn required_attachments_hayward_only() {
        use crate::domain::attachment::AttachmentKind;
        use crate::domain::quote::DueKind;
        assert!(montello().required_attachments.is_empty());
        let rules = hayward().required_attachments;
        let pairs: Vec<_> = rules.iter().map(|r| (r.kind, r.returns.clone())).collect();
        assert_eq!(
            pairs,
            [
                (
                    AttachmentKind::StateSalesTaxReturn,
                    vec![DueKind::Quarterly]
                ),
                (AttachmentKind::StateSalesTaxReturn, vec![DueKind::Annual]),
            ]
        );
        assert!(
            rules[0]
                .citation
                .starts_with("Hayward room tax, returns ¶A")
        );
        assert!(
            rules[1]
                .citation
                .starts_with("Hayward room tax, returns ¶B")
        );
    }

    #[test]
    fn a_stored_version_from_before_required_attachments_still_loads() {
        for policy in [montello(), hayward()] {
            let mut json = serde_json::to_value(&policy).unwrap();
            json.as_object_mut().unwrap().remove("required_attachments");
            let old: Policy = serde_json::from_value(json).unwrap();
            assert!(
                old.required_attachments.is_empty(),
                "{}",
                policy.municipality
            );
            assert_eq!(old.validate(), Ok(()));
        }
    }

    #[test]
    fn montello_long_stays_follow_the_transient_definition() {
        let p = montello();
        let long = p
            .exemptions
            .iter()
            .find(|e| e.code == "stay_over_30_days")
            .unwrap();
        assert!(
            long.description.contains("30 consecutive days or more"),
            "{}",
            long.description
        );
        assert!(long.citation.contains("less than 30 consecutive days"));
    }

    #[test]
    fn policy_round_trips_through_json() {
        let policy = montello();
        let json = serde_json::to_string(&policy).unwrap();
        assert!(json.contains("\"rate\":{\"value\":\"0.045\""), "{json}");
        let back: Policy = serde_json::from_str(&json).unwrap();
        assert_eq!(back, policy);
    }
}
