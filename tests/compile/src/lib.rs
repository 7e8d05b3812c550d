//! Compile-time checks of `#[tool]` and its siblings: see `tests/ui.rs`.
