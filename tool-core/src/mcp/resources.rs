//! `resources/*` over MCP: paged resource and template listings, reads as
//! `ReadResourceResult`s, and the paging every list shares.

use rmcp::model::{ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult};
use rmcp::ErrorData;
use serde_json::{json, Value};

use super::peers::Shared;
use crate::catalog::{CatalogError, ResourceBody, ResourceContents, APP_MIME_TYPE};
use crate::response::codec::base64_encode;

/// One page of `items` from `cursor` (an offset we handed out as `nextCursor`).
pub(super) fn page<T: Clone>(
    items: &[T],
    cursor: Option<&str>,
    page_size: usize,
    method: &str,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&start| start <= items.len())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "invalid {method} cursor '{cursor}': pass back the nextCursor of the previous page, or none for the first page"
                    ),
                    None,
                )
            })?,
    };
    let end = start.saturating_add(page_size).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((items[start..end].to_vec(), next))
}

/// A catalog error as the JSON-RPC error MCP asks for.
pub(super) fn error_data(error: &CatalogError) -> ErrorData {
    let message = error.to_string();
    match error {
        CatalogError::UnknownResource { uri } => {
            ErrorData::resource_not_found(message, Some(json!({ "uri": uri })))
        }
        CatalogError::Failed { .. } => ErrorData::internal_error(message, None),
        _ => ErrorData::invalid_params(message, None),
    }
}

pub(super) fn list(
    shared: &Shared,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListResourcesResult, ErrorData> {
    let served = shared.served();
    let (items, next) = page(&served.resources, cursor, page_size, "resources/list")?;
    let mut result = ListResourcesResult::with_all_items(items);
    result.next_cursor = next;
    Ok(result)
}

pub(super) fn list_templates(
    shared: &Shared,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListResourceTemplatesResult, ErrorData> {
    let served = shared.served();
    let (items, next) = page(
        &served.templates,
        cursor,
        page_size,
        "resources/templates/list",
    )?;
    let mut result = ListResourceTemplatesResult::with_all_items(items);
    result.next_cursor = next;
    Ok(result)
}

pub(super) async fn read(
    shared: &Shared,
    uri: &str,
    ctx: &crate::CallContext,
) -> Result<ReadResourceResult, ErrorData> {
    let catalog = shared.served().catalog.clone();
    let contents = catalog
        .read_in(uri, ctx)
        .await
        .map_err(|e| error_data(&e))?;
    let mut item = contents_json(&contents);
    // An app's view carries its `_meta.ui` (CSP, permissions) with the contents too, where
    // hosts read it before rendering.
    if contents.mime_type.as_deref() == Some(APP_MIME_TYPE) {
        let ui = catalog
            .fixed_resources()
            .find(|info| info.uri.as_str() == contents.uri)
            .and_then(|info| info.meta.as_ref()?.get("ui"));
        if let Some(ui) = ui {
            item["_meta"] = json!({ "ui": ui });
        }
    }
    let value = json!({ "contents": [item] });
    serde_json::from_value(value).map_err(|e| {
        ErrorData::internal_error(format!("the resource could not be encoded: {e}"), None)
    })
}

fn contents_json(contents: &ResourceContents) -> Value {
    let mut value = json!({ "uri": contents.uri });
    if let Some(mime) = &contents.mime_type {
        value["mimeType"] = json!(mime);
    }
    match &contents.body {
        ResourceBody::Text(text) => value["text"] = json!(text),
        ResourceBody::Blob(bytes) => value["blob"] = json!(base64_encode(bytes)),
    }
    value
}
