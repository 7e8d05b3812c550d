//! A reply that opens with `<think>` (Qwen3, DeepSeek-R1, QwQ and their distillations when
//! served without a reasoning parser): the block is reasoning, not text for the format's
//! parser. Tags may arrive split across chunks, so undecided bytes are held back.

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

/// Where the reply stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Only whitespace, or a prefix of `<think>`, so far.
    Start,
    /// Inside the think block.
    Thinking,
    /// Just past the block: the newlines a model writes after it are not part of its answer.
    Gap,
    /// Past the block, or the reply did not open with one.
    Text,
}

/// Splits a streamed reply into reasoning (the leading `<think>` block's content) and the
/// rest.
#[derive(Debug)]
pub(super) struct ThinkSplit {
    state: State,
    held: String,
}

/// One piece of the reply, by kind.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Piece {
    Reasoning(String),
    Text(String),
}

impl ThinkSplit {
    pub(super) fn new() -> Self {
        ThinkSplit {
            state: State::Start,
            held: String::new(),
        }
    }

    /// Feeds a chunk; returns the pieces that are decided.
    pub(super) fn feed(&mut self, chunk: &str, out: &mut Vec<Piece>) {
        self.held.push_str(chunk);
        loop {
            match self.state {
                State::Start => {
                    let trimmed = self.held.trim_start();
                    if let Some(rest) = trimmed.strip_prefix(OPEN) {
                        self.held = rest.to_string();
                        self.state = State::Thinking;
                    } else if OPEN.starts_with(trimmed) {
                        return; // whitespace or a prefix of the tag: wait
                    } else {
                        self.state = State::Text;
                    }
                }
                State::Thinking => {
                    if let Some(at) = self.held.find(CLOSE) {
                        let reasoning = self.held[..at].to_string();
                        let rest = self.held[at + CLOSE.len()..].to_string();
                        push(out, Piece::Reasoning(reasoning));
                        self.held = rest;
                        self.state = State::Gap;
                    } else {
                        let keep = partial_suffix(&self.held, CLOSE);
                        let ready = self.held.len() - keep;
                        let reasoning: String = self.held.drain(..ready).collect();
                        push(out, Piece::Reasoning(reasoning));
                        return;
                    }
                }
                State::Gap => {
                    self.held = self.held.trim_start_matches(['\n', '\r']).to_string();
                    if self.held.is_empty() {
                        return;
                    }
                    self.state = State::Text;
                }
                State::Text => {
                    let text = std::mem::take(&mut self.held);
                    push(out, Piece::Text(text));
                    return;
                }
            }
        }
    }

    /// The reply ended: what is still held back. An unclosed block is all reasoning; a reply
    /// that was only a tag prefix or whitespace is text.
    pub(super) fn finish(&mut self, out: &mut Vec<Piece>) {
        let held = std::mem::take(&mut self.held);
        match self.state {
            State::Thinking => push(out, Piece::Reasoning(held)),
            State::Start | State::Gap | State::Text => push(out, Piece::Text(held)),
        }
        self.state = State::Text;
    }
}

fn push(out: &mut Vec<Piece>, piece: Piece) {
    let empty = match &piece {
        Piece::Reasoning(s) | Piece::Text(s) => s.is_empty(),
    };
    if !empty {
        out.push(piece);
    }
}

/// The length of the longest suffix of `text` that is a proper prefix of `tag`.
fn partial_suffix(text: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| {
            text.len() >= n
                && text.is_char_boundary(text.len() - n)
                && tag.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&str]) -> Vec<Piece> {
        let mut split = ThinkSplit::new();
        let mut out = Vec::new();
        for chunk in chunks {
            split.feed(chunk, &mut out);
        }
        split.finish(&mut out);
        // Join neighbours of the same kind, so the assertions do not depend on chunking.
        let mut joined: Vec<Piece> = Vec::new();
        for piece in out {
            match (joined.last_mut(), piece) {
                (Some(Piece::Reasoning(a)), Piece::Reasoning(b)) => a.push_str(&b),
                (Some(Piece::Text(a)), Piece::Text(b)) => a.push_str(&b),
                (_, piece) => joined.push(piece),
            }
        }
        joined
    }

    #[test]
    fn a_leading_block_is_reasoning_whatever_the_chunking() {
        let reply = "<think>\nThe user wants 2+3.\n</think>\n\n5";
        let expected = vec![
            Piece::Reasoning("\nThe user wants 2+3.\n".into()),
            Piece::Text("5".into()),
        ];
        for size in 1..reply.len() {
            let chunks: Vec<&str> = (0..reply.len())
                .step_by(size)
                .map(|i| &reply[i..(i + size).min(reply.len())])
                .collect();
            assert_eq!(split(&chunks), expected, "chunk size {size}");
        }
    }

    #[test]
    fn replies_without_a_leading_block_are_text() {
        assert_eq!(split(&["<th", "is>"]), vec![Piece::Text("<this>".into())]);
        assert_eq!(
            split(&["Hi <think>x</think>"]),
            vec![Piece::Text("Hi <think>x</think>".into())]
        );
        assert_eq!(split(&["  <thi"]), vec![Piece::Text("  <thi".into())]);
    }

    #[test]
    fn an_unclosed_block_is_all_reasoning() {
        assert_eq!(
            split(&["<think>still thinking </thi"]),
            vec![Piece::Reasoning("still thinking </thi".into())]
        );
    }
}
