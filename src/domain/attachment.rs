//! Documents attached to a return: what they are, what type their bytes are, and which
//! ones the municipality's ordinance requires.
//!
//! Contract:
//! - [`AttachmentKind`] is the vocabulary of what a document is (wire and database
//!   names in snake_case; rule `one_of` on field `kind`);
//! - [`Attachment::accept`] judges an upload: at most [`MAX_ATTACHMENT_BYTES`] (10 MiB)
//!   and not empty; its type is sniffed from the content, never taken from the name or
//!   the header: PDF (`%PDF-` ... `%%EOF`), PNG (the 8-byte signature ... `IEND`) or JPEG
//!   (`FF D8 FF` ... `FF D9`): both ends are checked, so a renamed text file that merely
//!   starts like one is refused; and
//!   anything else is refused; the declared `Content-Type` (parameters such as
//!   `; charset=...` ignored, case-insensitive) must name the sniffed type. Refusals are
//!   an [`AttachmentError`] whose [`AttachmentError::status`] is the HTTP status the API
//!   answers (413, 415);
//! - the digest kept is the lowercase hex SHA-256 of the bytes ([`sha256_hex`]);
//! - [`missing_required`] lists what the policy's `required_attachments` demand of a
//!   return of a period that the kinds attached do not supply (Hayward room tax, returns
//!   ¶A and ¶B: a copy of the state sales-tax return with every quarterly and annual
//!   return; Montello requires none). A return missing one is still accepted; the API
//!   lists it as incomplete until the document is attached.
//!
//! Pure: no I/O, no HTTP.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::domain::error::DomainError;
use crate::domain::period::Period;
use crate::domain::policy::{Policy, RequiredAttachment};
use crate::domain::quote::DueKind;

/// The largest attachment accepted, in bytes (10 MiB).
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

/// What an attached document is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AttachmentKind {
    /// A copy of the State of Wisconsin sales tax return for the same period (the annual
    /// state return for an annual return); Hayward requires it (Hayward room tax,
    /// returns ¶A and ¶B).
    StateSalesTaxReturn,
    /// An exemption certificate or other proof supporting exempt receipts (a sale to the
    /// federal government or to a Wis. Stat. § 77.54(9a) buyer, a long stay).
    ExemptionCertificate,
    /// A schedule of receipts supporting the return's figures (per establishment, per
    /// month, per marketplace provider).
    ReceiptsSchedule,
    /// Anything else the filer or the clerk-treasurer wants on file with the return.
    Other,
}

impl AttachmentKind {
    /// Every kind.
    pub const ALL: [AttachmentKind; 4] = [
        AttachmentKind::StateSalesTaxReturn,
        AttachmentKind::ExemptionCertificate,
        AttachmentKind::ReceiptsSchedule,
        AttachmentKind::Other,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            AttachmentKind::StateSalesTaxReturn => "state_sales_tax_return",
            AttachmentKind::ExemptionCertificate => "exemption_certificate",
            AttachmentKind::ReceiptsSchedule => "receipts_schedule",
            AttachmentKind::Other => "other",
        }
    }

    /// Parses the value of `field` (trimmed; rule `one_of`).
    pub fn parse(field: &str, raw: &str) -> Result<AttachmentKind, DomainError> {
        AttachmentKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == raw.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = AttachmentKind::ALL.iter().map(|k| k.as_str()).collect();
                DomainError::invalid(
                    field,
                    "one_of",
                    format!("must be one of: {}", names.join(", ")),
                )
            })
    }
}

/// The document types accepted, as sniffed from the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MediaType {
    /// A PDF document (starts with `%PDF-`).
    Pdf,
    /// A PNG image (starts with `89 50 4E 47 0D 0A 1A 0A`).
    Png,
    /// A JPEG image (starts with `FF D8 FF`).
    Jpeg,
}

impl MediaType {
    /// Every accepted type.
    pub const ALL: [MediaType; 3] = [MediaType::Pdf, MediaType::Png, MediaType::Jpeg];

    /// The media type name, as in a `Content-Type` header.
    pub fn mime(self) -> &'static str {
        match self {
            MediaType::Pdf => "application/pdf",
            MediaType::Png => "image/png",
            MediaType::Jpeg => "image/jpeg",
        }
    }

    fn signature(self) -> &'static [u8] {
        match self {
            MediaType::Pdf => b"%PDF-",
            MediaType::Png => b"\x89PNG\r\n\x1a\n",
            MediaType::Jpeg => b"\xff\xd8\xff",
        }
    }

    /// How a whole file of this type ends: a PDF's `%%EOF` marker (within its
    /// last KiB, as readers look for it), a PNG's `IEND` chunk, a JPEG's
    /// end-of-image marker `FF D9` (within its last 64 bytes: encoders may pad).
    fn ends_well(self, bytes: &[u8]) -> bool {
        let tail = |n: usize| &bytes[bytes.len().saturating_sub(n)..];
        let contains = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
        match self {
            MediaType::Pdf => contains(tail(1024), b"%%EOF"),
            MediaType::Png => bytes.ends_with(b"IEND\xaeB`\x82"),
            MediaType::Jpeg => contains(tail(64), b"\xff\xd9"),
        }
    }

    /// The type whose signature `bytes` start with and whose end marker they
    /// end with, if any: a text file that merely starts with `%PDF-` is no PDF.
    pub fn sniff(bytes: &[u8]) -> Option<MediaType> {
        MediaType::ALL.into_iter().find(|media| {
            bytes.len() > media.signature().len()
                && bytes.starts_with(media.signature())
                && media.ends_well(bytes)
        })
    }
}

/// Why an upload is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachmentError {
    /// Larger than [`MAX_ATTACHMENT_BYTES`].
    #[error("an attachment may be at most {limit} bytes (10 MiB); this one has {size}")]
    TooLarge {
        /// Bytes received.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// No bytes at all.
    #[error("the attachment is empty")]
    Empty,
    /// The content is not a PDF, PNG or JPEG (whatever its name or declared type).
    #[error("the content is not a PDF, PNG or JPEG document")]
    UnsupportedContent,
    /// The declared `Content-Type` does not name the type the content is.
    #[error("the Content-Type {declared:?} does not match the content, which is {actual}")]
    ContentTypeMismatch {
        /// The declared media type (lower case, parameters dropped).
        declared: String,
        /// The media type the content is.
        actual: &'static str,
    },
}

impl AttachmentError {
    /// Stable machine id for problem details.
    pub fn rule(&self) -> &'static str {
        match self {
            AttachmentError::TooLarge { .. } => "attachment_too_large",
            AttachmentError::Empty => "attachment_empty",
            AttachmentError::UnsupportedContent => "attachment_type_unsupported",
            AttachmentError::ContentTypeMismatch { .. } => "attachment_type_mismatch",
        }
    }

    /// The HTTP status the API answers: 413 for size, 415 for the media type (an empty
    /// body is no PDF, PNG or JPEG either).
    pub fn status(&self) -> u16 {
        match self {
            AttachmentError::TooLarge { .. } => 413,
            _ => 415,
        }
    }
}

/// An upload that passed the checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// What the document is.
    pub kind: AttachmentKind,
    /// Its type, sniffed from the content.
    pub media_type: MediaType,
    /// Size in bytes.
    pub size: usize,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
}

/// The media type of a `Content-Type` value: before any `;`, trimmed, lower case.
fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

impl Attachment {
    /// Judges an upload of `bytes` declared as `content_type` (see the module doc).
    pub fn accept(
        kind: AttachmentKind,
        content_type: &str,
        bytes: &[u8],
    ) -> Result<Attachment, AttachmentError> {
        if bytes.len() > MAX_ATTACHMENT_BYTES {
            return Err(AttachmentError::TooLarge {
                size: bytes.len(),
                limit: MAX_ATTACHMENT_BYTES,
            });
        }
        if bytes.is_empty() {
            return Err(AttachmentError::Empty);
        }
        let media_type = MediaType::sniff(bytes).ok_or(AttachmentError::UnsupportedContent)?;
        let declared = essence(content_type);
        if declared != media_type.mime() {
            return Err(AttachmentError::ContentTypeMismatch {
                declared,
                actual: media_type.mime(),
            });
        }
        Ok(Attachment {
            kind,
            media_type,
            size: bytes.len(),
            sha256: sha256_hex(bytes),
        })
    }
}

/// Lowercase hex SHA-256 of `bytes` (64 characters).
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for byte in hash.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    out
}

/// The requirements of `policy` that a return of `period` has not met with the kinds
/// `attached`, in the policy's order (none: the return is complete).
pub fn missing_required<'p>(
    policy: &'p Policy,
    period: &Period,
    attached: &[AttachmentKind],
) -> Vec<&'p RequiredAttachment> {
    let kind = if period.is_quarter() {
        DueKind::Quarterly
    } else {
        DueKind::Annual
    };
    policy
        .required_attachments
        .iter()
        .filter(|rule| rule.returns.contains(&kind) && !attached.contains(&rule.kind))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::presets::{hayward, montello};

    const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\0IEND\xaeB`\x82";
    const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF\0\xff\xd9";

    fn accept(content_type: &str, bytes: &[u8]) -> Result<Attachment, AttachmentError> {
        Attachment::accept(AttachmentKind::StateSalesTaxReturn, content_type, bytes)
    }

    #[test]
    fn sniffs_pdf_png_and_jpeg_from_the_content() {
        assert_eq!(MediaType::sniff(PDF), Some(MediaType::Pdf));
        assert_eq!(MediaType::sniff(PNG), Some(MediaType::Png));
        assert_eq!(MediaType::sniff(JPEG), Some(MediaType::Jpeg));
        for other in [
            &b"%PDF-1.4 a text file that only starts like a PDF"[..],
            b"\x89PNG\r\n\x1a\n no chunks, no IEND",
            b"\xff\xd8\xff\xe0 no end-of-image marker",
            &b"%PDF"[..],                 // too short to be the signature
            b"\x89PNG\r\n",               // truncated signature
            b"\xff\xd8",                  // truncated signature
            b"GIF89a",                    // a GIF
            b"PK\x03\x04",                // a zip (docx, xlsx)
            b" %PDF-1.7",                 // not at the start
            b"Gross receipts: 1000.00\n", // a text file renamed .pdf
            b"<html><body>%PDF-</body>",  // HTML
        ] {
            assert_eq!(MediaType::sniff(other), None, "{other:?}");
        }
    }

    #[test]
    fn accepts_a_pdf_declared_as_one() {
        let accepted = accept("application/pdf", PDF).unwrap();
        assert_eq!(accepted.media_type, MediaType::Pdf);
        assert_eq!(accepted.size, PDF.len());
        assert_eq!(accepted.sha256, sha256_hex(PDF));
        assert!(accept("Application/PDF; charset=binary", PDF).is_ok());
        assert!(accept("image/png", PNG).is_ok());
        assert!(accept("image/jpeg", JPEG).is_ok());
    }

    #[test]
    fn refuses_a_renamed_text_file_a_wrong_header_an_empty_and_a_large_upload() {
        let text = accept("application/pdf", b"this is not a pdf").unwrap_err();
        assert_eq!(text, AttachmentError::UnsupportedContent);
        assert_eq!(
            (text.rule(), text.status()),
            ("attachment_type_unsupported", 415)
        );

        let mismatch = accept("image/png", PDF).unwrap_err();
        assert_eq!(
            mismatch,
            AttachmentError::ContentTypeMismatch {
                declared: "image/png".into(),
                actual: "application/pdf"
            }
        );
        assert_eq!(mismatch.status(), 415);
        assert!(accept("application/octet-stream", PDF).is_err());
        assert!(accept("", JPEG).is_err());
        assert!(accept("image/jpg", JPEG).is_err(), "not a registered type");

        assert_eq!(
            accept("application/pdf", b"").unwrap_err().rule(),
            "attachment_empty"
        );

        let mut big = PDF.to_vec();
        big.resize(MAX_ATTACHMENT_BYTES - 6, b' ');
        big.extend_from_slice(b"%%EOF\n");
        assert!(accept("application/pdf", &big).is_ok(), "exactly 10 MiB");
        big.push(b' ');
        let too_large = accept("application/pdf", &big).unwrap_err();
        assert_eq!(
            (too_large.rule(), too_large.status()),
            ("attachment_too_large", 413)
        );
    }

    #[test]
    fn sha256_of_known_values() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn kinds_parse_from_their_names_only() {
        for kind in AttachmentKind::ALL {
            assert_eq!(AttachmentKind::parse("kind", kind.as_str()), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        match AttachmentKind::parse("kind", "sales_tax") {
            Err(DomainError::Invalid { field, rule, .. }) => {
                assert_eq!((field.as_str(), rule.as_str()), ("kind", "one_of"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hayward_requires_the_state_return_on_quarterly_and_annual_returns() {
        let h = hayward();
        let q1: Period = "2026-Q1".parse().unwrap();
        let year: Period = "2026".parse().unwrap();
        for period in [q1, year] {
            let missing = missing_required(&h, &period, &[]);
            assert_eq!(missing.len(), 1, "{period}");
            assert_eq!(missing[0].kind, AttachmentKind::StateSalesTaxReturn);
            assert!(missing[0].citation.contains("Hayward room tax, returns ¶"));
            assert!(missing_required(&h, &period, &[AttachmentKind::Other]).len() == 1);
            assert!(
                missing_required(
                    &h,
                    &period,
                    &[AttachmentKind::Other, AttachmentKind::StateSalesTaxReturn]
                )
                .is_empty()
            );
        }
        assert!(
            missing_required(&h, &q1, &[])
                .iter()
                .all(|r| r.citation.contains("¶A"))
        );
        assert!(
            missing_required(&h, &year, &[])
                .iter()
                .all(|r| r.citation.contains("¶B"))
        );
        assert!(missing_required(&montello(), &q1, &[]).is_empty());
        assert!(missing_required(&montello(), &year, &[]).is_empty());
    }
}
