//! One message of a prompt or of a sampling request: who says it and what. Prompts
//! (`catalog`) return them and tools send them to the client's model (`peer`), so they sit
//! below both.

/// Who says a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The assistant (a primed answer).
    Assistant,
}

/// One message of a rendered prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub text: String,
}

impl PromptMessage {
    /// A user message.
    pub fn user(text: impl Into<String>) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            text: text.into(),
        }
    }

    /// An assistant message.
    pub fn assistant(text: impl Into<String>) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            text: text.into(),
        }
    }
}
