//! Tool calls from a program: results, errors with their codes, approval, callers.

use std::sync::atomic::Ordering;

use tool_core::{Approval, ToolCall, ToolDefinition, ToolErrorCode};
use tool_core_code::CodeMode;

use crate::fixtures::{deleted, registry, run, run_code, WIPED};

#[test]
fn results_are_parsed_json_or_text_and_logs_join_the_return_value() {
    let reply = run("const w = await tools.get_weather({city: 'Paris'});\n\
         console.log('sky:', w.sky, typeof w.temp_c);\n\
         const sums = await Promise.all([1, 2, 3].map(i => tools.add({a: i, b: i})));\n\
         return {sums, city: w.city};");
    assert!(reply.is_success(), "{}", reply.model_text());
    assert_eq!(
        reply.model_text(),
        "sky: sunny number\nReturned: {\"sums\":[2,4,6],\"city\":\"Paris\"}"
    );
}

#[test]
fn a_failed_call_throws_an_error_with_the_code_and_the_model_facing_text() {
    let reply = run("const seen = [];\n\
         try { await tools.add({a: 'one', b: 2}); } catch (e) { seen.push(e.code, e.message); }\n\
         try { await tools.ad({a: 1, b: 2}); } catch (e) { seen.push(e.code, e.message); }\n\
         try { await tools.add(5); } catch (e) { seen.push(e.name, e.message); }\n\
         return seen;");
    let seen: Vec<String> = serde_json::from_str(&reply.model_text()).unwrap();
    assert_eq!(seen[0], "INVALID_PARAM");
    assert!(
        seen[1].starts_with("tools.add failed [INVALID_PARAM]: "),
        "{}",
        seen[1]
    );
    assert!(seen[1].contains("'a'"), "{}", seen[1]);
    assert_eq!(seen[2], "NOT_FOUND");
    assert!(seen[3].contains("Did you mean 'add'?"), "{}", seen[3]);
    assert_eq!(seen[4], "TypeError");
    assert!(
        seen[5].contains("tools.add takes one object of arguments"),
        "{}",
        seen[5]
    );
}

#[test]
fn an_uncaught_failure_ends_the_program_with_the_error() {
    let reply = run("await tools.add({a: 1});");
    assert_eq!(reply.error_code(), Some(ToolErrorCode::ExecutionError));
    let message = reply.error_message().unwrap();
    assert!(
        message.contains("The program threw an error: Error: tools.add failed [INVALID_PARAM]"),
        "{message}"
    );
}

#[test]
fn a_denied_destructive_call_throws_and_never_runs() {
    let mode = CodeMode::new(registry()).approver(|_: &ToolCall, _: &ToolDefinition| {
        Approval::Denied("the user keeps that file".into())
    });
    let reply = run_code(&mode, "try { await tools.delete_file({path: 'denied.txt'}); return 'ran'; } catch (e) { return [e.code, e.message]; }");
    let seen: Vec<String> = serde_json::from_str(&reply.model_text()).unwrap();
    assert_eq!(seen[0], "PERMISSION_DENIED");
    assert!(
        seen[1].contains("not approved: the user keeps that file"),
        "{}",
        seen[1]
    );
    // Without an approver nobody can approve inside a program: refused too.
    let reply = run("try { await tools.delete_file({path: 'unapproved.txt'}); return 'ran'; } catch (e) { return e.message; }");
    assert!(
        reply.model_text().contains("needs a person's approval"),
        "{}",
        reply.model_text()
    );
    assert!(!deleted("denied.txt") && !deleted("unapproved.txt"));
    // The application sees what the program called, refusals included.
    let calls = &reply.context.as_ref().unwrap()["calls"];
    assert_eq!(
        calls,
        &serde_json::json!([{"tool": "delete_file", "status": "ERROR", "code": "PERMISSION_DENIED"}])
    );
}

#[test]
fn an_approved_destructive_call_runs() {
    let mode =
        CodeMode::new(registry()).approver(|_: &ToolCall, _: &ToolDefinition| Approval::Approved);
    let reply = run_code(
        &mode,
        "return await tools.delete_file({path: 'approved.txt'});",
    );
    assert_eq!(reply.model_text(), "deleted approved.txt");
    assert!(deleted("approved.txt"));
}

#[test]
fn a_direct_only_tool_is_refused_and_never_runs() {
    let reply = run("try { await tools.wipe_database(); return 'ran'; } catch (e) { return [e.code, e.message]; }");
    let seen: Vec<String> = serde_json::from_str(&reply.model_text()).unwrap();
    assert_eq!(seen[0], "PERMISSION_DENIED");
    assert!(
        seen[1].contains("may only be called by you directly"),
        "{}",
        seen[1]
    );
    assert_eq!(WIPED.load(Ordering::SeqCst), 0);
}

#[test]
fn the_description_declares_the_callable_tools_in_typescript() {
    use tool_core::Tool;
    let tool = CodeMode::new(registry()).tool();
    let description = tool.description();
    assert!(
        description.contains("Callable tools: add, get_weather, delete_file, forecast, squares."),
        "{description}"
    );
    // Typed results where the tool has an output schema (a list is declared wrapped).
    assert!(
        description.contains(
            "  forecast(args: { city: string }): Promise<{ /** The city. */ city: string; \
             /** Degrees Celsius. */ temp_c: number; /** Rain expected. */ rain: boolean }>;"
        ),
        "{description}"
    );
    assert!(
        description.contains("  squares(args: { n: number }): Promise<number[]>;"),
        "{description}"
    );
    assert!(
        description.contains("  add(args: { a: number; b: number }): Promise<"),
        "{description}"
    );
    assert!(!description.contains("wipe_database"), "{description}");
    let schema = tool.input_schema();
    assert_eq!(schema["required"], serde_json::json!(["code"]));
    assert_eq!(schema["properties"]["code"]["type"], "string");
}

#[test]
fn a_structured_result_reaches_the_program_as_a_value() {
    let reply = run("const f = await tools.forecast({city: 'Oslo'});\n\
         const s = await tools.squares({n: 4});\n\
         return [f.city, f.temp_c + 0.5, f.rain, s.reduce((a, b) => a + b, 0)];");
    assert_eq!(reply.model_text(), r#"["Oslo",18,true,30]"#);
}

#[test]
fn bad_arguments_to_the_code_tool_say_what_to_send() {
    let registry = CodeMode::new(registry())
        .limits(tool_core_code::CodeLimits::default().max_source_bytes(100))
        .registry();
    let long = serde_json::json!({"code": "x".repeat(200)}).to_string();
    for (arguments, expected) in [
        ("not json", "The arguments are not JSON"),
        ("{}", "The argument 'code' is missing"),
        (r#"{"code": 5}"#, "The argument 'code' must be a string"),
        (
            long.as_str(),
            "The code is 200 bytes, over the limit of 100 bytes",
        ),
    ] {
        let call = ToolCall::new("1", "run_code", arguments);
        let reply = tool_core::block_on(registry.call(&call));
        assert_eq!(
            reply.error_code(),
            Some(ToolErrorCode::InvalidParam),
            "{arguments}"
        );
        assert!(
            reply.error_message().unwrap().contains(expected),
            "{}",
            reply.model_text()
        );
    }
}
