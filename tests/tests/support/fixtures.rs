//! The tool set every dialect golden test renders: one tool per schema feature the issue lists.

#![allow(dead_code)]

use std::collections::HashMap;

use tool_core::{tool, tool_type, tools, ToolRegistry};

/// Temperature unit.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// How results are ordered.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    /// Most relevant first.
    Relevance,
    /// Newest first.
    Newest,
}

/// A postal address.
#[tool_type]
#[derive(Debug)]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// City name.
    pub city: String,
    /// Postal code, if known.
    pub zip: Option<String>,
}

/// A drawing instruction.
#[tool_type]
#[derive(Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A circle around a center.
    Circle {
        /// Radius in pixels.
        radius: f64,
    },
    /// An axis-aligned rectangle.
    Rect {
        /// Width in pixels.
        width: f64,
        /// Height in pixels.
        height: f64,
    },
}

/// A node of a category tree.
#[tool_type]
#[derive(Debug)]
pub struct Category {
    /// Category name.
    pub name: String,
    /// Sub-categories.
    pub children: Vec<Category>,
}

/// Current weather for a location.
#[tool(read_only, open_world)]
pub fn get_weather(
    /// City and country, e.g. "Paris, France".
    location: String,
    /// Unit of the temperature; the location's usual unit when absent.
    unit: Option<Unit>,
) -> String {
    format!("{location}: 15 degrees {unit:?}")
}

/// Searches the catalogue.
#[tool(read_only, idempotent)]
pub fn search(
    /// Words to look for.
    query: String,
    /// How many results to return.
    #[arg(default = 10)]
    limit: u32,
    /// Result order.
    order: SortOrder,
    /// Only items cheaper than this, in euros.
    max_price: Option<f64>,
    /// Also search archived items.
    include_archived: bool,
) -> String {
    format!("{query} {limit} {order:?} {max_price:?} {include_archived}")
}

/// Ships a parcel to an address.
#[tool(destructive)]
pub fn ship_parcel(
    /// Where to send it.
    to: Address,
    /// Parcel labels.
    labels: Vec<String>,
    /// Weight in grams.
    weight_g: i64,
) -> String {
    format!("{} {} {labels:?} {weight_g}", to.street, to.city)
}

/// Draws shapes on the canvas.
#[tool]
pub fn draw(
    /// Shapes to draw, in order.
    shapes: Vec<Shape>,
) -> String {
    format!("{} shapes", shapes.len())
}

/// Stores metadata on a document.
#[tool(idempotent)]
pub fn set_metadata(
    /// Document id.
    doc_id: String,
    /// Key/value pairs to set.
    metadata: HashMap<String, String>,
) -> String {
    format!("{doc_id}: {}", metadata.len())
}

/// Creates a category tree.
#[tool]
pub fn create_categories(
    /// The root of the tree.
    root: Category,
) -> String {
    root.name
}

/// Returns the server time.
#[tool(read_only)]
pub fn server_time() -> String {
    "2026-01-01T00:00:00Z".to_string()
}

/// The fixture registry, in a fixed order.
pub fn registry() -> ToolRegistry {
    tools![
        get_weather,
        search,
        ship_parcel,
        draw,
        set_metadata,
        create_categories,
        server_time
    ]
}
