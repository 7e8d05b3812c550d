//! What the HTTP adapters share: driving one request through the transport and a
//! [`Decoder`], and the neutral <-> provider turn conversions.

mod common;
mod drive;

pub(crate) use common::{
    calls_and_responses, count, endpoint_methods, finished_turn, native_of, neutral_turn,
    push_reasoning, push_turn_items, reasoning_methods, unknown_tool_search,
};
pub(crate) use drive::{incomplete, malformed, parse_data, run, Decoder};
