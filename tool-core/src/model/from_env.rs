//! [`from_env`]: a model picked from the usual environment variables.

use std::fmt;

use super::{Anthropic, Gemini, GeminiInteractions, Model, OpenAiChat, OpenAiResponses};

/// A model chosen from the environment, with a sentence saying which one and why (never the
/// key), for the application to print.
///
/// ```
/// let found = tool_core::model::from_vars(|name| (name == "GEMINI_API_KEY").then(|| "k".to_string())).unwrap();
/// assert_eq!(found.to_string(), "Gemini API at https://generativelanguage.googleapis.com/v1beta, model gemini-2.5-flash (GEMINI_API_KEY is set)");
/// ```
#[non_exhaustive]
pub struct EnvModel {
    /// The adapter, ready to use.
    pub model: Box<dyn Model>,
    /// Which API, base URL and model, and which variable chose them.
    pub description: String,
}

impl fmt::Display for EnvModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

impl fmt::Debug for EnvModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvModel")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// The model the environment names, or `None` when it names none.
///
/// In this order (the first that is set wins; empty values count as unset):
///
/// | Variables | Adapter | Model (default) |
/// |---|---|---|
/// | `OPENAI_BASE_URL` and/or `OPENAI_API_KEY` | [`OpenAiChat`], or [`OpenAiResponses`] when `OPENAI_API=responses` | `OPENAI_MODEL` (`gpt-4o-mini`) |
/// | `ANTHROPIC_API_KEY` (`ANTHROPIC_BASE_URL` optional) | [`Anthropic`] | `ANTHROPIC_MODEL` (`claude-sonnet-4-5`) |
/// | `GEMINI_API_KEY` (`GEMINI_BASE_URL` optional) | [`Gemini`], or [`GeminiInteractions`] when `GEMINI_API=interactions` | `GEMINI_MODEL` (`gemini-2.5-flash`) |
///
/// `GEMINI_BASE_URL` includes the API version: `…/v1beta` for `generateContent`, `…/v1` for
/// the Interactions API (the defaults).
///
/// `OPENAI_BASE_URL` alone (no key) is a local OpenAI-compatible server such as vLLM,
/// llama.cpp's server or Ollama (`http://localhost:11434/v1`).
///
/// ```
/// match tool_core::model::from_env() {
///     Some(found) => println!("Using {found}"),
///     None => println!("No endpoint in the environment; using the scripted model"),
/// }
/// ```
pub fn from_env() -> Option<EnvModel> {
    from_vars(|name| std::env::var(name).ok())
}

/// [`from_env`] reading variables through `get` (for tests and configuration files).
///
/// ```
/// use tool_core::model::from_vars;
/// let vars = |name: &str| match name {
///     "OPENAI_BASE_URL" => Some("http://localhost:11434/v1".to_string()),
///     "OPENAI_MODEL" => Some("qwen2.5".to_string()),
///     _ => None,
/// };
/// let found = from_vars(vars).unwrap();
/// assert_eq!(found.description, "OpenAI Chat Completions at http://localhost:11434/v1, model qwen2.5 (OPENAI_BASE_URL is set)");
/// assert!(from_vars(|_| None).is_none());
///
/// let interactions = |name: &str| match name {
///     "GEMINI_API_KEY" => Some("k".to_string()),
///     "GEMINI_API" => Some("interactions".to_string()),
///     _ => None,
/// };
/// assert_eq!(from_vars(interactions).unwrap().description, "Gemini Interactions API at https://generativelanguage.googleapis.com/v1, model gemini-2.5-flash (GEMINI_API_KEY is set)");
/// ```
pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Option<EnvModel> {
    let var = |name: &str| get(name).filter(|v| !v.trim().is_empty());
    let model_or = |name: &str, default: &str| var(name).unwrap_or_else(|| default.to_string());

    let openai_base = var("OPENAI_BASE_URL");
    let openai_key = var("OPENAI_API_KEY");
    if openai_base.is_some() || openai_key.is_some() {
        let base = openai_base
            .clone()
            .unwrap_or_else(|| OpenAiChat::DEFAULT_BASE_URL.to_string());
        let model = model_or("OPENAI_MODEL", "gpt-4o-mini");
        let why = if openai_base.is_some() {
            "OPENAI_BASE_URL is set"
        } else {
            "OPENAI_API_KEY is set"
        };
        let responses = var("OPENAI_API").is_some_and(|api| api.eq_ignore_ascii_case("responses"));
        let (api, adapter): (&str, Box<dyn Model>) = if responses {
            let mut adapter =
                OpenAiResponses::new(&model).with_endpoint(|e| e.with_base_url(&base));
            if let Some(key) = &openai_key {
                adapter = adapter.with_api_key(key);
            }
            ("OpenAI Responses", Box::new(adapter))
        } else {
            let mut adapter = OpenAiChat::new(&model).with_endpoint(|e| e.with_base_url(&base));
            if let Some(key) = &openai_key {
                adapter = adapter.with_api_key(key);
            }
            ("OpenAI Chat Completions", Box::new(adapter))
        };
        return Some(EnvModel {
            model: adapter,
            description: format!("{api} at {base}, model {model} ({why})"),
        });
    }
    if let Some(key) = var("ANTHROPIC_API_KEY") {
        let base =
            var("ANTHROPIC_BASE_URL").unwrap_or_else(|| Anthropic::DEFAULT_BASE_URL.to_string());
        let model = model_or("ANTHROPIC_MODEL", "claude-sonnet-4-5");
        let adapter = Anthropic::new(&model)
            .with_api_key(key)
            .with_endpoint(|e| e.with_base_url(&base));
        return Some(EnvModel {
            model: Box::new(adapter),
            description: format!(
                "Anthropic Messages at {base}, model {model} (ANTHROPIC_API_KEY is set)"
            ),
        });
    }
    if let Some(key) = var("GEMINI_API_KEY") {
        let model = model_or("GEMINI_MODEL", "gemini-2.5-flash");
        let interactions =
            var("GEMINI_API").is_some_and(|api| api.eq_ignore_ascii_case("interactions"));
        let (api, base, adapter): (&str, String, Box<dyn Model>) = if interactions {
            let base = var("GEMINI_BASE_URL")
                .unwrap_or_else(|| GeminiInteractions::DEFAULT_BASE_URL.to_string());
            let adapter = GeminiInteractions::new(&model)
                .with_api_key(key)
                .with_endpoint(|e| e.with_base_url(&base));
            ("Gemini Interactions API", base, Box::new(adapter))
        } else {
            let base =
                var("GEMINI_BASE_URL").unwrap_or_else(|| Gemini::DEFAULT_BASE_URL.to_string());
            let adapter = Gemini::new(&model)
                .with_api_key(key)
                .with_endpoint(|e| e.with_base_url(&base));
            ("Gemini API", base, Box::new(adapter))
        };
        return Some(EnvModel {
            model: adapter,
            description: format!("{api} at {base}, model {model} (GEMINI_API_KEY is set)"),
        });
    }
    None
}
