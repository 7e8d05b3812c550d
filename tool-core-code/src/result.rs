//! The code tool's result: a finished program's output and return value, or the failure
//! that ended it, as the model reads them.

use tool_core::{ToolErrorCode, ToolResponse};

use crate::limits::{CodeLimits, LimitHit};
use crate::protocol::{Failure, Finish, Returned};

/// The response for a program that ended as `finish` says.
pub(crate) fn response(finish: Finish, limits: &CodeLimits) -> ToolResponse {
    let logs = finish.logs.trim_end_matches('\n');
    match finish.outcome {
        Ok(returned) => {
            let value = returned.map(|r| match r {
                Returned::Text(text) | Returned::Json(text) => text,
            });
            let text = match (logs.is_empty(), value) {
                (true, Some(value)) => value,
                (false, Some(value)) => format!("{logs}\nReturned: {value}"),
                (false, None) => logs.to_string(),
                (true, None) => "The program finished without output: return a value or \
                                 console.log what you need."
                    .to_string(),
            };
            ToolResponse::success(text)
        }
        Err(failure) => {
            let (code, mut message) = failure_text(failure, limits);
            if !logs.is_empty() {
                message.push_str("\nOutput before it ended:\n");
                message.push_str(logs);
            }
            ToolResponse::error(code, message)
        }
    }
}

fn failure_text(failure: Failure, limits: &CodeLimits) -> (ToolErrorCode, String) {
    match failure {
        Failure::Syntax(why) => (
            ToolErrorCode::InvalidParam,
            format!(
                "The code is not valid JavaScript: {why}. It runs as the body of an async \
                 function; fix it and send it again."
            ),
        ),
        Failure::Threw(why) => (
            ToolErrorCode::ExecutionError,
            format!("The program threw an error: {why}"),
        ),
        Failure::Limit(hit @ LimitHit::WallTime) => (ToolErrorCode::Timeout, hit.message(limits)),
        Failure::Limit(hit) => (ToolErrorCode::ExecutionError, hit.message(limits)),
        Failure::Stalled => (
            ToolErrorCode::ExecutionError,
            "The program waited on a promise that nothing settles (there are no timers or \
             events here): await tool calls only."
                .to_string(),
        ),
        Failure::Unreturnable(why) => (
            ToolErrorCode::ExecutionError,
            format!(
                "The program's return value cannot be turned into JSON ({why}); return plain data."
            ),
        ),
        Failure::Cancelled => (
            ToolErrorCode::ExecutionError,
            "The run was cancelled while the program ran; its remaining calls did not run."
                .to_string(),
        ),
        Failure::Engine(why) => (
            ToolErrorCode::ExecutionError,
            format!("The program could not run: {why}."),
        ),
    }
}
