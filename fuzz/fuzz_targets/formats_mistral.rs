//! libFuzzer target for the Mistral text format; see `formats_common.rs` for what is checked.
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_mistral seeds/formats_mistral -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_common.rs"]
mod formats_common;

fuzz_target!(|data: &[u8]| formats_common::check(ToolFormat::Mistral, data));
