//! JSON Schemas: one canonical schema per tool, from which every provider dialect is derived.
//!
//! The canonical schema is JSON Schema 2020-12 with `type: object` at the root, `properties`
//! in declaration order, `required` listing the parameters that are neither `Option` nor
//! defaulted, `additionalProperties: false` on the root and on every nested record (a struct or
//! struct-like enum variant; maps, flattened maps and types that opt out stay open), referenced
//! types under `$defs`, and no `$schema` or `title` at the root.
//!
//! Each API's dialect lives with the rest of that API's wire format:
//! [`provider::openai_chat::strict_schema`](crate::provider::openai_chat::strict_schema),
//! [`provider::anthropic::input_schema`](crate::provider::anthropic::input_schema),
//! [`provider::gemini::parameters_schema`](crate::provider::gemini::parameters_schema) and
//! [`provider::gemini::json_schema`](crate::provider::gemini::json_schema),
//! [`provider::mcp::input_schema`](crate::provider::mcp::input_schema). They are pure
//! functions of the canonical schema; each returns a [`DialectSchema`] saying what it changed.

mod canonical;
pub(crate) mod nulls;
mod report;
pub(crate) mod walk;

pub use canonical::canonical_schema;
pub use report::{DialectSchema, SchemaNote};
pub(crate) use walk::ref_target;
