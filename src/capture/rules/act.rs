//! Act kinds (seed 004: "who said it changes what it is worth") from rule-based cues in
//! English, Swedish and Danish, one sentence at a time. Only the user corrects; the assistant
//! walking back its own claim retracts. Hedged intentions and other people's promises are
//! observations (shared/data/capture/README.md, rules 2 to 7).

use std::ops::Range;

use super::cues::{self, find};
use super::lang::Lang;
use super::segment::Class;
use super::token::{Kind, Token};
use crate::model::{ActKind, Role};

/// What the classifier knows about a sentence besides its words.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    /// Who wrote it.
    pub role: Role,
    /// The message language.
    pub lang: Lang,
    /// It names a usable time.
    pub has_time: bool,
    /// One of its times lies ahead of the message time.
    pub ahead: bool,
    /// Named people in it.
    pub people: usize,
    /// Proper nouns in it.
    pub proper: usize,
}

/// The class and cue kind of the sentence at tokens `range`.
pub(crate) fn classify(
    t: &[Token<'_>],
    range: &Range<usize>,
    cx: &Context,
) -> (Class, Option<ActKind>) {
    let toks = &t[range.clone()];
    let all: Vec<&str> = toks.iter().map(|w| w.low.as_str()).collect();
    let words: Vec<&str> = toks
        .iter()
        .filter(|w| w.kind == Kind::Word)
        .map(|w| w.low.as_str())
        .collect();
    let digits = toks.iter().any(|w| w.kind == Kind::Number);
    let question = toks
        .iter()
        .rev()
        .find(|w| w.kind == Kind::Punct && !w.is_any(&["\"", ")", "'"]))
        .is_some_and(|w| w.is("?"));
    // Weather and day chat says nothing to keep, whatever its time word suggests ("Sikke et
    // vejr i dag" reads as a plan for today).
    if !digits && small_talk(&words, cx) {
        return (Class::Social, None);
    }
    let kind = kind_of(t, range, &all, &words, cx, question);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));

    let class =
        if (words.is_empty() && !digits) || (kind.is_none() && !digits && social(&words, cx)) {
            Class::Social
        } else if kind.is_some_and(|k| k != ActKind::Commitment)
            && words.len() <= 5
            && !cx.has_time
            && !digits
            && cx.proper == 0
        {
            // "That's not right.", "My mistake.", "Decision made." A short promise ("I'll call
            // her.") always says what is promised, so it is content.
            Class::Marker(kind)
        } else if question && kind.is_none() {
            // "How do I convert ...?" asks for a fact; "Can you remind me ...?" is about the user.
            let how_do_i = |k: usize| {
                k > 0
                    && [
                        "do", "can", "should", "could", "would", "kan", "ska", "skal", "bør",
                        "borde",
                    ]
                    .contains(&words[k - 1])
            };
            let own =
                words.iter().enumerate().any(|(k, w)| {
                    cues::first_person(w, cx.lang, false) && !(*w == "i" && how_do_i(k))
                }) || cx.people > 0;
            if cx.role == Role::User && own {
                Class::Content
            } else {
                Class::Lookup
            }
        } else if cx.role != Role::User
            && kind.is_none()
            && !has(cues::SECOND_PERSON)
            && !words.iter().any(|w| cues::first_person(w, cx.lang, false))
            && cx.people == 0
        {
            // The assistant stating a plain fact nobody in the conversation owns: a lookup answer.
            Class::Lookup
        } else if words.len() <= 3
            && kind.is_none()
            && !digits
            && !cx.has_time
            && cx.proper == 0
            && !says_something_about_self(&words)
            // A standing instruction ("Always answer briefly", "Svara alltid kort") is short
            // but no aside: it tells the assistant how to act from now on.
            && !crate::consolidate::procedures::opens_instruction(&words)
        {
            Class::Minor
        } else {
            Class::Content
        };
    (class, kind)
}

/// Small talk: only social words ("ok sounds good, thanks!"), or a short sentence built around
/// thanks or a greeting, even with a time or a reason ("Tak for i går!", "No problem, thanks
/// for sorting it.").
fn social(words: &[&str], cx: &Context) -> bool {
    let only_social = !cx.has_time && words.iter().all(|w| cues::SOCIAL.contains(w));
    let anchored = words
        .iter()
        .take(3)
        .any(|w| cues::SOCIAL_ANCHORS.contains(w))
        || cues::SOCIAL_PHRASES
            .iter()
            .any(|p| find(words, p).is_some_and(|k| k <= 1));
    // A thanks or greeting may name whom it is for ("Thanks, Mell!", "Hej Erik!"): one name
    // in a sentence of at most three words is that vocative, not a person the memory is about.
    let vocative = cx.proper == 1 && words.len() <= 3;
    only_social || (anchored && (cx.proper == 0 || vocative) && words.len() <= 8)
}

/// A short first-person sentence that says something about the speaker ("I love sushi.",
/// "I'm vegan.", "Jeg hader koriander."), as opposed to an acknowledgement ("I see.", "I
/// agree.", "Jag förstår."): it is content however short.
fn says_something_about_self(words: &[&str]) -> bool {
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    cues::FIRST_PERSON_SUBJECT.contains(first)
        && rest
            .iter()
            .any(|w| !cues::SOCIAL.contains(w) && !cues::ACKNOWLEDGING.contains(w))
}

/// Chat about the weather or the day, time word or not ("nice weather today", "vilket
/// väder i dag!", "sikke et vejr"): a short sentence made only of a small-talk topic, its
/// fillers and social words, naming nobody. A time word does not make it a memory (issue 7,
/// MEM-26: "today" turned "nice weather today" into an observation).
fn small_talk(words: &[&str], cx: &Context) -> bool {
    cx.proper == 0
        && cx.people == 0
        && words.len() <= 8
        && words.iter().any(|w| cues::SMALL_TALK_TOPICS.contains(w))
        && words.iter().all(|w| {
            cues::SMALL_TALK_TOPICS.contains(w)
                || cues::SMALL_TALK_FILLER.contains(w)
                || cues::SOCIAL.contains(w)
        })
}

fn kind_of(
    t: &[Token<'_>],
    range: &Range<usize>,
    all: &[&str],
    words: &[&str],
    cx: &Context,
    question: bool,
) -> Option<ActKind> {
    let hedged = cues::any(all, cues::HEDGES) || modal_may(t, range);
    let first_person = words.iter().any(|w| cues::first_person(w, cx.lang, true));
    let decision = (first_person && cues::any(all, cues::DECISION))
        || cues::any(all, cues::DECISION_BARE)
        || negative_choice(words)
        || negated_plan(t, range, cx);
    // A question promises nothing: only the statement before a tag may ("I'll send it on
    // Friday, okay?").
    let promising = if question {
        stated_before_tag(all)
    } else {
        all.len()
    };
    // "Can you remind me to call the plumber tomorrow?" asks for a reminder: a to-do of the
    // user's, question or not.
    let reminded = cx.role == Role::User && reminder(all);
    let commitment = promise(&all[..promising])
        || plan(t, &(range.start..range.start + promising), cx)
        || reminded;
    let contrast = contrast(all);
    match cx.role {
        Role::User => {
            if cues::any(all, cues::CORRECTION) {
                Some(ActKind::Correction)
            } else if decision && !hedged {
                Some(ActKind::Decision)
            } else if commitment && !hedged {
                Some(ActKind::Commitment)
            } else if !hedged
                && (contrast
                    || (denial(all) && (cx.has_time || copula(words)))
                    || actually(all, cx))
            {
                Some(ActKind::Correction)
            } else {
                None
            }
        }
        _ => {
            let apology = cues::any(all, cues::APOLOGY);
            if cues::any(all, cues::RETRACTION) || (apology && contrast) {
                Some(ActKind::Retraction)
            } else if commitment && !hedged {
                Some(ActKind::Commitment)
            } else if decision && !hedged {
                Some(ActKind::Decision)
            } else {
                None
            }
        }
    }
}

/// The longest question tag after a statement, in words ("okay", "is that ok", "eller
/// hur", "ikke også").
const TAG_WORDS: usize = 3;

/// Words that open a question: the auxiliary of a yes/no question or a question word.
#[rustfmt::skip]
const QUESTION_OPENERS: &[&str] = &[
    "should", "shall", "can", "could", "will", "would", "do", "does", "did", "am", "is", "are",
    "what", "when", "where", "why", "how", "which", "who", "ska", "skall", "skulle", "kan",
    "borde", "vad", "när", "var", "varför", "hur", "vilken", "vem", "skal", "bør",
    "hvad", "hvornår", "hvor", "hvorfor", "hvordan", "hvilken", "hvem",
];

/// How many of a question's tokens `all` (ending in "?") state something rather than ask:
/// the part before a short tag after a comma ("I'll call you tomorrow, *okay?*", "Jag
/// ringer dig i morgon, *eller hur?*"), else none. A question asks the listener, so no
/// commitment cue inside it promises anything: a fresh user's "What should I cook tonight?"
/// became a commitment (and an open item) because "I cook" with a time ahead reads as a
/// plan; "Should I call her tomorrow?", "Ska jag ringa henne i morgon?", "Skal jeg ringe i
/// morgen?" and "Shall I remind you on Friday?" ask for advice or offer, and promise
/// nothing either.
fn stated_before_tag(all: &[&str]) -> usize {
    let Some(comma) = all.iter().rposition(|w| *w == ",") else {
        return 0;
    };
    let tag = all[comma + 1..]
        .iter()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count();
    // "Should I call her tomorrow, or wait?": the part before the comma asks too.
    let asks = all
        .iter()
        .find(|w| w.chars().any(char::is_alphanumeric))
        .is_some_and(|w| QUESTION_OPENERS.contains(w));
    if (1..=TAG_WORDS).contains(&tag) && !asks {
        comma
    } else {
        0
    }
}

/// Lower-case "may" is the modal ("it may not happen"); "May" is the month.
fn modal_may(t: &[Token<'_>], range: &Range<usize>) -> bool {
    t[range.clone()]
        .iter()
        .any(|w| w.is("may") && !w.is_capitalised())
}

/// "X, not Y", "not X but Y", "inte X utan Y", "ikke X – det var Y": a value set against
/// another, the shape of a correction.
fn contrast(all: &[&str]) -> bool {
    #[rustfmt::skip]
    const SHAPES: &[&str] = &[
        ", not", ", inte", ", ikke", "– not", "— not", "- not", "– inte", "— inte", "- inte",
        "– ikke", "— ikke", "- ikke", "and not", "not * but", "inte * utan", "ikke * men",
        "isn't * it's", "not * – it", "not * — it", "inte * – det", "inte * — det", "ikke * – det",
        "ikke * — det", "ikke * - det", "inte * - det",
    ];
    cues::any(all, SHAPES)
}

/// A sentence opening with a denial ("No, ...", "Och nej, ...", "Nej, ..."), not an
/// exclamation ("No way", "Nej men ...") or a refusal ("No thanks").
fn denial(all: &[&str]) -> bool {
    let mut i = 0;
    if all
        .first()
        .is_some_and(|w| ["and", "och", "og", "but", "men"].contains(w))
    {
        i = 1;
    }
    let opens = all
        .get(i)
        .is_some_and(|w| ["no", "nope", "nah", "nej", "nä", "nix"].contains(w));
    let next = all.get(i + 1).copied();
    let after = all.get(i + 2).copied();
    opens
        && next.is_none_or(|n| [",", ".", "!", "–", "—", "-", ":"].contains(&n))
        && after.is_none_or(|a| !cues::NOT_A_DENIAL.contains(&a))
}

fn copula(words: &[&str]) -> bool {
    const BE: &[&str] = &[
        "is", "are", "was", "were", "it's", "that's", "är", "var", "er", "blir", "bliver",
    ];
    words.iter().any(|w| BE.contains(w))
}

/// "Actually, ..." with a value: "Actually, the dinner is at eight."
fn actually(all: &[&str], cx: &Context) -> bool {
    let opens = all
        .first()
        .is_some_and(|w| ["actually", "egentligen", "faktisk"].contains(w));
    opens && all.get(1) == Some(&",") && cx.has_time
}

/// A promise cue not followed by a stance verb ("I'll believe it ..."), and not the "I'll see"
/// of a hedge.
fn promise(all: &[&str]) -> bool {
    cues::COMMITMENT.iter().any(|phrase| {
        cues::find_all(all, phrase).any(|k| {
            let mut next = k + phrase.split(' ').count();
            if all.get(next).is_some_and(|w| {
                ["also", "just", "definitely", "then", "också", "også", "nok"].contains(w)
            }) {
                next += 1;
            }
            let word = all.get(next).copied();
            let stance = word.is_some_and(|w| cues::NOT_A_PROMISE.contains(&w));
            let wait_and_see = word == Some("see")
                && all.get(next + 1).is_none_or(|w| {
                    [
                        "if", "how", "what", "whether", "when", "about", ".", ",", "!",
                    ]
                    .contains(w)
                });
            let asked = k > 0 && ["if", "om", "hvis", "when", "unless"].contains(&all[k - 1]);
            word.is_some() && !stance && !wait_and_see && !asked
        })
    })
}

/// A firm plan in the present tense with a time ahead: "I'm taking the kids ... next Friday",
/// "Jag skickar offerten ... senast på fredag", "Om en halv time tjekker jeg".
fn plan(t: &[Token<'_>], range: &Range<usize>, cx: &Context) -> bool {
    if !cx.ahead {
        return false;
    }
    let w = |i: usize| {
        t.get(i)
            .filter(|_| range.contains(&i))
            .map(|x| x.low.as_str())
    };
    let acts = |v: &str| !cues::STATIVE.contains(&v) && v.len() > 2;
    range.clone().any(|i| match (cx.lang, w(i)) {
        (Lang::En, Some("i'm" | "we're")) => {
            w(i + 1).is_some_and(|v| v.ends_with("ing") && acts(v))
        }
        (Lang::En, Some("i" | "we")) => match w(i + 1) {
            Some("am" | "are") => w(i + 2).is_some_and(|v| v.ends_with("ing") && acts(v)),
            // A past form is no plan, regular or not: "I bought shoes today" is done.
            Some(v) => {
                acts(v)
                    && !v.ends_with("ed")
                    && !super::tense::EN_PAST.contains(&v)
                    && !v.contains('\'')
                    && !AUX.contains(&v)
            }
            None => false,
        },
        (Lang::Sv | Lang::Da, Some("jag" | "jeg" | "vi")) => {
            // "Jag åker inte …": the plan is refused, not made (see `negated_plan`).
            let negated = |at: usize| w(at).is_some_and(|n| NOT.contains(&n));
            (w(i + 1).is_some_and(nordic_present) && !negated(i + 2))
                || (i > range.start && w(i - 1).is_some_and(nordic_present) && !negated(i + 1))
        }
        _ => false,
    })
}

/// Negations right after a plan's verb ("Jag åker *inte* …", "Jeg kommer *ikke* …").
const NOT: &[&str] = &["inte", "ikke", "not", "aldrig", "never"];

/// A Swedish or Danish plan in the present tense said with a negation after its verb, with a
/// time ahead ("Jag kommer inte att gå på festen på fredag", "Vi åker inte till stugan i
/// helgen", "Jeg kommer ikke til festen på fredag"): choosing not to do something (rule 4), a
/// decision, never a to-do. [`plan`] refuses these: read as plans they became open items due
/// on the very day the user said they would not act.
fn negated_plan(t: &[Token<'_>], range: &Range<usize>, cx: &Context) -> bool {
    if !cx.ahead || !matches!(cx.lang, Lang::Sv | Lang::Da) {
        return false;
    }
    let w = |i: usize| {
        t.get(i)
            .filter(|_| range.contains(&i))
            .map(|x| x.low.as_str())
    };
    range.clone().any(|i| {
        matches!(w(i), Some("jag" | "jeg" | "vi"))
            && w(i + 1).is_some_and(nordic_present)
            && w(i + 2).is_some_and(|n| NOT.contains(&n))
    })
}

/// A Swedish or Danish present-tense verb that acts ("åker", "sender", "kommer").
fn nordic_present(v: &str) -> bool {
    v.ends_with('r') && !cues::STATIVE.contains(&v) && v.len() > 2 && !NOT_VERBS.contains(&v)
}

/// Whether the user asks to be reminded of something to do ([`cues::REMINDER`]: "Remind me to
/// call the plumber", "Påminn mig om att köpa present", "Mind mig om at betale husleje", "Can
/// you remind me to …?"): the request must say what or when after it
/// ([`cues::REMINDED_OF`]), so "You remind me of my sister" and "Can you remind me what the
/// code was?" are none, and a negation before it ("Don't remind me") refuses it.
fn reminder(all: &[&str]) -> bool {
    const REFUSED: &[&str] = &[
        "don't", "not", "never", "stop", "inte", "aldrig", "sluta", "ikke", "lad", "hold",
    ];
    cues::REMINDER.iter().any(|phrase| {
        cues::find_all(all, phrase).any(|k| {
            let next = all.get(k + phrase.split(' ').count()).copied();
            let refused = k > 0 && REFUSED.contains(&all[k - 1]);
            next.is_some_and(|n| cues::REMINDED_OF.contains(&n)) && !refused && asked(all, k)
        })
    })
}

/// Whether the words of the clause before `k` only ask the listener ("*Please* remind me",
/// "*Can you* remind me", "*Kan du* påminna mig", "*Hej,* mind mig"): the reminder is a
/// request, not something that reminds ("these moments remind me to slow down", "a painting
/// to remind me to stay true", LoCoMo conv-41/42/43).
fn asked(all: &[&str], k: usize) -> bool {
    #[rustfmt::skip]
    const ASKING: &[&str] = &[
        "please", "pls", "plz", "kindly", "just", "and", "also", "so", "oh", "hey", "hi", "ok",
        "okay", "can", "could", "will", "would", "you", "btw", "snälla", "kan", "du", "kunde",
        "skulle", "vill", "och", "också", "hej", "vil", "kunne", "lige", "venligst", "gerne",
        "og", "også",
    ];
    all[..k]
        .iter()
        .rev()
        .take_while(|w| w.chars().any(char::is_alphanumeric))
        .all(|w| ASKING.contains(w))
}

const AUX: &[&str] = &[
    "will", "would", "could", "should", "can", "can't", "cannot", "don't", "didn't", "won't",
    "might", "may", "must", "do", "did", "just", "also", "never", "still", "think", "really",
];

/// Words ending in -r that are not present-tense verbs.
#[rustfmt::skip]
const NOT_VERBS: &[&str] = &[
    "när", "eller", "hur", "där", "här", "efter", "under", "över", "mer", "för", "der", "her",
    "når", "hvor", "over", "for", "før", "mere", "senere", "tidligere", "aldrig", "altid", "sedan",
    "nu", "år", "timer",
];

/// "We're not renewing the lease", "I'm not going to", "vi ska inte": choosing not to.
fn negative_choice(words: &[&str]) -> bool {
    #[rustfmt::skip]
    const SHAPES: &[&str] = &[
        "we're not going to", "we are not going to", "i'm not going to", "i am not going to",
        "vi ska inte", "jag ska inte", "vi kommer inte att", "vi skal ikke", "jeg skal ikke",
        "jag kommer inte att", "jeg kommer ikke til at", "vi kommer ikke til at",
    ];
    if cues::any(words, SHAPES) {
        return true;
    }
    // "Vi tager ikke med alligevel", "I'm not coming after all": a plan dropped.
    let dropped = ["alligevel", "ändå", "anymore", "längre", "mere"]
        .iter()
        .any(|w| words.contains(w))
        || cues::find(words, "after all").is_some();
    let subject = words
        .first()
        .is_some_and(|w| ["we", "we're", "i", "i'm", "vi", "jag", "jeg"].contains(w));
    let negated = words
        .iter()
        .any(|w| ["not", "inte", "ikke", "won't", "don't"].contains(w));
    if dropped && subject && negated {
        return true;
    }
    let act = |v: &str| v.ends_with("ing") && !cues::STATIVE.contains(&v) && v != "going";
    words.windows(3).any(|w| {
        let subject = matches!(w[0], "we're" | "i'm") && w[1] == "not";
        subject && act(w[2])
    }) || words.windows(4).any(|w| {
        // "WE ARE NOT SELLING the cottage": the same choice without the contraction.
        matches!((w[0], w[1]), ("we", "are") | ("i", "am")) && w[2] == "not" && act(w[3])
    }) || words
        .windows(3)
        .any(|w| matches!(w[0], "we" | "i") && w[1] == "won't" && w[2] != "be")
        // "I will not go to the party": "won't" said in full.
        || words.windows(4).any(|w| {
            matches!(w[0], "we" | "i") && w[1] == "will" && w[2] == "not" && w[3] != "be"
        })
}

#[cfg(test)]
mod tests;
