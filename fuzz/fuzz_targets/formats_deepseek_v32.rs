//! libFuzzer target for the DeepSeek V3.2 DSML text format; see `formats_common.rs` and
//! `formats_dsml_common.rs` for what is checked.
//!
//! Run from `fuzz/` with `cargo +nightly fuzz run formats_deepseek_v32 seeds/formats_deepseek_v32 -- -max_total_time=600`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::ToolFormat;

#[path = "formats_dsml_common.rs"]
mod formats_dsml_common;

fuzz_target!(|data: &[u8]| formats_dsml_common::check(ToolFormat::DeepSeekV32, data));
