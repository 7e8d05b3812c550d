//! One `<use_tool>` block being read, and how it ends: complete, error or incomplete.

use crate::call::ToolCall;
use crate::parse::check::check_known;
use crate::parse::event::{Diagnostic, EndReason, Event};
use crate::parse::formats::core::Core;
use crate::parse::json_scan::ArgScan;
use crate::parse::repair;
use crate::response::{ToolErrorCode, ToolResponse};

/// Names longer than this cannot be valid (the limit is 64); stop buffering there.
const MAX_NAME: usize = 256;

#[derive(Debug)]
pub(crate) struct OpenCall {
    pub(crate) index: usize,
    start: usize,
    name: Option<String>,
    name_buf: String,
    /// The name reached `MAX_NAME` and was cut: nothing more is appended.
    name_cut: bool,
    pub(crate) args: Option<ArgScan>,
    /// Where the `<arguments>` content starts in the reply: the scanner's bytes sit at
    /// consecutive offsets from here.
    pub(crate) args_start: usize,
    /// The first structural problem; the call becomes an error when it closes.
    problem: Option<String>,
    /// Non-whitespace text found between children (the start of it).
    stray: String,
    stray_chars: usize,
}

impl OpenCall {
    pub(crate) fn new(index: usize, start: usize) -> Self {
        OpenCall {
            index,
            start,
            name: None,
            name_buf: String::new(),
            name_cut: false,
            args: None,
            args_start: 0,
            problem: None,
            stray: String::new(),
            stray_chars: 0,
        }
    }

    pub(crate) fn structure_error(&mut self, message: &str) {
        if self.problem.is_none() {
            self.problem = Some(message.to_string());
        }
    }

    /// Text between children: whitespace is layout, anything else is a mistake. The first
    /// 30 characters are collected (whatever the chunking) for the error message.
    pub(crate) fn stray(&mut self, text: &str) {
        let text = if self.stray.is_empty() {
            text.trim_start()
        } else {
            text
        };
        for c in text.chars() {
            if self.stray_chars >= 30 {
                break;
            }
            self.stray.push(c);
            self.stray_chars += 1;
        }
    }

    /// Whether `<arguments>` was opened before any `<tool_name>`.
    pub(crate) fn args_before_name(&self) -> bool {
        self.args.is_some() && self.name.is_none()
    }

    pub(crate) fn begin_name(&mut self) {
        if self.name.is_some() {
            self.structure_error("the call has more than one <tool_name>");
        }
        self.name_buf.clear();
        self.name_cut = false;
    }

    pub(crate) fn push_name(&mut self, text: &str) {
        if self.name_cut {
            // Once cut, a later piece small enough to fit the gap left by a char boundary must
            // not be appended: that too would depend on the chunking (found by fuzzing).
            return;
        }
        if self.name_buf.len() + text.len() <= MAX_NAME {
            self.name_buf.push_str(text);
            return;
        }
        // Keep the longest prefix that fits, cut at a char boundary: the kept name is then the
        // whole name cut at MAX_NAME bytes however the stream was chunked. Dropping the whole
        // piece instead made the result depend on where the chunks split (found by fuzzing).
        let room = MAX_NAME.saturating_sub(self.name_buf.len());
        let mut cut = room.min(text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.name_buf.push_str(text.get(..cut).unwrap_or_default());
        self.name_cut = true;
        self.structure_error("the <tool_name> is far too long to be a tool name");
    }

    pub(crate) fn end_name(&mut self) -> String {
        let name = self.name_buf.trim().to_string();
        self.name_buf.clear();
        if self.name.is_none() {
            self.name = Some(name.clone());
        }
        name
    }

    pub(crate) fn begin_args(&mut self, at: usize) {
        if self.args.is_some() {
            self.structure_error("the call has more than one <arguments>");
        }
        self.args = Some(ArgScan::new());
        self.args_start = at;
    }

    pub(crate) fn incomplete(self, reason: EndReason, end: usize) -> Event {
        let why = match reason {
            EndReason::Length => "the reply hit the length limit inside <use_tool>",
            _ => "the reply was cut off inside <use_tool>",
        };
        Event::CallIncomplete {
            index: self.index,
            name: self.name,
            reason: format!("{why}; the call was not run"),
            span: self.start..end,
        }
    }

    /// Ends the block at stream offset `end`: validates name and arguments (the one JSON
    /// parse) and emits diagnostics then `CallComplete` or `CallError`.
    pub(crate) fn close(self, end: usize, core: &Core, out: &mut Vec<Event>) {
        let id = core.id(self.index);
        let span = self.start..end;
        let index = self.index;
        let fail = |name: Option<String>, response: ToolResponse, out: &mut Vec<Event>| {
            out.push(Event::CallError {
                index,
                id: id.clone(),
                name,
                response: Box::new(response),
                span: span.clone(),
            });
        };
        let stray = self.stray.trim_end();
        let problem = if stray.is_empty() {
            self.problem
        } else {
            Some(format!(
                "unexpected text {stray:?} inside <use_tool>; only <tool_name> and <arguments> belong there"
            ))
        };
        if let Some(problem) = problem {
            let message = format!(
                "The tool call could not be read: {problem}. Write it as \
                 <use_tool><tool_name>NAME</tool_name><arguments>{{...}}</arguments></use_tool>."
            );
            fail(
                self.name,
                ToolResponse::error(ToolErrorCode::InvalidFormat, message),
                out,
            );
            return;
        }
        let name = match self.name {
            Some(n) if !n.is_empty() => n,
            other => {
                let listed = core.listed_tools();
                let message = format!(
                    "The tool call has no tool name. Put it in <tool_name>NAME</tool_name> inside <use_tool>.{listed}"
                );
                fail(
                    other,
                    ToolResponse::error(ToolErrorCode::InvalidFormat, message),
                    out,
                );
                return;
            }
        };
        if let Err(response) = check_known(&name, core.options.known_tools()) {
            fail(Some(name), response, out);
            return;
        }
        let outcome = match self.args {
            Some(scan) => repair::finish(scan, &name),
            None => repair::missing(),
        };
        for (kind, message) in outcome.repairs {
            out.push(Event::Diagnostic(Diagnostic {
                call: Some(index),
                kind,
                message,
            }));
        }
        match outcome.result {
            Ok(args) => out.push(Event::CallComplete {
                index,
                call: ToolCall::new(id, name, args.json),
                raw_arguments: args.raw,
                span,
            }),
            Err(response) => fail(Some(name), response, out),
        }
    }
}
