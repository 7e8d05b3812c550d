//! Differential check against the `tool-parser` crate (v1.10.0) on the format corpora: the
//! same calls (name, and arguments equal as JSON) on every reply, except the deliberate
//! differences listed below with their reasons (and in `docs/formats.md`).
//!
//! tool-parser's outputs are fixtures recorded by `difftest/` (outside the workspace, so its
//! tokio/regex/rustpython dependencies stay out of this build): `cd difftest && cargo run
//! --release` rewrites `tests/fixtures/formats/<format>.tool_parser.json`. Its streamed
//! readings (chunks of 1..64 bytes) are compared in `streamed.rs`.

mod streamed;

use crate::formats_support;

use formats_support::{calls, corpus, fixture_path, parse_chunks};
use serde_json::Value;
use tool_core::parse::ToolFormat;

/// The formats compared here (the open-model ones are in `formats_differential_open.rs`).
const STEMS: &[(ToolFormat, &str)] = &[
    (ToolFormat::Hermes, "hermes"),
    (ToolFormat::Qwen3Coder, "qwen3_coder"),
    (ToolFormat::Mistral, "mistral"),
    (ToolFormat::Llama, "llama"),
    (ToolFormat::Pythonic, "pythonic"),
];

/// Why a reply's calls differ from tool-parser's, by reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// A call shown inside a markdown code fence is an example, not a request: text here,
    /// a call there.
    FencedExample,
    /// A repair with exactly one reading (fence around the JSON, raw control characters,
    /// junk after the object, a double-encoded object, `parameters` for `arguments`) runs the
    /// call here, with a diagnostic; there it is dropped.
    Repaired,
    /// Mistral's `[TOOL_CALLS]NAME[ARGS]{...}` form (v11+ tokenizers) and several
    /// `[TOOL_CALLS]` markers: tool-parser 1.10 reads only one JSON array.
    MistralNameForm,
    /// `</tool_call>` inside a JSON string is data here (the body is scanned as JSON);
    /// tool-parser ends the block at the first `</tool_call>`.
    EndMarkerInString,
    /// A Qwen3-Coder value keeps the model's whitespace here (only the format's framing
    /// newlines go); tool-parser trims it.
    QwenWhitespace,
    /// A Qwen3-Coder parameter missing `</parameter>` ends at the next `<parameter=` here, as
    /// in vLLM's parser; tool-parser drops the call.
    QwenMissingParameterClose,
    /// A Qwen3-Coder value that cannot take the schema's type is `INVALID_PARAM` here; tool-parser
    /// passes the string on.
    QwenSchema,
    /// A Qwen3-Coder parameter the schema does not describe stays a string here, as in vLLM's
    /// parser (nothing says it is a number); tool-parser guesses a JSON type from the text.
    QwenNoSchema,
    /// Several `<function=...>` in one `<tool_call>` are several calls here; tool-parser reads
    /// the first.
    QwenSeveralFunctions,
    /// CRLF line ends around the JSON: read here, tool-parser wants `<tool_call>\n`.
    Layout,
    /// A Llama JSON call with prose before it (no `<|python_tag|>`) or after it, several
    /// separated by a newline, or pretty-printed: read here, as vLLM's own tests expect
    /// (`vllm_*`); tool-parser reads bare JSON only when the whole reply is calls.
    LlamaProseAround,
    /// `"arguments"` for `"parameters"`: tool-parser 1.10's Llama parser loses the arguments.
    LlamaArgumentsKey,
    /// A JSON object that is not a call stays text here: no `"parameters"`/`"arguments"` (and
    /// not an offered tool's name, as vLLM), `"type"` other than `"function"`, or more than 64
    /// spaces before the first key; tool-parser reads a call.
    LlamaNotACall,
    /// Arguments that are not one JSON object (an array, a duplicate key) are a `CallError`
    /// here, telling the model; tool-parser passes them on.
    LlamaStrictJson,
    /// Python literals read as `ast.literal_eval` does: a bytes literal, a bare variable name
    /// or a non-finite number makes that call (only) a `CallError`; JSON's `true`/`null` are
    /// booleans and null. tool-parser turns names into strings and drops a list with `1e999`.
    PythonLiterals,
    /// A pythonic list over several lines, with a trailing comma, a second list later in the
    /// reply, or a dotted name: read here; tool-parser 1.10 misses them.
    PythonicLayout,
}

const DELIBERATE: &[(&str, &str, Why)] = &[
    ("hermes", "code_fence", Why::FencedExample),
    ("hermes", "fence_then_real", Why::FencedExample),
    ("hermes", "missing_close_stop", Why::Repaired),
    ("hermes", "missing_arguments", Why::Repaired),
    ("hermes", "parameters_key", Why::Repaired),
    ("hermes", "double_encoded", Why::Repaired),
    ("hermes", "fenced_body", Why::Repaired),
    ("hermes", "trailing_junk", Why::Repaired),
    ("hermes", "control_chars", Why::Repaired),
    ("hermes", "crlf", Why::Layout),
    ("qwen3_coder", "single", Why::QwenNoSchema),
    (
        "qwen3_coder",
        "string_keeps_whitespace",
        Why::QwenWhitespace,
    ),
    ("qwen3_coder", "close_tag_in_value", Why::EndMarkerInString),
    (
        "qwen3_coder",
        "two_functions_one_block",
        Why::QwenSeveralFunctions,
    ),
    ("qwen3_coder", "code_fence", Why::FencedExample),
    (
        "qwen3_coder",
        "missing_param_close",
        Why::QwenMissingParameterClose,
    ),
    (
        "qwen3_coder",
        "missing_param_close_before_function_end",
        Why::QwenMissingParameterClose,
    ),
    ("qwen3_coder", "bad_integer", Why::QwenSchema),
    ("qwen3_coder", "bad_object", Why::QwenSchema),
    (
        "qwen3_coder",
        "unknown_parameter_stays_string",
        Why::QwenNoSchema,
    ),
    ("qwen3_coder", "missing_close_stop", Why::Repaired),
    ("mistral", "new_form", Why::MistralNameForm),
    ("mistral", "new_form_two", Why::MistralNameForm),
    ("mistral", "text_before_and_after", Why::MistralNameForm),
    ("mistral", "markers_in_strings", Why::MistralNameForm),
    ("mistral", "call_id", Why::MistralNameForm),
    ("mistral", "unicode", Why::MistralNameForm),
    ("mistral", "space_before_args", Why::MistralNameForm),
    ("mistral", "gen_00", Why::MistralNameForm),
    ("mistral", "gen_02", Why::MistralNameForm),
    ("mistral", "gen_04", Why::MistralNameForm),
    ("mistral", "gen_06", Why::MistralNameForm),
    ("mistral", "gen_08", Why::MistralNameForm),
    ("mistral", "gen_10", Why::MistralNameForm),
    ("mistral", "gen_12", Why::MistralNameForm),
    ("mistral", "gen_14", Why::MistralNameForm),
    ("mistral", "gen_16", Why::MistralNameForm),
    ("mistral", "gen_18", Why::MistralNameForm),
    ("mistral", "gen_20", Why::MistralNameForm),
    ("mistral", "gen_22", Why::MistralNameForm),
    ("mistral", "gen_24", Why::MistralNameForm),
    ("mistral", "gen_26", Why::MistralNameForm),
    ("mistral", "gen_28", Why::MistralNameForm),
    ("mistral", "array_parameters_key", Why::Repaired),
    ("mistral", "double_encoded", Why::Repaired),
    ("llama", "vllm_simple", Why::LlamaProseAround),
    ("llama", "vllm_surrounding_text", Why::LlamaProseAround),
    (
        "llama",
        "vllm_brace_in_trailing_text",
        Why::LlamaProseAround,
    ),
    (
        "llama",
        "vllm_json_fragment_in_trailing_text",
        Why::LlamaProseAround,
    ),
    (
        "llama",
        "vllm_separator_only_newline",
        Why::LlamaProseAround,
    ),
    ("llama", "pretty", Why::LlamaProseAround),
    ("llama", "fence_then_real", Why::LlamaProseAround),
    ("llama", "unicode", Why::LlamaProseAround),
    ("llama", "tp_follow_up_text", Why::LlamaProseAround),
    ("llama", "gen_00", Why::LlamaProseAround),
    ("llama", "gen_01", Why::LlamaProseAround),
    ("llama", "gen_02", Why::LlamaProseAround),
    ("llama", "gen_03", Why::LlamaProseAround),
    ("llama", "vllm_arguments_key", Why::LlamaArgumentsKey),
    ("llama", "vllm_missing_parameters", Why::LlamaNotACall),
    ("llama", "type_not_function", Why::LlamaNotACall),
    ("llama", "long_space_lead", Why::LlamaNotACall),
    ("llama", "double_encoded", Why::Repaired),
    ("llama", "parameters_array", Why::LlamaStrictJson),
    ("llama", "duplicate_key", Why::LlamaStrictJson),
    ("llama", "sglang_python_tag", Why::LlamaArgumentsKey),
    ("llama", "sglang_no_python_tag", Why::LlamaArgumentsKey),
    (
        "llama",
        "sglang_text_before_python_tag",
        Why::LlamaArgumentsKey,
    ),
    ("llama", "sglang_multiple_json", Why::LlamaArgumentsKey),
    ("llama", "sglang_multiple_arguments", Why::LlamaArgumentsKey),
    ("llama", "sglang_text_then_call", Why::LlamaArgumentsKey),
    (
        "llama",
        "sglang_empty_json_before_tag",
        Why::LlamaArgumentsKey,
    ),
    ("llama", "sglang_json_before_tag", Why::LlamaArgumentsKey),
    ("llama", "sglang_unknown_tool", Why::LlamaArgumentsKey),
    (
        "llama",
        "sglang_unknown_tool_tagged",
        Why::LlamaArgumentsKey,
    ),
    (
        "llama",
        "sglang_unknown_tool_compact",
        Why::LlamaArgumentsKey,
    ),
    (
        "llama",
        "sglang_arguments_before_name",
        Why::LlamaArgumentsKey,
    ),
    (
        "llama",
        "sglang_arguments_before_name_tagged",
        Why::LlamaArgumentsKey,
    ),
    ("pythonic", "vllm_bad_sibling", Why::PythonLiterals),
    ("pythonic", "vllm_non_finite", Why::PythonLiterals),
    ("pythonic", "json_literals", Why::PythonLiterals),
    ("pythonic", "variable_value", Why::PythonLiterals),
    ("pythonic", "dotted_name", Why::PythonicLayout),
    ("pythonic", "multiline_list", Why::PythonicLayout),
    ("pythonic", "two_lists", Why::PythonicLayout),
    ("pythonic", "trailing_comma_list", Why::PythonicLayout),
    ("pythonic", "sglang_two_lists", Why::PythonicLayout),
    ("pythonic", "code_fence", Why::FencedExample),
    ("pythonic", "fence_then_real", Why::FencedExample),
];

pub(crate) fn recorded(stem: &str) -> Vec<Value> {
    let path = fixture_path(&format!("{stem}.tool_parser.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub(crate) fn theirs(record: &Value) -> Vec<(String, Value)> {
    record["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["arguments"].clone(),
            )
        })
        .collect()
}

/// Compares our whole-reply calls with tool-parser's on every reply of `stems`: a difference
/// must be listed in `deliberate` (with its reason), and a listed one must still differ.
pub(crate) fn same_calls_except_listed<W>(
    stems: &[(ToolFormat, &str)],
    deliberate: &[(&str, &str, W)],
) {
    let mut unexpected = Vec::new();
    let mut stale = Vec::new();
    for (format, stem) in stems {
        let records = recorded(stem);
        let cases = corpus(stem);
        assert_eq!(records.len(), cases.len(), "{stem}: re-record the fixtures");
        for (case, record) in cases.iter().zip(&records) {
            assert_eq!(record["name"].as_str(), Some(case.name.as_str()));
            let ours = calls(&parse_chunks(*format, &case.text, &[], case.reason));
            let theirs = theirs(record);
            let listed = deliberate
                .iter()
                .find(|(s, n, _)| s == stem && *n == case.name);
            match (ours == theirs, listed) {
                (false, None) => unexpected.push(format!(
                    "{stem}/{}:\n  ours   {ours:?}\n  theirs {theirs:?}",
                    case.name
                )),
                (true, Some(_)) => stale.push(format!("{stem}/{}", case.name)),
                _ => {}
            }
        }
    }
    assert!(
        unexpected.is_empty(),
        "unlisted differences ({}):\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(stale.is_empty(), "listed but agreeing: {stale:?}");
}

#[test]
fn the_same_calls_as_tool_parser_except_the_listed_differences() {
    same_calls_except_listed(STEMS, DELIBERATE);
}
