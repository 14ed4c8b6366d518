//! The lexical side of recall: BM25 over the FTS5 index of episodes (migration 3).
//!
//! The index stems with Porter on top of `unicode61` (å ä ö æ ø stay letters); the query is
//! cut into words here, stop-words and named people are dropped, and each remaining word is
//! passed as a quoted FTS5 string, so nothing a user types is read as FTS5 syntax.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::error::Result;

/// Words too common to say what a question is about, in English, Swedish and Danish.
/// BM25's IDF discounts them anyway; dropping them keeps the FTS5 query small and stops a
/// question word from matching every turn.
const STOP_WORDS: &[&str] = &[
    // English
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "else",
    "ever",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "kind",
    "me",
    "might",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "s",
    "t",
    "d",
    "ll",
    "m",
    "re",
    "ve",
    "don",
    "also",
    "many",
    "much",
    "type",
    "types",
    "ago",
    "yet",
    "get",
    "got",
    "us",
    "let",
    "like",
    // Swedish
    "och",
    "att",
    "det",
    "som",
    "en",
    "ett",
    "är",
    "var",
    "jag",
    "du",
    "han",
    "hon",
    "vi",
    "ni",
    "de",
    "den",
    "för",
    "på",
    "med",
    "till",
    "av",
    "om",
    "inte",
    "har",
    "hade",
    "vad",
    "när",
    "hur",
    "vem",
    "vilken",
    "vilka",
    "min",
    "mitt",
    "mina",
    "din",
    "ditt",
    "dina",
    "sin",
    "sitt",
    "sina",
    "så",
    "men",
    "eller",
    "från",
    "vid",
    "ska",
    "skulle",
    "kan",
    "kunde",
    "blev",
    // Danish
    "og",
    "at",
    "er",
    "var",
    "jeg",
    "han",
    "hun",
    "vi",
    "i",
    "de",
    "den",
    "det",
    "en",
    "et",
    "til",
    "af",
    "på",
    "med",
    "som",
    "for",
    "ikke",
    "har",
    "havde",
    "hvad",
    "hvornår",
    "hvordan",
    "hvem",
    "hvilken",
    "hvilke",
    "min",
    "mit",
    "mine",
    "din",
    "dit",
    "dine",
    "sin",
    "sit",
    "sine",
    "så",
    "men",
    "eller",
    "fra",
    "ved",
    "skal",
    "skulle",
    "kan",
    "kunne",
    "blev",
];

/// The query's words, lowercased, possessive endings (`'s`, `’s`) dropped.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            let w = w
                .strip_suffix("'s")
                .or_else(|| w.strip_suffix("’s"))
                .unwrap_or(&w)
                .to_string();
            w.trim_matches(|c| c == '\'' || c == '’' || c == '-')
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The content words of `text`: no stop-words, no words of `drop`, each once, in order.
pub(crate) fn content_words(text: &str, drop: &[String]) -> Vec<String> {
    let drop: Vec<&str> = drop.iter().flat_map(|p| p.split_whitespace()).collect();
    let mut out: Vec<String> = Vec::new();
    for w in words(text) {
        // Hyphenated words are indexed as their parts by unicode61.
        for part in w.split(['\'', '’', '-']).filter(|p| !p.is_empty()) {
            let part = part.to_string();
            if !STOP_WORDS.contains(&part.as_str())
                && !drop.contains(&part.as_str())
                && !out.contains(&part)
            {
                out.push(part);
            }
        }
    }
    out
}

/// The FTS5 query for `terms`: each a quoted string (quotes doubled), joined by OR.
/// `None` when there is nothing to search for.
pub(crate) fn fts_query(terms: &[String]) -> Option<String> {
    if terms.is_empty() {
        return None;
    }
    Some(
        terms
            .iter()
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(" OR "),
    )
}

/// BM25 scores (positive, higher is better) of the episodes matching `terms`, by episode id,
/// with the previous-turn column weighted `context_weight` against the episode's own words.
pub(crate) fn bm25(
    conn: &Connection,
    terms: &[String],
    context_weight: f64,
) -> Result<HashMap<i64, f64>> {
    let Some(q) = fts_query(terms) else {
        return Ok(HashMap::new());
    };
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, bm25(episodes_fts, 1.0, ?2) FROM episodes_fts WHERE episodes_fts MATCH ?1",
    )?;
    let rows = stmt.query_map(rusqlite::params![q, context_weight], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?))
    })?;
    let mut out = HashMap::new();
    for row in rows {
        let (id, rank) = row?;
        // FTS5's bm25() is negated so that smaller is better.
        let score = -rank;
        if score > 0.0 {
            out.insert(id, score);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_drop_stop_words_names_and_possessives() {
        let got = content_words(
            "What did Melanie's kids make at the pottery-class?",
            &["melanie".into()],
        );
        assert_eq!(
            got,
            vec!["kids", "make", "pottery", "class"],
            "question words and the named person go"
        );
    }

    #[test]
    fn fts_query_quotes_every_term() {
        let q = fts_query(&["a\"b".into(), "NEAR".into()]);
        assert_eq!(
            q.as_deref(),
            Some("\"a\"\"b\" OR \"NEAR\""),
            "user text is never FTS5 syntax"
        );
        assert_eq!(fts_query(&[]), None);
    }
}
