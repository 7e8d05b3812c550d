//! Uses an MCP server's tools through a registry: starts the `mcp_server` example as a child
//! process, registers its tools (prefixed `qs_`) next to a local `#[tool]`, prints what a
//! model would be told about them (OpenAI dialect), and calls them, local and remote alike.
//!
//! `cargo build --example mcp_server --features mcp && cargo run --example mcp_client --features mcp`
//! (without the build it starts the server through `cargo run`, which is slower the first
//! time).

use std::path::PathBuf;

use tool_core::mcp::McpClient;
use tool_core::provider::{ChatApi, OpenAiChat};
use tool_core::{tool, ToolCall, ToolRegistry};

/// Reverses a word.
#[tool]
fn reverse(
    /// The word to reverse.
    word: String,
) -> String {
    word.chars().rev().collect()
}

/// The server: the built `mcp_server` example next to this one, else `cargo run` of it.
fn server_command() -> tokio::process::Command {
    let sibling: Option<PathBuf> = std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(format!("mcp_server{}", std::env::consts::EXE_SUFFIX)));
    match sibling.filter(|path| path.exists()) {
        Some(path) => tokio::process::Command::new(path),
        None => {
            let mut cargo = tokio::process::Command::new(env!("CARGO"));
            cargo.args([
                "run",
                "--quiet",
                "--example",
                "mcp_server",
                "--features",
                "mcp",
                "--manifest-path",
            ]);
            cargo.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
            cargo
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = McpClient::spawn(server_command()).await?;
    println!("connected to '{}'", client.server_name());

    let mut registry = ToolRegistry::new().with(reverse {});
    let added = client.register_into(&mut registry, Some("qs_"))?;
    println!("registered {added} remote tools next to 1 local one\n");

    println!("== what the model is told (OpenAI dialect)");
    for def in registry.definitions() {
        let json = OpenAiChat::tools(std::slice::from_ref(def))[0].clone();
        println!("{}", serde_json::to_string(&json)?);
    }

    println!("\n== calls, local and remote alike");
    let calls = [
        ToolCall::new("c1", "reverse", r#"{"word":"stressed"}"#),
        ToolCall::new("c2", "qs_add", r#"{"a":2,"b":40}"#),
        ToolCall::new("c3", "qs_get_weather", r#"{"location":"Paris, France"}"#),
        ToolCall::new("c4", "qs_get_weather", r#"{"location":"  "}"#),
        ToolCall::new("c5", "qs_search", r#"{"query":"rust","tags":["mcp"]}"#),
    ];
    for (call, reply) in calls.iter().zip(registry.call_all(&calls).await) {
        println!("{} -> {}", call.name, reply.model_text());
        if let Some(data) = &reply.data {
            println!("   data: {}", data.get());
        }
    }
    client.close().await;
    Ok(())
}
