//! Capture: conversation turns become episodes (seed 004: encode, then weigh).
//!
//! [`rules::extract`] encodes a message into episodes; [`weigh`] gives each its salience from
//! its act kind's floor and the speaker's intensity; [`stability_for`] turns salience into a
//! lifespan in days, set once at capture.

pub mod job;
pub mod llm;
pub(crate) mod lock;
pub mod restate;
pub mod rules;
pub mod tone;
mod withhold;

use crate::model::{ActKind, Salience, Stability};

/// Salience of an episode (seed 004): the higher of the act kind's floor and the speaker's
/// intensity against their own baseline, in `[0, 1]`.
pub fn weigh(kind: ActKind, intensity: f64) -> Salience {
    let floor = kind.salience_floor().get();
    Salience::clamped(floor.max(intensity))
}

// What the user asks to keep outranks a decision.
const _: () = assert!(EXPLICIT_SAVE_FLOOR > crate::model::DECISION_FLOOR);

/// Salience floor of something the user explicitly asked to keep ("remember this, it's
/// important"): seed 003 makes such commands first-class, so they must survive fading.
pub const EXPLICIT_SAVE_FLOOR: f64 = 0.85;

/// Cues of an explicit request to remember, in English, Swedish and Danish, lowercased.
const EXPLICIT_SAVE_CUES: &[&str] = &[
    "remember this",
    "remember that",
    "please remember",
    "don't forget",
    "do not forget",
    "it's important",
    "it is important",
    "this is important",
    "kom ihåg",
    "glöm inte",
    "det är viktigt",
    "husk at",
    "husk det",
    "glem ikke",
    "det er vigtigt",
];

/// Words that, right before a save cue, make it no request: a negation ("*don't* remember
/// this") or a subject reporting their own memory ("*I* remember that day", "*you* don't
/// forget"), en/sv/da.
const NOT_A_REQUEST_BEFORE: &[&str] = &[
    "don't", "dont", "not", "never", "i", "we", "you", "they", "he", "she", "inte", "aldrig",
    "jag", "vi", "du", "ikke", "jeg", "de", "han", "hon", "hun",
];

/// Whether the user explicitly asks for this message to be remembered: a save cue
/// ([`EXPLICIT_SAVE_CUES`]) not negated or reported ([`NOT_A_REQUEST_BEFORE`]), in a message
/// that does not ask not to be kept ([`asks_not_to_keep`]).
pub fn explicit_save(text: &str) -> bool {
    let lower = text.to_lowercase();
    !asks_not_to_keep(text)
        && EXPLICIT_SAVE_CUES.iter().any(|cue| {
            lower.match_indices(cue).any(|(at, _)| {
                let before = lower[..at]
                    .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
                    .rfind(|w| !w.is_empty())
                    .map(|w| w.replace('’', "'"));
                !before.is_some_and(|w| NOT_A_REQUEST_BEFORE.contains(&w.as_str()))
            })
        })
}

/// Verbs of keeping after which the object names what not to keep, en/sv/da, lowercased, with
/// the negation they take: "don't remember this", "spara inte det här", "gem ikke dette".
/// `true`: the verb may take another object than words ("don't save that file", "don't keep
/// this door open"), so the object must end the phrase or be followed by [`KEEP_FOLLOWERS`].
const NOT_KEEP_VERBS: &[(&str, bool)] = &[
    ("don't remember", false),
    ("don't memorize", false),
    ("don't memorise", false),
    ("don't save", true),
    ("don't store", true),
    ("don't keep", true),
    ("don't record", true),
    ("don't log", true),
    ("don't note", true),
    ("don't write", true),
    ("never remember", false),
    ("kom inte ihåg", false),
    ("spara inte", true),
    ("lagra inte", true),
    ("skriv inte ner", true),
    ("låt bli att komma ihåg", false),
    ("låt bli att spara", true),
    ("husk ikke", false),
    ("gem ikke", true),
    ("skriv ikke ned", true),
    ("lad være med at huske", false),
    ("lad være med at gemme", true),
];

/// What not to keep after a verb of [`NOT_KEEP_VERBS`]: the message or what it holds.
const NOT_KEEP_OBJECTS: &[&str] = &[
    "this",
    "that",
    "any of this",
    "any of that",
    "what i just said",
    "what i said",
    "this one",
    "det här",
    "detta",
    "det där",
    "det",
    "något av det här",
    "det her",
    "dette",
    "det der",
    "noget af det her",
];

/// Words that may follow "don't save this" when it is about the message ("don't save this in
/// your memory", "… conversation", "… please"); any other word after an object makes the
/// verb's object something else ("don't save that file").
const KEEP_FOLLOWERS: &[&str] = &[
    "please",
    "to",
    "in",
    "anywhere",
    "for",
    "either",
    "down",
    "ok",
    "okay",
    "but",
    "and",
    "or",
    "conversation",
    "chat",
    "message",
    "part",
    "bit",
    "one",
    "info",
    "information",
    "stuff",
    "detail",
    "details",
    "snälla",
    "heller",
    "någonstans",
    "i",
    "men",
    "och",
    "tak",
    "nogen",
    "steder",
    "og",
    "samtal",
    "samtale",
    "meddelande",
    "besked",
    "del",
];

/// Requests not to keep a message that are no verb phrase, lowercased, en/sv/da: they count at
/// the start of a sentence or after a lead ([`asks_not_to_keep`]).
const NOT_KEEP_PHRASES: &[&str] = &[
    "off the record",
    "between you and me",
    "just between us",
    "strictly between us",
    "mellan oss sagt",
    "mellem os sagt",
];

/// A wish not to be remembered, lowercased, en/sv/da, a request wherever it stands in the
/// message ("I don't want you to remember this, but …" was stored at the explicit-save
/// salience, its "remember this" read as a request to keep it).
const WISH_NOT_KEPT_CUES: &[&str] = &[
    "don't want you to remember",
    "rather you didn't remember",
    "no need to remember this",
    "no need to remember that",
    "you don't need to remember this",
    "you don't have to remember this",
    "keep this between us",
    "keep that between us",
    "keep it between us",
    "this stays between us",
    "stays between you and me",
    "vill inte att du kommer ihåg",
    "vill inte att du minns",
    "vill inte att du sparar",
    "stannar mellan oss",
    "håll det mellan oss",
    "vil ikke have at du husker",
    "vil ikke have, at du husker",
    "vil ikke have du husker",
    "vil ikke have at du gemmer",
    "bliver mellem os",
    "hold det mellem os",
];

/// Whether the user asks Minne not to keep this message: a wish not to be remembered anywhere
/// in it ([`WISH_NOT_KEPT_CUES`]), or a request not to keep at the start of a sentence or after
/// "please"/"but"/"and": a verb of keeping with what not to keep ([`NOT_KEEP_VERBS`] and
/// [`NOT_KEEP_OBJECTS`]: "Please don't save this, but …") or a phrase
/// ([`NOT_KEEP_PHRASES`]: "Off the record: …"). "Do not" and "dont" read as "don't". Capture
/// then stores no episode from it or from the reply to it, so nothing of it is recalled,
/// consolidated or shown at session start, and replaces their words with [`WITHHELD`].
/// "I don't remember that film" reports the speaker's memory and is no request.
pub fn asks_not_to_keep(text: &str) -> bool {
    let padded = format!(" {} ", text.to_lowercase().replace('’', "'"))
        .replace(" do not ", " don't ")
        .replace(" dont ", " don't ");
    let lower = padded.trim();
    if WISH_NOT_KEPT_CUES.iter().any(|cue| lower.contains(cue)) {
        return true;
    }
    let leads = [
        "please", "but", "and", "so", "snälla", "men", "och", "så", "og",
    ];
    // Where a request may start: the message's start, a sentence's, or after a lead word.
    let starts_request = |at: usize| {
        let before = lower[..at].trim_end();
        let word = before
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '\''))
            .find(|w| !w.is_empty());
        before.is_empty()
            || before.ends_with(['.', '!', '?', ':', ';', ',', '(', '"', '-', '–'])
            || word.is_some_and(|w| leads.contains(&w))
    };
    // Whether the phrase ends at `end`: nothing after it, a mark, or a follower word.
    let ends_phrase = |end: usize| {
        let rest = lower[end..].trim_start();
        let next = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .next()
            .unwrap_or("");
        rest.is_empty()
            || !rest.starts_with(char::is_alphanumeric)
            || KEEP_FOLLOWERS.contains(&next)
    };
    // Whole words only: "det" must not match the start of "detaljer".
    let word_ends = |end: usize| !lower[end..].starts_with(char::is_alphanumeric);
    let verb_request = NOT_KEEP_VERBS.iter().any(|&(verb, checked)| {
        lower.match_indices(verb).any(|(at, _)| {
            let after = &lower[at + verb.len()..];
            starts_request(at)
                && NOT_KEEP_OBJECTS.iter().any(|object| {
                    let end = at + verb.len() + 1 + object.len();
                    after.starts_with(' ')
                        && after[1..].starts_with(object)
                        && word_ends(end)
                        && (!checked || ends_phrase(end))
                })
        })
    });
    verb_request
        || NOT_KEEP_PHRASES
            .iter()
            .any(|cue| lower.match_indices(cue).any(|(at, _)| starts_request(at)))
}

/// The words that stand in the transcript for a message withheld at the user's request
/// ([`asks_not_to_keep`]), and for the reply to it: capture replaces the message's words with
/// this and keeps a tombstone of the originals, so they are gone from the store, the export
/// and the files on disk, and a re-import of the conversation does not bring them back. A
/// message that arrives with these words (an export re-imported) is withheld too.
pub const WITHHELD: &str = "[not kept: the user asked that this message not be remembered]";

/// Shortest lifespan, for routine talk at salience 0: days.
pub const MIN_STABILITY_DAYS: f64 = 2.0;
/// Longest lifespan, for a peak at salience 1: days (three years).
pub const MAX_STABILITY_DAYS: f64 = 1095.0;

/// Lifespan from salience (seed 004: salience sets the memory's lifespan), a monotone
/// log-linear map: `S = MIN · (MAX/MIN)^salience`, so routine (≈0.05) lives about 3 days, an
/// observation (0.3) about 13, a commitment (0.65) about 120, a correction (0.9) about 570 and
/// a peak (1.0) three years. Set once at capture; recall and time never change it.
pub fn stability_for(salience: Salience) -> Stability {
    let days = MIN_STABILITY_DAYS * (MAX_STABILITY_DAYS / MIN_STABILITY_DAYS).powf(salience.get());
    // Salience is in [0, 1], so `days` lies in [MIN, MAX]: finite and > 0.
    Stability::from_bounded_days(days.clamp(MIN_STABILITY_DAYS, MAX_STABILITY_DAYS))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn salience_is_in_range_and_never_below_the_floor(kind_index in 0usize..6, intensity in -2.0f64..3.0) {
            let kind = ActKind::ALL[kind_index];
            let s = weigh(kind, intensity).get();
            proptest::prop_assert!((0.0..=1.0).contains(&s), "salience {s} must be in [0, 1]");
            proptest::prop_assert!(s >= kind.salience_floor().get(), "seed 004: never below the act's floor");
        }

        #[test]
        fn stability_grows_with_salience(a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let (s_lo, s_hi) = (stability_for(Salience::clamped(lo)).days(), stability_for(Salience::clamped(hi)).days());
            proptest::prop_assert!(s_lo <= s_hi, "a more salient memory never has a shorter lifespan");
            proptest::prop_assert!((MIN_STABILITY_DAYS..=MAX_STABILITY_DAYS + 1e-9).contains(&s_hi));
        }
    }

    #[test]
    fn explicit_requests_to_remember_are_recognised_in_three_languages() {
        for text in [
            "Please remember this, it's important: the spare key is under the pot.",
            "Kom ihåg att jag inte äter gluten.",
            "Husk at min datter er allergisk over for nødder.",
            // An emphatic "do" is still a request, where "don't" is none (below).
            "Please do remember this: the gate code is 4711.",
        ] {
            assert!(explicit_save(text), "an explicit save request: {text}");
        }
        assert!(
            !explicit_save("I remembered the umbrella today."),
            "reporting a memory is not a request to keep one"
        );
        // A negated or reported cue is no request (a fresh user's "Don't remember this: my
        // salary is …" was stored at the explicit-save floor).
        for text in [
            "Don't remember this: my salary is 80000 SEK.",
            "I don't remember that restaurant at all.",
            "I remember that day well.",
            "I don't forget birthdays.",
        ] {
            assert!(!explicit_save(text), "no request to keep: {text}");
        }
    }

    #[test]
    fn requests_not_to_keep_are_recognised_and_reports_are_not() {
        for text in [
            "Don't remember this: my salary is 80000 SEK.",
            "Please don't remember this, but I'm being treated for depression.",
            "Off the record: I'm interviewing at Google next week.",
            "Kom inte ihåg det här: jag har skulder.",
            "Husk ikke det her, men jeg søger nyt job.",
            // A wish anywhere in the message; its "remember this" is no request to keep.
            "I don't want you to remember this, but my PIN is 4711.",
            "Jag vill inte att du kommer ihåg det, men jag har skulder.",
            // Other verbs of keeping, "do not" and "dont", and what the request is about.
            "Please don't save this.",
            "Do not store this in your memory: my salary is 80000 SEK.",
            "dont remember any of this",
            "Don't write this down, but my debt is 20000.",
            "Don't keep that, I was venting.",
            "Between you and me, I'm looking for a new job.",
            "Keep this between us: I'm pregnant.",
            "Spara inte det här, men jag har skulder.",
            "Mellan oss sagt: jag söker nytt jobb.",
            "Gem ikke dette: jeg er gravid.",
            "Lad være med at huske det her.",
        ] {
            assert!(asks_not_to_keep(text), "a request not to keep: {text}");
            assert!(!explicit_save(text), "nor a request to keep: {text}");
        }
        for text in [
            "I don't remember this place at all.",
            "We talked off the record yesterday? No, on it.",
            "Jag kom inte ihåg det här numret.",
            // A verb of keeping whose object is a thing, not the message.
            "Don't save that file yet.",
            "Don't keep this door open.",
            "I don't remember that restaurant.",
            "Spara inte detaljerna till sist.",
            "Between us we have three cars.",
        ] {
            assert!(!asks_not_to_keep(text), "a report, not a request: {text}");
        }
    }

    #[test]
    fn floors_are_ordered_as_seed_004_says() {
        let floors: Vec<f64> = ActKind::ALL
            .iter()
            .map(|k| k.salience_floor().get())
            .collect();
        assert!(
            floors.windows(2).all(|w| w[0] > w[1]),
            "correction > decision > commitment > retraction > observation > routine: {floors:?}"
        );
        assert!(
            stability_for(Salience::clamped(0.05)).days() < 7.0,
            "routine lives days"
        );
        assert!(
            stability_for(Salience::clamped(1.0)).days() >= 365.0,
            "a peak lives a year or more"
        );
    }
}
