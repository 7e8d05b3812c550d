//! The code execution container across requests: the container a response names is kept
//! with its turn (so a stored and resumed conversation keeps it too), every later request
//! names the latest one, and a request refused because that container expired becomes an
//! error that says so and what to do.

use serde_json::{Map, Value};

use super::super::http::native_of;
use super::super::{Message, ModelError, ModelStream};
use super::PROVIDER;
use crate::provider::anthropic::container_id;

/// Where a turn's native content keeps the response's `container` object, beside `role` and
/// `content`; taken off when the message is sent back.
pub(super) const CONTAINER_KEY: &str = "container";

/// The assistant message to send back for a turn's native content: the content as it came,
/// without the container kept beside it (the API takes no such field on a message).
pub(super) fn message(native: &Value) -> Value {
    match native {
        Value::Object(map) if map.contains_key(CONTAINER_KEY) => Value::Object(
            map.iter()
                .filter(|(key, _)| key.as_str() != CONTAINER_KEY)
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

/// The id of the latest container a Claude turn of `messages` ran code in: the one the next
/// request names, as the API requires while a program waits for tool results (and to keep
/// the interpreter's state otherwise).
pub(super) fn latest(messages: &[Message]) -> Option<&str> {
    messages.iter().rev().find_map(|message| match message {
        Message::Assistant(turn) => native_of(turn, PROVIDER)
            .and_then(|native| native.get(CONTAINER_KEY))
            .and_then(container_id),
        _ => None,
    })
}

/// The request's stream, with a refusal that says the container `id` it named is gone
/// explained (see [`explain`]).
pub(super) fn watch(stream: ModelStream<'_>, id: String) -> ModelStream<'_> {
    use futures_util::StreamExt;
    Box::pin(stream.map(move |item| item.map_err(|error| explain(error, &id))))
}

/// A refusal (HTTP 4xx) whose message says the container expired, or that it is not found,
/// becomes an error naming the container and what to do; any other error is unchanged.
fn explain(error: ModelError, id: &str) -> ModelError {
    let Some(status) = error.status().filter(|s| (400..500).contains(s)) else {
        return error;
    };
    let said = error.message().to_ascii_lowercase();
    let gone = [
        "expired",
        "not found",
        "no longer",
        "does not exist",
        "not exist",
    ]
    .iter()
    .any(|word| said.contains(word));
    if !said.contains("container") || !gone {
        return error;
    }
    let message = format!(
        "the code execution container '{id}' has expired (Anthropic said: {}). An expired \
         container cannot be reused, so a program that was waiting in it for tool results is \
         gone. To go on, send the conversation from before the assistant turn whose response \
         named this container (every later request names the latest container of the \
         history), so the next request gets a new container; or start a new conversation",
        error.message()
    );
    ModelError::from_status(status, message)
        .with_retryable(false)
        .with_source(error)
}

#[cfg(test)]
mod tests {
    use super::explain;
    use crate::model::{ModelError, ModelErrorKind};

    #[test]
    fn only_a_refusal_about_the_container_is_explained() {
        let expired = ModelError::from_status(400, "Container container_1 has expired");
        let explained = explain(expired, "container_1");
        assert!(explained.message().contains("'container_1' has expired"));
        assert!(!explained.is_retryable());
        for other in [
            ModelError::from_status(400, "max_tokens: must be positive"),
            ModelError::from_status(500, "container not found"),
            ModelError::new(ModelErrorKind::Timeout, "container expired"),
        ] {
            let message = other.message().to_owned();
            assert_eq!(explain(other, "container_1").message(), message);
        }
    }
}
