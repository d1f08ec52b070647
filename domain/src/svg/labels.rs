//! Labels that never overlap, for the pictures rulesets draw (the campaign map, the warmachine
//! table): each label's box is searched around the thing it names, clear of every label placed
//! before it and of the marks it must not hide (bases, markers), or not placed at all — the
//! caller then lists it elsewhere (a legend) rather than draw it over another.
//!
//! A box is only a promise if the text keeps to it: the width is measured with the metrics of
//! the font the pictures name ([`FONT_FAMILY`], DejaVu Sans, embedded from the `dejavu` crate
//! and read with `ttf-parser`), so a reader who has that font sees each label at its natural
//! width, neither stretched nor squeezed; the width is also written as `textLength`
//! (`lengthAdjust="spacingAndGlyphs"`) so that a reader whose browser falls back to another
//! font still gets the text inside the box the placer reserved.

use std::fmt::Write;

use super::escape;

/// An axis-aligned box in drawing units (SVG pixels), `y` down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// The box from its left, top, width and height.
    pub fn new(x: f64, y: f64, width: f64, height: f64) -> Self {
        Self { x, y, width, height }
    }

    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// Whether the two boxes share any area (touching edges do not).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right() && other.x < self.right() && self.y < other.bottom() && other.y < self.bottom()
    }

    /// Whether `self` lies wholly within `outer`.
    pub fn within(&self, outer: &Rect) -> bool {
        self.x >= outer.x && self.y >= outer.y && self.right() <= outer.right() && self.bottom() <= outer.bottom()
    }

    /// The centre.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    /// The box grown by `margin` on every side.
    pub fn grown(&self, margin: f64) -> Rect {
        Rect::new(self.x - margin, self.y - margin, self.width + 2.0 * margin, self.height + 2.0 * margin)
    }

    /// The box with its corner at whole hundredths, as the drawing writes it (so what is drawn
    /// is exactly what was reserved).
    fn rounded(self) -> Rect {
        let round = |v: f64| (v * 100.0).round() / 100.0;
        Rect::new(round(self.x), round(self.y), self.width, self.height)
    }
}

/// The least room between two labels, so that none touches another even as drawn.
const SPACING: f64 = 0.5;

/// Height of a label's box, in ems: the font's ascent and descent with room to spare (DejaVu
/// Sans, Debian's default sans-serif, spans 1.16 em).
pub const LINE_EMS: f64 = 1.3;
/// Where the baseline sits below the box's top, in ems.
const BASELINE_EMS: f64 = 1.0;

/// The font family every picture names: DejaVu Sans, whose metrics [`text_width`] reads, then
/// Bitstream Vera Sans (the same Latin metrics), then whatever sans-serif the reader has (the
/// `textLength` of each label keeps even that one inside its box).
pub const FONT_FAMILY: &str = "DejaVu Sans, Bitstream Vera Sans, sans-serif";

/// The weight a label is drawn in: each has its own font file, and so its own widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// `font-weight="normal"`.
    Regular,
    /// `font-weight="bold"`.
    Bold,
}

/// The font files' advance widths, parsed once from the bytes the `dejavu` crate embeds (no
/// file is read at run time).
fn face(weight: Weight) -> Option<&'static ttf_parser::Face<'static>> {
    static REGULAR: std::sync::OnceLock<Option<ttf_parser::Face<'static>>> = std::sync::OnceLock::new();
    static BOLD: std::sync::OnceLock<Option<ttf_parser::Face<'static>>> = std::sync::OnceLock::new();
    let (cell, bytes): (_, fn() -> &'static [u8]) = match weight {
        Weight::Regular => (&REGULAR, dejavu::sans::regular),
        Weight::Bold => (&BOLD, dejavu::sans::bold),
    };
    cell.get_or_init(|| ttf_parser::Face::parse(bytes(), 0).ok()).as_ref()
}

/// The width in ems of a character the font has no glyph for (the reader's browser takes it
/// from another font): 1 em for wide characters (CJK, emoji), nothing for combining marks and
/// invisible joiners, 0.6 em for anything else.
fn fallback_ems(c: char) -> f64 {
    match u32::from(c) {
        0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F => 0.0,
        0x1100..=0x115F
        | 0x2E80..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1FAFF
        | 0x20000..=0x3FFFD => 1.0,
        _ => 0.6,
    }
}

/// The width `text` takes at `font_size` in DejaVu Sans (regular): each glyph's advance from the
/// font's `hmtx` table, with the font's pair kerning, as a browser lays it out; a character
/// the font lacks is estimated ([`fallback_ems`]).
pub fn text_width(text: &str, font_size: f64) -> f64 {
    text_width_in(text, font_size, Weight::Regular)
}

/// Like [`text_width`], in the given weight.
pub fn text_width_in(text: &str, font_size: f64, weight: Weight) -> f64 {
    let Some(face) = face(weight) else {
        return text.chars().map(fallback_ems).sum::<f64>() * font_size;
    };
    let per_em = f64::from(face.units_per_em().max(1));
    let kern = face.tables().kern;
    let mut units = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let Some(glyph) = face.glyph_index(c) else {
            units += fallback_ems(c) * per_em;
            previous = None;
            continue;
        };
        units += f64::from(face.glyph_hor_advance(glyph).unwrap_or(0));
        if let (Some(left), Some(kern)) = (previous, kern) {
            let pair = kern
                .subtables
                .into_iter()
                .filter(|table| table.horizontal && !table.variable)
                .find_map(|table| table.glyphs_kerning(left, glyph));
            units += f64::from(pair.unwrap_or(0));
        }
        previous = Some(glyph);
    }
    units / per_em * font_size
}

/// `text` cut to at most `width` at `font_size`, with an ellipsis when cut.
pub fn fit(text: &str, font_size: f64, width: f64) -> String {
    fit_in(text, font_size, width, Weight::Regular)
}

/// Like [`fit`], in the given weight.
pub fn fit_in(text: &str, font_size: f64, width: f64, weight: Weight) -> String {
    if text_width_in(text, font_size, weight) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        let mut candidate = out.clone();
        candidate.push(c);
        candidate.push('…');
        if text_width_in(&candidate, font_size, weight) > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Places labels one at a time within `bounds`, never over one another or over a blocked box.
#[derive(Debug, Clone)]
pub struct Placer {
    bounds: Rect,
    taken: Vec<Rect>,
    labels: Vec<Rect>,
}

impl Placer {
    /// A placer for labels inside `bounds`.
    pub fn new(bounds: Rect) -> Self {
        Self { bounds, taken: Vec::new(), labels: Vec::new() }
    }

    /// Keep labels off `rect` (a marker, a base, a caption).
    pub fn block(&mut self, rect: Rect) {
        self.taken.push(rect);
    }

    /// The labels placed so far.
    pub fn placed(&self) -> &[Rect] {
        &self.labels
    }

    /// Find a free box of `width` × `height` near `anchor` (the thing the label names) and take
    /// it: beside, below or above the anchor first, then further out ring by ring up to
    /// `reach`. `None` when no free box is near enough.
    pub fn place(&mut self, anchor: Rect, width: f64, height: f64, reach: f64) -> Option<Rect> {
        let found = candidates(anchor, width, height, reach).find(|rect| self.free(rect))?;
        self.take(found)
    }

    fn free(&self, rect: &Rect) -> bool {
        rect.within(&self.bounds) && !self.taken.iter().any(|taken| taken.overlaps(&rect.grown(SPACING)))
    }

    fn take(&mut self, rect: Rect) -> Option<Rect> {
        self.taken.push(rect);
        self.labels.push(rect);
        Some(rect)
    }
}

impl Placer {
    /// Take exactly `rect` if it is free (a line of a list, which must stay in its row and
    /// column); `None` when it would overlap another label or a blocked box, or leave the bounds.
    pub fn place_at(&mut self, rect: Rect) -> Option<Rect> {
        let rect = rect.rounded();
        if self.free(&rect) {
            self.take(rect)
        } else {
            None
        }
    }

    /// Like [`Placer::place`], but centred on the anchor first (a name inside the terrain
    /// feature it names).
    pub fn place_centred(&mut self, anchor: Rect, width: f64, height: f64, reach: f64) -> Option<Rect> {
        let (cx, cy) = anchor.centre();
        let centred = Rect::new(cx - width / 2.0, cy - height / 2.0, width, height);
        let found = std::iter::once(centred.rounded())
            .chain(candidates(anchor, width, height, reach))
            .find(|rect| self.free(rect))?;
        self.take(found)
    }
}

/// Boxes around `anchor`, nearest first: right, left, below, above, then the corners, at gaps
/// growing by half a line up to `reach`.
fn candidates(anchor: Rect, width: f64, height: f64, reach: f64) -> impl Iterator<Item = Rect> {
    let step = (height / 2.0).max(1.0);
    let rings = (reach / step).ceil().clamp(0.0, 64.0) as usize;
    (0..=rings).flat_map(move |ring| {
        let gap = 1.0 + step * ring as f64;
        let (cx, cy) = anchor.centre();
        let middle_y = cy - height / 2.0;
        let centre_x = cx - width / 2.0;
        let right = anchor.right() + gap;
        let left = anchor.x - gap - width;
        let below = anchor.bottom() + gap;
        let above = anchor.y - gap - height;
        // At each gap, also slide the side positions up and down by whole lines so a column of
        // markers can have a column of labels.
        let slide = ring as f64 * step;
        [
            Rect::new(right, middle_y, width, height),
            Rect::new(left, middle_y, width, height),
            Rect::new(centre_x, below, width, height),
            Rect::new(centre_x, above, width, height),
            Rect::new(right, middle_y - slide, width, height),
            Rect::new(right, middle_y + slide, width, height),
            Rect::new(left, middle_y - slide, width, height),
            Rect::new(left, middle_y + slide, width, height),
            Rect::new(anchor.x, below, width, height),
            Rect::new(anchor.right() - width, below, width, height),
            Rect::new(anchor.x, above, width, height),
            Rect::new(anchor.right() - width, above, width, height),
        ]
        .map(Rect::rounded)
    })
}

/// A number as SVG wants it: two decimals at most, 0 for anything not finite.
pub fn num(value: f64) -> String {
    if !value.is_finite() {
        return "0".into();
    }
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// The `<text>` element of a label placed in `rect`: `text` (unescaped) drawn exactly
/// `rect.width` wide from its left edge, with `attributes` (already escaped) added.
pub fn text(svg: &mut String, rect: Rect, font_size: f64, text: &str, attributes: &str) {
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" font-size="{}" textLength="{}" lengthAdjust="spacingAndGlyphs"{}{attributes}>{}</text>"#,
        num(rect.x),
        num(rect.y + BASELINE_EMS * font_size),
        num(font_size),
        num(rect.width),
        if attributes.is_empty() || attributes.starts_with(' ') { "" } else { " " },
        escape(text)
    );
}

/// Like [`text`], with `inner` markup (already escaped, e.g. a `<tspan>`) after `text`; the
/// caller's `rect.width` must have been measured on the whole text.
pub fn text_with(svg: &mut String, rect: Rect, font_size: f64, text: &str, inner: &str, attributes: &str) {
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" font-size="{}" textLength="{}" lengthAdjust="spacingAndGlyphs"{}{attributes}>{}{inner}</text>"#,
        num(rect.x),
        num(rect.y + BASELINE_EMS * font_size),
        num(font_size),
        num(rect.width),
        if attributes.is_empty() || attributes.starts_with(' ') { "" } else { " " },
        escape(text)
    );
}

/// The box a label drawn by [`text`] at `x`, baseline `y`, `font_size` and `text_length`
/// occupies (what tests read back out of a drawing).
pub fn box_of(x: f64, y: f64, font_size: f64, text_length: f64) -> Rect {
    Rect::new(x, y - BASELINE_EMS * font_size, text_length, LINE_EMS * font_size)
}

/// A thin line from a marker to its label when the label is not right beside it.
pub fn leader(svg: &mut String, marker: Rect, label: Rect) {
    let (mx, my) = marker.centre();
    let nearest_x = mx.clamp(label.x, label.right());
    let nearest_y = my.clamp(label.y, label.bottom());
    let (dx, dy) = (nearest_x - mx, nearest_y - my);
    if dx.hypot(dy) <= marker.width.max(marker.height) / 2.0 + 4.0 {
        return;
    }
    let _ = write!(
        svg,
        r##"<line class="leader" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#333" stroke-width="0.8"/>"##,
        num(mx),
        num(my),
        num(nearest_x),
        num(nearest_y)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_never_overlap_each_other_or_blocked_boxes() {
        let mut placer = Placer::new(Rect::new(0.0, 0.0, 200.0, 200.0));
        placer.block(Rect::new(90.0, 90.0, 20.0, 20.0));
        let anchor = Rect::new(90.0, 90.0, 20.0, 20.0);
        let mut placed = Vec::new();
        while let Some(rect) = placer.place(anchor, 40.0, 12.0, 60.0) {
            placed.push(rect);
        }
        assert!(placed.len() > 8, "{}", placed.len());
        for (i, a) in placed.iter().enumerate() {
            assert!(!a.overlaps(&anchor));
            for b in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn the_first_choice_is_beside_the_anchor() {
        let mut placer = Placer::new(Rect::new(0.0, 0.0, 200.0, 200.0));
        let rect = placer.place(Rect::new(10.0, 10.0, 10.0, 10.0), 30.0, 10.0, 20.0).expect("room");
        assert_eq!((rect.x, rect.y), (21.0, 10.0));
        // The next one keeps its distance, even from a box it would only touch.
        let next = placer.place(Rect::new(10.0, 10.0, 10.0, 10.0), 30.0, 10.0, 20.0).expect("room");
        assert!(!next.grown(SPACING - 0.01).overlaps(&rect), "{next:?} {rect:?}");
    }

    #[test]
    fn text_is_cut_to_fit_with_an_ellipsis() {
        assert_eq!(fit("Sai Rei", 10.0, 100.0), "Sai Rei");
        let cut = fit("The Very Long Name Of An Army", 10.0, 60.0);
        assert!(cut.ends_with('…') && text_width(&cut, 10.0) <= 60.0, "{cut}");
        assert_eq!(text_width("東京", 10.0), 20.0);
    }

    #[test]
    fn widths_are_the_fonts_own() {
        assert!(face(Weight::Regular).is_some() && face(Weight::Bold).is_some());
        // DejaVu Sans: "I" advances 604 units of 2048, "W" 2025, "m" 1995.
        assert!((text_width("I", 2048.0) - 604.0).abs() < 1e-9, "{}", text_width("I", 2048.0));
        assert!((text_width("W", 2048.0) - 2025.0).abs() < 1e-9, "{}", text_width("W", 2048.0));
        assert!(text_width("Iiii", 10.0) < text_width("WWWW", 10.0) / 2.0);
        // Bold letters are wider than regular ones.
        assert!(text_width_in("Sai Rei", 10.0, Weight::Bold) > text_width("Sai Rei", 10.0));
        // Pair kerning is applied as a browser applies it: "AV" is narrower than "A" + "V".
        assert!(text_width("AV", 10.0) < text_width("A", 10.0) + text_width("V", 10.0));
    }
}
