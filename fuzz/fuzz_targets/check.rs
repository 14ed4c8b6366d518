//! What every import target checks: parsing arbitrary text never panics, never hangs, and
//! what it accepts is something the store can take.

use minne::import::{ImportFormat, ImportOptions, parse_str};

/// Parses `data` as `format` and checks the result. Bytes that are not UTF-8 never reach a
/// parser (the importer refuses them first), so they are skipped.
pub fn check(format: ImportFormat, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((read_as, sessions)) = parse_str(text, &ImportOptions::new(format)) else {
        return;
    };
    assert!(
        format == ImportFormat::Auto || read_as == format,
        "an explicit format is the format read"
    );
    assert_ne!(
        read_as,
        ImportFormat::Auto,
        "auto resolves to a real format"
    );
    for s in &sessions {
        assert!(!s.key.is_empty(), "every session has a key");
        if matches!(read_as, ImportFormat::Chatgpt | ImportFormat::Claude) {
            assert!(
                !s.messages.is_empty(),
                "an export session without words is left out"
            );
            for m in &s.messages {
                assert!(
                    !m.text.trim().is_empty(),
                    "a message without words is left out"
                );
                if read_as == ImportFormat::Chatgpt {
                    assert!(
                        m.external_id.is_some(),
                        "a ChatGPT message keeps its node id"
                    );
                }
            }
        }
    }
}
