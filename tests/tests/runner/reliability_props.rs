//! Property tests: whatever text or bytes a model sends, dispatch answers with exactly one
//! well-formed response, with a code from the expected set, and never panics.

use proptest::prelude::*;
use tool_core::{
    block_on, tool, tools, CallOptions, Limits, ToolCall, ToolErrorCode, ToolRegistry, ToolStatus,
};

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Searches.
#[tool]
fn search(query: String, limit: Option<u32>, tags: Vec<String>) -> String {
    format!("{query}{limit:?}{}", tags.len())
}

fn registry() -> ToolRegistry {
    tools![add, search].with_limits(Limits {
        max_argument_bytes: 4096,
        max_depth: 8,
        max_output_bytes: Some(32),
        ..Limits::default()
    })
}

fn argument_error(code: Option<ToolErrorCode>) -> bool {
    matches!(
        code,
        Some(ToolErrorCode::InvalidParam) | Some(ToolErrorCode::InvalidFormat)
    )
}

/// JSON-ish text: mostly the right shape, with the usual mistakes mixed in.
fn jsonish() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        r#"\{"(a|b|query|tags|limit|x)": ?(-?[0-9]{1,25}(\.[0-9]+)?|"[^"\\]{0,20}"|true|null|\[[0-9, ]{0,10}\]|\{\})(, ?"(a|b|tags)": ?([0-9]{1,3}|\["[a-z]{0,3}"\]))?\}?"#,
        "[\\[\\]{}\",:0-9a-z ]{0,64}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_text_arguments_get_one_well_formed_response(args in jsonish(), tool in prop_oneof![Just("add"), Just("search")]) {
        let r = registry().call_blocking(&ToolCall::new("p", tool, args));
        prop_assert!(r.time_ms().is_some());
        match r.status {
            ToolStatus::Error => prop_assert!(argument_error(r.error_code()), "{:?}", r.error_info),
            _ => prop_assert!(r.text.len() <= 33),
        }
    }

    #[test]
    fn any_bytes_get_one_well_formed_response(name in proptest::collection::vec(any::<u8>(), 0..12), args in proptest::collection::vec(any::<u8>(), 0..128)) {
        let r = block_on(registry().call_bytes("p", &name, &args, &CallOptions::NONE));
        prop_assert!(r.time_ms().is_some());
        if name != b"add" && name != b"search" {
            prop_assert_eq!(r.error_code(), Some(ToolErrorCode::NotFound));
        } else if r.is_error() {
            prop_assert!(argument_error(r.error_code()));
        }
    }

    #[test]
    fn well_formed_add_calls_always_succeed(a in any::<i64>(), b in any::<i64>()) {
        let r = registry().call_blocking(&ToolCall::new("p", "add", format!(r#"{{"a":{a},"b":{b}}}"#)));
        prop_assert_eq!(r.model_text(), a.wrapping_add(b).to_string());
    }

    #[test]
    fn unoffered_tools_never_run(args in jsonish()) {
        let options = CallOptions::new().offer(&["add"]);
        let r = block_on(registry().call_with(&ToolCall::new("p", "search", args), &options));
        prop_assert_eq!(r.error_code(), Some(ToolErrorCode::PermissionDenied));
    }
}
