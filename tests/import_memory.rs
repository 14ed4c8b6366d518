//! Memory an import's parse holds, measured by a counting allocator (this test binary's
//! own): the second attack on issue 30, finding 36, imported 96 MB of six million empty
//! sessions and held 4.5 GB, because the format was told from a whole JSON tree and a
//! ChatGPT or Claude file was parsed as one tree. Detection now reads a stream and those
//! exports are read one conversation's tree at a time, so what a parse holds at its peak is
//! a small multiple of the file, not ~47 times it.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// a test fails loudly, by design
// A global allocator is an unsafe trait; this one only counts and hands on to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use minne::import::{ImportFormat, ImportOptions, parse_str};

/// The system allocator, counting the bytes held now and the most held since `reset`.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held at once while `f` ran, beyond what was held before it.
fn peak_of(f: impl FnOnce()) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - before
}

/// `n` copies of `item` as a JSON list, or under `{"sessions": …}` for a transcript.
fn many(item: &str, n: usize, transcript: bool) -> String {
    let list = format!("[{}]", vec![item; n].join(","));
    if transcript {
        format!("{{\"sessions\": {list}}}")
    } else {
        list
    }
}

/// One test, so no other test's allocations run beside the measured parse.
#[test]
fn finding_36_a_file_of_many_tiny_conversations_is_parsed_in_a_small_multiple_of_its_size() {
    // 300,000 empty conversations of each kind: about 4.5 MB of text each. As one tree this
    // held hundreds of MB (each object a map of its own); streamed, the peak is the text's
    // few sessions plus one conversation.
    let n = 300_000;
    let files = [
        ("transcript", many(r#"{"messages": []}"#, n, true)),
        ("chatgpt", many(r#"{"mapping": {}}"#, n, false)),
        (
            "claude",
            many(r#"{"uuid": "u", "chat_messages": []}"#, n, false),
        ),
    ];
    for (name, text) in &files {
        let mut read = None;
        let peak = peak_of(|| {
            read = Some(parse_str(text, &ImportOptions::new(ImportFormat::Auto)));
        });
        let (format, sessions) = read.unwrap().unwrap();
        assert!(
            sessions.is_empty(),
            "{name}: no conversation holds a message"
        );
        assert_ne!(format, ImportFormat::Auto);
        // A transcript is read typed: its sessions as a list of 48-byte structs, 3 times the
        // 17 bytes of text each takes, and twice that while the list grows (measured: 7.8
        // times the text). ChatGPT and Claude keep nothing of an empty conversation. Ten
        // times the text bounds both; one tree was ~47 times (4.5 GB for 96 MB).
        eprintln!("{name}: {} bytes of text, peak {peak} bytes", text.len());
        assert!(
            peak < 10 * text.len(),
            "{name}: parsing {} bytes held {peak} bytes at its peak",
            text.len()
        );
    }
}
