//! Callers and direct-only tools: three tools, one allowing any caller (`roll_die`), one
//! allowing only direct calls (`lookup_player`, the default) and one allowing only programs
//! (`tally_score`), run whole and streamed.
//!
//! Where the API has programs the model writes and the provider runs (Anthropic's code
//! execution tool, Responses' `program` items), the tools are offered with `allowed_callers`
//! (none for the direct-only one: it is the API's default); the model calls `roll_die` and
//! `tally_score` directly (once saying so, once without a `caller`, which both SDKs allow),
//! then a program calls `lookup_player` and `tally_score`. The any-caller tool runs; the
//! direct-only tool never runs on the program's call, and the program-only tool never runs on
//! a direct one: each gets a `PERMISSION_DENIED` result saying how to call it; the program's
//! call of the program-only tool runs. The history keeps the program and each `caller` as
//! they came.
//!
//! The other APIs have no programs, so no call has a caller: the program-only tool is not
//! offered (the model could never call it), the others are plain tools (no
//! `allowed_callers`, which those APIs do not have). A call without a caller is the model's
//! own, so when the model calls the program-only tool anyway it gets the same
//! `PERMISSION_DENIED` and the tool never runs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::provider::anthropic::CODE_EXECUTION_CALLER;
use tool_core::runner::RunOptions;
use tool_core::{
    AllowedCallers, CallFuture, Tool, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse,
};

use super::apis::{By, ANTHROPIC_PROGRAM, RESPONSES_PROGRAM};
use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};

const ANY: &str = "roll_die";
const DIRECT: &str = "lookup_player";
const PROGRAM: &str = "tally_score";
const ANSWER: &str = "Ann rolled a 6 and leads 2-1.";
const CODE: &str =
    "player = await lookup_player({'name': 'Ann'})\nprint(await tally_score({'player': 'ann'}))";

/// The cell of the APIs without programs.
pub const NO_PROGRAMS: &str =
    "no programs: a program-only tool is not offered, and refused if called";

/// A tool that says who may call it and counts its runs.
#[derive(Clone)]
struct Counted {
    name: &'static str,
    allowed: AllowedCallers,
    runs: Arc<AtomicUsize>,
}

impl Counted {
    fn new(name: &'static str, allowed: AllowedCallers) -> Counted {
        Counted {
            name,
            allowed,
            runs: Arc::default(),
        }
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }
}

impl Tool for Counted {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "A tool of the dice game."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"player": {"type": "string"}},
            "required": ["player"]})
    }
    fn allowed_callers(&self) -> AllowedCallers {
        self.allowed
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        CallFuture::ready(ToolResponse::success(format!("{} ok", self.name)))
    }
}

/// Whether the API has programs that call tools (programmatic tool calling).
fn has_programs(api: Api) -> bool {
    matches!(api, Api::Anthropic | Api::Responses)
}

fn args() -> Value {
    json!({"player": "ann"})
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let whole = one(api, false, &mut seen).await;
    let streamed = one(api, true, &mut seen).await;
    assert_eq!(whole, streamed, "{api:?}: whole and streamed differ");
    seen.saw(whole)
}

async fn one(api: Api, stream: bool, seen: &mut Seen) -> Verdict {
    let case = format!("{api:?} stream={stream}");
    let programs = has_programs(api);
    let turns = if programs {
        vec![
            Turn::call("a1", ANY, args())
                .by(By::Direct)
                .and_call("p1", PROGRAM, args())
                .by(By::Direct)
                .and_call("p0", PROGRAM, args()),
            Turn::default()
                .with_usage(100, 20)
                .with_program(CODE)
                .and_call("d1", DIRECT, json!({"player": "Ann"}))
                .by(By::Program)
                .and_call("p2", PROGRAM, args())
                .by(By::Program),
            Turn::text(ANSWER),
        ]
    } else {
        vec![
            Turn::call("a1", ANY, args())
                .and_call("p1", PROGRAM, args())
                .and_call("d1", DIRECT, json!({"player": "Ann"})),
            Turn::text(ANSWER),
        ]
    };
    let fake = Fake::start(api, stream, &turns).await;
    let any = Counted::new(ANY, AllowedCallers::Any);
    let direct = Counted::new(DIRECT, AllowedCallers::Direct);
    let program = Counted::new(PROGRAM, AllowedCallers::Program);
    let registry = ToolRegistry::new()
        .with(any.clone())
        .with(direct.clone())
        .with(program.clone());
    let runner = runner(&fake, registry, RunOptions::new());
    let messages = if stream {
        let (events, run) = streamed(&runner, "Play a round for Ann.").await;
        assert_eq!(
            text_of(turn_events(&events, turns.len() as u32)),
            ANSWER,
            "{case}"
        );
        run.messages().to_vec()
    } else {
        let result = runner
            .run("Play a round for Ann.")
            .await
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(result.final_text().ok(), Some(ANSWER), "{case}");
        result.messages().to_vec()
    };
    let bodies = seen.add(&fake).await;
    assert_eq!(bodies.len(), turns.len(), "{case}");
    let results = results(&messages);
    // By tool and order: Gemini and text mode name calls themselves.
    let result = |name: &str, nth: usize| {
        results
            .iter()
            .filter(|(_, tool, _)| tool == name)
            .nth(nth)
            .map(|(_, _, response)| response.clone())
            .unwrap_or_else(|| panic!("{case}: no result {nth} for {name}: {results:?}"))
    };
    let refused = |(name, nth): (&str, usize), says: &str| {
        let response = result(name, nth);
        assert_eq!(
            response.error_code(),
            Some(ToolErrorCode::PermissionDenied),
            "{case}: {name}: {response:?}"
        );
        assert!(
            response.model_text().contains(says),
            "{case}: {name}: {response:?}"
        );
    };
    let ran = |(name, nth): (&str, usize)| {
        let response = result(name, nth);
        assert_eq!(
            response.model_text(),
            format!("{name} ok"),
            "{case}: {name} {nth}"
        );
    };
    let calls: usize = turns.iter().map(|t| t.calls.len()).sum();
    assert_eq!(
        results.len(),
        calls,
        "{case}: one result per call: {results:?}"
    );
    // (a) The any-caller tool, called directly, runs.
    ran((ANY, 0));
    assert_eq!(any.runs(), 1, "{case}: {ANY}");
    if !programs {
        // (b) Without programs, the direct-only tool is a plain tool and runs on the model's
        // call; (c) the program-only tool, called anyway, is refused as a direct call.
        ran((DIRECT, 0));
        refused((PROGRAM, 0), "may only be called from code you run");
        assert_eq!((direct.runs(), program.runs()), (1, 0), "{case}");
        // (d) The program-only tool is never offered, the others are, with nothing about
        // callers.
        for body in &bodies {
            let offered = |name: &str| {
                if api.is_text_mode() {
                    api.instructions(body).contains(name)
                } else {
                    api.tool_names(body).iter().any(|n| n == name)
                }
            };
            for name in [ANY, DIRECT] {
                assert!(offered(name), "{case}: {name} is not offered: {body}");
            }
            assert!(!offered(PROGRAM), "{case}: {PROGRAM} is offered: {body}");
            assert!(!text(body).contains("allowed_callers"), "{case}: {body}");
        }
        return Verdict::Fallback(NO_PROGRAMS);
    }
    // (c) The program-only tool called directly is refused and does not run for it, whether
    // the call says `caller: direct` or says nothing; (b) the direct-only tool called by the
    // program is refused and never runs; the program's call of the program-only tool runs.
    refused((PROGRAM, 0), "may only be called from code you run");
    refused((PROGRAM, 1), "may only be called from code you run");
    refused((DIRECT, 0), "may only be called by you directly");
    ran((PROGRAM, 2));
    assert_eq!(
        direct.runs(),
        0,
        "{case}: the direct-only tool ran for a program"
    );
    assert_eq!(
        program.runs(),
        1,
        "{case}: the program-only tool ran for a direct call"
    );
    // (d) On the wire, on every request: who may call each tool (the default unsaid).
    let (program_caller, program_caller_json) = if api == Api::Anthropic {
        (
            CODE_EXECUTION_CALLER,
            json!({"type": CODE_EXECUTION_CALLER, "tool_id": ANTHROPIC_PROGRAM}),
        )
    } else {
        (
            "programmatic",
            json!({"type": "program", "caller_id": RESPONSES_PROGRAM}),
        )
    };
    for body in &bodies {
        let allowed = |name: &str| {
            body["tools"]
                .as_array()
                .and_then(|tools| tools.iter().find(|t| t["name"] == name))
                .map(|tool| tool["allowed_callers"].clone())
                .unwrap_or_else(|| panic!("{case}: {name} is not offered: {body}"))
        };
        assert_eq!(allowed(ANY), json!(["direct", program_caller]), "{case}");
        assert_eq!(allowed(PROGRAM), json!([program_caller]), "{case}");
        assert_eq!(allowed(DIRECT), Value::Null, "{case}");
    }
    // The history keeps the program and each call's caller as they came, and the refusals
    // reach the model as errors.
    let last = text(&bodies[2]);
    let program_id = if api == Api::Anthropic {
        ANTHROPIC_PROGRAM
    } else {
        RESPONSES_PROGRAM
    };
    assert!(last.contains(program_id), "{case}: {last}");
    assert!(
        last.contains(CODE.split('\n').next().unwrap_or(CODE)),
        "{case}"
    );
    assert!(
        last.contains(&program_caller_json.to_string()),
        "{case}: {last}"
    );
    assert!(last.contains(r#"{"type":"direct"}"#), "{case}: {last}");
    for message in [
        "may only be called from code you run",
        "only be called by you directly",
    ] {
        assert!(last.contains(message), "{case}: {last}");
    }
    if api == Api::Anthropic {
        assert!(last.contains(r#""is_error":true"#), "{case}: {last}");
    }
    Verdict::Yes
}
