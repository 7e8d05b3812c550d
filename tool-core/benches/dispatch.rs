//! Per-call dispatch cost of `ToolRegistry::call` against hand-written serde code doing the
//! same work in the same run: match on the name, `serde_json::from_str` into an args struct,
//! call, `serde_json::to_string` of the result (the JSON the model reads).
//!
//! `cargo bench -p tool-core --bench dispatch`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use serde::{Deserialize, Serialize};
use tool_core::{tool, tools, Json, ToolCall, ToolRegistry};

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

fn calls() -> [ToolCall; 3] {
    [
        ToolCall::new("c1", "add", r#"{"a": 40, "b": 2}"#),
        ToolCall::new(
            "c2",
            "get_weather",
            r#"{"location": "Paris, France", "unit": "celsius"}"#,
        ),
        ToolCall::new(
            "c3",
            "search",
            r#"{"query": "rust tool calling", "limit": 3, "tags": ["llm", "rust"]}"#,
        ),
    ]
}

fn dispatch(c: &mut Criterion) {
    let registry: ToolRegistry = tools![add, get_weather, search];
    for call in calls() {
        let mut group = c.benchmark_group(format!("dispatch/{}", call.name));
        group
            .measurement_time(Duration::from_secs(3))
            .sample_size(50);
        group.bench_function("hand_written", |b| {
            b.iter(|| {
                black_box(hand_written::dispatch(
                    black_box(&call.name),
                    black_box(&call.arguments),
                ))
            })
        });
        group.bench_function("registry", |b| {
            b.iter(|| {
                let response = tool_core::block_on(registry.call(black_box(&call)));
                black_box(response.model_text().len());
                response
            })
        });
        group.finish();
    }
    c.bench_function("definitions/cached", |b| {
        b.iter(|| black_box(black_box(&registry).definitions()))
    });
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
