//! The MCP `tools/call` reader under arbitrary input: no input may panic, and an accepted call
//! always carries JSON-object arguments.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::mcp;

fuzz_target!(|data: &[u8]| {
    let Ok(request) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Ok(call) = mcp::read_call(&request) {
        let args: Result<serde_json::Value, _> = serde_json::from_str(&call.arguments);
        assert!(
            args.is_ok_and(|v| v.is_object()),
            "accepted call without object arguments: {call:?}"
        );
    }
});
