//! Llama 4's pythonic calls and gpt-oss's harmony.

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};

use super::{
    assert_rendered, calls, dated_environment, environment, one_call_messages, openai_tools, ours,
    render_with, RESULTS,
};

/// The calls `format`'s parser reads in `text`, as (name, arguments).
fn read_calls(format: ToolFormat, text: &str) -> Vec<(String, Value)> {
    FormatParser::parse_all(format, text, EndReason::Stop)
        .into_iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some((
                call.name.clone(),
                serde_json::from_str(&call.arguments).expect("JSON arguments"),
            )),
            _ => None,
        })
        .collect()
}

/// What Python's `"%s" % value` writes for a JSON value (the Llama 4 template's `format`).
fn python_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_str).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

#[test]
fn pythonic_writes_what_the_llama_4_template_writes() {
    // As written, the template lists the tools only when they come as `custom_tools`.
    let rendered = render_with(
        "tool_chat_template_llama4_pythonic.jinja",
        environment(),
        json!({"custom_tools": openai_tools()}),
    );
    let ours = ours(ToolFormat::Pythonic);
    assert_rendered("tool block", &rendered, &ours.tools);
    for line in ours.results.lines() {
        assert_rendered(
            "result",
            &rendered,
            &format!("<|header_start|>ipython<|header_end|>\n\n{line}<|eot|>"),
        );
    }
    // Deliberately: the template writes every value in double quotes (`days="3"`), so read
    // back, numbers and lists would be strings; ours writes Python literals. Both lists read
    // back as the same calls once each of our values is written as the template's `%s`.
    let start = "<|header_start|>assistant<|header_end|>\n\n";
    let theirs = &rendered[rendered.find(start).expect("the call turn") + start.len()..];
    let theirs = &theirs[..theirs.find("<|eot|>").expect("the turn's end")];
    let quoted: Vec<(String, Value)> = read_calls(ToolFormat::Pythonic, &ours.calls)
        .into_iter()
        .map(|(name, args)| {
            let args = args.as_object().expect("an object").iter();
            let args = args.map(|(k, v)| (k.clone(), Value::String(python_str(v))));
            (name, Value::Object(args.collect()))
        })
        .collect();
    assert_eq!(read_calls(ToolFormat::Pythonic, theirs), quoted);
    let expected: Vec<(String, Value)> = calls()
        .iter()
        .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
        .collect();
    assert_eq!(read_calls(ToolFormat::Pythonic, &ours.calls), expected);
}

#[test]
fn harmony_writes_what_the_gpt_oss_template_writes() {
    let ours = ours(ToolFormat::Harmony);
    // The template takes one call per turn: each call is rendered in a conversation of its
    // own.
    let written: Vec<&str> = ours.calls.split_inclusive("<|call|>").collect();
    let results: Vec<&str> = ours.results.lines().collect();
    assert_eq!((written.len(), results.len()), (2, 2));
    for (k, call) in calls().iter().enumerate() {
        let rendered = render_with(
            "openai-gpt-oss-120b.jinja",
            dated_environment(),
            json!({"messages": one_call_messages(k, false)}),
        );
        // Deliberately: a type list is written as TypeScript (`number | null`); the template
        // joins the JSON Schema names (`integer | null`).
        assert_rendered(
            "tool block",
            &rendered.replace("integer | null", "number | null"),
            &format!("<|start|>developer<|message|># Instructions\n\nYou are a helpful assistant.\n\n{}<|end|>", ours.tools),
        );
        // Deliberately: the recipient in the channel header and `<|constrain|>json`, as
        // openai-harmony renders a call and as the model writes one; the template puts the
        // recipient after the role and writes ` json`.
        let header = format!(
            "<|channel|>commentary to=functions.{} <|constrain|>json<|message|>",
            call.name
        );
        let theirs = format!(
            " to=functions.{}<|channel|>commentary json<|message|>",
            call.name
        );
        assert_rendered("call", &rendered, &written[k].replacen(&header, &theirs, 1));
        // Deliberately: the result text as written; the template writes it as a JSON string.
        let text = RESULTS[k];
        let quoted = Value::String(text.to_string()).to_string();
        assert_rendered(
            "result",
            &rendered,
            &results[k].replacen(
                &format!("<|message|>{text}<|end|>"),
                &format!("<|message|>{quoted}<|end|>"),
                1,
            ),
        );
    }
}
