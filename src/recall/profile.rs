//! Questions about the user's own profile reach the facts consolidation holds (issue 5, facts
//! in recall). "Where do I work right now?" shares no word with "today was my first day as
//! production coordinator at Bryggverket", and a dense model may rank small talk above it; but
//! consolidation already knows that episode is the source of the active `employer` fact. So a
//! first-person question that asks about a profile attribute lifts the episodes that support
//! that attribute's *active* facts to at least [`FACT_RELEVANCE`]. Superseded facts lift
//! nothing: the old employer is never pushed up as the current one.

use std::collections::HashSet;

use rusqlite::Connection;

use crate::error::Result;

/// The relevance (0..1, the fused scale) given to an episode that supports an active fact of
/// the attribute a first-person question asks about: above every calibrated threshold's
/// relevance share (0.36 MiniLM, 0.53 e5 on the total score, which weighs relevance 0.8).
pub(crate) const FACT_RELEVANCE: f64 = 0.75;

/// The share of its own relevance a lifted episode keeps on top of [`FACT_RELEVANCE`]: two
/// sources lifted alike still rank by their own words ("What's my cat's name?" lifts the
/// sources of the pet facts, and the one about the cat comes before the one about the dog,
/// which tied at 0.75 and came first by id for a tester).
pub(crate) const FACT_TIE: f64 = 0.05;

/// The relevance of a source of an asked attribute's active fact whose own relevance is `own`
/// (0..1): `FACT_RELEVANCE + FACT_TIE · own`, in 0.75..0.80.
pub(crate) fn lifted(own: f64) -> f64 {
    FACT_RELEVANCE + FACT_TIE * own.clamp(0.0, 1.0)
}

/// Question words that ask about an attribute, en/sv/da, lowercased whole words, with the
/// fact attributes (consolidation's keys) they ask about.
#[rustfmt::skip]
const ASKS: &[(&[&str], &[&str])] = &[
    (&["work", "job", "employer", "employed", "company", "workplace", "occupation", "profession",
       "jobb", "jobbar", "arbetar", "arbete", "arbetsgivare", "yrke", "arbejde", "arbejder",
       "arbejdsgiver", "firma", "stilling"],
     &["employer", "role"]),
    (&["live", "living", "lives", "hometown", "moved", "bor", "bodde", "flyttade", "flyttede",
       "boede"],
     &["location"]),
    (&["name", "called", "heter", "namn", "hedder", "navn"], &["name"]),
    (&["allergic", "allergy", "allergies", "allergisk", "allergi", "allergier"], &["allergy"]),
    (&["diet", "vegan", "vegetarian", "eat", "kost", "äter", "spiser"], &["diet", "allergy"]),
    (&["timezone", "tidszon", "tidszone"], &["timezone"]),
    (&["pet", "pets", "dog", "cat", "husdjur", "hund", "katt", "kæledyr", "kat"], &["pet"]),
];

/// Words that make a question about the asker.
#[rustfmt::skip]
const ASKER: &[&str] = &[
    "i", "my", "me", "i'm", "jag", "min", "mitt", "mina", "mig", "jeg", "mit", "mine",
];

/// The fact attributes a question asks about, when it is about the asker and names nobody
/// else; empty otherwise.
pub(crate) fn asked_attributes(query: &str, people: &[String]) -> Vec<&'static str> {
    if !people.is_empty() {
        return Vec::new();
    }
    let words = question_words(query);
    if !words.iter().any(|w| ASKER.contains(&w.as_str())) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (cues, attributes) in ASKS {
        if attributes == &["name"] && !asks_own_name(&words) {
            continue;
        }
        if words.iter().any(|w| cues.contains(&w.as_str())) {
            out.extend(attributes.iter().copied());
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The question's words, lowercased, apostrophes made straight, a possessive `'s` dropped.
fn question_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase().replace('’', "'");
            w.strip_suffix("'s").map(str::to_string).unwrap_or(w)
        })
        .collect()
}

/// Whether the question asks for the asker's own name ("what is *my name*", "what am *I
/// called*", "vad *heter jag*", "hvad *hedder jeg*"), not that of something they own ("my
/// hamster's name").
fn asks_own_name(words: &[String]) -> bool {
    let own = ["my", "mitt", "mit"];
    let names = ["name", "namn", "navn"];
    let called = ["called", "heter", "hedder"];
    let me = ["i", "jag", "jeg"];
    words.windows(2).any(|pair| {
        let (a, b) = (pair[0].as_str(), pair[1].as_str());
        (own.contains(&a) && names.contains(&b))
            || (called.contains(&a) && me.contains(&b))
            || (me.contains(&a) && called.contains(&b))
    })
}

/// Kinds of animal: a cue of the `pet` attribute that is also the thing asked about ("my
/// *dog*'s name" when the user has a cat), so never exempt as a mere cue.
const SPECIES: &[&str] = &["dog", "cat", "hund", "katt", "kat"];

/// The words of `query` that ask for one of `attributes` (the cue words of [`ASKS`]), kinds
/// of animal left out ([`SPECIES`]): a held fact answers them however its source worded it.
pub(crate) fn cue_words(query: &str, attributes: &[&str]) -> Vec<String> {
    let words = question_words(query);
    let mut out: Vec<String> = Vec::new();
    for (cues, asked) in ASKS {
        if !asked.iter().any(|a| attributes.contains(a)) {
            continue;
        }
        for w in &words {
            if cues.contains(&w.as_str()) && !SPECIES.contains(&w.as_str()) && !out.contains(w) {
                out.push(w.clone());
            }
        }
    }
    out
}

/// The episodes that support an active (not superseded, not rejected, not merely inferred)
/// fact of one of `attributes`. Errors: database errors.
pub(crate) fn supporting_episodes(conn: &Connection, attributes: &[&str]) -> Result<HashSet<i64>> {
    let mut out = HashSet::new();
    if attributes.is_empty() {
        return Ok(out);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT s.episode_id FROM facts f JOIN fact_sources s ON s.fact_id = f.id
         WHERE f.attribute = ?1 AND f.status = 'active' AND f.confidence <> 'inferred'",
    )?;
    for attribute in attributes {
        let rows = stmt.query_map([attribute], |r| r.get::<_, i64>(0))?;
        for row in rows {
            out.insert(row?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_person_questions_name_their_attribute() {
        assert_eq!(
            asked_attributes("Where do I work right now?", &[]),
            ["employer", "role"]
        );
        assert_eq!(asked_attributes("Var bor jag?", &[]), ["location"]);
        assert_eq!(asked_attributes("Hvad hedder jeg?", &[]), ["name"]);
        // About someone else, or about nobody: nothing is routed.
        assert!(asked_attributes("Where does Jonas work?", &["jonas".into()]).is_empty());
        assert!(asked_attributes("Where is the work party?", &[]).is_empty());
    }

    #[test]
    fn only_the_askers_own_name_is_the_name_attribute() {
        assert_eq!(asked_attributes("What is my name?", &[]), ["name"]);
        assert_eq!(asked_attributes("Vad heter jag?", &[]), ["name"]);
        // The name of something the asker owns is not their own: only the pet is asked.
        assert_eq!(asked_attributes("What is my dog's name?", &[]), ["pet"]);
        assert!(asked_attributes("What is my hamster's name?", &[]).is_empty());
    }

    #[test]
    fn cue_words_leave_out_the_kind_of_animal() {
        assert_eq!(
            cue_words("Where do I work right now?", &["employer"]),
            ["work"]
        );
        // "dog" asks for the pet, but it is also what is asked about: never a mere cue.
        assert!(cue_words("What is my dog's name?", &["pet"]).is_empty());
        assert!(cue_words("Where do I work?", &["location"]).is_empty());
    }
}
