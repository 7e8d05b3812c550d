//! A catalog as MCP lists it: its resources, templates and prompts converted to rmcp's types
//! once per change of the catalog, not on every `*/list` request.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::catalog::{Catalog, PromptInfo, ResourceInfo};

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
