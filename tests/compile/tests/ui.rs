//! The macro's compile errors, each pinned by a checked `.stderr`, and the signatures that must
//! compile and run. Regenerate stderr files with `TRYBUILD=overwrite` and review every diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
