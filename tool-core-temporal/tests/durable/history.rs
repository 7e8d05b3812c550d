//! Checks over what the model was asked and what the tools did.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::model::Recorded;

/// The ledger's entries, in the order written.
pub fn ledger(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("ledger line {line:?}: {e}"))
        })
        .collect()
}

/// The ledger's entries of run `id`.
pub fn ledger_of(path: &Path, id: &str) -> Vec<Value> {
    ledger(path)
        .into_iter()
        .filter(|e| e["run"] == id)
        .collect()
}

/// Every key once, and every (run, call) once per turn: no effect happened twice.
pub fn assert_each_once(entries: &[Value]) {
    let mut keys = BTreeSet::new();
    for entry in entries {
        let key = entry["key"]
            .as_str()
            .unwrap_or_else(|| panic!("an entry without a key: {entry}"));
        assert!(
            keys.insert(key.to_string()),
            "key {key} is in the ledger twice"
        );
        let run = entry["run"].as_str().unwrap_or("");
        let call = entry["call"].as_str().unwrap_or("");
        assert!(
            key.starts_with(&format!("{run}/")) && key.ends_with(&format!("/{call}")),
            "the key {key} does not name run {run} and call {call}"
        );
    }
}

/// The tools run for run `id`, in ledger order.
pub fn tools_of(entries: &[Value], id: &str) -> Vec<String> {
    entries
        .iter()
        .filter(|e| e["run"] == id)
        .map(|e| e["tool"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The run's requests with each distinct history once, shortest first, checked: the first is
/// the prompt alone, and each next one is exactly the one before plus the assistant turn the
/// model gave it (text, call ids, names and arguments byte for byte) and one result per call,
/// in call order. Returns them.
pub fn assert_chain(requests: &[Recorded]) -> Vec<Recorded> {
    let mut distinct: Vec<Recorded> = Vec::new();
    for request in requests {
        if !distinct.iter().any(|d| d.messages == request.messages) {
            distinct.push(request.clone());
        }
    }
    distinct.sort_by_key(|r| r.messages.len());
    let first = distinct.first().expect("the model was asked at least once");
    assert_eq!(
        first.messages.len(),
        1,
        "the first request is the prompt alone: {:?}",
        first.messages
    );
    assert_eq!(first.messages[0]["role"], "user");
    for pair in distinct.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let n = before.messages.len();
        assert_eq!(
            after.messages[..n],
            before.messages[..],
            "a later request changed the history it had sent before"
        );
        let added = &after.messages[n..];
        let calls = &before.reply.calls;
        assert_eq!(
            added.len(),
            1 + calls.len(),
            "one assistant turn and one result per call: {added:?}"
        );
        let assistant = &added[0];
        assert_eq!(assistant["role"], "assistant");
        if !before.reply.text.is_empty() {
            assert_eq!(assistant["content"], before.reply.text);
        }
        let sent = assistant["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            sent.len(),
            calls.len(),
            "the assistant turn's calls: {assistant}"
        );
        for ((id, name, arguments), (call, result)) in
            calls.iter().zip(sent.iter().zip(&added[1..]))
        {
            assert_eq!(call["id"], id.as_str());
            assert_eq!(call["function"]["name"], name.as_str());
            assert_eq!(
                call["function"]["arguments"],
                arguments.as_str(),
                "arguments changed on the way back"
            );
            assert_eq!(result["role"], "tool");
            assert_eq!(result["tool_call_id"], id.as_str(), "results in call order");
        }
    }
    distinct
}

/// No model turn that had completed was asked again. A turn counts as completed once its
/// answer was sent whole, except in the second before `kill` (the worker may have read the
/// answer and died before it reported it: that attempt is lost and is asked again) and after
/// it for requests the killed worker had sent.
pub fn assert_no_answered_turn_repeated(requests: &[Recorded], kill: Option<Instant>) {
    let grace = std::time::Duration::from_secs(1);
    let mut answered = BTreeSet::new();
    for request in requests {
        let key = serde_json::to_string(&request.messages).unwrap_or_default();
        assert!(
            !answered.contains(&key),
            "a model turn that had completed was asked again ({}, history of {} messages)",
            request.prompt,
            request.messages.len()
        );
        // A request the killed worker had in flight is answered into a dead connection.
        let completed = request.finished.is_some_and(|finished| match kill {
            Some(kill) => finished + grace < kill || request.started > kill,
            None => true,
        });
        if completed {
            answered.insert(key);
        }
    }
}
