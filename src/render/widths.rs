//! Text in the PDF's built-in Helvetica: the WinAnsi byte of a character and
//! its advance width, to wrap lines and right-align amounts.
//!
//! Contract: [`encode`] maps every character to one WinAnsi byte (the
//! encoding the font is declared with); a character WinAnsi lacks becomes
//! `?`, and control characters a space. Widths are Helvetica's AFM widths
//! (thousandths of the font size); Helvetica-Bold is measured 5 % wider,
//! which only makes a bold line wrap a little early.

/// Helvetica widths of the printable ASCII characters 32..=126.
const ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

/// The WinAnsi byte of `c`.
fn byte_of(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        '€' => 0x80,
        '…' => 0x85,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        c if c.is_control() => b' ',
        _ => b'?',
    }
}

/// `text` in WinAnsi bytes.
pub fn encode(text: &str) -> Vec<u8> {
    text.chars().map(byte_of).collect()
}

fn width_of(byte: u8) -> u16 {
    match byte {
        32..=126 => ASCII[usize::from(byte - 32)],
        0x85 | 0x97 => 1000,
        0x91 | 0x92 => 222,
        0x93 | 0x94 => 333,
        0x95 => 350,
        0xb6 => 537,
        _ => 556,
    }
}

/// The width of `text` set in Helvetica (bold when `bold`) at `size` points.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    let units: u32 = encode(text)
        .into_iter()
        .map(|b| u32::from(width_of(b)))
        .sum();
    let factor = if bold { 1.05 } else { 1.0 };
    units as f32 * size / 1000.0 * factor
}

/// `text` broken into lines at most `width` points wide (at word
/// boundaries; a word longer than a line is cut).
pub fn wrap(text: &str, size: f32, bold: bool, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, size, bold) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest = word.to_owned();
        while text_width(&rest, size, bold) > width {
            let mut cut = String::new();
            for c in rest.chars() {
                if text_width(&format!("{cut}{c}"), size, bold) > width && !cut.is_empty() {
                    break;
                }
                cut.push(c);
            }
            rest = rest[cut.len()..].to_owned();
            lines.push(cut);
        }
        line = rest;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_helvetica_s() {
        // "Tax" = T 611 + a 556 + x 500 = 1667 thousandths; at 12 pt: 20.004.
        assert!((text_width("Tax", 12.0, false) - 20.004).abs() < 1e-3);
    }

    #[test]
    fn section_and_paragraph_signs_are_winansi() {
        assert_eq!(
            encode("§ ¶ – x\u{1F600}"),
            vec![0xa7, b' ', 0xb6, b' ', 0x96, b' ', b'x', b'?']
        );
    }

    #[test]
    fn lines_wrap_at_words_and_never_exceed_the_width() {
        let text = "Any unpaid tax imposed by this article may be deemed an assessment on land";
        let lines = wrap(text, 10.0, false, 120.0);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 10.0, false) <= 120.0));
        assert_eq!(lines.join(" "), text);
        let long = "x".repeat(100);
        let cut = wrap(&long, 10.0, false, 50.0);
        assert_eq!(cut.concat(), long);
        assert!(cut.iter().all(|l| text_width(l, 10.0, false) <= 50.0));
    }
}
