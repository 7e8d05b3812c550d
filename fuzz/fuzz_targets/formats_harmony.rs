//! libFuzzer target for the Harmony text format; see `formats_common.rs` for what is checked.
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_harmony seeds/formats_harmony -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_common.rs"]
mod formats_common;

fuzz_target!(|data: &[u8]| formats_common::check(ToolFormat::Harmony, data));
