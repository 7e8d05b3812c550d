//! A minimal `tracing` subscriber that records the fields of every span (and, when asked, of
//! every event), for the tests that check what a call or a request logs.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// What was recorded, in order: a span's name (or `event TARGET`) and its fields.
pub type Seen = Arc<Mutex<Vec<(String, BTreeMap<String, String>)>>>;

/// Records every span's fields; events too when `events` is set.
pub struct Recorder {
    pub seen: Seen,
    pub events: bool,
}

impl Recorder {
    /// Spans only.
    pub fn spans(seen: Seen) -> Self {
        Recorder {
            seen,
            events: false,
        }
    }

    /// Spans and events.
    pub fn spans_and_events(seen: Seen) -> Self {
        Recorder { seen, events: true }
    }
}

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
        let mut seen = self.seen.lock().unwrap();
        let mut fields = BTreeMap::new();
        span.record(&mut Collect(&mut fields));
        seen.push((span.metadata().name().to_string(), fields));
        Id::from_u64(seen.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut seen = self.seen.lock().unwrap();
        if let Some((_, fields)) = seen.get_mut(span.into_u64() as usize - 1) {
            values.record(&mut Collect(fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        if !self.events {
            return;
        }
        let mut fields = BTreeMap::new();
        event.record(&mut Collect(&mut fields));
        self.seen
            .lock()
            .unwrap()
            .push((format!("event {}", event.metadata().target()), fields));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}
