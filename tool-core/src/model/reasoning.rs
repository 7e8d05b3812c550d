//! [`Reasoning`]: one provider-neutral way to ask a model to think before it answers.

use serde::{Deserialize, Serialize};

/// How hard a reasoning model should think, in the words the OpenAI APIs use.
///
/// ```
/// use tool_core::model::ReasoningEffort;
/// assert_eq!(ReasoningEffort::High.as_str(), "high");
/// assert_eq!(ReasoningEffort::Low.budget_tokens(), 1024);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReasoningEffort {
    /// As little reasoning as the model allows.
    Minimal,
    /// Quick answers.
    Low,
    /// The providers' usual default.
    Medium,
    /// Thorough reasoning for hard problems.
    High,
}

impl ReasoningEffort {
    /// The name the OpenAI APIs take (`reasoning.effort`, `reasoning_effort`).
    ///
    /// ```
    /// assert_eq!(tool_core::model::ReasoningEffort::Minimal.as_str(), "minimal");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ReasoningEffort::Minimal => "minimal",
            ReasoningEffort::Low => "low",
            ReasoningEffort::Medium => "medium",
            ReasoningEffort::High => "high",
        }
    }

    /// The thinking budget used for APIs that take a token count (Anthropic, Gemini):
    /// 1024 for `Minimal` and `Low` (Anthropic's smallest budget), 4096, 16384.
    ///
    /// ```
    /// use tool_core::model::ReasoningEffort;
    /// assert_eq!(ReasoningEffort::High.budget_tokens(), 16_384);
    /// ```
    pub const fn budget_tokens(self) -> u32 {
        match self {
            ReasoningEffort::Minimal | ReasoningEffort::Low => 1024,
            ReasoningEffort::Medium => 4096,
            ReasoningEffort::High => 16_384,
        }
    }

    /// The effort a token budget stands for, for APIs that take an effort (OpenAI): below
    /// 2048 `Low`, below 8192 `Medium`, else `High`.
    ///
    /// ```
    /// use tool_core::model::ReasoningEffort;
    /// assert_eq!(ReasoningEffort::from_budget(8000), ReasoningEffort::Medium);
    /// ```
    pub const fn from_budget(tokens: u32) -> Self {
        if tokens < 2048 {
            ReasoningEffort::Low
        } else if tokens < 8192 {
            ReasoningEffort::Medium
        } else {
            ReasoningEffort::High
        }
    }
}

/// What reasoning to ask for, said once for every API: each HTTP adapter writes it in its own
/// fields.
///
/// | API | written as |
/// |---|---|
/// | OpenAI Responses | `reasoning: {effort, summary: "auto"}` |
/// | OpenAI Chat Completions | `reasoning_effort` |
/// | Anthropic Messages | `thinking: {type: "enabled", budget_tokens}` (`max_tokens` raised above the budget when needed) |
/// | Gemini | `generationConfig.thinkingConfig: {thinkingBudget, includeThoughts: true}` |
///
/// An effort becomes a budget with [`ReasoningEffort::budget_tokens`], a budget an effort with
/// [`ReasoningEffort::from_budget`]. Set it on an adapter (`with_reasoning`) for every request,
/// or on a run ([`RunOptions::reasoning`](crate::runner::RunOptions::reasoning)); the run's
/// wins. What the model thinks arrives as [`ModelEvent::ReasoningDelta`](super::ModelEvent)
/// and in [`ModelTurn::reasoning`](super::ModelTurn::reasoning). Fields not covered here go
/// through [`Endpoint::with_fields`](crate::http::Endpoint::with_fields).
///
/// ```
/// use tool_core::model::{Reasoning, ReasoningEffort};
/// let r = Reasoning::effort(ReasoningEffort::High);
/// assert_eq!((r.effort_level(), r.token_budget()), (ReasoningEffort::High, 16_384));
/// let r = Reasoning::budget(2000);
/// assert_eq!((r.effort_level(), r.token_budget()), (ReasoningEffort::Low, 2000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Reasoning {
    /// The effort, when given as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<ReasoningEffort>,
    /// The thinking budget in tokens, when given as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<u32>,
    /// Whether to ask for the reasoning text (a summary on OpenAI Responses, thought summaries
    /// on Gemini). Default on.
    #[serde(default = "yes")]
    pub include_text: bool,
}

fn yes() -> bool {
    true
}

impl Reasoning {
    /// Reasoning at this effort.
    ///
    /// ```
    /// use tool_core::model::{Reasoning, ReasoningEffort};
    /// assert_eq!(Reasoning::effort(ReasoningEffort::Low).effort, Some(ReasoningEffort::Low));
    /// ```
    pub const fn effort(effort: ReasoningEffort) -> Self {
        Reasoning {
            effort: Some(effort),
            budget_tokens: None,
            include_text: true,
        }
    }

    /// Reasoning with this many thinking tokens.
    ///
    /// ```
    /// assert_eq!(tool_core::model::Reasoning::budget(4000).budget_tokens, Some(4000));
    /// ```
    pub const fn budget(tokens: u32) -> Self {
        Reasoning {
            effort: None,
            budget_tokens: Some(tokens),
            include_text: true,
        }
    }

    /// Does not ask for the reasoning text (no summary, no thought parts); the model still
    /// reasons.
    ///
    /// ```
    /// use tool_core::model::{Reasoning, ReasoningEffort};
    /// assert!(!Reasoning::effort(ReasoningEffort::High).without_text().include_text);
    /// ```
    pub const fn without_text(mut self) -> Self {
        self.include_text = false;
        self
    }

    /// The effort, given or derived from the budget.
    ///
    /// ```
    /// use tool_core::model::{Reasoning, ReasoningEffort};
    /// assert_eq!(Reasoning::budget(20_000).effort_level(), ReasoningEffort::High);
    /// ```
    pub const fn effort_level(&self) -> ReasoningEffort {
        match (self.effort, self.budget_tokens) {
            (Some(effort), _) => effort,
            (None, Some(tokens)) => ReasoningEffort::from_budget(tokens),
            (None, None) => ReasoningEffort::Medium,
        }
    }

    /// The budget in tokens, given or derived from the effort.
    ///
    /// ```
    /// use tool_core::model::{Reasoning, ReasoningEffort};
    /// assert_eq!(Reasoning::effort(ReasoningEffort::Medium).token_budget(), 4096);
    /// ```
    pub const fn token_budget(&self) -> u32 {
        match (self.budget_tokens, self.effort) {
            (Some(tokens), _) => tokens,
            (None, Some(effort)) => effort.budget_tokens(),
            (None, None) => ReasoningEffort::Medium.budget_tokens(),
        }
    }
}
