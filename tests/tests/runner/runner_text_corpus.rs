//! The text mode over every reply of the format corpora (adversarial ones included), streamed
//! at several chunk sizes: the model events and the finished turn say what the format's
//! parser says about the whole reply: the same text, the same calls in the same order (a
//! rejected call passed on under its id and name), the reply kept verbatim, and a reply cut
//! off inside a call an `Incomplete` error.

use crate::formats_support;

use std::collections::{BTreeSet, HashMap};
use std::future::poll_fn;
use std::sync::Arc;

use formats_support::{corpus, options, schemas, FORMATS};
use serde_json::{json, Value};
use tool_core::model::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelTurn, OfferedTools,
    ScriptedModel, StopReason, TextMode,
};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::{block_on, ToolDefinition};

/// Tools for every name the corpus calls, with the corpus schemas where there is one, so that
/// only format errors are rejected.
fn definitions(format: ToolFormat, stem: &str) -> Vec<ToolDefinition> {
    let mut names = BTreeSet::new();
    for case in corpus(stem) {
        let mut parser = FormatParser::with_options(format, options());
        let mut events = Vec::new();
        parser.feed(&case.text, &mut events);
        parser.finish(case.reason, &mut events);
        for event in events {
            match event {
                Event::Name { name, .. } => names.insert(name),
                Event::CallComplete { call, .. } => names.insert(call.name),
                _ => false,
            };
        }
    }
    let schemas = schemas();
    names
        .into_iter()
        .filter(|name| !name.is_empty())
        .map(|name| {
            let input_schema = schemas
                .get(&name)
                .cloned()
                .unwrap_or_else(|| Arc::new(json!({"type": "object"})));
            ToolDefinition::new(name, String::new(), input_schema)
        })
        .collect()
}

/// A call as the turn should hold it: id, name, and the arguments when the parser read them.
type Expected = (String, String, Option<Value>);

/// What the parser says about the whole reply: its text, its calls, whether it was cut off.
fn expected(
    format: ToolFormat,
    defs: &[ToolDefinition],
    text: &str,
    reason: EndReason,
) -> (String, Vec<Expected>, bool) {
    let schemas: HashMap<String, Arc<Value>> = defs
        .iter()
        .map(|d| (d.name.clone(), d.input_schema.clone()))
        .collect();
    let options = FormatOptions {
        known_tools: Some(defs.iter().map(|d| d.name.clone()).collect()),
        schemas: Some(Arc::new(schemas)),
        ..FormatOptions::default()
    };
    let mut parser = FormatParser::with_options(format, options);
    let mut events = Vec::new();
    parser.feed(text, &mut events);
    parser.finish(reason, &mut events);
    let mut prose = String::new();
    let mut calls = Vec::new();
    let mut cut_off = false;
    for event in events {
        match event {
            Event::Text(t) => prose.push_str(&t),
            Event::CallComplete { call, .. } => calls.push((
                call.id,
                call.name,
                Some(serde_json::from_str(&call.arguments).unwrap()),
            )),
            Event::CallError { id, name, .. } => calls.push((id, name.unwrap_or_default(), None)),
            Event::CallIncomplete { .. } => cut_off = true,
            _ => {}
        }
    }
    (prose, calls, cut_off)
}

fn stream_all(
    model: &TextMode<ScriptedModel>,
    defs: &[ToolDefinition],
) -> Vec<Result<ModelEvent, ModelError>> {
    let messages = [Message::user("Go.")];
    let mut stream = model.stream(ModelRequest::new(
        &messages,
        OfferedTools::from_definitions(defs),
    ));
    block_on(async {
        let mut out = Vec::new();
        while let Some(item) = poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
            out.push(item);
        }
        out
    })
}

#[test]
fn the_text_mode_reports_what_the_parser_reads_in_every_corpus_reply_at_any_chunking() {
    let mut checked = 0;
    for &(format, stem) in FORMATS {
        let defs = definitions(format, stem);
        for case in corpus(stem) {
            let (prose, calls, cut_off) = expected(format, &defs, &case.text, case.reason);
            let mut turn = ModelTurn::text(case.text.clone());
            if case.reason != EndReason::Stop {
                turn.stop_reason = StopReason::MaxTokens;
            }
            for chunk in [1, 2, 3, 5, 8, 13, 4096] {
                let what = format!("{stem}/{} in chunks of {chunk}", case.name);
                let model = TextMode::new(
                    ScriptedModel::new([turn.clone()]).with_chunk_size(chunk),
                    format,
                );
                let mut items = stream_all(&model, &defs);
                let last = items.pop().expect(&what);
                let events: Vec<ModelEvent> = items.into_iter().map(|i| i.expect(&what)).collect();
                let streamed: String = events
                    .iter()
                    .filter_map(|e| match e {
                        ModelEvent::TextDelta(t) => Some(t.as_str()),
                        _ => None,
                    })
                    .collect();
                assert_eq!(streamed, prose, "{what}");
                let ready: Vec<_> = events
                    .iter()
                    .filter_map(|e| match e {
                        ModelEvent::CallReady { call, .. } => Some(call.clone()),
                        _ => None,
                    })
                    .collect();
                if cut_off {
                    let error = last.expect_err(&what);
                    assert_eq!(error.kind(), ModelErrorKind::Incomplete, "{what}");
                    assert_eq!(ready.len(), calls.len(), "{what}: the calls before the cut");
                    checked += 1;
                    continue;
                }
                let Ok(ModelEvent::Finished(finished)) = last else {
                    panic!("{what}: {last:?}")
                };
                assert_eq!(finished.text, prose, "{what}");
                assert_eq!(
                    finished.calls, ready,
                    "{what}: every call announced when ready"
                );
                let got: Vec<Expected> = finished
                    .calls
                    .iter()
                    .zip(&calls)
                    .map(|(call, (_, _, args))| {
                        let parsed = args
                            .as_ref()
                            .map(|_| serde_json::from_str(&call.arguments).unwrap());
                        (call.id.clone(), call.name.clone(), parsed)
                    })
                    .collect();
                assert_eq!(got, calls, "{what}");
                assert_eq!(finished.calls.len(), calls.len(), "{what}");
                if !calls.is_empty() {
                    assert_eq!(finished.stop_reason, StopReason::ToolUse, "{what}");
                }
                let native = finished.native.expect(&what);
                let raw = native.content.as_str().or(native.content["text"].as_str());
                assert_eq!(
                    raw,
                    Some(case.text.as_str()),
                    "{what}: the reply as written"
                );
                checked += 1;
            }
        }
    }
    let replies: usize = FORMATS.iter().map(|(_, stem)| corpus(stem).len()).sum();
    assert_eq!(checked, replies * 7);
}
