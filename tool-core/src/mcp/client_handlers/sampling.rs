//! Sampling on the client side: a server's `sampling/createMessage` answered by one of the
//! application's [`Model`]s. The MCP request becomes a [`ModelRequest`] (messages, system
//! prompt; no tools), the model hints choose among the models the application named, and the
//! finished turn becomes a `CreateMessageResult` with the model's name and why it stopped.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::model::{self, Message, Model, ModelRequest, ModelTurn, OfferedTools, StopReason};

/// The models that answer sampling: a default one and any named ones a server may ask for
/// with a model hint.
#[derive(Clone, Default)]
pub(crate) struct Sampling {
    default: Option<Arc<dyn Model>>,
    named: Vec<(String, Arc<dyn Model>)>,
}

impl Sampling {
    pub(crate) fn is_configured(&self) -> bool {
        self.default.is_some() || !self.named.is_empty()
    }

    pub(crate) fn set_default(&mut self, model: Arc<dyn Model>) {
        self.default = Some(model);
    }

    pub(crate) fn add_named(&mut self, name: String, model: Arc<dyn Model>) {
        self.named.push((name, model));
    }

    /// The model for these hints: the first hint (in the server's order of preference) that
    /// is part of a named model's name picks it, as the spec reads hints (substrings, e.g.
    /// `sonnet` for `claude-sonnet-4-5`); otherwise the default, otherwise the first named.
    fn choose(&self, hints: &[&str]) -> Option<(&str, &Arc<dyn Model>)> {
        for hint in hints {
            if let Some((name, model)) = self
                .named
                .iter()
                .find(|(name, _)| !hint.is_empty() && name.contains(hint))
            {
                return Some((name.as_str(), model));
            }
        }
        match &self.default {
            Some(model) => Some(("", model)),
            None => self.named.first().map(|(n, m)| (n.as_str(), m)),
        }
    }

    /// Answers one `sampling/createMessage` (its params as JSON) with its result. The error
    /// is the text of the JSON-RPC error the server gets.
    pub(crate) async fn answer(&self, params: &Value) -> Result<Value, String> {
        let hints: Vec<&str> = params["modelPreferences"]["hints"]
            .as_array()
            .map(|hints| hints.iter().filter_map(|h| h["name"].as_str()).collect())
            .unwrap_or_default();
        let Some((chosen, model)) = self.choose(&hints) else {
            return Err("this client has no model for sampling".to_owned());
        };
        let messages = messages(params)?;
        let mut request = ModelRequest::new(&messages, OfferedTools::none());
        if let Some(system) = params["systemPrompt"].as_str().filter(|s| !s.is_empty()) {
            request = request.with_instructions(system);
        }
        let turn = model::collect_turn(model.stream(request))
            .await
            .map_err(|e| format!("the client's model failed: {e}"))?;
        let stops: Vec<&str> = params["stopSequences"]
            .as_array()
            .map(|s| s.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let name = [model.model_name(), chosen, model.provider_name()]
            .into_iter()
            .find(|n| !n.is_empty())
            .unwrap_or("unknown");
        Ok(result(turn, &stops, name))
    }
}

/// The conversation of a `sampling/createMessage`, as our messages.
fn messages(params: &Value) -> Result<Vec<Message>, String> {
    let Some(list) = params["messages"].as_array() else {
        return Err("sampling/createMessage has no `messages` list".to_owned());
    };
    list.iter()
        .map(|m| {
            let text = content_text(&m["content"]);
            match m["role"].as_str() {
                Some("user") => Ok(Message::user(text)),
                Some("assistant") => Ok(Message::Assistant(ModelTurn::text(text))),
                other => Err(format!(
                    "a sampling message has the role {other:?}; only \"user\" and \"assistant\" are allowed"
                )),
            }
        })
        .collect()
}

/// A message's text: its text blocks; other blocks named, so the conversation stays whole.
fn content_text(content: &Value) -> String {
    match content {
        Value::Array(blocks) => blocks
            .iter()
            .map(content_text)
            .collect::<Vec<_>>()
            .join("\n"),
        block => match block["type"].as_str() {
            Some("text") => block["text"].as_str().unwrap_or_default().to_owned(),
            Some(kind @ ("image" | "audio")) => format!(
                "[{kind}: {}]",
                block["mimeType"].as_str().unwrap_or("unknown type")
            ),
            Some(other) => format!("[{other} content]"),
            None => String::new(),
        },
    }
}

/// The turn as a `CreateMessageResult`: cut at the first stop sequence the text holds.
fn result(turn: ModelTurn, stops: &[&str], model: &str) -> Value {
    let mut text = turn.text;
    let cut = stops
        .iter()
        .filter(|s| !s.is_empty())
        .filter_map(|s| text.find(s))
        .min();
    let stop_reason = match (cut, &turn.stop_reason) {
        (Some(at), _) => {
            text.truncate(at);
            "stopSequence".to_owned()
        }
        (None, StopReason::MaxTokens) => "maxTokens".to_owned(),
        (None, StopReason::Refusal) => "refusal".to_owned(),
        (None, StopReason::Other(reason)) => reason.clone(),
        (None, _) => "endTurn".to_owned(),
    };
    json!({
        "role": "assistant",
        "content": {"type": "text", "text": text},
        "model": model,
        "stopReason": stop_reason,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::ScriptedModel;

    #[test]
    fn hints_pick_a_named_model_and_stop_sequences_cut_the_text() {
        let mut sampling = Sampling::default();
        sampling.set_default(Arc::new(ScriptedModel::new([ModelTurn::text("default")])));
        // A scripted model plays the turn after the assistant messages it is given (one here).
        let sonnet = ScriptedModel::new([
            ModelTurn::text("unused"),
            ModelTurn::text("Roses are red. END more"),
        ]);
        sampling.add_named("claude-sonnet".into(), Arc::new(sonnet.clone()));
        let params = json!({
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "A poem"}},
                {"role": "assistant", "content": {"type": "text", "text": "On what?"}},
                {"role": "user", "content": [{"type": "text", "text": "Roses"}, {"type": "image", "mimeType": "image/png", "data": ""}]}
            ],
            "systemPrompt": "Be brief.",
            "maxTokens": 50,
            "stopSequences": ["END"],
            "modelPreferences": {"hints": [{"name": "gpt"}, {"name": "sonnet"}]}
        });
        let sampled = crate::block_on(sampling.answer(&params)).unwrap();
        assert_eq!(
            sampled,
            json!({"role": "assistant", "content": {"type": "text", "text": "Roses are red. "},
                   "model": "scripted", "stopReason": "stopSequence"})
        );
        let seen = &sonnet.requests()[0];
        assert_eq!(seen.instructions.as_deref(), Some("Be brief."));
        assert_eq!(seen.messages.len(), 3);
        assert_eq!(seen.messages[2], Message::user("Roses\n[image: image/png]"));

        let unhinted = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 5});
        let sampled = crate::block_on(sampling.answer(&unhinted)).unwrap();
        assert_eq!(sampled["content"]["text"], "default");
        assert_eq!(sampled["stopReason"], "endTurn");

        let bad =
            json!({"messages": [{"role": "system", "content": {"type": "text", "text": "x"}}]});
        assert!(crate::block_on(sampling.answer(&bad))
            .unwrap_err()
            .contains("role"));
        assert!(crate::block_on(Sampling::default().answer(&unhinted)).is_err());
    }
}
