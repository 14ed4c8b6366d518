//! Questions about a kind of memory (issue 4): "What did I promise Anna?", "Vad har jag
//! lovat?", "What did we decide about the car?", "Hvad besluttede vi?" ask for the
//! commitments or the decisions that capture already labelled as such
//! ([`crate::model::ActKind`]), whatever words they were said in ("I'll send Anna the
//! report by Friday" promises without the word "promise").
//!
//! Such a question's kind words stop acting as text on the lexical side (as a named time's
//! words do, `when.rs`): otherwise the one memory that happens to say "promised" outranks
//! every promise said in other words, and crowds out the one about the person asked about.
//! The dense side still reads the whole question. Memories of the asked kind get a relative
//! lift, `r' = min(1, r · (1 + LIFT))`: a lift and never a penalty, so a promise that is not
//! about the question stays irrelevant, and every other memory keeps its relevance exactly.
//! A question that names no kind ranks exactly as without this module.

use crate::model::ActKind;

/// Relative lift of the relevance of a memory of the asked kind: 0, off by default. It found
/// "What did I promise Anna?" in a tester's store (26 of 28 answerable questions against 25),
/// but in a store with an imported chat it lifted every loose "I'm gonna…" to relevance
/// 0.85 and returned two of them with the right promise (docs/benchmarks.md, "Recall v6").
/// `Ranking::kind_lift` turns it on.
pub(crate) const LIFT: f64 = 0.0;

/// The lift measured when on (the `minne-kind-lift` ablation).
pub const MEASURED_LIFT: f64 = 0.5;

/// Words that ask for commitments, in English, Swedish and Danish (lowercase).
const COMMITMENT_WORDS: &[&str] = &[
    "promise",
    "promised",
    "promises",
    "commitment",
    "commitments",
    "committed",
    "lova",
    "lovat",
    "lovade",
    "lovar",
    "löfte",
    "löften",
    "love",
    "lovet",
    "lovede",
    "lover",
    "løfte",
    "løfter",
];

/// Words that ask for decisions, in English, Swedish and Danish (lowercase).
const DECISION_WORDS: &[&str] = &[
    "decide",
    "decided",
    "decision",
    "decisions",
    "bestämde",
    "bestämt",
    "bestämma",
    "beslut",
    "beslutade",
    "beslutat",
    "besluta",
    "besluttede",
    "besluttet",
    "beslutte",
    "beslutning",
    "beslutninger",
    "bestemte",
    "bestemt",
];

/// First-person words: a question about the user's (or their group's) own promises and
/// decisions says "I", "we", "my", "jag", "vi", "jeg"...
const FIRST_PERSON: &[&str] = &[
    "i", "me", "my", "we", "us", "our", "jag", "mig", "mej", "min", "mitt", "mina", "vi", "oss",
    "vår", "vårt", "våra", "jeg", "mit", "mine", "os", "vores",
];

/// The kind a first-person question (`text`) asks for and the words of it (`words`, its
/// content words, lowercase) that named the kind, when it asks for one; `None` when it names
/// none or both, or is not in the first person. Capture labels commitments and decisions
/// from first-person speech ("I'll send…", "we decided…"), so a question about another
/// person's ("Why did Jon decide to open a studio?") keeps its words as text: on LoCoMo dev,
/// whose 9 such questions are all about a named person, lifting them cost turn recall@10
/// 0.002.
pub(crate) fn asked(text: &str, words: &[String]) -> Option<(ActKind, Vec<String>)> {
    let first_person = super::lexical::words(text)
        .iter()
        .any(|w| FIRST_PERSON.contains(&w.as_str()));
    if !first_person {
        return None;
    }
    let of = |list: &[&str]| -> Vec<String> {
        words
            .iter()
            .filter(|w| list.contains(&w.as_str()))
            .cloned()
            .collect()
    };
    let (promises, decisions) = (of(COMMITMENT_WORDS), of(DECISION_WORDS));
    match (promises.is_empty(), decisions.is_empty()) {
        (false, true) => Some((ActKind::Commitment, promises)),
        (true, false) => Some((ActKind::Decision, decisions)),
        _ => None,
    }
}

/// Lifts `own` (relevance per candidate, in candidate order) of the candidates whose kind
/// (`kinds`, same order) is `kind`, by `lift` (0 changes nothing).
pub(crate) fn lift(
    own: &mut [f64],
    kinds: impl Iterator<Item = ActKind>,
    kind: ActKind,
    lift: f64,
) {
    if lift <= 0.0 {
        return;
    }
    for (r, k) in own.iter_mut().zip(kinds) {
        if k == kind {
            *r = (*r * (1.0 + lift)).min(1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// `asked` on a question given as its content words alone (the test sentences are in
    /// the first person).
    fn ask(s: &str) -> Option<(ActKind, Vec<String>)> {
        asked(s, &words(s))
    }

    #[test]
    fn a_question_asks_for_promises_or_decisions_in_three_languages() {
        assert_eq!(
            ask("what did i promise anna"),
            Some((ActKind::Commitment, words("promise")))
        );
        assert_eq!(
            ask("vad har jag lovat att göra"),
            Some((ActKind::Commitment, words("lovat")))
        );
        assert_eq!(
            ask("hvad besluttede vi om bilen"),
            Some((ActKind::Decision, words("besluttede")))
        );
        assert_eq!(
            ask("what did we decide about the kitchen"),
            Some((ActKind::Decision, words("decide")))
        );
        // Neither, or both: no kind is asked for, and ranking is unchanged.
        assert_eq!(ask("where do i work"), None);
        assert_eq!(ask("did i promise what we decided"), None);
        // Another person's decision keeps its words as text.
        assert_eq!(ask("why did jon decide to start his dance studio"), None);
    }

    #[test]
    fn only_the_asked_kind_is_lifted_and_never_past_one() {
        let mut own = vec![0.4, 0.4, 0.8, 0.0];
        let kinds = [
            ActKind::Commitment,
            ActKind::Observation,
            ActKind::Commitment,
            ActKind::Commitment,
        ];
        lift(
            &mut own,
            kinds.into_iter(),
            ActKind::Commitment,
            MEASURED_LIFT,
        );
        // 0.4 · 1.5 = 0.6; the observation keeps 0.4; 0.8 · 1.5 = 1.2 is capped at 1; an
        // irrelevant promise stays irrelevant (0 · 1.5 = 0).
        assert_eq!(own, vec![0.4 * 1.5, 0.4, 1.0, 0.0]);
    }
}
