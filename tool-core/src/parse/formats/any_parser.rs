//! Every format's parser as one enum, which a format's [`TextFormat::parser`] returns.
//!
//! [`TextFormat::parser`]: super::spec::TextFormat::parser

use super::bare::BareParser;
use super::blocks::BlockParser;
use super::deepseek::{DeepSeekBody, DsmlBody};
use super::glm::GlmBody;
use super::harmony::HarmonyParser;
use super::hermes::HermesBody;
use super::kimi::KimiBody;
use super::llama::LlamaCall;
use super::minimax::MiniMaxBody;
use super::mistral::MistralBody;
use super::pythonic::PythonicCall;
use super::qwen3_coder::Qwen3CoderBody;
use super::use_tool::UseToolMachine;
use crate::parse::event::{EndReason, Event};

/// Every format's parser, as one enum: the per-chunk calls are then direct (and inlined)
/// rather than through a `Box<dyn ..>`, which matters when a chunk is a few bytes.
#[derive(Debug)]
pub(crate) enum AnyParser {
    UseTool(UseToolMachine),
    Hermes(BlockParser<HermesBody>),
    Qwen3Coder(BlockParser<Qwen3CoderBody>),
    Mistral(BlockParser<MistralBody>),
    Harmony(HarmonyParser),
    Glm(BlockParser<GlmBody>),
    MiniMax(BlockParser<MiniMaxBody>),
    Kimi(BlockParser<KimiBody>),
    DeepSeek(BlockParser<DeepSeekBody>),
    Llama(BareParser<LlamaCall>),
    Pythonic(BareParser<PythonicCall>),
    DeepSeekV32(BlockParser<DsmlBody<false>>),
    DeepSeekV4(BlockParser<DsmlBody<true>>),
}

/// Calls `$call` on whichever parser this is.
macro_rules! each {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            AnyParser::UseTool($p) => $call,
            AnyParser::Hermes($p) => $call,
            AnyParser::Qwen3Coder($p) => $call,
            AnyParser::Mistral($p) => $call,
            AnyParser::Harmony($p) => $call,
            AnyParser::Glm($p) => $call,
            AnyParser::MiniMax($p) => $call,
            AnyParser::Kimi($p) => $call,
            AnyParser::DeepSeek($p) => $call,
            AnyParser::Llama($p) => $call,
            AnyParser::Pythonic($p) => $call,
            AnyParser::DeepSeekV32($p) => $call,
            AnyParser::DeepSeekV4($p) => $call,
        }
    };
}

impl AnyParser {
    #[inline]
    pub(crate) fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        each!(self, p => p.feed(chunk, out))
    }

    pub(crate) fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        each!(self, p => p.feed_bytes(bytes, out))
    }

    pub(crate) fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        each!(self, p => p.finish(reason, out))
    }
}
