//! [`CodeMode`]: turns a registry into the code tool (alone, or joined to the registry's
//! own tools), with the limits and approval its programs run under.

use std::sync::Arc;

use tool_core::runner::ApprovalPolicy;
use tool_core::{ApprovalHook, Caller, RegistryError, Shape, ToolRegistry};

use crate::declarations;
use crate::host::{Gate, CALLER_KIND};
use crate::limits::CodeLimits;
use crate::tool::CodeTool;

/// Code mode for a registry: the model gets one code tool whose programs call the
/// registry's tools, instead of (or besides) the tools themselves. Give the runner
/// [`CodeMode::registry`] (only the code tool) or [`CodeMode::join`] (the tools and the
/// code tool); to the model the code tool is one more tool, so this works on every API and
/// in text mode.
///
/// A program may call the tools that allow calls from programs
/// ([`AllowedCallers::Program`](tool_core::AllowedCallers::Program) or `Any`, e.g.
/// `#[tool(allowed_callers = "any")]`). Each call goes through the registry's dispatch as a
/// call made by a program, and the run's approval policy ([`CodeMode::approval`]) applies.
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::Runner;
/// use tool_core::{tool, tools, ToolCall};
/// use tool_core_code::CodeMode;
///
/// /// Adds two integers.
/// #[tool(allowed_callers = "any")]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let program = r#"let sum = 0; for (let i = 1; i <= 10; i++) sum = await tools.add({a: sum, b: i}); return sum;"#;
/// let model = ScriptedModel::new([
///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "run_code", serde_json::json!({"code": program}).to_string())]),
///     ModelTurn::text("55"),
/// ]);
/// let runner = Runner::new(model, CodeMode::new(tools![add]).registry());
/// let result = tool_core::block_on(runner.run("Add 1 to 10")).unwrap();
/// assert_eq!(result.final_text().unwrap(), "55");
/// assert_eq!(runner.model().requests()[0].tools, ["run_code"]);
/// ```
#[derive(Clone)]
pub struct CodeMode {
    registry: Arc<ToolRegistry>,
    name: String,
    limits: CodeLimits,
    gate: Gate,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode")
            .field("tools", &self.registry.names().collect::<Vec<_>>())
            .field("name", &self.name)
            .field("limits", &self.limits)
            .field("approval", &self.gate.policy)
            .finish()
    }
}

impl CodeMode {
    /// Code mode over `registry`'s tools, with the code tool named `run_code`, the default
    /// [`CodeLimits`], and the runner's default approval policy
    /// ([`ApprovalPolicy::Destructive`]) with no approver.
    ///
    /// ```
    /// let mode = tool_core_code::CodeMode::new(tool_core::ToolRegistry::new());
    /// assert_eq!(mode.registry().names().collect::<Vec<_>>(), ["run_code"]);
    /// ```
    pub fn new(registry: impl Into<Arc<ToolRegistry>>) -> Self {
        CodeMode {
            registry: registry.into(),
            name: "run_code".into(),
            limits: CodeLimits::default(),
            gate: Gate {
                policy: ApprovalPolicy::Destructive,
                approver: None,
            },
        }
    }

    /// Names the code tool.
    ///
    /// ```
    /// let mode = tool_core_code::CodeMode::new(tool_core::ToolRegistry::new()).name("execute");
    /// assert_eq!(mode.registry().names().collect::<Vec<_>>(), ["execute"]);
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Sets what one program may spend.
    ///
    /// ```
    /// use tool_core::Tool;
    /// use tool_core_code::{CodeLimits, CodeMode};
    /// let mode = CodeMode::new(tool_core::ToolRegistry::new()).limits(CodeLimits::default().max_calls(5));
    /// assert!(mode.tool().description().contains("5 tool calls"));
    /// ```
    pub fn limits(mut self, limits: CodeLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Which calls need approval: pass the run's policy (`RunOptions::approval`, by default
    /// [`ApprovalPolicy::Destructive`]) so a program's calls follow the same rule as the
    /// model's. A run pauses for a person when a model's call needs approval; a program
    /// cannot pause, so its calls that need approval go to the approver
    /// ([`CodeMode::approver`]) and, without one, are refused (`PERMISSION_DENIED`) and
    /// never run.
    ///
    /// ```
    /// use tool_core::runner::{ApprovalPolicy, RunOptions};
    /// let options = RunOptions::new().approval(ApprovalPolicy::Tools(vec!["refund".into()]));
    /// let mode = tool_core_code::CodeMode::new(tool_core::ToolRegistry::new()).approval(options.approval.clone());
    /// # let _ = mode;
    /// ```
    pub fn approval(mut self, policy: ApprovalPolicy) -> Self {
        self.gate.policy = policy;
        self
    }

    /// Who approves a program's calls that the policy says need approval. The hook is
    /// asked while the program runs and its answer is final: approved, the call runs;
    /// denied, the program's call throws `PERMISSION_DENIED` with the reason, and the tool
    /// never runs.
    ///
    /// ```
    /// use tool_core::{tool, tools, Approval, ToolCall, ToolDefinition};
    /// use tool_core_code::CodeMode;
    ///
    /// /// Deletes a file.
    /// #[tool(destructive, allowed_callers = "any")]
    /// fn delete_file(path: String) -> String { format!("deleted {path}") }
    ///
    /// let mode = CodeMode::new(tools![delete_file]).approver(|call: &ToolCall, _: &ToolDefinition| {
    ///     if call.arguments.contains("/tmp/") { Approval::Approved } else { Approval::Denied("only /tmp".into()) }
    /// });
    /// let registry = mode.registry();
    /// let program = r#"{"code": "try { await tools.delete_file({path: '/etc/x'}); } catch (e) { return e.code; }"}"#;
    /// let reply = tool_core::block_on(registry.call(&ToolCall::new("1", "run_code", program)));
    /// assert_eq!(reply.model_text(), "PERMISSION_DENIED");
    /// ```
    pub fn approver(mut self, hook: impl ApprovalHook + 'static) -> Self {
        self.gate.approver = Some(Arc::new(hook));
        self
    }

    /// The code tool.
    ///
    /// ```
    /// use tool_core::Tool;
    /// let tool = tool_core_code::CodeMode::new(tool_core::ToolRegistry::new()).tool();
    /// assert_eq!(tool.input_schema()["required"], serde_json::json!(["code"]));
    /// ```
    pub fn tool(&self) -> CodeTool {
        let program = Caller::program(CALLER_KIND, "");
        let callable: Vec<_> = self
            .registry
            .definitions()
            .iter()
            .filter(|d| d.allowed_callers().allows(&program))
            .collect();
        CodeTool {
            name: self.name.clone(),
            description: declarations::describe(&callable, &self.limits),
            registry: self.registry.clone(),
            callable: callable.iter().map(|d| d.name.clone()).collect(),
            limits: self.limits,
            gate: self.gate.clone(),
        }
    }

    /// A registry holding only the code tool: the model calls the tools through programs
    /// alone.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Adds two integers.
    /// #[tool(allowed_callers = "any")]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let registry = tool_core_code::CodeMode::new(tools![add]).registry();
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["run_code"]);
    /// ```
    pub fn registry(&self) -> ToolRegistry {
        let mut registry = ToolRegistry::new();
        // An empty registry takes any valid name; an invalid one leaves it empty, which the
        // check below reports.
        if let Err(error) = registry.register(self.tool()) {
            debug_assert!(false, "{error}");
        }
        registry
    }

    /// The registry's tools and the code tool after them: the model may call a tool
    /// directly or write a program. The tools keep their retry policies, breakers and
    /// scopes; set limits, timeouts and an approval hook on the returned registry as on any
    /// other. An error when the code tool's name is taken or invalid.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Adds two integers.
    /// #[tool(allowed_callers = "any")]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let registry = tool_core_code::CodeMode::new(tools![add]).join().unwrap();
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["add", "run_code"]);
    /// ```
    pub fn join(&self) -> Result<ToolRegistry, RegistryError> {
        let mut registry = ToolRegistry::new().merge(&self.registry, Shape::new())?;
        registry.register(self.tool())?;
        Ok(registry)
    }
}
