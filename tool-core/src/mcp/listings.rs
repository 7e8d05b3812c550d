//! What a server lists, converted to rmcp's types once per change, not on every `*/list`
//! request: a catalog's resources, templates and prompts, and the tool set (changeable while
//! serving, see `ServerHandle::update_tools`).

use std::sync::{Arc, PoisonError, RwLock};

use serde_json::{json, Value};

use crate::catalog::{Catalog, PromptInfo, ResourceInfo};
use crate::definition::ToolDefinition;
use crate::metadata::write_metadata;
use crate::output_schema::unwrapped_output;
use crate::registry::ToolRegistry;

/// The catalog with its MCP listings, converted once per change.
pub(super) struct Served {
    pub catalog: Arc<Catalog>,
    pub resources: Arc<[rmcp::model::Resource]>,
    pub templates: Arc<[rmcp::model::ResourceTemplate]>,
    pub prompts: Arc<[rmcp::model::Prompt]>,
}

impl Served {
    pub fn new(catalog: Catalog) -> Served {
        Served {
            resources: catalog.fixed_resources().map(mcp_resource).collect(),
            templates: catalog.templates().map(mcp_template).collect(),
            prompts: catalog.prompts().map(mcp_prompt).collect(),
            catalog: Arc::new(catalog),
        }
    }
}

/// A prompt as listed by `prompts/list`.
fn mcp_prompt(info: &PromptInfo) -> rmcp::model::Prompt {
    let arguments: Vec<Value> = info
        .arguments
        .iter()
        .map(|a| {
            let mut arg = json!({ "name": a.name, "required": a.required });
            if let Some(d) = &a.description {
                arg["description"] = json!(d);
            }
            arg
        })
        .collect();
    let mut value = json!({
        "name": info.name,
        "description": info.description,
        "arguments": arguments,
    });
    if let Some(title) = &info.title {
        value["title"] = json!(title);
    }
    if let Some(object) = value.as_object_mut() {
        write_metadata(object, &info.icons, info.meta.as_ref());
    }
    serde_json::from_value(value).unwrap_or_else(|_| {
        rmcp::model::Prompt::new(info.name.clone(), Some(info.description.clone()), None)
    })
}

fn described(info: &ResourceInfo, mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.insert("name".into(), json!(info.name));
        object.insert("description".into(), json!(info.description));
        if let Some(title) = &info.title {
            object.insert("title".into(), json!(title));
        }
        if let Some(mime) = &info.mime_type {
            object.insert("mimeType".into(), json!(mime));
        }
        write_metadata(object, &info.icons, info.meta.as_ref());
    }
    value
}

/// A fixed-URI resource as listed by `resources/list`.
fn mcp_resource(info: &ResourceInfo) -> rmcp::model::Resource {
    let value = described(info, json!({ "uri": info.uri.as_str() }));
    // The JSON above has exactly the fields rmcp's type reads; should that ever change the
    // resource is still listed by URI and name rather than dropped.
    serde_json::from_value(value)
        .unwrap_or_else(|_| rmcp::model::Resource::new(info.uri.as_str(), info.name.clone()))
}

/// A template as listed by `resources/templates/list`.
fn mcp_template(info: &ResourceInfo) -> rmcp::model::ResourceTemplate {
    let value = described(info, json!({ "uriTemplate": info.uri.as_str() }));
    serde_json::from_value(value).unwrap_or_else(|_| {
        rmcp::model::ResourceTemplate::new(info.uri.as_str(), info.name.clone())
    })
}

/// The registry as served now, with its tools as MCP lists them (in registry order), once
/// per protocol era: a result that is not a JSON object is wrapped as `{"result": ..}` for
/// handshake-era sessions (2025-11-25 wants an object), and goes out as it is, under its own
/// schema, on 2026-07-28 sessions.
pub(crate) struct ServedTools {
    pub registry: Arc<ToolRegistry>,
    /// As 2025-11-25 lists them.
    pub tools: Arc<[rmcp::model::Tool]>,
    /// Whether a tool may run as a task: then the server offers the tasks extension.
    pub offers_tasks: bool,
    /// As 2026-07-28 lists them (the same `Arc` when no tool has a wrapped output).
    pub modern_tools: Arc<[rmcp::model::Tool]>,
    /// The 2026-07-28 output schema of each tool whose schema is a wrapper, by registry
    /// position (empty when none is).
    modern_outputs: Box<[Option<Value>]>,
    /// Whether a tool has an interactive view (the MCP Apps extension is then advertised).
    pub has_apps: bool,
}

impl ServedTools {
    fn new(registry: Arc<ToolRegistry>) -> ServedTools {
        let definitions = registry.definitions();
        let tools: Arc<[rmcp::model::Tool]> = definitions.iter().map(mcp_tool).collect();
        let modern_outputs: Box<[Option<Value>]> = definitions
            .iter()
            .map(|def| def.output_schema.as_deref().and_then(unwrapped_output))
            .collect();
        let (modern_tools, modern_outputs) = if modern_outputs.iter().all(Option::is_none) {
            (tools.clone(), Box::default())
        } else {
            let modern = tools
                .iter()
                .zip(modern_outputs.iter())
                .map(|(tool, output)| {
                    let mut tool = tool.clone();
                    if let Some(Value::Object(schema)) = output {
                        tool.output_schema = Some(Arc::new(schema.clone()));
                    }
                    tool
                })
                .collect();
            (modern, modern_outputs)
        };
        ServedTools {
            offers_tasks: definitions.iter().any(|d| d.task_support().allows_task()),
            has_apps: definitions.iter().any(|def| def.app().is_some()),
            tools,
            modern_tools,
            modern_outputs,
            registry,
        }
    }

    /// The tools as a session of this era lists them.
    pub fn listed(&self, modern: bool) -> &[rmcp::model::Tool] {
        if modern {
            &self.modern_tools
        } else {
            &self.tools
        }
    }

    /// The output schema a result of `definition` answers to on a session of this era.
    pub fn output_schema<'a>(
        &'a self,
        definition: &'a ToolDefinition,
        modern: bool,
    ) -> Option<&'a Value> {
        let modern_output = modern
            .then(|| self.registry.position(&definition.name))
            .flatten()
            .and_then(|i| self.modern_outputs.get(i))
            .and_then(Option::as_ref);
        modern_output.or(definition.output_schema.as_deref())
    }
}

/// The served tool set, shared by the server, its clones (one per HTTP session) and every
/// [`ServerHandle`]. A change swaps the whole set: a call or listing in progress finishes on
/// the set it started with.
pub(crate) struct LiveTools {
    current: RwLock<Arc<ServedTools>>,
}

impl LiveTools {
    pub fn new(registry: Arc<ToolRegistry>) -> LiveTools {
        LiveTools {
            current: RwLock::new(Arc::new(ServedTools::new(registry))),
        }
    }

    /// The tool set as it is now.
    pub fn current(&self) -> Arc<ServedTools> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Applies `change` to a copy of the registry and serves the copy; says whether the
    /// listing changed.
    pub fn update<R>(&self, change: impl FnOnce(&mut ToolRegistry) -> R) -> (R, bool) {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let mut registry = current.registry.fork();
        let result = change(&mut registry);
        let next = ServedTools::new(Arc::new(registry));
        let changed = next.tools != current.tools;
        *current = Arc::new(next);
        (result, changed)
    }
}

/// A definition as an rmcp tool, through the same JSON `provider::mcp` writes.
fn mcp_tool(def: &ToolDefinition) -> rmcp::model::Tool {
    let value = crate::provider::mcp::tool(def);
    // `provider::mcp::tool` writes exactly the fields rmcp's `Tool` reads, with object
    // schemas; should that ever change, the tool is still listed with its name and
    // description rather than dropped.
    serde_json::from_value(value).unwrap_or_else(|_| {
        let mut tool = rmcp::model::Tool::default();
        tool.name = def.name.clone().into();
        tool.description = Some(def.description.clone().into());
        tool
    })
}
