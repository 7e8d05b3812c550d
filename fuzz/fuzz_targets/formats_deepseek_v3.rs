//! libFuzzer target for the DeepSeek V3 and R1 text format; see `formats_common.rs` for what is checked.
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_deepseek_v3 seeds/formats_deepseek_v3 -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_common.rs"]
mod formats_common;

fuzz_target!(|data: &[u8]| formats_common::check(ToolFormat::DeepSeekV3, data));
