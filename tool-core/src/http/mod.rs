//! The transport of the HTTP model adapters (cargo feature `http`): reqwest on rustls (ring),
//! SSE framing by eventsource-stream, retries with back-off by backon, timeouts on tokio.
//!
//! The adapters themselves live in [`crate::model`]: [`OpenAiChat`](crate::model::OpenAiChat),
//! [`OpenAiResponses`](crate::model::OpenAiResponses), [`Anthropic`](crate::model::Anthropic)
//! and [`Gemini`](crate::model::Gemini); [`crate::model::from_env`] picks one from the usual
//! environment variables. This module holds what they share: the [`Endpoint`] (base URL,
//! headers, extra body fields, timeouts, streaming) and the [`RetryConfig`].
//!
//! # Failure behaviour
//!
//! | What happens | Outcome |
//! |---|---|
//! | 429, 408, 5xx (Anthropic's 529), connection error, no status line in time | retried with exponential back-off and jitter (`Retry-After` honoured up to a cap), then a `ModelError` with the status and the provider's own message |
//! | other 4xx (400, 401, 403, 404, ...) | no retry: `InvalidRequest` / `Auth` with the provider's message |
//! | the stream stops inside a call, or before the provider's finish marker | `Incomplete`; no partial call is ever handed out |
//! | an event whose data is not the documented JSON | `Malformed` |
//! | no event within `idle_timeout` | `Timeout` |
//!
//! The adapters' streams must be polled inside a tokio runtime (reqwest's and the timers'
//! requirement); polled elsewhere, they end at once with an error saying so.
//!
//! Nothing is retried once the response's body has started: text may already have reached
//! the application, and a tool of the turn may be running. The runner never sends a request
//! again after it has run a tool; the error goes to the application.
//!
//! ```
//! use std::time::Duration;
//! use tool_core::http::{Endpoint, RetryConfig};
//! use tool_core::model::OpenAiChat;
//!
//! // A local OpenAI-compatible server (vLLM, llama.cpp's server, Ollama).
//! let model = OpenAiChat::new("qwen2.5-7b-instruct")
//!     .with_endpoint(|e| e
//!         .with_base_url("http://127.0.0.1:8000/v1")
//!         .with_field("temperature", serde_json::json!(0))
//!         .with_idle_timeout(Duration::from_secs(30))
//!         .with_retry(RetryConfig::default().with_max_retries(3)));
//! assert_eq!(model.endpoint().url("chat/completions"), "http://127.0.0.1:8000/v1/chat/completions");
//! ```

mod endpoint;
mod error;
mod transport;

pub use endpoint::{Endpoint, RetryConfig};

pub(crate) use error::HttpError;
pub(crate) use transport::{error_chain, provider_message, Transport};
