//! Helpers for checking your own tools in your own test suite and CI.
//!
//! - [`check_tools`] runs every tool of a registry through every provider's rules: names,
//!   description lengths, Gemini parameter names, whether the schema can be sent to OpenAI with
//!   `strict: true` (unless the tool is set to [`StrictMode::Off`]),
//!   and whether Gemini's `parameters` keep its whole meaning. A strict schema keeps its
//!   meaning: an optional property is sent required and nullable, and the `null` the model
//!   sends for it reaches the tool as the property left out (a `#[tool]` function's default
//!   or `None`), so optional properties are no reason to turn strict mode off. It returns a
//!   [`CheckReport`] that names each tool, provider and reason; [`assert_tools_portable`] fails
//!   a test with that report. [`ToolChecks`] narrows the checks (some providers only, or
//!   non-strict schemas allowed).
//! - [`assert_golden`] pins text (the prompt, the definitions, a provider's tool list) in a
//!   file, byte for byte; run the tests with `UPDATE_GOLDEN=1` to write the files, then review
//!   the diff. [`assert_prompt_golden`] and [`assert_definitions_golden`] pin the two a model
//!   reads.
//!
//! ```
//! use tool_core::{testing, tool, tools};
//!
//! /// Current weather for a city.
//! #[tool(read_only)]
//! fn get_weather(
//!     /// City and country, e.g. "Paris, France".
//!     location: String,
//! ) -> String {
//!     format!("21 °C in {location}")
//! }
//!
//! /// Counts words per language.
//! #[tool]
//! fn word_counts(
//!     /// Word counts by language code.
//!     counts: std::collections::HashMap<String, u32>,
//! ) -> u32 {
//!     counts.values().sum()
//! }
//!
//! testing::assert_tools_portable(&tools![get_weather]);
//!
//! // A map parameter cannot be OpenAI-strict: the report says which tool and why.
//! let report = testing::check_tools(&tools![get_weather, word_counts]);
//! assert!(!report.is_clean());
//! assert!(report.to_string().contains("'word_counts' [openai]: cannot be sent with strict: true"));
//! ```

use std::fmt;
use std::path::Path;

use crate::definition::{StrictMode, ToolDefinition};
use crate::provider::gemini::parameters_schema;
use crate::provider::openai_chat::strict_schema;
use crate::provider::{check_definition, Api};
use crate::registry::ToolRegistry;

/// Which checks [`ToolChecks::run`] applies. [`ToolChecks::all`] is what [`check_tools`] uses.
///
/// ```
/// use tool_core::provider::Api;
/// use tool_core::testing::ToolChecks;
/// use tool_core::{tool, tools};
///
/// /// Counts words per language.
/// #[tool]
/// fn word_counts(
///     /// Word counts by language code.
///     counts: std::collections::HashMap<String, u32>,
/// ) -> u32 { counts.values().sum() }
///
/// // Only Anthropic and MCP are used here, so OpenAI's strict mode does not matter.
/// ToolChecks::only(&[Api::Anthropic, Api::Mcp]).assert(&tools![word_counts]);
/// // Or: every provider's naming rules, without OpenAI's strict mode or Gemini's subset.
/// ToolChecks::all()
///     .allow_not_strict()
///     .allow_gemini_losses()
///     .assert(&tools![word_counts]);
///
/// /// Lists files, a page at a time.
/// #[tool]
/// fn list_files(
///     /// Where the last page ended; empty for the first page.
///     #[arg(default = String::new())]
///     cursor: String,
/// ) -> String { format!("page after '{cursor}'") }
///
/// // Optional parameters pass the strict check: OpenAI sees `cursor` required and nullable,
/// // and the model's `null` reaches the function as the parameter left out (its default).
/// let registry = tools![list_files];
/// ToolChecks::all().assert(&registry);
/// let reply = registry.call_blocking(&tool_core::ToolCall::new("1", "list_files", r#"{"cursor":null}"#));
/// assert_eq!(reply.model_text(), "page after ''");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolChecks {
    apis: Vec<Api>,
    require_strict: bool,
    require_gemini_clean: bool,
}

impl ToolChecks {
    /// Every provider, every rule. The two OpenAI APIs share one rule set, checked once
    /// (reported as `openai`).
    pub fn all() -> Self {
        ToolChecks {
            apis: vec![Api::OpenAiChat, Api::Anthropic, Api::Gemini, Api::Mcp],
            require_strict: true,
            require_gemini_clean: true,
        }
    }

    /// Only these providers' rules.
    pub fn only(apis: &[Api]) -> Self {
        ToolChecks {
            apis: apis.to_vec(),
            ..ToolChecks::all()
        }
    }

    /// Accepts schemas that OpenAI receives with `strict: false` (the provider functions send
    /// those correctly; strict mode only guarantees the model's arguments match the schema).
    /// Tools set to [`StrictMode::Off`] are never reported.
    pub fn allow_not_strict(mut self) -> Self {
        self.require_strict = false;
        self
    }

    /// Accepts schemas that lose meaning in Gemini's `parameters` (for applications that send
    /// `parametersJsonSchema` instead).
    pub fn allow_gemini_losses(mut self) -> Self {
        self.require_gemini_clean = false;
        self
    }

    /// Checks every tool of the registry.
    pub fn run(&self, registry: &ToolRegistry) -> CheckReport {
        let mut problems = Vec::new();
        for def in registry.definitions() {
            for &api in &self.apis {
                self.check(api, def, &mut problems);
            }
        }
        CheckReport { problems }
    }

    /// Panics with the report unless every tool passes: the form for a test.
    #[track_caller]
    pub fn assert(&self, registry: &ToolRegistry) {
        let report = self.run(registry);
        if !report.is_clean() {
            panic!("{report}");
        }
    }

    fn check(&self, api: Api, def: &ToolDefinition, out: &mut Vec<Problem>) {
        let problem = |kind, message: String| Problem {
            tool: def.name.clone(),
            api,
            kind,
            message,
        };
        for message in check_definition(api, def) {
            // `check_definition` prefixes its messages with the rule set; the report shows it
            // in its own column.
            let prefix = format!("{}: ", api.rules_name());
            let message = message
                .strip_prefix(&prefix)
                .map_or(message.clone(), str::to_owned);
            let kind = if message.contains("description") {
                ProblemKind::Description
            } else if message.contains("parameter name") {
                ProblemKind::ParameterName
            } else {
                ProblemKind::Name
            };
            out.push(problem(kind, message));
        }
        // A tool set to `StrictMode::Off` is meant to go without strict mode.
        if matches!(api, Api::OpenAiChat | Api::OpenAiResponses)
            && self.require_strict
            && def.strict != StrictMode::Off
        {
            let reasons = strict_schema(&def.input_schema).not_strict;
            if !reasons.is_empty() {
                let reasons: Vec<String> = reasons.iter().map(ToString::to_string).collect();
                out.push(problem(
                    ProblemKind::NotStrict,
                    format!(
                        "cannot be sent with strict: true ({}); change the parameter types, or \
                         allow it with ToolChecks::allow_not_strict",
                        reasons.join("; ")
                    ),
                ));
            }
        }
        if api == Api::Gemini && self.require_gemini_clean {
            let losses: Vec<String> = parameters_schema(&def.input_schema)
                .changes
                .iter()
                .filter(|note| loses_meaning(&note.message))
                .map(ToString::to_string)
                .collect();
            if !losses.is_empty() {
                out.push(problem(
                    ProblemKind::GeminiLoss,
                    format!(
                        "Gemini's `parameters` lose part of the schema ({}); send \
                         `parametersJsonSchema` (provider::gemini::tools_json_schema) or \
                         allow it with ToolChecks::allow_gemini_losses",
                        losses.join("; ")
                    ),
                ));
            }
        }
    }
}

/// Whether a change the Gemini transform reports takes meaning away from the model, rather
/// than restating it in Gemini's subset (`const` as `enum`, `null` as `nullable`, a format in
/// the description, the always-dropped `additionalProperties: false`).
fn loses_meaning(change: &str) -> bool {
    change.contains("recursion limit") || change.contains("unknown") || change.contains("open map")
}

/// What kind of rule a tool breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The tool name breaks the provider's naming rule.
    Name,
    /// The description is too long for the provider.
    Description,
    /// A parameter name breaks the provider's rule (Gemini).
    ParameterName,
    /// The schema cannot be sent to OpenAI with `strict: true`.
    NotStrict,
    /// Gemini's `parameters` subset drops part of the schema.
    GeminiLoss,
}

/// One rule one tool breaks for one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The tool's name.
    pub tool: String,
    /// The API whose rule it breaks.
    pub api: Api,
    /// Which rule.
    pub kind: ProblemKind,
    /// What is wrong and what to do, in a sentence.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' [{}]: {}",
            self.tool,
            self.api.rules_name(),
            self.message
        )
    }
}

/// What [`check_tools`] found: empty when every tool passes every check. Its `Display` is
/// one line per problem, readable in a failed test's output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Every problem, by tool in registration order, then by provider.
    pub problems: Vec<Problem>,
}

impl CheckReport {
    /// Whether no tool breaks any rule.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems of one tool.
    pub fn for_tool<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'a Problem> + 'a {
        self.problems.iter().filter(move |p| p.tool == tool)
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.problems.is_empty() {
            return f.write_str("every tool passes every provider's rules");
        }
        let n = self.problems.len();
        writeln!(
            f,
            "{n} tool problem{} found:",
            if n == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            writeln!(f, "  {problem}")?;
        }
        Ok(())
    }
}

/// Checks every tool of the registry against every provider's rules; see the module docs.
pub fn check_tools(registry: &ToolRegistry) -> CheckReport {
    ToolChecks::all().run(registry)
}

/// Panics with the report of [`check_tools`] unless every tool passes.
#[track_caller]
pub fn assert_tools_portable(registry: &ToolRegistry) {
    ToolChecks::all().assert(registry);
}

/// The environment variable that makes the golden assertions write their files instead of
/// comparing: `UPDATE_GOLDEN=1 cargo test`.
pub const UPDATE_GOLDEN: &str = "UPDATE_GOLDEN";

/// Compares `actual` with the file at `path` byte for byte, or writes the file when the
/// environment has `UPDATE_GOLDEN=1`. A relative path is taken from the current directory,
/// which is the package's root when `cargo test` runs a test.
///
/// # Panics
///
/// When the file differs or cannot be read: the message names the first differing line and
/// how to update the file.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("tool-core-golden-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let file = dir.join("greeting.txt");
/// std::fs::write(&file, "hello\n").unwrap();
/// tool_core::testing::assert_golden(&file, "hello\n");
/// assert!(std::panic::catch_unwind(|| tool_core::testing::assert_golden(&file, "bye\n")).is_err());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[track_caller]
pub fn assert_golden(path: impl AsRef<Path>, actual: &str) {
    let path = path.as_ref();
    if std::env::var_os(UPDATE_GOLDEN).is_some_and(|v| v == "1") {
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(path, actual));
        if let Err(e) = written {
            panic!("cannot write golden file {}: {e}", path.display());
        }
        return;
    }
    let expected = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => panic!(
            "cannot read golden file {}: {e}; run the test with {UPDATE_GOLDEN}=1 to create it",
            path.display()
        ),
    };
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "the length".to_owned(), |i| format!("line {}", i + 1));
        panic!(
            "{} differs from the output (first difference: {line}); if the change is intended, \
             rerun with {UPDATE_GOLDEN}=1 and review the diff\n--- output ---\n{actual}",
            path.display()
        );
    }
}

/// Pins the registry's XML-mode prompt ([`ToolRegistry::tools_prompt`]) in a golden file.
#[track_caller]
pub fn assert_prompt_golden(registry: &ToolRegistry, path: impl AsRef<Path>) {
    assert_golden(path, &registry.tools_prompt());
}

/// Pins the registry's definitions (name, description, canonical schema, annotations; pretty
/// JSON) in a golden file.
#[track_caller]
pub fn assert_definitions_golden(registry: &ToolRegistry, path: impl AsRef<Path>) {
    assert_golden(path, &definitions_json(registry));
}

/// The definitions as pretty JSON with a final newline: the golden file's contents.
///
/// ```
/// assert_eq!(tool_core::testing::definitions_json(&tool_core::ToolRegistry::new()), "[]\n");
/// ```
pub fn definitions_json(registry: &ToolRegistry) -> String {
    // Serializing definitions cannot fail: names, descriptions, JSON values and booleans.
    let mut text = serde_json::to_string_pretty(registry.definitions()).unwrap_or_default();
    text.push('\n');
    text
}
