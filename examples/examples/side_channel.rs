//! A side channel: a tool that does nothing but carry structured data the model
//! produced to the UI. The model gets a short confirmation; the UI gets an event.
//!
//! `cargo run --example side_channel`

use tool_core::{tools, Tool, ToolCall};

#[tool_core::tool_type]
pub struct Card {
    /// Template id.
    id: String,
    title: String,
    description: String,
    /// Relevance from 0 to 1.
    score: Option<f64>,
}

/// Shows clickable recommendation cards to the user. Call it when you recommend content, and
/// explain your reasons in your reply as well.
#[derive(Tool)]
#[tool_def(
    event = "recommendation_cards",
    reply = "The cards are shown to the user."
)]
struct ShowRecommendationCards {
    /// One to five cards, best first.
    cards: Vec<Card>,
}

fn main() {
    let registry = tools![ShowRecommendationCards];
    println!(
        "{}\n",
        serde_json::to_string_pretty(&registry.definitions()[0]).unwrap_or_default()
    );

    let call = ToolCall::new(
        "call_1",
        "show_recommendation_cards",
        r#"{"cards": [{"id": "t1", "title": "Order sync", "description": "Sync orders to the ERP", "score": 0.92},
                      {"id": "t7", "title": "Abandoned carts", "description": "Email reminders"}]}"#,
    );
    let response = registry.call_blocking(&call);
    println!("model reads: {}", response.model_text());
    for event in response.events.iter() {
        println!("UI receives '{}': {}", event.kind, event.data);
    }
}
