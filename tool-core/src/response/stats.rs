//! Run statistics carried next to a response's text.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Run statistics. The dispatcher fills `time_ms`; retries record `attempts`; tools may add more.
///
/// ```
/// use tool_core::Stats;
/// let stats = Stats { time_ms: Some(12), ..Stats::default() }.with("api_calls", 1);
/// assert_eq!(stats.get("api_calls"), Some(&serde_json::json!(1)));
/// assert_eq!(serde_json::to_string(&stats).unwrap(), r#"{"time_ms":12,"api_calls":1}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Wall-clock time of the call in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Anything else a tool wants to report (`count`, `api_calls`, token counts …). Boxed so
    /// that a response without extras stays small: responses are moved through every layer
    /// of the dispatcher.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Box<Map<String, Value>>>,
}

impl Stats {
    /// Adds one extra statistic.
    ///
    /// ```
    /// let s = tool_core::Stats::default().with("count", 3);
    /// assert_eq!(s.get("count"), Some(&serde_json::json!(3)));
    /// ```
    pub fn with(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extra
            .get_or_insert_with(Default::default)
            .insert(key.into(), value.into());
        self
    }

    /// One extra statistic.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.extra.as_ref().and_then(|m| m.get(key))
    }

    /// How many times the tool ran, when a retry policy recorded it (stored as the extra
    /// `attempts`, so the response stays small when there were no retries).
    ///
    /// ```
    /// let s = tool_core::Stats::default().with_attempts(3);
    /// assert_eq!(s.attempts(), Some(3));
    /// assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"attempts":3}"#);
    /// ```
    pub fn attempts(&self) -> Option<u32> {
        self.get("attempts")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    }

    /// Records how many times the tool ran.
    pub fn with_attempts(self, attempts: u32) -> Self {
        self.with("attempts", attempts)
    }

    /// Whether nothing is recorded.
    ///
    /// ```
    /// assert!(tool_core::Stats::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.time_ms.is_none() && self.extra.as_ref().is_none_or(|m| m.is_empty())
    }
}
