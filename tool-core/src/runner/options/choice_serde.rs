// `ToolChoice` lives in the provider layer without serde; the run state spells it
// `"auto" | "required" | "none" | {"tool": name} | {"allowed": {"tools": [..], "mode": ..}}`.
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::provider::{AllowedMode, ToolChoice};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Repr<'a> {
    Auto,
    Required,
    None,
    Tool(std::borrow::Cow<'a, str>),
    Allowed {
        tools: std::borrow::Cow<'a, [String]>,
        #[serde(default)]
        required: bool,
    },
}

pub(crate) fn serialize<S: Serializer>(choice: &ToolChoice, s: S) -> Result<S::Ok, S::Error> {
    match choice {
        ToolChoice::Auto => Repr::Auto,
        ToolChoice::Required => Repr::Required,
        ToolChoice::None => Repr::None,
        ToolChoice::Tool(name) => Repr::Tool(name.as_str().into()),
        ToolChoice::Allowed { tools, mode } => Repr::Allowed {
            tools: tools.as_slice().into(),
            required: *mode == AllowedMode::Required,
        },
    }
    .serialize(s)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ToolChoice, D::Error> {
    Ok(match Repr::deserialize(d)? {
        Repr::Auto => ToolChoice::Auto,
        Repr::Required => ToolChoice::Required,
        Repr::None => ToolChoice::None,
        Repr::Tool(name) => ToolChoice::Tool(name.into_owned()),
        Repr::Allowed { tools, required } => ToolChoice::Allowed {
            tools: tools.into_owned(),
            mode: if required {
                AllowedMode::Required
            } else {
                AllowedMode::Auto
            },
        },
    })
}
