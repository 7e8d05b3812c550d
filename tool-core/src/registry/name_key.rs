//! [`NameKey`]: a tool name of up to 16 bytes packed into three words, so a small registry
//! finds a tool with integer compares rather than a `memcmp` call per candidate (the
//! hand-written `match name { .. }` a registry competes with compiles to the same compares).

/// The length and two possibly overlapping reads of a name that together cover every byte:
/// for names of at most [`NameKey::EXACT_MAX`] bytes, equal keys mean equal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameKey {
    len: usize,
    head: u64,
    tail: u64,
}

impl NameKey {
    /// Longest name whose key is the name itself.
    pub(crate) const EXACT_MAX: usize = 16;

    /// The key of `name`. For longer names than [`NameKey::EXACT_MAX`] the key leaves out the
    /// middle bytes: equal keys then only say the names may be equal.
    #[inline]
    pub(crate) fn of(name: &str) -> NameKey {
        let bytes = name.as_bytes();
        let len = bytes.len();
        let (head, tail) = if let (Some(head), Some(tail)) =
            (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        {
            (u64::from_le_bytes(*head), u64::from_le_bytes(*tail))
        } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        {
            (
                u64::from(u32::from_le_bytes(*head)),
                u64::from(u32::from_le_bytes(*tail)),
            )
        } else {
            // One to three bytes: the first, the middle and the last cover them all.
            let byte = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
            let head = byte(0) | byte(len / 2) << 8 | byte(len.wrapping_sub(1)) << 16;
            (head, 0)
        };
        NameKey { len, head, tail }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of distinct short names over a small alphabet has distinct keys, and every
    /// name's key is stable.
    #[test]
    fn keys_of_short_names_are_exact() {
        let alphabet = ["a", "b", "_"];
        let mut names = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = names
                .iter()
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(longer);
        }
        names.sort();
        names.dedup();
        for (i, a) in names.iter().enumerate() {
            assert_eq!(NameKey::of(a), NameKey::of(&a.clone()));
            for b in &names[i + 1..] {
                assert_ne!(NameKey::of(a), NameKey::of(b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn names_of_eight_to_sixteen_bytes_differ_in_any_byte() {
        let base = "get_weather_abcd"; // 16 bytes
        for len in 8..=NameKey::EXACT_MAX {
            let name = &base[..len];
            for i in 0..len {
                let mut other = name.as_bytes().to_vec();
                other[i] = b'Z';
                let other = String::from_utf8(other).unwrap();
                assert_ne!(NameKey::of(name), NameKey::of(&other), "{name} vs {other}");
            }
        }
    }

    #[test]
    fn long_names_share_keys_when_only_the_middle_differs() {
        // Why lookups of long names compare the full name.
        let a = "get_weather_forecast_daily";
        let b = "get_weather_fOrecast_daily";
        assert_eq!(NameKey::of(a), NameKey::of(b));
    }

    /// A small registry finds every tool by name, long names whose keys collide included,
    /// and finds no tool for a name that only shares a key.
    #[test]
    fn a_small_registry_finds_tools_whose_keys_collide() {
        use crate::{CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse};

        struct Named(&'static str);
        impl Tool for Named {
            fn name(&self) -> &str {
                self.0
            }
            fn description(&self) -> &str {
                "Answers its name."
            }
            fn input_schema(&self) -> serde_json::Value {
                serde_json::json!({"type": "object", "properties": {}})
            }
            fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
                CallFuture::ready(ToolResponse::success(self.0))
            }
        }

        let names = [
            "get_weather_forecast_daily",
            "get_weather_fOrecast_daily",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdefgh",
            "abcdefghijklmnop",
        ];
        let mut registry = ToolRegistry::new();
        for name in names {
            registry.register(Named(name)).unwrap();
        }
        for name in names {
            let tool = registry
                .get(name)
                .unwrap_or_else(|| panic!("{name} not found"));
            assert_eq!(tool.name(), name);
        }
        assert!(registry.get("get_weather_fOOecast_daily").is_none());
        assert!(registry.get("abcdefghijklmnoq").is_none());
        assert!(registry.get("").is_none());
    }
}
