//! Shared helpers for the text-format tests: the corpus, parsing at any chunking, and the
//! properties every format keeps.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::{ToolDefinition, ToolErrorCode};

/// One reply of a format's corpus (`tests/fixtures/formats/<format>.corpus.json`).
pub struct Case {
    pub name: String,
    pub reason: EndReason,
    pub text: String,
}

/// The formats with a corpus, and their file stems.
pub const FORMATS: &[(ToolFormat, &str)] = &[
    (ToolFormat::Hermes, "hermes"),
    (ToolFormat::Qwen3Coder, "qwen3_coder"),
    (ToolFormat::Mistral, "mistral"),
    (ToolFormat::Harmony, "harmony"),
    (ToolFormat::Glm, "glm"),
    (ToolFormat::MiniMax, "minimax"),
    (ToolFormat::KimiK2, "kimi_k2"),
    (ToolFormat::DeepSeekV31, "deepseek_v31"),
    (ToolFormat::DeepSeekV3, "deepseek_v3"),
    (ToolFormat::Llama, "llama"),
    (ToolFormat::Pythonic, "pythonic"),
    (ToolFormat::DeepSeekV32, "deepseek_v32"),
    (ToolFormat::DeepSeekV4, "deepseek_v4"),
];

pub fn fixture_path(file: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/formats")
        .join(file)
}

pub fn corpus(stem: &str) -> Vec<Case> {
    let path = fixture_path(&format!("{stem}.corpus.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    cases
        .into_iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_string(),
            reason: match c["reason"].as_str().unwrap() {
                "stop" => EndReason::Stop,
                _ => EndReason::Length,
            },
            text: c["text"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// The schemas the corpus's Qwen3-Coder calls are converted with (`schemas.json`, which the
/// tool-parser recorder reads too).
pub fn schemas() -> Arc<HashMap<String, Arc<Value>>> {
    let text = std::fs::read_to_string(fixture_path("schemas.json")).unwrap();
    let map: HashMap<String, Value> = serde_json::from_str(&text).unwrap();
    Arc::new(map.into_iter().map(|(k, v)| (k, Arc::new(v))).collect())
}

/// The tools a format's corpus is parsed with: every name its replies call (read once with no
/// tools known), with the schema `schemas.json` has for it, else any object. So a corpus reply
/// is read as a user offering those tools would read it, and only format errors are rejected.
pub fn definitions(format: ToolFormat) -> Vec<ToolDefinition> {
    let stem = FORMATS
        .iter()
        .find(|(f, _)| *f == format)
        .map(|(_, stem)| *stem)
        .unwrap_or_else(|| panic!("no corpus for {format:?}"));
    let (mut names, mut refused) = (BTreeSet::new(), BTreeSet::new());
    for case in corpus(stem) {
        let mut parser = FormatParser::new(format);
        let mut events = Vec::new();
        parser.feed(&case.text, &mut events);
        parser.finish(case.reason, &mut events);
        for event in events {
            match event {
                Event::Name { name, .. } => names.insert(name),
                Event::CallComplete { call, .. } => names.insert(call.name),
                // A name the format itself refuses (harmony's built-in tools) is not offered.
                Event::CallError {
                    name: Some(name),
                    response,
                    ..
                } => match response.error_code() {
                    Some(ToolErrorCode::NotFound) => refused.insert(name),
                    _ => names.insert(name),
                },
                _ => false,
            };
        }
    }
    let schemas = schemas();
    names
        .into_iter()
        .filter(|name| !name.is_empty() && !refused.contains(name))
        .map(|name| {
            let input_schema = schemas
                .get(&name)
                .cloned()
                .unwrap_or_else(|| Arc::new(serde_json::json!({"type": "object"})));
            ToolDefinition::new(name, String::new(), input_schema)
        })
        .collect()
}

/// Options that know a format's corpus tools ([`definitions`]), as a user's registry would
/// give them; built once per format.
pub fn options(format: ToolFormat) -> FormatOptions {
    static BUILT: OnceLock<Mutex<Vec<(ToolFormat, FormatOptions)>>> = OnceLock::new();
    let built = BUILT.get_or_init(Mutex::default);
    if let Some((_, options)) = built.lock().unwrap().iter().find(|(f, _)| *f == format) {
        return options.clone();
    }
    // A format without a corpus (`<use_tool>`, whose fixtures live apart) reads any name.
    let options = if FORMATS.iter().any(|(f, _)| *f == format) {
        FormatOptions::for_tools(&definitions(format))
    } else {
        FormatOptions::default()
    };
    built.lock().unwrap().push((format, options.clone()));
    options
}

/// Parses `input` fed as bytes cut at `cuts`, then finishes.
pub fn parse_chunks(
    format: ToolFormat,
    input: &str,
    cuts: &[usize],
    reason: EndReason,
) -> Vec<Event> {
    let mut parser = FormatParser::with_options(format, options(format));
    let mut out = Vec::new();
    let bytes = input.as_bytes();
    let mut last = 0;
    for &cut in cuts {
        let cut = cut.clamp(last, bytes.len());
        parser.feed_bytes(&bytes[last..cut], &mut out);
        last = cut;
    }
    parser.feed_bytes(&bytes[last..], &mut out);
    parser.finish(reason, &mut out);
    out
}

/// Merges adjacent events of one stream (text, reasoning, markup, one call's deltas), so that
/// parses of different chunkings compare equal.
pub fn merged(events: Vec<Event>) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for e in events {
        match (out.last_mut(), e) {
            (Some(Event::Text(a)), Event::Text(b))
            | (Some(Event::Reasoning(a)), Event::Reasoning(b))
            | (Some(Event::Markup(a)), Event::Markup(b)) => a.push_str(&b),
            (
                Some(Event::ArgumentsDelta { index: i, delta: a }),
                Event::ArgumentsDelta { index: j, delta: b },
            ) if *i == j => a.push_str(&b),
            (_, e) => out.push(e),
        }
    }
    out
}

/// Text, reasoning, markup and call spans in order: must give back the input.
pub fn rebuild(input: &str, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        match e {
            Event::Text(t) | Event::Reasoning(t) | Event::Markup(t) => out.push_str(t),
            // A delta's span lies inside its call's: only call-ending events count.
            Event::ArgumentsDelta { .. } => {}
            other => {
                if let Some(span) = other.span() {
                    out.push_str(&input[span]);
                }
            }
        }
    }
    out
}

/// One line per event, for the reviewed goldens.
pub fn summary(events: Vec<Event>) -> Vec<String> {
    merged(events)
        .into_iter()
        .filter_map(|e| match e {
            Event::Text(t) => Some(format!("T:{:?}", t.as_str())),
            Event::Reasoning(t) => Some(format!("R:{:?}", t.as_str())),
            Event::Markup(t) => Some(format!("M:{:?}", t.as_str())),
            Event::CallComplete { call, span, .. } => Some(format!(
                "C:{}:{} @{}..{}",
                call.name, call.arguments, span.start, span.end
            )),
            Event::CallError {
                name,
                response,
                span,
                ..
            } => Some(format!(
                "E:{}:{} @{}..{} {:?}",
                response.error_code().map(|c| c.as_str()).unwrap_or("?"),
                name.unwrap_or_default(),
                span.start,
                span.end,
                response.error_message().unwrap_or_default()
            )),
            Event::CallIncomplete { name, span, .. } => Some(format!(
                "I:{} @{}..{}",
                name.unwrap_or_default(),
                span.start,
                span.end
            )),
            Event::Diagnostic(d) => Some(format!("D:{:?}:{:?}", d.kind, d.call)),
            Event::CallStarted { .. } | Event::Name { .. } | Event::ArgumentsDelta { .. } => None,
        })
        .collect()
}

/// The completed calls: (name, arguments as JSON).
pub fn calls(events: &[Event]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some((
                call.name.clone(),
                serde_json::from_str(&call.arguments).unwrap(),
            )),
            _ => None,
        })
        .collect()
}

/// A small deterministic generator for chunkings (no dependency, same cuts on every run).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// Random cut points in `0..=len`, ascending.
    pub fn cuts(&mut self, len: usize) -> Vec<usize> {
        let mut cuts = Vec::new();
        let mut at = 0;
        while at < len {
            at += 1 + (self.next() as usize % 9);
            cuts.push(at.min(len));
        }
        cuts
    }
}
