//! Changing a registry's tool set after it was built: removing a tool, and the copy a server
//! changes while the old set keeps serving the calls already running on it.

use std::collections::HashMap;
use std::sync::Arc;

use super::ToolRegistry;
use crate::tool::Tool;

impl ToolRegistry {
    /// Removes a tool by name and returns it (`None` if no tool has that name). Its settings
    /// (retry policy, breaker, scopes) go with it; the cached tool lists and prompt are rebuilt
    /// on next use.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// let mut registry = tools![hi, bye];
    /// assert!(registry.remove("hi").is_some());
    /// assert!(registry.remove("hi").is_none());
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["bye"]);
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<Arc<dyn Tool>> {
        let index = self.position(name)?;
        let entry = self.entries.remove(index);
        self.definitions.remove(index);
        self.keys.remove(index);
        // Every later tool moved down by one.
        self.index = self
            .definitions
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name.clone(), i))
            .collect::<HashMap<_, _>>();
        self.definitions_changed();
        Some(entry.tool)
    }

    /// A copy with the same tools, settings and extensions, to be changed while this one goes
    /// on serving. Breakers are shared, so a tool's circuit state survives the change; the
    /// cached lists are not copied (the copy is about to differ).
    #[cfg(any(feature = "mcp", test))]
    pub(crate) fn fork(&self) -> ToolRegistry {
        ToolRegistry {
            entries: self
                .entries
                .iter()
                .map(|e| super::Entry {
                    tool: e.tool.clone(),
                    retry: e.retry,
                    breaker: e.breaker.clone(),
                    scopes: e.scopes.clone(),
                    origin: e.origin.clone(),
                    strict: e.strict,
                    nulls: e.nulls.clone(),
                })
                .collect(),
            definitions: self.definitions.clone(),
            keys: self.keys.clone(),
            index: self.index.clone(),
            extensions: self.extensions.clone(),
            policy: self.policy.clone(),
            prompt_cache: std::sync::OnceLock::new(),
            lists: super::lists::ListCache::default(),
            search_index: std::sync::OnceLock::new(),
            strict: self.strict,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::LINEAR_LOOKUP_MAX;
    use crate::tool::CallFuture;
    use crate::{ToolCall, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse};

    /// A tool named at run time that answers with its name.
    struct Named(String);

    impl crate::Tool for Named {
        fn name(&self) -> &str {
            &self.0
        }
        fn description(&self) -> &str {
            "Returns its own name."
        }
        fn input_schema(&self) -> serde_json::Value {
            serde_json::json!({"type": "object", "properties": {}})
        }
        fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
            CallFuture::ready(ToolResponse::success(self.0.clone()))
        }
    }

    fn registry(size: usize) -> ToolRegistry {
        let mut registry = ToolRegistry::new();
        for i in 0..size {
            registry.register(Named(format!("tool_{i}"))).unwrap();
        }
        registry
    }

    fn answers(registry: &ToolRegistry, name: &str) -> String {
        registry
            .call_blocking(&ToolCall::new("1", name, "{}"))
            .model_text()
            .to_string()
    }

    #[test]
    fn removing_keeps_lookup_right_in_small_and_large_registries() {
        // Small ones compare name keys; large ones look names up in the index.
        for size in [3, LINEAR_LOOKUP_MAX + 8] {
            let mut registry = registry(size);
            assert!(registry.remove("tool_1").is_some());
            assert!(registry.remove("tool_1").is_none());
            assert_eq!(registry.len(), size - 1);
            for i in (0..size).filter(|&i| i != 1) {
                let name = format!("tool_{i}");
                assert_eq!(answers(&registry, &name), name, "size {size}");
            }
            let gone = registry.call_blocking(&ToolCall::new("2", "tool_1", "{}"));
            assert_eq!(gone.error_code(), Some(ToolErrorCode::NotFound));
            // The name is free again.
            registry.register(Named("tool_1".into())).unwrap();
            assert_eq!(answers(&registry, "tool_1"), "tool_1");
        }
    }

    #[test]
    fn a_fork_changes_without_touching_the_original() {
        let original = registry(2);
        let mut fork = original.fork();
        fork.register(Named("extra".into())).unwrap();
        fork.remove("tool_0");
        assert_eq!(original.names().collect::<Vec<_>>(), ["tool_0", "tool_1"]);
        assert_eq!(fork.names().collect::<Vec<_>>(), ["tool_1", "extra"]);
        assert_eq!(answers(&original, "tool_0"), "tool_0");
        assert_eq!(answers(&fork, "extra"), "extra");
    }

    #[test]
    fn a_fork_shares_the_breakers_state() {
        let original = registry(1).with_circuit_breaker(crate::BreakerConfig::default());
        let fork = original.fork();
        let (a, b) = (
            original.entries[0].breaker.as_ref().unwrap(),
            fork.entries[0].breaker.as_ref().unwrap(),
        );
        assert!(std::sync::Arc::ptr_eq(a, b));
    }
}
