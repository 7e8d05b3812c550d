//! Per-call dispatch cost of `ToolRegistry::call` against hand-written serde code doing the
//! same work in the same run: match on the name, `serde_json::from_str` into an args struct,
//! call, `serde_json::to_string` of the result (the JSON the model reads). The registry is
//! measured on the path a user writes (the call built in the loop, the model text taken out
//! as a `String`), in its borrowed form (`ToolCallRef` + `into_model_text`) and its owned form
//! (`ToolCall::new` + `model_text().into_owned()`). Then the cached provider tool lists of a
//! 50-tool registry next to `definitions()`, and a cold start (build a 3-tool registry and
//! list its tools once).
//!
//! `cargo bench -p tool-core --bench dispatch`
//!
//! For instruction counts, run the bench binary under callgrind in its counting mode:
//! `dispatch --callgrind CASE N` makes N calls of one case (see `callgrind_case`) and nothing
//! else; the difference between N = 11000 and N = 1000, divided by 10000, is the cost per call.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, Criterion};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_core::provider::Api;
use tool_core::{
    tool, tools, CallFuture, Json, Tool, ToolAnnotations, ToolCall, ToolCallRef, ToolContext,
    ToolListFormat, ToolRegistry,
};

#[tool_core::tool_type]
#[derive(Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Serialize)]
pub struct Weather {
    location: String,
    temperature: f64,
    unit: Unit,
    conditions: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Hit {
    title: String,
    url: String,
    score: f64,
}

fn weather(location: String, unit: Option<Unit>) -> Weather {
    Weather {
        location,
        temperature: 21.5,
        unit: unit.unwrap_or(Unit::Celsius),
        conditions: "sunny",
    }
}

fn hits(query: String, limit: Option<u32>, tags: Vec<String>) -> Vec<Hit> {
    let n = limit.unwrap_or(3).min(3) as usize;
    (0..n)
        .map(|i| Hit {
            title: format!("{query} result {i}"),
            url: format!(
                "https://example.com/{}/{i}",
                tags.first().map_or("all", String::as_str)
            ),
            score: 1.0 / (i as f64 + 1.0),
        })
        .collect()
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Current weather for a location.
#[tool]
fn get_weather(location: String, unit: Option<Unit>) -> Json<Weather> {
    Json(weather(location, unit))
}

/// Searches the index.
#[tool]
fn search(query: String, limit: Option<u32>, tags: Vec<String>) -> Json<Vec<Hit>> {
    Json(hits(query, limit, tags))
}

mod hand_written {
    use super::*;

    #[derive(Deserialize)]
    struct AddArgs {
        a: i64,
        b: i64,
    }
    #[derive(Deserialize)]
    struct WeatherArgs {
        location: String,
        unit: Option<Unit>,
    }
    #[derive(Deserialize)]
    struct SearchArgs {
        query: String,
        limit: Option<u32>,
        tags: Vec<String>,
    }

    pub fn dispatch(name: &str, arguments: &str) -> Result<String, String> {
        match name {
            "add" => {
                let a: AddArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
                serde_json::to_string(&(a.a + a.b)).map_err(|e| e.to_string())
            }
            "get_weather" => {
                let a: WeatherArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
                serde_json::to_string(&weather(a.location, a.unit)).map_err(|e| e.to_string())
            }
            "search" => {
                let a: SearchArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
                serde_json::to_string(&hits(a.query, a.limit, a.tags)).map_err(|e| e.to_string())
            }
            other => Err(format!("unknown tool {other}")),
        }
    }
}

/// `(id, name, arguments)` of one call per tool, as a provider response would hold them.
const CALLS: [(&str, &str, &str); 3] = [
    ("c1", "add", r#"{"a": 40, "b": 2}"#),
    (
        "c2",
        "get_weather",
        r#"{"location": "Paris, France", "unit": "celsius"}"#,
    ),
    (
        "c3",
        "search",
        r#"{"query": "rust tool calling", "limit": 3, "tags": ["llm", "rust"]}"#,
    ),
];

/// The hand-written baseline: its answer is the model's text.
#[inline(never)]
fn hand_written_call(name: &str, arguments: &str) -> String {
    hand_written::dispatch(name, arguments).unwrap_or_else(|e| e)
}

/// The path a user writes, borrowed form: no copies of the call's strings, the model text
/// moved out of the response.
#[inline(never)]
fn user_path(registry: &ToolRegistry, id: &str, name: &str, arguments: &str) -> String {
    tool_core::block_on(registry.call(ToolCallRef::new(id, name, arguments))).into_model_text()
}

/// The path a user writes, owned form: the issue's measurement.
#[inline(never)]
fn user_path_owned(registry: &ToolRegistry, id: &str, name: &str, arguments: &str) -> String {
    let response = tool_core::block_on(registry.call(&ToolCall::new(id, name, arguments)));
    response.model_text().into_owned()
}

fn dispatch(c: &mut Criterion) {
    let registry: ToolRegistry = tools![add, get_weather, search];
    for (id, name, arguments) in CALLS {
        let call = ToolCall::new(id, name, arguments);
        let mut group = c.benchmark_group(format!("dispatch/{name}"));
        group
            .measurement_time(Duration::from_secs(3))
            .sample_size(50);
        group.bench_function("hand_written", |b| {
            b.iter(|| hand_written_call(black_box(name), black_box(arguments)))
        });
        group.bench_function("registry_user_path", |b| {
            b.iter(|| {
                user_path(
                    &registry,
                    black_box(id),
                    black_box(name),
                    black_box(arguments),
                )
            })
        });
        group.bench_function("registry_user_path_owned", |b| {
            b.iter(|| {
                user_path_owned(
                    &registry,
                    black_box(id),
                    black_box(name),
                    black_box(arguments),
                )
            })
        });
        group.bench_function("registry_prebuilt_call", |b| {
            b.iter(|| {
                let response = tool_core::block_on(registry.call(black_box(&call)));
                black_box(response.model_text().len());
                response
            })
        });
        group.finish();
    }
}

/// A registered tool under another name: 50 realistic tools from the three above.
struct Renamed {
    name: String,
    inner: Arc<dyn Tool>,
}

impl Tool for Renamed {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        self.inner.description()
    }
    fn annotations(&self) -> ToolAnnotations {
        self.inner.annotations()
    }
    fn input_schema(&self) -> Value {
        self.inner.input_schema()
    }
    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.inner.call(arguments, ctx)
    }
}

fn fifty_tools() -> ToolRegistry {
    let base: [Arc<dyn Tool>; 3] = [
        Arc::new(add::__tool()),
        Arc::new(get_weather::__tool()),
        Arc::new(search::__tool()),
    ];
    let mut registry = ToolRegistry::new();
    for i in 0..50 {
        let inner = Arc::clone(&base[i % 3]);
        let name = format!("{}_{i}", inner.name());
        registry
            .register(Renamed { name, inner })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    registry
}

fn lists(c: &mut Criterion) {
    let registry = fifty_tools();
    let mut group = c.benchmark_group("lists_50_tools");
    group
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    group.bench_function("definitions", |b| {
        b.iter(|| black_box(black_box(&registry).definitions()))
    });
    for &format in ToolListFormat::ALL {
        group.bench_function(format!("{format:?}/cached"), |b| {
            b.iter(|| black_box(black_box(&registry).tool_list(black_box(format)).json()))
        });
    }
    // What every turn cost before the cache: the provider function from the definitions.
    for format in [Api::OpenAiChat, Api::Mcp].map(ToolListFormat::from) {
        group.bench_function(format!("{format:?}/rebuilt"), |b| {
            b.iter(|| black_box(format.build(black_box(&registry).definitions())))
        });
    }
    group.finish();
}

/// What an MCP stdio server does before its first answer: build a 3-tool registry (schemas
/// included) and list the tools once.
#[inline(never)]
fn cold_start() -> usize {
    let registry: ToolRegistry = tools![add, get_weather, search];
    registry.tool_list(Api::Mcp).json().len()
}

fn cold(c: &mut Criterion) {
    c.bench_function("cold_start/registry_3_tools_and_first_list", |b| {
        b.iter(cold_start)
    });
}

/// `--callgrind CASE N`: N calls of one case and nothing else.
fn callgrind_case(case: &str, n: usize) -> Option<usize> {
    if case == "cold_start" {
        return Some((0..n).map(|_| cold_start()).sum());
    }
    let registry: ToolRegistry = tools![add, get_weather, search];
    let (kind, tool) = case.split_once(':')?;
    let &(id, name, arguments) = CALLS.iter().find(|(_, name, _)| *name == tool)?;
    let mut total = 0;
    for _ in 0..n {
        let (id, name, arguments) = (black_box(id), black_box(name), black_box(arguments));
        total += match kind {
            "hand" => hand_written_call(name, arguments).len(),
            "user" => user_path(&registry, id, name, arguments).len(),
            "user_owned" => user_path_owned(&registry, id, name, arguments).len(),
            _ => return None,
        };
    }
    Some(total)
}

criterion_group!(benches, dispatch, lists, cold);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--callgrind") {
        let case = args.get(i + 1).map_or("", String::as_str);
        let n = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(1000);
        match callgrind_case(case, n) {
            Some(total) => println!("{case} x{n}: {total} bytes of model text"),
            None => {
                eprintln!(
                    "usage: dispatch --callgrind (hand|user|user_owned):(add|get_weather|search) N\n       \
                     dispatch --callgrind cold_start N"
                );
                std::process::exit(2);
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
