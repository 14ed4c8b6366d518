//! Evaluation harnesses: measure capture, consolidation and recall on public, labelled data.

pub mod capture;
pub mod consolidation;
pub mod embed_cache;
pub mod locomo;
pub mod longmemeval;
pub mod metrics;
pub mod plot;
pub mod retrieval;
pub mod speed;
