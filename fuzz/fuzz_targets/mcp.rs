//! The MCP `tools/call` reader under arbitrary input. The first byte picks raw JSON (even) or
//! a well-formed request built with `arbitrary` (odd). No input may panic, and:
//! - an accepted call always carries JSON-object arguments;
//! - an accepted call written as a request again reads back as the same call;
//! - a result is always `content` with one text block and a boolean `isError` that is true
//!   exactly for an `ERROR`, and `structuredContent` only for object data.
#![no_main]

mod common;

use arbitrary::{Arbitrary, Unstructured};
use common::{object, J, S};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_core::provider::mcp;
use tool_core::{ToolErrorCode, ToolResponse};

#[derive(Arbitrary, Debug)]
enum Id {
    Number(i64),
    Text(S),
    Other(J),
}

#[derive(Arbitrary, Debug)]
struct Shaped {
    id: Id,
    name: Option<S>,
    arguments: Option<Vec<(String, J)>>,
    other_arguments: Option<J>,
    result_text: String,
    result_data: Option<J>,
    error: bool,
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let request = if mode % 2 == 0 {
        let Ok(request) = serde_json::from_slice::<Value>(rest) else {
            return;
        };
        request
    } else {
        let Ok(shaped) = Shaped::arbitrary(&mut Unstructured::new(rest)) else {
            return;
        };
        check_result(&shaped);
        let mut params = json!({});
        if let Some(name) = &shaped.name {
            params["name"] = json!(name.get());
        }
        if let Some(arguments) = &shaped.arguments {
            params["arguments"] = object(arguments);
        } else if let Some(other) = &shaped.other_arguments {
            params["arguments"] = other.value();
        }
        let id = match &shaped.id {
            Id::Number(n) => json!(n),
            Id::Text(s) => json!(s.get()),
            Id::Other(j) => j.value(),
        };
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let Some(request) = common::as_received(&request) else {
            return;
        };
        request
    };
    let Ok(call) = mcp::read_call(&request) else {
        return;
    };
    let args: Result<Value, _> = serde_json::from_str(&call.arguments);
    let Ok(args) = args else {
        panic!("accepted call without JSON arguments: {call:?}");
    };
    assert!(
        args.is_object(),
        "accepted call without object arguments: {call:?}"
    );
    let again = json!({"jsonrpc": "2.0", "id": call.id, "method": "tools/call",
        "params": {"name": call.name, "arguments": args}});
    assert_eq!(
        mcp::read_call(&again).ok(),
        Some(call),
        "a call written again reads back the same"
    );
});

fn check_result(shaped: &Shaped) {
    let mut response = if shaped.error {
        ToolResponse::error(ToolErrorCode::InvalidParam, shaped.result_text.clone())
    } else {
        ToolResponse::success(shaped.result_text.clone())
    };
    if let Some(data) = &shaped.result_data {
        response = response.with_data(&data.value());
    }
    // A tool with an (unwrapped) output schema: a success carries its data as
    // `structuredContent`, an error never does.
    let schema = json!({"type": "object"});
    let out = mcp::call_result(&response, Some(&schema));
    assert_eq!(out["content"][0]["type"], "text");
    assert_eq!(out["content"][0]["text"], json!(response.model_text()));
    assert_eq!(out["isError"], json!(shaped.error));
    // Data as serde_json reads it back (its raw-value token key has a meaning of its own).
    let any_data = shaped
        .result_data
        .as_ref()
        .and_then(|d| common::as_received(&d.value()))
        .is_some();
    assert_eq!(
        out.get("structuredContent").is_some(),
        any_data && !shaped.error
    );
}
