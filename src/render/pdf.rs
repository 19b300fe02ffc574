//! A written notice as a PDF document ([`notice_pdf`]).
//!
//! Contract: pure and deterministic (the document's date is the notice's
//! `issued_on`, never the clock). The document is US Letter, set in the
//! PDF's built-in Helvetica (one of the standard fonts every reader has, so
//! no font file is embedded or fetched), with uncompressed content streams
//! (the text can be searched in the bytes, and a test does). It shows, in
//! order: the municipality's name and the clerk-treasurer as sender, the
//! notice id and date, the addressee block, the title, the paragraphs, the
//! amounts as a table (what, period, amount), the provisions relied on, and
//! on every page a footer with the notice id, the ledger journal it reports
//! ("none" for a letter that posts nothing) and the page number. Pages are
//! added as the content needs.
//!
//! Built with `pdf-writer` (the typst project's low-level writer): four
//! small dependencies, no I/O, no unsafe code; we lay the text out here.

use pdf_writer::{Content, Date, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::widths::{encode, text_width, wrap};
use crate::domain::notice::NoticeDraft;

pub(super) const PAGE_W: f32 = 612.0;
const PAGE_H: f32 = 792.0;
pub(super) const MARGIN: f32 = 72.0;
pub(super) const TEXT_W: f32 = PAGE_W - 2.0 * MARGIN;
/// Lowest baseline of the body (the footer sits below it).
const BOTTOM: f32 = MARGIN + 24.0;
const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");

/// What the document needs besides the draft.
#[derive(Debug, Clone, Copy)]
pub struct NoticeHeader<'a> {
    /// The municipality's name ("City of Montello").
    pub municipality: &'a str,
    /// The notice's id.
    pub notice_id: &'a str,
}

/// Lays text out top to bottom, page after page (the notices' and the
/// statement's, `render::statement`).
pub(super) struct Layout {
    pub(super) pages: Vec<Content>,
    y: f32,
}

impl Layout {
    pub(super) fn new() -> Self {
        Layout {
            pages: vec![Content::new()],
            y: PAGE_H - MARGIN,
        }
    }

    fn page(&mut self) -> &mut Content {
        self.pages.last_mut().expect("a page")
    }

    /// Room for `height` more points, or a new page.
    pub(super) fn need(&mut self, height: f32) {
        if self.y - height < BOTTOM {
            self.pages.push(Content::new());
            self.y = PAGE_H - MARGIN;
        }
    }

    pub(super) fn text_at(&mut self, x: f32, y: f32, text: &str, size: f32, bold: bool) {
        let bytes = encode(text);
        let page = self.page();
        page.begin_text();
        page.set_font(if bold { BOLD } else { REGULAR }, size);
        page.next_line(x, y);
        page.show(Str(&bytes));
        page.end_text();
    }

    /// One line at the left margin (plus `indent`), moving down.
    pub(super) fn line(&mut self, text: &str, size: f32, bold: bool, indent: f32) {
        let leading = size * 1.35;
        self.need(leading);
        self.y -= leading;
        let y = self.y;
        self.text_at(MARGIN + indent, y, text, size, bold);
    }

    /// A paragraph wrapped to the text width (less `indent`).
    pub(super) fn paragraph(&mut self, text: &str, size: f32, bold: bool, indent: f32) {
        for l in wrap(text, size, bold, TEXT_W - indent) {
            self.line(&l, size, bold, indent);
        }
    }

    pub(super) fn gap(&mut self, points: f32) {
        self.y -= points;
    }

    pub(super) fn rule(&mut self) {
        self.need(4.0);
        self.y -= 4.0;
        let y = self.y;
        let page = self.page();
        page.set_line_width(0.5);
        page.move_to(MARGIN, y);
        page.line_to(PAGE_W - MARGIN, y);
        page.stroke();
    }

    /// One line of cells in 9.5 pt: each `(text, x, right)` starts `x`
    /// points from the left margin, or ends there when `right`.
    pub(super) fn cells(&mut self, cells: &[(&str, f32, bool)], bold: bool) {
        let size = 9.5;
        let leading = size * 1.35;
        self.need(leading);
        self.y -= leading;
        let y = self.y;
        for (text, x, right) in cells {
            let x = if *right {
                MARGIN + x - text_width(text, size, bold)
            } else {
                MARGIN + x
            };
            self.text_at(x, y, text, size, bold);
        }
    }

    /// A table row: label (wrapped), period, amount right-aligned.
    pub(super) fn row(&mut self, label: &str, period: &str, amount: &str, bold: bool) {
        let size = 10.0;
        let label_w = TEXT_W * 0.6;
        let period_x = MARGIN + TEXT_W * 0.62;
        let lines = wrap(label, size, bold, label_w);
        let leading = size * 1.35;
        self.need(leading * lines.len().max(1) as f32);
        for (i, l) in lines.iter().enumerate() {
            self.y -= leading;
            let y = self.y;
            self.text_at(MARGIN, y, l, size, bold);
            if i == 0 {
                self.text_at(period_x, y, period, size, bold);
                let x = PAGE_W - MARGIN - text_width(amount, size, bold);
                self.text_at(x, y, amount, size, bold);
            }
        }
    }
}

/// The notice `draft` as a PDF document (see the module doc).
pub fn notice_pdf(header: NoticeHeader<'_>, draft: &NoticeDraft) -> Vec<u8> {
    let mut l = Layout::new();
    l.line(header.municipality, 16.0, true, 0.0);
    l.line("Office of the Clerk-Treasurer", 10.0, false, 0.0);
    l.gap(4.0);
    l.line(&format!("Notice {}", header.notice_id), 9.0, false, 0.0);
    l.line(&format!("Date: {}", draft.issued_on), 10.0, false, 0.0);
    l.gap(12.0);
    for a in &draft.addressee {
        l.paragraph(a, 10.5, false, 0.0);
    }
    l.gap(16.0);
    l.paragraph(&draft.title, 13.0, true, 0.0);
    l.gap(6.0);
    for p in &draft.paragraphs {
        l.paragraph(p, 10.5, false, 0.0);
        l.gap(6.0);
    }
    if !draft.amounts.is_empty() {
        l.gap(6.0);
        l.row("Item", "Period", "Amount (USD)", true);
        l.rule();
        for a in &draft.amounts {
            let amount = a.amount.to_string();
            l.row(&a.label, a.period.as_deref().unwrap_or(""), &amount, false);
        }
        l.rule();
        l.gap(6.0);
    }
    if !draft.citations.is_empty() {
        l.gap(6.0);
        l.line("Authority", 10.5, true, 0.0);
        for c in &draft.citations {
            l.paragraph(c, 9.0, false, 8.0);
        }
    }
    let journal = draft.journal_id.as_deref().map_or_else(
        || "none (this notice posts no journal)".to_owned(),
        str::to_owned,
    );
    let footer = |n: usize, total: usize| {
        format!(
            "Notice {} | Ledger journal {journal} | Page {n} of {total}",
            header.notice_id
        )
    };
    l.footers(footer);
    write(
        &DocumentInfo {
            title: &draft.title,
            author: header.municipality,
            subject: &format!("Notice {}", header.notice_id),
            date: draft.issued_on,
        },
        l.pages,
    )
}

/// What the document's information dictionary says.
pub(super) struct DocumentInfo<'a> {
    /// Its title.
    pub title: &'a str,
    /// Its author (the municipality).
    pub author: &'a str,
    /// Its subject.
    pub subject: &'a str,
    /// Its date (the content's, never the clock's).
    pub date: chrono::NaiveDate,
}

impl Layout {
    /// The footer `text(page, pages)` at the bottom of every page.
    pub(super) fn footers(&mut self, text: impl Fn(usize, usize) -> String) {
        let total = self.pages.len();
        for (i, page) in self.pages.iter_mut().enumerate() {
            let bytes = encode(&text(i + 1, total));
            page.begin_text();
            page.set_font(REGULAR, 8.0);
            page.next_line(MARGIN, MARGIN);
            page.show(Str(&bytes));
            page.end_text();
        }
    }
}

/// The document's objects: catalog, page tree, info, two fonts, the pages.
pub(super) fn write(info_of: &DocumentInfo<'_>, pages: Vec<Content>) -> Vec<u8> {
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let info = Ref::new(3);
    let regular = Ref::new(4);
    let bold = Ref::new(5);
    let page_ref = |i: usize| Ref::new(6 + 2 * i as i32);
    let content_ref = |i: usize| Ref::new(7 + 2 * i as i32);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids((0..pages.len()).map(page_ref))
        .count(pages.len() as i32);
    {
        use chrono::Datelike;
        let d = info_of.date;
        let mut i = pdf.document_info(info);
        i.title(TextStr(info_of.title));
        i.author(TextStr(info_of.author));
        i.subject(TextStr(info_of.subject));
        i.producer(TextStr("roomtax"));
        i.creation_date(
            Date::new(d.year().clamp(0, 9999) as u16)
                .month(d.month() as u8)
                .day(d.day() as u8),
        );
        i.finish();
    }
    for (font, name) in [(regular, "Helvetica"), (bold, "Helvetica-Bold")] {
        pdf.type1_font(font)
            .base_font(Name(name.as_bytes()))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    for (i, content) in pages.into_iter().enumerate() {
        let mut page = pdf.page(page_ref(i));
        page.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H));
        page.parent(tree);
        page.contents(content_ref(i));
        page.resources()
            .fonts()
            .pair(REGULAR, regular)
            .pair(BOLD, bold);
        page.finish();
        pdf.stream(content_ref(i), &content.finish());
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{
        Money,
        notice::{NoticeAmount, NoticeKind},
    };

    fn draft(paragraphs: usize) -> NoticeDraft {
        NoticeDraft {
            kind: NoticeKind::Delinquency,
            payor_id: "p-1".into(),
            issued_on: chrono::NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
            title: "Notice of delinquent room tax".into(),
            addressee: vec!["Lakeview Cabins LLC".into(), "12 Shore Rd".into()],
            paragraphs: vec!["Your room tax is past due (see the table).".into(); paragraphs],
            amounts: vec![NoticeAmount {
                label: "Tax".into(),
                period: Some("2026-Q1".into()),
                amount: Money::from_cents(42750),
            }],
            citations: vec!["Montello room tax, late filing fee ¶".into()],
            journal_id: None,
            cause_type: "payor".into(),
            cause_id: "p-1".into(),
        }
    }

    fn header() -> NoticeHeader<'static> {
        NoticeHeader {
            municipality: "City of Montello",
            notice_id: "n-1",
        }
    }

    fn contains(bytes: &[u8], needle: &str) -> bool {
        bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
    }

    #[test]
    fn a_notice_is_a_pdf_with_its_text_in_plain_streams() {
        let bytes = notice_pdf(header(), &draft(1));
        assert!(bytes.starts_with(b"%PDF-"));
        assert!(bytes.trim_ascii_end().ends_with(b"%%EOF"));
        for text in [
            "(City of Montello)",
            "(Notice of delinquent room tax)",
            "(Lakeview Cabins LLC)",
            "(2026-Q1)",
            "(427.50)",
            "(Date: 2026-12-01)",
            "Ledger journal none (this notice posts no journal) | Page 1 of 1",
            "/WinAnsiEncoding",
        ] {
            assert!(contains(&bytes, text), "{text}");
        }
        // "¶" is WinAnsi 0xB6, so that line is written as a hex string.
        assert!(!contains(&bytes, "¶"));
    }

    #[test]
    fn the_same_notice_renders_to_the_same_bytes_and_long_ones_get_pages() {
        assert_eq!(
            notice_pdf(header(), &draft(1)),
            notice_pdf(header(), &draft(1))
        );
        let long = notice_pdf(header(), &draft(80));
        assert!(
            contains(&long, "Page 3 of"),
            "80 paragraphs need 3 or more pages"
        );
        assert!(!contains(&notice_pdf(header(), &draft(1)), "Page 2 of"));
    }
}
