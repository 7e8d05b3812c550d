use tool_core::{tool_type, tools, Extension, Tool, ToolCall, ToolContext, ToolHandler};

#[tool_type]
#[derive(Debug, Clone)]
pub struct Card {
    id: String,
    title: String,
}

/// Shows recommendation cards the user can click. Explain the recommendation in your reply too.
#[derive(Tool)]
#[tool_def(event = "recommendation_cards", reply = "The cards are on the user's screen.")]
struct ShowRecommendationCards {
    /// Between one and five cards.
    cards: Vec<Card>,
}

#[derive(Clone)]
struct Prefix(String);

/// Greets someone.
#[derive(Tool)]
#[tool_def(name = "greet", read_only)]
struct Greeter {
    /// Who to greet.
    #[arg(rename = "who")]
    name: String,
    #[arg(default = 1)]
    times: u8,
    prefix: Extension<Prefix>,
}

impl ToolHandler for Greeter {
    type Output = String;
    async fn run(self, ctx: ToolContext<'_>) -> String {
        format!("{}{} x{} ({})", self.prefix.0 .0, self.name, self.times, ctx.call_id())
    }
}

fn main() {
    let registry = tools![ShowRecommendationCards, Greeter].with_extension(Prefix("Hi ".into()));
    let reply = registry.call_blocking(&ToolCall::new(
        "c1",
        "show_recommendation_cards",
        r#"{"cards":[{"id":"a","title":"Dune"}]}"#,
    ));
    assert_eq!(reply.model_text(), "The cards are on the user's screen.");
    assert_eq!(reply.events[0].kind, "recommendation_cards");
    assert_eq!(reply.events[0].data["cards"][0]["title"], "Dune");
    let reply = registry.call_blocking(&ToolCall::new("c2", "greet", r#"{"who":"Ada"}"#));
    assert_eq!(reply.model_text(), "Hi Ada x1 (c2)");
    let schema = &registry.definition("greet").unwrap().input_schema;
    assert!(schema["properties"].get("prefix").is_none());
}
