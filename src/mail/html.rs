//! HTML mail body → readable plain text that keeps link targets.
//!
//! A small single-pass, linear-time converter. It never panics: every slice
//! is cut at an ASCII delimiter (or the end of input), so it always lies on a
//! char boundary.

/// Turns an HTML mail body into readable plain text that keeps link targets.
pub fn html_to_text(html: &str) -> String {
    let mut c = Converter::default();
    c.run(html);
    c.finish()
}

struct Link {
    href: Option<String>,
    /// Byte offset in `buf` where the link text starts (set on first write).
    start: Option<usize>,
}

#[derive(Default)]
struct Converter {
    buf: String,
    pending_nl: usize,
    pending_space: bool,
    quote: usize,
    line_quote: usize,
    pre: usize,
    list: usize,
    marker: Option<String>,
    link: Option<Link>,
}

fn find_byte(b: &[u8], from: usize, byte: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|&c| c == byte)
        .map(|p| p + from)
}

/// Case-insensitive search for an ASCII needle starting with a non-letter.
fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut i = from;
    while let Some(p) = find_byte(hay, i, first) {
        match hay.get(p..p + needle.len()) {
            Some(w) if w.eq_ignore_ascii_case(needle) => return Some(p),
            Some(_) => i = p + 1,
            None => return None,
        }
    }
    None
}

fn skip_ws(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && b[k].is_ascii_whitespace() {
        k += 1;
    }
    k
}

/// Parses a tag's attributes from `k` (just after the name). Returns the index
/// after the closing `>`, or `None` when the input ends inside the tag.
fn parse_attrs<'a>(
    html: &'a str,
    mut k: usize,
    want: bool,
    attrs: &mut Vec<(&'a str, &'a str)>,
) -> Option<usize> {
    let b = html.as_bytes();
    loop {
        while k < b.len() && (b[k].is_ascii_whitespace() || b[k] == b'/') {
            k += 1;
        }
        if *b.get(k)? == b'>' {
            return Some(k + 1);
        }
        let ns = k;
        k += 1;
        while k < b.len() && !b[k].is_ascii_whitespace() && !matches!(b[k], b'=' | b'>' | b'/') {
            k += 1;
        }
        let name = html.get(ns..k).unwrap_or("");
        k = skip_ws(b, k);
        if b.get(k) != Some(&b'=') {
            continue;
        }
        k = skip_ws(b, k + 1);
        let q = *b.get(k)?;
        let val = if q == b'"' || q == b'\'' {
            if let Some(e) = find_byte(b, k + 1, q) {
                let v = &html[k + 1..e];
                k = e + 1;
                v
            } else {
                // Unclosed quote: the value runs to the next '>'.
                let e = find_byte(b, k + 1, b'>')?;
                let v = &html[k + 1..e];
                k = e;
                v
            }
        } else {
            let vs = k;
            while k < b.len() && !b[k].is_ascii_whitespace() && b[k] != b'>' {
                k += 1;
            }
            &html[vs..k]
        };
        if want {
            attrs.push((name, val));
        }
    }
}

fn attr<'a>(attrs: &[(&'a str, &'a str)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

impl Converter {
    fn run(&mut self, html: &str) {
        let b = html.as_bytes();
        let mut i = 0;
        let mut attrs = Vec::new();
        while i < b.len() {
            let next = find_byte(b, i, b'<').unwrap_or(b.len());
            if next > i {
                self.text(&html[i..next]);
            }
            if next >= b.len() {
                break;
            }
            i = self.markup(html, next, &mut attrs);
        }
        self.close_link();
    }

    /// Handles markup starting at `b[i] == b'<'`; returns the index to resume at (> i).
    fn markup<'a>(
        &mut self,
        html: &'a str,
        i: usize,
        attrs: &mut Vec<(&'a str, &'a str)>,
    ) -> usize {
        let b = html.as_bytes();
        let len = b.len();
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            return find_ci(b, i + 4, b"-->").map_or(len, |p| p + 3);
        }
        if matches!(rest.get(1), Some(b'!' | b'?')) {
            return find_byte(b, i + 2, b'>').map_or(len, |p| p + 1);
        }
        let closing = rest.get(1) == Some(&b'/');
        let ns = i + 1 + usize::from(closing);
        if !b.get(ns).is_some_and(|c| c.is_ascii_alphabetic()) {
            if closing {
                if let Some(p) = find_byte(b, ns, b'>') {
                    return p + 1;
                }
            }
            self.text("<");
            return i + 1;
        }
        let mut j = ns;
        while j < len && (b[j].is_ascii_alphanumeric() || matches!(b[j], b':' | b'-' | b'_' | b'.'))
        {
            j += 1;
        }
        let name = html[ns..j].to_ascii_lowercase();
        attrs.clear();
        let want = !closing && (name == "a" || name == "img");
        let Some(end) = parse_attrs(html, j, want, attrs) else {
            // Input ends inside a tag: keep a dangling start tag as text.
            if !closing {
                self.text(&html[i..]);
            }
            return len;
        };
        if closing {
            self.end_tag(&name);
            return end;
        }
        match name.as_str() {
            "script" | "style" | "title" | "template" | "svg" | "xml" => {
                let needle = format!("</{name}");
                match find_ci(b, end, needle.as_bytes()) {
                    Some(p) => find_byte(b, p, b'>').map_or(len, |q| q + 1),
                    None if name == "title" => end,
                    None => len,
                }
            }
            _ => {
                self.start_tag(&name, attrs);
                end
            }
        }
    }

    fn start_tag(&mut self, name: &str, attrs: &[(&str, &str)]) {
        match name {
            "br" => self.br(),
            "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "table" | "hr" | "dl" => self.block(2),
            "blockquote" => {
                self.block(2);
                self.quote += 1;
            }
            "pre" => {
                self.block(2);
                self.pre += 1;
            }
            "ul" | "ol" => {
                self.block(if self.list == 0 { 2 } else { 1 });
                self.list += 1;
            }
            "li" => {
                self.block(1);
                let indent = "  ".repeat(self.list.saturating_sub(1).min(16));
                self.marker = Some(format!("{indent}- "));
            }
            "div" | "tr" | "dt" | "dd" | "section" | "article" | "header" | "footer"
            | "address" | "form" | "center" | "figure" | "figcaption" | "caption" | "nav"
            | "main" | "aside" | "fieldset" | "details" | "summary" | "tbody" | "thead"
            | "tfoot" => self.block(1),
            "td" | "th" => self.space(),
            "a" => {
                self.close_link();
                let href = attr(attrs, "href").and_then(clean_href);
                self.link = Some(Link { href, start: None });
            }
            "img" => {
                let mut alt = String::new();
                decode_into(attr(attrs, "alt").unwrap_or(""), &mut |c| alt.push(c));
                let alt = alt.split_whitespace().collect::<Vec<_>>().join(" ");
                if !alt.is_empty() {
                    self.space();
                    self.word(&format!("[image: {alt}]"));
                    self.space();
                }
            }
            _ => {}
        }
    }

    fn end_tag(&mut self, name: &str) {
        match name {
            "br" => self.br(),
            "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "table" | "dl" => self.block(2),
            "blockquote" => {
                self.block(2);
                self.quote = self.quote.saturating_sub(1);
            }
            "pre" => {
                self.block(2);
                self.pre = self.pre.saturating_sub(1);
            }
            "ul" | "ol" => {
                self.marker = None;
                self.list = self.list.saturating_sub(1);
                self.block(if self.list == 0 { 2 } else { 1 });
            }
            "li" => {
                self.marker = None;
                self.block(1);
            }
            "div" | "tr" | "dt" | "dd" | "section" | "article" | "header" | "footer"
            | "address" | "form" | "center" | "figure" | "figcaption" | "caption" | "nav"
            | "main" | "aside" | "fieldset" | "details" | "summary" => self.block(1),
            "td" | "th" => self.space(),
            "a" => self.close_link(),
            _ => {}
        }
    }

    fn block(&mut self, n: usize) {
        // Inside lists, paragraphs are only line breaks (keeps items compact).
        let n = if self.list > 0 { n.min(1) } else { n };
        if self.marker.is_none() {
            self.pending_nl = self.pending_nl.max(n);
            self.pending_space = false;
        }
    }

    fn br(&mut self) {
        if self.marker.is_none() {
            self.pending_nl = (self.pending_nl + 1).min(2);
            self.pending_space = false;
        }
    }

    fn space(&mut self) {
        if !self.buf.is_empty() && self.pending_nl == 0 {
            self.pending_space = true;
        }
    }

    fn push_prefix(&mut self, depth: usize) {
        // Capped so that absurd nesting cannot blow up the output size.
        for _ in 0..depth.min(16) {
            self.buf.push_str("> ");
        }
    }

    /// Emits pending breaks, quote prefix, list marker or a pending space.
    fn flush(&mut self) {
        let mut line_start = self.buf.is_empty();
        if self.pending_nl > 0 {
            if !self.buf.is_empty() {
                self.buf.push('\n');
                if self.pending_nl >= 2 {
                    self.push_prefix(self.line_quote.min(self.quote));
                    self.buf.push('\n');
                }
                line_start = true;
            }
            self.pending_nl = 0;
        }
        if line_start {
            self.push_prefix(self.quote);
            self.line_quote = self.quote;
            if let Some(m) = self.marker.take() {
                self.buf.push_str(&m);
            }
        } else if self.pending_space {
            self.buf.push(' ');
        }
        self.pending_space = false;
        if let Some(l) = self.link.as_mut() {
            if l.start.is_none() {
                l.start = Some(self.buf.len());
            }
        }
    }

    fn put(&mut self, c: char) {
        self.flush();
        self.buf.push(c);
    }

    fn word(&mut self, s: &str) {
        for c in s.chars() {
            if c.is_whitespace() {
                self.space();
            } else {
                self.put(c);
            }
        }
    }

    fn text(&mut self, s: &str) {
        decode_into(s, &mut |c| self.char_in(c));
    }

    fn char_in(&mut self, c: char) {
        let c = if c == '\u{a0}' { ' ' } else { c };
        if matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{feff}' | '\u{ad}' | '\u{34f}'
        ) {
            return;
        }
        if self.pre > 0 {
            match c {
                '\n' => {
                    self.pending_nl = (self.pending_nl + 1).min(2);
                    self.pending_space = false;
                }
                ' ' | '\t' => self.put(c),
                c if c.is_control() => {}
                c => self.put(c),
            }
        } else if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
            self.space();
        } else if !c.is_control() {
            self.put(c);
        }
    }

    fn close_link(&mut self) {
        let Some(link) = self.link.take() else { return };
        let Some(href) = link.href else { return };
        let disp = match strip_prefix_ci(&href, "mailto:") {
            Some(addr) => addr.split('?').next().unwrap_or(addr),
            None => href.as_str(),
        };
        let text = link
            .start
            .and_then(|s| self.buf.get(s..))
            .unwrap_or("")
            .trim();
        if text.is_empty() {
            self.word(disp);
        } else if !same_target(text, &href) && !same_target(text, disp) {
            self.buf.push_str(" <");
            self.buf.push_str(disp);
            self.buf.push('>');
        }
    }

    fn finish(self) -> String {
        let mut out = String::with_capacity(self.buf.len());
        let mut blank_run = 0;
        for line in self.buf.lines() {
            let t = line.trim_end();
            if t.bytes().all(|b| b == b'>' || b == b' ') {
                blank_run += 1;
                if blank_run > 1 {
                    continue;
                }
            } else {
                blank_run = 0;
            }
            out.push_str(t);
            out.push('\n');
        }
        out.trim().to_string()
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Decodes entities, drops embedded whitespace; `None` for useless targets.
fn clean_href(raw: &str) -> Option<String> {
    let mut s = String::with_capacity(raw.len());
    decode_into(raw, &mut |c| {
        if !matches!(c, '\n' | '\r' | '\t') {
            s.push(c);
        }
    });
    let t = s.trim();
    let useless = t.is_empty()
        || t.starts_with('#')
        || ["javascript:", "vbscript:", "data:", "cid:"]
            .iter()
            .any(|p| strip_prefix_ci(t, p).is_some());
    (!useless).then(|| t.to_string())
}

fn normalize_target(s: &str) -> &str {
    let mut s = s.trim();
    for p in ["https://", "http://", "mailto:", "tel:", "www."] {
        if let Some(r) = strip_prefix_ci(s, p) {
            s = r;
        }
    }
    s.trim_end_matches('/')
}

fn same_target(text: &str, url: &str) -> bool {
    normalize_target(text).eq_ignore_ascii_case(normalize_target(url))
}

/// Calls `f` for every char of `s` with character references decoded.
fn decode_into(s: &str, f: &mut impl FnMut(char)) {
    let mut rest = s;
    while let Some(p) = rest.find('&') {
        rest[..p].chars().for_each(&mut *f);
        let after = &rest[p + 1..];
        match parse_entity(after) {
            Some((c, used)) => {
                f(c);
                rest = &after[used..];
            }
            None => {
                f('&');
                rest = after;
            }
        }
    }
    rest.chars().for_each(f);
}

/// Parses the text after '&'; returns the char and the bytes consumed.
fn parse_entity(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        let hex = matches!(b.get(1), Some(b'x' | b'X'));
        let ds = if hex { 2 } else { 1 };
        let radix = if hex { 16 } else { 10 };
        let mut k = ds;
        let mut val: u32 = 0;
        while let Some(d) = b.get(k).and_then(|&c| (c as char).to_digit(radix)) {
            val = val.saturating_mul(radix).saturating_add(d);
            k += 1;
        }
        if k == ds {
            return None;
        }
        if b.get(k) == Some(&b';') {
            k += 1;
        }
        let c = match val {
            0x80..=0x9f => cp1252(val),
            0 => '\u{fffd}',
            v => char::from_u32(v).unwrap_or('\u{fffd}'),
        };
        return Some((c, k));
    }
    let n = b
        .iter()
        .take(33)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if n == 0 || n > 32 {
        return None;
    }
    let name = &s[..n];
    if b.get(n) == Some(&b';') {
        return named_entity(name).map(|c| (c, n + 1));
    }
    // Legacy forms without ';' for the basic entities only.
    match name {
        "amp" | "lt" | "gt" | "quot" | "nbsp" | "copy" | "reg" if b.get(n) != Some(&b'=') => {
            named_entity(name).map(|c| (c, n))
        }
        _ => None,
    }
}

#[rustfmt::skip]
fn cp1252(v: u32) -> char {
    match v {
        0x80 => '€', 0x82 => '‚', 0x83 => 'ƒ', 0x84 => '„', 0x85 => '…', 0x86 => '†', 0x87 => '‡',
        0x88 => 'ˆ', 0x89 => '‰', 0x8a => 'Š', 0x8b => '‹', 0x8c => 'Œ', 0x8e => 'Ž', 0x91 => '‘',
        0x92 => '’', 0x93 => '“', 0x94 => '”', 0x95 => '•', 0x96 => '–', 0x97 => '—', 0x98 => '˜',
        0x99 => '™', 0x9a => 'š', 0x9b => '›', 0x9c => 'œ', 0x9e => 'ž', 0x9f => 'Ÿ',
        _ => '\u{fffd}',
    }
}

#[rustfmt::skip]
fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" | "AMP" => '&', "lt" | "LT" => '<', "gt" | "GT" => '>', "quot" | "QUOT" => '"',
        "apos" => '\'', "nbsp" => ' ', "ensp" | "emsp" | "thinsp" => ' ',
        "copy" | "COPY" => '©', "reg" | "REG" => '®', "trade" => '™',
        "mdash" => '—', "ndash" => '–', "hellip" => '…', "bull" => '•', "middot" => '·',
        "lsquo" => '‘', "rsquo" => '’', "sbquo" => '‚', "ldquo" => '“', "rdquo" => '”', "bdquo" => '„',
        "laquo" => '«', "raquo" => '»', "lsaquo" => '‹', "rsaquo" => '›',
        "euro" => '€', "pound" => '£', "yen" => '¥', "cent" => '¢', "curren" => '¤',
        "sect" => '§', "para" => '¶', "deg" => '°', "plusmn" => '±', "times" => '×', "divide" => '÷',
        "frac12" => '½', "frac14" => '¼', "frac34" => '¾', "sup2" => '²', "sup3" => '³', "micro" => 'µ',
        "iexcl" => '¡', "iquest" => '¿', "dagger" => '†', "Dagger" => '‡', "permil" => '‰',
        "larr" => '←', "rarr" => '→', "uarr" => '↑', "darr" => '↓', "harr" => '↔', "rArr" => '⇒',
        "hearts" => '♥', "check" => '✓', "star" => '☆', "minus" => '−', "infin" => '∞', "ne" => '≠',
        "le" => '≤', "ge" => '≥', "asymp" => '≈', "prime" => '′', "Prime" => '″', "ordf" => 'ª',
        "ordm" => 'º', "not" => '¬', "macr" => '¯', "acute" => '´', "cedil" => '¸', "uml" => '¨',
        "agrave" => 'à', "aacute" => 'á', "acirc" => 'â', "atilde" => 'ã', "auml" => 'ä', "aring" => 'å',
        "aelig" => 'æ', "ccedil" => 'ç', "egrave" => 'è', "eacute" => 'é', "ecirc" => 'ê', "euml" => 'ë',
        "igrave" => 'ì', "iacute" => 'í', "icirc" => 'î', "iuml" => 'ï', "ntilde" => 'ñ', "ograve" => 'ò',
        "oacute" => 'ó', "ocirc" => 'ô', "otilde" => 'õ', "ouml" => 'ö', "oslash" => 'ø', "ugrave" => 'ù',
        "uacute" => 'ú', "ucirc" => 'û', "uuml" => 'ü', "yacute" => 'ý', "yuml" => 'ÿ', "szlig" => 'ß',
        "Agrave" => 'À', "Aacute" => 'Á', "Acirc" => 'Â', "Atilde" => 'Ã', "Auml" => 'Ä', "Aring" => 'Å',
        "AElig" => 'Æ', "Ccedil" => 'Ç', "Egrave" => 'È', "Eacute" => 'É', "Ecirc" => 'Ê', "Euml" => 'Ë',
        "Iacute" => 'Í', "Ntilde" => 'Ñ', "Oacute" => 'Ó', "Ocirc" => 'Ô', "Ouml" => 'Ö', "Oslash" => 'Ø',
        "Uacute" => 'Ú', "Uuml" => 'Ü', "oelig" => 'œ', "OElig" => 'Œ', "scaron" => 'š', "Scaron" => 'Š',
        "shy" => '\u{ad}', "zwnj" => '\u{200c}', "zwj" => '\u{200d}', "lrm" => '\u{200e}', "rlm" => '\u{200f}',
        _ => return None,
    })
}

#[cfg(test)]
#[path = "html_tests.rs"]
mod tests;
