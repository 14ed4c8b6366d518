//! The cue helpers of the act classifier, on their own.

use rstest::rstest;

use super::*;
use crate::capture::rules::token::tokenize;

fn lows(text: &str) -> Vec<String> {
    tokenize(text).into_iter().map(|t| t.low).collect()
}

fn with<T>(text: &str, f: impl Fn(&[&str]) -> T) -> T {
    let owned = lows(text);
    let all: Vec<&str> = owned.iter().map(String::as_str).collect();
    f(&all)
}

#[rstest]
#[case("The launch is Friday, not next week.", true)]
#[case("Mötet är i morgon, inte på torsdag.", true)]
#[case("Hun fødte ikke i dag – det var i går.", true)]
#[case("It's not the red one but the blue one.", true)]
#[case("I did not go to the gym.", false)]
#[case("Jeg har ikke set den film.", false)]
fn contrast_is_a_value_set_against_another(#[case] text: &str, #[case] expected: bool) {
    assert_eq!(
        with(text, contrast),
        expected,
        "only `X, not Y` and its kin mark a correction; a plain negation does not: {text}"
    );
}

#[rstest]
#[case("No, the meeting is at ten.", true)]
#[case("Och nej, det är i morgon.", true)]
#[case("Nej, hun kom i går.", true)]
#[case("No way — I saw Priya today!", false)]
#[case("No kidding, he passed!", false)]
#[case("Oh no, I forgot my keys.", false)]
#[case("Nej tack, det behövs inte.", false)]
#[case("Nej men vad roligt!", false)]
fn a_denial_opens_with_no_but_not_an_exclamation(#[case] text: &str, #[case] expected: bool) {
    assert_eq!(
        with(text, denial),
        expected,
        "`No way`, `Oh no` and `Nej tack` deny nothing: {text}"
    );
}

#[rstest]
#[case("I'll send the deck tonight.", true)]
#[case("Jag lovar att ringa dig.", true)]
#[case("Jeg skal hente pakken.", true)]
#[case("I'll believe it when I see it.", false)]
#[case("We'll see.", false)]
#[case("Jeg vil gerne lære at sejle.", false)]
#[case("If I'll be late, I'll text you.", true)]
#[case("He'll fix the bike.", false)]
fn a_promise_needs_a_first_person_act(#[case] text: &str, #[case] expected: bool) {
    assert_eq!(
        with(text, promise),
        expected,
        "a stance (`believe`, `see`, `gerne`) or someone else's `he'll` is no promise of the speaker's: {text}"
    );
}

#[rstest]
#[case("We're not renewing the lease.", true)]
#[case("We are not selling the cottage.", true)]
#[case("I am not feeling great.", false)]
#[case("I'm not going to apply after all.", true)]
#[case("Vi ska inte sälja huset.", true)]
#[case("I'm not feeling great.", false)]
#[case("We won't be able to come.", false)]
fn choosing_not_to_is_a_decision(#[case] text: &str, #[case] expected: bool) {
    let owned: Vec<String> = tokenize(text)
        .into_iter()
        .filter(|t| t.is_word())
        .map(|t| t.low)
        .collect();
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    assert_eq!(
        negative_choice(&words),
        expected,
        "rule 4: choosing not to do something is a decision; a state or an inability is not: {text}"
    );
}

/// A fresh user's "What should I cook tonight?" became a commitment, and so an open item:
/// "I cook" with a time ahead reads as a plan. A question asks the listener (for advice, or
/// whether to do something) and promises nothing; only a statement before a short tag
/// ("…, okay?") still may.
#[rstest]
#[case::advice("What should I cook tonight?", None)]
#[case::should_i("Should I call her tomorrow?", None)]
#[case::should_i_or("Should I call her tomorrow, or wait?", None)]
#[case::shall_i("Shall I send the draft on Friday?", None)]
#[case::sv_ska_jag("Vad ska jag laga till middag i kväll?", None)]
#[case::sv_ska_jag_ringa("Ska jag ringa henne i morgon?", None)]
#[case::da_skal_jeg("Hvad skal jeg lave til aftensmad i aften?", None)]
#[case::da_skal_jeg_ringe("Skal jeg ringe til hende i morgen?", None)]
#[case::tag("I'll send the draft on Friday, okay?", Some(ActKind::Commitment))]
#[case::sv_tag("Jag ringer dig i morgon, eller hur?", Some(ActKind::Commitment))]
#[case::statement("I'll send the draft on Friday.", Some(ActKind::Commitment))]
fn a_question_promises_nothing(#[case] text: &str, #[case] expected: Option<ActKind>) {
    let toks = tokenize(text);
    let range = 0..toks.len();
    let lang = crate::capture::rules::lang::guess(&toks);
    let cx = Context {
        role: Role::User,
        lang,
        has_time: true,
        ahead: true,
        people: 0,
        proper: 0,
    };
    let (_, kind) = classify(&toks, &range, &cx);
    assert_eq!(
        kind, expected,
        "a question asks and promises nothing; a tagged statement still promises: {text}"
    );
}
