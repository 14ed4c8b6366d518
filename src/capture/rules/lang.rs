//! Which of English, Swedish and Danish a message is written in, from its function words.
//! Only used where a rule differs by language (past-tense endings, number words).

use super::token::Token;

/// A message language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// English.
    En,
    /// Swedish.
    Sv,
    /// Danish.
    Da,
}

const EN: &[&str] = &[
    "the", "and", "is", "you", "to", "of", "it", "that", "was", "my", "we", "with", "for", "this",
    "i'll", "i'm", "have", "not", "are", "be", "at", "what", "your", "got", "just", "but", "her",
    "in", "on", "me", "he", "she", "they", "our", "his", "a", "an", "or", "did", "will", "can",
    "do", "don't", "it's", "i've", "i'd", "met", "went", "had", "were",
];
const SV: &[&str] = &[
    "och", "jag", "är", "inte", "också", "av", "hon", "från", "här", "ska", "skall", "vad", "hur",
    "vecka", "bara", "mycket", "mig", "dig", "att", "det", "som", "har", "hade", "blir", "kan",
    "till", "nästa", "tack", "förlåt", "igår", "idag", "någon", "vår", "sig", "ju", "vi", "var",
    "med", "på", "om", "så", "nu", "när", "oss", "efter", "vid", "ni",
];
const DA: &[&str] = &[
    "og", "jeg", "er", "ikke", "også", "af", "hun", "fra", "skal", "hvad", "hvordan", "uge", "kun",
    "meget", "mig", "dig", "det", "som", "har", "havde", "bliver", "kan", "til", "næste", "tak",
    "undskyld", "nogen", "vores", "sig", "jo", "være", "hvor", "vi", "var", "med", "på", "om",
    "så", "nu", "når", "os", "efter", "ved", "lige", "hvis", "at",
];

/// The language whose function words occur most often; English on a tie or none.
pub(crate) fn guess(tokens: &[Token<'_>]) -> Lang {
    let score = |list: &[&str]| {
        tokens
            .iter()
            .filter(|t| list.contains(&t.low.as_str()))
            .count()
    };
    let (en, sv, da) = (score(EN), score(SV), score(DA));
    if sv > en && sv > da {
        Lang::Sv
    } else if da > en && da > sv {
        Lang::Da
    } else if (sv > en || da > en) && sv == da {
        // Words both share ("det", "har"): decide on the letters only one uses.
        let letters = |cs: &[char]| tokens.iter().filter(|t| t.low.contains(cs)).count();
        if letters(&['ø', 'æ']) > letters(&['ö', 'ä']) {
            Lang::Da
        } else {
            Lang::Sv
        }
    } else {
        Lang::En
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::rules::token::tokenize;
    use rstest::rstest;

    #[rstest]
    #[case("I'll send the report to the team tomorrow.", Lang::En)]
    #[case("Jag har inte hunnit titta på det än.", Lang::Sv)]
    #[case("Jeg har ikke nået at kigge på det endnu.", Lang::Da)]
    #[case("Vi ses på lördag!", Lang::Sv)]
    #[case("Vi ses på lørdag!", Lang::Da)]
    fn guesses_from_function_words(#[case] text: &str, #[case] lang: Lang) {
        assert_eq!(
            guess(&tokenize(text)),
            lang,
            "function words and, on a tie, the letters only one language uses decide: {text}"
        );
    }
}
