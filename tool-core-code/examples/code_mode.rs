//! Code mode with a scripted model: the model writes one program that calls several tools
//! (a loop of dependent calls, two calls in parallel, an error caught), and the runner runs
//! it in the sandbox in one turn.
//!
//! `cargo run -p tool-core-code --example code_mode`

use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::runner::Runner;
use tool_core::{tool, tools, Tool, ToolCall};
use tool_core_code::CodeMode;

/// Adds two integers.
#[tool(allowed_callers = "any")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Current weather for a city, as JSON.
#[tool(allowed_callers = "any")]
fn get_weather(city: String) -> String {
    let (temp, sky) = match city.as_str() {
        "Paris" => (15, "light rain"),
        "Tokyo" => (22, "sunny"),
        _ => (0, "unknown"),
    };
    format!(r#"{{"city":"{city}","temp_c":{temp},"sky":"{sky}"}}"#)
}

/// Deletes a file; the model must ask for it directly.
#[tool(destructive)]
fn delete_file(path: String) -> String {
    format!("deleted {path}")
}

const PROGRAM: &str = r#"let sum = 0;
for (let i = 1; i <= 10; i++) {
  sum = await tools.add({ a: sum, b: i });
}
const [paris, tokyo] = await Promise.all([
  tools.get_weather({ city: "Paris" }),
  tools.get_weather({ city: "Tokyo" }),
]);
try {
  await tools.delete_file({ path: "notes.txt" });
} catch (e) {
  console.log("refused:", e.code);
}
console.log(`sum of 1..10 = ${sum}`);
return { warmer: paris.temp_c > tokyo.temp_c ? "Paris" : "Tokyo", sum };"#;

fn main() {
    let mode = CodeMode::new(tools![add, get_weather, delete_file]);
    let code_tool = mode.tool();
    println!("The model is offered one tool, `{}`:\n", code_tool.name());
    println!("{}\n", code_tool.description());

    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![ToolCall::new(
                "call_1",
                "run_code",
                serde_json::json!({ "code": PROGRAM }).to_string(),
            )],
        ),
        ModelTurn::text("The sum is 55, and Tokyo is warmer."),
    ]);
    let runner = Runner::new(model, mode.registry());
    let result =
        match tool_core::block_on(runner.run("Sum 1..10, and which is warmer, Paris or Tokyo?")) {
            Ok(result) => result,
            Err(error) => {
                eprintln!("the run failed: {error}");
                std::process::exit(1);
            }
        };
    println!("The program (one turn, 13 tool calls):\n{PROGRAM}\n");
    for message in result.messages() {
        if let Message::Tool { results } = message {
            for r in results {
                println!(
                    "Its result, as the model reads it:\n{}\n",
                    r.response.model_text()
                );
            }
        }
    }
    println!(
        "Model requests: {}. Final answer: {}",
        runner.model().requests().len(),
        result.final_text().unwrap_or_default()
    );
}
