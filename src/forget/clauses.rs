//! The words a forget takes out of what stays: the clauses of a memory that are about a topic
//! (so "forget what I said about coriander" keeps "I love sailing" of "I love sailing, and I
//! hate coriander"), and the sentences of an assistant's reply that repeat forgotten words
//! (its echo: "Noted, you hate coriander").
//!
//! Words are compared by their content words (the recall stop-words dropped,
//! [`crate::recall::lexical::content_words`]) after Snowball English stemming, on both sides
//! alike, so "hates" meets "hate"; in a Swedish or Danish memory also after that language's
//! Snowball stemming, so a topic forget of "koriander" meets "koriandern" and "korianderen".

use std::collections::HashSet;
use std::ops::Range;

use rust_stemmers::{Algorithm, Stemmer};

use crate::consolidate::words::{Word, mask_annotations, sentences, tokenize};
use crate::recall::language::{self, Language};

/// Coordinators that join two clauses, each a statement of its own, when a subject follows
/// ("…, and I hate coriander", "… men jag hatar koriander", "… og jeg hader koriander").
const COORDINATORS: &[&str] = &[
    "and", "but", "so", "while", "och", "men", "så", "medan", "og", "mens",
];

/// The subjects after which a coordinator opens a new clause: personal pronouns and
/// possessives in English, Swedish and Danish. Without one ("salt and pepper", "Tom and
/// Anna") the coordinator joins words, not statements, and the clause stays whole.
const SUBJECTS: &[&str] = &[
    "i", "we", "my", "our", "he", "she", "they", "it", "his", "her", "their", "jag", "vi", "min",
    "mitt", "mina", "vår", "vårt", "våra", "han", "hon", "de", "det", "hans", "hennes", "deras",
    "jeg", "mit", "mine", "vores", "hun", "hendes",
];

/// Words that point back to something said before them: a clause holding one may be about
/// the clause that goes ("I fixed the bike chain, and it works again"), so it cannot stay on
/// its own.
const ANAPHORA: &[&str] = &[
    "it", "its", "he", "him", "his", "she", "her", "hers", "they", "them", "their", "this", "that",
    "these", "those", "there", "then", "det", "den", "dess", "detta", "denna", "han", "honom",
    "hans", "hon", "henne", "hennes", "de", "dem", "deras", "där", "då", "ham", "hun", "hende",
    "hendes", "deres", "der", "dens", "dets", "dette", "denne",
];

/// The byte ranges of the clauses of `text`, in order: its sentences (at `.`, `!`, `?`, `;`
/// and line breaks), each cut again before a coordinator ([`COORDINATORS`], with a comma
/// before it if there is one) that a subject follows ([`SUBJECTS`]). Each range starts at a
/// clause's first word and ends after its last word or mark; the coordinator and the comma
/// between two clauses belong to neither.
pub(crate) fn clauses(text: &str) -> Vec<Range<usize>> {
    let masked = blank_annotations(text);
    let words = tokenize(&masked);
    let mut out = Vec::new();
    for sentence in sentences(&masked, &words) {
        let w = &words[sentence.clone()];
        let mut start = 0;
        let mut i = 1;
        while i + 1 < w.len() {
            let opens = COORDINATORS.contains(&w[i].low.as_str())
                && SUBJECTS.contains(&w[i + 1].low.as_str());
            if opens {
                let end = if w[i - 1].low == "," { i - 1 } else { i };
                if end > start {
                    out.push(w[start].span.start..w[end - 1].span.end);
                }
                start = i + 1;
                i += 2;
                continue;
            }
            i += 1;
        }
        if start < w.len() {
            out.push(w[start].span.start..w[w.len() - 1].span.end);
        }
    }
    out
}

/// `text` with every square-bracketed part (capture's resolved times, "last night
/// [2026-03-01 – 2026-03-02]") turned into spaces, byte for byte: it belongs to the words
/// around it and neither ends a sentence nor holds one.
fn blank_annotations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => {
                depth -= 1;
                out.push(' ');
                continue;
            }
            _ => {}
        }
        if depth > 0 {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Words that carry no memory of their own: discourse markers and sentence adverbs that
/// frame a statement ("Actually, I am vegetarian now") and the acknowledgements a reply
/// opens with ("Noted, you are vegetarian now"), in English, Swedish and Danish. Counted as
/// content, "actually" made the echo share one word of two with the memory, so a forget left
/// the assistant's "Noted, you are vegetarian now" behind (a fresh user found it in the file).
const FILLER: &[&str] = &[
    "actually",
    "really",
    "well",
    "anyway",
    "anyways",
    "still",
    "basically",
    "honestly",
    "noted",
    "ok",
    "okay",
    "sure",
    "alright",
    "great",
    "thanks",
    "thank",
    "cool",
    "understood",
    "perfect",
    "faktiskt",
    "egentligen",
    "alltså",
    "ju",
    "väl",
    "visst",
    "okej",
    "tack",
    "uppfattat",
    "toppen",
    "faktisk",
    "egentlig",
    "altså",
    "jo",
    "vel",
    "tak",
    "forstået",
    "noteret",
    "noterat",
    "fint",
];

/// The stems of the content words of `text` ([`FILLER`] left out).
pub(crate) fn content_stems(text: &str) -> HashSet<String> {
    let stemmer = Stemmer::create(Algorithm::English);
    let masked = mask_annotations(text);
    crate::recall::lexical::content_words(&masked, &[])
        .iter()
        .filter(|w| !FILLER.contains(&w.as_str()))
        .map(|w| stemmer.stem(w).into_owned())
        .collect()
}

/// The stemmers a text is compared by: Snowball English for every text, and for a text in
/// Swedish or Danish ([`language::detect`]) that language's Snowball stemmer too, so the
/// definite and plural forms meet their word ("koriandern", "korianderen" and "koriander").
/// A Nordic stemmer is never run on an English text: it would take "hated" for "hat".
struct Stemmers {
    english: Stemmer,
    nordic: Option<(&'static str, Stemmer)>,
}

impl Stemmers {
    fn for_text(text: &str) -> Self {
        let nordic = match language::detect(text) {
            Some(Language::Sv) => Some(("sv:", Stemmer::create(Algorithm::Swedish))),
            Some(Language::Da) => Some(("da:", Stemmer::create(Algorithm::Danish))),
            _ => None,
        };
        Stemmers {
            english: Stemmer::create(Algorithm::English),
            nordic,
        }
    }

    /// The keys of `word` (lowercased): its English stem, and its tagged Nordic stem.
    fn keys(&self, word: &str) -> impl Iterator<Item = String> {
        let english = self.english.stem(word).into_owned();
        let nordic = self
            .nordic
            .as_ref()
            .map(|(tag, stemmer)| format!("{tag}{}", stemmer.stem(word)));
        std::iter::once(english).chain(nordic)
    }

    /// The keys of each content word of `topic`, one set per word.
    fn topic_keys(&self, topic: &str) -> Vec<HashSet<String>> {
        let masked = mask_annotations(topic);
        let mut words = crate::recall::lexical::content_words(&masked, &[]);
        words.dedup();
        words
            .iter()
            .map(|w| self.keys(w).collect::<HashSet<_>>())
            .collect()
    }

    /// How many of the topic's content words (`topic`, [`Stemmers::topic_keys`]) the words in
    /// `words` hold.
    fn held(&self, words: &[Word], topic: &[HashSet<String>]) -> usize {
        let keys: HashSet<String> = words
            .iter()
            .filter(|w| !w.punct)
            .flat_map(|w| {
                w.low
                    .split(['\'', '’', '-'])
                    .filter(|p| !p.is_empty())
                    .flat_map(|p| self.keys(p))
                    .collect::<Vec<_>>()
            })
            .collect();
        topic
            .iter()
            .filter(|word| word.iter().any(|k| keys.contains(k)))
            .count()
    }
}

/// How many of a topic's `n` content words a clause or sentence must hold to be about it:
/// more than half ("favourite colour" takes "my favourite colour is green" and leaves "my
/// favourite food is sushi", which shares only "favourite"; one word of one, two of two or
/// three, three of four or five).
fn about_bar(n: usize) -> usize {
    n / 2 + 1
}

/// What is left of a memory's `text` once its clauses about `topic` go: the other clauses,
/// in order, joined by a space (the end mark of the text kept when the last kept clause has
/// none), with the byte ranges of the clauses that go. `None` when the memory goes whole:
/// no clause holds a content word of the topic (it matched by meaning or by a word the
/// clause split cannot place), every clause does, a clause that would stay points back
/// ([`ANAPHORA`]: it may be about what goes), or what is left holds no content word.
pub(crate) fn without_topic(text: &str, topic: &str) -> Option<(String, Vec<Range<usize>>)> {
    let stemmers = Stemmers::for_text(text);
    let stems = stemmers.topic_keys(topic);
    if stems.is_empty() {
        return None;
    }
    let parts = clauses(text);
    if parts.len() < 2 {
        return None;
    }
    let held: Vec<usize> = parts
        .iter()
        .map(|part| stemmers.held(&tokenize(&text[part.clone()]), &stems))
        .collect();
    // The clauses that hold more than half of the topic's words; when none does (the memory
    // matched the topic as a whole, each clause a part of it: "Japan" in one, "trip" in
    // another), those holding any of them.
    let mut bar = about_bar(stems.len());
    if !held.iter().any(|&h| h >= bar) {
        bar = 1;
    }
    let (mut kept, mut gone) = (Vec::new(), Vec::new());
    for (part, h) in parts.into_iter().zip(held) {
        if h >= bar {
            gone.push(part);
        } else {
            kept.push(part);
        }
    }
    if gone.is_empty() || kept.is_empty() {
        return None;
    }
    let points_back = kept.iter().any(|part| {
        tokenize(&text[part.clone()])
            .iter()
            .any(|w| ANAPHORA.contains(&w.low.as_str()))
    });
    if points_back {
        return None;
    }
    let mut left: Vec<&str> = Vec::new();
    for part in &kept {
        let clause = text[part.clone()].trim_end_matches([',', ';', ':', ' ', '–', '—']);
        left.push(clause);
    }
    let mut joined = left.join(" ");
    let end_mark = text
        .trim_end()
        .chars()
        .next_back()
        .filter(|c| ".!?".contains(*c));
    if let Some(mark) = end_mark
        && !joined.ends_with(['.', '!', '?'])
    {
        joined.push(mark);
    }
    if content_stems(&joined).is_empty() {
        return None;
    }
    Some((joined, gone))
}

/// The byte ranges of the sentences of `text` that hold more than half of the content words
/// of `topic` ([`about_bar`]; by stem, as [`without_topic`] finds the clauses about it): what an assistant said about a topic the
/// user had it forget ("since coriander is out, try parsley").
pub(crate) fn mentions(text: &str, topic: &str) -> Vec<Range<usize>> {
    let stemmers = Stemmers::for_text(text);
    let stems = stemmers.topic_keys(topic);
    if stems.is_empty() {
        return Vec::new();
    }
    let words = tokenize(text);
    sentences(text, &words)
        .into_iter()
        .filter(|s| stemmers.held(&words[s.clone()], &stems) >= about_bar(stems.len()))
        .map(|s| words[s.start].span.start..words[s.end - 1].span.end)
        .collect()
}

/// The byte ranges of the sentences of `reply` that repeat `forgotten`: a sentence sharing
/// `s` content stems with it (of `n` in the forgotten words and `m` in the sentence) is an
/// echo when `s ≥ min(2, n)` and either `2s ≥ n` (it repeats at least half of what was
/// forgotten) or `s ≥ 3` and `5s ≥ 3m` (most of what it says comes from it). A reply that
/// shares a word or two with a long memory ("How is the new project going?" after a
/// memory of meeting Anna about the new project in Berlin) is no echo. A sentence that
/// repeats one of the forgotten words' [`distinctive`] words (a number, a code, a name) is
/// an echo however short: "Got it: 4821." after "My bank PIN is 4821" says the PIN back.
pub(crate) fn echoes(reply: &str, forgotten: &str) -> Vec<Range<usize>> {
    let gone = content_stems(forgotten);
    let n = gone.len();
    let marked = distinctive(forgotten);
    if n == 0 && marked.is_empty() {
        return Vec::new();
    }
    let words = tokenize(reply);
    let mut out = Vec::new();
    for sentence in sentences(reply, &words) {
        let w = &words[sentence];
        let span = w[0].span.start..w[w.len() - 1].span.end;
        let own = content_stems(&reply[span.clone()]);
        let s = own.intersection(&gone).count();
        let m = own.len();
        let repeats = n > 0 && s >= n.min(2) && (2 * s >= n || (s >= 3 && 5 * s >= 3 * m));
        if repeats || w.iter().any(|w| marked.contains(&w.low)) {
            out.push(span);
        }
    }
    out
}

/// The words of `text` that say which memory it is, however short a sentence repeating them
/// (lowercased): a number of three digits or more, or a code of letters and digits ("4821",
/// "80000", "B12", "SE4500"), a PIN, a price, a flight; and a name, a word written with a
/// capital inside its sentence that is no stop word ("Anna", "Jonna", "Malmö", "PIN"). A
/// sentence's first word is read as no name: its capital says nothing. Resolved times
/// Minne wrote into a memory ("[2026-03-01 – 2026-03-02]") are left out.
pub(crate) fn distinctive(text: &str) -> HashSet<String> {
    let masked = blank_annotations(text);
    let words = tokenize(&masked);
    let mut out = HashSet::new();
    for sentence in sentences(&masked, &words) {
        for (i, w) in words[sentence].iter().enumerate() {
            if w.punct {
                continue;
            }
            let digits = w.low.chars().filter(char::is_ascii_digit).count();
            let letters = w.low.chars().filter(|c| c.is_alphabetic()).count();
            let code = digits >= 3 || (digits >= 1 && letters >= 1 && digits + letters >= 3);
            let name = i > 0
                && w.capital
                && letters >= 3
                && !crate::recall::lexical::content_words(&w.low, &[]).is_empty();
            if code || name {
                out.insert(w.low.clone());
            }
        }
    }
    out
}

/// The words of `text` that name one secret wherever they recur, in any later conversation
/// of the context (lowercased): the number and code words of [`distinctive`] ("4821",
/// "SK1427", "tigerlily7"), without its names, which recur in talk about anything ("Anna"),
/// and without a year (a four-digit number from 1900 to 2100): a calendar word, not a
/// secret.
pub(crate) fn codes(text: &str) -> HashSet<String> {
    distinctive(text)
        .into_iter()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .filter(|w| !(w.len() == 4 && w.parse::<u16>().is_ok_and(|y| (1900..=2100).contains(&y))))
        .collect()
}

/// The byte ranges of the sentences of `text` holding one of `codes` as a word ([`codes`]
/// of a forgotten memory): what a later conversation said back of a secret ("Your door
/// code 739154 still works?" a week after "the door code is 739154" was forgotten).
pub(crate) fn repeats_code(text: &str, codes: &HashSet<String>) -> Vec<Range<usize>> {
    if codes.is_empty() {
        return Vec::new();
    }
    let words = tokenize(text);
    sentences(text, &words)
        .into_iter()
        .filter(|s| words[s.clone()].iter().any(|w| codes.contains(&w.low)))
        .map(|s| words[s.start].span.start..words[s.end - 1].span.end)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(text: &'a str, ranges: &[Range<usize>]) -> Vec<&'a str> {
        ranges.iter().map(|r| &text[r.clone()]).collect()
    }

    #[test]
    fn a_coordinator_before_a_subject_opens_a_clause_and_one_before_a_noun_does_not() {
        let t = "I love sailing in the summer, and I hate coriander.";
        assert_eq!(
            texts(t, &clauses(t)),
            ["I love sailing in the summer", "I hate coriander."]
        );
        let t = "I like salt and pepper on eggs.";
        assert_eq!(texts(t, &clauses(t)), [t], "'and pepper' joins two nouns");
        let t = "Jag älskar att segla men jag hatar koriander.";
        assert_eq!(
            texts(t, &clauses(t)),
            ["Jag älskar att segla", "jag hatar koriander."]
        );
        let t = "Jonas called me last night [2026-03-01 – 2026-03-02] about the record player.";
        assert_eq!(
            texts(t, &clauses(t)),
            [t],
            "a resolved time ends no sentence"
        );
        let t = "Mit job er fint. Jeg hader koriander!";
        assert_eq!(
            texts(t, &clauses(t)),
            ["Mit job er fint.", "Jeg hader koriander!"]
        );
    }

    #[test]
    fn a_forget_about_a_topic_keeps_the_clauses_about_something_else() {
        assert_eq!(
            without_topic(
                "I love sailing in the summer, and I hate coriander.",
                "coriander"
            )
            .map(|(kept, _)| kept),
            Some("I love sailing in the summer.".to_string())
        );
        // "hates" and "hate" share the stem "hate": the clause about the topic is found by
        // its stem, in the second sentence.
        assert_eq!(
            without_topic("My sister lives in Oslo. She hates her job.", "hate").map(|(k, _)| k),
            Some("My sister lives in Oslo.".to_string())
        );
    }

    #[test]
    fn a_nordic_memory_meets_its_topic_in_the_definite_and_plural_forms() {
        // Swedish and Danish put the article on the end of the noun: "koriandern" (sv) and
        // "korianderen" (da) are "the coriander". Snowball Swedish takes -ern and -er off
        // alike (both "koriand"), Snowball Danish -eren and -er, so the clause is found by
        // the stemmer of the memory's own language; English Snowball keeps them apart.
        assert_eq!(
            without_topic(
                "Jag älskar att segla, men jag hatar koriandern.",
                "koriander"
            )
            .map(|(kept, _)| kept),
            Some("Jag älskar att segla.".to_string())
        );
        assert_eq!(
            without_topic(
                "Jeg elsker at sejle, og jeg hader korianderen.",
                "koriander"
            )
            .map(|(kept, _)| kept),
            Some("Jeg elsker at sejle.".to_string())
        );
        // The Swedish definite plural "bilarna" ("the cars") meets "bil" once -arna is off.
        let said = "Jag köpte nya däck till bilarna. Sen åt vi middag.";
        let found = mentions(said, "bil");
        assert_eq!(
            found.iter().map(|r| &said[r.clone()]).collect::<Vec<_>>(),
            vec!["Jag köpte nya däck till bilarna."]
        );
        // An English memory is stemmed in English only: Swedish Snowball would take "hated"
        // to "hat" and forget a clause about hating for a topic "hat".
        assert_eq!(
            without_topic("I bought a hat, and I hated the queue.", "hat").map(|(k, _)| k),
            Some("I hated the queue.".to_string())
        );
    }

    #[test]
    fn a_clause_sharing_one_word_of_a_longer_topic_stays() {
        // A tester's "Forget that my favourite colour is green." took the sushi with it: both
        // sentences hold "favourite". The one about the topic holds all three of its words
        // (favourite, colour, green), the other one of three, under the bar of two.
        let said = "My favourite colour is green. My favourite food is sushi.";
        assert_eq!(
            without_topic(said, "my favourite colour is green").map(|(k, _)| k),
            Some("My favourite food is sushi.".to_string())
        );
        assert_eq!(
            without_topic(said, "favourite colour").map(|(k, _)| k),
            Some("My favourite food is sushi.".to_string()),
            "one of two words is not more than half"
        );
        // When no clause holds most of the topic, each holding a part of it, those holding
        // any part go: the memory matched the topic as a whole.
        assert_eq!(
            without_topic(
                "We land in Japan on Friday, and the trip cost a fortune, but I love sushi.",
                "Japan trip"
            )
            .map(|(k, _)| k),
            Some("I love sushi.".to_string())
        );
        // An assistant's sentence about the other favourite is no mention of this one.
        let reply = "Noted that green is your favourite colour. Your favourite food is sushi.";
        let found = mentions(reply, "favourite colour");
        assert_eq!(
            found.iter().map(|r| &reply[r.clone()]).collect::<Vec<_>>(),
            vec!["Noted that green is your favourite colour."]
        );
    }

    #[test]
    fn a_memory_goes_whole_when_every_clause_or_none_is_about_the_topic() {
        assert_eq!(
            without_topic("I hate coriander.", "coriander"),
            None,
            "one clause"
        );
        assert_eq!(
            without_topic("I hate coriander, and I hate coriander soup.", "coriander"),
            None,
            "every clause is about it"
        );
        assert_eq!(
            without_topic("I love sailing, and I hate boats.", "cilantro"),
            None,
            "no clause holds the word: the match was by meaning, so the memory goes whole"
        );
        assert_eq!(
            without_topic(
                "I fixed the bike chain yesterday and it works again.",
                "bike"
            ),
            None,
            "'it works again' is about the bike: it cannot stay alone"
        );
        assert_eq!(
            without_topic("My sister lives in Oslo. She hates her job.", "Oslo"),
            None,
            "'She hates her job' points back to the sister"
        );
        assert_eq!(
            without_topic("I hate coriander, and so on.", "coriander"),
            None,
            "'and so on' is not a clause (no subject after 'and'), so there is one clause"
        );
    }

    #[test]
    fn a_mention_is_a_sentence_with_a_word_of_the_topic() {
        let t = "By the way, since coriander is out, try parsley. Add lime!";
        assert_eq!(
            texts(t, &mentions(t, "coriander")),
            ["By the way, since coriander is out, try parsley."]
        );
        assert!(mentions(t, "the").is_empty(), "no content word, no mention");
    }

    #[test]
    fn an_echo_repeats_what_was_forgotten_and_small_talk_does_not() {
        let reply = "Noted, you hate coriander. Want a recipe for tonight?";
        assert_eq!(
            texts(reply, &echoes(reply, "I hate coriander.")),
            ["Noted, you hate coriander."],
            "shares both content stems, hate and coriand"
        );
        let long = "I met Anna at the conference in Berlin about the new project.";
        let reply = "How is the new project going?";
        assert!(
            echoes(reply, long).is_empty(),
            "2 of 6 stems shared, and 2 < 3: not an echo"
        );
        let reply = "Thanks! Say hi to the team.";
        assert!(
            echoes(reply, long).is_empty(),
            "no content stem and no name of the memory: small talk"
        );
        let reply = "Got it: your salary is 80000 SEK.";
        assert_eq!(
            texts(
                reply,
                &echoes(reply, "Don't remember this: my salary is 80000 SEK.")
            ),
            [reply],
            "shares salary, 80000 and sek, most of the forgotten stems"
        );
    }

    #[test]
    fn finding_3_a_short_reply_that_repeats_a_number_code_or_name_is_an_echo() {
        // Each reply shares one word with what was forgotten, below the two-stem bar, but
        // that word is the memory: the PIN, the code, the name.
        for (forgotten, reply) in [
            ("My bank PIN is 4821", "Got it: 4821."),
            ("Min portkod är 7733", "Okej, 7733!"),
            ("Min dørkode er 1590", "Noteret: 1590."),
            ("The wifi password is TigerLily7", "Saved: tigerlily7"),
            ("My flight is SK1427 on Friday", "SK1427, noted."),
            (
                "Remember that I told Jonna about the job",
                "Noted about Jonna.",
            ),
        ] {
            assert_eq!(
                texts(reply, &echoes(reply, forgotten)),
                [reply],
                "{reply:?} says back a distinctive word of {forgotten:?}"
            );
        }
        // A number too short to tell a memory by, a capital that starts a sentence, and a
        // word the memory does not hold are none.
        assert!(echoes("Step 2 is done.", "My bank PIN is 4821").is_empty());
        assert!(echoes("Got it.", "My bank PIN is 4821").is_empty());
        assert!(echoes("Sure, call me at 5.", "My door code is 5").is_empty());
        assert_eq!(
            distinctive("Bank details: my PIN is 4821 and Erik knows it."),
            ["pin", "4821", "erik"]
                .map(String::from)
                .into_iter()
                .collect(),
            "'Bank' opens the sentence; 'my', 'is', 'and', 'knows', 'it' are no names"
        );
    }

    #[test]
    fn finding_3_a_later_conversation_repeats_a_code_but_not_a_name_or_a_year() {
        let forgotten = "Our door code is 739154 since Anna moved in, in 2019.";
        assert_eq!(
            codes(forgotten),
            ["739154".to_string()].into_iter().collect(),
            "Anna is a name and 2019 a year: both recur in talk about anything else"
        );
        let later = "Anna called. The code 739154 works again. We met in 2019.";
        assert_eq!(
            texts(later, &repeats_code(later, &codes(forgotten))),
            ["The code 739154 works again."]
        );
        assert!(repeats_code("Call 7391 54.", &codes(forgotten)).is_empty());
    }
}
