//! Llama 3.1 / 3.2 / 3.3 JSON: `{"name": NAME, "parameters": {...}}` written as the reply (or
//! after `<|python_tag|>`), several calls separated by `;`.
//!
//! The tool block is the one vLLM's `tool_chat_template_llama3.1_json.jinja` puts in the system
//! message; a result goes back as the `ipython` message's `{"output": ...}`.

mod call;
mod format;

pub(crate) use call::LlamaCall;
pub(crate) use format::Llama;
