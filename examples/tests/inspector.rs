//! The `mcp_server` example as clients written by others see it, on stdio:
//! - the MCP Inspector's command-line mode (`@modelcontextprotocol/inspector`, the version
//!   `.ci/run` pins) lists the example's tools, resources, resource templates and prompts, and
//!   we check the JSON it prints;
//! - the official Python client (`python_client.py`, Python from `TOOL_CORE_PYTHON`, else
//!   `<workspace>/.venv/bin/python`, which `.ci/run` makes) answers the example's sampling and
//!   elicitation (accept, decline, cancel) with its callbacks on a handshake session and on a
//!   2026-07-28 one, and gets the example's prompt and resource.
//!
//! The Inspector comes from `TOOL_CORE_INSPECTOR` (the path of its `mcp-inspector` command),
//! else `<workspace>/.inspector/node_modules/.bin/mcp-inspector` (what `.ci/run` installs).
//! Without node or the Inspector the test fails and says how to install them.
//!
//! `cargo test --workspace` runs it (the integration tests' package turns the `mcp` feature on,
//! and cargo builds the examples before it runs any test). Alone: `cargo build -p tool-examples
//! --features mcp --example mcp_server && cargo test -p tool-examples --features mcp --test
//! inspector` (`cargo test --test` builds no examples, and a test cannot run cargo while cargo
//! holds the target directory).

#![cfg(feature = "mcp")]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The example binary `cargo build --example mcp_server` left next to this test's binary
/// (`target/<profile>/examples/`), refused when older than the example's source.
fn example() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary sits in target/<profile>/deps");
    let path = profile_dir
        .join("examples")
        .join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "the mcp_server example was not built at {}: run `cargo build -p tool-examples --features mcp --example mcp_server` first",
        path.display()
    );
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mcp_server.rs");
    assert!(
        modified(&path) >= modified(&source),
        "{} is older than examples/mcp_server.rs: run `cargo build -p tool-examples --features mcp --example mcp_server` first",
        path.display()
    );
    path
}

fn inspector() -> PathBuf {
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "node is not installed: the MCP Inspector needs node (20 or later) on PATH"
    );
    let path = match std::env::var_os("TOOL_CORE_INSPECTOR") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.inspector/node_modules/.bin/mcp-inspector"),
    };
    assert!(
        path.is_file(),
        "the MCP Inspector is not installed at {}: run `npm install --prefix .inspector @modelcontextprotocol/inspector@2.12.0` at the workspace root (as .ci/run does), or set TOOL_CORE_INSPECTOR to its mcp-inspector command",
        path.display()
    );
    path
}

/// `mcp-inspector --cli <example> --method <method>`: the JSON it prints on stdout.
fn inspect(method: &str) -> Value {
    let output = Command::new(inspector())
        .arg("--cli")
        .arg(example())
        .args(["--method", method])
        .output()
        .expect("the Inspector starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Inspector failed on {method}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("the Inspector printed no JSON for {method} ({e}):\n{stdout}"))
}

fn field<'a>(items: &'a Value, key: &str) -> Vec<&'a str> {
    items
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|item| item[key].as_str())
        .collect()
}

#[test]
fn the_inspector_lists_the_examples_tools_resources_and_prompts() {
    let tools = inspect("tools/list");
    assert_eq!(
        field(&tools["tools"], "name"),
        [
            "get_weather",
            "add",
            "search",
            "count_to",
            "haiku",
            "ask_unit"
        ],
        "{tools}"
    );
    let add = &tools["tools"][1];
    assert_eq!(
        add["inputSchema"]["required"],
        serde_json::json!(["a", "b"])
    );

    let resources = inspect("resources/list");
    assert_eq!(
        field(&resources["resources"], "uri"),
        ["docs://units"],
        "{resources}"
    );
    assert_eq!(
        resources["resources"][0]["mimeType"], "text/markdown",
        "{resources}"
    );

    let templates = inspect("resources/templates/list");
    assert_eq!(
        field(&templates["resourceTemplates"], "uriTemplate"),
        ["weather://{city}/current"],
        "{templates}"
    );

    let prompts = inspect("prompts/list");
    assert_eq!(
        field(&prompts["prompts"], "name"),
        ["plan_trip"],
        "{prompts}"
    );
    let arguments = &prompts["prompts"][0]["arguments"];
    assert_eq!(field(arguments, "name"), ["city", "days"], "{prompts}");
    assert_eq!(arguments[0]["required"], true, "{prompts}");
    assert_eq!(arguments[1]["required"], false, "{prompts}");
}

/// A Python with the official MCP SDK: `TOOL_CORE_PYTHON`, else the workspace's `.venv`.
fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("TOOL_CORE_PYTHON") {
        return PathBuf::from(path);
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python");
    assert!(
        venv.is_file(),
        "no Python with the official MCP SDK: set TOOL_CORE_PYTHON to one, or run `python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0 fastmcp==4.1.6 openai==3.51.0 anthropic==2.10.0 google-genai==3.3.0` at the workspace root (as .ci/run does)"
    );
    venv
}

#[test]
fn the_official_python_client_answers_the_examples_questions_on_both_eras() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python_client.py");
    // `legacy`: initialize (2025-11-25); `auto`: server/discover, answered with 2026-07-28.
    for (mode, checks) in [("legacy", 11), ("auto", 15)] {
        let output = Command::new(python())
            .arg(&script)
            .arg(example())
            .arg(mode)
            .output()
            .expect("python starts");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "the Python client failed in mode {mode}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
        );
        assert_eq!(stdout.lines().last(), Some("all checks passed"), "{stdout}");
        // Every check ran (a skipped check would not print its line).
        assert_eq!(
            stdout.lines().filter(|l| l.starts_with("ok ")).count(),
            checks,
            "{mode}: {stdout}"
        );
    }
}
