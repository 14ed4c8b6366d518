//! The commands the UI calls, one module per domain. Each is a few lines around one engine
//! call; the memory logic lives in the engine.

pub mod contexts;
pub mod edit;
pub mod episodes;
pub mod forget;
pub mod mode;
pub mod profile;
pub mod recall;
