//! Namespaces and allowed tools on each API's wire: OpenAI Responses gets `namespace` tools
//! and reads `namespace` on calls; the other APIs get the qualified `namespace__tool` name and
//! read it back as it is; a `tool_choice` naming a namespaced tool, and an allowed set, are
//! written in each API's own shape. Every namespaced call dispatches to the original tool.
//!
//! The Responses shapes follow openai-python 3.51 (`NamespaceToolParam`,
//! `ResponseFunctionToolCall.namespace`, `ToolChoiceAllowedParam`); the Chat shape its
//! `ChatCompletionAllowedToolChoiceParam`; Gemini's python-genai `FunctionCallingConfig`
//! (`VALIDATED`, `allowed_function_names`).

use serde_json::{json, Value};
use tool_core::provider::{
    AllowedMode, Anthropic, Assembler, AssistantTurn, ChatApi, Gemini, OpenAiChat, OpenAiResponses,
    ToolChoice,
};
use tool_core::{block_on, tool, tools, Shape, ToolCall, ToolNamespace, ToolRegistry};

/// Current weather for a city.
#[tool]
fn get_weather(city: String) -> String {
    format!("15 degrees in {city}")
}

/// Finds a customer account by name.
#[tool]
fn find_account(name: String) -> String {
    format!("account of {name}")
}

/// Updates a customer account's email.
#[tool]
fn update_email(name: String, email: String) -> String {
    format!("{name} <{email}>")
}

fn crm() -> ToolNamespace {
    ToolNamespace::new("crm", "Customer records: look up and update accounts.")
}

/// `get_weather`, then the CRM tools in the `crm` namespace.
fn registry() -> ToolRegistry {
    tools![get_weather]
        .merge(
            &tools![find_account, update_email],
            Shape::new().namespace(crm()),
        )
        .unwrap()
}

fn names(list: &Value, at: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t.pointer(at).and_then(Value::as_str).unwrap().to_string())
        .collect()
}

#[test]
fn responses_groups_a_namespace_in_one_entry_under_the_tools_own_names() {
    let registry = registry();
    let tools = OpenAiResponses::tools(registry.definitions());
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(tools[1]["type"], "namespace");
    assert_eq!(tools[1]["name"], "crm");
    assert_eq!(
        tools[1]["description"],
        "Customer records: look up and update accounts."
    );
    assert_eq!(
        names(&tools[1]["tools"], "/name"),
        ["find_account", "update_email"]
    );
    assert_eq!(tools[1]["tools"][0]["type"], "function");
    assert_eq!(
        tools[1]["tools"][0]["description"],
        "Finds a customer account by name."
    );
    assert_eq!(
        tools[1]["tools"][0]["parameters"]["required"],
        json!(["name"])
    );
    // The cached list is the same bytes.
    assert_eq!(
        *registry
            .tool_list(tool_core::provider::Api::OpenAiResponses)
            .value(),
        Value::Array(tools.clone())
    );
}

#[test]
fn a_namespace_entry_stands_where_its_first_tool_does() {
    // Plain, namespaced, plain, namespaced: the namespace is written once, at position 1.
    let registry = tools![get_weather]
        .merge(&tools![find_account], Shape::new().namespace(crm()))
        .unwrap()
        .merge(&tools![update_email], Shape::new().prefix("plain_"))
        .unwrap()
        .merge(&tools![update_email], Shape::new().namespace(crm()))
        .unwrap();
    let tools = OpenAiResponses::tools(registry.definitions());
    assert_eq!(
        names(&tools, "/name"),
        ["get_weather", "crm", "plain_update_email"]
    );
    assert_eq!(
        names(&tools[1]["tools"], "/name"),
        ["find_account", "update_email"]
    );
}

/// A Responses output item calling `crm.find_account` (shape of openai-python's
/// `ResponseFunctionToolCall`, with its optional `namespace`).
fn namespaced_call_item() -> Value {
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "namespace": "crm",
           "name": "find_account", "arguments": "{\"name\":\"Ada\"}", "status": "completed"})
}

#[test]
fn responses_reads_the_namespace_to_the_qualified_name_and_sends_the_item_back_as_it_came() {
    let registry = registry();
    let response =
        json!({"id": "resp_1", "status": "completed", "output": [namespaced_call_item()]});
    let turn = OpenAiResponses::read_response(&response).unwrap();
    assert_eq!(turn.calls[0].name, "crm__find_account");
    assert_eq!(turn.calls[0].namespace.as_deref(), Some("crm"));
    let results = block_on(registry.call_all(&turn.calls));
    assert_eq!(results[0].model_text(), "account of Ada");
    // History: the item as sent, namespace and own name included.
    assert_eq!(
        OpenAiResponses::history_entry(&turn),
        json!([namespaced_call_item()])
    );
    let outputs = OpenAiResponses::results_entry(&turn.calls, &results);
    assert_eq!(outputs[0]["call_id"], "call_1");

    // Streamed, the same turn.
    let mut stream = OpenAiResponses::stream();
    let mut added = namespaced_call_item();
    added["arguments"] = json!("");
    added["status"] = json!("in_progress");
    for event in [
        json!({"type": "response.output_item.added", "output_index": 0, "item": added}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{\"name\":\"Ada\"}"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": namespaced_call_item()}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}),
    ] {
        stream.push(&event).unwrap();
    }
    assert_eq!(stream.finish().unwrap().calls, turn.calls);
}

#[test]
fn responses_writes_a_hand_built_namespaced_call_with_its_namespace() {
    let call = ToolCall::new("call_1", "crm__find_account", "{}").with_namespace("crm");
    let plain = ToolCall::new("call_2", "get_weather", "{}");
    let turn = AssistantTurn::new("", vec![call, plain]);
    let items = OpenAiResponses::history_entry(&turn);
    assert_eq!(items[0]["name"], "find_account");
    assert_eq!(items[0]["namespace"], "crm");
    assert_eq!(items[1]["name"], "get_weather");
    assert!(items[1].get("namespace").is_none());
}

#[test]
fn other_apis_get_the_qualified_name_and_read_it_back_to_the_tool() {
    let registry = registry();
    let defs = registry.definitions();
    assert_eq!(
        names(&OpenAiChat::tools(defs), "/function/name"),
        ["get_weather", "crm__find_account", "crm__update_email"]
    );
    assert_eq!(
        names(&Anthropic::tools(defs), "/name"),
        ["get_weather", "crm__find_account", "crm__update_email"]
    );
    assert_eq!(
        names(&Gemini::tools(defs)[0]["function_declarations"], "/name"),
        ["get_weather", "crm__find_account", "crm__update_email"]
    );

    let arguments = "{\"name\":\"Ada\"}";
    let chat = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "crm__find_account", "arguments": arguments}}]}}]});
    let anthropic = json!({"stop_reason": "tool_use", "content": [{"type": "tool_use",
        "id": "toolu_1", "name": "crm__find_account", "input": {"name": "Ada"}}]});
    let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "crm__find_account", "args": {"name": "Ada"}}}]},
        "finishReason": "STOP"}]});
    let turns = [
        OpenAiChat::read_response(&chat).unwrap(),
        Anthropic::read_response(&anthropic).unwrap(),
        Gemini::read_response(&gemini).unwrap(),
    ];
    for turn in turns {
        assert_eq!(turn.calls[0].name, "crm__find_account");
        assert_eq!(turn.calls[0].namespace, None);
        let results = block_on(registry.call_all(&turn.calls));
        assert_eq!(results[0].model_text(), "account of Ada");
    }
}

#[test]
fn tool_choice_naming_a_namespaced_tool_works_on_every_api() {
    let registry = registry();
    let defs = registry.definitions();
    let choice = ToolChoice::tool("crm__find_account");
    assert_eq!(
        OpenAiResponses::tool_fields(defs, &choice, true)["tool_choice"],
        json!({"type": "allowed_tools", "mode": "required",
               "tools": [{"type": "function", "name": "find_account", "namespace": "crm"}]})
    );
    // A plain tool keeps the plain form.
    assert_eq!(
        OpenAiResponses::tool_fields(defs, &ToolChoice::tool("get_weather"), true)["tool_choice"],
        json!({"type": "function", "name": "get_weather"})
    );
    assert_eq!(
        OpenAiChat::tool_fields(defs, &choice, true)["tool_choice"],
        json!({"type": "function", "function": {"name": "crm__find_account"}})
    );
    assert_eq!(
        Anthropic::tool_fields(defs, &choice, true)["tool_choice"],
        json!({"type": "tool", "name": "crm__find_account"})
    );
    assert_eq!(
        Gemini::tool_fields(defs, &choice, true)["toolConfig"],
        json!({"function_calling_config": {"mode": "ANY", "allowed_function_names": ["crm__find_account"]}})
    );
}

#[test]
fn allowed_tools_are_written_in_each_apis_shape_and_the_tools_stay_the_same() {
    let registry = registry();
    let defs = registry.definitions();
    let auto = ToolChoice::allowed(["get_weather", "crm__find_account"], AllowedMode::Auto);
    let required = ToolChoice::allowed(["get_weather", "crm__find_account"], AllowedMode::Required);

    assert_eq!(
        OpenAiChat::tool_fields(defs, &auto, true)["tool_choice"],
        json!({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [
            {"type": "function", "function": {"name": "get_weather"}},
            {"type": "function", "function": {"name": "crm__find_account"}}]}})
    );
    assert_eq!(
        OpenAiResponses::tool_fields(defs, &required, true)["tool_choice"],
        json!({"type": "allowed_tools", "mode": "required", "tools": [
            {"type": "function", "name": "get_weather"},
            {"type": "function", "name": "find_account", "namespace": "crm"}]})
    );
    assert_eq!(
        Gemini::tool_fields(defs, &auto, true)["toolConfig"],
        json!({"function_calling_config": {"mode": "VALIDATED",
               "allowed_function_names": ["get_weather", "crm__find_account"]}})
    );
    assert_eq!(
        Gemini::tool_fields(defs, &required, true)["toolConfig"]["function_calling_config"]["mode"],
        "ANY"
    );
    // Anthropic: no restriction field; auto, any, or the one tool.
    assert_eq!(
        Anthropic::tool_fields(defs, &auto, false)["tool_choice"],
        json!({"type": "auto", "disable_parallel_tool_use": true})
    );
    assert_eq!(
        Anthropic::tool_fields(defs, &required, true)["tool_choice"],
        json!({"type": "any"})
    );
    assert_eq!(
        Anthropic::tool_choice(
            &ToolChoice::allowed(["get_weather"], AllowedMode::Required),
            true
        ),
        json!({"type": "tool", "name": "get_weather"})
    );

    // The tools part is the same bytes whatever is allowed: the prompt cache holds.
    for choice in [&ToolChoice::Auto, &auto, &required] {
        assert_eq!(
            OpenAiChat::tool_fields(defs, choice, true)["tools"],
            OpenAiChat::tools(defs)
        );
        assert_eq!(
            OpenAiResponses::tool_fields(defs, choice, true)["tools"],
            OpenAiResponses::tools(defs)
        );
        assert_eq!(
            Anthropic::tool_fields(defs, choice, true)["tools"],
            Anthropic::tools(defs)
        );
        assert_eq!(
            Gemini::tool_fields(defs, choice, true)["tools"],
            Gemini::tools(defs)
        );
    }
}
