//! Abstention on a missing focus (issue 4), with the real model and the calibrated defaults:
//! a store that talks about the user's cat answers "what is my cat's name" and returns
//! nothing for "what is my hamster's name", naming "hamster" as the reason, in the shape
//! LongMemEval's abstention questions take (an entity replaced by one never mentioned).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::recall::{Abstention, RecallQuery};
use minne::{ContextName, Engine};

/// A store of the user's turns, one a day from 2025-03-01, asked a week after the last.
fn store(dir: &std::path::Path, turns: &[&str]) -> Engine {
    store_with(dir, turns, common::real_embedder())
}

/// [`store`] with another embedding model.
fn store_with(
    dir: &std::path::Path,
    turns: &[&str],
    embedder: Arc<dyn minne::embed::Embedder>,
) -> Engine {
    let t0 = Utc.with_ymd_and_hms(2025, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(FixedClock::new(t0 + Duration::days(turns.len() as i64 + 7)));
    let context = ContextName::new("personal").unwrap();
    let mut engine = Engine::open(dir, &context, embedder, clock).unwrap();
    let session = NewSession {
        key: "test:abstain".into(),
        messages: turns
            .iter()
            .enumerate()
            .map(|(i, text)| NewMessage {
                external_id: Some(format!("m{}", i + 1)),
                role: Role::User,
                actor: "user".into(),
                text: text.to_string(),
                sent_at: (t0 + Duration::days(i as i64)).fixed_offset(),
            })
            .collect(),
    };
    engine
        .import_sessions(&[session], "test", &mut |_| {})
        .unwrap();
    engine
}

const CAT_STORE: &[&str] = &[
    "We adopted a cat last month, her name is Miso and she sleeps on my keyboard.",
    "Miso knocked a glass off the kitchen table again this morning.",
    "I started running before work, three times a week along the river.",
    "My sister is visiting in April, I need to clean the guest room.",
    "Booked the dentist for the 14th, the one near the office.",
];

#[test]
fn a_store_about_a_cat_answers_for_the_cat_and_abstains_for_a_hamster() {
    let dir = common::tempdir();
    let engine = store(dir.path(), CAT_STORE);

    // "cat" is held by the first memory: recall answers with it.
    let cat = engine
        .recall_explained(&RecallQuery::new("What is my cat's name?"), 3)
        .unwrap();
    assert_eq!(cat.abstained, None, "the cat is in memory: {:?}", cat.focus);
    assert!(
        cat.hits
            .first()
            .is_some_and(|h| h.episode.text.contains("Miso")),
        "the memory naming the cat comes first: {:?}",
        cat.hits.iter().map(|h| &h.episode.text).collect::<Vec<_>>()
    );

    // "hamster" is in no memory, not in another form (no stored word starts with "hamste"),
    // and the nearest word of the best memories, "cat", is another animal (MiniLM cosine
    // about 0.53, under the 0.7 that counts as held). It is all the question is about ("name"
    // only says what kind of answer is wanted): abstain.
    // The share rule is off by default (general words such as "work" are too often
    // paraphrased, `abstain::DEFAULT_ABSENT_SHARE`); switched on, it abstains here (the
    // default owned-thing rule does too: see the next test).
    let strict = RecallQuery {
        ranking: minne::recall::Ranking {
            abstain: Some(minne::recall::AbstainRule {
                absent_share: 1.0,
                modifiers: true,
                ..minne::recall::AbstainRule::default()
            }),
            ..minne::recall::Ranking::default()
        },
        ..RecallQuery::new("What is my hamster's name?")
    };
    let hamster = engine.recall_explained(&strict, 3).unwrap();
    assert!(
        hamster.hits.is_empty(),
        "nothing about a hamster is stored: {:?}",
        hamster
            .hits
            .iter()
            .map(|h| &h.episode.text)
            .collect::<Vec<_>>()
    );
    match &hamster.abstained {
        Some(reason @ Abstention::MissingFocus { terms, nearest, .. }) => {
            assert_eq!(terms, &vec!["hamster".to_string()], "the reason names it");
            let near = nearest[0].as_ref().expect("the best memories have words");
            assert!(
                near.1 < minne::recall::abstain::MINILM_WORD_MATCH,
                "its nearest word ({near:?}) is not close enough to count as held"
            );
            let text = reason.to_string();
            assert!(
                text.contains("“hamster”"),
                "the explanation names the missing word: {text}"
            );
        }
        other => panic!("expected an abstention naming the hamster, got {other:?}"),
    }
}

#[test]
fn a_synonym_of_a_stored_word_is_held_and_answered() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            "Last night we watched a movie about a lighthouse keeper, it was slow but beautiful.",
            "I need to renew my passport before the summer trip.",
            "The plumber comes on Thursday to fix the kitchen sink.",
        ],
    );
    // "film" is stored nowhere, but "movie" in the best memory is its synonym (MiniLM cosine
    // about 0.84, at least the 0.7 that counts as held): the question is answerable.
    let got = engine
        .recall_explained(&RecallQuery::new("Which film did I watch?"), 3)
        .unwrap();
    assert_eq!(
        got.abstained, None,
        "a synonym is no missing focus: {:?}",
        got.focus
    );
    assert!(
        got.hits
            .first()
            .is_some_and(|h| h.episode.text.contains("lighthouse")),
        "the memory about the movie answers: {:?}",
        got.hits.iter().map(|h| &h.episode.text).collect::<Vec<_>>()
    );
}

const BAKING_STORE: &[&str] = &[
    "I baked a lemon drizzle cake for my niece's birthday party, she turned six on Saturday.",
    "The oven at home runs hot, so I lowered it to 160 degrees for the sponge.",
    "Work was busy, we shipped the new invoicing feature on Friday.",
    "My neighbour lent me a ladder to clean the gutters.",
];

#[test]
fn a_party_of_the_niece_is_answered_and_one_of_an_uncle_abstains() {
    let dir = common::tempdir();
    let engine = store(dir.path(), BAKING_STORE);

    // Every word the question is about ("bake", "niece", "party") is in the first memory.
    let niece = engine
        .recall_explained(
            &RecallQuery::new("What did I bake for my niece's party?"),
            3,
        )
        .unwrap();
    assert_eq!(niece.abstained, None, "{:?}", niece.focus);
    assert!(
        niece
            .hits
            .first()
            .is_some_and(|h| h.episode.text.contains("lemon drizzle")),
        "the cake memory answers: {:?}",
        niece
            .hits
            .iter()
            .map(|h| &h.episode.text)
            .collect::<Vec<_>>()
    );

    // LongMemEval's way of making an unanswerable question (Wu et al. 2025): the niece
    // replaced by an uncle, never mentioned. "uncle" is in no memory, in no other form, and
    // the nearest word of the best memories ("niece", "neighbour") is another relative
    // (MiniLM cosine well under the 0.7 that counts as held); it stands right before
    // "birthday", which the memories hold: it narrows the party down to one never mentioned.
    // The modifier rule is opt-in (`abstain::DEFAULT_MODIFIERS`: its cost at scale).
    let uncle = engine
        .recall_explained(
            &RecallQuery {
                ranking: minne::recall::Ranking {
                    abstain: Some(minne::recall::AbstainRule {
                        modifiers: true,
                        ..minne::recall::AbstainRule::default()
                    }),
                    ..minne::recall::Ranking::default()
                },
                ..RecallQuery::new("What did I bake for my uncle's birthday party?")
            },
            3,
        )
        .unwrap();
    assert!(uncle.hits.is_empty(), "{:?}", uncle.focus);
    match &uncle.abstained {
        Some(reason @ Abstention::MissingFocus { terms, .. }) => {
            assert_eq!(terms, &vec!["uncle".to_string()]);
            assert!(
                reason.to_string().contains("“uncle”"),
                "the explanation names the word: {reason}"
            );
        }
        other => panic!("expected an abstention naming the uncle, got {other:?}"),
    }
}

const HOME_STORE: &[&str] = &[
    "Did the big grocery run at Walmart today, spent about 140 dollars.",
    "I bought a secondhand bike from a guy on Marketplace, it's dark green.",
    "Our trip to Porto is booked: we fly out on the 3rd and stay four nights.",
    "We adopted a cat last month, her name is Miso and she sleeps on my keyboard.",
    "I need to renew my passport before the summer.",
];

/// Recall with the shipped defaults: the texts of the hits and the reason for an empty result.
fn ask(engine: &Engine, question: &str) -> (Vec<String>, Option<Abstention>) {
    let got = engine
        .recall_explained(&RecallQuery::new(question), 3)
        .unwrap();
    (
        got.hits.iter().map(|h| h.episode.text.clone()).collect(),
        got.abstained,
    )
}

#[test]
fn a_name_or_an_owned_thing_never_mentioned_abstains_and_what_is_stored_is_answered() {
    let dir = common::tempdir();
    let engine = store(dir.path(), HOME_STORE);

    // Walmart is stored: answered, with the grocery run first.
    let (hits, why) = ask(&engine, "How much did I spend at Walmart?");
    assert_eq!(why, None, "Walmart is in memory");
    assert!(
        hits.first().is_some_and(|t| t.contains("Walmart")),
        "{hits:?}"
    );

    // Target is a name no memory mentions, in a question for something stored: a
    // near-match on "spend" must not pass for an answer (LongMemEval's brand swaps).
    let (hits, why) = ask(&engine, "How much did I spend at Target?");
    assert!(hits.is_empty(), "nothing about Target is stored: {hits:?}");
    assert!(
        matches!(&why, Some(Abstention::MissingName { terms }) if terms == &["target"]),
        "the reason names Target: {why:?}"
    );

    // The bike is the user's and stored; a boat never was.
    let (hits, why) = ask(&engine, "What colour is my bike?");
    assert_eq!(why, None, "the bike is in memory");
    assert!(hits.first().is_some_and(|t| t.contains("bike")), "{hits:?}");
    let (hits, why) = ask(&engine, "What colour is my boat?");
    assert!(hits.is_empty(), "no boat is stored: {hits:?}");
    assert!(
        matches!(&why, Some(Abstention::MissingFocus { terms, .. }) if terms == &["boat"]),
        "the reason names the boat: {why:?}"
    );

    // Asking for advice is not asking for something stored: an unmentioned city is no reason
    // to call the question unanswerable (recall may still find nothing relevant).
    let (_, why) = ask(&engine, "Which restaurant in Lisbon should I try?");
    assert!(
        !matches!(why, Some(Abstention::MissingName { .. })),
        "advice questions are not judged by names: {why:?}"
    );
}

/// A user who writes in Swedish and in English (multilingual-e5-small, the default model).
const MIXED_STORE: &[&str] = &[
    "Jag heter Erik och jobbar som sjuksköterska på Sahlgrenska.",
    "Min hund heter Sixten och han är tre år.",
    "We moved to Malmö in March, the flat is near the station.",
    "My wife Karin starts her new job on Monday.",
    "Vi ska fira midsommar hos mina föräldrar i Dalarna.",
];

#[test]
fn across_languages_a_translated_thing_is_answered_and_one_never_mentioned_abstains() {
    let dir = common::tempdir();
    let e5 = minne::embed::load(&common::models_dir(), minne::embed::ModelChoice::E5Small)
        .expect("the e5 model: run scripts/setup-models.sh");
    let engine = store_with(dir.path(), MIXED_STORE, e5);

    // The dog is stored in Swedish ("hund"): an English question about it is answered,
    // with the dog's memory first.
    let (hits, why) = ask(&engine, "What is my dog's name?");
    assert_eq!(why, None, "the dog is in memory, in Swedish");
    assert!(
        hits.first().is_some_and(|t| t.contains("Sixten")),
        "{hits:?}"
    );

    // A cat never was: no memory holds "cat" or a translation of it ("katt", "kat"), and the
    // dog is no cat, however close e5 puts the words (cat/hund 0.89, cat/katt 0.93; wife/fru
    // is 0.87, so no cosine threshold tells them apart). Before the lexicon, the Swedish
    // memories among the best ones kept every rule on absent words silent, and the dog came
    // back.
    let (hits, why) = ask(&engine, "What is my cat's name?");
    assert!(hits.is_empty(), "no cat is stored: {hits:?}");
    assert!(
        matches!(&why, Some(Abstention::MissingFocus { terms, .. }) if terms == &["cat"]),
        "the reason names the cat: {why:?}"
    );

    // Blood type: neither word nor a translation ("blod", "blodgrupp") is stored.
    let (hits, why) = ask(&engine, "What is my blood type?");
    assert!(hits.is_empty(), "no blood type is stored: {hits:?}");
    assert!(
        matches!(&why, Some(Abstention::MissingFocus { terms, .. }) if terms.contains(&"blood".to_string())),
        "the reason names blood: {why:?}"
    );

    // A city never mentioned in any language; Malmö, stored, is another city.
    let (hits, why) = ask(&engine, "When did we move to Tokyo?");
    assert!(hits.is_empty(), "no Tokyo trip is stored: {hits:?}");
    assert!(
        matches!(&why, Some(Abstention::MissingName { terms }) if terms == &["tokyo"]),
        "the reason names Tokyo: {why:?}"
    );

    // The reverse direction: a Swedish question about the wife, stored in English, is not
    // taken for a question about something never mentioned.
    let (_, why) = ask(&engine, "Vad heter min fru?");
    assert!(
        !matches!(
            why,
            Some(Abstention::MissingFocus { .. } | Abstention::MissingName { .. })
        ),
        "the wife is in memory, in English: {why:?}"
    );
    // Even when the best memories are all Swedish, the wife is held by the English memory
    // outside them.
    let (_, why) = ask(&engine, "Var jobbar min fru?");
    assert!(
        !matches!(why, Some(Abstention::MissingFocus { .. })),
        "the wife is in memory, in English: {why:?}"
    );
    // A name written with its diacritics taken off is the stored one.
    let (hits, why) = ask(&engine, "When did we move to Malmo?");
    assert_eq!(why, None);
    assert!(
        hits.first().is_some_and(|t| t.contains("Malmö")),
        "{hits:?}"
    );
}

/// People the user talks about, in a store that is all the user's own turns.
const FAMILY_STORE: &[&str] = &[
    "My daughter Astrid is 7.",
    "Actually, Astrid is 8, not 7.",
    "Min søster Karen bor i Bergen.",
    "I started running before work, three times a week along the river.",
    "Booked the dentist for the 14th, the one near the office.",
];

/// A fresh user's "How old is Astrid?" over "My daughter Astrid is 7" came back empty: the
/// name was taken out of the query as if Astrid were a speaker (a turn never says its own
/// speaker's name), leaving "How old is?" under the threshold. Astrid is only talked about,
/// so her name stays in the query and the memories that say it answer, the correction among
/// them; a name no memory holds still abstains.
#[test]
fn a_question_about_someone_talked_about_is_answered_by_what_says_their_name() {
    let dir = common::tempdir();
    let engine = store(dir.path(), FAMILY_STORE);
    let (hits, why) = ask(&engine, "How old is Astrid?");
    assert_eq!(why, None, "Astrid is in memory");
    assert!(
        hits.iter().take(2).all(|t| t.contains("Astrid")) && hits.len() >= 2,
        "both memories of Astrid first: {hits:?}"
    );
    let (hits, why) = ask(&engine, "Where does Karen live?");
    assert_eq!(why, None, "Karen is in memory");
    assert!(
        hits.first().is_some_and(|t| t.contains("Karen")),
        "{hits:?}"
    );
    let (hits, why) = ask(&engine, "How old is Sofia?");
    assert!(hits.is_empty(), "no Sofia is stored: {hits:?}");
    assert!(why.is_some(), "and recall says why");
}

/// General requests ask the assistant's own knowledge, not the memories: with nothing of
/// the user in them (no I/my/we, no "about me") and no word any memory holds, whatever is
/// nearest in meaning is noise. A terse question whose word a memory holds is still answered,
/// first person or not. The store is [`CAT_STORE`], with the default model (e5): its cosines
/// sit in a narrow high band, so "Tell me a joke" clears the threshold on some memory.
#[test]
fn a_general_request_abstains_and_a_terse_question_about_a_stored_thing_is_answered() {
    let dir = common::tempdir();
    let e5 = minne::embed::load(&common::models_dir(), minne::embed::ModelChoice::E5Small)
        .expect("the e5 model: run scripts/setup-models.sh");
    let engine = store_with(dir.path(), CAT_STORE, e5);

    let mut caught = 0;
    for request in [
        "Tell me a joke",
        "Write a haiku about autumn leaves",
        "How many ounces are in a pound?",
        "What's the capital of Australia?",
    ] {
        let (hits, why) = ask(&engine, request);
        assert!(hits.is_empty(), "{request:?} needs no memory: {hits:?}");
        // Empty either because the rule abstained or because nothing cleared the threshold;
        // never for another rule's reason.
        assert!(
            matches!(why, None | Some(Abstention::Unrelated { .. })),
            "{request:?}: the reason is a general request: {why:?}"
        );
        caught += usize::from(why.is_some());
    }
    // e5 puts "Tell me a joke" over the threshold on the dentist (0.39 on a store like this
    // one): at least that one is empty by the rule, not by the threshold.
    assert!(caught >= 1, "the rule emptied none of the requests");

    // "dentist" is held: answered although the question says nothing of the user.
    let (hits, why) = ask(&engine, "When is the dentist booked?");
    assert_eq!(why, None, "the dentist is in memory");
    assert!(
        hits.first().is_some_and(|t| t.contains("dentist")),
        "{hits:?}"
    );
    // A time that holds a memory keeps the question one for memory: the store is asked on
    // 2025-03-13, so tomorrow is the dentist's day (time-anchored recall, recall/when.rs).
    let (_, why) = ask(&engine, "What's the weather tomorrow?");
    assert!(
        !matches!(why, Some(Abstention::Unrelated { .. })),
        "tomorrow holds the dentist: {why:?}"
    );
    // The same store about the user: the user's own words make it a question for memory, so
    // the general-request rule stays silent (whatever the other rules say).
    let (_, why) = ask(&engine, "What did I tell you about the weather?");
    assert!(
        !matches!(why, Some(Abstention::Unrelated { .. })),
        "a question about what the user said is not a general request: {why:?}"
    );
}
