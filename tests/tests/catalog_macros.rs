//! `#[resource]` and `#[prompt]` misuse, each pinned by a checked `.stderr`, and the shapes
//! that must compile and run. (The `compile_errors` test runs these too; this one runs only
//! them, for a quick loop while working on the catalog macros.)

#[test]
fn catalog_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/resource_*.rs");
    t.compile_fail("ui/fail/prompt_*.rs");
    t.pass("ui/pass/catalog_items.rs");
}
