//! Sending one request: the reqwest client, retries with back-off (backon), status codes and
//! provider error bodies turned into [`HttpError`]s.

use std::sync::OnceLock;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use serde_json::Value;

use super::endpoint::Endpoint;
use super::error::HttpError;

/// Provider error bodies are short; anything longer is cut so a misbehaving server cannot make
/// the error message huge.
const MAX_ERROR_BODY: usize = 4096;

/// An endpoint and its HTTP client, built on first use (so building an adapter cannot fail).
#[derive(Debug)]
pub(crate) struct Transport {
    pub(crate) endpoint: Endpoint,
    client: OnceLock<reqwest::Client>,
}

impl Transport {
    pub(crate) fn new(endpoint: Endpoint) -> Self {
        Transport {
            endpoint,
            client: OnceLock::new(),
        }
    }

    fn client(&self) -> Result<&reqwest::Client, HttpError> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        // reqwest is built without a default crypto provider (aws-lc-rs would need cmake):
        // ring is installed as the process default unless the application chose one already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .connect_timeout(self.endpoint.connect_timeout)
            .build()
            .map_err(|e| {
                HttpError::Client(format!("could not build the HTTP client: {e}"), Some(e))
            })?;
        let _ = self.client.set(client);
        self.client
            .get()
            .ok_or_else(|| HttpError::Client("the HTTP client was not stored".into(), None))
    }

    fn headers(&self) -> Result<HeaderMap, HttpError> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in &self.endpoint.headers {
            let bad = |what: &str| {
                HttpError::BadHeader(format!(
                    "header '{name}' has an invalid {what}; fix the adapter's configuration"
                ))
            };
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad("name"))?;
            let value = HeaderValue::from_str(value).map_err(|_| bad("value"))?;
            headers.insert(name, value);
        }
        Ok(headers)
    }

    /// POSTs `body` to `url` until a success status arrives, retrying retryable failures as
    /// [`RetryConfig`](super::RetryConfig) says. Returns the response with its body unread.
    pub(crate) async fn send(
        &self,
        url: &str,
        body: Vec<u8>,
    ) -> Result<reqwest::Response, HttpError> {
        let client = self.client()?;
        let headers = self.headers()?;
        let retry = self.endpoint.retry;
        let response_timeout = self.endpoint.response_timeout;
        let attempt = || {
            let request = client.post(url).headers(headers.clone()).body(body.clone());
            async move {
                let response = tokio::time::timeout(response_timeout, request.send())
                    .await
                    .map_err(|_| HttpError::Transport {
                        timeout: true,
                        message: format!("no response within {response_timeout:?}"),
                        source: None,
                    })?
                    .map_err(transport_error)?;
                if response.status().is_success() {
                    Ok(response)
                } else {
                    Err(status_error(response).await)
                }
            }
        };
        let backoff = ExponentialBuilder::default()
            .with_min_delay(retry.min_delay)
            .with_max_delay(retry.max_delay)
            .with_max_times(retry.max_retries)
            .with_jitter();
        attempt
            .retry(backoff)
            .sleep(tokio::time::sleep)
            .when(HttpError::is_retryable)
            .adjust(
                move |e: &HttpError, delay: Option<Duration>| match e.retry_after() {
                    // Honour the provider's wait when it is reasonable; past the cap, stop and let
                    // the application decide (the error carries `retry_after`).
                    Some(wait) if wait > retry.max_retry_after => None,
                    Some(wait) => delay.map(|_| wait),
                    None => delay,
                },
            )
            .await
    }
}

/// A reqwest failure before any status: a timeout or a transport error.
pub(crate) fn transport_error(error: reqwest::Error) -> HttpError {
    HttpError::Transport {
        timeout: error.is_timeout(),
        message: error_chain(&error),
        source: Some(error),
    }
}

/// The error with its sources ("error sending request: connection refused").
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let inner_text = inner.to_string();
        if !text.contains(&inner_text) {
            text.push_str(": ");
            text.push_str(&inner_text);
        }
        source = inner.source();
    }
    text
}

/// A non-success response: the status, the provider's own message, and how long to wait.
async fn status_error(response: reqwest::Response) -> HttpError {
    let status = response.status().as_u16();
    let header_wait = retry_after(response.headers());
    let body = response.bytes().await.unwrap_or_default();
    let body = &body[..body.len().min(MAX_ERROR_BODY)];
    let json: Option<Value> = serde_json::from_slice(body).ok();
    let message = json.as_ref().and_then(provider_message).unwrap_or_else(|| {
        let text = String::from_utf8_lossy(body).trim().to_string();
        if text.is_empty() {
            format!("HTTP {status} with an empty body")
        } else {
            text
        }
    });
    HttpError::Status {
        status,
        message,
        retry_after: header_wait.or_else(|| json.as_ref().and_then(gemini_retry_delay)),
    }
}

/// The message of an error body: `{"error": {"message": …}}` (OpenAI, Gemini, and Anthropic's
/// `{"type": "error", "error": {"type", "message"}}`), or `{"message": …}`, or
/// `{"error": "…"}` (some compatible servers).
pub(crate) fn provider_message(body: &Value) -> Option<String> {
    let error = body.get("error");
    error
        .and_then(|e| e.get("message"))
        .or_else(|| body.get("message"))
        .or(error)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// `retry-after-ms` (OpenAI) or `Retry-After` in seconds; an HTTP date is not honoured.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        return Duration::try_from_secs_f64(ms / 1000.0).ok();
    }
    get("retry-after")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// Gemini puts the wait in the body: `error.details[].retryDelay` = `"37s"`.
fn gemini_retry_delay(body: &Value) -> Option<Duration> {
    body.get("error")?
        .get("details")?
        .as_array()?
        .iter()
        .filter_map(|d| d.get("retryDelay")?.as_str())
        .find_map(|d| d.strip_suffix('s')?.parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn provider_messages_of_each_shape() {
        let openai = json!({"error": {"message": "Rate limit reached", "type": "requests"}});
        let anthropic = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
        let plain = json!({"error": "model not found"});
        assert_eq!(
            provider_message(&openai).as_deref(),
            Some("Rate limit reached")
        );
        assert_eq!(provider_message(&anthropic).as_deref(), Some("Overloaded"));
        assert_eq!(provider_message(&plain).as_deref(), Some("model not found"));
        assert_eq!(provider_message(&json!({"x": 1})), None);
    }

    #[test]
    fn waits_from_headers_and_gemini_bodies() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(2)));
        headers.insert("retry-after-ms", HeaderValue::from_static("150"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(150)));
        headers.clear();
        headers.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&headers), None);
        let gemini = json!({"error": {"code": 429, "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}});
        assert_eq!(gemini_retry_delay(&gemini), Some(Duration::from_secs(37)));
    }
}
