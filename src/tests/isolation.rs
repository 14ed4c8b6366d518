//! Isolation by construction (DESIGN principle 4), as a property: random sequences of capture,
//! recall, forget and context switches over several contexts never return one context's
//! content from another. 10,000 operations per run (proptest cases × operations). Isolation
//! does not depend on the embedder, so the small deterministic one stands in for speed.

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

use crate::clock::{Clock, FixedClock};
use crate::context::{ContextName, create_context};
use crate::embed::HashEmbedder;
use crate::engine::Engine;
use crate::import::{NewMessage, NewSession};
use crate::model::Role;
use crate::recall::RecallQuery;

const CONTEXTS: [&str; 3] = ["work", "personal", "health"];
const WORDS: [&str; 12] = [
    "launch", "dentist", "budget", "garden", "invoice", "sister", "flight", "report", "piano",
    "rent", "doctor", "team",
];

#[derive(Debug, Clone)]
enum Op {
    Capture { context: usize, word: usize },
    Recall { context: usize, word: usize },
    Forget { context: usize, pick: usize },
    Reopen { context: usize },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3usize, 0..WORDS.len()).prop_map(|(context, word)| Op::Capture { context, word }),
        4 => (0..3usize, 0..WORDS.len()).prop_map(|(context, word)| Op::Recall { context, word }),
        1 => (0..3usize, 0..64usize).prop_map(|(context, pick)| Op::Forget { context, pick }),
        1 => (0..3usize).prop_map(|context| Op::Reopen { context }),
    ]
}

/// Every stored text carries its context's tag, so a leak is visible in any result.
fn tag(context: usize) -> String {
    format!("ctxtag{}", CONTEXTS[context])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]
    #[test]
    fn no_result_ever_carries_another_contexts_content(ops in proptest::collection::vec(op(), 1000)) {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()));
        let embedder = Arc::new(HashEmbedder::new(64));
        create_context(dir.path(), &ContextName::new("health").unwrap()).unwrap();
        let open = |i: usize| {
            Engine::open(dir.path(), &ContextName::new(CONTEXTS[i]).unwrap(), embedder.clone(), clock.clone()).unwrap()
        };
        let mut engines: Vec<Engine> = (0..3).map(open).collect();
        for (n, op) in ops.into_iter().enumerate() {
            clock.set(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap() + Duration::minutes(n as i64));
            match op {
                Op::Capture { context, word } => {
                    let session = NewSession {
                        key: format!("s{n}"),
                        messages: vec![NewMessage {
                            external_id: None,
                            role: Role::User,
                            actor: "user".into(),
                            text: format!("Note about the {} for {} number {n}.", WORDS[word], tag(context)),
                            sent_at: clock.now_fixed(),
                        }],
                    };
                    engines[context].import_sessions(&[session], "prop", &mut |_| {}).unwrap();
                }
                Op::Recall { context, word } => {
                    let query = RecallQuery { k: 10, threshold: Some(f64::NEG_INFINITY), ..RecallQuery::new(WORDS[word]) };
                    for hit in engines[context].recall(&query).unwrap() {
                        prop_assert!(hit.episode.text.contains(&tag(context)),
                            "recall in `{}` returned another context's memory: {}", CONTEXTS[context], hit.episode.text);
                    }
                }
                Op::Forget { context, pick } => {
                    let listed = engines[context].list_episodes(64, 0).unwrap();
                    for e in &listed {
                        prop_assert!(e.text.contains(&tag(context)), "listing leaked: {}", e.text);
                    }
                    if let Some(e) = listed.get(pick % listed.len().max(1)) {
                        engines[context].forget_episode(e.id).unwrap();
                    }
                }
                Op::Reopen { context } => {
                    engines[context] = open(context);
                }
            }
        }
    }
}
