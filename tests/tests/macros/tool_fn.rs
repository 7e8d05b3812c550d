//! `ToolFn`: a tool from a `ToolDefinition` and a closure. Its arguments are checked against
//! the definition's schema with the same codes and the same kind of message as a `#[tool]`
//! function's for the same mistake, and it goes through the registry's dispatch like one.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};
use tool_core::{tool, tool_type, tools, ToolCall, ToolDefinition, ToolFn, ToolRegistry};

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

#[test]
fn probe() {
    let typed = tools![plan_trip];
    let def = typed.definitions()[0].clone();
    println!("{}", serde_json::to_string_pretty(&def.input_schema).unwrap());
    let dynamic = ToolRegistry::new().with(ToolFn::sync(def, |args: Value, _| args.to_string()));
    for args in [
        r#"{"city":"Oslo","days":3,"stops":[]}"#,
        r#"{"cty":"Oslo","days":3,"stops":[]}"#,
        r#"{"city":"Oslo","days":"three","stops":[]}"#,
        r#"{"city":"Oslo","days":-3,"stops":[]}"#,
        r#"{"city":"Oslo","days":1.5,"stops":[]}"#,
        r#"{"days":3,"stops":[]}"#,
        r#"{"city":"Oslo","days":3}"#,
        r#"{"city":"Oslo","days":3,"stops":[],"unit":"kelvin"}"#,
        r#"{"city":"Oslo","days":3,"stops":[],"unit":"celsus"}"#,
        r#"{"city":"Oslo","days":3,"stops":[{"town":"A","nigths":2}]}"#,
        r#"{"city":"Oslo","days":3,"stops":[{"town":"A","nights":2},{"town":"B","nights":300}]}"#,
        r#"{"city":"Oslo","days":3,"stops":[{"town":"A"}]}"#,
        r#"{"city":null,"days":3,"stops":[]}"#,
        r#"{"city":["a"],"days":3,"stops":[]}"#,
        r#"{"city":"Oslo","days":3,"stops":{"town":"A"}}"#,
        r#"{"city":"Oslo","days":3,"stops":[],"unit":5}"#,
        r#"[1]"#,
        r#"5"#,
        r#"{"city": "#,
        r#""{\"city\":\"Oslo\",\"days\":3,\"stops\":[]}""#,
    ] {
        let a = typed.call_blocking(&ToolCall::new("1", "plan_trip", args));
        let b = dynamic.call_blocking(&ToolCall::new("1", "plan_trip", args));
        println!("{args}\n  tool: {}\n  fn:   {}", a.model_text(), b.model_text());
    }
}
