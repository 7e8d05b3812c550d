"""A FastMCP server with resources, a resource template, a prompt and tools that ask their
client (sampling, elicitation, roots), on stdio, for tests/tests/mcp/mcp_python.rs and
tests/tests/mcp/mcp_client_handlers.rs (tool-core's McpClient reading, rendering and
answering them).

FastMCP 4.1.6 asks in two ways, one per protocol era: on a handshake-era session
(2025-11-25 and earlier) through the SDK session's server-to-client requests (`ctx.elicit`,
`ctx.session.create_message`, `ctx.session.list_roots`); on a 2026-07-28 session, where
those requests no longer exist, with the "guard" pattern its docs describe: the tool returns
an `InputRequiredResult` holding the question and reads the client's answer from
`ctx.input_responses` when the client retries."""

from dataclasses import dataclass
from typing import Literal

import mcp_types as types
from fastmcp import Context, FastMCP

mcp = FastMCP("py-catalog")


@mcp.resource("docs://units", mime_type="text/plain")
def units() -> str:
    """The units every value uses."""
    return "Celsius"


@mcp.resource("weather://{city}/current")
def current(city: str) -> dict:
    """Current conditions for a city."""
    return {"city": city, "temp_c": 20}


@mcp.prompt
def plan_trip(city: str, days: str = "3") -> str:
    """Plans a trip."""
    return f"Plan {days} days in {city}."


def _answer(ctx: Context, key: str):
    """The client's answer to the question `key` on a 2026-07-28 retry, as a plain dict."""
    responses = ctx.input_responses or {}
    answer = responses.get(key)
    if answer is None:
        return None
    if hasattr(answer, "model_dump"):
        return answer.model_dump(mode="json", by_alias=True, exclude_none=True)
    return answer


def _ask(key: str, request) -> types.InputRequiredResult:
    return types.InputRequiredResult(input_requests={key: request})


def _sampling_params(topic: str) -> types.CreateMessageRequestParams:
    return types.CreateMessageRequestParams(
        messages=[
            types.SamplingMessage(
                role="user", content=types.TextContent(type="text", text=f"A haiku about {topic}")
            )
        ],
        system_prompt="You write haiku.",
        max_tokens=60,
        stop_sequences=["END"],
        model_preferences=types.ModelPreferences(hints=[types.ModelHint(name="sonnet")]),
    )


@mcp.tool
async def haiku(topic: str, ctx: Context) -> str | types.InputRequiredResult:
    """Writes a haiku with the client's model; says which model and why it stopped."""
    params = _sampling_params(topic)
    if ctx._is_modern_protocol():
        answer = _answer(ctx, "haiku")
        if answer is None:
            return _ask("haiku", types.CreateMessageRequest(params=params))
        text, model, stop = answer["content"]["text"], answer["model"], answer.get("stopReason")
    else:
        result = await ctx.session.create_message(
            params.messages,
            max_tokens=params.max_tokens,
            system_prompt=params.system_prompt,
            stop_sequences=params.stop_sequences,
            model_preferences=params.model_preferences,
        )
        text, model, stop = result.content.text, result.model, result.stop_reason
    return f"{model} ({stop}): {text}"


_DONE = {"decline": "declined", "cancel": "cancelled"}


@dataclass
class UnitChoice:
    unit: Literal["celsius", "fahrenheit"]


@mcp.tool
async def ask_unit(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the user which unit to use."""
    if ctx._is_modern_protocol():
        answer = _answer(ctx, "unit")
        if answer is None:
            schema = {
                "type": "object",
                "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                "required": ["unit"],
            }
            params = types.ElicitRequestFormParams(message="Which unit?", requested_schema=schema)
            return _ask("unit", types.ElicitRequest(params=params))
        action = answer["action"]
        content = answer.get("content") or {}
        return f"accepted: {content['unit']}" if action == "accept" else _DONE[action]
    result = await ctx.elicit("Which unit?", response_type=UnitChoice)
    if result.action == "accept":
        return f"accepted: {result.data.unit}"
    return _DONE[result.action]


@mcp.tool
async def where(ctx: Context) -> str | types.InputRequiredResult:
    """Lists the client's roots."""
    if ctx._is_modern_protocol():
        answer = _answer(ctx, "roots")
        if answer is None:
            return _ask("roots", types.ListRootsRequest())
        roots = answer["roots"]
    else:
        result = await ctx.session.list_roots()
        roots = [r.model_dump(mode="json", exclude_none=True) for r in result.roots]
    return ", ".join(f"{r.get('name', '-')}={r['uri']}" for r in roots)


if __name__ == "__main__":
    mcp.run(show_banner=False)
