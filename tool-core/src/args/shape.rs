//! The schema a nested-key check walks, compiled once per tool: references resolved to node
//! indices and every keyword read once, because looking keywords up in the schema JSON on every
//! call cost more than decoding the arguments.

use serde_json::{Map, Value};

/// Following `$ref`s and combinators without entering the value: a bound so a schema whose
/// references loop on themselves cannot loop the check (schemars never writes one).
pub(super) const MAX_HOPS: u32 = 32;

/// What a node says about keys not in its `properties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Additional {
    /// Nothing, `true`, or a form the check does not read (`patternProperties` present).
    Open,
    /// `additionalProperties: false`.
    Closed,
    /// `additionalProperties: {schema}`: a map whose values are checked.
    Schema(usize),
}

/// JSON types a node allows, as a bit set (`ANY` when the node says nothing).
pub(super) const OBJECT: u8 = 1;
pub(super) const ARRAY: u8 = 2;
pub(super) const STRING: u8 = 4;
pub(super) const BOOLEAN: u8 = 8;
pub(super) const NULL: u8 = 16;
pub(super) const NUMBER: u8 = 32;
pub(super) const INTEGER: u8 = 64;
const ANY: u8 = u8::MAX;

/// A node's limits on a value's size (`minimum`, `maxLength`, `minItems`, ...). Only the
/// schema check reads them; most nodes have none, so they live behind one pointer.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Bounds {
    pub(super) minimum: Option<f64>,
    pub(super) maximum: Option<f64>,
    pub(super) exclusive_minimum: Option<f64>,
    pub(super) exclusive_maximum: Option<f64>,
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    pub(super) min_items: Option<u64>,
    pub(super) max_items: Option<u64>,
}

impl Bounds {
    fn read(map: &Map<String, Value>) -> Option<Box<Bounds>> {
        let number = |key: &str| map.get(key).and_then(Value::as_f64);
        let count = |key: &str| map.get(key).and_then(Value::as_u64);
        let bounds = Bounds {
            minimum: number("minimum"),
            maximum: number("maximum"),
            exclusive_minimum: number("exclusiveMinimum"),
            exclusive_maximum: number("exclusiveMaximum"),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
        };
        (bounds != Bounds::default()).then(|| Box::new(bounds))
    }
}

/// One schema node with its keywords read once. A `$ref` becomes an `all_of` part.
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) all_of: Vec<usize>,
    pub(super) unions: Vec<Vec<usize>>,
    /// In schema order (the order the valid names are listed in).
    pub(super) properties: Vec<(String, usize)>,
    pub(super) additional: Additional,
    /// `properties` beside a combinator: a record merged with a flattened enum.
    pub(super) spread: bool,
    pub(super) items: Option<usize>,
    pub(super) prefix_items: Vec<usize>,
    pub(super) types: u8,
    pub(super) constant: Option<Value>,
    pub(super) one_of_values: Option<Vec<Value>>,
    pub(super) required: Vec<String>,
    /// Size limits, read only by the schema check.
    pub(super) bounds: Option<Box<Bounds>>,
    /// Whether a closed object can be reached from here; when not, the value is skipped.
    pub(super) checks: bool,
}

impl Node {
    fn any() -> Self {
        Node {
            all_of: Vec::new(),
            unions: Vec::new(),
            properties: Vec::new(),
            additional: Additional::Open,
            spread: false,
            items: None,
            prefix_items: Vec::new(),
            types: ANY,
            constant: None,
            one_of_values: None,
            required: Vec::new(),
            bounds: None,
            checks: false,
        }
    }

    pub(super) fn property(&self, key: &str) -> Option<usize> {
        self.properties
            .iter()
            .find_map(|(k, sub)| (k == key).then_some(*sub))
    }

    /// `type`, `const` and `enum` allow `value`.
    pub(super) fn allows(&self, value: &Value) -> bool {
        self.type_allows(value) && self.constant_allows(value)
    }

    /// `type` allows `value`.
    pub(super) fn type_allows(&self, value: &Value) -> bool {
        let ty = match value {
            Value::Object(_) => OBJECT,
            Value::Array(_) => ARRAY,
            Value::String(_) => STRING,
            Value::Bool(_) => BOOLEAN,
            Value::Null => NULL,
            Value::Number(n) => {
                let whole =
                    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
                if whole {
                    NUMBER | INTEGER
                } else {
                    NUMBER
                }
            }
        };
        // A number fits `number`; a whole number fits `integer` too.
        if ty & NUMBER != 0 {
            self.types & (ty & (NUMBER | INTEGER)) != 0
        } else {
            self.types & ty != 0
        }
    }

    pub(super) fn constant_allows(&self, value: &Value) -> bool {
        self.constant.as_ref().is_none_or(|c| c == value)
            && self
                .one_of_values
                .as_ref()
                .is_none_or(|e| e.contains(value))
    }
}

/// Compiles schema JSON into [`Node`]s; each `$defs` entry is compiled once, so recursive
/// types become cycles in the graph.
pub(super) struct Compiler<'s> {
    pub(super) defs: Option<&'s Map<String, Value>>,
    pub(super) nodes: Vec<Node>,
    pub(super) by_def: Vec<(&'s str, usize)>,
}

impl<'s> Compiler<'s> {
    pub(super) fn compile(&mut self, schema: &'s Value) -> usize {
        let at = self.nodes.len();
        self.nodes.push(Node::any());
        let Some(map) = schema.as_object() else {
            // The schema `false` allows no value at all.
            if schema == &Value::Bool(false) {
                if let Some(slot) = self.nodes.get_mut(at) {
                    slot.types = 0;
                }
            }
            return at;
        };
        let mut node = Node::any();
        let reference = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(crate::schema::ref_target);
        if let Some(name) = reference {
            if let Some(target) = self.def(name) {
                node.all_of.push(target);
            }
        }
        for part in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let part = self.compile(part);
            node.all_of.push(part);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                let branches = branches.iter().map(|b| self.compile(b)).collect();
                node.unions.push(branches);
            }
        }
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            for (key, sub) in properties {
                let sub = self.compile(sub);
                node.properties.push((key.clone(), sub));
            }
        }
        // Keys matched by a pattern are not "additional"; without a regex engine such an
        // object is treated as open (schemars writes no patterns unless asked to).
        node.additional = match map.get("additionalProperties") {
            _ if map.contains_key("patternProperties") => Additional::Open,
            Some(Value::Bool(false)) => Additional::Closed,
            Some(sub @ Value::Object(_)) => Additional::Schema(self.compile(sub)),
            _ => Additional::Open,
        };
        node.spread = map.contains_key("properties")
            && ["allOf", "anyOf", "oneOf"]
                .iter()
                .any(|k| map.contains_key(*k));
        if let Some(items) = map.get("items").filter(|i| i.is_object()) {
            node.items = Some(self.compile(items));
        }
        for item in map
            .get("prefixItems")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let item = self.compile(item);
            node.prefix_items.push(item);
        }
        node.types = match map.get("type") {
            Some(Value::String(t)) => type_bit(t),
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(Value::as_str)
                .fold(0, |bits, t| bits | type_bit(t)),
            _ => ANY,
        };
        // OpenAPI's spelling of "or null" (some hand-written definitions use it).
        if map.get("nullable") == Some(&Value::Bool(true)) && node.types != ANY {
            node.types |= NULL;
        }
        node.bounds = Bounds::read(map);
        node.constant = map.get("const").cloned();
        node.one_of_values = map.get("enum").and_then(Value::as_array).cloned();
        node.required = map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect();
        if let Some(slot) = self.nodes.get_mut(at) {
            *slot = node;
        }
        at
    }

    fn def(&mut self, name: &'s str) -> Option<usize> {
        if let Some(&(_, at)) = self.by_def.iter().find(|(n, _)| *n == name) {
            return Some(at);
        }
        let (name, schema) = self.defs?.get_key_value(name)?;
        // Registered before compiling, so a reference to itself finds it.
        let at = self.nodes.len();
        self.by_def.push((name.as_str(), at));
        let compiled = self.compile(schema);
        debug_assert_eq!(compiled, at);
        Some(at)
    }
}

fn type_bit(ty: &str) -> u8 {
    match ty {
        "object" => OBJECT,
        "array" => ARRAY,
        "string" => STRING,
        "boolean" => BOOLEAN,
        "null" => NULL,
        "number" => NUMBER | INTEGER,
        "integer" => INTEGER,
        _ => 0,
    }
}

/// Compiles `schema` (its root is node 0) and marks which nodes lead to a closed object.
pub(super) fn compile(schema: &Value) -> Vec<Node> {
    let mut compiler = Compiler {
        defs: schema.get("$defs").and_then(Value::as_object),
        nodes: Vec::new(),
        by_def: Vec::new(),
    };
    compiler.compile(schema);
    let mut nodes = compiler.nodes;
    // A fixed point, since recursive types make the graph cyclic: each pass marks the nodes
    // whose children are marked, until none changes.
    loop {
        let mut changed = false;
        for at in 0..nodes.len() {
            let Some(node) = nodes.get(at) else { break };
            if node.checks {
                continue;
            }
            let marked = |i: &usize| nodes.get(*i).is_some_and(|n| n.checks);
            let checks = node.additional == Additional::Closed
                || matches!(node.additional, Additional::Schema(i) if marked(&i))
                || node.all_of.iter().any(marked)
                || node.unions.iter().flatten().any(marked)
                || node.properties.iter().any(|(_, i)| marked(i))
                || node.items.as_ref().is_some_and(marked)
                || node.prefix_items.iter().any(marked);
            if checks {
                if let Some(node) = nodes.get_mut(at) {
                    node.checks = true;
                }
                changed = true;
            }
        }
        if !changed {
            return nodes;
        }
    }
}

impl Node {
    /// A node that only refers to another (`{"$ref": …, "description": …}`).
    fn is_reference(&self) -> bool {
        self.all_of.len() == 1
            && self.unions.is_empty()
            && self.properties.is_empty()
            && self.additional == Additional::Open
            && self.items.is_none()
            && self.prefix_items.is_empty()
    }

    /// A node that allows `null` and nothing else.
    fn is_null(&self) -> bool {
        self.types == NULL && self.all_of.is_empty() && self.unions.is_empty()
    }

    /// Whether checking a value against this node needs the whole value at once: a union must
    /// see the value to pick a branch, and a spread record's keys are split over several parts.
    pub(super) fn needs_whole_value(&self) -> bool {
        !self.all_of.is_empty() || !self.unions.is_empty() || self.spread
    }
}

/// The node that decides for `at`: references followed, and `anyOf [T, null]` (an `Option`)
/// taken as `T` (a `null` has no keys to check).
pub(super) fn effective(nodes: &[Node], mut at: usize) -> usize {
    for _ in 0..MAX_HOPS {
        let Some(node) = nodes.get(at) else {
            return at;
        };
        if node.is_reference() {
            at = node.all_of.first().copied().unwrap_or(at);
            continue;
        }
        let optional = match node.unions.as_slice() {
            [branches] if node.all_of.is_empty() && node.properties.is_empty() && !node.spread => {
                match branches.as_slice() {
                    [a, b] if nodes.get(*b).is_some_and(Node::is_null) => Some(*a),
                    [a, b] if nodes.get(*a).is_some_and(Node::is_null) => Some(*b),
                    _ => None,
                }
            }
            _ => None,
        };
        match optional {
            Some(inner) => at = inner,
            None => return at,
        }
    }
    at
}
