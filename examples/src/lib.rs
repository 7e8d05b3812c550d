//! Runnable examples: `cargo run --example NAME`.

pub mod demo;
