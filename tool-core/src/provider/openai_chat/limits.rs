//! Counting what OpenAI strict mode limits: total properties, nesting depth, enum values.

use serde_json::Value;

#[derive(Default)]
pub(crate) struct Limits {
    pub properties: usize,
    pub depth: usize,
    pub enum_values: usize,
}

impl Limits {
    /// Counts over the schema as written (`$defs` once each): recursion through `$ref` is
    /// allowed by OpenAI and does not count as unbounded depth.
    pub fn walk(&mut self, value: &Value, depth: usize) {
        match value {
            Value::Object(map) => {
                let mut depth = depth;
                if let Some(Value::Object(props)) = map.get("properties") {
                    self.properties += props.len();
                    depth += 1;
                    self.depth = self.depth.max(depth);
                }
                if let Some(Value::Array(values)) = map.get("enum") {
                    self.enum_values += values.len();
                }
                for (k, v) in map {
                    let next = if k == "$defs" { 0 } else { depth };
                    self.walk(v, next);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v, depth)),
            _ => {}
        }
    }
}
