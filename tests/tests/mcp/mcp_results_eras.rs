//! Structured results in each protocol era, with rmcp's client on the other end: a tool whose
//! result is not a JSON object (`Json<i64>`, `Json<Vec<Point>>`) lists a wrapper output schema
//! and answers `structuredContent: {"result": ..}` on a 2025-11-25 session (that revision wants
//! an object), and its own schema and the bare value on a 2026-07-28 one (which allows any
//! JSON value); an object result is the same in both. The official Python client does the
//! same checks in `mcp_python_results.rs`.

#![cfg(feature = "mcp")]

use rmcp::model::CallToolResult;
use rmcp::service::RunningService;
use rmcp::RoleClient;
use serde_json::{json, Value};
use tool_core::mcp::McpServer;
use tool_core::{tool, tool_type, tools, Json};
use tool_tests::mcp::asker::{connect, Client, Era};
use tool_tests::mcp::harness::{bounded, call};

/// Adds two integers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> Json<i64> {
    Json(a + b)
}

/// A point on the plane.
#[tool_type]
struct Point {
    x: i64,
    y: i64,
}

/// The corners of a unit square.
#[tool]
fn corners() -> Json<Vec<Point>> {
    Json(vec![Point { x: 0, y: 0 }, Point { x: 1, y: 1 }])
}

/// A point's coordinates.
#[tool]
fn origin() -> Json<Point> {
    Json(Point { x: 0, y: 0 })
}

fn server() -> McpServer {
    McpServer::new(tools![add, corners, origin])
}

async fn listed(client: &RunningService<RoleClient, Client>) -> Value {
    let tools = client.peer().list_all_tools().await.unwrap();
    let mut by_name = serde_json::Map::new();
    for tool in tools {
        by_name.insert(
            tool.name.to_string(),
            serde_json::to_value(tool.output_schema).unwrap(),
        );
    }
    Value::Object(by_name)
}

async fn structured(client: &RunningService<RoleClient, Client>, name: &str, args: Value) -> Value {
    let result: CallToolResult = client.call_tool(call(name, args)).await.unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    result.structured_content.unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_2025_session_gets_wrapped_results_under_a_wrapper_schema() {
    bounded(async {
        let client = connect(server(), Client::default(), Era::Handshake).await;
        let schemas = listed(&client).await;
        let add = &schemas["add"];
        assert_eq!(add["type"], "object", "{add}");
        assert_eq!(add["properties"]["result"]["type"], "integer", "{add}");
        assert_eq!(add["required"], json!(["result"]), "{add}");
        assert_eq!(
            structured(&client, "add", json!({"a": 2, "b": 3})).await,
            json!({"result": 5})
        );
        assert_eq!(schemas["corners"]["type"], "object");
        assert_eq!(
            structured(&client, "corners", json!({})).await,
            json!({"result": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]})
        );
        assert_eq!(schemas["origin"]["required"], json!(["x", "y"]));
        assert_eq!(
            structured(&client, "origin", json!({})).await,
            json!({"x": 0, "y": 0})
        );
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_2026_session_gets_any_json_value_under_its_own_schema() {
    bounded(async {
        let client = connect(server(), Client::default(), Era::Modern).await;
        let schemas = listed(&client).await;
        // `add`'s `Json<i64>`: an integer schema, and the sum itself.
        let add = &schemas["add"];
        assert_eq!(add["type"], "integer", "{add}");
        assert!(add.get("properties").is_none(), "{add}");
        assert!(add.get("x-fastmcp-wrap-result").is_none(), "{add}");
        assert_eq!(
            structured(&client, "add", json!({"a": 2, "b": 3})).await,
            json!(5)
        );
        // A list of structs: an array schema whose `$ref`s resolve at its own root.
        let corners = &schemas["corners"];
        assert_eq!(corners["type"], "array", "{corners}");
        assert_eq!(corners["items"]["$ref"], "#/$defs/Point", "{corners}");
        assert_eq!(corners["$defs"]["Point"]["required"], json!(["x", "y"]));
        assert_eq!(
            structured(&client, "corners", json!({})).await,
            json!([{"x": 0, "y": 0}, {"x": 1, "y": 1}])
        );
        // An object is an object in both eras.
        assert_eq!(schemas["origin"]["required"], json!(["x", "y"]));
        assert_eq!(
            structured(&client, "origin", json!({})).await,
            json!({"x": 0, "y": 0})
        );
        client.cancel().await.unwrap();
    })
    .await;
}
