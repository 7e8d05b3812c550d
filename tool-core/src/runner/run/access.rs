//! Read access to a run's state, and the few settings a caller may change mid-run.

use crate::model::{Message, Usage};
use crate::provider::ToolChoice;
use crate::runner::options::RunOptions;

use super::{Phase, Run, RunOutcome};

impl Run {
    /// The conversation so far.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelTurn};
    /// use tool_core::runner::{Run, RunOptions};
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.record_turn(ModelTurn::text("Hi!"), &tool_core::ToolRegistry::new()).unwrap();
    /// assert_eq!(run.messages()[1], Message::Assistant(ModelTurn::text("Hi!")));
    /// ```
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The run's options.
    ///
    /// ```
    /// use tool_core::runner::{Run, RunOptions};
    /// let run = Run::new("Hello", RunOptions::new().max_turns(3));
    /// assert_eq!(run.options().max_turns, 3);
    /// ```
    pub fn options(&self) -> &RunOptions {
        &self.options
    }

    /// Changes the options between steps, e.g. to offer other tools from the next turn on
    /// (the per-turn part of [`CallOptions`](crate::CallOptions)). The `tool_choice` of the
    /// next request is [`Run::tool_choice`]; set it with [`Run::set_tool_choice`].
    ///
    /// ```
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// let registry = tools![hi, bye];
    /// let mut run = Run::new("x", RunOptions::new().offer(["hi"]));
    /// run.options_mut().offered = Some(vec!["bye".into()]);
    /// let Step::CallModel(request) = run.step(&registry).unwrap() else { panic!() };
    /// assert_eq!(request.tools.definitions()[0].name, "bye");
    /// ```
    pub fn options_mut(&mut self) -> &mut RunOptions {
        // The offered definitions are looked up again at the next step.
        self.forget_tools();
        &mut self.options
    }

    /// Sets the `tool_choice` of the next request.
    ///
    /// ```
    /// use tool_core::provider::ToolChoice;
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// let registry = tool_core::ToolRegistry::new();
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.set_tool_choice(ToolChoice::None);
    /// assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(r) if *r.tool_choice == ToolChoice::None));
    /// ```
    pub fn set_tool_choice(&mut self, choice: ToolChoice) {
        self.tool_choice = choice;
    }

    /// Model turns taken so far.
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions};
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.record_turn(ModelTurn::text("Hi!"), &tool_core::ToolRegistry::new()).unwrap();
    /// assert_eq!(run.turns(), 1);
    /// ```
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Tokens used so far, summed over turns.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, Usage};
    /// use tool_core::runner::{Run, RunOptions};
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// let turn = ModelTurn { usage: Some(Usage::new(10, 2)), ..ModelTurn::text("Hi!") };
    /// run.record_turn(turn, &tool_core::ToolRegistry::new()).unwrap();
    /// assert_eq!(run.usage(), Usage::new(10, 2));
    /// ```
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// The `tool_choice` the next request will carry.
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::provider::ToolChoice;
    /// use tool_core::runner::{Run, RunOptions};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let mut run = Run::new("Hello", RunOptions::new().tool_choice(ToolChoice::Required));
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "hi", "{}")]), &registry).unwrap();
    /// assert_eq!(run.tool_choice(), &ToolChoice::Auto); // reset after a forced turn
    /// ```
    pub fn tool_choice(&self) -> &ToolChoice {
        &self.tool_choice
    }

    /// How the run ended, once it has.
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, RunOutcome};
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// assert_eq!(run.outcome(), None);
    /// run.record_turn(ModelTurn::text("Hi!"), &tool_core::ToolRegistry::new()).unwrap();
    /// assert_eq!(run.outcome(), Some(&RunOutcome::Finished { text: "Hi!".into() }));
    /// ```
    pub fn outcome(&self) -> Option<&RunOutcome> {
        match &self.phase {
            Phase::Done(outcome) => Some(outcome),
            _ => None,
        }
    }
}
