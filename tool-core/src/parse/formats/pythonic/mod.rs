//! Pythonic calls (Llama 4, and models prompted that way): `[get_weather(city="Paris"),
//! add(a=1, b=2)]`, written as the reply, Llama 4 sometimes wrapping it in
//! `<|python_start|>`...`<|python_end|>`.
//!
//! The tool block is the one vLLM's `tool_chat_template_llama4_pythonic.jinja` writes after
//! the system message; a result goes back as the `ipython` message, a JSON string.

mod call;
mod end;
mod format;
mod literal;

pub(crate) use call::PythonicCall;
pub(crate) use format::Pythonic;
