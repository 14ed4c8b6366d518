//! Tokens of a message: words, numbers and punctuation marks, each with its byte range, so that
//! every rule can point back at the exact words it read.

use std::ops::Range;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Letters, with inner apostrophes and hyphens ("we're", "follow-up").
    Word,
    /// Digits, with inner `:`, `.` or `,` between digits ("7:30", "16.30", "3,2") and an
    /// attached ordinal or meridiem suffix ("3rd", "20:e", "9am").
    Number,
    /// Any other single character that is not white space.
    Punct,
}

/// One token of a message.
#[derive(Debug, Clone)]
pub(crate) struct Token<'a> {
    /// The token as written.
    pub raw: &'a str,
    /// Lower case, with typographic apostrophes straightened.
    pub low: String,
    /// Byte range in the message text.
    pub span: Range<usize>,
    /// What the token is.
    pub kind: Kind,
    /// Whether a line break separates it from the previous token.
    pub newline_before: bool,
}

impl Token<'_> {
    /// Whether this is a word token.
    pub fn is_word(&self) -> bool {
        self.kind == Kind::Word
    }

    /// Whether the lower-case form is `s`.
    pub fn is(&self, s: &str) -> bool {
        self.low == s
    }

    /// Whether the lower-case form is one of `set`.
    pub fn is_any(&self, set: &[&str]) -> bool {
        set.contains(&self.low.as_str())
    }

    /// Whether the token starts with a capital letter.
    pub fn is_capitalised(&self) -> bool {
        self.raw.chars().next().is_some_and(char::is_uppercase)
    }

    /// Whether every letter is a capital and there are at least two of them ("NO", "20TH").
    pub fn is_all_caps(&self) -> bool {
        let mut letters = self.raw.chars().filter(|c| c.is_alphabetic()).peekable();
        letters.peek().is_some()
            && self.raw.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && letters.all(char::is_uppercase)
    }

    /// The digits at the start of a number token, as a value ("20th" → 20, "7:30" → 7).
    pub fn leading_int(&self) -> Option<u32> {
        let digits: String = self.raw.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() || digits.len() > 4 {
            None
        } else {
            digits.parse().ok()
        }
    }
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '’'
}

/// Splits a text into tokens. White space separates tokens and is not kept.
pub(crate) fn tokenize(text: &str) -> Vec<Token<'_>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut newline = false;
    let next_is = |j: usize, f: fn(char) -> bool| chars.get(j).is_some_and(|&(_, c)| f(c));
    while let Some(&(start, c)) = chars.get(i) {
        if c.is_whitespace() {
            newline |= c == '\n';
            i += 1;
            continue;
        }
        let kind = if c.is_alphabetic() {
            i += 1;
            while let Some(&(_, d)) = chars.get(i) {
                let joiner = is_apostrophe(d) || d == '-';
                if d.is_alphanumeric() || (joiner && next_is(i + 1, char::is_alphabetic)) {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Word
        } else if c.is_ascii_digit() {
            i += 1;
            loop {
                match chars.get(i) {
                    Some(&(_, d)) if d.is_ascii_digit() => i += 1,
                    Some(&(_, ':' | '.' | ',')) if next_is(i + 1, |d| d.is_ascii_digit()) => i += 2,
                    _ => break,
                }
            }
            // Swedish ordinals "20:e", "1:a".
            if chars.get(i).is_some_and(|&(_, d)| d == ':')
                && next_is(i + 1, |d| matches!(d, 'e' | 'a' | 'E' | 'A'))
                && !next_is(i + 2, char::is_alphabetic)
            {
                i += 2;
            }
            while next_is(i, char::is_alphabetic) {
                i += 1;
            }
            Kind::Number
        } else {
            i += 1;
            Kind::Punct
        };
        let end = chars.get(i).map_or(text.len(), |&(b, _)| b);
        let raw = &text[start..end];
        tokens.push(Token {
            raw,
            low: raw.to_lowercase().replace('’', "'"),
            span: start..end,
            kind,
            newline_before: newline,
        });
        newline = false;
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_clock_and_ordinal_forms() {
        let t = tokenize("kl. 16.30, the 20TH at 7:30 or den 20:e, 3,2 kilo. 9am");
        let raws: Vec<&str> = t.iter().map(|t| t.raw).collect();
        assert_eq!(
            raws,
            [
                "kl", ".", "16.30", ",", "the", "20TH", "at", "7:30", "or", "den", "20:e", ",",
                "3,2", "kilo", ".", "9am"
            ],
            "clock times, ordinals and decimals must stay one token so the time rules see them whole"
        );
    }

    #[test]
    fn words_keep_apostrophes_and_spans_point_into_the_text() {
        let text = "We’re at Nadia's — ok?";
        let t = tokenize(text);
        assert_eq!(
            t[0].low, "we're",
            "typographic apostrophes are straightened for the lexicons"
        );
        for tok in &t {
            assert_eq!(
                &text[tok.span.clone()],
                tok.raw,
                "a span must quote the text exactly"
            );
        }
    }
}
