//! What the DeepSeek DSML fuzz targets check on top of `formats_common.rs` (included by
//! `formats_deepseek_v32.rs` and `formats_deepseek_v4.rs`): a call is reported only when its
//! invoke is closed, and it is the same call whichever way the reply is chunked, with the
//! corpus's schemas typing the values.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::ToolDefinition;

#[path = "formats_common.rs"]
mod formats_common;

/// The corpus's tools with their schemas, built into the target (it runs away from the
/// fixtures).
fn definitions() -> &'static [ToolDefinition] {
    static TOOLS: OnceLock<Vec<ToolDefinition>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let text = include_str!("../../tests/fixtures/formats/schemas.json");
        let map: HashMap<String, Value> = serde_json::from_str(text).unwrap_or_default();
        map.into_iter()
            .map(|(name, schema)| ToolDefinition::new(name, "", Arc::new(schema)))
            .collect()
    })
}

fn parse(format: ToolFormat, data: &[u8], chunk: usize) -> Vec<Event> {
    let options = FormatOptions::for_tools(definitions());
    let mut parser = FormatParser::with_options(format, options);
    let mut out = Vec::new();
    for piece in data.chunks(chunk) {
        parser.feed_bytes(piece, &mut out);
    }
    parser.finish(EndReason::Stop, &mut out);
    out
}

pub fn check(format: ToolFormat, data: &[u8]) {
    formats_common::check(format, data);
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(input);
    let whole = parse(format, input, input.len().max(1));
    for e in &whole {
        if let Event::CallComplete { span, call, .. } = e {
            let written = &text[span.clone()];
            assert!(
                written.contains("</｜DSML｜invoke>"),
                "{call:?} was reported from {written:?}, which closes no invoke"
            );
            assert!(
                serde_json::from_str::<serde_json::Map<String, Value>>(&call.arguments)
                    .is_ok(),
                "{call:?}: the arguments are not a JSON object"
            );
        }
    }
    let chunked = parse(format, input, usize::from(control % 16) + 1);
    assert_eq!(
        formats_common::formats_support::merged(chunked),
        formats_common::formats_support::merged(whole),
        "chunking changed the typed result"
    );
}
