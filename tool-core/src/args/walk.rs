//! The nested-key check over a value read whole (one matched against union branches), and
//! what a check finds: the unknown key and its path.

use std::borrow::Cow;

use serde_json::Value;

use super::shape::{Additional, Node, MAX_HOPS};

/// A compiled schema (the root is node 0), walked over values read whole.
pub(super) struct Nodes<'n>(pub(super) &'n [Node]);

impl Nodes<'_> {
    /// The first key in `value` that node `at` does not allow. `hops` counts schema steps
    /// taken without entering the value. `merged` says the node is one part of an object
    /// whose keys are spread over several schemas (a `#[serde(flatten)]` enum: `properties`
    /// beside `oneOf`); no part alone knows all the keys, so none rejects one (the canonical
    /// schema leaves such objects open too), but the values of the keys it knows are checked.
    pub(super) fn unknown(
        &self,
        at: usize,
        value: &Value,
        path: &mut Vec<Segment<'_>>,
        hops: u32,
        merged: bool,
    ) -> Option<Unknown> {
        let node = self.0.get(at)?;
        if hops > MAX_HOPS {
            return None;
        }
        let merged = merged || node.spread;
        for &part in &node.all_of {
            if let Some(found) = self.unknown(part, value, path, hops + 1, merged) {
                return Some(found);
            }
        }
        for branches in &node.unions {
            if let Some(found) = self.unknown_in_union(branches, value, path, hops, merged) {
                return Some(found);
            }
        }
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    path.push(Segment::Key(Cow::Owned(key.clone())));
                    let found = match node.property(key).or(match node.additional {
                        Additional::Schema(sub) => Some(sub),
                        _ => None,
                    }) {
                        Some(sub) => self.unknown(sub, item, path, 0, false),
                        None if node.additional == Additional::Closed && !merged => Some(Unknown {
                            path: render(path),
                            key: key.clone(),
                            valid: node.properties.iter().map(|(k, _)| k.clone()).collect(),
                        }),
                        None => None,
                    };
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let Some(sub) = node.prefix_items.get(i).copied().or(node.items) else {
                        continue;
                    };
                    path.push(Segment::Index(i));
                    let found = self.unknown(sub, item, path, 0, false);
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// A value meets one of several branches: it is fine if any branch that fits it (by type,
    /// tag and required keys) has no unknown key; otherwise the first fitting branch's
    /// unknown key is reported. A value no branch fits is left to the decoder.
    fn unknown_in_union(
        &self,
        branches: &[usize],
        value: &Value,
        path: &mut Vec<Segment<'_>>,
        hops: u32,
        merged: bool,
    ) -> Option<Unknown> {
        let mut first = None;
        for &branch in branches {
            if !self.fits(branch, value, hops + 1) {
                continue;
            }
            match self.unknown(branch, value, path, hops + 1, merged) {
                None => return None,
                Some(found) => {
                    first.get_or_insert(found);
                }
            }
        }
        first
    }

    /// Whether `value` could be an instance of node `at`, judged by what tells union branches
    /// apart: `type`, `const`/`enum`, required keys and constant-valued (tag) properties.
    pub(super) fn fits(&self, at: usize, value: &Value, hops: u32) -> bool {
        let Some(node) = self.0.get(at) else {
            return true;
        };
        if hops > MAX_HOPS {
            return true;
        }
        if !node
            .all_of
            .iter()
            .all(|&part| self.fits(part, value, hops + 1))
        {
            return false;
        }
        if !node.allows(value) {
            return false;
        }
        let Value::Object(map) = value else {
            return true;
        };
        node.required.iter().all(|k| map.contains_key(k))
            && node.properties.iter().all(|(k, sub)| match map.get(k) {
                Some(v) => self.0.get(*sub).is_none_or(|sub| sub.constant_allows(v)),
                None => true,
            })
    }
}

/// An unknown key: its full path (`opts.verbos`), the key, and the names its object takes.
pub(super) struct Unknown {
    pub(super) path: String,
    pub(super) key: String,
    pub(super) valid: Vec<String>,
}

/// One step of the path to a value: a key (borrowed from the text where it has no escapes) or
/// an index.
pub(super) enum Segment<'a> {
    Key(Cow<'a, str>),
    Index(usize),
}

pub(super) fn render(path: &[Segment<'_>]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}
