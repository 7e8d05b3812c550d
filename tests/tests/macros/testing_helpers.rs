//! `tool_core::testing` used the way a downstream crate uses it in its own test suite: a clean
//! registry passes, a registry with a schema that cannot be OpenAI-strict and an over-long
//! description fails with a report naming both, and the prompt and definitions are pinned in
//! golden files that `UPDATE_GOLDEN=1` rewrites.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use serde_json::{json, Value};
use tool_core::provider::Api;
use tool_core::testing::{self, ProblemKind, ToolChecks};
use tool_core::{
    tool, tool_type, tools, CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse,
};

#[tool_type]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Current weather for a city. Use it when the user asks about the weather right now.
#[tool(read_only)]
fn get_weather(
    /// City and country, e.g. "Paris, France".
    location: String,
    /// Temperature unit; Celsius when absent.
    unit: Option<Unit>,
) -> String {
    let unit = match unit {
        Some(Unit::Fahrenheit) => "°F",
        _ => "°C",
    };
    format!("21 {unit} in {location}")
}

/// Searches the documentation.
#[tool]
fn search(
    /// What to look for.
    query: String,
    /// How many results, at most.
    #[arg(default = 5)]
    limit: u32,
) -> String {
    format!("{limit} results for {query}")
}

/// Counts words per language.
#[tool]
fn word_counts(
    /// Word counts by language code: an open map, which OpenAI's strict mode cannot express.
    counts: HashMap<String, u32>,
) -> u32 {
    counts.values().sum()
}

/// A tool defined at run time (say, from a plugin manifest) whose description is too long for
/// OpenAI. `#[tool]` rejects such descriptions at compile time; run-time tools need the check.
struct Verbose;

impl Tool for Verbose {
    fn name(&self) -> &str {
        "verbose"
    }
    fn description(&self) -> &str {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        TEXT.get_or_init(|| "Explains everything at length. ".repeat(40))
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(ToolResponse::success("…"))
    }
}

fn clean() -> ToolRegistry {
    tools![get_weather, search]
}

fn faulty() -> ToolRegistry {
    tools![get_weather, word_counts].with(Verbose)
}

#[test]
fn clean_registry_passes_every_check() {
    let report = testing::check_tools(&clean());
    assert!(report.is_clean(), "{report}");
    assert_eq!(
        report.to_string(),
        "every tool passes every provider's rules"
    );
    testing::assert_tools_portable(&clean());
}

#[test]
fn report_names_the_non_strict_schema_and_the_long_description() {
    let report = testing::check_tools(&faulty());
    let found: Vec<(&str, Api, ProblemKind)> = report
        .problems
        .iter()
        .map(|p| (p.tool.as_str(), p.api, p.kind))
        .collect();
    assert_eq!(
        found,
        [
            ("word_counts", Api::OpenAiChat, ProblemKind::NotStrict),
            ("word_counts", Api::Gemini, ProblemKind::GeminiLoss),
            ("verbose", Api::OpenAiChat, ProblemKind::Description),
        ]
    );
    assert!(report.for_tool("get_weather").next().is_none());

    let text = report.to_string();
    assert!(text.starts_with("3 tool problems found:\n"), "{text}");
    assert!(
        text.contains(
            "'word_counts' [openai]: cannot be sent with strict: true (#/properties/counts: "
        ),
        "{text}"
    );
    assert!(
        text.contains("'verbose' [openai]: the description of 'verbose' has 1240 characters; at most 1024 are accepted"),
        "{text}"
    );
}

#[test]
fn assert_form_fails_the_test_with_the_report() {
    let registry = faulty();
    let failure = catch_unwind(AssertUnwindSafe(|| {
        testing::assert_tools_portable(&registry)
    }))
    .expect_err("a registry with problems must fail the assertion");
    let message = failure
        .downcast_ref::<String>()
        .expect("the panic carries the report");
    assert_eq!(*message, testing::check_tools(&registry).to_string());
}

#[test]
fn checks_can_be_narrowed_to_the_providers_and_modes_in_use() {
    let registry = tools![word_counts];
    ToolChecks::only(&[Api::Anthropic, Api::Mcp]).assert(&registry);
    ToolChecks::all()
        .allow_not_strict()
        .allow_gemini_losses()
        .assert(&registry);
    let openai_only = ToolChecks::only(&[Api::OpenAiChat]).run(&registry);
    assert_eq!(openai_only.problems.len(), 1);
    assert_eq!(openai_only.problems[0].kind, ProblemKind::NotStrict);
}

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(name)
}

#[test]
fn prompt_and_definitions_are_pinned_in_golden_files() {
    testing::assert_prompt_golden(&clean(), golden("testing_prompt.txt"));
    testing::assert_definitions_golden(&clean(), golden("testing_definitions.json"));
}

#[test]
fn golden_mismatch_names_the_file_the_line_and_the_update_variable() {
    if std::env::var_os(testing::UPDATE_GOLDEN).is_some() {
        return; // in update mode the assertion writes instead of comparing
    }
    let dir = std::env::temp_dir().join(format!("tool-tests-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("definitions.json");
    std::fs::write(&file, testing::definitions_json(&tools![search])).unwrap();

    testing::assert_definitions_golden(&tools![search], &file);
    let failure = catch_unwind(|| testing::assert_definitions_golden(&clean(), &file))
        .expect_err("other tools must not match");
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(message.contains("definitions.json differs"), "{message}");
    assert!(message.contains("first difference: line 3"), "{message}");
    assert!(message.contains("UPDATE_GOLDEN=1"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
