"""The official Python MCP client (`mcp.Client`) against tool-core's catalog test server (a
command given as the first argument, spoken to over stdio) in the era given as the second:
"legacy" (the initialize handshake, 2025-11-25) or "auto" (server/discover, 2026-07-28).
The same tools ask the client's sampling, elicitation and roots callbacks in both eras; on
2026-07-28 they do it through InputRequiredResult and retries, which the SDK drives. Every
check asserts; the last line printed is "all checks passed". Run by tests/tests/mcp/mcp_python.rs."""

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
    asked = {"sampling": 0, "elicitation": 0, "roots": 0}
    logs = []

    async def sampling(context, params):
        asked["sampling"] += 1
        prompt = params.messages[0].content.text
        hints = [h.name for h in (params.model_preferences.hints or [])]
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"py: {prompt} {hints}"),
            model="py-model",
            stop_reason="endTurn",
        )

    async def elicitation(context, params):
        asked["elicitation"] += 1
        schema = params.requested_schema
        check("elicitation schema is flat", schema["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"], schema)
        if answer["mode"] == "accept":
            return types.ElicitResult(action="accept", content={"unit": "celsius"})
        return types.ElicitResult(action=answer["mode"])

    async def roots(context):
        asked["roots"] += 1
        return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/py", name="py")])

    async def on_log(params):
        logs.append(params.data)

    modern = mode != "legacy"
    server = StdioServerParameters(command=command, args=[])
    async with Client(
        server,
        mode=mode,
        sampling_callback=sampling,
        elicitation_callback=elicitation,
        list_roots_callback=roots,
        logging_callback=on_log,
    ) as client:
        expected = "2026-07-28" if modern else "2025-11-25"
        check(f"{mode}: era", client.protocol_version == expected, client.protocol_version)
        caps = client.server_capabilities
        check(f"{mode}: logging offered only before 2026-07-28", (caps.logging is None) == modern, caps)

        result = await client.call_tool("haiku", {"topic": "rain"})
        check(f"{mode}: sampling", result.content[0].text == "py: A haiku about rain ['claude'] (by py-model)", result)

        for choice, text in [("accept", "Celsius"), ("decline", "declined"), ("cancel", "cancelled")]:
            answer["mode"] = choice
            result = await client.call_tool("ask_unit", {})
            check(f"{mode}: elicitation {choice}", result.content[0].text == text, result)

        result = await client.call_tool("where_am_i", {})
        check(f"{mode}: roots", result.content[0].text == "file:///tmp/py (py)", result)
        check(f"{mode}: each question asked once", asked == {"sampling": 1, "elicitation": 3, "roots": 1}, asked)

        # Results of both eras' shapes (2026-07-28 adds resultType, which the SDK requires).
        got = await client.get_prompt("plan_trip", {"city": "Oslo"})
        check(f"{mode}: prompts/get", got.messages[0].content.text == "Plan 3 days in Oslo.", got)
        read = await client.read_resource("docs://units")
        check(f"{mode}: resources/read", read.contents[0].text == "# Units\nCelsius.", read)

        result = await client.call_tool("count_to", {"n": 2})
        check(f"{mode}: a tool that logs", result.content[0].text == "counted to 2", result)

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
            check("retry with the answer", done.content[0].text == "waves (by hand)", done)
            try:
                await client.session.call_tool(
                    "haiku", {"topic": "sea"}, input_responses={"q0": reply}, request_state=first.request_state + "x"
                )
                check("an altered request state is refused", False)
            except MCPError as e:
                check("an altered request state is invalid params", e.code == -32602, e)
            try:
                await client.session.call_tool(
                    "haiku", {"topic": "lake"}, input_responses={"q0": reply}, request_state=first.request_state
                )
                check("a state moved to other arguments is refused", False)
            except MCPError as e:
                check("a state moved to other arguments is invalid params", e.code == -32602, e)
            check("log messages stay on the server", logs == [], logs)
    print("all checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
