//! The bench's workload: two tools and, per format, the same reply written as that format's
//! model writes it (prose, then the calls in the format's own block), plus one large call.

use openai_protocol::common::Tool;
use serde_json::{json, Value};
use tool_core::parse::ToolFormat;
use tool_core::ToolDefinition;

/// Every format tool-parser 1.10.0 has a parser for too (harmony and `<use_tool>` it has not).
pub const SHARED: [ToolFormat; 12] = [
    ToolFormat::Hermes,
    ToolFormat::Qwen3Coder,
    ToolFormat::Mistral,
    ToolFormat::Llama,
    ToolFormat::Pythonic,
    ToolFormat::DeepSeekV3,
    ToolFormat::DeepSeekV31,
    ToolFormat::DeepSeekV32,
    ToolFormat::DeepSeekV4,
    ToolFormat::Glm,
    ToolFormat::KimiK2,
    ToolFormat::MiniMax,
];

fn schemas() -> [(&'static str, &'static str, Value); 2] {
    [
        (
            "get_weather",
            "Current weather for a city.",
            json!({"type": "object", "properties": {"city": {"type": "string"},
                "days": {"type": "integer"}}, "required": ["city"]}),
        ),
        (
            "write",
            "Writes a file.",
            json!({"type": "object", "properties": {"path": {"type": "string"},
                "content": {"type": "string"}}, "required": ["path", "content"]}),
        ),
    ]
}

/// The tools as tool-parser takes them.
pub fn openai_tools() -> Vec<Tool> {
    let list: Vec<Value> = schemas()
        .into_iter()
        .map(|(name, description, parameters)| {
            json!({"type": "function", "function": {"name": name, "description": description,
                "parameters": parameters}})
        })
        .collect();
    serde_json::from_value(Value::Array(list)).expect("valid tools")
}

/// The same tools as tool-core takes them.
pub fn definitions() -> Vec<ToolDefinition> {
    schemas()
        .into_iter()
        .map(|(name, description, schema)| ToolDefinition::new(name, description, schema))
        .collect()
}

/// One call: its name and its arguments in the order they are written.
pub type Call = (&'static str, Vec<(&'static str, Value)>);

/// Plain prose of about `size` bytes, in paragraphs, free of every format's markers.
fn prose(size: usize) -> String {
    let line = "The weather in Tokyo is mild today, with light winds from the south-east and a \
                chance of rain later in the evening; temperatures stay near 21 degrees. ";
    let mut out = String::new();
    while out.len() < size {
        out.push_str(line);
        if out.len() % 1000 < line.len() {
            out.push_str("\n\n");
        }
    }
    out
}

/// About `size` bytes of words, with no space at either end (the XML-like formats' peers trim
/// values).
fn payload(size: usize) -> String {
    let words = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod ";
    words.repeat(size / words.len()).trim_end().to_string()
}

/// The realistic reply: about 3 KiB of prose, then two calls (one with a 1 KiB string),
/// about 4.4 KiB in all.
pub fn mixed() -> (String, Vec<Call>) {
    let calls = vec![
        (
            "get_weather",
            vec![("city", json!("Paris")), ("days", json!(3))],
        ),
        (
            "write",
            vec![
                ("path", json!("/tmp/notes.md")),
                ("content", json!(payload(1 << 10))),
            ],
        ),
    ];
    (prose(3 << 10), calls)
}

/// One call with a 16 KiB string argument and a line of prose before it.
pub fn large() -> (String, Vec<Call>) {
    let calls = vec![(
        "write",
        vec![
            ("path", json!("/tmp/a")),
            ("content", json!(payload(16 << 10))),
        ],
    )];
    ("Writing the file now.\n\n".to_string(), calls)
}

/// `{"k": v, ...}` in the written order, as the models write it.
fn json_object(args: &[(&str, Value)]) -> String {
    let fields: Vec<String> = args.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    format!("{{{}}}", fields.join(", "))
}

/// A value as the XML-ish formats write it: strings raw, the rest as JSON.
fn raw(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `prose` followed by `calls` in `format`, as that format's model writes them.
pub fn reply(format: ToolFormat, prose: &str, calls: &[Call]) -> String {
    let each = |write: &dyn Fn(&Call) -> String, separator: &str| {
        calls.iter().map(write).collect::<Vec<_>>().join(separator)
    };
    let block = match format {
        ToolFormat::Hermes => each(
            &|(name, args)| {
                format!(
                    "<tool_call>\n{{\"name\": \"{name}\", \"arguments\": {}}}\n</tool_call>",
                    json_object(args)
                )
            },
            "\n",
        ),
        ToolFormat::Qwen3Coder => each(
            &|(name, args)| {
                let params: String = args
                    .iter()
                    .map(|(k, v)| format!("<parameter={k}>\n{}\n</parameter>\n", raw(v)))
                    .collect();
                format!("<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>")
            },
            "\n",
        ),
        ToolFormat::Mistral => format!(
            "[TOOL_CALLS] [{}]",
            each(
                &|(name, args)| format!(
                    "{{\"name\": \"{name}\", \"arguments\": {}}}",
                    json_object(args)
                ),
                ", "
            )
        ),
        ToolFormat::Llama => format!(
            "<|python_tag|>{}",
            each(
                &|(name, args)| format!(
                    "{{\"name\": \"{name}\", \"parameters\": {}}}",
                    json_object(args)
                ),
                "; "
            )
        ),
        ToolFormat::Pythonic => format!(
            "[{}]",
            each(
                &|(name, args)| {
                    let args: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("{name}({})", args.join(", "))
                },
                ", "
            )
        ),
        ToolFormat::DeepSeekV3 => format!(
            "<｜tool▁calls▁begin｜>{}<｜tool▁calls▁end｜>",
            each(
                &|(name, args)| {
                    format!(
                    "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}\n```json\n{}\n```<｜tool▁call▁end｜>",
                    json_object(args)
                )
                },
                "\n"
            )
        ),
        ToolFormat::DeepSeekV31 => format!(
            "<｜tool▁calls▁begin｜>{}<｜tool▁calls▁end｜>",
            each(
                &|(name, args)| format!(
                    "<｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
                    json_object(args)
                ),
                ""
            )
        ),
        ToolFormat::DeepSeekV32 | ToolFormat::DeepSeekV4 => {
            let tag = if format == ToolFormat::DeepSeekV4 {
                "tool_calls"
            } else {
                "function_calls"
            };
            format!(
                "<｜DSML｜{tag}>\n{}</｜DSML｜{tag}>",
                each(
                    &|(name, args)| {
                        let params: String = args
                        .iter()
                        .map(|(k, v)| {
                            format!(
                                "<｜DSML｜parameter name=\"{k}\" string=\"{}\">{}</｜DSML｜parameter>\n",
                                v.is_string(),
                                raw(v)
                            )
                        })
                        .collect();
                        format!("<｜DSML｜invoke name=\"{name}\">\n{params}</｜DSML｜invoke>\n")
                    },
                    ""
                )
            )
        }
        ToolFormat::Glm => each(
            &|(name, args)| {
                let params: String = args
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "<arg_key>{k}</arg_key>\n<arg_value>{}</arg_value>\n",
                            raw(v)
                        )
                    })
                    .collect();
                format!("<tool_call>{name}\n{params}</tool_call>")
            },
            "\n",
        ),
        ToolFormat::KimiK2 => {
            let mut out = String::from("<|tool_calls_section_begin|>");
            for (k, (name, args)) in calls.iter().enumerate() {
                out.push_str(&format!(
                    "<|tool_call_begin|>functions.{name}:{k}<|tool_call_argument_begin|>{}<|tool_call_end|>",
                    json_object(args)
                ));
            }
            out + "<|tool_calls_section_end|>"
        }
        ToolFormat::MiniMax => format!(
            "<minimax:tool_call>\n{}</minimax:tool_call>",
            each(
                &|(name, args)| {
                    let params: String = args
                        .iter()
                        .map(|(k, v)| format!("<parameter name=\"{k}\">{}</parameter>\n", raw(v)))
                        .collect();
                    format!("<invoke name=\"{name}\">\n{params}</invoke>\n")
                },
                ""
            )
        ),
        other => panic!("{other:?} has no tool-parser counterpart"),
    };
    format!("{prose}{block}")
}

/// `input` cut into pieces of `size` bytes (a piece grows to the next character boundary).
pub fn pieces(input: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + size).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        out.push(&input[start..end]);
        start = end;
    }
    out
}
