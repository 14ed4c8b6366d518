//! The rule-based capture measured on the hand-labelled dev set
//! (`shared/data/capture/dev.json`, format in its README): act kinds and resolved times must
//! reach the issue's targets. Held-out sets with other names and dates check generalisation;
//! this file only guards against regressions on the dev set.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::PathBuf;

use minne::eval::capture::evaluate;

fn dev_set() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/capture/dev.json");
    path.exists().then_some(path)
}

#[test]
fn dev_set_meets_the_capture_targets() {
    let Some(path) = dev_set() else {
        println!(
            "skipped: ../shared/data/capture/dev.json is absent (shared/ is not beside this checkout)"
        );
        return;
    };
    let report = match evaluate(&path) {
        Ok(r) => r,
        Err(e) => panic!("the dev set must load and evaluate: {e}"),
    };
    println!("{}", report.table());
    assert!(
        report.act_kind_accuracy >= 0.9,
        "issue 3 target: act-kind accuracy on dev >= 0.9, got {:.3}",
        report.act_kind_accuracy
    );
    assert!(
        report.time_exact_match >= 0.9,
        "issue 3 target: time exact-match on dev >= 0.9, got {:.3}",
        report.time_exact_match
    );
    assert!(
        report.segmentation_precision >= 0.85 && report.segmentation_recall >= 0.85,
        "segmentation must stay high: one episode per happening, got P {:.3} R {:.3}",
        report.segmentation_precision,
        report.segmentation_recall
    );
}

/// Our own labelled examples, in the dev format but with other names, dates and phrasings
/// (two happenings in one sentence, a dash between two times, "moved from Thursday to
/// Friday", a retraction whose value comes in the next sentence, recurring hours, intensity
/// against history): a guard that the rules carry beyond the dev set.
const OWN_SET: &str = r##"[
{"id":"g-03","speaker_history":[],"message":{"role":"assistant","text":"Correction: the Parker demo is on the 15th, not the 8th. I'll update the calendar invite.","timestamp":"2026-10-07T09:06:00-04:00"},"expected_episodes":[{"kind":"retraction","must_contain":["Parker"],"when":{"start":"2026-10-15T00:00:00-04:00","end":"2026-10-16T00:00:00-04:00"},"participants":[]},{"kind":"commitment","must_contain":["calendar"],"when":null,"participants":[]}]},
{"id":"g-04","speaker_history":[],"message":{"role":"user","text":"We've settled on the blue tiles for the bathroom. Laszlo starts fitting them on Monday.","timestamp":"2026-10-09T18:30:00-04:00"},"expected_episodes":[{"kind":"decision","must_contain":["tiles"],"when":null,"participants":[]},{"kind":"observation","must_contain":["Laszlo"],"when":{"start":"2026-10-12T00:00:00-04:00","end":"2026-10-13T00:00:00-04:00"},"participants":["Laszlo"]}]},
{"id":"g-07","speaker_history":[],"message":{"role":"user","text":"Dmitri promised he'd send the signed lease by Thursday.","timestamp":"2026-10-13T12:00:00-04:00"},"expected_episodes":[{"kind":"observation","must_contain":["Dmitri","lease"],"when":{"start":"2026-10-13T12:00:00-04:00","end":"2026-10-16T00:00:00-04:00"},"participants":["Dmitri"]}]},
{"id":"g-10","speaker_history":[],"message":{"role":"user","text":"Ran into my old teacher Mrs Okafor at the market earlier today.","timestamp":"2026-10-14T22:45:00-04:00"},"expected_episodes":[{"kind":"observation","must_contain":["Okafor","market"],"when":{"start":"2026-10-14T00:00:00-04:00","end":"2026-10-14T22:45:00-04:00"},"participants":["Okafor"]}]},
{"id":"g-12","speaker_history":[],"message":{"role":"user","text":"Ellie and I are driving to her parents' place on Sunday morning.","timestamp":"2026-10-16T17:00:00-04:00"},"expected_episodes":[{"kind":"commitment","must_contain":["parents"],"when":{"start":"2026-10-18T06:00:00-04:00","end":"2026-10-18T12:00:00-04:00"},"participants":["Ellie"]}]},
{"id":"g-17","speaker_history":[],"message":{"role":"user","text":"Jag glömde ringa farmor i helgen, så jag ringer henne i morgon istället.","timestamp":"2026-11-04T20:00:00+01:00"},"expected_episodes":[{"kind":"observation","must_contain":[],"when":{"start":"2026-10-31T00:00:00+01:00","end":"2026-11-02T00:00:00+01:00"},"participants":[]},{"kind":"commitment","must_contain":[],"when":{"start":"2026-11-05T00:00:00+01:00","end":"2026-11-06T00:00:00+01:00"},"participants":[]}]},
{"id":"g-19","speaker_history":[],"message":{"role":"assistant","text":"Du har rätt, jag blandade ihop datumen. Disputationen är fredag den 13 november.","timestamp":"2026-11-05T07:51:00+01:00"},"expected_episodes":[{"kind":"retraction","must_contain":["13"],"when":{"start":"2026-11-13T00:00:00+01:00","end":"2026-11-14T00:00:00+01:00"},"participants":[]}]},
{"id":"g-29","speaker_history":[],"message":{"role":"assistant","text":"Beklager, jeg skrev forkert: mødet med Vestas er torsdag kl. 10, ikke onsdag.","timestamp":"2026-11-18T15:00:00+01:00"},"expected_episodes":[{"kind":"retraction","must_contain":["Vestas"],"when":{"start":"2026-11-19T10:00:00+01:00","end":"2026-11-19T10:00:00+01:00"},"participants":[]}]},
{"id":"g-33","speaker_history":[],"message":{"role":"user","text":"I have to renew the car tax by the 15th.","timestamp":"2026-12-01T11:00:00+00:00"},"expected_episodes":[{"kind":"commitment","must_contain":["car tax"],"when":{"start":"2026-12-01T11:00:00+00:00","end":"2026-12-16T00:00:00+00:00"},"participants":[]}]},
{"id":"g-35","speaker_history":[],"message":{"role":"user","text":"Oh no, I left my laptop charger at the office yesterday.","timestamp":"2026-12-01T11:10:00+00:00"},"expected_episodes":[{"kind":"observation","must_contain":["charger"],"when":{"start":"2026-11-30T00:00:00+00:00","end":"2026-12-01T00:00:00+00:00"},"participants":[]}]},
{"id":"g-37","speaker_history":[],"message":{"role":"user","text":"Decision's made — we're keeping the old car for another year.","timestamp":"2026-12-03T16:00:00+00:00"},"expected_episodes":[{"kind":"decision","must_contain":["car"],"when":null,"participants":[]}]},
{"id":"g-40","speaker_history":[],"message":{"role":"user","text":"tomorrow's flight to Glasgow got cancelled, so I'll take the sleeper train instead","timestamp":"2026-12-10T20:00:00+00:00"},"expected_episodes":[{"kind":"observation","must_contain":["Glasgow"],"when":{"start":"2026-12-11T00:00:00+00:00","end":"2026-12-12T00:00:00+00:00"},"participants":[]},{"kind":"commitment","must_contain":["sleeper"],"when":null,"participants":[]}]},
{"id":"k-04","speaker_history":[],"message":{"role":"user","text":"Had a great chat with Wilhelmina tonight — she's moving to Vancouver in June!","timestamp":"2026-04-09T19:45:00-04:00"},"expected_episodes":[{"kind":"observation","must_contain":["Wilhelmina"],"when":{"start":"2026-04-09T18:00:00-04:00","end":"2026-04-10T06:00:00-04:00"},"participants":["Wilhelmina"]},{"kind":"observation","must_contain":["Vancouver"],"when":{"start":"2026-06-01T00:00:00-04:00","end":"2026-07-01T00:00:00-04:00"},"participants":["Wilhelmina"]}]},
{"id":"k-10","speaker_history":[],"message":{"role":"user","text":"My manager, Olufemi, wants the draft by Thursday at noon.","timestamp":"2026-04-14T09:00:00-04:00"},"expected_episodes":[{"kind":"observation","must_contain":["draft","Olufemi"],"when":{"start":"2026-04-14T09:00:00-04:00","end":"2026-04-16T12:00:00-04:00"},"participants":["Olufemi"]}]},
{"id":"k-15","speaker_history":[],"message":{"role":"user","text":"I told you the recital was on the 9th — it's actually on the 10th.","timestamp":"2026-05-01T10:00:00-04:00"},"expected_episodes":[{"kind":"correction","must_contain":["recital"],"when":{"start":"2026-05-10T00:00:00-04:00","end":"2026-05-11T00:00:00-04:00"},"participants":[]}]},
{"id":"k-20","speaker_history":[],"message":{"role":"assistant","text":"Ursäkta, jag hade fel om tåget: det går 06.40 i morgon, inte 07.10.","timestamp":"2026-05-05T18:01:00+02:00"},"expected_episodes":[{"kind":"retraction","must_contain":["06.40"],"when":{"start":"2026-05-06T06:40:00+02:00","end":"2026-05-06T06:40:00+02:00"},"participants":[]}]},
{"id":"k-24","speaker_history":[],"message":{"role":"user","text":"Jonatan lovade att fixa cykeln till helgen.","timestamp":"2026-05-07T09:10:00+02:00"},"expected_episodes":[{"kind":"observation","must_contain":["Jonatan"],"when":{"start":"2026-05-09T00:00:00+02:00","end":"2026-05-11T00:00:00+02:00"},"participants":["Jonatan"]}]},
{"id":"k-28","speaker_history":[],"message":{"role":"user","text":"Nej, Karolines reception er ikke på fredag – den er på lørdag.","timestamp":"2026-05-13T10:00:00+02:00"},"expected_episodes":[{"kind":"correction","must_contain":["Karoline"],"when":{"start":"2026-05-16T00:00:00+02:00","end":"2026-05-17T00:00:00+02:00"},"participants":["Karoline"]}]},
{"id":"k-31","speaker_history":[],"message":{"role":"user","text":"Peter og Louise har fået en søn i nat!","timestamp":"2026-05-14T20:05:00+02:00"},"expected_episodes":[{"kind":"observation","must_contain":["Peter","Louise"],"when":{"start":"2026-05-13T18:00:00+02:00","end":"2026-05-14T06:00:00+02:00"},"participants":["Peter","Louise"]}]},
{"id":"k-36","speaker_history":[],"message":{"role":"user","text":"Lunch with Beatrix got moved from Thursday to Friday.","timestamp":"2026-06-03T14:00:00+01:00"},"expected_episodes":[{"kind":"observation","must_contain":["Beatrix"],"when":{"start":"2026-06-05T00:00:00+01:00","end":"2026-06-06T00:00:00+01:00"},"participants":["Beatrix"]}]},
{"id":"h-13","speaker_history":[],"message":{"role":"assistant","text":"Sure — the plumber is booked for 15:00 on the 14th, and I'll remind you an hour before.","timestamp":"2026-07-06T07:50:10+01:00"},"expected_episodes":[{"kind":"commitment","must_contain":["plumber"],"when":{"start":"2026-07-14T14:00:00+01:00","end":"2026-07-14T14:00:00+01:00"},"participants":[]}]},
{"id":"h-19","speaker_history":[],"message":{"role":"assistant","text":"Jag påminner dig en kvart innan tandläkartiden kl. 9 i morgon.","timestamp":"2026-04-24T17:31:00+02:00"},"expected_episodes":[{"kind":"commitment","must_contain":["9"],"when":{"start":"2026-04-25T08:45:00+02:00","end":"2026-04-25T08:45:00+02:00"},"participants":[]}]},
{"id":"h-28","speaker_history":[{"text":"Hello. Could you check the opening hours of the pharmacy?"},{"text":"Thank you, that works."},{"text":"I will look at the quotes this evening."}],"message":{"role":"user","text":"NO, the invoice goes to Halvorsen Ltd, not to me!!!","timestamp":"2026-09-15T08:00:00-04:00"},"expected_episodes":[{"kind":"correction","must_contain":["invoice","Halvorsen"],"when":null,"participants":[]}],"salience_rank_note":"higher than h-30 and h-29 (calm writer suddenly shouting)"},
{"id":"h-29","speaker_history":[{"text":"HELLO!!! Check the PHARMACY hours!!!"},{"text":"THANK YOU!!! AMAZING!!!"},{"text":"ARGH the wifi is DOWN AGAIN!!!"}],"message":{"role":"user","text":"NO, the invoice goes to Halvorsen Ltd, not to me!!!","timestamp":"2026-09-15T08:00:00-04:00"},"expected_episodes":[{"kind":"correction","must_contain":["invoice","Halvorsen"],"when":null,"participants":[]}],"salience_rank_note":"lower than h-28; about equal to h-30 (habitual shouter)"},
{"id":"h-30","speaker_history":[{"text":"Hello. Could you check the opening hours of the pharmacy?"},{"text":"Thank you, that works."},{"text":"I will look at the quotes this evening."}],"message":{"role":"user","text":"No, the invoice goes to Halvorsen Ltd, not to me.","timestamp":"2026-09-15T08:00:00-04:00"},"expected_episodes":[{"kind":"correction","must_contain":["invoice","Halvorsen"],"when":null,"participants":[]}],"salience_rank_note":"lower than h-28"},
{"id":"h-46","speaker_history":[],"message":{"role":"user","text":"Payroll runs on the 2nd, so I'll submit my timesheet by Monday.","timestamp":"2026-01-30T12:00:00-05:00"},"expected_episodes":[{"kind":"observation","must_contain":["Payroll"],"when":{"start":"2026-02-02T00:00:00-05:00","end":"2026-02-03T00:00:00-05:00"},"participants":[]},{"kind":"commitment","must_contain":["timesheet"],"when":{"start":"2026-01-30T12:00:00-05:00","end":"2026-02-03T00:00:00-05:00"},"participants":[]}]}
]"##;

#[test]
fn own_examples_meet_the_same_targets() {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("a temp dir is needed for the label file: {e}"),
    };
    let path = dir.path().join("own.json");
    if let Err(e) = std::fs::write(&path, OWN_SET) {
        panic!("cannot write the label file: {e}");
    }
    let report = match evaluate(&path) {
        Ok(r) => r,
        Err(e) => panic!("our own label file must load: {e}"),
    };
    println!("{}", report.table());
    assert!(
        report.act_kind_accuracy >= 0.9,
        "act kinds must carry over to new phrasings: {:.3}",
        report.act_kind_accuracy
    );
    assert!(
        report.time_exact_match >= 0.9,
        "time rules must carry over to new dates: {:.3}",
        report.time_exact_match
    );
    assert!(
        report.segmentation_precision >= 0.85 && report.segmentation_recall >= 0.85,
        "one episode per happening on new messages: P {:.3} R {:.3}",
        report.segmentation_precision,
        report.segmentation_recall
    );
    assert_eq!(
        report.salience_order_agreement, 1.0,
        "a calm writer's shout must outrank the same words from a habitual shouter"
    );
}

/// Any other label file in the same format, named by `MINNE_CAPTURE_SET`: prints its report.
#[test]
#[ignore = "needs MINNE_CAPTURE_SET=path/to/labels.json"]
fn other_label_set_report() {
    let Some(path) = std::env::var_os("MINNE_CAPTURE_SET") else {
        println!("skipped: set MINNE_CAPTURE_SET to a label file");
        return;
    };
    match evaluate(std::path::Path::new(&path)) {
        Ok(report) => println!("{}", report.table()),
        Err(e) => panic!("the label file must load: {e}"),
    }
}

/// Prints what the rules make of one message: `MINNE_CAPTURE_TEXT` (role from
/// `MINNE_CAPTURE_ROLE`, default user; timestamp from `MINNE_CAPTURE_TS`).
#[test]
#[ignore = "needs MINNE_CAPTURE_TEXT=..."]
fn show_one_message() {
    let Ok(text) = std::env::var("MINNE_CAPTURE_TEXT") else {
        println!("skipped: set MINNE_CAPTURE_TEXT");
        return;
    };
    let role: minne::model::Role = std::env::var("MINNE_CAPTURE_ROLE")
        .unwrap_or_else(|_| "user".into())
        .parse()
        .unwrap_or_else(|e| panic!("bad role: {e}"));
    let ts =
        std::env::var("MINNE_CAPTURE_TS").unwrap_or_else(|_| "2026-05-13T10:00:00+02:00".into());
    let timestamp = chrono::DateTime::parse_from_rfc3339(&ts).unwrap_or_else(|e| panic!("{e}"));
    for line in text.split(" || ") {
        let input = minne::model::MessageInput {
            role,
            text: line,
            timestamp,
            zone: None,
        };
        println!("== {line}");
        for e in minne::capture::rules::extract(&input) {
            println!(
                "  {:?} {:?} when={:?} people={:?}",
                e.kind,
                e.text,
                e.when.map(|w| w.expression),
                e.participants
            );
        }
    }
}

/// One message: role, text, timestamp, and the expected episodes as (kind, a word the episode
/// must quote, participants).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str, &'static [&'static str])],
);

/// The kinds of fault a blind set showed, each in new words: cue-only follow-ups that qualify
/// the happening next to them, cues missing from the lexicons, details split off as their own
/// happening, and participants named beside the speaker or taken up by a pronoun.
const FAULT_KINDS: &[Case] = &[
    // A trailing cue sentence makes the shouted statement before it a decision.
    (
        "user",
        "WE ARE NOT SELLING the cottage!!! That's final!!!",
        "2026-05-13T10:00:00+01:00",
        &[("decision", "cottage", &[])],
    ),
    (
        "user",
        "VI SÆLGER IKKE huset!!! Det er AFGJORT!!!",
        "2026-05-13T10:00:00+02:00",
        &[("decision", "huset", &[])],
    ),
    // "den 4. JULI" is one date, and "X, ikke Y" makes the whole a correction.
    (
        "user",
        "Bryllupet er fredag den 4. JULI, ikke den 11.!!!",
        "2026-05-13T10:00:00+02:00",
        &[("correction", "JULI", &[])],
    ),
    // The user's own cue sentence goes with the value it corrects.
    (
        "user",
        "Forget what I wrote earlier — I got it wrong. The recital is on the 12th, not the 21st.",
        "2026-05-13T10:00:00+01:00",
        &[("correction", "recital", &[])],
    ),
    (
        "user",
        "Glöm det jag skrev innan, jag hade fel. Mormor Britt fyller år den 4 juli, inte den 14.",
        "2026-05-13T10:00:00+02:00",
        &[("correction", "Britt", &["Britt"])],
    ),
    // Missing cues: walking a claim back, settling and pushing back, an exclamation with thanks.
    (
        "assistant",
        "Hold on, I should take that back: the Ferris invoice is due on 3 June, not 13 June.",
        "2026-05-13T10:00:00+01:00",
        &[("retraction", "Ferris", &[])],
    ),
    (
        "user",
        "Greta and I have settled it — we're pushing the barbecue back to the 9th.",
        "2026-05-13T10:00:00+01:00",
        &[("decision", "barbecue", &["Greta"])],
    ),
    (
        "user",
        "Åh hvor dejligt! Tak for hjælpen.",
        "2026-05-13T10:00:00+02:00",
        &[("routine", "", &[])],
    ),
    (
        "user",
        "Oh how lovely! Thanks for the tip.",
        "2026-05-13T10:00:00+01:00",
        &[("routine", "", &[])],
    ),
    // A sentence pointing back ("Heard it ...") dates the happening; a reason after a
    // semicolon stays with its decision.
    (
        "user",
        "Wouldn't you know — Cosima from the choir turns out to be Mr Pemberton's granddaughter. Heard it at the pub last night.",
        "2026-05-13T10:00:00+01:00",
        &[("observation", "pub", &["Cosima", "Pemberton"])],
    ),
    (
        "user",
        "We're not renewing the gym membership after all; the Kestrel fees were absurd. Separately, Magnus starts his new job in 2 weeks.",
        "2026-05-13T10:00:00+01:00",
        &[
            ("decision", "Kestrel", &[]),
            ("observation", "Magnus", &["Magnus"]),
        ],
    ),
    // ... but a new name with a time of its own is still a new happening.
    (
        "user",
        "I met Sara for coffee. The Lindqvist trip is on Friday.",
        "2026-05-13T10:00:00+01:00",
        &[
            ("observation", "Sara", &["Sara"]),
            ("observation", "Friday", &[]),
        ],
    ),
    // Participants: a third party's promise, a name beside the speaker.
    (
        "user",
        "Thaddeus swears he'll return the drill on Sunday.",
        "2026-05-13T10:00:00+01:00",
        &[("observation", "drill", &["Thaddeus"])],
    ),
    (
        "user",
        "Cornelius and I went to the flea market yesterday.",
        "2026-05-13T10:00:00+01:00",
        &[("observation", "flea market", &["Cornelius"])],
    ),
];

#[test]
fn fault_kinds_from_a_blind_set_stay_fixed() {
    for (role, text, ts, expected) in FAULT_KINDS {
        let role: minne::model::Role = role
            .parse()
            .unwrap_or_else(|e| panic!("bad role in a test case: {e}"));
        let timestamp =
            chrono::DateTime::parse_from_rfc3339(ts).unwrap_or_else(|e| panic!("{ts}: {e}"));
        let got = minne::capture::rules::extract(&minne::model::MessageInput {
            role,
            text,
            timestamp,
            zone: None,
        });
        let summary: Vec<(String, String, Vec<String>)> = got
            .iter()
            .map(|e| (e.kind.to_string(), e.text.clone(), e.participants.clone()))
            .collect();
        assert_eq!(
            got.len(),
            expected.len(),
            "one episode per happening in `{text}`: {summary:?}"
        );
        for ((kind, word, people), e) in expected.iter().zip(&got) {
            assert_eq!(
                e.kind.to_string(),
                *kind,
                "act kind in `{text}`: {summary:?}"
            );
            assert!(
                e.text.to_lowercase().contains(&word.to_lowercase()),
                "the episode must quote `{word}`: {summary:?}"
            );
            assert_eq!(
                e.participants, *people,
                "participants in `{text}`: {summary:?}"
            );
        }
    }
}

/// 40 items labelled blind (by someone who never saw the rules) after the dev set was done.
/// On first contact the rules scored act kind 0.85 and segmentation precision 0.84 on it; the
/// kinds of fault it exposed were then fixed with general rules. It stays as a regression set.
#[test]
fn blind_held_out_set_stays_at_the_targets() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/capture-heldout.json");
    let report = evaluate(&path).expect("the held-out set is in the dev.json format");
    println!("{}", report.table());
    assert!(
        report.act_kind_accuracy >= 0.9,
        "act-kind accuracy {:.3} on the held-out set",
        report.act_kind_accuracy
    );
    assert!(
        report.time_exact_match >= 0.9,
        "time exact-match {:.3} on the held-out set",
        report.time_exact_match
    );
    assert!(
        report.segmentation_precision >= 0.9 && report.segmentation_recall >= 0.9,
        "segmentation on the held-out set"
    );
}
