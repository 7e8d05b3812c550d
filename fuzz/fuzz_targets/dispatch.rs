//! Argument dispatch under arbitrary input: the first byte picks the tool name (one of several
//! parameter shapes, an unoffered tool, or an unknown name), the rest are the argument bytes
//! (not necessarily UTF-8). Whatever the input, dispatch must answer with exactly one
//! well-formed response and never panic; `boom` panics on purpose, and that panic must come
//! back as EXECUTION_ERROR.
#![no_main]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
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

fn registry() -> &'static ToolRegistry {
    static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        // Silence the default hook: `boom` panics on purpose, often.
        std::panic::set_hook(Box::new(|_| {}));
        tools![add, search, boom, delete].with_limits(Limits {
            max_output_bytes: Some(64),
            ..Limits::default()
        })
    })
}

const NAMES: [&[u8]; 6] = [b"add", b"search", b"boom", b"delete", b"", b"serach"];
const OFFERED: [&str; 3] = ["add", "search", "boom"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, arguments)) = data.split_first() else {
        return;
    };
    let name = NAMES[usize::from(selector) % NAMES.len()];
    let options = CallOptions::new().offer(&OFFERED);
    let response = block_on(registry().call_bytes("fuzz", name, arguments, &options));

    // Exactly one well-formed response: errors carry a code, everything carries a time.
    assert!(response.time_ms().is_some());
    match response.status {
        ToolStatus::Error => {
            let code = response.error_code().expect("an ERROR always has a code");
            match name {
                b"delete" => assert_eq!(code, ToolErrorCode::PermissionDenied),
                b"" | b"serach" => assert_eq!(code, ToolErrorCode::NotFound),
                _ => assert!(matches!(
                    code,
                    ToolErrorCode::InvalidParam
                        | ToolErrorCode::InvalidFormat
                        | ToolErrorCode::ExecutionError
                )),
            }
        }
        ToolStatus::Success | ToolStatus::Partial => {
            assert!(OFFERED.iter().any(|n| n.as_bytes() == name));
            let data = response.data.as_ref().map_or(0, |d| d.get().len());
            assert!(response.text.len() + data <= 64 + 1, "output cap respected");
        }
    }
});
