//! [`ModelRequest`]: everything an adapter needs to build one request in its wire format.

use std::fmt;
use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::prompt::{render_tools_section, DEFAULT_TOOLS_HEADER};
use crate::provider::ToolChoice;
use crate::registry::ToolRegistry;

use super::message::Message;
use super::output::JsonOutput;
use super::reasoning::Reasoning;

static AUTO: ToolChoice = ToolChoice::Auto;

/// One request to a model: the instructions, the whole neutral conversation, the tools offered
/// this turn, `tool_choice` and whether parallel calls are allowed. The adapter turns it into
/// its own wire format (system prompt placement, message shapes, tool definitions) on every
/// call; nothing in it is specific to one provider.
///
/// ```
/// use tool_core::model::{Message, ModelRequest, OfferedTools};
/// use tool_core::provider::ToolChoice;
/// use tool_core::{tool, tools};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let messages = [Message::user("What is 2 + 3?")];
/// let choice = ToolChoice::tool("add");
/// let request = ModelRequest::new(&messages, OfferedTools::all(&registry))
///     .with_instructions("You are a calculator.")
///     .with_tool_choice(&choice);
/// assert_eq!(request.tools.definitions()[0].name, "add");
/// assert!(request.parallel_tool_calls);
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ModelRequest<'a> {
    /// The system prompt / developer instructions, if any.
    pub instructions: Option<&'a str>,
    /// The conversation so far, oldest first.
    pub messages: &'a [Message],
    /// The tools the model may call in this turn.
    pub tools: OfferedTools<'a>,
    /// Whether and which tool the model must call.
    pub tool_choice: &'a ToolChoice,
    /// Whether the model may make several calls in one turn.
    pub parallel_tool_calls: bool,
    /// The reasoning to ask for; `None` leaves it to the adapter's own setting.
    pub reasoning: Option<&'a Reasoning>,
    /// The JSON answer to ask for through the provider's native structured output, if any
    /// (adapters that have none ignore it; see [`Model::native_output`](super::Model::native_output)).
    pub output: Option<&'a JsonOutput>,
}

impl<'a> ModelRequest<'a> {
    /// A request with no instructions, `tool_choice` auto and parallel calls allowed.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools};
    /// use tool_core::provider::ToolChoice;
    /// let messages = [Message::user("Hi")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none());
    /// assert_eq!((request.instructions, request.tool_choice), (None, &ToolChoice::Auto));
    /// assert!(request.parallel_tool_calls && request.tools.is_empty());
    /// ```
    pub fn new(messages: &'a [Message], tools: OfferedTools<'a>) -> Self {
        ModelRequest {
            instructions: None,
            messages,
            tools,
            tool_choice: &AUTO,
            parallel_tool_calls: true,
            reasoning: None,
            output: None,
        }
    }

    /// Sets the instructions (system prompt).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("Hi")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief.");
    /// assert_eq!(request.instructions, Some("Be brief."));
    /// ```
    pub fn with_instructions(mut self, instructions: &'a str) -> Self {
        self.instructions = Some(instructions);
        self
    }

    /// Sets `tool_choice`.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools};
    /// use tool_core::provider::ToolChoice;
    /// let messages = [Message::user("Hi")];
    /// let choice = ToolChoice::tool("search");
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_tool_choice(&choice);
    /// assert_eq!(request.tool_choice, &ToolChoice::Tool("search".into()));
    /// ```
    pub fn with_tool_choice(mut self, choice: &'a ToolChoice) -> Self {
        self.tool_choice = choice;
        self
    }

    /// Allows or forbids several calls in one turn.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("Hi")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_parallel_tool_calls(false);
    /// assert!(!request.parallel_tool_calls);
    /// ```
    pub fn with_parallel_tool_calls(mut self, parallel: bool) -> Self {
        self.parallel_tool_calls = parallel;
        self
    }

    /// Asks for reasoning (overrides the adapter's own setting for this request).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools, Reasoning, ReasoningEffort};
    /// let messages = [Message::user("Hi")];
    /// let high = Reasoning::effort(ReasoningEffort::High);
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_reasoning(&high);
    /// assert_eq!(request.reasoning, Some(&high));
    /// ```
    pub fn with_reasoning(mut self, reasoning: &'a Reasoning) -> Self {
        self.reasoning = Some(reasoning);
        self
    }

    /// Asks for a JSON answer of this shape through the provider's native structured output.
    ///
    /// ```
    /// use tool_core::model::{JsonOutput, Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("Which city?")];
    /// let output = JsonOutput::new("city", serde_json::json!({"type": "object"}));
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_output(&output);
    /// assert_eq!(request.output.map(|o| o.name.as_str()), Some("city"));
    /// ```
    pub fn with_output(mut self, output: &'a JsonOutput) -> Self {
        self.output = Some(output);
        self
    }
}

/// The tool definitions offered in one request: a whole registry (whose cached definitions and
/// TOOLS prompt are reused) or any slice of definitions.
///
/// ```
/// use tool_core::model::OfferedTools;
/// use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let registry = tools![hi];
/// let all = OfferedTools::all(&registry);
/// assert!(std::sync::Arc::ptr_eq(&all.tools_prompt(), &registry.tools_prompt()));
/// assert!(OfferedTools::none().is_empty());
/// ```
#[derive(Clone, Copy)]
pub struct OfferedTools<'a> {
    definitions: &'a [ToolDefinition],
    registry: Option<&'a ToolRegistry>,
}

impl<'a> OfferedTools<'a> {
    /// Every tool of `registry`, in registry order.
    ///
    /// ```
    /// use tool_core::{model::OfferedTools, tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert_eq!(OfferedTools::all(&registry).definitions()[0].name, "hi");
    /// ```
    pub fn all(registry: &'a ToolRegistry) -> Self {
        OfferedTools {
            definitions: registry.definitions(),
            registry: Some(registry),
        }
    }

    /// These definitions (a subset of a registry, tools from elsewhere).
    ///
    /// ```
    /// use tool_core::{model::OfferedTools, tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// let registry = tools![hi, bye];
    /// let only_bye = OfferedTools::from_definitions(&registry.definitions()[1..]);
    /// assert_eq!(only_bye.definitions().len(), 1);
    /// assert!(only_bye.tools_prompt().contains("bye"));
    /// ```
    pub fn from_definitions(definitions: &'a [ToolDefinition]) -> Self {
        OfferedTools {
            definitions,
            registry: None,
        }
    }

    /// No tools.
    ///
    /// ```
    /// let tools = tool_core::model::OfferedTools::none();
    /// assert!(tools.is_empty() && tools.definitions().is_empty());
    /// ```
    pub fn none() -> Self {
        OfferedTools::from_definitions(&[])
    }

    /// The definitions, in order.
    ///
    /// ```
    /// use tool_core::{model::OfferedTools, tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert_eq!(OfferedTools::all(&registry).definitions()[0].description, "Says hi.");
    /// ```
    pub fn definitions(&self) -> &'a [ToolDefinition] {
        self.definitions
    }

    /// Whether no tool is offered.
    ///
    /// ```
    /// use tool_core::{model::OfferedTools, tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert!(!OfferedTools::all(&tools![hi]).is_empty());
    /// assert!(OfferedTools::all(&tool_core::ToolRegistry::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.definitions.is_empty()
    }

    /// The XML TOOLS section of these tools (with the default header): the registry's cached
    /// prompt when the whole registry is offered, rendered otherwise.
    ///
    /// ```
    /// use tool_core::{model::OfferedTools, tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let prompt = OfferedTools::all(&registry).tools_prompt();
    /// assert!(prompt.contains("hi") && prompt.contains("Says hi."));
    /// ```
    pub fn tools_prompt(&self) -> Arc<str> {
        match self.registry {
            Some(registry) => registry.tools_prompt(),
            None => Arc::from(render_tools_section(DEFAULT_TOOLS_HEADER, self.definitions)),
        }
    }
}

impl fmt::Debug for OfferedTools<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.definitions.iter().map(|d| &d.name))
            .finish()
    }
}
