//! `ToolFn`: a tool from a `ToolDefinition` and a closure. Its arguments are checked against
//! the definition's schema with the same codes and the same kind of message as a `#[tool]`
//! function's for the same mistake, and it goes through the registry's dispatch like one:
//! handler errors, panics, time limits and approval of destructive tools.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::runner::Runner;
use tool_core::{
    block_on, tool, tool_type, tools, ToolAnnotations, ToolCall, ToolDefinition, ToolError,
    ToolErrorCode, ToolFn, ToolRegistry, ToolStatus,
};

/// A stop on the trip.
#[tool_type]
#[derive(Debug)]
pub struct Stop {
    /// Town.
    pub town: String,
    /// Nights there.
    pub nights: u8,
}

/// A temperature unit.
#[tool_type]
#[derive(Debug)]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// Plans a trip.
#[tool]
fn plan_trip(
    /// Start city.
    city: String,
    /// Length in days.
    days: u32,
    /// Unit for forecasts.
    unit: Option<Unit>,
    /// Stops on the way.
    stops: Vec<Stop>,
) -> String {
    format!("{city} {days} {unit:?} {stops:?}")
}

/// A definition as an application reads it from a file or a gateway.
const WEATHER: &str = r#"{
    "name": "get_weather",
    "title": "Weather",
    "description": "Current weather for a city.",
    "input_schema": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1},
            "unit": {"enum": ["celsius", "fahrenheit"]}
        },
        "required": ["city"],
        "additionalProperties": false
    },
    "annotations": {"read_only": true, "open_world": true},
    "output_schema": {"type": "object", "properties": {"temp": {"type": "number"}}}
}"#;

fn weather_definition() -> ToolDefinition {
    serde_json::from_str(WEATHER).unwrap()
}

fn text(registry: &ToolRegistry, name: &str, args: &str) -> String {
    registry
        .call_blocking(&ToolCall::new("c1", name, args))
        .model_text()
        .into_owned()
}

#[test]
fn a_tool_from_a_json_definition_is_listed_as_defined_and_answers_calls() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let weather = ToolFn::new(weather_definition(), move |args: Value, ctx| {
        log.lock()
            .unwrap()
            .push((ctx.call_id().to_string(), args.clone()));
        async move {
            let unit = args["unit"].as_str().unwrap_or("celsius");
            tool_core::Json(json!({"temp": if unit == "celsius" { 21.5 } else { 70.7 }}))
        }
    });
    // Beside `#[tool]` functions in `tools![..]`, and alone with `ToolRegistry::with`.
    let registry = tools![plan_trip].with(weather);
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["plan_trip", "get_weather"]
    );

    let listed = registry.definition("get_weather").unwrap();
    assert_eq!(
        listed,
        &weather_definition(),
        "the registry lists the definition as read"
    );
    assert_eq!(listed.annotations.read_only, Some(true));
    assert_eq!(listed.title.as_deref(), Some("Weather"));
    assert_eq!(
        listed.output_schema.as_deref().unwrap()["properties"]["temp"]["type"],
        "number"
    );

    let reply = registry.call_blocking(&ToolCall::new(
        "c7",
        "get_weather",
        r#"{"city":"Oslo","unit":"fahrenheit"}"#,
    ));
    assert_eq!(reply.status, ToolStatus::Success);
    assert_eq!(reply.model_text(), r#"{"temp":70.7}"#);
    assert_eq!(
        *seen.lock().unwrap(),
        [(
            "c7".to_string(),
            json!({"city": "Oslo", "unit": "fahrenheit"})
        )]
    );

    // Empty text, `null` and a double-encoded object are read as for `#[tool]`.
    let alone = ToolRegistry::new().with(ToolFn::sync(
        ToolDefinition::new("count", "Counts keys.", json!({"type": "object"})),
        |args: Value, _| args.as_object().map_or(0, |m| m.len()),
    ));
    assert_eq!(text(&alone, "count", ""), "0");
    assert_eq!(text(&alone, "count", "null"), "0");
    assert_eq!(text(&alone, "count", r#""{\"a\":1,\"b\":2}""#), "2");
}

/// `(arguments, what the message must name)`: every mistake a model makes with `plan_trip`.
const MISTAKES: &[(&str, &str)] = &[
    (r#"{"cty":"Oslo","days":3,"stops":[]}"#, "unknown parameter 'cty'. Did you mean 'city'?"),
    (r#"{"city":"Oslo","days":"three","stops":[]}"#, "wrong type at 'days'"),
    (r#"{"city":"Oslo","days":1.5,"stops":[]}"#, "at 'days'"),
    (r#"{"city":"Oslo","days":-3,"stops":[]}"#, "invalid value at 'days'"),
    (r#"{"days":3,"stops":[]}"#, "missing required parameter 'city'"),
    (r#"{"city":"Oslo","days":3}"#, "missing required parameter 'stops'"),
    (r#"{"city":null,"days":3,"stops":[]}"#, "wrong type at 'city': expected a string, got null"),
    (r#"{"city":"Oslo","days":3,"stops":{}}"#, "wrong type at 'stops': expected an array"),
    (
        r#"{"city":"Oslo","days":3,"stops":[],"unit":"celsus"}"#,
        "invalid value 'celsus' at 'unit'. Did you mean 'Celsius'? Allowed values: 'Celsius', 'Fahrenheit'.",
    ),
    (
        r#"{"city":"Oslo","days":3,"stops":[{"town":"A","nights":2,"note":"x"}]}"#,
        "unknown parameter 'stops[0].note'",
    ),
    (
        r#"{"city":"Oslo","days":3,"stops":[{"town":"A","nights":2},{"town":"B","nights":300}]}"#,
        "invalid value at 'stops[1].nights'",
    ),
    (r#"{"city":"Oslo","days":3,"stops":[{"town":"A"}]}"#, "missing required parameter 'stops[0].nights'"),
    (r#"{"city":"Oslo","days":3,"stops":[{"town":7,"nights":1}]}"#, "wrong type at 'stops[0].town'"),
    ("[1]", "must be a JSON object"),
    ("5", "must be a JSON object"),
    (r#"{"city": "#, "not valid JSON"),
];

#[test]
fn each_bad_argument_gets_the_code_of_the_equivalent_tool_fn_and_names_the_field() {
    let typed = tools![plan_trip];
    let definition = typed.definitions()[0].clone();
    let ran = Arc::new(AtomicUsize::new(0));
    let counter = ran.clone();
    let dynamic = ToolRegistry::new().with(ToolFn::sync(definition, move |_: Value, _| {
        counter.fetch_add(1, Ordering::SeqCst);
        "ran"
    }));
    for (args, named) in MISTAKES {
        let call = ToolCall::new("c1", "plan_trip", *args);
        let (expected, got) = (typed.call_blocking(&call), dynamic.call_blocking(&call));
        assert_eq!(got.status, ToolStatus::Error, "{args}");
        assert_eq!(
            got.error_code(),
            expected.error_code(),
            "{args}: {}",
            got.model_text()
        );
        let message = got.error_message().unwrap();
        assert!(
            message.starts_with("Invalid arguments for 'plan_trip'")
                || message.starts_with("The arguments for 'plan_trip' are not valid JSON"),
            "{message}"
        );
        assert!(message.contains(named), "{args}: {message}");
    }
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "no bad call reached the handler"
    );

    // Where serde and the schema say the same thing, the words are the same.
    for args in [
        MISTAKES[0].0,
        MISTAKES[4].0,
        MISTAKES[6].0,
        MISTAKES[8].0,
        MISTAKES[11].0,
        MISTAKES[13].0,
        MISTAKES[15].0,
    ] {
        let call = ToolCall::new("c1", "plan_trip", args);
        assert_eq!(
            dynamic.call_blocking(&call).model_text(),
            typed.call_blocking(&call).model_text(),
            "{args}"
        );
    }
    assert_eq!(
        text(
            &dynamic,
            "plan_trip",
            r#"{"city":"Oslo","days":3,"stops":[]}"#
        ),
        "ran"
    );
}

#[test]
fn hand_written_schemas_are_checked_as_written() {
    let definition = ToolDefinition::new(
        "draw",
        "Draws shapes.",
        json!({
            "type": "object",
            "properties": {
                "shapes": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Shape"}},
                "label": {"type": "string", "nullable": true, "maxLength": 5},
                "scale": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
                "style": {"type": "object", "additionalProperties": {"type": "string"}}
            },
            "required": ["shapes"],
            "additionalProperties": false,
            "$defs": {"Shape": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                 "required": ["kind", "r"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                 "required": ["kind", "side"], "additionalProperties": false}
            ]}}
        }),
    );
    let registry = ToolRegistry::new().with(ToolFn::sync(definition, |_: Value, _| "drawn"));
    let ok = r#"{"shapes":[{"kind":"square","side":2}],"label":null,"scale":0.5,"style":{"fill":"red"}}"#;
    assert_eq!(text(&registry, "draw", ok), "drawn");
    for (args, expected) in [
        (
            r#"{"shapes":[]}"#,
            "invalid value at 'shapes': expected an array of at least 1 items, got 0.",
        ),
        (
            r#"{"shapes":[{"kind":"square","r":2}]}"#,
            "unknown parameter 'shapes[0].r'. Valid parameters: 'kind', 'side'.",
        ),
        (
            r#"{"shapes":[{"kind":"triangle"}]}"#,
            "invalid value 'triangle' at 'shapes[0].kind'. Allowed values: 'circle', 'square'.",
        ),
        (
            r#"{"shapes":[{"r":1}]}"#,
            "missing required parameter 'shapes[0].kind' (one of 'circle', 'square'). Add it and call the tool again.",
        ),
        (
            r#"{"shapes":["circle"]}"#,
            "wrong type at 'shapes[0]': expected an object, got string \"circle\".",
        ),
        (
            r#"{"shapes":[{"kind":"circle","r":"big"}]}"#,
            "wrong type at 'shapes[0].r': expected a number, got string \"big\".",
        ),
        (
            r#"{"shapes":[{"kind":"circle","r":1}],"label":"too long"}"#,
            "invalid value at 'label': expected a string of at most 5 characters, got one of 8.",
        ),
        (
            r#"{"shapes":[{"kind":"circle","r":1}],"label":3}"#,
            "wrong type at 'label': expected a string or null, got integer `3`.",
        ),
        (
            r#"{"shapes":[{"kind":"circle","r":1}],"scale":0}"#,
            "invalid value at 'scale': expected a number > 0, got integer `0`.",
        ),
        (
            r#"{"shapes":[{"kind":"circle","r":1}],"style":{"fill":1}}"#,
            "wrong type at 'style.fill': expected a string, got integer `1`.",
        ),
    ] {
        let reply = registry.call_blocking(&ToolCall::new("c1", "draw", args));
        assert_eq!(
            reply.error_code(),
            Some(ToolErrorCode::InvalidParam),
            "{args}"
        );
        assert_eq!(
            reply.error_message().unwrap(),
            format!("Invalid arguments for 'draw': {expected}"),
            "{args}"
        );
    }
}

#[test]
fn a_typed_handler_gets_its_struct_and_serde_mistakes_the_schema_allows_are_named() {
    #[derive(serde::Deserialize)]
    struct Order {
        id: u32,
        note: Option<String>,
    }
    // The schema says "number"; the handler's type wants a `u32`.
    let definition = ToolDefinition::new(
        "find_order",
        "Finds an order.",
        json!({"type": "object", "properties": {"id": {"type": "number"}, "note": {"type": "string"}}, "required": ["id"]}),
    );
    let registry =
        ToolRegistry::new().with(ToolFn::new(definition, |order: Order, _| async move {
            format!("order {} ({})", order.id, order.note.unwrap_or_default())
        }));
    assert_eq!(
        text(&registry, "find_order", r#"{"id":7,"note":"gift"}"#),
        "order 7 (gift)"
    );
    let reply = registry.call_blocking(&ToolCall::new("c1", "find_order", r#"{"id":7.5}"#));
    assert_eq!(reply.error_code(), Some(ToolErrorCode::InvalidParam));
    assert_eq!(
        reply.error_message().unwrap(),
        "Invalid arguments for 'find_order': wrong type at 'id': expected a non-negative integer (u32), got floating point `7.5`."
    );
}

/// Fails as asked.
#[tool]
fn failing(
    /// How.
    how: String,
) -> Result<String, ToolError> {
    match how.as_str() {
        "rate" => Err(ToolError::rate_limit("slow down")),
        _ => Err(ToolError::from_error("the disk is full")),
    }
}

#[test]
fn handler_errors_map_as_into_tool_response_says() {
    let typed = tools![failing];
    let definition = typed.definitions()[0].clone();
    let handler = |args: Value, _: tool_core::ToolContext<'_>| -> Result<String, ToolError> {
        match args["how"].as_str() {
            Some("rate") => Err(ToolError::rate_limit("slow down")),
            _ => Err(ToolError::from_error("the disk is full")),
        }
    };
    let sync = ToolRegistry::new().with(ToolFn::sync(definition.clone(), handler));
    let not_async = ToolRegistry::new().with(ToolFn::new(definition, move |args: Value, ctx| {
        let result = handler(args, ctx);
        async move { result }
    }));
    for how in ["rate", "disk"] {
        let args = json!({ "how": how }).to_string();
        let expected = text(&typed, "failing", &args);
        assert_eq!(text(&sync, "failing", &args), expected);
        assert_eq!(text(&not_async, "failing", &args), expected);
    }
    assert_eq!(
        text(&sync, "failing", r#"{"how":"rate"}"#),
        "Error [RATE_LIMIT]: slow down"
    );

    // Any error type `Result` takes: a plain string is an EXECUTION_ERROR.
    let plain = ToolRegistry::new().with(ToolFn::sync(
        ToolDefinition::new("no", "Never works.", json!({"type": "object"})),
        |_: Value, _| Err::<String, _>("not today"),
    ));
    assert_eq!(
        text(&plain, "no", "{}"),
        "Error [EXECUTION_ERROR]: not today"
    );
}

#[test]
fn a_panicking_handler_is_an_execution_error_sync_or_async() {
    let empty = || ToolDefinition::new("boom", "Crashes.", json!({"type": "object"}));
    let sync = ToolRegistry::new().with(ToolFn::sync(empty(), |_: Value, _| -> String {
        panic!("sync handler gave up")
    }));
    let not_sync = ToolRegistry::new().with(ToolFn::new(empty(), |_: Value, _| async move {
        if true {
            panic!("async handler gave up");
        }
        "unreachable"
    }));
    for (registry, message) in [
        (sync, "sync handler gave up"),
        (not_sync, "async handler gave up"),
    ] {
        // The panic hook prints the message; the call answers all the same.
        let reply = block_on(registry.call(&ToolCall::new("c1", "boom", "{}")));
        assert_eq!(reply.error_code(), Some(ToolErrorCode::ExecutionError));
        assert!(
            reply
                .error_message()
                .unwrap()
                .contains(&format!("The tool 'boom' crashed (panicked: {message})")),
            "{}",
            reply.model_text()
        );
    }
}

#[test]
fn a_time_limit_set_on_the_tool_ends_a_slow_handler() {
    let slow = ToolFn::new(
        ToolDefinition::new("wait", "Waits forever.", json!({"type": "object"})),
        |_: Value, _| std::future::pending::<String>(),
    )
    .with_timeout_ms(50);
    let registry = ToolRegistry::new().with(slow);
    let reply = block_on(registry.call(&ToolCall::new("c1", "wait", "{}")));
    assert_eq!(
        reply.error_code(),
        Some(ToolErrorCode::Timeout),
        "{}",
        reply.model_text()
    );
}

#[test]
fn a_destructive_tool_waits_for_approval_in_a_run() {
    static DELETED: AtomicUsize = AtomicUsize::new(0);
    let definition = ToolDefinition::new(
        "delete_file",
        "Deletes a file.",
        json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false}),
    )
    .with_annotations(ToolAnnotations::NONE.with_destructive(true));
    let delete = ToolFn::sync(definition, |args: Value, _| {
        DELETED.fetch_add(1, Ordering::SeqCst);
        format!("deleted {}", args["path"].as_str().unwrap_or("?"))
    });
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![
                ToolCall::new("c1", "delete_file", r#"{"path":"/tmp/a"}"#),
                ToolCall::new("c2", "delete_file", r#"{"path":"/etc/hosts"}"#),
            ],
        ),
        ModelTurn::text("Deleted /tmp/a only."),
    ]);
    let runner = Runner::new(model, ToolRegistry::new().with(delete));

    let paused = block_on(runner.run("Clean up")).unwrap();
    let pending: Vec<&str> = paused
        .pending_approvals()
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(pending, ["c1", "c2"]);
    assert_eq!(
        DELETED.load(Ordering::SeqCst),
        0,
        "nothing runs before the decision"
    );

    let mut run = paused.into_run();
    run.approve("c1").unwrap();
    run.deny("c2", "system files stay").unwrap();
    let done = block_on(runner.resume(run)).unwrap();
    assert_eq!(done.text(), Some("Deleted /tmp/a only."));
    assert_eq!(DELETED.load(Ordering::SeqCst), 1);
    let Message::Tool { results } = &done.messages()[2] else {
        panic!("expected tool results, got {:?}", done.messages()[2]);
    };
    assert_eq!(results[0].response.model_text(), "deleted /tmp/a");
    assert!(results[1].response.model_text().starts_with(
        "Error [PERMISSION_DENIED]: The call to 'delete_file' was not approved: system files stay."
    ));
}
