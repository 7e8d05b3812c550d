//! A 200-tool deferred catalogue on the APIs with native tool search (Anthropic, OpenAI
//! Responses): what the first request carries, against sending every schema as an ordinary
//! tool.
//!
//! On these APIs the request still carries every schema (the provider needs them to search
//! and to load what it finds); what shrinks is what the model reads up front: only the tools
//! not deferred and the search tool, the deferred ones staying out of its context until a
//! search loads them. So the test measures both: the request's `tools` bytes (a little larger
//! than sending everything plainly: one `defer_loading` field per tool and the search tool)
//! and the bytes of the tools the model sees before any search (at least 90% smaller).
//!
//! The catalogue: the 166 tools of `tests/fixtures/tool_search/tools.json` (public MCP
//! servers' published tool lists; its README names them), plus the first 34 GitHub tools again
//! under a `ghe_` prefix, as a second GitHub server (an Enterprise instance) would add them.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Message, ModelRequest, OfferedTools, OpenAiResponses};
use tool_core::provider::{Anthropic as AnthropicApi, ChatApi, OpenAiResponses as ResponsesApi};
use tool_core::{CallFuture, Tool, ToolContext, ToolDefinition, ToolRegistry, ToolResponse};

use crate::http_support;

struct Listed(ToolDefinition, bool);

impl Tool for Listed {
    fn name(&self) -> &str {
        &self.0.name
    }
    fn description(&self) -> &str {
        &self.0.description
    }
    fn input_schema(&self) -> Value {
        (*self.0.input_schema).clone()
    }
    fn defer_loading(&self) -> bool {
        self.1
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(ToolResponse::success("ok"))
    }
}

/// 200 tools, all deferred except `read_file` and `search_code`.
fn catalogue() -> ToolRegistry {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/tool_search/tools.json");
    let tools: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tools = tools.as_array().unwrap();
    let again = tools
        .iter()
        .filter(|t| t["server"] == "github")
        .take(34)
        .map(|t| {
            let mut t = t.clone();
            t["name"] = json!(format!("ghe_{}", t["name"].as_str().unwrap()));
            t
        })
        .collect::<Vec<_>>();
    let mut registry = ToolRegistry::new();
    for tool in tools.iter().chain(&again) {
        let name = tool["name"].as_str().unwrap();
        let definition = ToolDefinition::new(
            name,
            tool["description"].as_str().unwrap(),
            tool["input_schema"].clone(),
        );
        let deferred = !matches!(name, "read_file" | "search_code");
        registry
            .register_arc(Arc::new(Listed(definition, deferred)))
            .unwrap();
    }
    assert_eq!(registry.definitions().len(), 200);
    registry
}

/// The up-front share: the request's tools minus the deferred ones.
fn up_front(tools: &Value) -> usize {
    let shown: Vec<&Value> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("defer_loading") != Some(&json!(true)))
        .collect();
    serde_json::to_string(&shown).unwrap().len()
}

fn check(api: &str, native: &Value, plain: &Value, loaded: usize) {
    let native_bytes = native.to_string().len();
    let plain_bytes = plain.to_string().len();
    let shown = up_front(native);
    let saved = 1.0 - shown as f64 / plain_bytes as f64;
    println!(
        "{api}: 200 tools; request tools {native_bytes} bytes with defer_loading + search tool, \
         {plain_bytes} bytes all sent plainly; up front {shown} bytes ({:.1}% less)",
        saved * 100.0
    );
    assert_eq!(
        native.as_array().unwrap().len(),
        201,
        "every tool and the search tool"
    );
    let deferred = native
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["defer_loading"] == true)
        .count();
    assert_eq!(deferred, 200 - loaded);
    assert!(native_bytes > plain_bytes, "the schemas are all still sent");
    assert!(
        saved >= 0.90,
        "{api}: only {:.1}% less up front",
        saved * 100.0
    );
}

#[test]
fn a_200_tool_catalogue_on_native_tool_search() {
    let registry = catalogue();
    let messages = [Message::user("Open an issue about the flaky test.")];
    let request = ModelRequest::new(&messages, OfferedTools::all(&registry));

    let anthropic = Anthropic::new("claude-sonnet-4-5").request_body(&request);
    let plain = AnthropicApi::tools(registry.definitions());
    check("Anthropic", &anthropic["tools"], &plain, 2);
    let last = &anthropic["tools"][200];
    assert_eq!(last["type"], "tool_search_tool_bm25_20251119");
    http_support::assert_sdk_accepts_bodies("/v1/messages", &[anthropic]);

    let responses = OpenAiResponses::new("gpt-5.4").request_body(&request);
    let plain = ResponsesApi::tools(registry.definitions());
    check("OpenAI Responses", &responses["tools"], &plain, 2);
    assert_eq!(responses["tools"][200], json!({"type": "tool_search"}));
    http_support::assert_sdk_accepts_bodies("/v1/responses", &[responses]);

    // Without native search the same request sends the catalogue plainly, no search tool.
    let off = Anthropic::new("claude-sonnet-4-5")
        .with_tool_search(None)
        .request_body(&request);
    assert_eq!(off["tools"], AnthropicApi::tools(registry.definitions()));
    let off = OpenAiResponses::new("gpt-5.4")
        .with_tool_search(false)
        .request_body(&request);
    assert_eq!(off["tools"], ResponsesApi::tools(registry.definitions()));
}
