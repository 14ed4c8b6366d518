//! A hand-written lexicon of English, Swedish and Danish words that people use about their own
//! lives (`lexicon.txt`: kin, pets, health, food, home, travel, work, leisure, events,
//! countries and cities with their exonyms): which words of one language are the same thing in
//! another.
//!
//! Recall needs it to judge a question whose best memories are in another language. There,
//! every word is missing as written, and the embedding models cannot tell a translation from
//! a different thing of the same kind: with multilingual-e5-small, cat/katt is 0.93 and
//! cat/hund 0.89, but wife/fru is 0.87 and wife/dotter 0.88. Whole questions do no better
//! ("What is my cat's name?" against the same question with "katt" or "hund": translations
//! 0.89–0.98, different things 0.88–0.94, measured on 26 and 24 pairs). A word the lexicon
//! knows is held across languages when a memory holds one of its translations; a word it does
//! not know says nothing there.
//!
//! The file holds one concept per line, `en FORMS | sv FORMS | da FORMS`, each section the
//! language's code and its single-word forms (lowercase; inflections listed, synonyms of the
//! same meaning on one line); `#` starts a comment.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The concepts of `lexicon.txt`, indexed by form.
#[derive(Debug, Default)]
pub struct Lexicon {
    /// Every concept's forms, in all three languages.
    concepts: Vec<Vec<String>>,
    /// The concepts each form belongs to.
    by_form: HashMap<String, Vec<usize>>,
}

/// The three languages' codes, in the order a line gives them.
const SECTIONS: [&str; 3] = ["en", "sv", "da"];

impl Lexicon {
    /// Parses lexicon text in the format above. Errors: the first malformed line (1-based)
    /// and what is wrong with it: a line without exactly the three sections `en`, `sv`, `da`
    /// in that order, a section without forms, or a form that is not one lowercase word.
    pub fn parse(text: &str) -> std::result::Result<Lexicon, String> {
        let mut lexicon = Lexicon::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let sections: Vec<&str> = line.split('|').map(str::trim).collect();
            if sections.len() != SECTIONS.len() {
                return Err(format!(
                    "line {}: {} sections, expected `en … | sv … | da …`",
                    n + 1,
                    sections.len()
                ));
            }
            let mut forms: Vec<String> = Vec::new();
            for (section, code) in sections.iter().zip(SECTIONS) {
                let mut words = section.split_whitespace();
                if words.next() != Some(code) {
                    return Err(format!(
                        "line {}: section `{section}` is not `{code} …`",
                        n + 1
                    ));
                }
                let here: Vec<&str> = words.collect();
                if here.is_empty() {
                    return Err(format!("line {}: `{code}` has no forms", n + 1));
                }
                for w in here {
                    if !w.chars().all(|c| c.is_alphabetic() && !c.is_uppercase()) {
                        return Err(format!("line {}: `{w}` is not one lowercase word", n + 1));
                    }
                    if !forms.iter().any(|f| f == w) {
                        forms.push(w.to_string());
                    }
                }
            }
            let id = lexicon.concepts.len();
            for f in &forms {
                lexicon.by_form.entry(f.clone()).or_default().push(id);
            }
            lexicon.concepts.push(forms);
        }
        Ok(lexicon)
    }

    /// The number of concepts.
    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    /// Whether the lexicon holds no concept.
    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty()
    }

    /// Every form, in any language, of the concepts `word` (lowercase) is a form of, `word`
    /// itself included; `None` when the lexicon does not know it. An English plural or
    /// genitive -s the lexicon does not list is read as its base form ("hamsters").
    pub fn translations(&self, word: &str) -> Option<Vec<&str>> {
        let ids = self.by_form.get(word).or_else(|| {
            word.strip_suffix('s')
                .filter(|base| base.chars().count() >= 3)
                .and_then(|base| self.by_form.get(base))
        })?;
        let mut out: Vec<&str> = Vec::new();
        for &id in ids {
            for f in &self.concepts[id] {
                if !out.contains(&f.as_str()) {
                    out.push(f);
                }
            }
        }
        Some(out)
    }
}

impl Lexicon {
    /// The two parts of a Swedish or Danish compound the lexicon does not list but whose
    /// parts it knows ("blodtype": "blod" and "type"; "födelsedag" with its linking s:
    /// "födelse", "dag"), each at least three letters, the first split from the left that
    /// works; `None` for a listed word or when no split does.
    pub fn compound_parts<'a>(&self, word: &'a str) -> Option<(&'a str, &'a str)> {
        if self.by_form.contains_key(word) {
            return None;
        }
        let bounds: Vec<usize> = word.char_indices().map(|(i, _)| i).collect();
        let known = |w: &str| self.by_form.contains_key(w);
        for (n, &i) in bounds.iter().enumerate() {
            if n < 3 || bounds.len() - n < 3 {
                continue;
            }
            let (head, tail) = word.split_at(i);
            let linked = head.strip_suffix('s').filter(|h| h.chars().count() >= 3);
            if known(tail) && (known(head) || linked.is_some_and(known)) {
                let head = if known(head) {
                    head
                } else {
                    linked.unwrap_or(head)
                };
                return Some((head, tail));
            }
        }
        None
    }
}

/// Minne's lexicon, parsed once. A malformed `lexicon.txt` fails the unit test
/// `the_shipped_lexicon_parses`; should one still ship, recall runs with an empty lexicon
/// (no word is judged across languages) rather than fail.
pub fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        Lexicon::parse(include_str!("lexicon.txt")).unwrap_or_else(|e| {
            tracing::error!("lexicon.txt: {e}");
            Lexicon::default()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translations_span_the_three_languages_and_only_the_concepts_of_the_word() {
        let l = Lexicon::parse(
            "# pets\n\
             en cat cats | sv katt katten | da kat katten\n\
             en dog dogs | sv hund hunden | da hund hunden\n\
             \n\
             en garden | sv trädgård | da have # a Danish word that is an English one\n",
        )
        .unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(
            l.translations("cat"),
            Some(vec!["cat", "cats", "katt", "katten", "kat"]),
            "a word brings every form of its concept, itself included, each once"
        );
        let hund = l.translations("hund").unwrap();
        assert!(hund.contains(&"dog") && !hund.contains(&"katt"), "{hund:?}");
        assert_eq!(
            l.translations("hamsters"),
            None,
            "an unknown word is unknown, not an empty list"
        );
        assert_eq!(
            l.translations("dogs").unwrap(),
            l.translations("hunden").unwrap(),
            "any form leads to the same concept"
        );
    }

    #[test]
    fn an_unlisted_english_plural_reads_as_its_base_form() {
        let l = Lexicon::parse("en hamster | sv hamster | da hamster\n").unwrap();
        assert_eq!(l.translations("hamsters"), Some(vec!["hamster"]));
        assert_eq!(
            Lexicon::parse("en bus | sv buss | da bus\n")
                .unwrap()
                .translations("us"),
            None,
            "a base form shorter than three letters is not tried"
        );
    }

    #[test]
    fn an_unlisted_compound_splits_into_two_known_parts() {
        let l = Lexicon::parse(
            "en blood | sv blod | da blod\n\
             en type | sv typ | da type\n\
             en birth | sv födelse | da fødsel\n\
             en day | sv dag | da dag\n\
             en dentist | sv tandläkare | da tandlæge\n",
        )
        .unwrap();
        assert_eq!(l.compound_parts("blodtype"), Some(("blod", "type")));
        assert_eq!(
            l.compound_parts("födelsedag"),
            Some(("födelse", "dag")),
            "a linking s"
        );
        assert_eq!(l.compound_parts("tandläkare"), None, "listed: no split");
        assert_eq!(l.compound_parts("hundra"), None, "no known parts");
        assert_eq!(l.compound_parts("bloddag"), Some(("blod", "dag")));
    }

    #[test]
    fn malformed_lines_name_the_line_and_the_fault() {
        let two = Lexicon::parse("en cat | sv katt\n").unwrap_err();
        assert!(
            two.starts_with("line 1:") && two.contains("2 sections"),
            "{two}"
        );
        let order = Lexicon::parse("\nsv katt | en cat | da kat\n").unwrap_err();
        assert!(
            order.starts_with("line 2:") && order.contains("`en …`"),
            "{order}"
        );
        let upper = Lexicon::parse("en Cat | sv katt | da kat\n").unwrap_err();
        assert!(upper.contains("`Cat`"), "{upper}");
        let empty = Lexicon::parse("en cat | sv | da kat\n").unwrap_err();
        assert!(empty.contains("`sv` has no forms"), "{empty}");
    }

    #[test]
    fn the_shipped_lexicon_parses() {
        let l = Lexicon::parse(include_str!("lexicon.txt")).unwrap();
        assert!(l.len() >= 300, "{} concepts", l.len());
        // Spot checks of translations and exonyms a mixed-language store needs.
        for (word, translation) in [
            ("cat", "katt"),
            ("dog", "hund"),
            ("wife", "fru"),
            ("wife", "kone"),
            ("gothenburg", "göteborg"),
            ("copenhagen", "københavn"),
        ] {
            let t = l.translations(word).unwrap_or_default();
            assert!(t.contains(&translation), "{word}: {t:?}");
        }
        let cat = l.translations("cat").unwrap();
        assert!(!cat.contains(&"hund"), "a cat is no dog: {cat:?}");
    }
}
