//! Shared by the dialect and provider tests: the fixture tools, per-dialect rule checkers,
//! and golden-file comparison.

#![allow(dead_code)]

pub mod checkers;
pub mod fixtures;
pub mod forecast;
pub mod golden;
