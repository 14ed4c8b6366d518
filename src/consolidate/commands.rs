//! User commands in conversation (seed 003: "Remember that I prefer X" is a first-class
//! control that acts at once): "remember that …", "kom ihåg att …", "husk at …" store what
//! follows as a stated fact in the user's own words; "forget what I said about …", "glöm det
//! jag sa om …", "glem hvad jeg sagde om …" forget that topic (see [`forget_topics`]).
//! "Always …" is a procedure (see `procedures`); "actually my name is …" a correction (see
//! `facts`). What each command did is reported in [`AppliedCommand`]s: no silent success.

use std::ops::Range;

use serde::Serialize;

use super::words::{self, Word};
use crate::model::EpisodeId;

/// Which command the user gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    /// "Remember that …": a stated fact in the user's words.
    Remember,
    /// "Forget what I said about …": a topic forget in this context.
    Forget,
    /// "Always …", "svara alltid …", "skriv altid …": a procedure.
    Always,
    /// "Actually my name is Alex, not Alice": a correction that supersedes the old value.
    Correction,
}

/// A command in the user's words that Minne acted on when it was captured (seed 003: user
/// commands act at once), with what it stored or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppliedCommand {
    /// Which command.
    pub kind: CommandKind,
    /// The episode that gave it (for a forget, gone now with the command's words).
    pub episode_id: EpisodeId,
    /// What was done, one line for the user: `stored: …`, `forgot 3 memories about “…”`.
    pub outcome: String,
    /// Facts or procedures stored or updated.
    pub stored: usize,
    /// Episodes removed (a forget, the command's own episode included).
    pub removed: usize,
}

/// Words that may open a sentence before the command.
const LEADERS: &[&str] = &[
    "please", "and", "also", "oh", "ok", "okay", "snälla", "och", "också", "venligst", "og", "også",
];

/// The commands, canonical words.
const TRIGGERS: &[&str] = &[
    "remember",
    "note",
    "make a note",
    "make a note of",
    "keep in mind",
    "do not forget",
    "kom ihåg",
    "notera",
    "glöm inte",
    "husk",
    "bemærk",
    "glem ikke",
];

/// Commands that are also nouns: "note" opens a request ("note that …", "note: …", "note
/// the …") and a label or a note itself ("Note 3: …", "Note on the build: …", "Note was
/// left on the fridge").
const ALSO_NOUNS: &[&str] = &["note"];

/// Words after a command that is also a noun which show it is the noun: the preposition of a
/// label's title ("note on/for/to/from …:"), a number sign, or a verb whose subject it is.
#[rustfmt::skip]
const NOUN_AFTER: &[&str] = &[
    "on", "about", "for", "to", "from", "re", "of", "by", "#", "nr", "no", "number",
    "is", "was", "says", "said", "reads", "has", "had", "below", "above", "attached", "(",
];

/// Whether `noun`, a command that is also a noun ([`ALSO_NOUNS`]), is used as the noun, with
/// the words from `at` after it: numbered ("Note 3:", "Note 12.", "Note #4", "Note A:",
/// "Note (ii):"), titled ("Note on the build: …", "Note to self: …") or the subject of a verb
/// ("Note was left …"). A label on a pasted note or document, not a request to remember.
fn used_as_noun(noun: &str, w: &[Word], at: usize) -> bool {
    if !ALSO_NOUNS.contains(&noun) {
        return false;
    }
    let Some(next) = w.get(at) else {
        return false;
    };
    // "Note A:", "Note iv.": one letter or a roman numeral, then a label's mark.
    let lettered = !next.punct
        && (next.low.chars().count() == 1
            || next.low.chars().all(|c| matches!(c, 'i' | 'v' | 'x')))
        && w.get(at + 1)
            .is_some_and(|x| matches!(x.low.as_str(), ":" | "." | ")"));
    next.low.starts_with(|c: char| c.is_ascii_digit())
        || NOUN_AFTER.contains(&next.low.as_str())
        || lettered
}

/// Words after the command that point at the rest ("remember this: …", "husk det her: …").
const POINTERS: &[&str] = &["this", "det", "detta", "dette", "det her"];

/// Words after the command that introduce the content ("remember that …").
const THAT: &[&str] = &["that", "att", "at"];

/// What the user asks to be remembered in `text`, verbatim, one entry per command. Questions
/// ("do you remember …?") and statements about remembering ("I remember …") are not commands.
pub fn remembered(text: &str) -> Vec<String> {
    let all = words::tokenize(text);
    let mut out = Vec::new();
    for s in words::sentences(text, &all) {
        let w = &all[s];
        if w.last().is_some_and(|x| x.low == "?") {
            continue;
        }
        let lead = w
            .iter()
            .take_while(|x| LEADERS.contains(&x.low.as_str()) || x.low == ",")
            .count();
        let Some((trigger, n)) = TRIGGERS
            .iter()
            .filter(|p| words::matches_at(w, lead, p))
            .map(|p| (*p, p.split(' ').count()))
            .max_by_key(|(_, n)| *n)
        else {
            continue;
        };
        let mut at = lead + n;
        if reminds_to_do(w, at) || used_as_noun(trigger, w, at) {
            continue;
        }
        if POINTERS.iter().any(|p| words::matches_at(w, at, p)) {
            // "remember this, it's important: the content" → what follows the colon.
            match w[at..].iter().position(|x| x.low == ":") {
                Some(colon) => at += colon + 1,
                None => continue,
            }
        } else if w
            .get(at)
            .is_some_and(|x| x.low == ":" || THAT.contains(&x.low.as_str()))
        {
            at += 1;
        }
        if let Some(span) = content_span(&w[at..]) {
            out.push(text[with_whole_annotations(text, span)].to_string());
        }
    }
    out
}

/// `span` of `text`, read on to the closing bracket when it ends inside one of capture's
/// resolved times ("… in May [2026-05-01 – 2026-05-31]."), whose closing bracket is a mark
/// and so was left out: the stored words keep the whole date, as the episode shows it (issue
/// 7), never half a bracket.
fn with_whole_annotations(text: &str, span: Range<usize>) -> Range<usize> {
    let inside = &text[span.clone()];
    if inside.matches('[').count() > inside.matches(']').count()
        && let Some(close) = text[span.end..].find(']')
    {
        return span.start..span.end + close + 1;
    }
    span
}

/// Whether the words from `at`, right after a remember command, ask the listener to do
/// something rather than to keep a fact: "remember to have fun", "don't forget to personalize
/// your page", and with an infinitive in Swedish and Danish ("glöm inte att ringa mamma",
/// "husk at købe mælk"). Advice to the listener or a line of a pasted document (LongMemEval
/// chats), not something the user says about themselves. A Swedish or Danish "att"/"at"
/// introduces a clause when a subject follows ("kom ihåg att jag har tandläkartid", "husk at
/// mødet er flyttet"): the word after it is not an infinitive (ending in -a or -e), or the
/// next one is a present-tense verb (ending in -r: "kom ihåg att mamma fyller år").
fn reminds_to_do(w: &[Word], at: usize) -> bool {
    let Some(next) = w.get(at) else {
        return false;
    };
    if next.low == "to" {
        return true;
    }
    if !matches!(next.low.as_str(), "att" | "at") {
        return false;
    }
    let Some(verb) = w.get(at + 1).filter(|x| !x.punct && !x.capital) else {
        return false;
    };
    let infinitive = (verb.low.ends_with('a') || verb.low.ends_with('e'))
        && !REMIND_SUBJECTS.contains(&verb.low.as_str());
    let clause = w.get(at + 2).is_some_and(|x| {
        !x.punct && (x.low.ends_with('r') || REMIND_FINITE.contains(&x.low.as_str()))
    });
    infinitive && !clause
}

/// Words after "att"/"at" that open a clause's subject, not an infinitive.
#[rustfmt::skip]
const REMIND_SUBJECTS: &[&str] = &[
    "de", "vi", "ni", "hon", "han", "hun", "den", "dere", "denne", "detta", "dette", "hele",
    "alla", "alle", "mina", "mine", "våra", "vores", "nästa", "næste", "sista", "sidste",
];

/// Present-tense verbs that do not end in -r ("ska", "skal", "kan", "vil", "må").
#[rustfmt::skip]
const REMIND_FINITE: &[&str] = &["ska", "skall", "skal", "kan", "vil", "må", "måste", "bør", "bör"];

/// Forget commands: the verb, opening the clause (after leaders only).
const FORGET: &[&str] = &["forget", "glöm", "glem"];

/// What may follow the verb before the topic, longest first within a language: "forget what
/// I said about X", "glöm det jag sa om X", "glem hvad jeg sagde om X".
const FORGET_OBJECTS: &[&str] = &[
    "everything i have said about",
    "everything i have told you about",
    "everything i said about",
    "everything i told you about",
    "what i have said about",
    "what i have told you about",
    "what i said about",
    "what i told you about",
    "anything i said about",
    "all i said about",
    "everything about",
    "all about",
    "about",
    "allt jag har sagt om",
    "allt jag sa om",
    "allt jag berättade om",
    "det jag har sagt om",
    "det jag sa om",
    "det jag sade om",
    "det jag berättade om",
    "vad jag har sagt om",
    "vad jag sa om",
    "vad jag sade om",
    "vad jag berättade om",
    "allt om",
    "alt hvad jeg har sagt om",
    "alt hvad jeg sagde om",
    "alt jeg har sagt om",
    "alt jeg sagde om",
    "det jeg har sagt om",
    "det jeg sagde om",
    "det jeg fortalte om",
    "hvad jeg har sagt om",
    "hvad jeg sagde om",
    "hvad jeg fortalte om",
    "hvad jeg fortalte dig om",
    "alt om",
];

/// A topic that is only a pronoun names nothing to search for ("forget about it").
const PRONOUNS: &[&str] = &[
    "it", "that", "this", "them", "det", "den", "detta", "dette", "dem", "dom", "de",
];

/// What the user asked Minne to forget in one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgetRequest {
    /// The words after the command, verbatim, without capture's bracketed dates.
    pub topic: String,
    /// A statement ("Forget that my favourite colour is green", "Glöm att …", "Glem at …"):
    /// only the memories whose own words hold every content word of it go, not everything
    /// that shares one (which would take "my favourite food is sushi" with it). `false` for a
    /// topic ("Forget what I said about my ex", "Forget my address").
    pub statement: bool,
}

/// What opens a statement to forget after the verb: "forget that …", "glöm att …", "glem at …".
const FORGET_STATEMENT: &[&str] = &["that", "att", "at"];

/// Possessives that open a topic right after the verb: "forget my address", "glöm min adress".
const FORGET_POSSESSIVES: &[&str] = &[
    "my", "our", "min", "mitt", "mina", "vår", "vårt", "våra", "mit", "mine", "vores",
];

/// The topics the user asks Minne to forget in `text` ("Forget what I said about my ex" →
/// `my ex`), verbatim, one per command; see [`forget_requests`].
pub fn forget_topics(text: &str) -> Vec<String> {
    forget_requests(text).into_iter().map(|r| r.topic).collect()
}

/// The forget commands in `text`, one per sentence: a topic ("Forget what I said about my
/// ex" → `my ex`; "Forget my address" → `my address`) or a statement ("Forget that my
/// favourite colour is green" → `my favourite colour is green`, at least two words). A
/// question ("did you forget …?"), a negation ("don't forget …", "glöm inte att …", a
/// remember command), the past tense ("I forgot …"), a bare pronoun ("forget about it",
/// "forget that, it's fine") are not commands.
pub fn forget_requests(text: &str) -> Vec<ForgetRequest> {
    let all = words::tokenize(text);
    let mut out = Vec::new();
    for s in words::sentences(text, &all) {
        let w = &all[s];
        if w.last().is_some_and(|x| x.low == "?") {
            continue;
        }
        let lead = w
            .iter()
            .take_while(|x| LEADERS.contains(&x.low.as_str()) || x.low == ",")
            .count();
        if !w
            .get(lead)
            .is_some_and(|x| FORGET.contains(&x.low.as_str()))
        {
            continue;
        }
        let at = lead + 1;
        let object = FORGET_OBJECTS
            .iter()
            .filter(|p| words::matches_at(w, at, p))
            .map(|p| p.split(' ').count())
            .max();
        let next = w.get(at);
        let (rest, statement) = match object {
            Some(n) => (&w[at + n..], false),
            None if next.is_some_and(|x| FORGET_STATEMENT.contains(&x.low.as_str()))
                && w.get(at + 1).is_some_and(|x| !x.punct) =>
            {
                (&w[at + 1..], true)
            }
            None if next.is_some_and(|x| FORGET_POSSESSIVES.contains(&x.low.as_str())) => {
                (&w[at..], false)
            }
            None => continue,
        };
        let topic = if statement {
            content(text, rest)
        } else {
            content(text, rest).or_else(|| single(text, rest))
        };
        let Some(topic) = topic else {
            continue;
        };
        let lows: Vec<&str> = rest
            .iter()
            .filter(|x| !x.punct)
            .map(|x| x.low.as_str())
            .collect();
        if lows.iter().all(|x| PRONOUNS.contains(x)) {
            continue;
        }
        let topic = without_annotations(&topic);
        if !topic.is_empty() {
            out.push(ForgetRequest { topic, statement });
        }
    }
    out
}

/// `topic` without the bracketed dates capture writes into an episode's words ("mötet på
/// fredag [2026-03-06]"), closed or cut off: they are no words the user said, and a topic
/// search must not look for them.
fn without_annotations(topic: &str) -> String {
    let mut out = String::with_capacity(topic.len());
    let mut depth = 0usize;
    for c in topic.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The one word in `w`, without punctuation.
fn single(text: &str, w: &[Word]) -> Option<String> {
    let words: Vec<&Word> = w.iter().filter(|x| !x.punct).collect();
    match words.as_slice() {
        [one] => Some(text[one.span.clone()].to_string()),
        _ => None,
    }
}

/// The words from the first one to the last, without closing punctuation; `None` if fewer
/// than two words.
fn content(text: &str, w: &[Word]) -> Option<String> {
    content_span(w).map(|span| text[span].to_string())
}

/// The byte span of [`content`].
fn content_span(w: &[Word]) -> Option<Range<usize>> {
    let first = w.iter().find(|x| !x.punct)?;
    let last = w.iter().rev().find(|x| !x.punct)?;
    let n = w.iter().filter(|x| !x.punct).count();
    (n >= 2).then_some(first.span.start..last.span.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::colon(
        "Please remember this, it's important: my daughter's EpiPen is in the blue pouch in the hallway cabinet.",
        "my daughter's EpiPen is in the blue pouch in the hallway cabinet"
    )]
    #[case::that(
        "Remember that the gate code changes in May.",
        "the gate code changes in May"
    )]
    #[case::bare(
        "Remember peanuts are a no-go for me, allergy.",
        "peanuts are a no-go for me, allergy"
    )]
    #[case::sv(
        "Kom ihåg att jag har tandläkartid på torsdag.",
        "jag har tandläkartid på torsdag"
    )]
    #[case::da(
        "Husk at min bil skal til syn i marts.",
        "min bil skal til syn i marts"
    )]
    // A subject that ends like an infinitive, then its verb: a clause, so a command.
    #[case::sv_subject_in_a("Kom ihåg att mamma fyller år på fredag.", "mamma fyller år på fredag")]
    #[case::da_subject("Husk at mødet er flyttet til fredag.", "mødet er flyttet til fredag")]
    // Capture puts the resolved date after a relative time in the episode's words (issue 7);
    // its closing bracket is a mark, and the content once ended before it, storing "… in May
    // [2026-05-01 – 2026-05-31" with half a bracket.
    #[case::resolved_date(
        "Remember that the gate code changes in May [2026-05-01 – 2026-05-31].",
        "the gate code changes in May [2026-05-01 – 2026-05-31]"
    )]
    #[case::sv_resolved_date(
        "Kom ihåg att jag har tandläkartid på torsdag [2026-03-05].",
        "jag har tandläkartid på torsdag [2026-03-05]"
    )]
    // A full stop inside an address or after a title ends no sentence: the note was cut at
    // "Dr" and at "anna".
    #[case::title_and_email(
        "Remember that my accountant is Dr. Holm, her mail is anna.berg@firma.se.",
        "my accountant is Dr. Holm, her mail is anna.berg@firma.se"
    )]
    #[case::eg(
        "Note that I avoid dairy, e.g. milk and cheese.",
        "I avoid dairy, e.g. milk and cheese"
    )]
    #[case::da_date_inside(
        "Husk at på fredag [2026-03-06] flyver jeg til Oslo.",
        "på fredag [2026-03-06] flyver jeg til Oslo"
    )]
    // "Note" as a verb still asks, with a colon or without; "make a note" too.
    #[case::note_that("Note that the build server is slow.", "the build server is slow")]
    #[case::note_colon("Note: my passport expires in June.", "my passport expires in June")]
    #[case::note_the("Note the gate code is 4711.", "the gate code is 4711")]
    #[case::make_a_note("Make a note: I am vegetarian.", "I am vegetarian")]
    #[case::make_a_note_of_this(
        "Make a note of this: the spare key is under the blue pot.",
        "the spare key is under the blue pot"
    )]
    #[case::sv_notera(
        "Notera att mötet är flyttat till fredag.",
        "mötet är flyttat till fredag"
    )]
    #[case::da_bemaerk(
        "Bemærk at mødet er flyttet til fredag.",
        "mødet er flyttet til fredag"
    )]
    fn command_found(#[case] text: &str, #[case] content: &str) {
        assert_eq!(
            remembered(text),
            [content],
            "`{text}` asks to remember exactly what follows the command"
        );
    }

    /// Advice to the listener, or a line of a pasted document (LongMemEval chats): something
    /// to do, not something to keep about the user.
    #[rstest::rstest]
    #[case::remember_to("Remember to have fun and be creative throughout the process.")]
    #[case::dont_forget_to("Don't forget to personalize your page before you forward it!")]
    #[case::sv("Glöm inte att ringa tandläkaren.")]
    #[case::da("Husk at købe mælk på vejen hjem.")]
    fn reminder_to_do_is_no_command(#[case] text: &str) {
        assert!(
            remembered(text).is_empty(),
            "`{text}` asks the listener to do something, got {:?}",
            remembered(text)
        );
    }

    #[rstest::rstest]
    #[case::en("Forget what I said about my ex.", "my ex")]
    #[case::en_please(
        "Please forget everything I told you about the surprise party!",
        "the surprise party"
    )]
    #[case::en_about("Forget about Jonas.", "Jonas")]
    #[case::sv("Glöm det jag sa om Jonas.", "Jonas")]
    #[case::sv_vad("Snälla, glöm vad jag sa om min chef", "min chef")]
    #[case::da("Glem hvad jeg sagde om min eks.", "min eks")]
    #[case::da_alt("Glem alt om festen for Lena.", "festen for Lena")]
    // Capture writes the resolved date into the episode's words; it is no part of the topic.
    #[case::sv_resolved_date("Glöm det jag sa om mötet på fredag [2026-03-06].", "mötet på fredag")]
    #[case::en_resolved_range(
        "Forget what I said about the trip in May [2026-05-01 – 2026-05-31].",
        "the trip in May"
    )]
    #[case::en_possessive("Forget my address.", "my address")]
    #[case::sv_possessive("Glöm min gamla adress.", "min gamla adress")]
    fn forget_command_found(#[case] text: &str, #[case] topic: &str) {
        assert_eq!(
            forget_topics(text),
            [topic],
            "`{text}` asks to forget exactly the words after the command"
        );
    }

    /// "Forget that …" names one statement, not a topic: it is marked so that only the
    /// memories holding all of its words go (a topic forget of "my favourite colour is green"
    /// would take every memory with "favourite" in it).
    #[rstest::rstest]
    #[case::en(
        "Forget that my favourite colour is green.",
        "my favourite colour is green"
    )]
    #[case::en_please("Please forget that I'm vegetarian!", "I'm vegetarian")]
    #[case::sv("Glöm att min favoritfärg är grön.", "min favoritfärg är grön")]
    #[case::da("Glem at min yndlingsfarve er grøn.", "min yndlingsfarve er grøn")]
    fn forget_statement_found(#[case] text: &str, #[case] statement: &str) {
        assert_eq!(
            forget_requests(text),
            [ForgetRequest {
                topic: statement.to_string(),
                statement: true
            }],
            "`{text}` asks to forget the statement after the command"
        );
    }

    #[test]
    fn forget_about_is_a_topic_not_a_statement() {
        assert_eq!(
            forget_requests("Forget what I said about my ex."),
            [ForgetRequest {
                topic: "my ex".into(),
                statement: false
            }]
        );
    }

    #[rstest::rstest]
    #[case::question("Did you forget what I said about my ex?")]
    #[case::negated("Don't forget what I said about the party.")]
    #[case::past("I forgot about the dentist.")]
    #[case::pronoun("Oh, forget about it.")]
    #[case::sv_pronoun("Glöm det.")]
    #[case::other_subject("Jonas will forget about the party.")]
    #[case::that_pronoun("Forget that, it's fine.")]
    #[case::that_alone("Forget that.")]
    #[case::sv_not("Glöm inte att min tandläkartid är på torsdag.")]
    #[case::da_not("Glem ikke at købe mælk.")]
    #[case::to_do("Forget to call him, he's away.")]
    fn no_forget_command(#[case] text: &str) {
        assert!(
            forget_topics(text).is_empty(),
            "`{text}` asks nothing to be forgotten"
        );
    }

    /// "Note" used as a noun: the label of a numbered or titled note in pasted text, or a
    /// note that is talked about. A fresh user's "Note 3: the build server is slow" was
    /// stored as something they asked to be remembered ("3: the build server is slow").
    #[rstest::rstest]
    #[case::numbered("Note 3: the build server is slow.")]
    #[case::numbered_full_stop("Note 12. The deploy runs on Fridays.")]
    #[case::number_sign("Note #4: staging is down until noon.")]
    #[case::lettered("Note A: the fonts come from the old theme.")]
    #[case::roman("Note iv) the second table is wrong.")]
    #[case::titled("Note on the build: it takes an hour on Mondays.")]
    #[case::to_self("Note to self: buy more coffee beans.")]
    #[case::from_someone("Note from Anna: the meeting is moved.")]
    #[case::subject("Note was left on the fridge by Oskar.")]
    #[case::in_a_list("Also note 2: the printer is out of toner.")]
    fn a_note_as_a_noun_is_no_command(#[case] text: &str) {
        assert!(
            remembered(text).is_empty(),
            "`{text}` uses \"note\" as a noun or a label, not as a request: got {:?}",
            remembered(text)
        );
    }

    #[rstest::rstest]
    #[case::question("Do you remember where we parked?")]
    #[case::statement("I remember the old office well.")]
    #[case::pointer_without_content("Remember this.")]
    fn no_command(#[case] text: &str) {
        assert!(
            remembered(text).is_empty(),
            "`{text}` asks nothing to be stored"
        );
    }
}
