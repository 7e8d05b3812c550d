//! [`Endpoint`]: where and how an adapter sends its requests (URL, headers, extra body fields,
//! timeouts, retries, streamed or whole).

use std::time::Duration;

use serde_json::{Map, Value};

/// How often and how long a failed request is retried.
///
/// Only failures before the response's first byte are retried (429, 5xx, 408, connection
/// errors and timeouts waiting for the status line), so a retry never repeats text the
/// application has already seen, and the runner never re-runs a tool. Back-off is
/// exponential with jitter, from `min_delay` up to `max_delay`; a `Retry-After`
/// (or `retry-after-ms`, or Gemini's `retryDelay`) replaces the computed delay when it is
/// at most `max_retry_after`, and ends the retries when it is longer (the error, with its
/// `retry_after`, goes to the application instead of a request that sleeps for minutes).
///
/// ```
/// use std::time::Duration;
/// use tool_core::http::RetryConfig;
/// let retry = RetryConfig::default().with_max_retries(5).with_delays(Duration::from_millis(200), Duration::from_secs(8));
/// assert_eq!(retry.max_retries, 5);
/// assert_eq!(RetryConfig::none().max_retries, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryConfig {
    /// Retries after the first attempt (0: no retry). Default 2.
    pub max_retries: usize,
    /// First back-off delay. Default 500 ms.
    pub min_delay: Duration,
    /// Longest back-off delay. Default 8 s.
    pub max_delay: Duration,
    /// Longest `Retry-After` that is honoured by waiting. Default 60 s.
    pub max_retry_after: Duration,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig {
            max_retries: 2,
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryConfig {
    /// No retries at all.
    ///
    /// ```
    /// use tool_core::http::{Endpoint, RetryConfig};
    /// let endpoint = Endpoint::new("http://127.0.0.1:8000/v1").with_retry(RetryConfig::none());
    /// assert_eq!(endpoint.retry.max_retries, 0);
    /// ```
    pub fn none() -> Self {
        RetryConfig {
            max_retries: 0,
            ..RetryConfig::default()
        }
    }

    /// Sets the number of retries after the first attempt.
    ///
    /// ```
    /// let retry = tool_core::http::RetryConfig::default().with_max_retries(5);
    /// assert_eq!(retry.max_retries, 5);
    /// ```
    pub fn with_max_retries(mut self, max_retries: usize) -> Self {
        self.max_retries = max_retries;
        self
    }

    /// Sets the shortest and longest back-off delay.
    ///
    /// ```
    /// use std::time::Duration;
    /// let retry = tool_core::http::RetryConfig::default().with_delays(Duration::from_secs(2), Duration::from_secs(1));
    /// assert_eq!(retry.min_delay, Duration::from_secs(2));
    /// assert_eq!(retry.max_delay, Duration::from_secs(2)); // never below the shortest
    /// ```
    pub fn with_delays(mut self, min_delay: Duration, max_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self.max_delay = max_delay.max(min_delay);
        self
    }

    /// Sets the longest `Retry-After` that is honoured by waiting.
    ///
    /// ```
    /// use std::time::Duration;
    /// let retry = tool_core::http::RetryConfig::default().with_max_retry_after(Duration::from_secs(5));
    /// assert_eq!(retry.max_retry_after, Duration::from_secs(5));
    /// ```
    pub fn with_max_retry_after(mut self, max_retry_after: Duration) -> Self {
        self.max_retry_after = max_retry_after;
        self
    }
}

/// Where an adapter sends requests and how: base URL, headers (the adapter puts its
/// authentication header here), extra JSON fields merged into every request body
/// (`temperature`, `max_tokens`, `reasoning`, ...), timeouts, retries, and whether to stream.
///
/// Timeouts: `connect_timeout` for the TCP/TLS connection, `response_timeout` from sending
/// the request to the response's status line, `idle_timeout` between two streamed events
/// (or for the whole body of a non-streamed response). A long answer that keeps streaming
/// never times out; a server that stalls does.
///
/// ```
/// use std::time::Duration;
/// use tool_core::http::Endpoint;
/// let endpoint = Endpoint::new("http://127.0.0.1:8080/v1/")
///     .with_header("x-team", "search")
///     .with_field("temperature", serde_json::json!(0.2))
///     .with_idle_timeout(Duration::from_secs(30));
/// assert_eq!(endpoint.url("chat/completions"), "http://127.0.0.1:8080/v1/chat/completions");
/// assert!(endpoint.stream);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Endpoint {
    /// The API's base URL, e.g. `https://api.openai.com/v1` (a trailing `/` is ignored).
    pub base_url: String,
    /// Headers sent with every request, in order.
    pub headers: Vec<(String, String)>,
    /// Fields merged into every request body after the adapter's own (they win on a clash).
    pub extra_fields: Map<String, Value>,
    /// Limit for establishing a connection. Default 10 s.
    pub connect_timeout: Duration,
    /// Limit from sending a request to its status line. Default 60 s.
    pub response_timeout: Duration,
    /// Limit between two streamed events, or for a whole non-streamed body. Default 120 s.
    pub idle_timeout: Duration,
    /// Retries of failed requests.
    pub retry: RetryConfig,
    /// Whether to ask for a streamed (SSE) response. Default `true`.
    pub stream: bool,
}

impl Endpoint {
    /// An endpoint at `base_url` with no headers and the default timeouts and retries.
    ///
    /// ```
    /// use std::time::Duration;
    /// let endpoint = tool_core::http::Endpoint::new("https://api.example.com/v1");
    /// assert!(endpoint.headers.is_empty() && endpoint.stream);
    /// assert_eq!(endpoint.connect_timeout, Duration::from_secs(10));
    /// ```
    pub fn new(base_url: impl Into<String>) -> Self {
        Endpoint {
            base_url: base_url.into(),
            headers: Vec::new(),
            extra_fields: Map::new(),
            connect_timeout: Duration::from_secs(10),
            response_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(120),
            retry: RetryConfig::default(),
            stream: true,
        }
    }

    /// The URL of `path` under the base URL.
    ///
    /// ```
    /// let endpoint = tool_core::http::Endpoint::new("http://127.0.0.1:8000/v1/");
    /// assert_eq!(endpoint.url("/models"), "http://127.0.0.1:8000/v1/models");
    /// ```
    pub fn url(&self, path: &str) -> String {
        format!(
            "{}/{}",
            self.base_url.trim_end_matches('/'),
            path.trim_start_matches('/')
        )
    }

    /// Sets the base URL (an OpenAI-compatible server: vLLM, llama.cpp, Ollama, a proxy).
    ///
    /// ```
    /// let endpoint = tool_core::http::Endpoint::new("https://api.openai.com/v1")
    ///     .with_base_url("http://127.0.0.1:11434/v1");
    /// assert_eq!(endpoint.url("chat/completions"), "http://127.0.0.1:11434/v1/chat/completions");
    /// ```
    pub fn with_base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    /// Adds a header, replacing one of the same name (case-insensitive).
    ///
    /// ```
    /// let e = tool_core::http::Endpoint::new("http://x").with_header("A", "1").with_header("a", "2");
    /// assert_eq!(e.headers, [("a".to_string(), "2".to_string())]);
    /// ```
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let name = name.into();
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.headers.push((name, value.into()));
        self
    }

    /// Adds a field to every request body (e.g. `temperature`, `max_tokens`).
    ///
    /// ```
    /// let endpoint = tool_core::http::Endpoint::new("http://x").with_field("max_tokens", serde_json::json!(256));
    /// assert_eq!(endpoint.extra_fields["max_tokens"], 256);
    /// ```
    pub fn with_field(mut self, name: impl Into<String>, value: Value) -> Self {
        self.extra_fields.insert(name.into(), value);
        self
    }

    /// Sets the connection timeout.
    ///
    /// ```
    /// use std::time::Duration;
    /// let endpoint = tool_core::http::Endpoint::new("http://x").with_connect_timeout(Duration::from_secs(3));
    /// assert_eq!(endpoint.connect_timeout, Duration::from_secs(3));
    /// ```
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sets the time allowed until the response's status line.
    ///
    /// ```
    /// use std::time::Duration;
    /// let endpoint = tool_core::http::Endpoint::new("http://x").with_response_timeout(Duration::from_secs(20));
    /// assert_eq!(endpoint.response_timeout, Duration::from_secs(20));
    /// ```
    pub fn with_response_timeout(mut self, timeout: Duration) -> Self {
        self.response_timeout = timeout;
        self
    }

    /// Sets the time allowed between two streamed events (or for a whole body).
    ///
    /// ```
    /// use std::time::Duration;
    /// let endpoint = tool_core::http::Endpoint::new("http://x").with_idle_timeout(Duration::from_secs(30));
    /// assert_eq!(endpoint.idle_timeout, Duration::from_secs(30));
    /// ```
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Sets the retry policy.
    ///
    /// ```
    /// use tool_core::http::{Endpoint, RetryConfig};
    /// let endpoint = Endpoint::new("http://x").with_retry(RetryConfig::default().with_max_retries(4));
    /// assert_eq!(endpoint.retry.max_retries, 4);
    /// ```
    pub fn with_retry(mut self, retry: RetryConfig) -> Self {
        self.retry = retry;
        self
    }

    /// Streams (SSE) or asks for the whole response at once.
    ///
    /// ```
    /// let endpoint = tool_core::http::Endpoint::new("http://x").with_stream(false);
    /// assert!(!endpoint.stream);
    /// ```
    pub fn with_stream(mut self, stream: bool) -> Self {
        self.stream = stream;
        self
    }

    /// Adds every field of a JSON object to every request body: provider-specific options
    /// this library has no setting for (`{"service_tier": "flex"}`, `{"thinking": {"type":
    /// "adaptive"}}`, `{"generationConfig": {"temperature": 0.2}}`). Objects merge into the
    /// adapter's own objects key by key, so `generationConfig` keeps the thinking settings;
    /// anything that is not an object is ignored.
    ///
    /// ```
    /// use serde_json::json;
    /// let endpoint = tool_core::http::Endpoint::new("http://x")
    ///     .with_fields(json!({"store": false, "reasoning": {"summary": "detailed"}}));
    /// assert_eq!(endpoint.extra_fields["store"], false);
    /// assert_eq!(endpoint.extra_fields["reasoning"]["summary"], "detailed");
    /// ```
    pub fn with_fields(mut self, fields: Value) -> Self {
        if let Value::Object(fields) = fields {
            for (name, value) in fields {
                merge_field(&mut self.extra_fields, name, value);
            }
        }
        self
    }

    /// Merges the extra fields into a request body: an object into an object key by key, any
    /// other value in place of the adapter's.
    pub(crate) fn finish_body(&self, mut body: Map<String, Value>) -> Value {
        for (name, value) in &self.extra_fields {
            merge_field(&mut body, name.clone(), value.clone());
        }
        Value::Object(body)
    }
}

/// Puts `value` at `name` in `into`, merging objects key by key (the new value wins on a leaf).
fn merge_field(into: &mut Map<String, Value>, name: String, value: Value) {
    match (into.get_mut(&name), value) {
        (Some(Value::Object(existing)), Value::Object(value)) => {
            for (key, inner) in value {
                merge_field(existing, key, inner);
            }
        }
        (_, value) => {
            into.insert(name, value);
        }
    }
}
