//! Fuzzes the `chatgpt` import parser: text in, parsed sessions out, no panic.
#![no_main]

mod check;

use libfuzzer_sys::fuzz_target;
use minne::import::ImportFormat;

fuzz_target!(|data: &[u8]| check::check(ImportFormat::Chatgpt, data));
