//! One rule for an MCP `tools/call` result: what `provider::mcp::call_result` writes is what
//! our `McpServer` answers, byte for byte, for every kind of response (plain text, an object
//! with and without an output schema, an error carrying data, a non-object result).

#![cfg(feature = "mcp")]

use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::McpServer;
use tool_core::provider::mcp;
use tool_core::{output_schema_of, CallFuture, Tool, ToolContext, ToolErrorCode};
use tool_core::{ToolRegistry, ToolResponse};
use tool_tests::mcp::harness::{bounded, call, Recorder};

/// A tool that always answers `response`, declaring `output_schema` when given.
struct Fixed {
    name: &'static str,
    response: ToolResponse,
    output_schema: Option<Value>,
}

impl Tool for Fixed {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "Answers the same response every time."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn output_schema(&self) -> Option<Value> {
        self.output_schema.clone()
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(self.response.clone())
    }
}

#[tool_core::tool_type]
struct Sum {
    total: i64,
}

fn cases() -> Vec<Fixed> {
    let object_schema = output_schema_of::<Sum>();
    let wrapped_schema = output_schema_of::<Vec<i64>>();
    // A list is not an object: its schema wraps it as `{"result": [...]}`.
    assert!(wrapped_schema.as_ref().unwrap()["properties"]
        .get("result")
        .is_some());
    let object = json!({"total": 3});
    vec![
        Fixed {
            name: "ok_text",
            response: ToolResponse::success("plain text"),
            output_schema: None,
        },
        Fixed {
            name: "ok_object_with_schema",
            response: ToolResponse::success("3").with_data(&object),
            output_schema: object_schema.clone(),
        },
        Fixed {
            name: "ok_object_without_schema",
            response: ToolResponse::success("3").with_data(&object),
            output_schema: None,
        },
        Fixed {
            name: "error_with_data",
            response: ToolResponse::error(ToolErrorCode::NotFound, "no such row")
                .with_data(&object),
            output_schema: object_schema,
        },
        Fixed {
            name: "ok_list_wrapped",
            response: ToolResponse::success("[1,2]").with_data(&json!([1, 2])),
            output_schema: wrapped_schema,
        },
        Fixed {
            name: "ok_list_without_schema",
            response: ToolResponse::success("[1,2]").with_data(&json!([1, 2])),
            output_schema: None,
        },
    ]
}

async fn in_process(server: McpServer) -> RunningService<RoleClient, Recorder> {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    Recorder::default().serve(near).await.unwrap()
}

#[tokio::test]
async fn the_server_answers_what_the_provider_writer_writes() {
    bounded(async {
        let cases = cases();
        let expected: Vec<(&str, Value)> = cases
            .iter()
            .map(|c| {
                (
                    c.name,
                    mcp::call_result(&c.response, c.output_schema.as_ref()),
                )
            })
            .collect();
        let mut registry = ToolRegistry::new();
        for case in cases {
            registry.register(case).unwrap();
        }
        let client = in_process(McpServer::new(registry)).await;
        for (name, written) in expected {
            let answered = client
                .peer()
                .call_tool(call(name, json!({})))
                .await
                .unwrap();
            assert_eq!(serde_json::to_value(&answered).unwrap(), written, "{name}");
        }
        client.cancel().await.unwrap();
    })
    .await;
}

#[test]
fn structured_content_only_for_a_success_with_an_output_schema() {
    let with = |name: &str| {
        let case = cases().into_iter().find(|c| c.name == name).unwrap();
        mcp::call_result(&case.response, case.output_schema.as_ref())
    };
    assert_eq!(
        with("ok_object_with_schema")["structuredContent"],
        json!({"total": 3})
    );
    assert_eq!(
        with("ok_list_wrapped")["structuredContent"],
        json!({"result": [1, 2]})
    );
    for name in [
        "ok_text",
        "ok_object_without_schema",
        "error_with_data",
        "ok_list_without_schema",
    ] {
        assert!(with(name).get("structuredContent").is_none(), "{name}");
    }
    assert_eq!(with("error_with_data")["isError"], true);
}
