//! The workspace's conformance fakes (`tests/tests/web/conformance/`), included by path so
//! code mode runs against the same renderings of each API's responses as every runner
//! feature does.

#[allow(dead_code, unused_imports)]
#[path = "../../../../tests/tests/web/conformance/apis.rs"]
pub mod apis;
#[allow(dead_code, unused_imports)]
#[path = "../../../../tests/tests/web/conformance/interactions.rs"]
pub mod interactions;
#[allow(dead_code, unused_imports)]
#[path = "../../../../tests/tests/web/conformance/sse.rs"]
pub mod sse;
#[allow(dead_code, unused_imports)]
#[path = "../../../../tests/tests/web/conformance/whole.rs"]
pub mod whole;

pub use apis::{Api, Fake, Turn};
