//! JSON Schemas: one canonical schema per tool, from which every provider dialect is derived.
//!
//! The canonical schema is JSON Schema 2020-12 with `type: object` at the root, `properties`
//! in declaration order, `required` listing the parameters that are neither `Option` nor
//! defaulted, `additionalProperties: false` on the root and on every nested record (a struct or
//! struct-like enum variant; maps, flattened maps and types that opt out stay open), referenced
//! types under `$defs`, and no `$schema` or `title` at the root.
//!
//! The dialect transforms ([`openai_strict`], [`anthropic_input_schema`],
//! [`gemini_parameters`], [`gemini_parameters_json_schema`], [`mcp_input_schema`]) are pure
//! functions of the canonical schema; each returns a [`DialectSchema`] saying what it changed.

mod anthropic;
mod canonical;
mod gemini;
mod mcp;
mod names;
mod openai;
mod openai_limits;
mod report;
mod walk;

pub use anthropic::anthropic_input_schema;
pub use canonical::canonical_schema;
pub use gemini::{
    gemini_format_allowed, gemini_parameters, gemini_parameters_json_schema,
    GEMINI_RECURSION_LIMIT, GEMINI_SCHEMA_KEYS,
};
pub use mcp::mcp_input_schema;
pub use names::{check_definition, Dialect, OPENAI_MAX_DESCRIPTION};
pub use openai::{
    openai_strict, OPENAI_MAX_ENUM_VALUES, OPENAI_MAX_NESTING, OPENAI_MAX_PROPERTIES,
    OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS,
};
pub use report::{DialectSchema, SchemaNote};
pub(crate) use walk::ref_target;
