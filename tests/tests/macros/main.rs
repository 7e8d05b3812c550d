//! What `#[tool]` produces and how calls are read and answered, without a runtime: the macro's
//! compile errors (trybuild, `ui/`), schemas, dispatch, prompts, the text and streaming parsers
//! and the provider dialects.
//!
//! One test binary per area, each file a module, so that the workspace links tokio, axum,
//! reqwest and rmcp a few times instead of once per file. Tests here share one process: none
//! may rely on being alone in it (global hooks, environment variables, fixed ports).
//! New tests: a file `x.rs` next to this one and a `mod x;` line below.

#[path = "../formats_support/mod.rs"]
mod formats_support;
#[path = "../parse_support/mod.rs"]
mod parse_support;
#[path = "../support/mod.rs"]
mod support;

mod attachments;
mod bad_input_catalog;
mod canonical_schema;
mod context_injection;
mod dialect_anthropic_mcp;
mod dialect_gemini;
mod dialect_openai;
mod dispatch_errors;
mod docs_tables;
mod error_types;
mod formats_corpus;
mod formats_deepseek;
mod formats_differential;
mod formats_differential_open;
mod formats_linear_time;
mod formats_llama_peers;
mod formats_misreads;
mod formats_prompt;
mod formats_pythonic_strings;
mod formats_reasoning_tokens;
mod formats_templates;
mod nested_unknown_keys;
mod parse_props;
mod parse_spans;
mod parse_stream;
mod prompt_roundtrip;
mod provider_anthropic;
mod provider_gemini;
mod provider_history;
mod provider_interactions;
mod provider_mcp_errors;
mod provider_namespaces;
mod provider_openai;
mod response_protocol;
mod strict_optional;
mod testing_helpers;
mod tool_fn;
mod tool_search;
mod toolset_shaping;
mod user_path;
