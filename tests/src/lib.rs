//! Integration tests for tool-core live in `tests/`.
