//! Which parameter types `is_leaf` reads as leaves.

use super::is_leaf;

fn leaf(ty: &str) -> bool {
    is_leaf(&syn::parse_str(ty).expect("a type"))
}

#[test]
fn std_scalars_strings_and_their_options_and_lists_are_leaves() {
    for ty in [
        "i64",
        "u32",
        "f64",
        "bool",
        "char",
        "String",
        "Option<u32>",
        "Vec<String>",
        "Option<Vec<f32>>",
    ] {
        assert!(leaf(ty), "{ty}");
    }
}

#[test]
fn anything_that_might_hold_an_object_is_not() {
    for ty in [
        "Filters",
        "Option<Unit>",
        "Vec<Item>",
        "HashMap<String, String>",
        "serde_json::Value",
        "my::String",
        "::std::string::String",
        "Option<Value>",
        "(i64, i64)",
        "[u8; 4]",
    ] {
        assert!(!leaf(ty), "{ty}");
    }
}
