//! User commands in conversation (seed 003: "Remember that I prefer X" is a first-class
//! control that acts at once): "remember that …", "kom ihåg att …", "husk at …" store what
//! follows as a stated fact in the user's own words. "Always …" is a procedure (see
//! `procedures`); "actually my name is …" a correction (see `facts`).

use super::words::{self, Word};

/// Words that may open a sentence before the command.
const LEADERS: &[&str] = &[
    "please", "and", "also", "oh", "ok", "okay", "snälla", "och", "också", "venligst", "og", "også",
];

/// The commands, canonical words.
const TRIGGERS: &[&str] = &[
    "remember",
    "note",
    "keep in mind",
    "do not forget",
    "kom ihåg",
    "notera",
    "glöm inte",
    "husk",
    "bemærk",
    "glem ikke",
];

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
        let Some(n) = TRIGGERS
            .iter()
            .filter(|p| words::matches_at(w, lead, p))
            .map(|p| p.split(' ').count())
            .max()
        else {
            continue;
        };
        let mut at = lead + n;
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
        if let Some(content) = content(text, &w[at..]) {
            out.push(content);
        }
    }
    out
}

/// The words from the first one to the last, without closing punctuation; `None` if fewer
/// than two words.
fn content(text: &str, w: &[Word]) -> Option<String> {
    let first = w.iter().find(|x| !x.punct)?;
    let last = w.iter().rev().find(|x| !x.punct)?;
    let n = w.iter().filter(|x| !x.punct).count();
    (n >= 2).then(|| text[first.span.start..last.span.end].to_string())
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
    fn command_found(#[case] text: &str, #[case] content: &str) {
        assert_eq!(
            remembered(text),
            [content],
            "`{text}` asks to remember exactly what follows the command"
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
