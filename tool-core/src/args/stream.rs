//! The nested-key check read straight from the argument text: a `serde` seed that follows the
//! compiled schema, skips every value under which nothing is closed (`IgnoredAny`), and stops
//! at the first unknown key. Only a value matched against union branches is read whole.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::shape::{effective, Additional, Node};
use super::walk::{render, Nodes, Segment, Unknown};

/// The first unknown key in `arguments` (document order), if any. Text that is not JSON has
/// none: decoding has already judged it.
pub(super) fn first_unknown(nodes: &[Node], arguments: &str) -> Option<Unknown> {
    let mut path = Vec::new();
    let mut found = None;
    let mut de = serde_json::Deserializer::from_str(arguments);
    let seed = Check {
        nodes,
        at: 0,
        path: &mut path,
        found: &mut found,
    };
    // The error that stops the walk at an unknown key carries nothing: `found` holds it.
    let _ = seed.deserialize(&mut de);
    found
}

/// Checks one value against node `at`.
struct Check<'c, 'p, 'de> {
    nodes: &'c [Node],
    at: usize,
    path: &'p mut Vec<Segment<'de>>,
    found: &'p mut Option<Unknown>,
}

impl<'de> Check<'_, '_, 'de> {
    /// The seed for a child value, or `None` when nothing under it can be closed.
    fn child(&mut self, at: usize) -> Option<Check<'_, '_, 'de>> {
        let checks = self.nodes.get(at).is_some_and(|n| n.checks);
        checks.then_some(Check {
            nodes: self.nodes,
            at,
            path: &mut *self.path,
            found: &mut *self.found,
        })
    }

    fn stop<E: de::Error>(&mut self, key: Cow<'de, str>, valid: Vec<String>) -> E {
        let name = key.to_string();
        self.path.push(Segment::Key(key));
        *self.found = Some(Unknown {
            path: render(self.path),
            key: name,
            valid,
        });
        E::custom("unknown key")
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_, '_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(mut self, deserializer: D) -> Result<(), D::Error> {
        self.at = effective(self.nodes, self.at);
        let whole = self
            .nodes
            .get(self.at)
            .is_some_and(|n| n.needs_whole_value());
        if !whole {
            return deserializer.deserialize_any(self);
        }
        let value = Value::deserialize(deserializer)?;
        match Nodes(self.nodes).unknown(self.at, &value, self.path, 0, false) {
            None => Ok(()),
            Some(found) => {
                *self.found = Some(found);
                Err(de::Error::custom("unknown key"))
            }
        }
    }
}

impl<'de> Visitor<'de> for Check<'_, '_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        Ok(())
    }
    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let nodes = self.nodes;
        let Some(node) = nodes.get(self.at) else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let mut i = 0;
        loop {
            let sub = node.prefix_items.get(i).copied().or(node.items);
            let more = match sub.and_then(|sub| self.child(sub)) {
                Some(seed) => {
                    seed.path.push(Segment::Index(i));
                    let more = seq.next_element_seed(seed)?.is_some();
                    self.path.pop();
                    more
                }
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let nodes = self.nodes;
        let Some(node) = nodes.get(self.at) else {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let additional = match node.additional {
            Additional::Schema(sub) => Some(sub),
            _ => None,
        };
        while let Some(key) = map.next_key_seed(Key)? {
            match node.property(&key).or(additional) {
                Some(sub) => match self.child(sub) {
                    Some(seed) => {
                        seed.path.push(Segment::Key(key));
                        map.next_value_seed(seed)?;
                        self.path.pop();
                    }
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                },
                None if node.additional == Additional::Closed => {
                    let valid = node.properties.iter().map(|(k, _)| k.clone()).collect();
                    return Err(self.stop(key, valid));
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A map key, borrowed from the text when it holds no escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_string()))
    }

    fn visit_string<E>(self, key: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key))
    }
}
