"""The official Python MCP client (`mcp.Client`) against the mcp_server example (the command
given as the first argument, spoken to over stdio) in the era given as the second: "legacy"
(the initialize handshake, 2025-11-25) or "auto" (server/discover, 2026-07-28). The example's
`haiku` samples and `ask_unit` elicits; on a handshake session they reach the client's
callbacks as server-to-client requests, on 2026-07-28 as InputRequiredResult and a retry the
SDK drives. Every check asserts; the last line printed is "all checks passed". Run by
examples/tests/inspector.rs."""

import sys

import anyio
import mcp.types as types
from mcp import Client, MCPError, StdioServerParameters


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok {name}")


async def main(command, mode):
    answer = {"mode": "accept"}
    asked = {"sampling": 0, "elicitation": 0}

    async def sampling(context, params):
        asked["sampling"] += 1
        prompt = params.messages[0].content.text
        hints = [h.name for h in (params.model_preferences.hints or [])]
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"py: {prompt} {hints} {params.max_tokens}"),
            model="py-model",
            stop_reason="endTurn",
        )

    async def elicitation(context, params):
        asked["elicitation"] += 1
        schema = params.requested_schema
        check("elicitation schema is flat", schema["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"], schema)
        if answer["mode"] == "accept":
            return types.ElicitResult(action="accept", content={"unit": "fahrenheit"})
        return types.ElicitResult(action=answer["mode"])

    modern = mode != "legacy"
    server = StdioServerParameters(command=command, args=[])
    async with Client(server, mode=mode, sampling_callback=sampling, elicitation_callback=elicitation) as client:
        expected = "2026-07-28" if modern else "2025-11-25"
        check(f"{mode}: era", client.protocol_version == expected, client.protocol_version)

        result = await client.call_tool("haiku", {"topic": "rain"})
        text = result.content[0].text
        check(f"{mode}: sampling", text == "py: Write a haiku about rain. ['claude'] 100", text)

        for choice, reply in [
            ("accept", "using Fahrenheit"),
            ("decline", "the user declined; keeping Celsius"),
            ("cancel", "no answer; keeping Celsius"),
        ]:
            answer["mode"] = choice
            result = await client.call_tool("ask_unit", {})
            check(f"{mode}: elicitation {choice}", result.content[0].text == reply, result)
        check(f"{mode}: each question asked once", asked == {"sampling": 1, "elicitation": 3}, asked)

        got = await client.get_prompt("plan_trip", {"city": "Oslo"})
        check(f"{mode}: prompts/get", got.messages[0].content.text.startswith("Plan a 3-day trip to Oslo."), got)
        read = await client.read_resource("docs://units")
        check(f"{mode}: resources/read", read.contents[0].text.startswith("# Units"), read)

        if modern:
            # One round by hand: the question, then the retry with its answer.
            first = await client.session.call_tool("haiku", {"topic": "sea"}, allow_input_required=True)
            check("input_required", isinstance(first, types.InputRequiredResult), first)
            request = first.input_requests["q0"]
            check("a sampling request", request.method == "sampling/createMessage", request)
            reply = {"role": "assistant", "content": {"type": "text", "text": "waves"}, "model": "hand"}
            done = await client.session.call_tool(
                "haiku", {"topic": "sea"}, input_responses={"q0": reply}, request_state=first.request_state
            )
            check("retry with the answer", done.content[0].text == "waves", done)
            try:
                await client.session.call_tool(
                    "haiku", {"topic": "lake"}, input_responses={"q0": reply}, request_state=first.request_state
                )
                check("a state moved to other arguments is refused", False)
            except MCPError as e:
                check("a state moved to other arguments is invalid params", e.code == -32602, e)
    print("all checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
