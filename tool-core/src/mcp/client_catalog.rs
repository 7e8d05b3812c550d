//! A server's resources and prompts from the client side: list them, read a resource into a
//! [`ResourceContents`], render a prompt into [`PromptMessage`]s (ready to become a run's
//! messages). Nothing here trusts the server: malformed answers are errors, never panics.

use crate::response::codec::base64_decode;
use std::future::Future;

use serde_json::{json, Value};

use super::{McpClient, McpError, McpErrorKind};
use crate::catalog::{
    PromptArgumentInfo, PromptArguments, PromptInfo, PromptMessage, ResourceBody, ResourceContents,
    Role,
};
use crate::metadata::{icons_from, meta_from, Icon, Meta};

/// A resource or resource template a server lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteResource {
    /// The URI, or the URI template when `is_template`.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// Its display name.
    pub title: Option<String>,
    /// What it holds.
    pub description: Option<String>,
    /// Its MIME type, when the server says.
    pub mime_type: Option<String>,
    /// Whether `uri` is a template (from `resources/templates/list`).
    pub is_template: bool,
    /// The icons the server lists for it.
    pub icons: Vec<Icon>,
    /// The `_meta` object the server lists for it.
    pub meta: Option<Meta>,
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

impl McpClient {
    async fn request<T, F>(&self, method: &str, request: F) -> Result<T, McpError>
    where
        F: Future<Output = Result<T, rmcp::service::ServiceError>>,
    {
        let (_, timeout) = self.peer_and_timeout();
        tokio::time::timeout(timeout, request)
            .await
            .map_err(|_| {
                McpError::new(
                    McpErrorKind::Request,
                    format!("no answer to {method} within {} ms", timeout.as_millis()),
                )
            })?
            .map_err(|e| {
                McpError::new(McpErrorKind::Request, format!("{method}: {e}")).with_source(e)
            })
    }

    /// Every resource and resource template the server lists (all pages), fixed ones first.
    pub async fn resources(&self) -> Result<Vec<RemoteResource>, McpError> {
        let (peer, _) = self.peer_and_timeout();
        let fixed = self
            .request("resources/list", peer.list_all_resources())
            .await?;
        let templates = self
            .request(
                "resources/templates/list",
                peer.list_all_resource_templates(),
            )
            .await?;
        let fixed = fixed.iter().map(|r| (serde_json::to_value(r), false));
        let templates = templates.iter().map(|t| (serde_json::to_value(t), true));
        Ok(fixed
            .chain(templates)
            .filter_map(|(value, is_template)| {
                let value = value.ok()?;
                let uri = text(&value, if is_template { "uriTemplate" } else { "uri" })?;
                Some(RemoteResource {
                    name: text(&value, "name").unwrap_or_else(|| uri.clone()),
                    uri,
                    title: text(&value, "title"),
                    description: text(&value, "description"),
                    mime_type: text(&value, "mimeType"),
                    is_template,
                    icons: icons_from(&value),
                    meta: meta_from(&value),
                })
            })
            .collect())
    }

    /// Reads a resource (the first contents the server returns). A 2026-07-28 server that
    /// asks for input first gets the client's answers (see [`McpClient::builder`]).
    pub async fn read_resource(&self, uri: &str) -> Result<ResourceContents, McpError> {
        let params = rmcp::model::ReadResourceRequestParams::new(uri);
        let result = self
            .request("resources/read", self.service().read_resource(params))
            .await?;
        let value = serde_json::to_value(&result).unwrap_or_default();
        let Some(first) = value["contents"].get(0) else {
            return Err(McpError::new(
                McpErrorKind::Request,
                format!("resources/read: the server returned no contents for '{uri}'"),
            ));
        };
        let body = match (text(first, "text"), text(first, "blob")) {
            (Some(text), _) => ResourceBody::Text(text),
            (None, Some(blob)) => ResourceBody::Blob(base64_decode(&blob).ok_or_else(|| {
                McpError::new(
                    McpErrorKind::Request,
                    format!("resources/read: the blob of '{uri}' is not valid base64"),
                )
            })?),
            (None, None) => {
                return Err(McpError::new(
                    McpErrorKind::Request,
                    format!("resources/read: the contents of '{uri}' have neither text nor blob"),
                ))
            }
        };
        Ok(ResourceContents {
            uri: text(first, "uri").unwrap_or_else(|| uri.to_owned()),
            mime_type: text(first, "mimeType"),
            body,
        })
    }

    /// Every prompt the server lists (all pages).
    pub async fn prompts(&self) -> Result<Vec<PromptInfo>, McpError> {
        let (peer, _) = self.peer_and_timeout();
        let prompts = self
            .request("prompts/list", peer.list_all_prompts())
            .await?;
        Ok(prompts
            .iter()
            .filter_map(|p| {
                let value = serde_json::to_value(p).ok()?;
                let arguments = value["arguments"]
                    .as_array()
                    .map(|args| {
                        args.iter()
                            .filter_map(|a| {
                                Some(PromptArgumentInfo {
                                    name: text(a, "name")?,
                                    description: text(a, "description"),
                                    required: a["required"].as_bool().unwrap_or(false),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Some(PromptInfo {
                    name: text(&value, "name")?,
                    title: text(&value, "title"),
                    description: text(&value, "description").unwrap_or_default(),
                    arguments,
                    icons: icons_from(&value),
                    meta: meta_from(&value),
                })
            })
            .collect())
    }

    /// Renders a prompt on the server. Text messages are kept; other content (images,
    /// embedded resources) is described in a short text so the conversation stays whole. A
    /// 2026-07-28 server that asks for input first gets the client's answers (see
    /// [`McpClient::builder`]).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &PromptArguments,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let mut params = rmcp::model::GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            if let Value::Object(map) = json!(arguments) {
                params.arguments = Some(map);
            }
        }
        let result = self
            .request("prompts/get", self.service().get_prompt(params))
            .await?;
        let value = serde_json::to_value(&result).unwrap_or_default();
        Ok(value["messages"]
            .as_array()
            .map(|messages| {
                messages
                    .iter()
                    .map(|m| {
                        let role = match m["role"].as_str() {
                            Some("assistant") => Role::Assistant,
                            _ => Role::User,
                        };
                        let content = &m["content"];
                        let text = text(content, "text").unwrap_or_else(|| {
                            format!(
                                "[{} content]",
                                content["type"].as_str().unwrap_or("unknown")
                            )
                        });
                        PromptMessage { role, text }
                    })
                    .collect()
            })
            .unwrap_or_default())
    }
}
