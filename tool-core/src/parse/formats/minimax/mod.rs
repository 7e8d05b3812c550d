//! MiniMax-M2: `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>`.
//!
//! Values are untyped text, converted with the tool's input schema; one block may hold
//! several `<invoke>`s, each a call. The tool block is the MiniMax-M2 template's `# Tools`
//! section with one `<tool>` per function, a result goes back as `<response>...</response>`
//! (the template puts it in a `tool` message).

mod body;
mod format;

pub(crate) use body::MiniMaxBody;
pub(crate) use format::MiniMax;
