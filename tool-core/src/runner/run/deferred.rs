//! The run's side of deferred tools and of the per-turn hook: which tools each request
//! offers, answering `search_tools` itself, and refusing calls of tools the model was not
//! offered.
//!
//! A model without a tool search of its own gets the tools that are not deferred, then the
//! run's `search_tools`, then the deferred tools its searches found, in the order found.
//! Tools are only ever appended, so each request's tools start with the previous request's,
//! byte for byte, and the provider's prompt cache keeps holding.

use std::sync::{Arc, OnceLock};

use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::model::{ModelTurn, NativeSource};
use crate::provider::{anthropic, openai_responses, Api};
use crate::registry::ToolRegistry;
use crate::response::{ToolErrorCode, ToolResponse};
use crate::search::{KeywordIndex, KeywordSearch};

use super::super::error::RunError;
use super::super::options::RunOptions;
use super::super::tool_search::{self, SEARCH_TOOL};
use super::Run;

/// The deferred tools a run may offer (of the offered ones, or of the whole registry), read
/// once per process.
#[derive(Debug)]
pub(super) struct Catalogue {
    tools: Vec<ToolDefinition>,
    /// The built-in ranking's index of `tools`, built at the first search.
    index: OnceLock<KeywordIndex>,
}

impl Catalogue {
    fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.tools.iter().find(|t| t.name == name)
    }
}

impl Run {
    /// Tells the run whether the model searches deferred tools with the provider's own tool
    /// search ([`Model::native_tool_search`](crate::model::Model::native_tool_search)). If
    /// so, every tool is offered, the deferred ones marked for the provider, and a deferred
    /// tool is run once the provider's search has returned it (read from the turns of the
    /// Anthropic and OpenAI Responses adapters). If not (the
    /// default), the run offers its own `search_tools` tool and the deferred tools it has
    /// found. [`Runner`](crate::runner::Runner) sets it from its model; set it yourself when
    /// you drive a [`Run`] by hand.
    ///
    /// ```
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools};
    /// /// Creates an issue in a repository.
    /// #[tool(defer_loading)]
    /// fn create_issue(title: String) -> String { title }
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi, create_issue];
    ///
    /// let mut run = Run::new("Open an issue", RunOptions::new());
    /// let Step::CallModel(request) = run.step(&registry).unwrap() else { panic!() };
    /// let names: Vec<&str> = request.tools.definitions().iter().map(|d| d.name.as_str()).collect();
    /// assert_eq!(names, ["hi", "search_tools"]);
    ///
    /// run.use_native_tool_search(true);
    /// let Step::CallModel(request) = run.step(&registry).unwrap() else { panic!() };
    /// assert!(request.tools.definitions()[1].defer_loading());
    /// ```
    pub fn use_native_tool_search(&mut self, native: bool) {
        if self.native_tool_search != native {
            self.native_tool_search = native;
            self.shaped = None;
        }
    }

    /// The deferred tools found so far, in the order found: by the run's `search_tools`
    /// (offered from the turn after the search on), or by the provider's own tool search
    /// (callable from then on). Stored with the run; a run started from a conversation
    /// ([`Run::with_messages`]) starts with those its provider's searches loaded.
    ///
    /// ```
    /// let run = tool_core::runner::Run::new("Hi", tool_core::runner::RunOptions::new());
    /// assert!(run.loaded_tools().is_empty());
    /// ```
    pub fn loaded_tools(&self) -> &[String] {
        &self.loaded_tools
    }

    /// Gives a restored run the runner's search and per-turn hook (neither is stored).
    pub(crate) fn restore_hooks(&mut self, from: &RunOptions) {
        if self.options.tool_search.is_none() {
            self.options.tool_search = from.tool_search.clone();
        }
        if self.options.prepare_tools.is_none() && from.prepare_tools.is_some() {
            self.options.prepare_tools = from.prepare_tools.clone();
            self.shaped = None;
        }
    }

    /// Forgets what was read from the registry and the options (after they change).
    pub(super) fn forget_tools(&mut self) {
        self.offered = None;
        self.shaped = None;
        self.catalogue = None;
        self.output_tools = None;
    }

    /// The tools the run may offer: the offered ones, or the whole registry.
    fn base<'r>(&'r self, registry: &'r ToolRegistry) -> &'r [ToolDefinition] {
        match &self.offered {
            Some(definitions) => definitions,
            None => registry.definitions(),
        }
    }

    fn catalogue(&mut self, registry: &ToolRegistry) -> Arc<Catalogue> {
        if self.options.offered.is_some() && self.offered.is_none() {
            // A name the registry lacks is reported by the next step; here it offers nothing.
            self.offered = self.offered_definitions(registry).ok();
        }
        if let Some(catalogue) = &self.catalogue {
            return Arc::clone(catalogue);
        }
        let catalogue = Arc::new(Catalogue {
            tools: self
                .base(registry)
                .iter()
                .filter(|t| t.defer_loading())
                .cloned()
                .collect(),
            index: OnceLock::new(),
        });
        self.catalogue = Some(Arc::clone(&catalogue));
        catalogue
    }

    /// Whether the run may offer deferred tools (of the offered ones, or of the registry).
    pub(crate) fn has_deferred_tools(&mut self, registry: &ToolRegistry) -> bool {
        !self.catalogue(registry).tools.is_empty()
    }

    /// Whether the run offers its own `search_tools`: some tools are deferred and the model
    /// has no tool search of its own.
    fn searching(&mut self, registry: &ToolRegistry) -> bool {
        !self.native_tool_search && !self.catalogue(registry).tools.is_empty()
    }

    /// Builds the next request's tools when the run shapes them (its own search, the
    /// per-turn hook); leaves them to the plain rules otherwise.
    pub(super) fn shape_tools(&mut self, registry: &ToolRegistry) -> Result<(), RunError> {
        if self.shaped.is_some() {
            return Ok(());
        }
        let searching = self.searching(registry);
        if !searching && self.options.prepare_tools.is_none() {
            return Ok(());
        }
        let mut tools: Vec<ToolDefinition> = if searching {
            self.searching_tools(registry)?
        } else {
            match (&self.output_tools, &self.offered) {
                (Some(definitions), _) | (None, Some(definitions)) => definitions.clone(),
                (None, None) => registry.definitions().to_vec(),
            }
        };
        if let Some(hook) = &self.options.prepare_tools {
            tools = hook.apply(self.turns.saturating_add(1), tools);
        }
        self.shaped = Some(tools);
        Ok(())
    }

    /// The tools that are not deferred, the final-answer tool if any, `search_tools`, then
    /// the tools found so far. None of them is marked deferred, so no adapter marks it.
    fn searching_tools(
        &mut self,
        registry: &ToolRegistry,
    ) -> Result<Vec<ToolDefinition>, RunError> {
        let catalogue = self.catalogue(registry);
        let base = self.base(registry);
        if base.iter().any(|t| t.name == SEARCH_TOOL) {
            return Err(RunError::ReservedToolName {
                name: SEARCH_TOOL.to_string(),
            });
        }
        let mut tools: Vec<ToolDefinition> = base
            .iter()
            .filter(|t| !t.defer_loading())
            .cloned()
            .collect();
        if let Some(spec) = self.output_tool() {
            tools.push(spec.tool());
        }
        tools.push(tool_search::definition(self.options.tool_search_limit));
        tools.extend(
            self.loaded_tools
                .iter()
                .filter_map(|name| catalogue.get(name))
                .map(|t| t.clone().with_defer_loading(false)),
        );
        Ok(tools)
    }

    /// Answers the calls the run answers itself, one entry per call (`None`: the call goes
    /// on to approval and dispatch): `search_tools`, calls of deferred tools not found yet
    /// (by the run's search, or by the provider's own in this turn or an earlier one), and
    /// calls of tools the per-turn hook left out of the request (`offered`). The tools the
    /// run's search finds are loaded after the whole turn, so they are offered from the next
    /// one.
    pub(super) fn answer_calls(
        &mut self,
        turn: &ModelTurn,
        offered: Option<&[ToolDefinition]>,
        registry: &ToolRegistry,
    ) -> Vec<Option<ToolResponse>> {
        let calls = &turn.calls;
        let searching = self.searching(registry);
        let hooked = self.options.prepare_tools.is_some();
        // The provider searched: what it loaded is read from the turn, when the run can read
        // that provider's searches.
        let provider_searched = self.native_tool_search
            && !self.catalogue(registry).tools.is_empty()
            && provider_loaded(turn, &mut self.loaded_tools);
        if !searching && !hooked && !provider_searched {
            return vec![None; calls.len()];
        }
        let catalogue = self.catalogue(registry);
        let output = self.output_tool().map(|spec| spec.format.name.clone());
        let mut found: Vec<String> = Vec::new();
        let answers = calls
            .iter()
            .map(|call| {
                let left_out = hooked
                    && Some(&call.name) != output.as_ref()
                    && offered.is_some_and(|tools| tools.iter().all(|t| t.name != call.name));
                if left_out {
                    return Some(not_offered(&call.name));
                }
                if !searching && !provider_searched {
                    return None;
                }
                if searching && call.name == SEARCH_TOOL {
                    return Some(self.search(&catalogue, call, &mut found));
                }
                let deferred = catalogue.get(&call.name).is_some();
                (deferred && !self.loaded_tools.contains(&call.name))
                    .then(|| tool_search::not_loaded(&call.name))
            })
            .collect();
        for name in found {
            if !self.loaded_tools.contains(&name) {
                self.loaded_tools.push(name);
            }
        }
        answers
    }

    /// Runs one `search_tools` call over the deferred tools; notes the tools found.
    fn search(
        &self,
        catalogue: &Catalogue,
        call: &ToolCall,
        found: &mut Vec<String>,
    ) -> ToolResponse {
        let max = self.options.tool_search_limit;
        let (query, limit) = match tool_search::read_arguments(&call.arguments, max) {
            Ok(read) => read,
            Err(response) => return response,
        };
        let matches = match &self.options.tool_search {
            Some(search) => search.0.search(&catalogue.tools, &query, limit),
            None => catalogue
                .index
                .get_or_init(|| KeywordSearch::new().index(&catalogue.tools))
                .search(&query, limit),
        };
        let matches = match matches {
            Ok(matches) => matches,
            Err(error) => return tool_search::failed(error.to_string()),
        };
        // A search of the user's may name tools that are not deferred: they are offered
        // already, so only deferred ones count.
        let tools: Vec<&ToolDefinition> = matches
            .iter()
            .filter_map(|m| catalogue.get(m.name()))
            .take(limit)
            .collect();
        found.extend(tools.iter().map(|t| t.name.clone()));
        tool_search::found(&query, &tools)
    }
}

/// Adds to `loaded` the tools the provider's own search loaded in `turn`, each once; false
/// when the turn is not one whose searches the run can read (Anthropic's
/// `tool_search_tool_result` blocks, OpenAI Responses' `tool_search_output` items).
pub(super) fn provider_loaded(turn: &ModelTurn, loaded: &mut Vec<String>) -> bool {
    let Some(native) = &turn.native else {
        return false;
    };
    match native.provider {
        NativeSource::Api(Api::Anthropic) => anthropic::searched_tools(&native.content, loaded),
        NativeSource::Api(Api::OpenAiResponses) => {
            openai_responses::searched_tools(&native.content, loaded)
        }
        _ => return false,
    }
    true
}

/// The answer to a call of a tool the per-turn hook did not offer on this turn.
fn not_offered(name: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::PermissionDenied,
        format!(
            "`{name}` is not available on this turn; use one of the tools offered. Nothing \
             was run."
        ),
    )
}
