//! Procedures only from explicit instructions (seed 003: "always offer three time slots";
//! repetition alone never creates one). An instruction is a clause that opens with
//! "always"/"never" (English imperative), an imperative verb followed by
//! "alltid"/"aldrig"/"altid" (Swedish and Danish word order: "svara alltid kort", "skriv altid
//! på dansk"), or "from now on" / "från och med nu" / "fremover". "I always go running" and
//! "Oskar always complains" describe habits, not instructions to the assistant.

use super::words::{self, Word, is_boundary};

const TRIGGERS: &[&str] = &["always", "never", "alltid", "aldrig", "altid"];

const FROM_NOW_ON: &[&str] = &[
    "from now on",
    "från och med nu",
    "hädanefter",
    "framöver",
    "fremover",
    "fra nu af",
    "fra nu",
];

/// Words that may open a clause before the instruction itself.
const LEADERS: &[&str] = &[
    "please", "and", "so", "but", "also", "snälla", "och", "så", "men", "også", "og", "venligst",
    "också",
];

/// Imperatives that take "alltid"/"altid"/"always" right after them.
const IMPERATIVES: &[&str] = &[
    "svara",
    "skriv",
    "använd",
    "ge",
    "föreslå",
    "boka",
    "håll",
    "ring",
    "skicka",
    "påminn",
    "fråga",
    "tala",
    "gör",
    "erbjud",
    "svar",
    "brug",
    "giv",
    "foreslå",
    "hold",
    "send",
    "spørg",
    "påmind",
    "lav",
    "gør",
    "tal",
    "tilbyd",
    "book",
    "answer",
    "reply",
    "write",
    "use",
    "give",
    "keep",
    "ask",
    "remind",
    "offer",
    "respond",
];

/// The instruction sentences in `text`, verbatim, in order. `text` must be the user's words.
pub fn extract(text: &str) -> Vec<String> {
    let all = words::tokenize(text);
    let mut out = Vec::new();
    for s in words::sentences(text, &all) {
        let w = &all[s];
        if w.is_empty() || w.last().is_some_and(|x| x.low == "?") || super::facts::is_hedged(w) {
            continue;
        }
        if clauses(w).any(instruction) || opens_from_now_on(w) {
            let (Some(a), Some(b)) = (w.first(), w.iter().rev().find(|x| !x.punct).or(w.last()))
            else {
                continue;
            };
            let sentence = text[a.span.start..b.span.end].trim().to_string();
            if !out.contains(&sentence) {
                out.push(sentence);
            }
        }
    }
    out
}

/// Imperatives about how to answer: repeated often enough, one of these may become a
/// procedure, but only through a confirmation request (seed 003).
const STYLE_IMPERATIVES: &[&str] = &[
    "answer", "reply", "respond", "write", "keep", "use", "speak", "svara", "skriv", "använd",
    "håll", "tala", "svar", "brug", "hold", "tal",
];

/// Courtesy words that may close a request ("keep it short, *please*", "svara kort, *tack*",
/// "svar kort, *tak*"): left out of the request's words, as a leading "please" is, so the
/// same request said with and without them is recognised as the same.
const COURTESIES: &[&str] = &["please", "thanks", "tack", "snälla", "tak", "venligst"];

/// Requests about how to answer that are not standing instructions ("keep it short",
/// "svara på svenska"), in the user's words without a closing courtesy: said again and again
/// they may raise a confirmation request, never a procedure by themselves.
pub fn requests(text: &str) -> Vec<String> {
    let all = words::tokenize(text);
    let mut out = Vec::new();
    for s in words::sentences(text, &all) {
        let w = &all[s];
        if w.last().is_some_and(|x| x.low == "?") || super::facts::is_hedged(w) {
            continue;
        }
        if clauses(w).any(instruction) || opens_from_now_on(w) {
            continue;
        }
        let skip = w
            .iter()
            .take_while(|x| LEADERS.contains(&x.low.as_str()))
            .count();
        let content: Vec<&Word> = w[skip..].iter().filter(|x| !x.punct).collect();
        let opens = content
            .first()
            .is_some_and(|x| STYLE_IMPERATIVES.contains(&x.low.as_str()));
        let kept = content.len()
            - content
                .iter()
                .rev()
                .take_while(|x| COURTESIES.contains(&x.low.as_str()))
                .count();
        if let (true, true, Some(a), Some(b)) = (
            opens,
            content.len() >= 3,
            content.first(),
            content[..kept].last(),
        ) {
            let sentence = text[a.span.start..b.span.end].to_string();
            if !out.contains(&sentence) {
                out.push(sentence);
            }
        }
    }
    out
}

fn clauses(w: &[Word]) -> impl Iterator<Item = &[Word]> {
    w.split(is_boundary).filter(|c| !c.is_empty())
}

fn instruction(clause: &[Word]) -> bool {
    let skip = clause
        .iter()
        .take_while(|x| LEADERS.contains(&x.low.as_str()))
        .count();
    let c = &clause[skip..];
    let Some(first) = c.first() else { return false };
    if TRIGGERS.contains(&first.low.as_str()) {
        return c.len() >= 3;
    }
    let second = c.get(1).is_some_and(|x| TRIGGERS.contains(&x.low.as_str()));
    second && IMPERATIVES.contains(&first.low.as_str()) && c.len() >= 3
}

/// "From now on, reply in Swedish", "Fremover skal du skrive kort": the sentence opens with
/// the phrase and goes on.
fn opens_from_now_on(w: &[Word]) -> bool {
    let skip = w
        .iter()
        .take_while(|x| LEADERS.contains(&x.low.as_str()))
        .count();
    let c = &w[skip..];
    FROM_NOW_ON.iter().any(|p| {
        let n = p.split(' ').count();
        words::matches_at(c, 0, p) && c[n..].iter().filter(|x| !x.punct).count() >= 2
    })
}

/// The lowercased words of an instruction, to find the same one said twice.
pub fn norm(instruction: &str) -> String {
    words::tokenize(instruction)
        .into_iter()
        .filter(|w| !w.punct)
        .map(|w| w.low)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::en("Always offer three time slots when I ask for a meeting.")]
    #[case::en_clause("When I ask for a meeting, always offer three time slots.")]
    #[case::sv("Svara alltid kort.")]
    #[case::da("Skriv altid på dansk til mig.")]
    #[case::never("Never schedule anything before 9am.")]
    #[case::from_now_on("From now on, reply in Swedish.")]
    fn instruction_found(#[case] text: &str) {
        assert_eq!(
            extract(text).len(),
            1,
            "`{text}` is an explicit instruction: one procedure"
        );
    }

    #[test]
    fn a_style_request_is_a_pattern_not_an_instruction() {
        assert_eq!(
            requests("Keep it short, please."),
            ["Keep it short"],
            "a one-off request is a pattern, in the user's words without the courtesy"
        );
        assert!(
            extract("Keep it short, please.").is_empty(),
            "and not a standing instruction"
        );
        assert!(
            requests("Always keep it short.").is_empty(),
            "an explicit instruction is not a mere pattern"
        );
        assert!(
            requests("Give me a recipe for dinner.").is_empty(),
            "only requests about how to answer count"
        );
    }

    /// The same request with or without a closing courtesy is one pattern, so its
    /// repetitions are counted together (they once were three different patterns, and the
    /// confirmation request never came).
    #[rstest::rstest]
    #[case::en(&["Keep it short.", "Keep it short, please.", "Please keep it short"], "keep it short")]
    #[case::sv(&["Svara kort, tack.", "Snälla, svara kort tack!", "Svara kort, snälla."], "svara kort")]
    #[case::da(&["Svar kort, tak.", "Svar kort, venligst.", "Venligst svar kort, tak."], "svar kort")]
    fn a_courtesy_does_not_make_another_request(#[case] said: &[&str], #[case] same: &str) {
        for text in said {
            let found: Vec<String> = requests(text).iter().map(|r| norm(r)).collect();
            assert_eq!(found, [same], "`{text}` is the request `{same}`");
        }
    }

    #[rstest::rstest]
    #[case::habit("I always go running on Sundays.")]
    #[case::other_person("Oskar always complains about football.")]
    #[case::question("Do you always answer this fast?")]
    #[case::you("You always forget my name.")]
    #[case::hedge("Maybe always offer three slots.")]
    fn no_instruction(#[case] text: &str) {
        assert!(
            extract(text).is_empty(),
            "`{text}` is not an instruction to the assistant"
        );
    }
}
