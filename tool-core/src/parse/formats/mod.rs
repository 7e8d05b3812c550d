//! The text formats, one folder each, on shared engines.
//!
//! | [`ToolFormat`] | a call as the model writes it |
//! |---|---|
//! | `UseTool` | `<use_tool><tool_name>NAME</tool_name><arguments>{...}</arguments></use_tool>` |
//! | `Hermes` (Hermes, Qwen2.5, Qwen3) | `<tool_call>{"name": NAME, "arguments": {...}}</tool_call>` |
//! | `Qwen3Coder` (Qwen3-Coder) | `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>` |
//! | `Mistral` | `[TOOL_CALLS] [{"name": NAME, "arguments": {...}}]` or `[TOOL_CALLS]NAME[ARGS]{...}` |
//! | `Harmony` (gpt-oss) | `<\|channel\|>commentary to=functions.NAME <\|constrain\|>json<\|message\|>{...}<\|call\|>` |
//! | `Glm` (GLM-4.5/4.6/4.7) | `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>` |
//! | `MiniMax` (MiniMax-M2) | `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>` |
//! | `KimiK2` (Kimi K2) | `<\|tool_calls_section_begin\|><\|tool_call_begin\|>functions.NAME:0<\|tool_call_argument_begin\|>{...}<\|tool_call_end\|><\|tool_calls_section_end\|>` |
//! | `Llama` (Llama 3.1/3.2/3.3) | `{"name": NAME, "parameters": {...}}`, optionally after `<\|python_tag\|>`, several joined by `;` |
//! | `Pythonic` (Llama 4, and others) | `[NAME(KEY=VALUE, ...), ...]`, optionally in `<\|python_start\|>`...`<\|python_end\|>` |
//! | `DeepSeekV3` (V3, R1, R1-0528) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` ```` ```json {...} ``` ```` `<｜tool▁call▁end｜><｜tool▁calls▁end｜>` |
//! | `DeepSeekV31` (V3.1, V3.2-Exp) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜><｜tool▁calls▁end｜>` |
//! | `DeepSeekV32` (V3.2) | `<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="true">VALUE</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>` |
//! | `DeepSeekV4` (V4) | `<｜DSML｜tool_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="false">3</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>` |
//!
//! Each folder holds a format's parser (or the body its call blocks have), its tool block and
//! result message, and how it writes calls into the history: one implementation of the
//! crate-private `TextFormat` trait (`spec.rs`). `table.rs` maps each [`ToolFormat`] to it.
//! The shared pieces: `core.rs` (offsets, code fences, call indexes, how a call ends),
//! `blocks.rs` (the engine for marker-opened blocks), `bare.rs` (for calls with no marker), `json.rs`, `convert.rs`, `escape.rs`
//! (reading call bodies) and `written.rs` (text the formats write).
//!
//! Harmony also reports [`Event::Reasoning`](crate::parse::Event::Reasoning) (the analysis
//! channel) and [`Event::Markup`](crate::parse::Event::Markup) (its framing tokens); text,
//! reasoning, markup and call spans together rebuild the input. So do the formats whose models
//! think in a leading `<think>...</think>` section (`think.rs`), and any format whose reply
//! starts in reasoning ([`FormatOptions::start_in_reasoning`]).

mod any_parser;
mod bare;
mod blocks;
mod convert;
mod core;
mod escape;
mod json;
mod marked;
mod models;
mod options;
mod parser;
mod results;
mod spec;
mod table;
mod tagged_values;
mod think;
mod tool_format;
mod tools;
mod use_tool_parser;
mod written;

mod deepseek;
mod glm;
mod harmony;
mod hermes;
mod kimi;
mod llama;
mod minimax;
mod mistral;
mod pythonic;
mod qwen3_coder;
pub(crate) mod use_tool;

pub use models::{ModelFormat, UnknownModel};
pub use options::FormatOptions;
pub use parser::{FormatParser, TextCallParser};
pub use results::TextCallResult;
pub use table::ToolFormat;
pub use tools::FormatTools;
pub use use_tool_parser::UseToolParser;
