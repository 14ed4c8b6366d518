//! A small tokenizer for the consolidation rules: words with their byte spans, contractions
//! expanded to canonical words ("I'm" → "i am"), so a rule is written once per language.

use std::ops::Range;

/// One word or punctuation mark of a sentence.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Word {
    /// Lowercased, canonical form (a contraction part is its full word).
    pub low: String,
    /// The byte range of the source token in the text.
    pub span: Range<usize>,
    /// Whether the source token starts with an uppercase letter.
    pub capital: bool,
    /// Whether this is punctuation rather than a word.
    pub punct: bool,
}

/// English contractions, expanded so patterns match both spellings.
const CONTRACTIONS: &[(&str, &[&str])] = &[
    ("i'm", &["i", "am"]),
    ("i've", &["i", "have"]),
    ("i'd", &["i", "would"]),
    ("i'll", &["i", "will"]),
    ("we're", &["we", "are"]),
    ("we've", &["we", "have"]),
    ("we'll", &["we", "will"]),
    ("don't", &["do", "not"]),
    ("doesn't", &["does", "not"]),
    ("didn't", &["did", "not"]),
    ("can't", &["can", "not"]),
    ("cannot", &["can", "not"]),
    ("won't", &["will", "not"]),
    ("isn't", &["is", "not"]),
    ("it's", &["it", "is"]),
    ("name's", &["name", "is"]),
];

/// Splits `text` into words and punctuation marks, in order.
pub(crate) fn tokenize(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                let next = text[j + d.len_utf8()..].chars().next();
                // A clock time, a decimal or a grouped number ("7:40", "3.5", "10,000") is
                // one word: its mark is not a sentence or clause boundary.
                let in_number = matches!(d, ':' | '.' | ',')
                    && text[..j]
                        .chars()
                        .next_back()
                        .is_some_and(|p| p.is_ascii_digit())
                    && next.is_some_and(|n| n.is_ascii_digit());
                // A colon inside a name ("CS:GO", "Re:Zero") has no space after it, where a
                // colon in prose ("Big news: …") has one.
                let joins = ((d == '\'' || d == '’' || d == '-' || d == ':')
                    && next.is_some_and(char::is_alphanumeric))
                    || in_number;
                if d.is_alphanumeric() || joins {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let raw = &text[i..end];
            let low = raw.to_lowercase().replace('’', "'");
            let capital = c.is_uppercase();
            match CONTRACTIONS.iter().find(|(k, _)| *k == low) {
                Some((_, parts)) => {
                    for p in *parts {
                        out.push(Word {
                            low: (*p).to_string(),
                            span: i..end,
                            capital,
                            punct: false,
                        });
                    }
                }
                None => out.push(Word {
                    low,
                    span: i..end,
                    capital,
                    punct: false,
                }),
            }
        } else if !c.is_whitespace() {
            out.push(Word {
                low: c.to_string(),
                span: i..i + c.len_utf8(),
                capital: false,
                punct: true,
            });
        }
    }
    out
}

/// `text` with every square-bracketed part blanked out, byte for byte (same length, so spans
/// still index the original): capture's resolved times ("next month [2023-09-01 –
/// 2023-09-30]") and import captions ("[shared a photo: …]") are Minne's or the importer's
/// words, never the user's, so no value or statement may run into them. An unclosed `[` is
/// kept as it is.
pub(crate) fn mask_annotations(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('[') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        out.push_str(&rest[..open]);
        // A full stop in place of the opening bracket: what follows a caption is a new
        // sentence, and the rest of the bracket's bytes become spaces.
        let inner = &rest[open..open + close + 1];
        out.push('.');
        out.extend(std::iter::repeat_n(' ', inner.len() - 1));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Sentence-ending or clause-ending marks: a value never runs across them.
pub(crate) fn is_boundary(w: &Word) -> bool {
    w.punct
        && matches!(
            w.low.as_str(),
            "." | "!" | "?" | ";" | ":" | "," | "–" | "—" | "(" | ")" | "\"" | "“" | "”"
        )
}

/// Splits words into sentences at `!`, `?`, `;`, line breaks (a line break is not a token, so
/// a new sentence also starts where one word is followed by a capital after `\n`) and at `.`
/// unless the full stop is inside a word ("anna.berg@firma.se", "kl. 16.30") or follows an
/// abbreviation or a single letter ("Dr. Holm", "e.g. coffee", "t.ex."), as capture cuts
/// sentences (`capture::rules::segment`): a fresh user's "Remember that my accountant is Dr.
/// Holm" was stored as "my accountant is Dr".
pub(crate) fn sentences(text: &str, words: &[Word]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1);
        let gap = next.and_then(|n| text.get(w.span.end..n.span.start));
        let newline_after = gap.is_some_and(|g| g.contains('\n'));
        let full_stop = w.low == "." && w.punct && {
            let inside = gap.is_some_and(str::is_empty) && next.is_some_and(|n| !n.punct);
            let abbreviation = i.checked_sub(1).map(|b| &words[b]).is_some_and(|b| {
                !b.punct
                    && (crate::capture::rules::segment::ABBREVIATIONS.contains(&b.low.as_str())
                        || b.low.chars().count() == 1)
            });
            next.is_none() || !(inside || abbreviation)
        };
        let hard = w.punct && matches!(w.low.as_str(), "!" | "?" | ";");
        if hard || full_stop || newline_after {
            if start <= i {
                out.push(start..i + 1);
            }
            start = i + 1;
        }
    }
    if start < words.len() {
        out.push(start..words.len());
    }
    out
}

/// Whether `pattern` (space-separated canonical words) occurs in `words` at `at`.
pub(crate) fn matches_at(words: &[Word], at: usize, pattern: &str) -> bool {
    let mut i = at;
    for p in pattern.split(' ') {
        match words.get(i) {
            Some(w) if w.low == p => i += 1,
            _ => return false,
        }
    }
    true
}

/// Every position where `pattern` starts, with the index just past it.
pub(crate) fn find_all(words: &[Word], pattern: &str) -> Vec<(usize, usize)> {
    let n = pattern.split(' ').count();
    (0..words.len())
        .filter(|&i| matches_at(words, i, pattern))
        .map(|i| (i, i + n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contractions_expand_and_keep_their_span() {
        let w = tokenize("I’m based in Tartu.");
        let lows: Vec<&str> = w.iter().map(|w| w.low.as_str()).collect();
        assert_eq!(
            lows,
            ["i", "am", "based", "in", "tartu", "."],
            "rules are written once, for `i am`"
        );
        assert_eq!(
            w[0].span, w[1].span,
            "both parts point at the contraction's words"
        );
        assert!(
            w[4].capital,
            "a place name keeps its capital, which the value rules need"
        );
    }

    #[test]
    fn a_colon_inside_a_name_keeps_it_whole() {
        // "I usually play CS" was kept from "I usually play CS:GO" (LoCoMo conv-42).
        let w = tokenize("I usually play CS:GO. Big news: we won.");
        let lows: Vec<&str> = w.iter().map(|w| w.low.as_str()).collect();
        assert_eq!(
            lows,
            [
                "i", "usually", "play", "cs:go", ".", "big", "news", ":", "we", "won", "."
            ],
            "a colon with a space after it is still a mark of its own"
        );
    }

    #[test]
    fn clock_times_and_decimals_stay_one_word() {
        // "7:40" cut at its colon gave the fact "I always take the 7" (a user's report).
        let w = tokenize("I always take the 7:40 train, it costs 3.50 or 1,200 a year.");
        let lows: Vec<&str> = w.iter().map(|w| w.low.as_str()).collect();
        assert!(lows.contains(&"7:40"), "{lows:?}");
        assert!(lows.contains(&"3.50"), "{lows:?}");
        assert!(lows.contains(&"1,200"), "{lows:?}");
        // A comma after a number before a space still ends the clause.
        assert_eq!(tokenize("at 7, then")[2].low, ",");
    }

    #[test]
    fn annotations_are_blanked_with_their_length() {
        let text =
            "I'm going next month [2023-09-01 – 2023-09-30] with Ana [shared a photo: a dog].";
        let masked = mask_annotations(text);
        assert_eq!(masked.len(), text.len(), "spans still index the original");
        assert!(
            !masked.contains("2023") && !masked.contains("photo"),
            "{masked}"
        );
        assert!(masked.starts_with("I'm going next month ."), "{masked}");
        assert!(masked.contains(" with Ana ."), "{masked}");
        // Nothing to mask, or an unclosed bracket: the text as it is.
        assert_eq!(mask_annotations("I live in Oslo."), "I live in Oslo.");
        assert_eq!(mask_annotations("a [b"), "a [b");
    }

    #[test]
    fn sentences_split_on_full_stops() {
        let text = "I live in Oslo. My dog is Rex!";
        let w = tokenize(text);
        assert_eq!(sentences(text, &w).len(), 2, "two sentences, two ranges");
    }

    #[rstest::rstest]
    #[case::email("Mail anna.berg@firma.se about it. Then call Lena.", 2)]
    #[case::title("My accountant is Dr. Holm. She is good.", 2)]
    #[case::eg("I like hot drinks, e.g. coffee and tea. Not juice.", 2)]
    #[case::sv_time("Mötet är kl. 16.30 i morgon. Ta med kaffe.", 2)]
    #[case::plain("I live in Oslo. My dog is Rex.", 2)]
    fn a_full_stop_inside_a_word_or_after_an_abbreviation_ends_no_sentence(
        #[case] text: &str,
        #[case] n: usize,
    ) {
        let w = tokenize(text);
        let got: Vec<&str> = sentences(text, &w)
            .into_iter()
            .map(|r| &text[w[r.start].span.start..w[r.end - 1].span.end])
            .collect();
        assert_eq!(got.len(), n, "`{text}` has {n} sentences: {got:?}");
    }
}
