//! A tool's questions on a 2026-07-28 session. That revision has no server-to-client
//! requests: the server answers the call with an `InputRequiredResult` holding the questions
//! (sampling, elicitation, roots) and a sealed `requestState`; the client answers them and
//! retries the call with the answers and the state. The tool's body runs again from the start
//! and each question it asks gets, in order, the answer it got before ([`Replay`]); the first
//! question without an answer ends the run and becomes the next round.
//!
//! The state carries every answer so far, sealed with rmcp's HMAC codec and bound to the call
//! (method, tool, arguments, caller), so a client cannot forge answers, move them to another
//! call or replay them after they expire: each of these is a JSON-RPC invalid-params error,
//! and the tool does not run.

// Sampling and roots are deprecated as capabilities by the 2026-07-28 revision (SEP-2577), yet
// it is the revision that carries them inside the call.
#![allow(deprecated)]

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CreateMessageResult, ElicitResult, InputRequest, InputRequests, InputRequiredResult,
    InputResponses, JsonObject, ListRootsResult, RequestStateCodec, RequestStateError, SealOptions,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::peer::PeerError;

/// How many questions one call may ask in all its rounds: the state carries every answer, so
/// it is bounded; no form-filling tool needs more.
pub(crate) const MAX_QUESTIONS: usize = 16;

/// How long a client has to answer a round before its state expires.
pub(crate) const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

/// Whether the request came on a 2026-07-28 (or later) session.
pub(super) fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    // ISO dates compare as strings.
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str())
}

/// What a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    Sampling,
    Elicitation,
    Roots,
}

impl Kind {
    fn method(self) -> &'static str {
        match self {
            Kind::Sampling => "sampling/createMessage",
            Kind::Elicitation => "elicitation/create",
            Kind::Roots => "roots/list",
        }
    }

    /// Whether `answer` is a result of this kind's method (the shape rmcp reads).
    fn check(self, answer: &Value) -> Result<(), serde_json::Error> {
        match self {
            Kind::Sampling => {
                serde_json::from_value::<CreateMessageResult>(answer.clone()).map(drop)
            }
            Kind::Elicitation => serde_json::from_value::<ElicitResult>(answer.clone()).map(drop),
            Kind::Roots => serde_json::from_value::<ListRootsResult>(answer.clone()).map(drop),
        }
    }
}

/// The questions of one round and the answers of the earlier ones: what `requestState`
/// holds, sealed.
#[derive(Serialize, Deserialize)]
struct State {
    /// Every answer so far, in the order the questions were asked.
    answers: Vec<(Kind, Value)>,
    /// The last round's questions, by key, in the order asked.
    asked: Vec<(String, Kind)>,
}

/// Seals and opens the request states of one server (or of replicas sharing a key).
pub(crate) struct Sealer {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl Sealer {
    /// A sealer with a fresh random key: states are good for this server only.
    pub fn random() -> Sealer {
        let mut key = [0u8; 32];
        if getrandom::fill(&mut key).is_err() {
            // No OS randomness (rare sandboxes): std's per-process random hash keys, which
            // come from the OS too when it has any, and the clock.
            use std::hash::{BuildHasher, Hasher};
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            for (i, chunk) in key.chunks_mut(8).enumerate() {
                let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
                hasher.write_u128(now);
                hasher.write_usize(i);
                chunk.copy_from_slice(&hasher.finish().to_le_bytes());
            }
        }
        Sealer::new(key, DEFAULT_TTL)
    }

    pub fn new(key: [u8; 32], ttl: Duration) -> Sealer {
        Sealer {
            // 32 bytes is the codec's minimum, so `new` (which accepts shorter keys) is safe.
            codec: RequestStateCodec::new(key.to_vec()),
            ttl,
        }
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    pub fn with_ttl(&self, ttl: Duration) -> Sealer {
        Sealer {
            codec: self.codec.clone(),
            ttl,
        }
    }

    /// The answers a call carries: none on a first call; on a retry, the earlier answers and
    /// the responses to the last round, checked against the sealed state.
    pub fn open(
        &self,
        binding: &[u8],
        request_state: Option<&str>,
        responses: Option<&InputResponses>,
    ) -> Result<Vec<(Kind, Value)>, ErrorData> {
        let Some(sealed) = request_state else {
            if responses.is_some_and(|r| !r.is_empty()) {
                return Err(invalid(
                    "inputResponses came without the requestState they answer: retry with both \
                     from the server's input_required result, or call again without either",
                ));
            }
            return Ok(Vec::new());
        };
        let state: State = self
            .codec
            .open_json_with(sealed, binding)
            .map_err(|e| match e {
                RequestStateError::Expired => invalid(
                    "the requestState has expired: call again without requestState and \
                     inputResponses to start over",
                ),
                _ => invalid(
                    "the requestState was not issued by this server for this call (altered, \
                     forged, or from a call with other arguments): call again without \
                     requestState and inputResponses to start over",
                ),
            })?;
        let State { mut answers, asked } = state;
        let empty = InputResponses::new();
        let responses = responses.unwrap_or(&empty);
        if let Some(key) = responses
            .keys()
            .find(|key| !asked.iter().any(|(k, _)| k == *key))
        {
            return Err(invalid(format!(
                "inputResponses answers '{key}', which the server did not ask: send exactly \
                 the keys of the last inputRequests"
            )));
        }
        for (key, kind) in asked {
            let Some(answer) = responses.get(&key) else {
                return Err(invalid(format!(
                    "inputResponses has no answer to '{key}': answer every request of the last \
                     inputRequests"
                )));
            };
            kind.check(answer).map_err(|e| {
                invalid(format!(
                    "the answer to '{key}' is not a {} result: {e}",
                    kind.method()
                ))
            })?;
            answers.push((kind, answer.clone()));
        }
        if answers.len() > MAX_QUESTIONS {
            return Err(invalid(format!(
                "a call may ask at most {MAX_QUESTIONS} questions"
            )));
        }
        Ok(answers)
    }

    /// The result that ends a run which asked `replay`'s new questions.
    pub fn input_required(
        &self,
        binding: &[u8],
        replay: &Replay,
    ) -> Result<InputRequiredResult, ErrorData> {
        let asked = std::mem::take(
            &mut replay
                .progress
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .asked,
        );
        let state = State {
            answers: replay.answers.clone(),
            asked: asked
                .iter()
                .map(|(k, kind, _)| (k.clone(), *kind))
                .collect(),
        };
        let sealed = self
            .codec
            .seal_json_with(
                &state,
                &SealOptions::new().associated_data(binding).ttl(self.ttl),
            )
            .map_err(|e| {
                ErrorData::internal_error(format!("sealing the request state: {e}"), None)
            })?;
        let requests: InputRequests = asked.into_iter().map(|(k, _, q)| (k, q)).collect();
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

fn invalid(message: impl Into<String>) -> ErrorData {
    ErrorData::invalid_params(message.into(), None)
}

/// What the state is bound to: a state opens only for the same method, target, arguments and
/// caller it was sealed for.
pub(super) fn binding(
    method: &str,
    target: &str,
    arguments: Option<&JsonObject>,
    principal: Option<&crate::Principal>,
) -> Vec<u8> {
    let arguments = arguments
        .and_then(|a| serde_json::to_string(a).ok())
        .unwrap_or_default();
    let subject = principal.map(crate::Principal::subject).unwrap_or_default();
    // JSON strings: no field can run into the next.
    json!([method, target, arguments, subject])
        .to_string()
        .into_bytes()
}

/// One run of a call on a 2026-07-28 session: the answers it replays and the questions it
/// asks anew.
pub(crate) struct Replay {
    answers: Vec<(Kind, Value)>,
    progress: Mutex<Progress>,
    asked: Notify,
}

#[derive(Default)]
struct Progress {
    /// The index of the next question.
    next: usize,
    /// New questions: key, kind, request.
    asked: Vec<(String, Kind, InputRequest)>,
}

/// What a question gets on this run.
pub(crate) enum Turn {
    /// The answer the client gave in an earlier round.
    Answer(Value),
    /// Nothing yet: the run ends and the question goes to the client.
    Ask,
}

impl Replay {
    pub fn new(answers: Vec<(Kind, Value)>) -> Replay {
        Replay {
            answers,
            progress: Mutex::new(Progress::default()),
            asked: Notify::new(),
        }
    }

    /// The next question of the run: its earlier answer, or (recorded for the client) none.
    pub fn next(&self, kind: Kind, params: Value) -> Result<Turn, PeerError> {
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        let index = progress.next;
        progress.next += 1;
        if let Some((was, answer)) = self.answers.get(index) {
            if *was != kind {
                return Err(PeerError::Rejected(format!(
                    "question {} of this call was a {} request when first asked and is a {} \
                     request now: a tool must ask the same questions in the same order on every \
                     run",
                    index + 1,
                    was.method(),
                    kind.method()
                )));
            }
            return Ok(Turn::Answer(answer.clone()));
        }
        if index >= MAX_QUESTIONS {
            return Err(PeerError::Invalid(format!(
                "a call may ask its client at most {MAX_QUESTIONS} questions"
            )));
        }
        let mut request = json!({ "method": kind.method() });
        if !params.is_null() {
            request["params"] = params;
        }
        let request: InputRequest =
            serde_json::from_value(request).map_err(|e| PeerError::Invalid(e.to_string()))?;
        progress.asked.push((format!("q{index}"), kind, request));
        self.asked.notify_one();
        Ok(Turn::Ask)
    }

    /// Resolves once the run has asked a new question.
    pub async fn asked(&self) {
        self.asked.notified().await;
    }

    /// [`asked`](Self::asked) for a run that may have no replay (a handshake-era session,
    /// where questions go to the client directly): then it never resolves.
    pub async fn asked_in(replay: Option<&Replay>) {
        match replay {
            Some(replay) => replay.asked().await,
            None => std::future::pending().await,
        }
    }
}
