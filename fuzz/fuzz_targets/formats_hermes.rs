//! libFuzzer target for the Hermes text format; see `formats_common.rs` for what is checked.
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_hermes seeds/formats_hermes -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_common.rs"]
mod formats_common;

fuzz_target!(|data: &[u8]| formats_common::check(ToolFormat::Hermes, data));
