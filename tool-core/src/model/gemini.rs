//! [`Gemini`]: the Gemini API's `generateContent` / `streamGenerateContent`.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::http::{self, Decoder};
use super::http::{
    calls_and_responses, count, endpoint_methods, finished_turn, native_of, neutral_turn,
};
use super::http::{push_reasoning, reasoning_methods};
use super::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream, ModelTurn,
    NativeContent, Usage,
};
use crate::http::{provider_message, Endpoint, Transport};
use crate::provider::gemini::tools_json_schema;
use crate::provider::{Api, Assembler, ChatApi, Gemini as Wire, GeminiStream};

/// The tag of this adapter's [`NativeContent`].
const PROVIDER: Api = Api::Gemini;

/// A Gemini model behind `POST {base}/models/{model}:streamGenerateContent?alt=sse` (or
/// `:generateContent` when not streaming).
///
/// Requests carry `systemInstruction`, the history as `contents` (the model's content as
/// Gemini sent it, thought signatures included, then one `user` content of
/// `functionResponse` parts in call order), `tools` (`function_declarations`) and
/// `toolConfig`. Gemini has no switch for parallel calls, so `parallel_tool_calls: false` is
/// not sent. Gemini streams whole parts: text deltas are reported as their chunks arrive, and
/// each call as soon as its `functionCall` part arrives. Tools are declared with
/// `parameters` (the OpenAPI subset), or `parametersJsonSchema` with
/// [`Gemini::with_json_schema`].
///
/// Reasoning ([`Gemini::with_reasoning`]) is sent as `generationConfig.thinkingConfig:
/// {thinkingBudget, includeThoughts}`; thought-summary parts (`"thought": true`) stream as
/// reasoning deltas, and they and every `thoughtSignature` go back in later requests as
/// Gemini sent them.
///
/// ```
/// use tool_core::model::Gemini;
/// let model = Gemini::new("gemini-2.5-flash").with_api_key("test-key");
/// assert_eq!(model.request_url(), "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
/// ```
#[derive(Debug)]
pub struct Gemini {
    transport: Transport,
    model: String,
    reasoning: Option<super::Reasoning>,
    /// Whether tools declare `parametersJsonSchema` instead of `parameters`.
    json_schema: bool,
}

impl Gemini {
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://generativelanguage.googleapis.com/v1beta";

    /// A client for `model` with no key yet.
    ///
    /// ```
    /// assert_eq!(tool_core::model::Gemini::new("gemini-2.5-flash").model(), "gemini-2.5-flash");
    /// ```
    pub fn new(model: impl Into<String>) -> Self {
        Gemini {
            transport: Transport::new(Endpoint::new(Self::DEFAULT_BASE_URL)),
            model: model.into(),
            reasoning: None,
            json_schema: false,
        }
    }

    /// Sends `x-goog-api-key: <key>`.
    ///
    /// ```
    /// let m = tool_core::model::Gemini::new("gemini-2.5-flash").with_api_key("k");
    /// assert!(m.endpoint().headers.contains(&("x-goog-api-key".to_string(), "k".to_string())));
    /// ```
    pub fn with_api_key(self, key: impl Into<String>) -> Self {
        self.with_endpoint(|e| e.with_header("x-goog-api-key", key))
    }

    /// The model name in the URL.
    ///
    /// ```
    /// let model = tool_core::model::Gemini::new("gemini-2.5-flash");
    /// assert_eq!(model.model(), "gemini-2.5-flash");
    /// ```
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Declares each tool's arguments as `parametersJsonSchema`, the tool's JSON Schema
    /// unchanged (`$ref`, `$defs`, `anyOf`, `additionalProperties` and recursion included),
    /// instead of `parameters`, the OpenAPI subset every `$ref` is inlined into and recursion
    /// cut from (the default). Turn it on for models that accept `parametersJsonSchema`.
    ///
    /// ```
    /// use tool_core::model::{Gemini, Message, ModelRequest, OfferedTools};
    /// use tool_core::{Tool, ToolRegistry};
    /// # #[derive(Clone)] struct Lookup;
    /// # impl Tool for Lookup {
    /// #     fn name(&self) -> &str { "lookup" }
    /// #     fn description(&self) -> &str { "Looks a key up." }
    /// #     fn input_schema(&self) -> serde_json::Value {
    /// #         serde_json::json!({"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"], "additionalProperties": false})
    /// #     }
    /// #     fn call<'a>(&'a self, _: &'a str, _: tool_core::ToolContext<'a>) -> tool_core::CallFuture<'a> {
    /// #         tool_core::CallFuture::ready(tool_core::ToolResponse::success("v"))
    /// #     }
    /// # }
    /// let registry = ToolRegistry::new().with(Lookup);
    /// let messages = [Message::user("Look up a")];
    /// let request = ModelRequest::new(&messages, OfferedTools::all(&registry));
    ///
    /// let model = Gemini::new("gemini-2.5-flash").with_json_schema(true);
    /// let declaration = &model.request_body(&request)["tools"][0]["function_declarations"][0];
    /// assert_eq!(declaration["parametersJsonSchema"]["additionalProperties"], false);
    /// assert!(declaration.get("parameters").is_none());
    ///
    /// let subset = Gemini::new("gemini-2.5-flash").request_body(&request);
    /// assert!(subset["tools"][0]["function_declarations"][0].get("parameters").is_some());
    /// ```
    pub fn with_json_schema(self, on: bool) -> Self {
        Gemini {
            json_schema: on,
            ..self
        }
    }

    endpoint_methods!(Gemini, "\"gemini-2.5-flash\"");
    reasoning_methods!(Gemini, "\"gemini-2.5-flash\"");

    /// The URL requests go to (streamed or whole, as the endpoint says).
    ///
    /// ```
    /// let m = tool_core::model::Gemini::new("gemini-2.5-flash").with_endpoint(|e| e.with_stream(false));
    /// assert!(m.request_url().ends_with("/models/gemini-2.5-flash:generateContent"));
    /// ```
    pub fn request_url(&self) -> String {
        let endpoint = &self.transport.endpoint;
        if endpoint.stream {
            endpoint.url(&format!(
                "models/{}:streamGenerateContent?alt=sse",
                self.model
            ))
        } else {
            endpoint.url(&format!("models/{}:generateContent", self.model))
        }
    }

    /// The request body for `request` (what [`Model::stream`] sends).
    ///
    /// ```
    /// use tool_core::model::{Gemini, Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("hi")];
    /// let body = Gemini::new("gemini-2.5-flash").request_body(&ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief."));
    /// assert_eq!(body["systemInstruction"], serde_json::json!({"parts": [{"text": "Be brief."}]}));
    /// assert_eq!(body["contents"][0], serde_json::json!({"role": "user", "parts": [{"text": "hi"}]}));
    /// ```
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Value {
        let mut contents = Vec::new();
        for message in request.messages {
            match message {
                Message::User { content } => {
                    contents.push(json!({"role": "user", "parts": [{"text": content}]}))
                }
                Message::Assistant(turn) => contents.push(match native_of(turn, PROVIDER) {
                    Some(native) => native.clone(),
                    None => Wire::history_entry(&neutral_turn(turn)),
                }),
                Message::Tool { results } => {
                    let (calls, responses) = calls_and_responses(results);
                    contents.extend(Wire::results_entry(&calls, &responses));
                }
            }
        }
        let mut body = Map::new();
        if let Some(instructions) = request.instructions {
            body.insert(
                "systemInstruction".into(),
                json!({"parts": [{"text": instructions}]}),
            );
        }
        body.insert("contents".into(), Value::Array(contents));
        if let Some(reasoning) = request.reasoning.or(self.reasoning.as_ref()) {
            let thinking = json!({
                "thinkingBudget": reasoning.token_budget(),
                "includeThoughts": reasoning.include_text,
            });
            body.insert(
                "generationConfig".into(),
                json!({"thinkingConfig": thinking}),
            );
        }
        if self.json_schema && !request.tools.is_empty() {
            let definitions = request.tools.definitions();
            body.insert("tools".into(), tools_json_schema(definitions));
            let choice = Wire::tool_choice(request.tool_choice, request.parallel_tool_calls);
            body.insert("toolConfig".into(), choice);
        } else if !request.tools.is_empty() {
            body.extend(Wire::tool_fields(
                request.tools.definitions(),
                request.tool_choice,
                request.parallel_tool_calls,
            ));
        }
        if let Some(output) = request.output {
            super::output::wire::gemini(output, &mut body);
        }
        self.transport.endpoint.finish_body(body)
    }
}

impl Model for Gemini {
    fn provider_name(&self) -> &str {
        "gcp.gemini"
    }

    fn model_name(&self) -> &str {
        &self.model
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.request_body(&request);
        http::run(
            &self.transport,
            self.request_url(),
            &body,
            GeminiDecoder::default(),
        )
    }

    /// Gemini 2.x refuses a JSON response type together with function calling, so a run
    /// with tools asks for its typed answer through a final-answer tool.
    fn native_output(&self, with_tools: bool) -> bool {
        !with_tools
    }
}

/// Reads streamed `GenerateContentResponse` chunks.
#[derive(Default)]
struct GeminiDecoder {
    assembler: GeminiStream,
    usage: Option<Usage>,
    reasoning: String,
    /// Whether the last part read was a thought, to separate thoughts interrupted by text.
    in_thought: bool,
}

impl Decoder for GeminiDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        let chunk = http::parse_data(name, data)?;
        if chunk.get("error").is_some() {
            let message =
                provider_message(&chunk).unwrap_or_else(|| "the stream reported an error".into());
            return Err(ModelError::new(ModelErrorKind::Server, message));
        }
        self.assembler.push(&chunk).map_err(http::malformed)?;
        if let Some(usage) = chunk.get("usageMetadata").filter(|u| u.is_object()) {
            self.usage = Some(read_usage(usage));
        }
        let reason = chunk.pointer("/candidates/0/finishReason");
        let parts = chunk
            .pointer("/candidates/0/content/parts")
            .and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                if thought {
                    if !self.in_thought && !self.reasoning.is_empty() {
                        push_reasoning(&mut self.reasoning, "\n\n", out);
                    }
                    push_reasoning(&mut self.reasoning, text, out);
                } else if !text.is_empty() {
                    out.push_back(ModelEvent::TextDelta(text.to_owned()));
                }
            }
            if !part
                .get("text")
                .and_then(Value::as_str)
                .is_some_and(str::is_empty)
            {
                self.in_thought = thought;
            }
        }
        // A `functionCall` part arrives whole: its call is ready now, while the model may
        // still stream more of the turn. Not in a chunk that ends the reply at the output
        // limit, where the last call may be cut: such a turn is refused as a whole.
        if reason.and_then(Value::as_str) != Some("MAX_TOKENS") {
            self.assembler
                .take_ready(|index, call| out.push_back(ModelEvent::CallReady { index, call }))
                .map_err(http::malformed)?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        let assembler = std::mem::take(&mut self.assembler);
        let handed = assembler.handed();
        let turn = assembler.finish().map_err(http::incomplete)?;
        for (index, call) in turn.calls.iter().enumerate().skip(handed) {
            out.push_back(ModelEvent::CallReady {
                index,
                call: call.clone(),
            });
        }
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, self.usage, native);
        turn.reasoning = std::mem::take(&mut self.reasoning);
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body
            .get("usageMetadata")
            .filter(|u| u.is_object())
            .map(read_usage);
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, usage, native);
        let parts = body
            .pointer("/candidates/0/content/parts")
            .and_then(Value::as_array);
        let thoughts: Vec<&str> = parts
            .into_iter()
            .flatten()
            .filter(|part| part.get("thought").and_then(Value::as_bool) == Some(true))
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect();
        turn.reasoning = thoughts.concat();
        Ok(turn)
    }
}

fn read_usage(usage: &Value) -> Usage {
    let thoughts = count(usage, &["thoughtsTokenCount"]);
    Usage {
        input_tokens: count(usage, &["promptTokenCount"]),
        output_tokens: count(usage, &["candidatesTokenCount"]) + thoughts,
        cached_input_tokens: count(usage, &["cachedContentTokenCount"]),
        reasoning_tokens: thoughts,
    }
}
