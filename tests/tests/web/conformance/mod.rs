//! The conformance matrix: every runner feature on every API, over loopback fakes.
//!
//! Each feature is one scenario written once (a file of this folder) and run for every
//! column of [`Api::ALL`] through the public runner API, against [`apis::Fake`], which renders
//! an abstract scripted turn as each API's whole response and SSE stream. Every request the
//! fakes receive is checked against the official SDK's request types.
//!
//! [`CELLS`] says, for each (feature, API), what the user gets: `Yes`, a documented
//! `Fallback`, or `No` with the reason. A scenario reports what it saw and the row's test
//! fails when that differs from the cell; the table in `docs/runner.md` is rendered from
//! [`CELLS`] (`matrix_table_in_the_guide_is_generated`), and `rows!` makes each row's test
//! from the same list as the [`Feature`] enum, so the table cannot name a cell no test runs.
//! `UPDATE_GOLDEN=1 cargo test -p tool-tests --test web conformance::` rewrites the table.

mod apis;
mod approval;
mod callers;
mod choice;
mod deferred;
mod early;
mod harness;
pub mod interactions;
mod limits;
mod namespaces;
mod optional;
mod output;
mod reasoning;
mod rich;
mod sse;
mod usage;
mod whole;

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

pub use apis::{Api, Fake, Turn};

/// What a cell promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The feature works as on every other API.
    Yes,
    /// The API cannot do it natively; the documented fallback happens (what it is).
    Fallback(&'static str),
    /// The API cannot do it at all (why).
    No(&'static str),
}

/// What a scenario saw on one API, and the request bodies it sent (with their routes).
#[derive(Debug, Default)]
pub struct Seen {
    pub verdict: Option<Verdict>,
    pub sent: Vec<(&'static str, Value)>,
}

impl Seen {
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Keeps the bodies `fake` received, for the SDK check.
    pub async fn add(&mut self, fake: &Fake) -> Vec<Value> {
        let bodies = fake.bodies().await;
        let route = fake.api.route(fake.stream);
        self.sent.extend(bodies.iter().map(|b| (route, b.clone())));
        bodies
    }

    /// Ends the scenario with what it saw.
    pub fn saw(mut self, verdict: Verdict) -> Seen {
        self.verdict = Some(verdict);
        self
    }
}

type Scenario = fn(Api) -> Pin<Box<dyn Future<Output = Seen> + Send>>;

/// The rows: each a feature, its title in the table, its scenario, and the test that runs
/// it on every column (named after the row). The enum, the list and the tests come from
/// this one list.
macro_rules! rows {
    ($($test:ident: $feature:ident, $title:literal => $scenario:path;)*) => {
        /// One row of the matrix.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Feature { $($feature),* }

        impl Feature {
            pub const ALL: &[Feature] = &[$(Feature::$feature),*];

            fn title(self) -> &'static str {
                match self { $(Feature::$feature => $title),* }
            }

            /// The test that proves the row.
            fn test(self) -> &'static str {
                match self { $(Feature::$feature => concat!("conformance::", stringify!($test))),* }
            }

            fn scenario(self) -> Scenario {
                match self { $(Feature::$feature => |api| Box::pin($scenario(api))),* }
            }
        }

        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                run_row(Feature::$feature).await;
            }
        )*
    };
}

rows! {
    reasoning: Reasoning, "Reasoning streamed apart from text, sent back as the API requires" => reasoning::scenario;
    usage: Usage, "Usage totals over a run" => usage::scenario;
    early_calls: EarlyCalls, "A call starts mid-stream (`CallReady` before the stream ends)" => early::scenario;
    typed_output: TypedOutput, "Typed output, with a retry, streamed and not" => output::scenario;
    deferred_tools: DeferredTools, "Deferred tools found by search; a tool no search returned is refused" => deferred::scenario;
    namespaces: Namespaces, "Namespaces" => namespaces::scenario;
    optional_parameters: OptionalParameters, "Optional tool parameters (strict schemas: required and nullable; null reaches the tool as absent)" => optional::scenario;
    tool_choice: ToolChoice, "`allowed_tools` and a forced tool" => choice::scenario;
    rich_results: RichResults, "Images and files in tool results" => rich::scenario;
    callers: Callers, "Who may call a tool (`allowed_callers`): a call by the wrong caller is refused and never runs" => callers::scenario;
    approval: Approval, "Approval: pause, resume with allow and deny" => approval::scenario;
    limits: Limits, "Limits: max turns, tool calls, requests" => limits::scenario;
}

use Api::*;
use Verdict::{Fallback, No, Yes};

const fn cell(feature: Feature, api: Api, verdict: Verdict) -> Cell {
    Cell {
        feature,
        api,
        verdict,
    }
}

/// One (feature, API) pair and what it promises.
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    pub feature: Feature,
    pub api: Api,
    pub verdict: Verdict,
}

const TEXT_REASONING: Verdict = Yes;
const LOCAL_SEARCH: Verdict = Fallback("the run's `search_tools`");
const CHAT_FILES: Verdict = Fallback("named in the result, sent in a user message after it");
const QUALIFIED: Verdict = Fallback(namespaces::QUALIFIED);
const FINAL_ANSWER_TOOL: Verdict = Fallback("the final-answer tool");
const NO_PROGRAMS: Verdict = Fallback(callers::NO_PROGRAMS);

/// Every cell of the matrix. The table is rendered from this list and each row's test runs
/// every cell of its row.
pub const CELLS: &[Cell] = &[
    cell(
        Feature::Reasoning,
        Chat,
        No("OpenAI's Chat Completions returns no reasoning"),
    ),
    cell(Feature::Reasoning, ChatVllm, Yes),
    cell(Feature::Reasoning, ChatDeepSeek, Yes),
    cell(Feature::Reasoning, Responses, Yes),
    cell(Feature::Reasoning, Anthropic, Yes),
    cell(Feature::Reasoning, Gemini, Yes),
    cell(Feature::Reasoning, Interactions, Yes),
    cell(Feature::Reasoning, TextHermes, TEXT_REASONING),
    cell(Feature::Reasoning, TextUseTool, TEXT_REASONING),
    cell(Feature::Usage, Chat, Yes),
    cell(Feature::Usage, ChatVllm, Yes),
    cell(Feature::Usage, ChatDeepSeek, Yes),
    cell(Feature::Usage, Responses, Yes),
    cell(Feature::Usage, Anthropic, Yes),
    cell(Feature::Usage, Gemini, Yes),
    cell(Feature::Usage, Interactions, Yes),
    cell(Feature::Usage, TextHermes, Yes),
    cell(Feature::Usage, TextUseTool, Yes),
    cell(Feature::EarlyCalls, Chat, Yes),
    cell(Feature::EarlyCalls, ChatVllm, Yes),
    cell(Feature::EarlyCalls, ChatDeepSeek, Yes),
    cell(Feature::EarlyCalls, Responses, Yes),
    cell(Feature::EarlyCalls, Anthropic, Yes),
    cell(Feature::EarlyCalls, Gemini, Yes),
    cell(Feature::EarlyCalls, Interactions, Yes),
    cell(Feature::EarlyCalls, TextHermes, Yes),
    cell(Feature::EarlyCalls, TextUseTool, Yes),
    cell(Feature::TypedOutput, Chat, Yes),
    cell(Feature::TypedOutput, ChatVllm, Yes),
    cell(Feature::TypedOutput, ChatDeepSeek, Yes),
    cell(Feature::TypedOutput, Responses, Yes),
    cell(Feature::TypedOutput, Anthropic, Yes),
    cell(
        Feature::TypedOutput,
        Gemini,
        Fallback("the final-answer tool when tools are offered"),
    ),
    cell(Feature::TypedOutput, Interactions, Yes),
    cell(Feature::TypedOutput, TextHermes, FINAL_ANSWER_TOOL),
    cell(Feature::TypedOutput, TextUseTool, FINAL_ANSWER_TOOL),
    cell(Feature::DeferredTools, Chat, LOCAL_SEARCH),
    cell(Feature::DeferredTools, ChatVllm, LOCAL_SEARCH),
    cell(Feature::DeferredTools, ChatDeepSeek, LOCAL_SEARCH),
    cell(Feature::DeferredTools, Responses, Yes),
    cell(Feature::DeferredTools, Anthropic, Yes),
    cell(Feature::DeferredTools, Gemini, LOCAL_SEARCH),
    cell(Feature::DeferredTools, Interactions, LOCAL_SEARCH),
    cell(Feature::DeferredTools, TextHermes, LOCAL_SEARCH),
    cell(Feature::DeferredTools, TextUseTool, LOCAL_SEARCH),
    cell(Feature::Namespaces, Chat, QUALIFIED),
    cell(Feature::Namespaces, ChatVllm, QUALIFIED),
    cell(Feature::Namespaces, ChatDeepSeek, QUALIFIED),
    cell(Feature::Namespaces, Responses, Yes),
    cell(Feature::Namespaces, Anthropic, QUALIFIED),
    cell(Feature::Namespaces, Gemini, QUALIFIED),
    cell(Feature::Namespaces, Interactions, QUALIFIED),
    cell(Feature::Namespaces, TextHermes, QUALIFIED),
    cell(Feature::Namespaces, TextUseTool, QUALIFIED),
    cell(Feature::OptionalParameters, Chat, Yes),
    cell(Feature::OptionalParameters, ChatVllm, Yes),
    cell(Feature::OptionalParameters, ChatDeepSeek, Yes),
    cell(Feature::OptionalParameters, Responses, Yes),
    cell(Feature::OptionalParameters, Anthropic, Yes),
    cell(Feature::OptionalParameters, Gemini, Yes),
    cell(Feature::OptionalParameters, Interactions, Yes),
    cell(Feature::OptionalParameters, TextHermes, Yes),
    cell(Feature::OptionalParameters, TextUseTool, Yes),
    cell(Feature::ToolChoice, Chat, Yes),
    cell(Feature::ToolChoice, ChatVllm, Yes),
    cell(Feature::ToolChoice, ChatDeepSeek, Yes),
    cell(Feature::ToolChoice, Responses, Yes),
    cell(
        Feature::ToolChoice,
        Anthropic,
        Fallback("`auto` or `any`; a call outside the set is refused"),
    ),
    cell(Feature::ToolChoice, Gemini, Yes),
    cell(Feature::ToolChoice, Interactions, Yes),
    cell(
        Feature::ToolChoice,
        TextHermes,
        Fallback("a sentence in the instructions; a call outside the set is refused"),
    ),
    cell(
        Feature::ToolChoice,
        TextUseTool,
        Fallback("a sentence in the instructions; a call outside the set is refused"),
    ),
    cell(Feature::RichResults, Chat, CHAT_FILES),
    cell(Feature::RichResults, ChatVllm, CHAT_FILES),
    cell(Feature::RichResults, ChatDeepSeek, CHAT_FILES),
    cell(Feature::RichResults, Responses, Yes),
    cell(Feature::RichResults, Anthropic, Yes),
    cell(Feature::RichResults, Gemini, Yes),
    cell(Feature::RichResults, Interactions, Yes),
    cell(Feature::RichResults, TextHermes, No(rich::TEXT_MODE_FILES)),
    cell(Feature::RichResults, TextUseTool, No(rich::TEXT_MODE_FILES)),
    cell(Feature::Callers, Chat, NO_PROGRAMS),
    cell(Feature::Callers, ChatVllm, NO_PROGRAMS),
    cell(Feature::Callers, ChatDeepSeek, NO_PROGRAMS),
    cell(Feature::Callers, Responses, Yes),
    cell(Feature::Callers, Anthropic, Yes),
    cell(Feature::Callers, Gemini, NO_PROGRAMS),
    cell(Feature::Callers, Interactions, NO_PROGRAMS),
    cell(Feature::Callers, TextHermes, NO_PROGRAMS),
    cell(Feature::Callers, TextUseTool, NO_PROGRAMS),
    cell(Feature::Approval, Chat, Yes),
    cell(Feature::Approval, ChatVllm, Yes),
    cell(Feature::Approval, ChatDeepSeek, Yes),
    cell(Feature::Approval, Responses, Yes),
    cell(Feature::Approval, Anthropic, Yes),
    cell(Feature::Approval, Gemini, Yes),
    cell(Feature::Approval, Interactions, Yes),
    cell(Feature::Approval, TextHermes, Yes),
    cell(Feature::Approval, TextUseTool, Yes),
    cell(Feature::Limits, Chat, Yes),
    cell(Feature::Limits, ChatVllm, Yes),
    cell(Feature::Limits, ChatDeepSeek, Yes),
    cell(Feature::Limits, Responses, Yes),
    cell(Feature::Limits, Anthropic, Yes),
    cell(Feature::Limits, Gemini, Yes),
    cell(Feature::Limits, Interactions, Yes),
    cell(Feature::Limits, TextHermes, Yes),
    cell(Feature::Limits, TextUseTool, Yes),
];

fn cell_of(feature: Feature, api: Api) -> Option<&'static Cell> {
    CELLS.iter().find(|c| c.feature == feature && c.api == api)
}

/// Runs every cell of `feature`'s row (each in its own task, so one failing cell does not
/// hide the others), checks what each saw against its cell, and checks every request sent
/// against the official SDK's types.
async fn run_row(feature: Feature) {
    let scenario = feature.scenario();
    let mut failures = Vec::new();
    let mut sent: Vec<(&'static str, Value)> = Vec::new();
    for api in Api::ALL {
        let Some(cell) = cell_of(feature, api) else {
            failures.push(format!("{api:?}: no cell in CELLS"));
            continue;
        };
        match tokio::spawn(scenario(api)).await {
            Ok(seen) => {
                sent.extend(seen.sent);
                if seen.verdict != Some(cell.verdict) {
                    failures.push(format!(
                        "{api:?}: the cell says {:?}, the scenario saw {:?}",
                        cell.verdict, seen.verdict
                    ));
                }
            }
            Err(error) => {
                let message = match error.try_into_panic() {
                    Ok(panic) => panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                    Err(error) => error.to_string(),
                };
                failures.push(format!("{api:?}: {message}"));
            }
        }
    }
    crate::http_support::sdk::assert_accepts(&sent);
    assert!(
        failures.is_empty(),
        "{feature:?}: {} cell(s) failed:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}

/// The markdown table of [`CELLS`].
fn table() -> String {
    let mut out = String::from("| Feature (test) |");
    for api in Api::ALL {
        out.push_str(&format!(" {} |", api.heading()));
    }
    out.push_str("\n|---|");
    for _ in Api::ALL {
        out.push_str("---|");
    }
    out.push('\n');
    for &feature in Feature::ALL {
        out.push_str(&format!("| {} (`{}`) |", feature.title(), feature.test()));
        for api in Api::ALL {
            let text = match cell_of(feature, api).map(|c| c.verdict) {
                Some(Yes) => "yes".to_string(),
                Some(Fallback(what)) => format!("fallback: {what}"),
                Some(No(why)) => format!("— {why}"),
                None => "?".to_string(),
            };
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    out
}

#[test]
fn every_feature_has_one_cell_per_api_and_nothing_else() {
    for &feature in Feature::ALL {
        for api in Api::ALL {
            let count = CELLS
                .iter()
                .filter(|c| c.feature == feature && c.api == api)
                .count();
            assert_eq!(count, 1, "{feature:?} × {api:?}");
        }
    }
    assert_eq!(CELLS.len(), Feature::ALL.len() * Api::ALL.len());
}

#[test]
fn matrix_table_in_the_guide_is_generated() {
    let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/runner.md");
    let text = std::fs::read_to_string(&file).unwrap();
    let begin = "<!-- BEGIN generated by tests/tests/web/conformance: matrix -->\n";
    let end = "<!-- END generated -->";
    let start = text
        .find(begin)
        .expect("docs/runner.md has no matrix region")
        + begin.len();
    let stop = start
        + text[start..]
            .find(end)
            .expect("docs/runner.md: the matrix region is not closed");
    let content = table();
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        let updated = format!("{}{content}{}", &text[..start], &text[stop..]);
        std::fs::write(&file, updated).unwrap();
        return;
    }
    assert!(
        text[start..stop] == *content,
        "the matrix in docs/runner.md differs from CELLS; review and rerun with \
         UPDATE_GOLDEN=1\n--- generated ---\n{content}"
    );
}
