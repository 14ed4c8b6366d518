//! A deterministic stand-in embedder for unit tests: no model files, no ONNX Runtime.

use super::{Embedder, normalise};
use crate::error::Result;

/// Feature-hashed bag of lowercase words (weight 1) and their character trigrams (weight 0.5),
/// L2-normalised. Texts sharing words or word pieces score higher, and the same text always
/// gives the same vector, in any process. It knows no meaning ("car" and "automobile" are
/// unrelated to it), so it is for unit tests only; its model id is "hash-test".
///
/// A text with no letters or digits embeds to the zero vector, whose cosine with anything is 0.
#[derive(Debug, Clone)]
pub struct HashEmbedder {
    dimensions: usize,
}

impl HashEmbedder {
    /// The model id recorded on rows this embedder made.
    pub const MODEL_ID: &'static str = "hash-test";

    /// An embedder giving vectors of `dimensions` floats.
    ///
    /// # Panics
    /// If `dimensions` is 0: a test setting, never user input.
    pub fn new(dimensions: usize) -> Self {
        assert!(dimensions > 0, "HashEmbedder needs at least one dimension");
        HashEmbedder { dimensions }
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0; self.dimensions];
        let lower = text.to_lowercase();
        for word in lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            self.add(&mut v, word.as_bytes(), 1.0);
            // Trigrams of "^word$" let "forgetting" and "forget" share most of their weight.
            let chars: Vec<char> = std::iter::once('^')
                .chain(word.chars())
                .chain(Some('$'))
                .collect();
            for gram in chars.windows(3) {
                let gram: String = std::iter::once('#').chain(gram.iter().copied()).collect();
                self.add(&mut v, gram.as_bytes(), 0.5);
            }
        }
        normalise(&mut v);
        v
    }

    /// Adds `weight` at the feature's bucket, with a hash-chosen sign so that collisions cancel
    /// out on average instead of piling up.
    fn add(&self, v: &mut [f32], feature: &[u8], weight: f32) {
        let h = fnv1a(feature);
        // The bucket comes from the high bits, the sign from the lowest, so they are independent.
        let bucket = ((h >> 1) % self.dimensions as u64) as usize;
        v[bucket] += if h & 1 == 0 { weight } else { -weight };
    }
}

impl Default for HashEmbedder {
    /// 384 dimensions, the same as the real models, so code sized for them runs unchanged.
    fn default() -> Self {
        HashEmbedder::new(384)
    }
}

impl Embedder for HashEmbedder {
    fn model_id(&self) -> &str {
        Self::MODEL_ID
    }

    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.embed(t)).collect())
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        Ok(self.embed(text))
    }
}

/// 64-bit FNV-1a: tiny, and unlike std's `DefaultHasher` the same on every build and run.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;
    use rstest::rstest;

    fn query(e: &HashEmbedder, text: &str) -> Vec<f32> {
        e.embed_query(text).unwrap_or_default()
    }

    #[rstest]
    #[case(8)]
    #[case(64)]
    #[case(384)]
    fn vectors_have_the_asked_dimensions_and_unit_length(#[case] dims: usize) {
        let e = HashEmbedder::new(dims);
        assert_eq!(e.dimensions(), dims);
        let v = query(&e, "Anna moved to Malmö in March");
        assert_eq!(v.len(), dims, "every vector has dimensions() floats");
        let norm = cosine(&v, &v).sqrt();
        assert!(
            (norm - 1.0).abs() < 1e-5,
            "vectors are L2-normalised, norm was {norm}"
        );
    }

    #[test]
    fn same_text_gives_the_same_vector_and_case_does_not_matter() {
        let e = HashEmbedder::default();
        assert_eq!(
            query(&e, "I love Coffee"),
            query(&e, "i love coffee"),
            "words are lowercased before hashing"
        );
        assert_eq!(
            query(&e, "I love coffee"),
            HashEmbedder::default()
                .embed_query("I love coffee")
                .unwrap_or_default(),
            "a fresh embedder gives the same vector: tests can rely on fixed scores"
        );
    }

    #[test]
    fn shared_words_score_above_unrelated_text() {
        let e = HashEmbedder::default();
        let q = query(&e, "where does Anna live");
        let related = query(&e, "Anna lives in Malmö");
        let unrelated = query(&e, "the train was late again");
        assert!(
            cosine(&q, &related) > cosine(&q, &unrelated) + 0.1,
            "sharing `anna` and the trigrams of `live` must beat sharing nothing"
        );
    }

    #[test]
    fn passages_match_queries_and_keep_their_order() {
        let e = HashEmbedder::default();
        let texts = ["first text", "second text", ""];
        let vs = e.embed_passages(&texts).unwrap_or_default();
        assert_eq!(vs.len(), 3, "one vector per text");
        assert_eq!(
            vs[0],
            query(&e, "first text"),
            "the stand-in adds no passage/query prefix"
        );
        assert_eq!(
            vs[1],
            query(&e, "second text"),
            "vectors come back in input order"
        );
        assert!(
            vs[2].iter().all(|x| *x == 0.0),
            "text without words embeds to the zero vector"
        );
        assert_eq!(e.model_id(), "hash-test");
    }

    #[test]
    fn non_ascii_words_are_words() {
        let e = HashEmbedder::default();
        let a = query(&e, "smörgås");
        assert!(
            cosine(&a, &query(&e, "Smörgås!")) > 0.999,
            "å, ö lowercase and count as letters"
        );
        assert!(
            cosine(&a, &query(&e, "sm rg s")) < 0.5,
            "å and ö are not separators"
        );
    }
}
