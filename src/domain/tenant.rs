//! Tenants' identifying values: [`Slug`], [`TenantName`], [`MunicipalityKind`], [`County`].
//!
//! Contract (parse, don't validate): each type is built only by its `parse`, which
//! refuses bad input with a [`DomainError::Invalid`] naming the field and a stable rule,
//! so code holding one never sees an invalid value. One rule for the CLI and the API.
//! - [`Slug`]: lowercase ASCII words joined by single hyphens, [`SLUG_PATTERN`], 1 to
//!   [`SLUG_MAX_LEN`] characters (the schema's `CHECK`); no trimming or case folding:
//!   a slug is an identifier in URLs, so `Montello` is refused rather than changed;
//! - [`TenantName`]: trimmed; 1 to [`NAME_MAX_CHARS`] characters; refused when it holds
//!   a control character (C0/C1, NUL included) or a bidirectional override/isolate
//!   (text that displays differently from what it says), or when it is made only of
//!   whitespace and invisible characters (zero-width spaces and joiners, the word
//!   joiner, the byte-order mark, soft hyphens, Hangul fillers, ...);
//! - [`MunicipalityKind`]: `city`, `village` or `town`: the municipalities that levy
//!   room tax under Wis. Stat. § 66.0615, and the kinds the schema stores. A county is
//!   refused with its own rule (`county_not_a_municipality`): in this service a county
//!   is where a municipality lies (or what a zone covers), not a tenant that levies;
//! - [`County`]: one of Wisconsin's 72 counties, matched without regard to case or a
//!   trailing " County", stored in its usual spelling ("st. croix" → "St. Croix").

use std::fmt;

use super::error::DomainError;

/// The pattern every slug matches (stated in the OpenAPI document).
pub const SLUG_PATTERN: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";
/// Longest slug, in characters.
pub const SLUG_MAX_LEN: usize = 63;
/// Longest municipality, zone, commission or tourism-entity name, in characters.
pub const NAME_MAX_CHARS: usize = 120;

/// A tenant's URL identifier, e.g. `montello`, `marquette-county`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slug(String);

impl Slug {
    /// Parses a slug given in `field` (rules `slug_length`, `slug_format`).
    pub fn parse(field: &str, raw: &str) -> Result<Slug, DomainError> {
        if raw.is_empty() || raw.len() > SLUG_MAX_LEN {
            return Err(DomainError::invalid(
                field,
                "slug_length",
                format!("a slug has 1 to {SLUG_MAX_LEN} characters"),
            ));
        }
        let words_ok = raw.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
        if !words_ok {
            return Err(DomainError::invalid(
                field,
                "slug_format",
                format!(
                    "a slug is lowercase letters a-z and digits, in words joined by single hyphens ({SLUG_PATTERN}), e.g. `montello` or `marquette-county`"
                ),
            ));
        }
        Ok(Slug(raw.to_owned()))
    }

    /// The slug.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Characters that display as nothing (besides whitespace).
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
        | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
        | '\u{2060}'..='\u{2064}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}')
        || c.is_whitespace()
}

/// Bidirectional embeddings, overrides and isolates.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name people read: of a municipality, zone, commission or tourism entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TenantName(String);

impl TenantName {
    /// Parses a name given in `field` (rules `name_length`, `no_control_characters`,
    /// `visible_name`).
    pub fn parse(field: &str, raw: &str) -> Result<TenantName, DomainError> {
        let name = raw.trim();
        if name.chars().any(|c| c.is_control() || is_bidi_control(c)) {
            return Err(DomainError::invalid(
                field,
                "no_control_characters",
                "a name may not contain control characters (tabs, line breaks, NUL) or bidirectional overrides",
            ));
        }
        if name.chars().all(is_invisible) {
            return Err(DomainError::invalid(
                field,
                "visible_name",
                "a name needs at least one visible character",
            ));
        }
        if name.chars().count() > NAME_MAX_CHARS {
            return Err(DomainError::invalid(
                field,
                "name_length",
                format!("a name has at most {NAME_MAX_CHARS} characters"),
            ));
        }
        Ok(TenantName(name.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TenantName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of municipality levies the tax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MunicipalityKind {
    /// A city (Montello, Hayward).
    City,
    /// A village.
    Village,
    /// A town.
    Town,
}

impl MunicipalityKind {
    /// Every kind, in the order the CLI lists them.
    pub const ALL: [MunicipalityKind; 3] = [Self::City, Self::Village, Self::Town];

    /// Parses a kind given in `field` (rules `municipality_kind`,
    /// `county_not_a_municipality`).
    pub fn parse(field: &str, raw: &str) -> Result<MunicipalityKind, DomainError> {
        match raw {
            "city" => Ok(Self::City),
            "village" => Ok(Self::Village),
            "town" => Ok(Self::Town),
            "county" => Err(DomainError::invalid(
                field,
                "county_not_a_municipality",
                "room tax is levied by a city, village or town (Wis. Stat. § 66.0615); give the county with --county, or create a zone for a county-wide tourism zone",
            )),
            _ => Err(DomainError::invalid(
                field,
                "municipality_kind",
                "the kind is one of city, village, town",
            )),
        }
    }

    /// As stored and shown: `city`, `village`, `town`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::City => "city",
            Self::Village => "village",
            Self::Town => "town",
        }
    }
}

impl fmt::Display for MunicipalityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Wisconsin's 72 counties, in their usual spelling.
pub const WISCONSIN_COUNTIES: [&str; 72] = [
    "Adams",
    "Ashland",
    "Barron",
    "Bayfield",
    "Brown",
    "Buffalo",
    "Burnett",
    "Calumet",
    "Chippewa",
    "Clark",
    "Columbia",
    "Crawford",
    "Dane",
    "Dodge",
    "Door",
    "Douglas",
    "Dunn",
    "Eau Claire",
    "Florence",
    "Fond du Lac",
    "Forest",
    "Grant",
    "Green",
    "Green Lake",
    "Iowa",
    "Iron",
    "Jackson",
    "Jefferson",
    "Juneau",
    "Kenosha",
    "Kewaunee",
    "La Crosse",
    "Lafayette",
    "Langlade",
    "Lincoln",
    "Manitowoc",
    "Marathon",
    "Marinette",
    "Marquette",
    "Menominee",
    "Milwaukee",
    "Monroe",
    "Oconto",
    "Oneida",
    "Outagamie",
    "Ozaukee",
    "Pepin",
    "Pierce",
    "Polk",
    "Portage",
    "Price",
    "Racine",
    "Richland",
    "Rock",
    "Rusk",
    "St. Croix",
    "Sauk",
    "Sawyer",
    "Shawano",
    "Sheboygan",
    "Taylor",
    "Trempealeau",
    "Vernon",
    "Vilas",
    "Walworth",
    "Washburn",
    "Washington",
    "Waukesha",
    "Waupaca",
    "Waushara",
    "Winnebago",
    "Wood",
];

/// A Wisconsin county.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct County(&'static str);

impl County {
    /// Parses a county given in `field` (rule `wisconsin_county`): case does not matter,
    /// nor a trailing " County" or surrounding whitespace.
    pub fn parse(field: &str, raw: &str) -> Result<County, DomainError> {
        let name = raw.trim();
        let name = name
            .len()
            .checked_sub(" county".len())
            .filter(|&cut| {
                name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(" county")
            })
            .map_or(name, |cut| name[..cut].trim_end());
        WISCONSIN_COUNTIES
            .iter()
            .find(|county| county.eq_ignore_ascii_case(name))
            .map(|county| County(county))
            .ok_or_else(|| {
                DomainError::invalid(
                    field,
                    "wisconsin_county",
                    "give one of Wisconsin's 72 counties, e.g. Marquette or Sawyer",
                )
            })
    }

    /// The county's name, e.g. `Marquette` (without "County").
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl fmt::Display for County {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A municipality to create, every value parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMunicipality {
    /// URL identifier.
    pub slug: Slug,
    /// Official name, e.g. "City of Montello".
    pub name: TenantName,
    /// City, village or town.
    pub kind: MunicipalityKind,
    /// The county it lies in.
    pub county: County,
}

/// A tourism zone to create, every value parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewZone {
    /// URL identifier.
    pub slug: Slug,
    /// Name, e.g. "Marquette County Tourism Zone".
    pub name: TenantName,
    /// The county it covers, if it is a county's zone.
    pub county: Option<County>,
    /// The zone's tourism commission.
    pub commission_name: TenantName,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule<T: fmt::Debug>(result: Result<T, DomainError>) -> String {
        match result {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn slugs() {
        for ok in [
            "montello",
            "marquette-county",
            "a",
            "town-of-2",
            &"a".repeat(63),
        ] {
            assert_eq!(Slug::parse("slug", ok).unwrap().as_str(), ok);
        }
        for (bad, expected) in [
            ("", "slug/slug_length"),
            (&"a".repeat(64) as &str, "slug/slug_length"),
            ("Montello", "slug/slug_format"),
            ("-montello", "slug/slug_format"),
            ("montello-", "slug/slug_format"),
            ("mont--ello", "slug/slug_format"),
            ("mont ello", "slug/slug_format"),
            ("montéllo", "slug/slug_format"),
            ("mont_ello", "slug/slug_format"),
            ("mont\0", "slug/slug_format"),
            (" montello", "slug/slug_format"),
        ] {
            assert_eq!(rule(Slug::parse("slug", bad)), expected, "{bad:?}");
        }
    }

    proptest::proptest! {
        // The documented pattern and `parse` agree: whatever the pattern generates
        // parses if it is within the length limit, and a slug with any other byte does not.
        #[test]
        fn what_the_pattern_generates_parses(
            slug in proptest::string::string_regex(&SLUG_PATTERN[1..SLUG_PATTERN.len() - 1]).unwrap(),
            junk in "[^a-z0-9-]",
        ) {
            let fits = slug.len() <= SLUG_MAX_LEN;
            proptest::prop_assert_eq!(Slug::parse("slug", &slug).is_ok(), fits, "{}", slug);
            let spoiled = format!("{slug}{junk}");
            proptest::prop_assert!(Slug::parse("slug", &spoiled).is_err(), "{}", spoiled);
        }
    }

    #[test]
    fn names() {
        assert_eq!(
            TenantName::parse("name", "  City of Montello ")
                .unwrap()
                .as_str(),
            "City of Montello"
        );
        assert!(TenantName::parse("name", "Ville de Lac-Saint-Jean – Ōtsu").is_ok());
        assert!(TenantName::parse("name", &"x".repeat(120)).is_ok());
        for (bad, expected) in [
            ("", "name/visible_name"),
            ("   ", "name/visible_name"),
            ("\u{200B}\u{200D}\u{FEFF}", "name/visible_name"),
            (" \u{3164} \u{00AD}", "name/visible_name"),
            ("City\0of Montello", "name/no_control_characters"),
            ("City of\nMontello", "name/no_control_characters"),
            ("City\tof Montello", "name/no_control_characters"),
            ("City \u{202E}olletnoM", "name/no_control_characters"),
            ("City\u{0085}of Montello", "name/no_control_characters"),
            (&"x".repeat(121) as &str, "name/name_length"),
        ] {
            assert_eq!(rule(TenantName::parse("name", bad)), expected, "{bad:?}");
        }
    }

    #[test]
    fn kinds() {
        for kind in MunicipalityKind::ALL {
            assert_eq!(MunicipalityKind::parse("kind", kind.as_str()), Ok(kind));
        }
        assert_eq!(
            rule(MunicipalityKind::parse("kind", "county")),
            "kind/county_not_a_municipality"
        );
        assert_eq!(
            rule(MunicipalityKind::parse("kind", "City")),
            "kind/municipality_kind"
        );
        assert_eq!(
            rule(MunicipalityKind::parse("kind", "hamlet")),
            "kind/municipality_kind"
        );
    }

    #[test]
    fn counties() {
        let parsed = |s: &str| County::parse("county", s).map(|c| c.as_str());
        assert_eq!(parsed("Marquette"), Ok("Marquette"));
        assert_eq!(parsed(" marquette county "), Ok("Marquette"));
        assert_eq!(parsed("ST. CROIX"), Ok("St. Croix"));
        assert_eq!(parsed("Fond du Lac County"), Ok("Fond du Lac"));
        assert_eq!(parsed("Green Lake"), Ok("Green Lake"));
        for bad in ["", "Marquete", "Cook", "County", "Marquette\0", "é"] {
            assert_eq!(
                rule(County::parse("county", bad)),
                "county/wisconsin_county",
                "{bad:?}"
            );
        }
        let mut sorted = WISCONSIN_COUNTIES;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] != w[1]), "no duplicates");
    }
}
