//! [`ToolFn`]: a tool from a [`ToolDefinition`] and a closure, for tools known only at run
//! time (read from a configuration file, a database, a gateway's catalogue).

use std::any::Any;
use std::fmt;
use std::future::Future;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::args::{decode_object, decode_value, SchemaCheck};
use crate::context::ToolContext;
use crate::definition::{ToolAnnotations, ToolDefinition};
use crate::into_response::IntoToolResponse;
use crate::metadata::{Icon, Meta};
use crate::tool::{CallFuture, Tool};

/// The handler with its argument type erased: decodes the checked arguments and runs.
type Handler = Box<dyn for<'a> Fn(Value, ToolContext<'a>) -> CallFuture<'a> + Send + Sync>;

/// A tool made of a [`ToolDefinition`] and a handler: what to register for a tool whose name,
/// description and parameters are data (a configuration file, a database, a gateway), not a
/// Rust function.
///
/// Before the handler runs, the model's arguments are checked against the definition's
/// `input_schema`, and a mistake (an unknown key where the schema closes the object, a wrong
/// type, a missing required key, a value outside an `enum`, a number out of range) is an
/// `INVALID_PARAM` response naming the field path, as a `#[tool]` function answers the same
/// mistake. The handler then gets the arguments as a [`serde_json::Value`], or decoded into
/// any `T: Deserialize` its closure names, and the call's [`ToolContext`]; it returns anything
/// a `#[tool]` function may return ([`IntoToolResponse`]: `String`, `Json<T>`,
/// `Result<T, E>`, ...). Annotations, title, icons, `_meta` and the output schema come from
/// the definition. The registry dispatches it like any tool: approval of `destructive`
/// tools, time limits, argument limits, allowed tools and a panicking handler behave as for
/// `#[tool]`.
///
/// Unknown keys are refused where the schema says `"additionalProperties": false`, as
/// `#[tool]` schemas do; a schema that leaves an object open lets any key through.
///
/// ```
/// use serde_json::Value;
/// use tool_core::{tool, tools, ToolCall, ToolDefinition, ToolErrorCode, ToolFn};
///
/// /// Says hello.
/// #[tool]
/// fn hello() -> &'static str { "hello" }
///
/// // Read at start-up, e.g. from a gateway's catalogue.
/// let definition: ToolDefinition = serde_json::from_str(r#"{
///     "name": "get_weather",
///     "description": "Current weather for a city.",
///     "input_schema": {
///         "type": "object",
///         "properties": {
///             "city": {"type": "string"},
///             "unit": {"enum": ["celsius", "fahrenheit"]}
///         },
///         "required": ["city"],
///         "additionalProperties": false
///     },
///     "annotations": {"read_only": true}
/// }"#).unwrap();
///
/// let weather = ToolFn::new(definition, |args: Value, _ctx| async move {
///     // A real handler would call the gateway here.
///     format!("Sunny in {}", args["city"].as_str().unwrap_or("?"))
/// });
/// let registry = tools![hello].with(weather);
///
/// let reply = registry.call_blocking(&ToolCall::new("1", "get_weather", r#"{"city":"Paris"}"#));
/// assert_eq!(reply.model_text(), "Sunny in Paris");
///
/// let typo = registry.call_blocking(&ToolCall::new("2", "get_weather", r#"{"city":"Paris","unit":"kelvin"}"#));
/// assert_eq!(typo.error_code(), Some(ToolErrorCode::InvalidParam));
/// assert!(typo.error_message().unwrap().contains("invalid value 'kelvin' at 'unit'"));
/// ```
pub struct ToolFn {
    definition: ToolDefinition,
    schema: SchemaCheck,
    timeout_ms: Option<u64>,
    handler: Handler,
}

impl ToolFn {
    /// A tool whose handler is async. The handler is called with the arguments (a
    /// [`serde_json::Value`], or any `T: Deserialize` the closure names) and the call's
    /// context; the future it returns owns what it needs, so take values from the context
    /// (an [`extension`](ToolContext::extension), the
    /// [`cancel_flag`](ToolContext::cancel_flag)) before the `async move` block.
    ///
    /// ```
    /// use tool_core::{block_on, Json, ToolCall, ToolDefinition, ToolFn, ToolRegistry};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Lookup { id: u64 }
    ///
    /// #[derive(Clone)]
    /// struct Prefix(&'static str);
    ///
    /// let definition = ToolDefinition::new("lookup", "Finds an order by id.", serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"id": {"type": "integer", "minimum": 1}},
    ///     "required": ["id"],
    ///     "additionalProperties": false
    /// }));
    /// let lookup = ToolFn::new(definition, |args: Lookup, ctx| {
    ///     let prefix = ctx.extension::<Prefix>().cloned();
    ///     async move {
    ///         let prefix = prefix.ok_or("no prefix configured")?;
    ///         Ok::<_, &str>(Json(serde_json::json!({"order": format!("{}-{}", prefix.0, args.id)})))
    ///     }
    /// });
    /// let registry = ToolRegistry::new().with(lookup).with_extension(Prefix("ord"));
    /// let reply = block_on(registry.call(&ToolCall::new("1", "lookup", r#"{"id": 7}"#)));
    /// assert_eq!(reply.model_text(), r#"{"order":"ord-7"}"#);
    ///
    /// let zero = block_on(registry.call(&ToolCall::new("2", "lookup", r#"{"id": 0}"#)));
    /// assert!(zero.error_message().unwrap().contains("at 'id': expected an integer >= 1"));
    /// ```
    pub fn new<A, H, F>(definition: ToolDefinition, handler: H) -> Self
    where
        A: DeserializeOwned + 'static,
        H: for<'a> Fn(A, ToolContext<'a>) -> F + Send + Sync + 'static,
        F: Future + Send + 'static,
        F::Output: IntoToolResponse,
    {
        let handler: Handler =
            Box::new(
                move |value, ctx| match arguments::<A>(ctx.tool_name(), value) {
                    Ok(args) => {
                        let future = handler(args, ctx);
                        CallFuture::new(async move { future.await.into_tool_response() })
                    }
                    Err(response) => CallFuture::ready(response),
                },
            );
        Self::from_parts(definition, handler)
    }

    /// A tool whose handler is synchronous: it runs inside the call, as a plain `#[tool]`
    /// function does, and may use the context directly.
    ///
    /// ```
    /// use serde_json::Value;
    /// use tool_core::{ToolCall, ToolDefinition, ToolFn, ToolRegistry};
    ///
    /// let definition = ToolDefinition::new("echo", "Repeats a text.", serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"text": {"type": "string"}},
    ///     "required": ["text"]
    /// }));
    /// let echo = ToolFn::sync(definition, |args: Value, ctx| {
    ///     format!("{} says {}", ctx.call_id(), args["text"])
    /// });
    /// let registry = ToolRegistry::new().with(echo);
    /// let reply = registry.call_blocking(&ToolCall::new("c1", "echo", r#"{"text": "hi"}"#));
    /// assert_eq!(reply.model_text(), r#"c1 says "hi""#);
    ///
    /// let missing = registry.call_blocking(&ToolCall::new("c2", "echo", "{}"));
    /// assert!(missing.error_message().unwrap().contains("missing required parameter 'text'"));
    /// ```
    pub fn sync<A, H, R>(definition: ToolDefinition, handler: H) -> Self
    where
        A: DeserializeOwned + 'static,
        H: for<'a> Fn(A, ToolContext<'a>) -> R + Send + Sync + 'static,
        R: IntoToolResponse,
    {
        let handler: Handler = Box::new(move |value, ctx| {
            CallFuture::ready(match arguments::<A>(ctx.tool_name(), value) {
                Ok(args) => handler(args, ctx).into_tool_response(),
                Err(response) => response,
            })
        });
        Self::from_parts(definition, handler)
    }

    fn from_parts(definition: ToolDefinition, handler: Handler) -> Self {
        ToolFn {
            schema: SchemaCheck::new(&definition.input_schema),
            definition,
            timeout_ms: None,
            handler,
        }
    }

    /// Sets a time limit for each call, as `#[tool(timeout_ms = N)]` does; it overrides the
    /// registry's default. None by default.
    ///
    /// ```
    /// use tool_core::{Tool, ToolDefinition, ToolFn};
    /// let def = ToolDefinition::new("slow", "Takes its time.", serde_json::json!({"type": "object"}));
    /// let tool = ToolFn::sync(def, |_: serde_json::Value, _| "done").with_timeout_ms(2_000);
    /// assert_eq!(tool.timeout_ms(), Some(2_000));
    /// ```
    pub fn with_timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = Some(timeout_ms);
        self
    }

    /// The definition the tool was made from.
    ///
    /// ```
    /// use tool_core::{ToolDefinition, ToolFn};
    /// let def = ToolDefinition::new("ping", "Answers pong.", serde_json::json!({"type": "object"}));
    /// let tool = ToolFn::sync(def, |_: serde_json::Value, _| "pong");
    /// assert_eq!(tool.definition().name, "ping");
    /// ```
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }
}

/// The checked arguments as the handler takes them: the value itself for a `Value` handler
/// (no second decoding), else decoded into `A` with `#[tool]`'s error for a mismatch.
fn arguments<A: DeserializeOwned + 'static>(
    tool: &str,
    value: Value,
) -> Result<A, crate::ToolResponse> {
    let mut slot = Some(value);
    if let Some(same) = (&mut slot as &mut dyn Any).downcast_mut::<Option<A>>() {
        if let Some(args) = same.take() {
            return Ok(args);
        }
    }
    match slot {
        Some(value) => decode_value::<A>(tool, value),
        // Taken above only when `A` is `Value`, and then returned.
        None => Err(crate::ToolResponse::error(
            crate::ToolErrorCode::Unknown,
            format!("internal: the arguments of '{tool}' were lost before its handler ran"),
        )),
    }
}

impl fmt::Debug for ToolFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolFn")
            .field("definition", &self.definition)
            .field("timeout_ms", &self.timeout_ms)
            .finish_non_exhaustive()
    }
}

impl Tool for ToolFn {
    fn name(&self) -> &str {
        &self.definition.name
    }
    fn description(&self) -> &str {
        &self.definition.description
    }
    fn title(&self) -> Option<&str> {
        self.definition.title.as_deref()
    }
    fn annotations(&self) -> ToolAnnotations {
        self.definition.annotations
    }
    fn icons(&self) -> Vec<Icon> {
        self.definition.icons.clone()
    }
    fn meta(&self) -> Option<Meta> {
        self.definition.meta.clone()
    }
    fn timeout_ms(&self) -> Option<u64> {
        self.timeout_ms
    }
    fn defer_loading(&self) -> bool {
        self.definition.defer_loading()
    }
    fn app(&self) -> Option<&str> {
        self.definition.app()
    }
    fn allowed_callers(&self) -> crate::AllowedCallers {
        self.definition.allowed_callers()
    }
    fn task_support(&self) -> crate::TaskSupport {
        self.definition.task_support()
    }
    fn input_schema(&self) -> Value {
        Value::clone(&self.definition.input_schema)
    }
    fn output_schema(&self) -> Option<Value> {
        self.definition.output_schema.as_deref().cloned()
    }
    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        let value = match decode_object(&self.definition.name, arguments) {
            Ok(value) => value,
            Err(response) => return CallFuture::ready(response),
        };
        if let Err(response) = self.schema.check(&self.definition.name, &value) {
            return CallFuture::ready(response);
        }
        (self.handler)(value, ctx)
    }
}
