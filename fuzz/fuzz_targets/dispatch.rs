//! Argument dispatch under arbitrary input: the first byte picks the tool name (one of several
//! parameter shapes, an unoffered tool, or an unknown name), the rest are the argument bytes
//! (not necessarily UTF-8).
//!
//! Run from `fuzz/` with:
//!
//! ```sh
//! cargo +nightly fuzz run dispatch corpus/dispatch seeds/dispatch -- -dict=dicts/dispatch.dict -max_total_time=600
//! ```
//!
//! Checked against an oracle written with serde alone: dispatch answers with exactly one
//! well-formed response and never panics; it succeeds exactly when the arguments decode into
//! a mirror of the tool's parameters that rejects unknown keys at every level (so a nested
//! typo is never accepted); and every error has its exact code: `NOT_FOUND`,
//! `PERMISSION_DENIED`, `INVALID_FORMAT` for bytes that are not UTF-8 or text that is not
//! JSON, `INVALID_PARAM` for JSON of the wrong shape or over the limits, and
//! `EXECUTION_ERROR` for `boom`'s deliberate panic.
#![no_main]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::error::Category;
use tool_core::{
    block_on, tool, tools, CallOptions, Limits, ToolErrorCode, ToolRegistry, ToolStatus,
};

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Searches with filters.
#[tool(read_only)]
fn search(
    /// What to look for.
    query: String,
    /// Page size.
    limit: Option<u32>,
    /// Tags to match.
    tags: Vec<String>,
    /// Weights per field.
    weights: Option<BTreeMap<String, f64>>,
) -> String {
    format!(
        "{query} {limit:?} {} {}",
        tags.len(),
        weights.map_or(0, |w| w.len())
    )
}

/// Panics when told to.
#[tool]
fn boom(crash: bool) -> String {
    if crash {
        panic!("told to crash");
    }
    "fine".into()
}

/// Deletes something (never offered).
#[tool(destructive)]
fn delete(path: String) -> String {
    path
}

/// Output options, with plain derives: serde alone would drop an unknown key here.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// Say more.
    pub verbose: Option<bool>,
    /// Line width.
    pub width: Option<u32>,
}

/// An item, internally tagged.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// A note.
    Note {
        /// Its text.
        text: String,
    },
    /// A rule.
    Rule {
        /// Its width.
        width: Option<u32>,
    },
}

/// Configures output: nested records in a struct, a list and an enum.
#[tool]
fn configure(opts: Option<Options>, items: Option<Vec<Item>>) -> String {
    format!("{opts:?} {}", items.map_or(0, |i| i.len()))
}

/// The oracle's mirrors: the same shapes, closed at every level.
mod mirror {
    use super::*;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    pub struct Add {
        a: i64,
        b: i64,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    pub struct Search {
        query: String,
        limit: Option<u32>,
        tags: Vec<String>,
        weights: Option<BTreeMap<String, f64>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Boom {
        pub crash: bool,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    pub struct Options {
        verbose: Option<bool>,
        width: Option<u32>,
    }

    #[derive(Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    #[allow(dead_code)]
    pub enum Item {
        Note { text: String },
        Rule { width: Option<u32> },
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    pub struct Configure {
        opts: Option<Options>,
        items: Option<Vec<Item>>,
    }

    /// The tool's own (open) nested types under a closed root, as serde alone decodes them.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    pub struct ConfigureAsDeclared {
        opts: Option<super::Options>,
        items: Option<Vec<super::Item>>,
    }
}

const LIMITS: Limits = Limits {
    max_argument_bytes: 1024 * 1024,
    max_depth: 64,
    max_output_bytes: Some(64),
    max_attachment_bytes: 10 * 1024 * 1024,
    max_attachments_total_bytes: 20 * 1024 * 1024,
};

/// The oracle for the argument limits, written apart from the library's check: too many
/// bytes, or objects/arrays nested deeper than allowed (brackets inside strings don't count).
fn over_limits(text: &str) -> bool {
    if text.len() > LIMITS.max_argument_bytes {
        return true;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for b in text.bytes() {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{' | b'[') => {
                depth += 1;
                if depth > LIMITS.max_depth {
                    return true;
                }
            }
            (false, _, b'}' | b']') => depth = depth.saturating_sub(1),
            (false, _, _) => {}
        }
    }
    false
}

fn registry() -> &'static ToolRegistry {
    static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        // Silence the default hook: `boom` panics on purpose, often.
        std::panic::set_hook(Box::new(|_| {}));
        tools![add, search, boom, delete, configure].with_limits(LIMITS)
    })
}

const NAMES: [&[u8]; 7] = [
    b"add",
    b"search",
    b"boom",
    b"delete",
    b"",
    b"serach",
    b"configure",
];
const OFFERED: [&str; 4] = ["add", "search", "boom", "configure"];

/// How serde alone decodes argument text into `T`, with the documented conveniences: blank
/// text and `null` mean `{}`, an array is refused, and a JSON string holding an object is
/// decoded once more. `Err` carries serde's error category.
fn serde_decode<T: DeserializeOwned>(text: &str) -> Result<T, Option<Category>> {
    let trimmed = text.trim();
    let text = if trimmed.is_empty() || trimmed == "null" {
        "{}"
    } else {
        trimmed
    };
    if text.starts_with('[') {
        return Err(None);
    }
    match serde_json::from_str::<T>(text) {
        Ok(v) => Ok(v),
        Err(first) => {
            let inner = serde_json::from_str::<String>(text)
                .ok()
                .filter(|s| s.trim_start().starts_with('{'));
            match inner {
                Some(inner) => {
                    serde_json::from_str::<T>(inner.trim()).map_err(|e| Some(e.classify()))
                }
                None => Err(Some(first.classify())),
            }
        }
    }
}

/// What dispatch must answer: `Ok(crashes)` for a call that runs, or the exact error code.
fn expected<Strict: DeserializeOwned, Declared: DeserializeOwned>(
    text: &str,
) -> Result<(), ToolErrorCode> {
    match serde_decode::<Strict>(text) {
        Ok(_) => Ok(()),
        // Not JSON, judged by the decoder the tool really uses (a closed mirror may stop at an
        // unknown key before reaching a syntax error).
        Err(_) => match serde_decode::<Declared>(text) {
            Err(Some(Category::Syntax | Category::Eof | Category::Io)) => {
                Err(ToolErrorCode::InvalidFormat)
            }
            _ => Err(ToolErrorCode::InvalidParam),
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, arguments)) = data.split_first() else {
        return;
    };
    let name = NAMES[usize::from(selector) % NAMES.len()];
    let options = CallOptions::new().offer(&OFFERED);
    let response = block_on(registry().call_bytes("fuzz", name, arguments, &options));

    // Exactly one well-formed response: errors carry a code, everything carries a time.
    assert!(response.time_ms().is_some());
    let expected = match name {
        b"delete" => Err(ToolErrorCode::PermissionDenied),
        b"" | b"serach" => Err(ToolErrorCode::NotFound),
        _ => match std::str::from_utf8(arguments) {
            Err(_) => Err(ToolErrorCode::InvalidFormat),
            Ok(text) if over_limits(text) => {
                Err(ToolErrorCode::InvalidParam)
            }
            Ok(text) => match name {
                b"add" => expected::<mirror::Add, mirror::Add>(text),
                b"search" => expected::<mirror::Search, mirror::Search>(text),
                b"boom" => match serde_decode::<mirror::Boom>(text) {
                    Ok(b) if b.crash => Err(ToolErrorCode::ExecutionError),
                    _ => expected::<mirror::Boom, mirror::Boom>(text),
                },
                _ => expected::<mirror::Configure, mirror::ConfigureAsDeclared>(text),
            },
        },
    };
    match (response.status, expected) {
        (ToolStatus::Error, Err(code)) => {
            assert_eq!(response.error_code(), Some(code), "{response:?}");
        }
        (ToolStatus::Success | ToolStatus::Partial, Ok(())) => {
            let data = response.data.as_ref().map_or(0, |d| d.get().len());
            assert!(response.text.len() + data <= 64 + 1, "output cap respected");
        }
        (status, expected) => {
            panic!("dispatch answered {status:?} ({response:?}), the oracle says {expected:?}")
        }
    }
});
