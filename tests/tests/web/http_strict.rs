//! OpenAI strict mode keeps optional parameters optional, over loopback HTTP with the real
//! client: the request's schema makes an optional property required and nullable, the
//! model's `null` for it reaches the tool as the property left out, a real value passes
//! through, and `StrictMode` per tool and per registry changes what is sent. Non-streamed
//! responses in the shapes of the Chat Completions and Responses API references
//! (`Endpoint::with_stream(false)`); ids and arguments are this test's.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tool_core::model::{Message, Model, OpenAiChat, OpenAiResponses};
use tool_core::{tool, CallFuture, StrictMode, Tool, ToolContext, ToolRegistry, ToolResponse};
use wiremock::ResponseTemplate;

use crate::http_support::{assert_sdk_accepts, converse_as, requests, server, test_endpoint};

const CHAT: &str = "/v1/chat/completions";
const RESPONSES: &str = "/v1/responses";
const DONE: &str = "Here are the files.";

/// A tool defined at run time (as an MCP server's or a configuration's would be): a required
/// `folder` and an optional paging `cursor` whose schema does not admit null. It answers with
/// the arguments it received, so the test sees exactly what reached it.
#[derive(Clone, Default)]
struct ListFiles {
    received: Arc<Mutex<Vec<Value>>>,
}

impl ListFiles {
    fn received(&self) -> Vec<Value> {
        self.received.lock().unwrap().clone()
    }
}

impl Tool for ListFiles {
    fn name(&self) -> &str {
        "list_files"
    }
    fn description(&self) -> &str {
        "Lists the files of a folder, one page at a time."
    }
    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "folder": {"type": "string", "description": "The folder."},
                "cursor": {"type": "string", "description": "Where the previous page ended; leave out for the first page."}
            },
            "required": ["folder"]
        })
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        let value: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
        self.received.lock().unwrap().push(value);
        CallFuture::ready(ToolResponse::success(arguments.to_string()))
    }
}

/// Searches the docs.
#[tool]
fn search_docs(
    /// What to look for.
    query: String,
    /// At most this many hits.
    limit: Option<u32>,
    /// Hits per page.
    #[arg(default = 10)]
    page_size: u32,
) -> String {
    format!("query={query} limit={limit:?} page_size={page_size}")
}

/// The model's three calls: `null` for each optional parameter, then real values.
const CALLS: [(&str, &str, &str); 3] = [
    (
        "call_s1",
        "list_files",
        r#"{"folder":"docs","cursor":null}"#,
    ),
    (
        "call_s2",
        "list_files",
        r#"{"folder":"docs","cursor":"page-2"}"#,
    ),
    (
        "call_s3",
        "search_docs",
        r#"{"query":"strict","limit":null,"page_size":null}"#,
    ),
];

fn chat_replies() -> Vec<ResponseTemplate> {
    let calls: Vec<Value> = CALLS
        .iter()
        .map(|(id, name, arguments)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    let first = json!({
        "id": "chatcmpl-strict1", "object": "chat.completion", "created": 1731321600, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "refusal": null, "tool_calls": calls}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180}
    });
    let second = json!({
        "id": "chatcmpl-strict2", "object": "chat.completion", "created": 1731321601, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": DONE}}],
        "usage": {"prompt_tokens": 220, "completion_tokens": 5, "total_tokens": 225}
    });
    vec![
        ResponseTemplate::new(200).set_body_json(first),
        ResponseTemplate::new(200).set_body_json(second),
    ]
}

fn responses_replies() -> Vec<ResponseTemplate> {
    let output: Vec<Value> = CALLS
        .iter()
        .enumerate()
        .map(|(i, (id, name, arguments))| {
            json!({"id": format!("fc_s{i}"), "type": "function_call", "status": "completed",
                   "call_id": id, "name": name, "arguments": arguments})
        })
        .collect();
    let first = json!({"id": "resp_strict1", "object": "response", "status": "completed", "model": "gpt-4.1",
        "output": output, "usage": {"input_tokens": 120, "output_tokens": 60, "total_tokens": 180}});
    let second = json!({"id": "resp_strict2", "object": "response", "status": "completed", "model": "gpt-4.1",
        "output": [{"id": "msg_s2", "type": "message", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": DONE, "annotations": []}]}],
        "usage": {"input_tokens": 220, "output_tokens": 5, "total_tokens": 225}});
    vec![
        ResponseTemplate::new(200).set_body_json(first),
        ResponseTemplate::new(200).set_body_json(second),
    ]
}

fn chat_model(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiChat::new("gpt-4o")
            .with_api_key("sk-test")
            .with_endpoint(|e| test_endpoint(e, base).with_stream(false)),
    )
}

fn responses_model(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiResponses::new("gpt-4.1")
            .with_api_key("sk-test")
            .with_endpoint(|e| test_endpoint(e, base).with_stream(false)),
    )
}

/// One conversation over `route`: the request bodies and the tool results the model got back.
async fn run(
    route: &str,
    replies: Vec<ResponseTemplate>,
    model: fn(String) -> Box<dyn Model>,
    registry: &ToolRegistry,
) -> (Vec<Value>, Vec<String>) {
    let server = server(route, replies).await;
    let model = model(format!("{}/v1", server.uri()));
    let conversation = converse_as(model.as_ref(), registry, "List the docs folder.", 3).await;
    assert_eq!(conversation.outcome.as_deref().ok(), Some(DONE));
    let received = requests(&server).await;
    assert_sdk_accepts(route, &received);
    let bodies = received
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    let results = conversation
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { results } => Some(results),
            _ => None,
        })
        .flatten()
        .map(|r| r.response.model_text().into_owned())
        .collect();
    (bodies, results)
}

/// The `parameters` and `strict` sent for each tool, by name, for either API's tool shape.
fn sent_tools(body: &Value) -> Vec<(String, Value, Value)> {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let f = t.get("function").unwrap_or(t);
            (
                f["name"].as_str().unwrap().to_string(),
                f["parameters"].clone(),
                f["strict"].clone(),
            )
        })
        .collect()
}

fn strict_registry() -> (ToolRegistry, ListFiles) {
    let list = ListFiles::default();
    let registry = ToolRegistry::new().with(list.clone()).with(search_docs {});
    (registry, list)
}

async fn optional_parameters_stay_optional(
    route: &str,
    replies: Vec<ResponseTemplate>,
    model: fn(String) -> Box<dyn Model>,
) {
    let (registry, list) = strict_registry();
    let (bodies, results) = run(route, replies, model, &registry).await;

    let tools = sent_tools(&bodies[0]);
    let (name, list_params, strict) = &tools[0];
    assert_eq!((name.as_str(), strict), ("list_files", &json!(true)));
    assert_eq!(list_params["required"], json!(["folder", "cursor"]));
    assert_eq!(
        list_params["properties"]["cursor"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(list_params["additionalProperties"], json!(false));
    let (name, search_params, strict) = &tools[1];
    assert_eq!((name.as_str(), strict), ("search_docs", &json!(true)));
    assert_eq!(
        search_params["required"],
        json!(["query", "limit", "page_size"])
    );
    assert_eq!(
        search_params["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        search_params["properties"]["page_size"]["type"],
        json!(["integer", "null"])
    );

    // The model's null reached the tool as the property left out; a value passed through.
    assert_eq!(
        list.received(),
        [
            json!({"folder": "docs"}),
            json!({"folder": "docs", "cursor": "page-2"})
        ]
    );
    assert_eq!(
        results,
        [
            r#"{"folder":"docs"}"#,
            r#"{"folder":"docs","cursor":"page-2"}"#,
            "query=strict limit=None page_size=10",
        ]
    );
}

#[tokio::test]
async fn chat_completions_optional_parameters_stay_optional() {
    optional_parameters_stay_optional(CHAT, chat_replies(), chat_model).await;
}

#[tokio::test]
async fn responses_optional_parameters_stay_optional() {
    optional_parameters_stay_optional(RESPONSES, responses_replies(), responses_model).await;
}

/// A tool set to `StrictMode::Off` goes as it is with `strict: false`, and the model's
/// arguments reach it untouched; the registry's other tools stay strict.
#[tokio::test]
async fn chat_completions_tool_strict_off_sends_the_schema_as_it_is() {
    let (registry, list) = strict_registry();
    let registry = registry.with_tool_strict("list_files", StrictMode::Off);
    let (bodies, results) = run(CHAT, chat_replies(), chat_model, &registry).await;
    let tools = sent_tools(&bodies[0]);
    assert_eq!(tools[0].1, list.input_schema());
    assert_eq!(tools[0].2, json!(false));
    assert_eq!(tools[1].2, json!(true));
    assert_eq!(
        list.received()[0],
        json!({"folder": "docs", "cursor": null})
    );
    assert_eq!(results[2], "query=strict limit=None page_size=10");
}

/// `with_strict(StrictMode::Off)` for the whole registry: every tool plain, over Responses.
#[tokio::test]
async fn responses_registry_strict_off_sends_every_schema_as_it_is() {
    let (registry, list) = strict_registry();
    let registry = registry.with_strict(StrictMode::Off);
    let server = server(RESPONSES, responses_replies()).await;
    let model = responses_model(format!("{}/v1", server.uri()));
    let conversation = converse_as(model.as_ref(), &registry, "List the docs folder.", 3).await;
    let received = requests(&server).await;
    assert_sdk_accepts(RESPONSES, &received);
    let body: Value = serde_json::from_slice(&received[0].body).unwrap();
    let tools = sent_tools(&body);
    assert!(tools.iter().all(|(_, _, strict)| *strict == json!(false)));
    assert_eq!(tools[0].1, list.input_schema());
    assert_eq!(tools[1].1["required"], json!(["query"]));
    assert_eq!(
        list.received()[0],
        json!({"folder": "docs", "cursor": null})
    );
    // Untouched, the defaulted parameter's null is the function's own error to report.
    let turn_results: Vec<_> = conversation
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { results } => Some(results),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(turn_results[2].response.is_error());
}
