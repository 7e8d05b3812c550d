//! DeepSeek V3, R1 and R1-0528 (`<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` and a fenced
//! JSON object) and DeepSeek V3.1 / V3.2-Exp (`<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}`),
//! each call in a `<｜tool▁calls▁begin｜>...<｜tool▁calls▁end｜>` section.
//!
//! One body reads both generations (the text after `<｜tool▁sep｜>` tells them apart), so a
//! reply is read whichever of the two the model writes; the two formats differ in their tool
//! block, their results and how they write calls into the history, each as its model's chat
//! template does. R1 thinks in a leading `<think>` section; V3.1 does in thinking mode, whose
//! template opens `<think>` in the generation prompt.
//!
//! V3.2 and V4 write DSML instead (`dsml/`): `<｜DSML｜function_calls>` / `<｜DSML｜tool_calls>`
//! blocks of `<｜DSML｜invoke name="NAME">` with typed `<｜DSML｜parameter>` values.

mod body;
mod dsml;
mod format;
mod prompt;

pub(crate) use body::DeepSeekBody;
pub(crate) use dsml::{DeepSeekV32, DeepSeekV4, DsmlBody};
pub(crate) use format::{DeepSeekV3, DeepSeekV31};
