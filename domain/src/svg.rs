//! Text put into SVG documents (the pictures rulesets draw of their state), and labels placed
//! so that none hides another ([`labels`]).

pub mod labels;

/// Escape text for XML content and attribute values.
///
/// Besides the five markup characters, control characters other than tab, line feed and
/// carriage return are replaced with U+FFFD: XML 1.0 forbids them even as character references,
/// and ids, names and titles come from users, so one stray `\u{1}` would otherwise make the
/// whole document unreadable to every XML parser.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(escape(r#"<a href="x">&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
        assert_eq!(escape("a\u{1}b\u{FFFF}\tc\n"), "a\u{FFFD}b\u{FFFD}\tc\n");
        assert_eq!(escape("plain ″ text"), "plain ″ text");
    }
}
