//! Runnable examples: `cargo run --example NAME`.
