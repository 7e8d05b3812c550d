//! OpenAI Responses' programmatic tool calling through the runner, over loopback HTTP,
//! streamed and whole: `{"type": "programmatic_tool_calling"}` is offered beside the
//! functions programs may call, which say `allowed_callers: ["programmatic"]` (a direct-only
//! function says nothing); the `program` item goes back unchanged, its `fingerprint`
//! included, and each `function_call` with its `caller`; each call gets one
//! `function_call_output`; the direct-only function called by the program is refused and
//! never runs.
//!
//! Recorded traffic: vercel/ai's gpt-5.6-sol session
//! `tests/fixtures/http/callers_openai_responses_turn{1,2,3}.sse` (each names its source);
//! read whole, each turn is the `response` of its `response.completed` event.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::OpenAiResponses;
use tool_core::runner::Runner;
use tool_core::{AllowedCallers, ToolRegistry};
use wiremock::{Request, ResponseTemplate};

use crate::http_support::counted::Counted;
use crate::http_support::{self, fixture, requests, server, sse};

const ROUTE: &str = "/v1/responses";
const PROGRAM: &str = "call_voPdoCqf8APY4DMpam3bdmxq";

/// A counted tool of this session (see `http_support::counted`).
fn counted(name: &'static str, allowed: AllowedCallers, runs: &Arc<AtomicUsize>) -> Counted {
    Counted {
        name,
        description: "A tool of the recorded session.",
        schema: json!({"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}),
        allowed,
        result: json!({"sku": "sku_123", "availableUnits": 42}).to_string(),
        runs: Arc::clone(runs),
    }
}

/// The recorded stream of turn `n`, and the same turn whole.
fn turn(n: usize) -> (String, Value) {
    let stream = fixture(&format!("callers_openai_responses_turn{n}.sse"));
    let whole = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str::<Value>(l).expect("an event is JSON"))
        .find(|e| e["type"] == "response.completed")
        .map(|e| e["response"].clone())
        .expect("the recording completes");
    (stream, whole)
}

/// The recorded output item of turn `n` of this type, as the model got it: streamed, from
/// its `response.output_item.done` event (the encrypted `fingerprint` differs from the one in
/// `response.completed`).
fn item(n: usize, kind: &str, stream: bool) -> Value {
    let (events, whole) = turn(n);
    let items: Vec<Value> = if stream {
        events
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|l| serde_json::from_str::<Value>(l).expect("an event is JSON"))
            .filter(|e| e["type"] == "response.output_item.done")
            .map(|e| e["item"].clone())
            .collect()
    } else {
        whole["output"].as_array().cloned().unwrap_or_default()
    };
    items
        .into_iter()
        .find(|i| i["type"] == kind)
        .unwrap_or_else(|| panic!("turn {n} has no {kind} item"))
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

async fn session(stream: bool) {
    let responses = (1..=3)
        .map(|n| {
            let (events, whole) = turn(n);
            if stream {
                sse(events)
            } else {
                ResponseTemplate::new(200).set_body_json(whole)
            }
        })
        .collect();
    let server = server(ROUTE, responses).await;
    // `getInventory` allows programs only; `getDemand` only direct calls, so the program's
    // call of it is refused.
    let (inventory, demand) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let registry = ToolRegistry::new()
        .with(counted("getInventory", AllowedCallers::Program, &inventory))
        .with(counted("getDemand", AllowedCallers::Direct, &demand));
    let base = format!("{}/v1", server.uri());
    let model = OpenAiResponses::new("gpt-5.6-sol")
        .with_api_key("sk-test")
        .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(stream));
    let result = Runner::new(model, registry)
        .run("Is there enough stock of sku_123?")
        .await
        .unwrap_or_else(|e| panic!("stream={stream}: {e}"));
    assert!(result.final_text().is_ok_and(|t| t.contains("42 units")));
    assert_eq!(inventory.load(Ordering::SeqCst), 1);
    assert_eq!(
        demand.load(Ordering::SeqCst),
        0,
        "a direct-only function ran for a program"
    );

    let sent = requests(&server).await;
    assert_eq!(sent.len(), 3);
    http_support::assert_sdk_accepts(ROUTE, &sent);
    let bodies: Vec<Value> = sent.iter().map(body).collect();
    for body in &bodies {
        let tools = body["tools"].as_array().expect("tools");
        let programs = tools
            .iter()
            .filter(|t| **t == json!({"type": "programmatic_tool_calling"}))
            .count();
        assert_eq!(programs, 1, "{body}");
        assert_eq!(tools[0]["name"], "getInventory");
        assert_eq!(tools[0]["allowed_callers"], json!(["programmatic"]));
        assert_eq!(tools[1]["name"], "getDemand");
        assert!(tools[1].get("allowed_callers").is_none(), "{}", tools[1]);
    }
    // The program item goes back as it came, fingerprint included; each call with its
    // caller; one function_call_output per call, the direct-only one's a refusal.
    let input = bodies[2]["input"].as_array().unwrap();
    let program = item(1, "program", stream);
    assert!(program["fingerprint"]
        .as_str()
        .is_some_and(|f| f.len() > 40));
    assert_eq!(input.iter().filter(|i| **i == program).count(), 1);
    for n in [1, 2] {
        let call = item(n, "function_call", stream);
        assert_eq!(
            call["caller"],
            json!({"type": "program", "caller_id": PROGRAM})
        );
        assert_eq!(input.iter().filter(|i| **i == call).count(), 1, "turn {n}");
    }
    let outputs: Vec<&Value> = input
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .collect();
    let calls: Vec<&Value> = input
        .iter()
        .filter(|i| i["type"] == "function_call")
        .collect();
    assert_eq!(outputs.len(), calls.len());
    for (output, call) in outputs.iter().zip(&calls) {
        assert_eq!(output["call_id"], call["call_id"]);
    }
    assert!(outputs[0]["output"]
        .as_str()
        .is_some_and(|o| o.contains("availableUnits")));
    assert!(outputs[1]["output"]
        .as_str()
        .is_some_and(|o| o.contains("only be called by you directly")));
}

#[tokio::test]
async fn a_streamed_program_session_offers_programs_and_sends_the_program_back() {
    session(true).await;
}

#[tokio::test]
async fn a_whole_program_session_offers_programs_and_sends_the_program_back() {
    session(false).await;
}
