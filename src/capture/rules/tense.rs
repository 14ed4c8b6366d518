//! Past or future sense around a word, from the nearest tense marker in its clause. A bare
//! weekday, a month or "i helgen" means the coming one in future sense and the one just gone in
//! past sense (shared/data/capture/README.md, time conventions).

use std::ops::Range;

use super::lang::Lang;
use super::token::{Kind, Token};

/// The time sense of a clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sense {
    /// Past tense or a perfect ("I met", "jag träffade", "har købt").
    Past,
    /// Future, a plan or a modal ("I'll", "ska", "skal", "might", "is meeting").
    Future,
    /// No marker: present tense, or no verb at all.
    Unknown,
}

const EN_FUTURE: &[&str] = &[
    "will", "shall", "won't", "gonna", "might", "may", "should", "must", "going", "plan",
    "planning", "hope", "hoping", "upcoming", "due",
];
pub(crate) const EN_PAST: &[&str] = &[
    "was", "were", "had", "did", "didn't", "wasn't", "weren't", "hadn't", "went", "came", "saw",
    "met", "said", "told", "bought", "ate", "took", "gave", "made", "left", "found", "felt",
    "heard", "sent", "spent", "lost", "won", "paid", "wrote", "broke", "fell", "flew", "drove",
    "sat", "slept", "kept", "brought", "caught", "began", "became", "forgot", "ran", "thought",
    "knew", "seen", "been", "gone", "done", "eaten", "taken", "given", "written", "ago",
];
#[rustfmt::skip]
const EN_ED_EXCEPTIONS: &[&str] = &[
    "need", "indeed", "speed", "feed", "seed", "weed", "breed", "proceed", "exceed", "succeed",
    "hundred", "sacred", "naked", "wicked", "supposed", "scheduled", "booked", "planned",
];
const BE: &[&str] = &[
    "is", "are", "am", "be", "being", "'s", "'re", "'m", "get", "gets", "it's",
];
const SV_FUTURE: &[&str] = &[
    "ska", "skall", "kommer", "tänker", "kanske", "måste", "bör", "vill", "planerar",
];
const SV_PAST: &[&str] = &[
    "var", "hade", "blev", "fick", "gick", "kom", "såg", "sa", "sade", "gjorde", "åt", "drack",
    "tog", "gav", "låg", "satt", "stod", "sov", "flög", "skrev", "sprang", "vann", "föll", "bröt",
    "drog", "fanns", "visste",
];
const DA_FUTURE: &[&str] = &["skal", "vil", "kommer", "måske", "planlægger", "bør", "må"];
const DA_PAST: &[&str] = &[
    "var", "havde", "blev", "fik", "gik", "kom", "sagde", "gjorde", "spiste", "drak", "tog", "gav",
    "lå", "sad", "stod", "sov", "fløj", "skrev", "løb", "vandt", "faldt", "vidste", "fandt",
];
/// Verbs of deciding and promising look ahead past an infinitive: "decided to sign up ... in
/// September" is the coming September, while "bestämde i helgen att ..." is last weekend.
#[rustfmt::skip]
const FORWARD: &[&str] = &[
    "decided", "agreed", "promised", "planned", "arranged", "scheduled", "booked", "chose",
    "intend", "intends", "bestämt", "bestämde", "beslutat", "beslutade", "lovade", "lovat",
    "planerat", "planerade", "bokat", "bokade", "valt", "valde", "besluttet", "besluttede",
    "bestemt", "bestemte", "lovede", "lovet", "aftalt", "aftalte", "planlagt", "booket", "valgt",
    "valgte",
];
/// Verbs of saying and hearing: what was said has its own tense ("I was told the package
/// arrives on Saturday" is the coming Saturday).
const SAYING: &[&str] = &[
    "told",
    "said",
    "heard",
    "wrote",
    "mentioned",
    "texted",
    "emailed",
    "sa",
    "sade",
    "berättade",
    "skrev",
    "hörde",
    "nämnde",
    "sagde",
    "fortalte",
    "hørte",
    "nævnte",
];
/// Words before a noun: an "-s" word after one is a plural ("my parents"), not a verb.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "my", "your", "his", "her", "our", "their", "its", "these", "those", "some",
    "two", "three", "all",
];
const NORDIC_MODALS: &[&str] = &[
    "kunde", "borde", "skulle", "ville", "måtte", "kunne", "burde", "inde", "gode",
];
const AUX_HAVE: &[&str] = &[
    "have", "has", "'ve", "i've", "we've", "har", "hade", "havde",
];

/// The tense marker a token is, if any, read with the language of the message.
fn marker(t: &[Token<'_>], i: usize, lang: Lang) -> Option<Sense> {
    let tok = t.get(i).filter(|t| t.kind == Kind::Word)?;
    let w = tok.low.as_str();
    let prev = i
        .checked_sub(1)
        .and_then(|p| t.get(p))
        .map(|t| t.low.as_str());
    let next = t.get(i + 1).map(|t| t.low.as_str());
    if FORWARD.contains(&w) {
        // Past in form; `sense_at` decides whether the time is the decided act's.
        return Some(Sense::Past);
    }
    match lang {
        Lang::En => {
            if w.ends_with("'ll") || (w == "may" && !tok.is_capitalised()) {
                return Some(Sense::Future);
            }
            // "I'd call her": would, a plan; "I'd been", "she'd gone": had, a past.
            if w.ends_with("'d") || w.ends_with("’d") {
                return Some(match next {
                    Some(n) if n.ends_with("ed") || EN_PAST.contains(&n) => Sense::Past,
                    _ => Sense::Future,
                });
            }
            if w == "been" && next.is_some_and(|n| n.ends_with("ing")) {
                return None; // "we've been kicking around": ongoing, not past.
            }
            if w == "going" {
                return (next == Some("to")).then_some(Sense::Future);
            }
            if w.ends_with("ing")
                && w.len() > 4
                && prev.is_some_and(|p| BE.contains(&p) || p.ends_with("'m") || p.ends_with("'re"))
            {
                return Some(Sense::Future); // "I'm taking the kids", "she's visiting".
            }
            if EN_FUTURE.contains(&w) && w != "may" {
                return Some(Sense::Future);
            }
            if EN_PAST.contains(&w) {
                return Some(Sense::Past);
            }
            let passive =
                prev.is_some_and(|p| BE.contains(&p) || p.ends_with("'s") || p.ends_with("'re"));
            (w.len() >= 5 && w.ends_with("ed") && !EN_ED_EXCEPTIONS.contains(&w) && !passive)
                .then_some(Sense::Past)
        }
        Lang::Sv | Lang::Da => {
            let (future, past) = if lang == Lang::Sv {
                (SV_FUTURE, SV_PAST)
            } else {
                (DA_FUTURE, DA_PAST)
            };
            if future.contains(&w) {
                return Some(Sense::Future);
            }
            if past.contains(&w) {
                return Some(Sense::Past);
            }
            if NORDIC_MODALS.contains(&w) || w.len() < 5 || w.ends_with("ste") {
                return None;
            }
            let perfect = prev.is_some_and(|p| AUX_HAVE.contains(&p)) && w.ends_with('t');
            let preterite = match lang {
                Lang::Sv => w.ends_with("ade") || w.ends_with("de") || w.ends_with("te"),
                _ => w.ends_with("ede") || w.ends_with("te"),
            };
            (perfect || preterite).then_some(Sense::Past)
        }
    }
}

/// The clause around token `at` inside `sentence`: up to the nearest punctuation or "but".
pub(crate) fn clause(t: &[Token<'_>], sentence: &Range<usize>, at: usize) -> Range<usize> {
    let is_break = |i: usize| {
        t.get(i).is_some_and(|tok| {
            (tok.kind == Kind::Punct && !tok.is(".") && !tok.is("-") && !tok.is("/"))
                || tok.is_any(&["but", "men"])
        })
    };
    let mut lo = at;
    while lo > sentence.start && !is_break(lo - 1) {
        lo -= 1;
    }
    let mut hi = at;
    while hi < sentence.end && !is_break(hi) {
        hi += 1;
    }
    lo..hi.max(at)
}

/// The sense at token `at`: that of the nearest tense marker in `clause` (future on a tie),
/// ignoring the tokens of the time expression itself (`skip`).
pub(crate) fn sense_at(
    t: &[Token<'_>],
    clause: Range<usize>,
    skip: &Range<usize>,
    at: usize,
    lang: Lang,
) -> Sense {
    let between =
        |m: usize, words: &[&str]| (m + 1..at).any(|k| t.get(k).is_some_and(|w| w.is_any(words)));
    let complementizers: &[&str] = if lang == Lang::Da {
        &["that", "att", "at"]
    } else {
        &["that", "att"]
    };
    let infinitive: &[&str] = if lang == Lang::Da {
        &["to", "att", "at"]
    } else {
        &["to", "att"]
    };
    let reported = clause.clone().filter(|&i| {
        i < at && t.get(i).is_some_and(|w| w.is_any(SAYING)) && present_between(t, i, at)
    });
    let reported = reported.max();
    let mut best: Option<(usize, Sense)> = None;
    for i in clause {
        if skip.contains(&i) {
            continue;
        }
        if let Some(mut s) = marker(t, i, lang) {
            let forward = t.get(i).is_some_and(|w| w.is_any(FORWARD));
            if i < at && forward && between(i, infinitive) {
                // "decided to sign up ... in September": the time is the decided act's.
                s = Sense::Future;
            } else if i < at && !forward && between(i, complementizers) {
                // "Lisette sa att hon slutar i oktober": the reported clause has its own tense.
                continue;
            } else if reported.is_some_and(|r| i <= r) {
                // "I was told the package arrives on Saturday": so has one without "that", and
                // the main clause's tense ("was told") is not its.
                continue;
            }
            let d = i.abs_diff(at);
            let better = match best {
                None => true,
                Some((bd, bs)) => d < bd || (d == bd && s == Sense::Future && bs == Sense::Past),
            };
            if better {
                best = Some((d, s));
            }
        }
    }
    best.map_or(Sense::Unknown, |(_, s)| s)
}

/// Whether a present-tense verb stands between a verb of saying at `from` and the time at
/// `at`: a form of "be" ("the party is"), or an "-s" word right before the time that follows
/// no determiner ("the package arrives on Saturday", not "my parents on Saturday").
fn present_between(t: &[Token<'_>], from: usize, at: usize) -> bool {
    let be = (from + 1..at).any(|k| {
        t.get(k)
            .is_some_and(|w| w.is_any(&["is", "are", "am", "'s", "'re", "är", "er"]))
    });
    let verb_s = |k: usize| {
        t.get(k).is_some_and(|w| {
            w.kind == Kind::Word
                && w.low.len() >= 4
                && w.low.ends_with('s')
                && !w.low.ends_with("ss")
                && !w.low.contains('\'')
        }) && k
            .checked_sub(1)
            .and_then(|p| t.get(p))
            .is_some_and(|p| p.kind == Kind::Word && !p.is_any(DETERMINERS))
    };
    // The time may open with a preposition ("on Saturday"); the verb is just before either.
    let s_verb = (at.saturating_sub(2)..at).any(|k| k > from + 1 && verb_s(k));
    be || s_verb
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::rules::{lang, token::tokenize};
    use rstest::rstest;

    fn sense_of(text: &str, word: &str) -> Sense {
        let t = tokenize(text);
        let lang = lang::guess(&t);
        let at = t.iter().position(|x| x.low == word).unwrap_or(0);
        let c = clause(&t, &(0..t.len()), at);
        sense_at(&t, c, &(at..at + 1), at, lang)
    }

    #[rstest]
    #[case("I met her on Friday", "friday", Sense::Past)]
    #[case("I'll see her on Friday", "friday", Sense::Future)]
    #[case("The release is on Friday", "friday", Sense::Unknown)]
    #[case(
        "We've been kicking around a week in Porto in May",
        "may",
        Sense::Unknown
    )]
    #[case(
        "I'm taking the kids to the dentist on Friday",
        "friday",
        Sense::Future
    )]
    #[case("Hon ringde mig i helgen", "helgen", Sense::Past)]
    #[case("Vi ska åka bort i helgen", "helgen", Sense::Future)]
    #[case("De har købt et hus i weekenden", "weekenden", Sense::Past)]
    #[case("Jeg skal til tandlæge i weekenden", "weekenden", Sense::Future)]
    #[case(
        "I told you earlier, the dinner is on Wednesday",
        "wednesday",
        Sense::Unknown
    )]
    // A plan in a clause of its own after a past verb: the coming Saturday.
    #[case("I promised Lena I'd call her on Saturday", "saturday", Sense::Future)]
    #[case("I'd been there on Saturday", "saturday", Sense::Past)]
    #[case(
        "I was told the package arrives on Saturday",
        "saturday",
        Sense::Unknown
    )]
    #[case("She said the party is on Saturday", "saturday", Sense::Unknown)]
    // Told in the past about a past day: still the past one.
    #[case("I told my parents on Saturday", "saturday", Sense::Past)]
    #[case("I told Lena about it on Saturday", "saturday", Sense::Past)]
    fn nearest_marker_in_the_clause_decides(
        #[case] text: &str,
        #[case] word: &str,
        #[case] expected: Sense,
    ) {
        assert_eq!(
            sense_of(text, word),
            expected,
            "the tense nearest to `{word}` in its own clause sets its sense: {text}"
        );
    }
}
