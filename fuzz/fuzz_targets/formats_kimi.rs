//! libFuzzer target for the Kimi K2 text format; see `formats_common.rs` for what is checked
//! (streamed = whole at random chunkings; a cut-off reply completes no call the whole one
//! does not; every started call ends once; text, markup and call spans rebuild the input).
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_kimi seeds/formats_kimi -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_common.rs"]
mod formats_common;

fuzz_target!(|data: &[u8]| formats_common::check(ToolFormat::KimiK2, data));
