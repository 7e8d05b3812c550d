//! The text mode over every reply of the format corpora (adversarial ones included), streamed
//! at several chunk sizes: the model events and the finished turn say what the format's
//! parser says about the whole reply: the same text, the same calls in the same order (a
//! rejected call passed on under its id and name), the reply kept verbatim, and a reply cut
//! off inside a call an `Incomplete` error.

use crate::formats_support;

use std::future::poll_fn;

use formats_support::{corpus, definitions, FORMATS};
use serde_json::Value;
use tool_core::model::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelTurn, OfferedTools,
    ScriptedModel, StopReason, TextMode,
};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::{block_on, ToolDefinition};

/// A call as the turn should hold it: id, name, and the arguments when the parser read them.
type Expected = (String, String, Option<Value>);

/// What the parser says about the whole reply: its text, its calls, whether it was cut off.
fn expected(
    format: ToolFormat,
    defs: &[ToolDefinition],
    text: &str,
    reason: EndReason,
) -> (String, Vec<Expected>, bool) {
    let options = FormatOptions::for_tools(defs);
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
        let defs = definitions(format);
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
