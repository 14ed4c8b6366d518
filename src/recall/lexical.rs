//! The lexical side of recall: BM25 over the FTS5 index of episodes (migrations 3 and 8:
//! the episode's words, its whole message, the turn before).
//!
//! The index stems with Porter on top of `unicode61` (å ä ö æ ø stay letters); the query is
//! cut into words here, stop-words and named people are dropped, and each remaining word is
//! passed as a quoted FTS5 string, so nothing a user types is read as FTS5 syntax.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
    // Words that only say "tell me": the question is about what follows them.
    "know",
    "tell",
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
    "vilket",
    "vilka",
    "varför",
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
    "vet",
    "dig",
    "mig",
    "oss",
    "er",
    "sig",
    "där",
    "här",
    "nu",
    "också",
    "alla",
    "något",
    "några",
    "mycket",
    "ha",
    "vara",
    "varit",
    "finns",
    "hans",
    "hennes",
    "deras",
    "vår",
    "våra",
    "man",
    "ju",
    "nog",
    // Danish
    "og",
    "jeg",
    "hun",
    "et",
    "til",
    "af",
    "ikke",
    "havde",
    "hvad",
    "hvornår",
    "hvordan",
    "hvem",
    "hvilken",
    "hvilket",
    "hvilke",
    "hvorfor",
    "hvor",
    "mit",
    "mine",
    "dit",
    "dine",
    "sit",
    "sine",
    "fra",
    "ved",
    "skal",
    "kunne",
    "der",
    "os",
    "jer",
    "også",
    "alle",
    "noget",
    "nogle",
    "meget",
    "være",
    "været",
    "hendes",
    "deres",
    "vores",
    "jo",
    "vel",
    "fortæl",
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

/// Episodes a store is assumed to hold at least, for IDF. A store of a handful of memories
/// says nothing about which words are common: with FTS5's own IDF, a word in 2 of 2 episodes
/// weighs nothing (its IDF is clamped to 10⁻⁶), so a new user's "koriander" could never match
/// the one memory about coriander. IDF is computed as if the other episodes up to this count
/// lacked the word (a background corpus of unrelated memories); from this size on, the store's
/// own counts rule.
pub(crate) const BACKGROUND_EPISODES: f64 = 200.0;

/// The IDF of a word found in `hits` of `n_docs` episodes: FTS5's BM25 IDF,
/// `ln((N − n + 0.5) / (n + 0.5))` floored at 10⁻⁶, with `N = max(n_docs, BACKGROUND_EPISODES)`.
/// From that size on it is FTS5's own, so large stores rank exactly as FTS5 ranks them.
pub(crate) fn idf(hits: f64, n_docs: f64) -> f64 {
    let n = n_docs.max(BACKGROUND_EPISODES).max(hits);
    fts5_idf(hits, n)
}

/// FTS5's own IDF (`fts5_bm25.c`): `ln((N − n + 0.5) / (n + 0.5))`, clamped to 10⁻⁶.
fn fts5_idf(hits: f64, n_docs: f64) -> f64 {
    let idf = ((n_docs - hits + 0.5) / (hits + 0.5)).ln();
    if idf <= 0.0 { 1e-6 } else { idf }
}

/// Column weights of the full-text index (migration 8), in its column order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Columns {
    /// The episode's own words.
    pub(crate) text: f64,
    /// Its whole source message.
    pub(crate) message: f64,
    /// The turn before its message.
    pub(crate) context: f64,
}

/// Hashes an episode id (a rowid the store assigned: distinct, mostly consecutive) with one
/// multiplication by 2⁶⁴/φ (Fibonacci hashing, Knuth, TAOCP vol. 3, 6.4). SipHash's guard
/// against keys chosen to collide is not needed for ids, and the lexical side hashes every
/// matching episode and looks up every candidate.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

const FIBONACCI: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(FIBONACCI);
        }
    }

    fn write_i64(&mut self, n: i64) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(FIBONACCI);
    }
}

/// A map keyed by episode id.
pub(crate) type ById<V> = HashMap<i64, V, BuildHasherDefault<IdHasher>>;

/// The lexical side of one query.
#[derive(Debug, Default)]
pub(crate) struct Lexical {
    /// BM25 (positive, higher is better) of each matching episode: (episode id, score), each
    /// id once, ascending. A list, not a map: recall puts each score at its candidate's index
    /// once, and a large store matches tens of thousands of episodes.
    pub(crate) hits: Vec<(i64, f64)>,
    /// Σ IDF of the query's terms, found or not: about the BM25 of an episode of average
    /// length holding every term once, so `bm25 / scale` is an IDF-weighted share of the
    /// question's words found.
    pub(crate) scale: f64,
    /// The terms no searched column of any episode holds.
    pub(crate) missing: Vec<String>,
}

/// BM25 of the episodes matching any of `terms` in the columns weighted above 0, by episode
/// id, over a store of `n_docs` episodes. Each term's FTS5 score (its IDF times the
/// term-frequency part) is rescaled to [`idf`], so small stores still rank by words and a
/// term's weight does not depend on FTS5's clamp.
///
/// From [`BACKGROUND_EPISODES`] episodes on, every rescale is exactly 1 and the terms are
/// asked in one FTS5 query: its `bm25()` is the sum of the same per-term parts, added in the
/// same order (a term a row lacks adds exactly 0), so the scores are bit for bit those of
/// asking each term alone, while each matching row's length is read once, not once per term.
pub(crate) fn bm25(
    conn: &Connection,
    terms: &[String],
    columns: Columns,
    n_docs: usize,
) -> Result<Lexical> {
    let Some(asked) = asked(conn, terms, columns, n_docs)? else {
        return Ok(Lexical::default());
    };
    if asked.found.iter().all(|(_, rescale)| *rescale == 1.0) {
        combined(conn, asked, columns)
    } else {
        per_term(conn, asked, columns)
    }
}

/// The terms of one query with their FTS5 column filter, before scoring.
#[derive(Debug)]
struct Asked {
    /// `{columns} : ` for the weighted columns.
    filter: String,
    /// The terms some episode holds, each as its quoted FTS5 string and its rescale factor.
    found: Vec<(String, f64)>,
    /// The scale and the missing terms; `by_id` still empty.
    out: Lexical,
}

/// Counts each term's matching episodes (FTS5 walks its posting list, no row is scored): the
/// IDF scale, the missing terms, and each found term's rescale factor [`idf`] / FTS5's IDF.
/// `None` when no column is weighted.
fn asked(
    conn: &Connection,
    terms: &[String],
    columns: Columns,
    n_docs: usize,
) -> Result<Option<Asked>> {
    let names: Vec<&str> = [
        ("text", columns.text),
        ("message", columns.message),
        ("context", columns.context),
    ]
    .iter()
    .filter(|(_, w)| *w > 0.0)
    .map(|(n, _)| *n)
    .collect();
    if names.is_empty() {
        return Ok(None);
    }
    let filter = format!("{{{}}} : ", names.join(" "));
    let mut stmt =
        conn.prepare_cached("SELECT count(*) FROM episodes_fts WHERE episodes_fts MATCH ?1")?;
    let n = n_docs as f64;
    let mut out = Lexical::default();
    let mut found = Vec::new();
    for t in terms {
        let Some(q) = fts_query(std::slice::from_ref(t)) else {
            continue;
        };
        let hits: i64 = stmt.query_row([format!("{filter}{q}")], |r| r.get(0))?;
        let (q, hits) = if hits == 0 {
            // A word no memory holds may be held in another language: "fru" of "Vad heter
            // min fru?" in "My wife Karin…". The most common translation held stands in for
            // it (the lexicon of `recall::lexicon`); without one the word is missing. A fresh
            // user's mixed store answered that question with "Jag heter Erik", which matched
            // only "heter".
            match held_translation(&mut stmt, &filter, t)? {
                Some(held) => held,
                None => (q, 0),
            }
        } else {
            (q, hits)
        };
        let hits = hits as f64;
        out.scale += idf(hits, n);
        if hits == 0.0 {
            out.missing.push(t.clone());
            continue;
        }
        found.push((q, idf(hits, n) / fts5_idf(hits, n.max(hits))));
    }
    Ok(Some(Asked { filter, found, out }))
}

/// The translation of `term` ([`super::lexicon::Lexicon::translations`], `term` itself left
/// out) that the most episodes hold, as its quoted FTS5 string and how many hold it; `None`
/// when the lexicon does not know the word or no episode holds a translation. `count` is the
/// prepared `count(*)` of a match.
fn held_translation(
    count: &mut rusqlite::CachedStatement<'_>,
    filter: &str,
    term: &str,
) -> Result<Option<(String, i64)>> {
    let Some(forms) = super::lexicon::lexicon().translations(term) else {
        return Ok(None);
    };
    let mut best: Option<(String, i64)> = None;
    for form in forms.into_iter().filter(|f| *f != term) {
        let Some(q) = fts_query(&[form.to_string()]) else {
            continue;
        };
        let hits: i64 = count.query_row([format!("{filter}{q}")], |r| r.get(0))?;
        if hits > 0 && best.as_ref().is_none_or(|(_, h)| hits > *h) {
            best = Some((q, hits));
        }
    }
    Ok(best)
}

/// Scores the found terms one FTS5 query each, rescaling each term's score.
fn per_term(conn: &Connection, asked: Asked, columns: Columns) -> Result<Lexical> {
    let Asked {
        filter,
        found,
        mut out,
    } = asked;
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, bm25(episodes_fts, ?2, ?3, ?4) FROM episodes_fts WHERE episodes_fts MATCH ?1",
    )?;
    let mut by_id: ById<f64> = ById::default();
    for (q, rescale) in found {
        let mut rows = stmt.query(rusqlite::params![
            format!("{filter}{q}"),
            columns.text,
            columns.message,
            columns.context
        ])?;
        while let Some(row) = rows.next()? {
            // FTS5's bm25() is negated so that smaller is better.
            let score = -row.get::<_, f64>(1)? * rescale;
            if score > 0.0 {
                *by_id.entry(row.get(0)?).or_default() += score;
            }
        }
    }
    out.hits = by_id.into_iter().collect();
    out.hits.sort_unstable_by_key(|(id, _)| *id);
    Ok(out)
}

/// Scores the found terms in one FTS5 query; only when every rescale factor is 1.
fn combined(conn: &Connection, asked: Asked, columns: Columns) -> Result<Lexical> {
    let Asked {
        filter,
        found,
        mut out,
    } = asked;
    if found.is_empty() {
        return Ok(out);
    }
    let query = format!(
        "{filter}({})",
        found
            .iter()
            .map(|(q, _)| q.as_str())
            .collect::<Vec<_>>()
            .join(" OR ")
    );
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, bm25(episodes_fts, ?2, ?3, ?4) FROM episodes_fts WHERE episodes_fts MATCH ?1",
    )?;
    let mut rows = stmt.query(rusqlite::params![
        query,
        columns.text,
        columns.message,
        columns.context
    ])?;
    while let Some(row) = rows.next()? {
        let score = -row.get::<_, f64>(1)?;
        if score > 0.0 {
            out.hits.push((row.get(0)?, score));
        }
    }
    // FTS5 returns rows in rowid order; sorting keeps the promise if that ever changes (a
    // sorted list sorts in one pass).
    out.hits.sort_unstable_by_key(|(id, _)| *id);
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
    fn idf_assumes_a_background_of_memories_in_small_stores() {
        // A word in 2 of 2 memories: as if in 2 of 200, ln(198.5 / 2.5) = 4.3745.
        assert!((idf(2.0, 2.0) - (198.5f64 / 2.5).ln()).abs() < 1e-12);
        // From 200 memories on it is FTS5's own: ln((1000 − 10 + 0.5) / 10.5) = 4.5447.
        assert!((idf(10.0, 1000.0) - (990.5f64 / 10.5).ln()).abs() < 1e-12);
        // A word in most memories is floored, never negative.
        assert_eq!(idf(600.0, 1000.0), 1e-6);
    }

    /// "fru" is in no memory; "wife" is: the translation stands in, so the memory of the
    /// wife is found and "fru" is not missing. "katt" (cat) has no translation in any memory
    /// and stays missing; "heter" is held as it is.
    #[test]
    fn a_word_held_only_in_translation_is_searched_as_it() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE episodes_fts USING fts5(text, message, context,
                 tokenize = 'porter unicode61 remove_diacritics 0');
             INSERT INTO episodes_fts(rowid, text, message, context) VALUES
               (1, 'Jag heter Erik.', 'Jag heter Erik.', ''),
               (2, 'My wife Karin starts her new job on Monday.', 'My wife Karin starts her new job on Monday.', ''),
               (3, 'Min hund heter Sixten.', 'Min hund heter Sixten.', '');",
        )
        .unwrap();
        let columns = Columns {
            text: 1.0,
            message: 0.5,
            context: 0.0,
        };
        let terms: Vec<String> = ["heter", "fru", "katt"].map(String::from).to_vec();
        let got = bm25(&conn, &terms, columns, 3).unwrap();
        assert_eq!(got.missing, ["katt"], "only the cat is held in no language");
        let ids: Vec<i64> = got.hits.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, [1, 2, 3], "the wife's memory is found through 'wife'");
        // The scale counts "fru" at the IDF of "wife" (1 of 3, over a background of 200),
        // "heter" at 2 of 3 and "katt" at 0 of 3.
        let want = idf(1.0, 3.0) + idf(2.0, 3.0) + idf(0.0, 3.0);
        assert!((got.scale - want).abs() < 1e-9, "{} vs {want}", got.scale);
    }

    #[test]
    fn one_query_scores_exactly_as_one_query_per_term() {
        // 300 episodes (over BACKGROUND_EPISODES, so every rescale is 1) whose three columns
        // mix words at different rates, so rows match one, two or all terms in different
        // columns and lengths. The combined query must give the same rows and bit-identical
        // scores as asking each term alone: recall's ranking may not move.
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE episodes_fts USING fts5(text, message, context,
                 tokenize = 'porter unicode61 remove_diacritics 0');",
        )
        .unwrap();
        let words = [
            "pottery", "kids", "class", "lake", "budget", "sailing", "bread",
        ];
        for i in 0..300usize {
            let pick = |step: usize, len: usize| {
                (0..len)
                    .map(|j| words[(i * step + j * 3) % words.len()])
                    .collect::<Vec<_>>()
                    .join(" filler ")
            };
            conn.execute(
                "INSERT INTO episodes_fts(rowid, text, message, context) VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![
                    i as i64 + 1,
                    pick(1, 1 + i % 3),
                    pick(2, 2 + i % 5),
                    pick(5, i % 4)
                ],
            )
            .unwrap();
        }
        let columns = Columns {
            text: 1.0,
            message: 0.5,
            context: 0.5,
        };
        let terms: Vec<String> = ["kids", "pottery", "zebra", "sailing"]
            .map(String::from)
            .to_vec();
        let one = || asked(&conn, &terms, columns, 300).unwrap().unwrap();
        assert!(one().found.iter().all(|(_, r)| *r == 1.0));
        let combined = combined(&conn, one(), columns).unwrap();
        let per_term = per_term(&conn, one(), columns).unwrap();
        assert!(combined.hits.len() > 100, "most rows hold some term");
        let bits = |l: &Lexical| -> Vec<(i64, u64)> {
            l.hits.iter().map(|(id, s)| (*id, s.to_bits())).collect()
        };
        assert_eq!(
            bits(&combined),
            bits(&per_term),
            "same rows in the same (id) order, bit-identical scores"
        );
        assert!(
            combined.hits.windows(2).all(|w| w[0].0 < w[1].0),
            "each id once, ascending"
        );
        assert_eq!(combined.missing, vec!["zebra".to_string()]);
        assert_eq!(combined.scale, per_term.scale);
        // bm25() picks the combined path here.
        assert_eq!(
            bits(&bm25(&conn, &terms, columns, 300).unwrap()),
            bits(&per_term)
        );
    }

    #[test]
    fn consecutive_ids_spread_over_buckets_and_tags() {
        // hashbrown picks the bucket from a hash's low bits and tags it with its top 7 bits.
        // A multiplication by an odd constant permutes the low bits, so 4,096 consecutive
        // ids land in 4,096 different buckets of a 4,096-bucket table, and their tags must
        // take all 128 values, or lookups would compare keys needlessly.
        let hash = |id: i64| {
            let mut h = IdHasher::default();
            h.write_i64(id);
            h.finish()
        };
        let buckets: std::collections::HashSet<u64> =
            (1..=4096).map(|id| hash(id) & 4095).collect();
        assert_eq!(buckets.len(), 4096);
        let tags: std::collections::HashSet<u64> = (1..=4096).map(|id| hash(id) >> 57).collect();
        assert_eq!(tags.len(), 128);
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
