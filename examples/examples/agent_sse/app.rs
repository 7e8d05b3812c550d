//! The agent_sse application: tools, the scripted model, and the axum router. Shared by the
//! example's `main.rs` and the loopback test in `tests/tests/web/agent_sse.rs`.
//!
//! The flow: the user's message goes into the agent loop; the model's text streams to
//! the page as it arrives; `search_templates` sends its hits to the page as cards through the
//! side channel (`ToolEvent`) while the model reads a summary; the model then picks three and
//! calls `show_recommendation_cards`, a tool that only forwards its arguments to the page.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use futures_util::StreamExt;
use tool_core::model::{Model, ModelEvent, ModelRequest, ModelStream, ModelTurn, ScriptedModel};
use tool_core::runner::{RunEvent, Runner};
use tool_core::{tool, tools, CancelFlag, ToolCall, ToolEvent, ToolRegistry, ToolResponse};

/// One template card.
#[tool_core::tool_type]
#[derive(Debug, Clone)]
pub struct Card {
    /// Template title.
    pub title: String,
    /// Why it fits, in one sentence.
    pub reason: String,
}

/// Searches the template library; the page shows the hits as cards.
#[tool(read_only)]
pub fn search_templates(
    /// What the user wants to make.
    query: String,
) -> ToolResponse {
    let hits = [
        "Balloon Bash",
        "Garden Brunch",
        "Neon Night",
        "Retro Arcade",
    ];
    let cards: Vec<serde_json::Value> = hits
        .iter()
        .map(|title| serde_json::json!({"title": title, "query": query}))
        .collect();
    ToolResponse::success(format!(
        "{} templates match '{query}': {}",
        hits.len(),
        hits.join(", ")
    ))
    .with_event(ToolEvent::new(
        "template_cards",
        serde_json::json!({ "cards": cards }),
    ))
}

/// Shows recommendation cards to the user. Call it with the three templates you recommend.
#[tool(read_only)]
pub fn show_recommendation_cards(
    /// The recommended templates, best first.
    cards: Vec<Card>,
) -> ToolResponse {
    let data = serde_json::json!({
        "cards": cards.iter().map(|c| serde_json::json!({"title": c.title, "reason": c.reason})).collect::<Vec<_>>()
    });
    ToolResponse::success(format!(
        "Showed {} recommendation cards to the user.",
        cards.len()
    ))
    .with_event(ToolEvent::new("recommendation_cards", data))
}

/// The tools of the example.
pub fn registry() -> ToolRegistry {
    tools![search_templates, show_recommendation_cards]
}

/// What a tool-calling model answers to a request for party templates.
pub fn scripted_model() -> ScriptedModel {
    ScriptedModel::new([
        ModelTurn::with_calls(
            "Let me look through the templates.",
            vec![ToolCall::new(
                "call_1",
                "search_templates",
                r#"{"query":"birthday party"}"#,
            )],
        ),
        ModelTurn::with_calls(
            "I found four; these three fit a birthday best.",
            vec![ToolCall::new(
                "call_2",
                "show_recommendation_cards",
                r#"{"cards":[{"title":"Balloon Bash","reason":"Bright and playful."},{"title":"Neon Night","reason":"For an evening party."},{"title":"Garden Brunch","reason":"Calm and outdoors."}]}"#,
            )],
        ),
        ModelTurn::text("Pick a card to start editing it."),
    ])
    .with_chunk_size(6)
}

/// Waits `delay` before each text delta, so a person sees the text stream in the page.
#[derive(Clone)]
pub struct Paced<M> {
    pub inner: M,
    pub delay: Duration,
}

impl<M: Model> Model for Paced<M> {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let delay = self.delay;
        Box::pin(self.inner.stream(request).then(move |item| async move {
            if matches!(item, Ok(ModelEvent::TextDelta(_))) && !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            item
        }))
    }
}

/// The query string of `/chat`.
#[derive(serde::Deserialize)]
pub struct Chat {
    /// The user's message.
    pub q: String,
}

/// `GET /` serves the page, `GET /chat?q=...` streams the run's events as SSE: one event per
/// `RunEvent`, named by its `type`, with the event's JSON as data.
pub fn router<M: Model + 'static>(runner: Arc<Runner<M>>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/chat", get(chat::<M>))
        .with_state(runner)
}

async fn page() -> Html<&'static str> {
    Html(include_str!("index.html"))
}

async fn chat<M: Model + 'static>(
    State(runner): State<Arc<Runner<M>>>,
    Query(chat): Query<Chat>,
) -> impl IntoResponse {
    let run = runner.start(chat.q);
    // Dropping the stream (the browser went away) drops the run where it is.
    let events = runner
        .stream_shared(run, CancelFlag::new())
        .map(|event| Ok::<_, Infallible>(sse_event(&event)));
    Sse::new(events).keep_alive(KeepAlive::default())
}

fn sse_event(event: &RunEvent) -> Event {
    let json = serde_json::to_value(event).unwrap_or_else(|e| {
        serde_json::json!({"type": "run_failed", "error": {"kind": "serialize", "message": e.to_string()}})
    });
    let name = json["type"].as_str().unwrap_or("message").to_string();
    Event::default().event(name).data(json.to_string())
}
