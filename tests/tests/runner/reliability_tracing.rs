//! With the `tracing` feature every call runs in a `tool_call` span carrying the tool name,
//! call id, status, code and duration. A minimal subscriber records the span fields.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tool_core::{tool, tools, ToolCall};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

type Fields = Arc<Mutex<Vec<(String, BTreeMap<String, String>)>>>;

/// Records the fields of every span, by span id.
struct Recorder(Fields);

struct Collect<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut spans = self.0.lock().unwrap();
        let mut fields = BTreeMap::new();
        span.record(&mut Collect(&mut fields));
        spans.push((span.metadata().name().to_string(), fields));
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        if let Some((_, fields)) = spans.get_mut(span.into_u64() as usize - 1) {
            values.record(&mut Collect(fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[test]
fn each_call_records_a_span_with_tool_id_status_code_and_duration() {
    let spans: Fields = Arc::default();
    let registry = tools![add];
    tracing::subscriber::with_default(Recorder(Arc::clone(&spans)), || {
        registry.call_blocking(&ToolCall::new("call_1", "add", r#"{"a":1,"b":2}"#));
        registry.call_blocking(&ToolCall::new("call_2", "add", r#"{"a":"x"}"#));
    });
    let spans = spans.lock().unwrap();
    assert_eq!(spans.len(), 2);
    let (name, ok) = &spans[0];
    assert_eq!(name, "tool_call");
    assert_eq!(ok["tool"], "add");
    assert_eq!(ok["call_id"], "call_1");
    assert_eq!(ok["status"], "SUCCESS");
    assert!(ok.contains_key("duration_ms"));
    assert!(!ok.contains_key("code"));
    let (_, bad) = &spans[1];
    assert_eq!(bad["call_id"], "call_2");
    assert_eq!(bad["status"], "ERROR");
    assert_eq!(bad["code"], "INVALID_PARAM");
}
