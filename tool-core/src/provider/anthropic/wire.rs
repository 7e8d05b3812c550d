//! The Messages shapes: tools, `tool_choice`, content blocks, the history entries.

use serde_json::{json, Map, Value};

use super::code_execution::{programs_wanted, CodeExecution};
use super::schema::input_schema;
use super::stream::{read_blocks, AnthropicStream};
use super::Anthropic;
use crate::call::{AllowedCallers, Caller, ToolCall};
use crate::definition::ToolDefinition;
use crate::provider::error::At;
use crate::provider::{
    arguments_value, pairs, same_calls, Api, AssistantTurn, ChatApi, ProviderError, Sealed,
    ToolChoice,
};
use crate::response::ToolResponse;

/// One tool: `{"name", "description", "input_schema"}`, `defer_loading: true` when
/// `deferred` and the tool is (only with a search tool in the same request), and the
/// `allowed_callers` naming `code` when programs may call it.
pub(super) fn tool(def: &ToolDefinition, deferred: bool, code: CodeExecution) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    out.insert("description".into(), json!(def.description));
    out.insert(
        "input_schema".into(),
        input_schema(&def.input_schema).schema,
    );
    if deferred && def.defer_loading() {
        out.insert("defer_loading".into(), Value::Bool(true));
    }
    // The API's default is direct calls only, so the default is not sent.
    let allowed = match def.allowed_callers() {
        AllowedCallers::Program => Some(json!([code.tool_type()])),
        AllowedCallers::Any => Some(json!(["direct", code.tool_type()])),
        _ => None,
    };
    if let Some(allowed) = allowed {
        out.insert("allowed_callers".into(), allowed);
    }
    Value::Object(out)
}

/// The caller type `allowed_callers` names for code execution by default: the current
/// version of Anthropic's code execution tool, which runs the programs that call tools
/// (programmatic tool calling; see [`CodeExecution`] for the versions).
///
/// ```
/// use tool_core::provider::anthropic::{CodeExecution, CODE_EXECUTION_CALLER};
/// assert_eq!(CODE_EXECUTION_CALLER, CodeExecution::default().tool_type());
/// ```
pub const CODE_EXECUTION_CALLER: &str = CodeExecution::V20260120.tool_type();

/// The `tools` array: one entry per definition (`tool_entry` writes it), then the code
/// execution tool `code` when a tool allows programs (they could not be called otherwise).
pub(super) fn with_code_execution(
    defs: &[ToolDefinition],
    code: CodeExecution,
    tool_entry: impl Fn(&ToolDefinition) -> Value,
) -> Vec<Value> {
    let mut tools: Vec<Value> = Vec::with_capacity(defs.len() + 1);
    tools.extend(defs.iter().map(tool_entry));
    if programs_wanted(defs) {
        tools.push(code.definition());
    }
    tools
}

/// The `tools` array for strict tool use: `strict: true` on every tool whose schema allows
/// it (closed objects, no recursion); the others are sent without `strict` (see
/// [`input_schema`] for why).
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let t = tool_core::provider::anthropic::tools_strict(tools![hi].definitions());
/// assert_eq!(t[0]["strict"], true);
/// ```
pub fn tools_strict(defs: &[ToolDefinition]) -> Value {
    let code = CodeExecution::default();
    Value::Array(with_code_execution(defs, code, |def| {
        let mut t = tool(def, false, code);
        if input_schema(&def.input_schema).strict {
            if let Value::Object(map) = &mut t {
                map.insert("strict".into(), Value::Bool(true));
            }
        }
        t
    }))
}

fn native_agrees(turn: &AssistantTurn) -> bool {
    if turn.native.is_empty() {
        return false;
    }
    match read_blocks(&turn.native) {
        Ok((text, calls)) => text == turn.text && same_calls(&calls, &turn.calls),
        Err(_) => false,
    }
}

/// How a `tool_result`'s `content` is written.
///
/// ```
/// assert_eq!(tool_core::provider::anthropic::ResultContent::default(), tool_core::provider::anthropic::ResultContent::Text);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResultContent {
    /// `"content": "<text>"`.
    #[default]
    Text,
    /// `"content": [{"type": "text", "text": "<text>"}]`.
    Blocks,
}

/// One `tool_result` block: the response's model text, `is_error: true` for an `ERROR`.
/// A response with attachments always has a list of blocks: its text, then an `image` block
/// per image (JPEG, PNG, GIF, WebP), a `document` block per PDF or plain-text file (titled
/// with its name), and a text block naming anything else (audio, other files).
///
/// ```
/// use tool_core::{provider::anthropic::{tool_result, ResultContent}, ToolCall, ToolErrorCode, ToolResponse};
/// let call = ToolCall::new("toolu_1", "f", "{}");
/// let block = tool_result(&call, &ToolResponse::error(ToolErrorCode::Timeout, "slow"), ResultContent::Text);
/// assert_eq!(block["is_error"], true);
/// ```
pub fn tool_result(call: &ToolCall, response: &ToolResponse, style: ResultContent) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!("tool_result"));
    out.insert("tool_use_id".into(), json!(call.id));
    let content = if response.attachments.is_empty() {
        let text = response.model_text();
        match style {
            ResultContent::Text => json!(text),
            ResultContent::Blocks => json!([{"type": "text", "text": text}]),
        }
    } else {
        super::attachments::content_blocks(
            &response.model_text_without_attachments(),
            &response.attachments,
        )
    };
    out.insert("content".into(), content);
    if response.is_error() {
        out.insert("is_error".into(), Value::Bool(true));
    }
    Value::Object(out)
}

/// The one `user` message that answers a turn's calls: every `tool_result` first, in call
/// order, then `text` (when given) after all of them, as the API requires; `style` says how
/// each result's content is written.
///
/// ```
/// use tool_core::provider::anthropic::{self, ResultContent};
/// use tool_core::{ToolCall, ToolResponse};
/// let m = anthropic::results_message(&[ToolCall::new("toolu_1", "f", "{}")], &[ToolResponse::success("15 degrees")], Some("What next?"), ResultContent::Blocks);
/// assert_eq!(m["content"][0]["content"][0]["text"], "15 degrees");
/// assert_eq!(m["content"][1]["type"], "text");
/// ```
pub fn results_message(
    calls: &[ToolCall],
    responses: &[ToolResponse],
    text: Option<&str>,
    style: ResultContent,
) -> Value {
    let mut content: Vec<Value> = pairs(calls, responses)
        .map(|(call, response)| tool_result(call, &response, style))
        .collect();
    if let Some(text) = text.filter(|t| !t.is_empty()) {
        content.push(json!({"type": "text", "text": text}));
    }
    json!({"role": "user", "content": content})
}

impl Sealed for Anthropic {}

impl ChatApi for Anthropic {
    const API: Api = Api::Anthropic;
    type Stream = AnthropicStream;

    /// One tool per definition, then the code execution tool (the current version,
    /// [`CodeExecution::default`]) when a tool allows calls from programs.
    fn tools(defs: &[ToolDefinition]) -> Value {
        let code = CodeExecution::default();
        Value::Array(with_code_execution(defs, code, |def| {
            tool(def, false, code)
        }))
    }

    /// `{"type": "auto" | "any" | "none"}` or `{"type": "tool", "name"}`; `parallel: false`
    /// adds `disable_parallel_tool_use: true` (not for `none`, where it has no meaning).
    fn tool_choice(choice: &ToolChoice, parallel: bool) -> Value {
        let mut out = Map::new();
        match choice {
            ToolChoice::Auto => out.insert("type".into(), json!("auto")),
            ToolChoice::Required => out.insert("type".into(), json!("any")),
            ToolChoice::None => out.insert("type".into(), json!("none")),
            ToolChoice::Tool(name) => {
                out.insert("type".into(), json!("tool"));
                out.insert("name".into(), json!(name))
            }
            // No `allowed_tools` here: see `allowed_choice`.
            ToolChoice::Allowed { tools, mode } => allowed_choice(&mut out, tools, *mode),
        };
        if !parallel && *choice != ToolChoice::None {
            out.insert("disable_parallel_tool_use".into(), Value::Bool(true));
        }
        Value::Object(out)
    }

    /// `tools` and `tool_choice` (which carries the parallel switch).
    fn tool_fields(
        defs: &[ToolDefinition],
        choice: &ToolChoice,
        parallel: bool,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("tools".into(), Self::tools(defs));
        out.insert("tool_choice".into(), Self::tool_choice(choice, parallel));
        out
    }

    /// Text blocks (joined), `tool_use` blocks (their `input` object becomes the argument
    /// text), and `stop_reason`. Every block, including the ones not read here (thinking,
    /// redacted thinking, server-tool blocks, a `caller` on a `tool_use`), is kept unchanged
    /// in [`AssistantTurn::native`].
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
        let root = At::root(response);
        let stop_reason = root
            .opt("stop_reason")
            .map(|r| r.str().map(str::to_owned))
            .transpose()?;
        let content = root.get("content")?;
        let blocks = content
            .value
            .as_array()
            .ok_or_else(|| content.expected("an array"))?;
        let (text, calls) = read_blocks(blocks)?;
        Ok(AssistantTurn {
            text,
            calls,
            stop_reason,
            native: blocks.clone(),
            response_id: crate::provider::turn::id_at(response, "id"),
            ..AssistantTurn::default()
        })
    }

    /// The assistant message. A turn read from Anthropic sends its blocks back exactly as
    /// they came (thinking blocks with their signatures, `server_tool_use` and its results,
    /// `caller` fields, in their order), as the API requires for thinking and server tools.
    /// A turn built by hand, or whose `text` or `calls` no longer match those blocks, is
    /// written as a text block (when there was text), then one `tool_use` block per call.
    fn history_entry(turn: &AssistantTurn) -> Value {
        if native_agrees(turn) {
            return json!({"role": "assistant", "content": turn.native});
        }
        let mut content = Vec::new();
        if !turn.text.is_empty() {
            content.push(json!({"type": "text", "text": turn.text}));
        }
        for call in &turn.calls {
            let mut block = json!({"type": "tool_use", "id": call.id, "name": call.name, "input": arguments_value(&call.arguments)});
            if let (Some(caller), Value::Object(map)) = (&call.caller, &mut block) {
                map.insert("caller".into(), caller_json(caller));
            }
            content.push(block);
        }
        json!({"role": "assistant", "content": content})
    }

    /// One `user` message of `tool_result` blocks, in call order, `is_error: true` for an
    /// `ERROR` (see [`results_message`] for text after them and the content style).
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
        vec![results_message(calls, responses, None, ResultContent::Text)]
    }

    fn stream() -> AnthropicStream {
        AnthropicStream::default()
    }
}

/// A call's `caller` as Anthropic writes it.
fn caller_json(caller: &Caller) -> Value {
    match caller {
        Caller::Program { kind, id } => json!({"type": kind, "tool_id": id}),
        _ => json!({"type": "direct"}),
    }
}

/// Anthropic has no way to restrict calls to some tools while sending all of them: a
/// restriction is `auto`, or `any` when a call is required (the one tool itself when only
/// one is allowed), and the runner refuses calls outside the set.
fn allowed_choice(
    out: &mut Map<String, Value>,
    tools: &[String],
    mode: crate::provider::AllowedMode,
) -> Option<Value> {
    match (mode, tools) {
        (crate::provider::AllowedMode::Required, [only]) => {
            out.insert("type".into(), json!("tool"));
            out.insert("name".into(), json!(only))
        }
        (crate::provider::AllowedMode::Required, _) => out.insert("type".into(), json!("any")),
        _ => out.insert("type".into(), json!("auto")),
    }
}
