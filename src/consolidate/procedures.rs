//! Procedures only from explicit instructions (seed 003: "always offer three time slots";
//! repetition alone never creates one). An instruction is a clause that opens with
//! "always"/"never" (English imperative), an imperative verb followed by
//! "alltid"/"aldrig"/"altid" (Swedish and Danish word order: "svara alltid kort", "skriv altid
//! på dansk"), or "from now on" / "från och med nu" / "fremover". "I always go running" and
//! "Oskar always complains" describe habits, not instructions to the assistant.
//!
//! Only the user's own instruction counts (seed 003): one they pass on from somebody else is
//! none, whether quoted (`My colleague wrote "Always send my files to the shared drive"`,
//! `> Always …`, »…«, „…“) or reported (`My boss said, always cc him`, "Min chef sa: svara
//! alltid …", "Chefen sagde: skriv altid …"); see [`passed_on`]. Nor is it a request pattern.

use std::ops::Range;

use super::lexicon::REPORTING;
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
        if follows_a_passing_on(text, w) {
            continue;
        }
        let own = clause_ranges(w).any(|c| instruction(&w[c.clone()]) && !passed_on(text, w, c));
        if own || (opens_from_now_on(w) && !passed_on(text, w, 0..w.len())) {
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
        // Somebody else's request, quoted ("\"Keep it short,\" she said", `> Keep it short`),
        // is no request of the user's.
        if passed_on(text, w, 0..w.len()) || follows_a_passing_on(text, w) {
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

/// The clauses of [`clauses`] as ranges of `w`, so a clause can be looked at in its sentence.
fn clause_ranges(w: &[Word]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = 0;
    (0..=w.len()).filter_map(move |i| {
        if i < w.len() && !is_boundary(&w[i]) {
            return None;
        }
        let clause = start..i;
        start = i + 1;
        (!clause.is_empty()).then_some(clause)
    })
}

/// Verbs of passing words on, besides those of the fact rules ([`REPORTING`]).
#[rustfmt::skip]
const PASSING_ON: &[&str] = &[
    "replied", "answered", "texted", "emailed", "messaged", "asked", "svarade", "berättade",
    "frågade", "sms:ade", "mejlade", "svarede", "fortalte", "spurgte", "sent", "forwarded",
    "skickade", "vidarebefordrade", "sendte", "videresendte",
];

/// Who the words were said to, between the verb and what was said ("told *me*: …", "sa *till
/// mig*: …", "sagde *til os*, …").
#[rustfmt::skip]
const SAID_TO: &[&str] = &[
    "me", "us", "you", "him", "her", "them", "to", "mig", "oss", "dig", "honom", "henne",
    "dem", "till", "os", "ham", "hende", "jer", "til",
];

/// Words that name whose words follow, whatever comes between ("*according to* my boss,
/// always …", "*enligt* chefen: svara alltid …", "*ifølge* chefen …").
const SOURCES: &[&str] = &["according", "enligt", "ifølge"];

/// The user speaking of their own words ("As *I* said, always …", "som *jag* sa", "som *jeg*
/// sagde"): what follows is still their instruction.
const FIRST_PERSON: &[&str] = &["i", "we", "jag", "vi", "jeg"];

/// Whether the clause `c` of the sentence `w` is somebody else's words that the user passes
/// on, not their own instruction: its first word (after [`LEADERS`]) sits inside quotation
/// marks ("", “”, ”…”, «», »«, „“) or on a `>` line; or a verb of saying introduces it ("My
/// colleague *wrote*: always …", "Oskar *told me*, always …", "Min chef *sa*: svara alltid
/// …", "Chefen *sagde*, skriv altid …", with nothing between but whom it was said to), or a
/// source comes before it ("according to my boss, always …"), and the user is not the one
/// who said it ("As I said, always …"). "When Anna says hi, always answer in Swedish" is the
/// user's instruction: the verb has its own object, so it introduces no words.
fn passed_on(text: &str, w: &[Word], c: Range<usize>) -> bool {
    let first = w[c.clone()]
        .iter()
        .position(|x| !x.punct && !LEADERS.contains(&x.low.as_str()))
        .map_or(c.start, |i| c.start + i);
    if super::facts::is_quoted(text, w, first) {
        return !names_own_rule(&w[..first]);
    }
    introduced_before(w, c.start.min(w.len()))
}

/// Whether words of somebody else's are introduced before position `start` of `w`: a verb of
/// saying with nothing after it up to `start` but whom it was said to, or a source, and the
/// user not the one who said it (see [`passed_on`]).
fn introduced_before(w: &[Word], start: usize) -> bool {
    (0..start).any(|i| {
        let verb = w[i].low.as_str();
        let introduces = SOURCES.contains(&verb)
            || ((REPORTING.contains(&verb) || PASSING_ON.contains(&verb))
                && w[i + 1..start]
                    .iter()
                    .all(|x| x.punct || SAID_TO.contains(&x.low.as_str())));
        introduces
            && !w[i.saturating_sub(3)..i]
                .iter()
                .any(|x| FIRST_PERSON.contains(&x.low.as_str()))
    })
}

/// Nouns by which the user hands over a rule of their own in quotation marks ('Add this
/// *rule*: "Always …"', 'Ny *regel*: ”Svara alltid …”').
const OWN_RULE: &[&str] = &[
    "rule",
    "rules",
    "instruction",
    "instructions",
    "regel",
    "regeln",
    "regler",
    "reglen",
    "instruktion",
    "instruktionen",
];

/// Whether the words before a quotation (`before`) name it as the user's own rule: a noun
/// of [`OWN_RULE`] and no verb of saying or source, so 'Add this rule: "Always …"' is the
/// user's and 'My boss wrote this rule: "Always …"' is not.
fn names_own_rule(before: &[Word]) -> bool {
    before.iter().any(|x| OWN_RULE.contains(&x.low.as_str()))
        && !before.iter().any(|x| {
            let v = x.low.as_str();
            REPORTING.contains(&v) || PASSING_ON.contains(&v) || SOURCES.contains(&v)
        })
}

/// Whether the sentence `w` of `text` comes right after a line that introduces somebody
/// else's words ([`lead_passes_on`]: "My colleague wrote:" and, below it, "Always …").
fn follows_a_passing_on(text: &str, w: &[Word]) -> bool {
    w.first()
        .is_some_and(|first| lead_passes_on(&text[..first.span.start]))
}

/// Whether `lead`, the words of a message before an episode, introduces somebody else's
/// words on the lines that follow: a line of its last paragraph ends with a colon after a
/// verb of saying ("My colleague wrote:", "Min chef skrev:", "Chefen sagde til mig:"), so an
/// instruction pasted below it is passed on, not the user's (capture makes the lead-in an
/// episode of its own, so the instruction's episode alone cannot tell).
pub fn lead_passes_on(lead: &str) -> bool {
    // The lines of the paragraph the words are in, from the nearest back: a pasted message
    // runs until a blank line ("My colleague wrote:\nPlease review.\nAlways attach the PDF.").
    let paragraph = lead.rsplit("\n\n").next().unwrap_or(lead);
    paragraph.lines().any(|line| {
        let line = line.trim_end();
        if !line.ends_with(':') {
            return false;
        }
        let w = words::tokenize(line);
        introduced_before(&w, w.len())
    })
}

fn instruction(clause: &[Word]) -> bool {
    let words: Vec<&str> = clause.iter().map(|x| x.low.as_str()).collect();
    opens_instruction(&words)
}

/// Whether a clause's lowercased words (`clause`, marks included) open as a standing
/// instruction: "always"/"never" first (the English imperative: "Always answer briefly"), or
/// an imperative with "alltid"/"aldrig"/"altid" after it (Swedish and Danish word order:
/// "Svara alltid kort", "Skriv altid på dansk"), after any [`LEADERS`], at least three words
/// in all. Capture reads the same rule, so an instruction it encodes is never a mere routine
/// aside whatever the language.
pub(crate) fn opens_instruction(clause: &[&str]) -> bool {
    let skip = clause.iter().take_while(|x| LEADERS.contains(x)).count();
    let c = &clause[skip..];
    let Some(first) = c.first() else { return false };
    if TRIGGERS.contains(first) {
        return c.len() >= 3 && !inverted_statement(&c[1..]);
    }
    let second = c.get(1).is_some_and(|x| TRIGGERS.contains(x));
    second && IMPERATIVES.contains(first) && c.len() >= 3
}

/// Words after "never"/"aldrig" that say "again" or "ever" before the verb.
const AGAIN: &[&str] = &["again", "ever", "more", "mer", "mera", "mere", "igen"];

/// Auxiliaries that come before their subject after a fronted "never"/"always".
const AUXILIARIES: &[&str] = &[
    "will", "would", "shall", "should", "have", "had", "did", "do", "does", "can", "could", "am",
    "was", "were", "ska", "skall", "kommer", "har", "hade", "kan", "vill", "blir", "var", "är",
    "vil", "skal", "havde", "er",
];

/// Subject pronouns: one right after the auxiliary makes the clause a statement.
const SUBJECTS: &[&str] = &[
    "i", "we", "you", "he", "she", "they", "jag", "vi", "du", "han", "hon", "de", "dom", "jeg",
    "hun",
];

/// Whether the words after a fronted "never"/"always" (`rest`) are a statement with its
/// subject after the verb, not an imperative: "Never again will I fly Ryanair", "Aldrig mer
/// ska jag flyga", "Aldrig mere vil jeg", "Always have I loved the sea". A fresh user's vow was
/// stored as a standing instruction to the assistant.
fn inverted_statement(rest: &[&str]) -> bool {
    let skip = rest.iter().take_while(|x| AGAIN.contains(x)).count();
    let r = &rest[skip..];
    match r {
        [first, ..] if SUBJECTS.contains(first) => true,
        [aux, subject, ..] => AUXILIARIES.contains(aux) && SUBJECTS.contains(subject),
        _ => false,
    }
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

    #[test]
    fn the_users_own_rule_in_quotation_marks_is_theirs() {
        assert_eq!(
            extract(r#"Add this rule: "Always offer three time slots.""#),
            [r#"Add this rule: "Always offer three time slots"#]
        );
        assert_eq!(
            extract("Ny regel: ”Svara alltid kort.”"),
            ["Ny regel: ”Svara alltid kort"]
        );
        assert!(extract(r#"My boss wrote this rule: "Always cc him on invoices.""#).is_empty());
        assert!(extract(r#"My colleague wrote "Always send my files to the drive"."#).is_empty());
    }

    #[test]
    fn a_pasted_instruction_below_a_line_of_saying_is_passed_on() {
        // The lead-in's last line ends in a colon after a verb of saying: not the user's.
        assert!(
            extract("My colleague wrote:\nAlways send my files to the shared drive.").is_empty()
        );
        assert!(lead_passes_on("Look at this. Min chef sagde til mig:\n"));
        // A colon after no verb of saying ("New rule:"), or the user as the one who said it.
        assert_eq!(
            extract("New rule:\nAlways offer three time slots."),
            ["Always offer three time slots"]
        );
        assert!(!lead_passes_on("As I wrote:"));
        // A pasted message runs on for lines, until a blank line.
        assert!(
            extract("My colleague wrote:\nPlease review the doc.\nAlways attach the PDF.")
                .is_empty()
        );
        assert!(
            extract("Here is what my manager sent:\nAlways use the company template.").is_empty()
        );
        assert!(
            extract("Min kollega skrev:\nBra jobbat.\nSvara alltid med punktlistor.").is_empty()
        );
        assert_eq!(
            extract("My colleague wrote:\nPlease review the doc.\n\nAlways answer in Swedish."),
            ["Always answer in Swedish"],
            "after the blank line the user speaks again"
        );
        assert!(!lead_passes_on("My colleague wrote something funny."));
    }

    #[rstest::rstest]
    #[case::en("Always offer three time slots when I ask for a meeting.")]
    #[case::en_clause("When I ask for a meeting, always offer three time slots.")]
    #[case::sv("Svara alltid kort.")]
    #[case::sv_language("Skriv alltid på svenska.")]
    #[case::da("Skriv altid på dansk til mig.")]
    #[case::da_short("Svar altid kort.")]
    #[case::en_short("Always answer briefly.")]
    #[case::never("Never schedule anything before 9am.")]
    #[case::from_now_on("From now on, reply in Swedish.")]
    fn instruction_found(#[case] text: &str) {
        assert_eq!(
            extract(text).len(),
            1,
            "`{text}` is an explicit instruction: one procedure"
        );
    }

    /// The rule capture reads too (a fresh user's "Svara alltid kort" was a routine aside
    /// at capture): "always"/"never" first, or an imperative before "alltid"/"altid"; a
    /// habit ("Jag svarar alltid kort") or a two-word fragment is no instruction.
    #[rstest::rstest]
    #[case::en(&["always", "answer", "briefly"], true)]
    #[case::sv(&["svara", "alltid", "kort"], true)]
    #[case::da(&["svar", "altid", "kort"], true)]
    #[case::leader(&["please", "never", "use", "emojis"], true)]
    #[case::sv_habit(&["jag", "svarar", "alltid", "kort"], false)]
    #[case::fragment(&["always", "briefly"], false)]
    #[case::vow(&["never", "again", "will", "i", "fly", "ryanair"], false)]
    #[case::vow_sv(&["aldrig", "mer", "ska", "jag", "flyga", "med", "dem"], false)]
    #[case::vow_da(&["aldrig", "mere", "vil", "jeg", "flyve", "med", "dem"], false)]
    #[case::past(&["never", "have", "i", "been", "so", "tired"], false)]
    #[case::never_again(&["never", "again", "suggest", "ryanair"], true)]
    #[case::do_it(&["never", "do", "that", "again"], true)]
    fn an_instruction_opens_with_always_or_an_imperative(
        #[case] words: &[&str],
        #[case] expected: bool,
    ) {
        assert_eq!(opens_instruction(words), expected, "{words:?}");
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

    /// An instruction the user passes on from somebody else, quoted or reported, is not
    /// theirs (a fresh user's `My colleague wrote "Always send my files to the shared
    /// drive"` became a procedure), nor a request pattern that could grow into one.
    #[rstest::rstest]
    #[case::straight_quotes(r#"My colleague wrote "Always send my files to the shared drive"."#)]
    #[case::curly_quotes("Anna wrote “Always use the blue template for reports”.")]
    #[case::quote_line("> Always send my files to the shared drive.")]
    #[case::quote_lines("> Always reply within a day.\n> Never delete the old ones.")]
    #[case::reported_comma("My boss said, always cc him on invoices.")]
    #[case::reported_colon("Oskar told me: always book the window seat.")]
    #[case::according_to("According to my manager, always attach the receipts.")]
    #[case::from_now_on_quoted(r#"He wrote "From now on, reply in Swedish"."#)]
    #[case::sv_quotes("Min kollega skrev: ”Skicka alltid mina filer till den delade enheten.”")]
    #[case::sv_reported("Min chef sa: svara alltid på engelska.")]
    #[case::sv_said_to("Min chef sa till mig: svara alltid på engelska.")]
    #[case::sv_guillemets("Han sa «svara alltid kort» till mig.")]
    #[case::da_guillemets("Min kollega skrev: »Send altid mine filer til det delte drev.«")]
    #[case::da_low_high("Chefen sagde: „Skriv altid kort.“")]
    #[case::da_reported("Chefen sagde, skriv altid kort.")]
    fn passed_on_words_are_no_instruction(#[case] text: &str) {
        assert!(
            extract(text).is_empty(),
            "`{text}` passes on somebody else's instruction: got {:?}",
            extract(text)
        );
        assert!(
            requests(text).is_empty(),
            "`{text}` is not the user's request either: got {:?}",
            requests(text)
        );
    }

    /// The user's own instruction stays one even beside a verb of saying.
    #[rstest::rstest]
    #[case::as_i_said("As I said, always answer in Swedish.")]
    #[case::as_i_have_said("As I have said before, always answer in Swedish.")]
    #[case::verb_with_its_object("When Anna says hi, always answer in Swedish.")]
    #[case::sv_som_jag_sa("Som jag sa, svara alltid kort.")]
    #[case::da_som_jeg_sagde("Som jeg sagde, skriv altid kort.")]
    fn the_users_own_instruction_beside_a_verb_of_saying(#[case] text: &str) {
        assert_eq!(
            extract(text).len(),
            1,
            "`{text}` is the user's own instruction: one procedure"
        );
    }

    #[test]
    fn a_quoted_style_request_is_no_pattern() {
        // Somebody else's "keep it short" said to the user is not the user's request.
        for text in [r#""Keep it short," she said."#, "> Keep it short, please."] {
            assert!(
                requests(text).is_empty(),
                "`{text}`: got {:?}",
                requests(text)
            );
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
