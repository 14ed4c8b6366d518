//! Which of Minne's three languages (English, Swedish, Danish) a short text is written in, by
//! its function words: enough to tell whether a question and a memory share a language, which
//! decides whether a word of the question missing from the memory means anything.
//!
//! Each list holds only words that are common in its language and rare as a word of the other
//! two ("och" is Swedish only, "og" Danish only; "det", "har", "en", "med" belong to both Nordic
//! languages and are in neither list; "i" is English "I" but Nordic "in", "to" Danish "two"). A text is in the language with the most hits, when one
//! has strictly more than each other; otherwise (no hit, or a tie) the language is unknown.

/// One of the languages Minne reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English.
    En,
    /// Swedish.
    Sv,
    /// Danish.
    Da,
}

#[rustfmt::skip]
const EN: &[&str] = &[
    "the", "and", "is", "are", "was", "were", "i'm", "i've", "of", "my", "what",
    "which", "did", "do", "does", "you", "it", "that", "this", "with", "have", "has", "how",
    "when", "where", "who", "about", "on", "be", "me", "we", "not", "but", "from", "they",
    "would", "could", "should", "will", "your", "our", "an", "a", "in", "or", "any", "some",
];

#[rustfmt::skip]
const SV: &[&str] = &[
    "och", "jag", "är", "inte", "att", "ett", "av", "hon", "vad", "vilken", "vilket", "vilka",
    "när", "hur", "varför", "mitt", "mina", "vår", "vårt", "våra", "också", "till", "från",
    "för", "skulle", "ska", "bara", "någon", "något", "några", "mycket", "henne", "honom",
    "hade", "säger", "sa", "oss", "ni", "innan",
];

#[rustfmt::skip]
const DA: &[&str] = &[
    "og", "jeg", "er", "ikke", "at", "af", "hun", "hvad", "hvilket", "hvilke", "hvornår",
    "hvordan", "hvorfor", "hvor", "mit", "vores", "også", "til", "fra", "skal", "bare",
    "nogen", "noget", "nogle", "meget", "hende", "ham", "havde", "siger", "sagde", "være",
    "været", "os", "før", "lige", "godt",
];

/// The language of `text`, or `None` when its function words do not tell.
pub fn detect(text: &str) -> Option<Language> {
    let mut hits = [0usize; 3];
    for word in text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
    {
        let word = word.to_lowercase().replace('’', "'");
        for (i, list) in [EN, SV, DA].iter().enumerate() {
            if list.contains(&word.as_str()) {
                hits[i] += 1;
            }
        }
    }
    let best = *hits.iter().max()?;
    if best == 0 || hits.iter().filter(|&&h| h == best).count() > 1 {
        return None;
    }
    let languages = [Language::En, Language::Sv, Language::Da];
    hits.iter().position(|&h| h == best).map(|i| languages[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_of_each_language_are_told_apart() {
        assert_eq!(detect("What is my hamster's name?"), Some(Language::En));
        assert_eq!(
            detect("Vi bestämde oss för att måla köket grönt."),
            Some(Language::Sv)
        );
        assert_eq!(
            detect("Min søster er allergisk over for jordnødder, og jeg glemmer det."),
            Some(Language::Da)
        );
        assert_eq!(detect("Hvad hedder min kat?"), Some(Language::Da));
        assert_eq!(detect("Vad heter min katt?"), Some(Language::Sv));
    }

    #[test]
    fn a_text_without_function_words_or_with_a_tie_has_no_language() {
        // Names and nouns only: nothing to tell by.
        assert_eq!(detect("Malmö FF, Allsvenskan"), None);
        assert_eq!(detect(""), None);
        // One Swedish and one Danish hit: a tie.
        assert_eq!(detect("och og"), None);
    }
}
