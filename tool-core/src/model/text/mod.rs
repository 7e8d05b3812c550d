//! Tool calling for models that only write text: the tools go into the prompt, the calls are
//! parsed out of the streamed reply, the results go back as a user message. [`XmlMode`] uses
//! the `<use_tool>` format of seed 000; other text formats would sit next to it.

mod xml;

pub use xml::{XmlMode, XML_PROVIDER};
