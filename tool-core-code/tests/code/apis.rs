//! Local code mode over every API's loopback fake and `TextMode`: to the model the code
//! tool is one tool, so the same run works everywhere.

use serde_json::{json, Value};
use tool_core::runner::Runner;
use tool_core::ToolRegistry;
use tool_core_code::{CodeLimits, CodeMode};

use crate::conformance::{Api, Fake, Turn};
use crate::fixtures::{deleted, registry, WIPED};
use crate::http_support::assert_sdk_accepts;

/// Ten `add` calls, each on the last one's result, and a weather call.
const TEN_ADDS_AND_WEATHER: &str = "let sum = 0;\n\
    for (let i = 1; i <= 10; i++) sum = await tools.add({a: sum, b: i});\n\
    const w = await tools.get_weather({city: 'Paris'});\n\
    console.log('added ten numbers');\n\
    return `sum=${sum}; ${w.sky}`;";

/// The code tool's input schema in a request of `api` (not text mode).
fn code_schema(api: Api, body: &Value) -> Value {
    let tool = match api {
        Api::Gemini => &body["tools"][0]["function_declarations"][0],
        _ => &body["tools"][0],
    };
    for key in ["input_schema", "parameters", "parametersJsonSchema"] {
        if let Some(schema) = tool.get(key) {
            return schema.clone();
        }
    }
    tool["function"]["parameters"].clone()
}

/// Runs the program on `api`; gives the request bodies with their route.
async fn ten_adds_and_weather(api: Api) -> Vec<(&'static str, Value)> {
    let turns = [
        Turn::call(
            "call_code_1",
            "run_code",
            json!({"code": TEN_ADDS_AND_WEATHER}),
        ),
        Turn::text("The sum is 55, and Paris is sunny."),
    ];
    let fake = Fake::start(api, true, &turns).await;
    let runner = Runner::new(fake.model(), CodeMode::new(registry()).registry());
    let result = runner
        .run("Add 1 to 10 one by one, then tell me Paris' weather.")
        .await;
    let result = result.unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(
        result.final_text().unwrap(),
        "The sum is 55, and Paris is sunny.",
        "{api:?}"
    );
    let bodies = fake.bodies().await;
    assert_eq!(bodies.len(), 2, "{api:?}: two model requests in all");
    if api.is_text_mode() {
        let instructions = api.instructions(&bodies[0]);
        assert!(instructions.contains("run_code"), "{api:?}: {instructions}");
        assert!(instructions.contains("declare const tools"), "{api:?}");
    } else {
        assert_eq!(api.tool_names(&bodies[0]), ["run_code"], "{api:?}");
        let schema = code_schema(api, &bodies[0]);
        assert_eq!(schema["required"], json!(["code"]), "{api:?}: {schema}");
        let code_type = schema["properties"]["code"]["type"]
            .as_str()
            .unwrap_or_default();
        assert_eq!(
            code_type.to_ascii_lowercase(),
            "string",
            "{api:?}: {schema}"
        );
        let text = bodies[0].to_string();
        assert!(
            text.contains("Callable tools: add, get_weather, delete_file, forecast, squares."),
            "{api:?}"
        );
    }
    let answer = bodies[1].to_string();
    assert!(
        answer.contains("added ten numbers\\nReturned: sum=55; sunny"),
        "{api:?}: {answer}"
    );
    let route = api.route(true);
    bodies.into_iter().map(|b| (route, b)).collect()
}

#[tokio::test]
async fn ten_calls_and_a_weather_call_in_one_program_on_every_api() {
    let mut sent = Vec::new();
    for api in Api::ALL {
        sent.extend(ten_adds_and_weather(api).await);
    }
    // One check for every body: the checker takes seconds to start.
    assert_sdk_accepts(&sent);
}

#[tokio::test]
async fn each_limit_ends_its_program_and_the_run_goes_on_on_every_api() {
    let programs = [
        ("while (true) {}", "wall time limit (300 ms)"),
        (
            "const keep = []; while (true) keep.push(new Array(1 << 20).fill(1));",
            "memory limit (16 MiB)",
        ),
        (
            "for (let i = 0; i < 10; i++) await tools.add({a: i, b: i});",
            "tool call limit (3 calls per program)",
        ),
        ("return 'z'.repeat(5000);", "result size limit (1000 bytes"),
    ];
    let limits = CodeLimits::default()
        .wall_time(std::time::Duration::from_millis(300))
        .memory_bytes(16 << 20)
        .max_calls(3)
        .max_result_bytes(1000);
    let mut sent = Vec::new();
    for api in Api::ALL {
        let mut turns: Vec<Turn> = programs
            .iter()
            .enumerate()
            .map(|(i, (code, _))| {
                Turn::call(&format!("call_{i}"), "run_code", json!({"code": code}))
            })
            .collect();
        turns.push(Turn::text("Every program hit a limit."));
        let fake = Fake::start(api, true, &turns).await;
        let registry: ToolRegistry = CodeMode::new(registry()).limits(limits).registry();
        let runner = Runner::new(fake.model(), registry);
        let result = runner
            .run("Try these programs.")
            .await
            .unwrap_or_else(|e| panic!("{api:?}: {e}"));
        assert_eq!(
            result.final_text().unwrap(),
            "Every program hit a limit.",
            "{api:?}"
        );
        let bodies = fake.bodies().await;
        assert_eq!(bodies.len(), programs.len() + 1, "{api:?}");
        for (i, (_, limit)) in programs.iter().enumerate() {
            let request = bodies[i + 1].to_string();
            assert!(
                request.contains(limit),
                "{api:?}: request {} lacks {limit:?}: {request}",
                i + 2
            );
        }
        let route = api.route(true);
        sent.extend(bodies.into_iter().map(|b| (route, b)));
    }
    assert_sdk_accepts(&sent);
}

/// A program that tries a destructive call (denied by the approver) and a direct-only tool,
/// catching both.
const REFUSED: &str = "const codes = [];\n\
    try { await tools.delete_file({path: 'run-denied.txt'}); } catch (e) { codes.push(e.code); }\n\
    try { await tools.wipe_database({}); } catch (e) { codes.push(e.code); }\n\
    return codes.join(',');";

#[tokio::test]
async fn a_denied_destructive_call_and_a_direct_only_call_are_refused_on_every_api() {
    use tool_core::{Approval, ToolCall, ToolDefinition};
    let mut sent = Vec::new();
    for api in Api::ALL {
        let turns = [
            Turn::call("call_code_1", "run_code", json!({"code": REFUSED})),
            Turn::text("Neither was allowed."),
        ];
        let fake = Fake::start(api, true, &turns).await;
        let mode = CodeMode::new(registry()).approver(|_: &ToolCall, _: &ToolDefinition| {
            Approval::Denied("the user said no".into())
        });
        let runner = Runner::new(fake.model(), mode.registry());
        let result = runner
            .run("Clean up.")
            .await
            .unwrap_or_else(|e| panic!("{api:?}: {e}"));
        assert_eq!(
            result.final_text().unwrap(),
            "Neither was allowed.",
            "{api:?}"
        );
        let bodies = fake.bodies().await;
        assert_eq!(bodies.len(), 2, "{api:?}");
        let answer = bodies[1].to_string();
        assert!(
            answer.contains("PERMISSION_DENIED,PERMISSION_DENIED"),
            "{api:?}: {answer}"
        );
        let route = api.route(true);
        sent.extend(bodies.into_iter().map(|b| (route, b)));
    }
    assert!(!deleted("run-denied.txt"));
    assert_eq!(WIPED.load(std::sync::atomic::Ordering::SeqCst), 0);
    assert_sdk_accepts(&sent);
}
