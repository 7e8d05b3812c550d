//! DeepSeek V3.2 and V4: calls in DSML, an XML-like markup of special tokens.
//!
//! ```text
//! <｜DSML｜function_calls>                         (V4: <｜DSML｜tool_calls>)
//! <｜DSML｜invoke name="get_weather">
//! <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//! <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
//! </｜DSML｜invoke>
//! </｜DSML｜function_calls>
//! ```
//!
//! A value with `string="true"` is the string as written; with `string="false"` it is JSON,
//! typed by the tool's schema. One block holds any number of invokes, each a call, and an
//! invoke counts only once its `</｜DSML｜invoke>` is there. The two generations differ in the
//! block's name, their tool block and how results come back, each as the model's own encoder
//! (`encoding_dsv32.py`, `encoding_dsv4.py`) writes them.

mod body;
mod format;
mod read;

pub(crate) use body::DsmlBody;
pub(crate) use format::{DeepSeekV32, DeepSeekV4};
