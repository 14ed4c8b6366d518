//! LoCoMo evaluation data (Maharana et al., ACL 2024): questions with evidence turn ids.

use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};

/// One LoCoMo question.
#[derive(Debug, Clone, Deserialize)]
pub struct Question {
    /// The question.
    pub question: String,
    /// 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (unanswerable).
    pub category: u8,
    /// Evidence turn ids as written in the file (sometimes malformed; see
    /// [`normalise_evidence`]).
    #[serde(default)]
    pub evidence: Vec<String>,
}

#[derive(Deserialize)]
struct Sample {
    sample_id: String,
    #[serde(default)]
    qa: Vec<Question>,
}

/// Reads the questions of one sample of a LoCoMo file. Errors: [`Error::Io`],
/// [`Error::Import`] for a file that is not LoCoMo or lacks the sample.
pub fn questions(path: &Path, sample_id: &str) -> Result<Vec<Question>> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| Error::Io { action: "cannot read", path: path.to_path_buf(), source })?;
    let samples: Vec<Sample> = serde_json::from_str(&text)
        .map_err(|e| Error::Import { path: path.to_path_buf(), reason: crate::import::json_error(&e, "LoCoMo") })?;
    samples
        .into_iter()
        .find(|s| s.sample_id == sample_id)
        .map(|s| s.qa)
        .ok_or_else(|| Error::Import { path: path.to_path_buf(), reason: format!("no sample `{sample_id}`") })
}

/// Normalises LoCoMo evidence ids to `D<session>:<turn>` without leading zeros. The file has
/// a few malformed ones: `"D8:6; D9:17"` (two in one), `"D:11:26"` (extra colon), `"D30:05"`
/// (leading zero). Anything else unreadable is dropped; the caller counts what is left.
pub fn normalise_evidence(raw: &str) -> Vec<String> {
    raw.split([';', ',', ' '])
        .filter_map(|part| {
            let digits: Vec<u32> = part
                .trim()
                .strip_prefix('D')?
                .split(':')
                .filter(|s| !s.is_empty())
                .map(|s| s.trim().parse().ok())
                .collect::<Option<_>>()?;
            match digits.as_slice() {
                [session, turn] => Some(format!("D{session}:{turn}")),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("D1:3", &["D1:3"])]
    #[case("D8:6; D9:17", &["D8:6", "D9:17"])]
    #[case("D:11:26", &["D11:26"])]
    #[case("D30:05", &["D30:5"])]
    #[case("D", &[])]
    #[case("session 3", &[])]
    fn evidence_ids_are_normalised(#[case] raw: &str, #[case] want: &[&str]) {
        assert_eq!(normalise_evidence(raw), want, "the dataset's malformed ids must still match turns");
    }
}
