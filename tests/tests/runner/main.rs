//! The agent loop and the reliability mechanisms around dispatch: the runner (async, streamed,
//! sans-IO, text modes), retries, timeouts, limits, panics, scoping, the circuit breaker and
//! tracing spans.
//!
//! One test binary per area, each file a module, so that the workspace links tokio, axum,
//! reqwest and rmcp a few times instead of once per file. Tests here share one process: none
//! may rely on being alone in it (global hooks, environment variables, fixed ports).
//! New tests: a file `x.rs` next to this one and a `mod x;` line below.

#[path = "../formats_support/mod.rs"]
mod formats_support;
mod quiet_panics;
#[path = "../support/spans.rs"]
mod spans;
#[path = "../support/mod.rs"]
mod support;

mod reliability_breaker;
mod reliability_concurrency;
mod reliability_limits;
mod reliability_panic;
mod reliability_props;
mod reliability_retry;
mod reliability_scope;
mod reliability_timeout;
mod reliability_tracing;
mod runner_early;
mod runner_loop;
mod runner_otel;
mod runner_output;
mod runner_prepare_tools;
mod runner_sans_io;
mod runner_stream;
mod runner_text_corpus;
mod runner_text_formats;
mod runner_tool_search;
mod runner_usage;
mod runner_xml;
