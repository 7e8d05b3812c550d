//! JSON Schemas: one canonical schema per tool, from which every provider dialect is derived.
//!
//! The canonical schema is JSON Schema 2020-12 with `type: object` at the root, `properties`
//! in declaration order, `required` listing the parameters that are neither `Option` nor
//! defaulted, `additionalProperties: false`, referenced types under `$defs`, and no `$schema`
//! or `title` at the root.

mod canonical;

pub use canonical::canonical_schema;
