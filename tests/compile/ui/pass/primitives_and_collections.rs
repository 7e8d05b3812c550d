use std::collections::HashMap;

use tool_core::{tool, tools, ToolCall};

/// Takes every primitive and collection kind.
#[tool]
fn kinds(
    flag: bool,
    small: i8,
    count: u64,
    ratio: f32,
    letter: char,
    name: String,
    maybe: Option<i32>,
    list: Vec<String>,
    scores: HashMap<String, f64>,
    nested: Vec<Option<Vec<u8>>>,
) -> String {
    format!("{flag} {small} {count} {ratio} {letter} {name} {maybe:?} {list:?} {} {nested:?}", scores.len())
}

fn main() {
    let registry = tools![kinds];
    let reply = registry.call_blocking(&ToolCall::new(
        "1",
        "kinds",
        r#"{"flag":true,"small":-3,"count":9,"ratio":0.5,"letter":"z","name":"n","list":["a"],"scores":{"x":1.5},"nested":[null,[1]]}"#,
    ));
    assert_eq!(reply.model_text(), r#"true -3 9 0.5 z n None ["a"] 1 [None, Some([1])]"#);
}
