//! Over loopback HTTP: the model adapters against a local server replaying each API's
//! recorded responses, and the agent_sse example's server read by a real HTTP client.
//!
//! One test binary per area, each file a module, so that the workspace links tokio, axum,
//! reqwest and rmcp a few times instead of once per file. Tests here share one process: none
//! may rely on being alone in it (global hooks, environment variables, fixed ports).
//! New tests: a file `x.rs` next to this one and a `mod x;` line below.

#[path = "../http_support/mod.rs"]
mod http_support;
#[path = "../support/spans.rs"]
mod spans;
#[path = "../support/mod.rs"]
mod support;

mod agent_sse;
mod conformance;
mod http_anthropic;
mod http_attachments;
mod http_behaviour;
mod http_broken_connection;
mod http_callers;
mod http_early_calls;
mod http_gemini;
mod http_interactions;
mod http_namespaces;
mod http_openai_chat;
mod http_openai_responses;
mod http_output;
mod http_output_limit;
mod http_programs_anthropic;
mod http_programs_responses;
mod http_reasoning;
mod http_reasoning_back;
mod http_search_loaded;
mod http_search_tools;
mod http_store;
mod http_strict;
mod http_tool_search;
mod http_tool_search_setting;
mod http_whole;
mod tool_search_catalogue;
