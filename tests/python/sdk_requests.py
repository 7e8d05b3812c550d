"""Checks request bodies against the official SDKs' own request types: openai-python's
`CompletionCreateParams` (Chat Completions) and `ResponseCreateParams` (Responses),
anthropic-sdk-python's `MessageCreateParams`, python-genai's `Content`, `Tool`,
`ToolConfig` and `GenerationConfig` models (Gemini's REST body), and python-genai's
interactions `CreateModelInteractionParams` (the Interactions API). The TypedDicts are walked
strictly: an unknown key, a missing required key, a value outside a `Literal` or of the wrong
type is an error with its path. Reads JSON lines `{"api": "chat" | "responses" | "anthropic" |
"gemini" | "interactions", "body": {...}}` on stdin, prints one line per body (`ok <api>` or the errors) and
exits 1 if any body fails. Run by the tests that replay provider traffic over loopback."""

import collections.abc
import json
import sys
import types
import typing

try:
    import anthropic  # noqa: F401
    import google.genai  # noqa: F401
    import openai  # noqa: F401
except ImportError as missing:
    sys.exit(f"{missing}: install the SDKs with `pip install openai==3.51.0 anthropic==2.10.0 google-genai==3.3.0`")

from typing_extensions import get_args, get_origin, get_type_hints, is_typeddict


# Where the interactions types leave a string open (`UnrecognizedStr` beside the `Literal`s
# the SDK knows): only the model's name may be one the SDK does not list; every other value
# must be one it knows.
OPEN_STRINGS = {"body.model", "response.model", "event.interaction.model"}


def wire_key(key, hints):
    """The TypedDict field a body key fills: Speakeasy's types spell a field that shadows a
    Python name with a trailing `_` (`schema_`), which the SDK sends without it."""
    if key not in hints and f"{key}_" in hints:
        return f"{key}_"
    return key


def wrapper(hint):
    return getattr(get_origin(hint), "_name", None) or getattr(get_origin(hint), "__name__", "")


def required_keys(tp, hints):
    """The keys a TypedDict requires. `__required_keys__` is wrong for a TypedDict whose module
    postpones its annotations (the interactions types): the `NotRequired` inside the string is
    not seen when the class is made, so a field is required only when its resolved hint says
    so too."""
    return [
        key
        for key in getattr(tp, "__required_keys__", ())
        if wrapper(hints.get(key)) != "NotRequired"
    ] + [key for key, hint in hints.items() if wrapper(hint) == "Required"]


def check(value, tp, path, errors, depth=0):
    if depth > 60:
        return
    if tp is typing.Any or tp is object:
        return
    if type(tp).__name__ == "TypeAliasType":
        # `X = TypeAliasType("X", Union[...])`, as the interactions types name their unions.
        return check(value, tp.__value__, path, errors, depth + 1)
    if getattr(tp, "__name__", "") == "UnrecognizedStr":
        if path not in OPEN_STRINGS or not isinstance(value, str):
            errors.append(f"{path}: {value!r} is not a value the SDK knows")
        return
    origin = get_origin(tp)
    args = get_args(tp)
    name = getattr(tp, "__name__", "") or getattr(origin, "__name__", "")
    if origin is typing.Annotated:
        return check(value, args[0], path, errors, depth + 1)
    if name in ("Required", "NotRequired", "ReadOnly") and args:
        return check(value, args[0], path, errors, depth + 1)
    if origin in (typing.Union, types.UnionType):
        best = None
        for alternative in args:
            found = []
            check(value, alternative, path, found, depth + 1)
            if not found:
                return
            if best is None or len(found) < len(best):
                best = found
        errors.extend(best or [f"{path}: matches no alternative"])
        return
    if origin is typing.Literal:
        if value not in args:
            errors.append(f"{path}: {value!r} is not one of {list(args)}")
        return
    if tp is type(None):
        if value is not None:
            errors.append(f"{path}: expected null, got {value!r}")
        return
    if is_typeddict(tp):
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object ({tp.__name__}), got {value!r}")
            return
        hints = get_type_hints(tp, include_extras=True)
        for key in value:
            if wire_key(key, hints) not in hints:
                errors.append(f"{path}.{key}: not a field of {tp.__name__}")
        present = {wire_key(key, hints) for key in value}
        for key in required_keys(tp, hints):
            if key not in present:
                errors.append(f"{path}.{key}: required by {tp.__name__}")
        for key, item in value.items():
            if wire_key(key, hints) in hints:
                check(item, hints[wire_key(key, hints)], f"{path}.{key}", errors, depth + 1)
        return
    if name == "SequenceNotStr" or origin in (
        list,
        collections.abc.Iterable,
        collections.abc.Sequence,
        typing.List,
    ):
        if not isinstance(value, list):
            errors.append(f"{path}: expected a list, got {value!r}")
            return
        for i, item in enumerate(value):
            check(item, args[0] if args else typing.Any, f"{path}[{i}]", errors, depth + 1)
        return
    if origin in (dict, collections.abc.Mapping, typing.Dict):
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object, got {value!r}")
            return
        for key, item in value.items():
            check(item, args[1] if len(args) > 1 else typing.Any, f"{path}.{key}", errors, depth + 1)
        return
    if tp is str:
        if not isinstance(value, str):
            errors.append(f"{path}: expected a string, got {value!r}")
        return
    if tp is bool:
        if not isinstance(value, bool):
            errors.append(f"{path}: expected a boolean, got {value!r}")
        return
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(f"{path}: expected an integer, got {value!r}")
        return
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.append(f"{path}: expected a number, got {value!r}")
        return
    # Types the walk does not model (files, protocols) are not checked.


def check_openai_like(body, streaming, non_streaming):
    errors = []
    check(body, streaming if body.get("stream") else non_streaming, "body", errors)
    return errors


# Provider extensions on an assistant message, which the SDK sends through `extra_body` (its
# TypedDicts have no field for them): DeepSeek's thinking mode requires a tool-call turn's
# `reasoning_content` back on its assistant message in later requests (it answers 400
# without it), and vLLM and OpenRouter take the same text as `reasoning`. Only these two keys,
# only on assistant messages, and only as strings; everything else is checked strictly.
REASONING_KEYS = ("reasoning_content", "reasoning")


def without_reasoning(body, errors):
    messages = body.get("messages")
    if not isinstance(messages, list):
        return body
    kept = []
    for i, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") == "assistant":
            message = dict(message)
            for key in REASONING_KEYS:
                if key in message and not isinstance(message.pop(key), str):
                    errors.append(f"body.messages[{i}].{key}: expected a string")
        kept.append(message)
    return {**body, "messages": kept}


def check_chat(body):
    from openai.types.chat import completion_create_params as p

    errors = []
    body = without_reasoning(body, errors)
    return errors + check_openai_like(body, p.CompletionCreateParamsStreaming, p.CompletionCreateParamsNonStreaming)


def check_responses(body):
    from openai.types.responses import response_create_params as p

    return check_openai_like(body, p.ResponseCreateParamsStreaming, p.ResponseCreateParamsNonStreaming)


def check_anthropic(body):
    from anthropic.types import message_create_params as p

    return check_openai_like(body, p.MessageCreateParamsStreaming, p.MessageCreateParamsNonStreaming)


def check_gemini(body):
    from google.genai import types as t
    from pydantic import ValidationError

    parts = {
        "contents": (t.Content, True),
        "systemInstruction": (t.Content, False),
        "tools": (t.Tool, True),
        "toolConfig": (t.ToolConfig, False),
        "generationConfig": (t.GenerationConfig, False),
        "safetySettings": (t.SafetySetting, True),
        "cachedContent": (None, False),
    }
    errors = []
    for key, value in body.items():
        if key not in parts:
            errors.append(f"body.{key}: not a field of the generateContent request")
            continue
        model, many = parts[key]
        if model is None:
            continue
        for i, item in enumerate(value if many else [value]):
            try:
                model.model_validate(item)
            except ValidationError as e:
                where = f"body.{key}[{i}]" if many else f"body.{key}"
                errors.extend(f"{where}: {line}" for line in str(e).splitlines()[1:])
    if "contents" not in body:
        errors.append("body.contents: required")
    return errors


def check_interactions(body):
    """`POST /v1/interactions` with a model: python-genai's `CreateModelInteractionParams`
    (streaming when `stream` is true), whose `input` is a list of steps (`user_input`,
    `thought`, `model_output`, `function_call`, `function_result`)."""
    from google.genai import interactions as t

    return check_openai_like(
        body, t.CreateModelInteractionParamsStreaming, t.CreateModelInteractionParamsNonStreaming
    )


def check_interaction_response(body):
    """A whole `Interaction` a fake server answers with: python-genai's `InteractionTypedDict`
    (its steps typed as the SDK reads them)."""
    from google.genai._gaos.types.interactions import interaction as t

    errors = []
    check(body, t.InteractionTypedDict, "response", errors)
    return errors


def check_interaction_event(body):
    """One streamed event a fake server sends (the JSON of its `data:` line):
    python-genai's `InteractionSSEEventTypedDict` (`interaction.created`, `step.start`,
    `step.delta`, `step.stop`, `interaction.completed`, ...)."""
    from google.genai._gaos.types.interactions import interactionsseevent as t

    errors = []
    check(body, t.InteractionSSEEventTypedDict, "event", errors)
    return errors


CHECKS = {
    "chat": check_chat,
    "responses": check_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "interactions": check_interactions,
    "interactions_response": check_interaction_response,
    "interactions_event": check_interaction_event,
}


def main():
    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        errors = CHECKS[request["api"]](request["body"])
        if errors:
            failed = True
            print(f"FAIL {request['api']}: " + "; ".join(errors))
        else:
            print(f"ok {request['api']}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
