//! A `tracing` subscriber for the whole test process that keeps the spans tool-core emits
//! (`invoke_agent`, `chat`, and the dispatch's `tool_call`, whose `otel.name` is
//! `execute_tool {name}`): their fields and their nearest such ancestor.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

const KEPT: [&str; 3] = ["invoke_agent", "chat", "tool_call"];

/// One kept span.
#[derive(Debug, Clone)]
pub struct Captured {
    pub id: u64,
    pub name: &'static str,
    pub fields: BTreeMap<String, String>,
    /// The nearest kept ancestor.
    pub parent: Option<u64>,
}

/// The spans kept so far.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<Captured>>>);

impl Capture {
    pub fn clear(&self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// The spans kept since the last `take` or `clear`.
    pub fn take(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Installs the subscriber (once per process) and returns its spans.
pub fn capture() -> Capture {
    static CAPTURE: OnceLock<Capture> = OnceLock::new();
    CAPTURE
        .get_or_init(|| {
            let capture = Capture::default();
            let subscriber = tracing_subscriber::registry().with(Keep(capture.clone()));
            tracing::subscriber::set_global_default(subscriber)
                .expect("no other global subscriber in this test binary");
            capture
        })
        .clone()
}

/// The spans as comparable lines: name, fields (but a tool call's duration, which differs
/// from run to run) and the name of the nearest kept ancestor, sorted.
pub fn shape(spans: &[Captured]) -> Vec<String> {
    let mut lines: Vec<String> = spans
        .iter()
        .map(|span| {
            let mut fields = span.fields.clone();
            fields.remove("duration_ms");
            let parent = span
                .parent
                .and_then(|id| spans.iter().rev().find(|s| s.id == id))
                .map_or("none", |parent| parent.name);
            format!("{} {fields:?} under {parent}", span.name)
        })
        .collect();
    lines.sort();
    lines
}

struct Keep(Capture);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Keep {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let name = attrs.metadata().name();
        if !KEPT.contains(&name) {
            return;
        }
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let parent = ctx.span(id).and_then(|span| {
            span.scope()
                .skip(1)
                .find(|ancestor| KEPT.contains(&ancestor.name()))
                .map(|ancestor| ancestor.id().into_u64())
        });
        self.0
             .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Captured {
                id: id.into_u64(),
                name,
                fields,
                parent,
            });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _ctx: Context<'_, S>) {
        let mut spans = self.0 .0.lock().unwrap_or_else(PoisonError::into_inner);
        // Ids are reused once a span closes: the latest span with the id is the open one.
        if let Some(span) = spans.iter_mut().rev().find(|s| s.id == id.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }
}
