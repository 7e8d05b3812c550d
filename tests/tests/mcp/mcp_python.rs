//! The official Python MCP client (`mcp` from PyPI) against the catalog test server on stdio:
//! resources, templates, reads, prompts with and without arguments, completion, setLevel then
//! log notifications, sampling, elicitation (accept, decline, cancel) and roots answered by
//! the client's callbacks, a subscription's update, list_changed after a registration (of a
//! prompt and of a tool), and
//! an integer tool's structured output validated against its (wrapped) output schema.
//!
//! Python comes from `TOOL_CORE_PYTHON`, else `<workspace>/.venv/bin/python` (`.ci/run` makes
//! it); without one the tests say that they skipped, except under CI, where they fail.

#![cfg(feature = "mcp")]

use std::ffi::OsStr;
use std::path::Path;

#[test]
fn the_official_python_client_exercises_resources_prompts_and_the_peer() {
    tool_tests::python_checks(
        "the official Python client test",
        "mcp_catalog_client.py",
        &[OsStr::new(env!("CARGO_BIN_EXE_mcp_catalog_peer"))],
        47,
    );
}

/// Our client against a FastMCP server: its resources, template and prompt are listed, read
/// and rendered into our catalog types.
#[tokio::test]
async fn our_client_reads_a_fastmcp_servers_resources_and_prompts() {
    use tool_core::catalog::{PromptArguments, Role};
    use tool_core::mcp::McpClient;

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/fastmcp_catalog_server.py");
    let Some(python) = tool_tests::mcp_python("the FastMCP server test") else {
        return;
    };
    let mut command = tokio::process::Command::new(python);
    command
        .arg(&script)
        .env("FASTMCP_LOG_LEVEL", "ERROR")
        .stderr(std::process::Stdio::null());
    let client = McpClient::spawn(command)
        .await
        .expect("the FastMCP server starts");

    let resources = client.resources().await.unwrap();
    let listed: Vec<_> = resources
        .iter()
        .map(|r| (r.uri.as_str(), r.name.as_str(), r.is_template))
        .collect();
    assert_eq!(
        listed,
        [
            ("docs://units", "units", false),
            ("weather://{city}/current", "current", true)
        ]
    );
    assert_eq!(
        resources[0].description.as_deref(),
        Some("The units every value uses.")
    );

    let read = client
        .read_resource("weather://Oslo/current")
        .await
        .unwrap();
    assert_eq!(read.uri, "weather://Oslo/current");
    let value: serde_json::Value = serde_json::from_str(read.text().unwrap()).unwrap();
    assert_eq!(value, serde_json::json!({"city": "Oslo", "temp_c": 20}));
    assert_eq!(
        client.read_resource("docs://units").await.unwrap().text(),
        Some("Celsius")
    );
    assert!(client.read_resource("docs://nothing").await.is_err());

    let prompts = client.prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    let arguments: Vec<_> = prompts[0]
        .arguments
        .iter()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(arguments, [("city", true), ("days", false)]);
    let args = PromptArguments::from([("city".to_string(), "Rome".to_string())]);
    let messages = client.get_prompt("plan_trip", &args).await.unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(
        (messages[0].role, messages[0].text.as_str()),
        (Role::User, "Plan 3 days in Rome.")
    );
    client.close().await;
}
