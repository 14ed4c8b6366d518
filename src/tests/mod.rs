//! Engine-wide property tests.

mod isolation;
