//! Evaluation harnesses: measure capture and recall on public, labelled data.

pub mod capture;
pub mod locomo;
