"""The official Python MCP client against tool-core's catalog test server (a command given as
the first argument, spoken to over stdio). Every check asserts; the last line printed is
"all checks passed". Run by tests/tests/mcp_python.rs."""

import base64
import json
import sys

import anyio
import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok {name}")


async def main(command):
    logs = []
    notifications = []
    answer = {"mode": "accept"}
    changed = anyio.Event()
    updated = anyio.Event()
    tools_changed = anyio.Event()

    async def on_log(params):
        logs.append((params.level, params.logger, params.data))

    async def on_message(message):
        method = getattr(message, "method", None)
        notifications.append(method)
        if method == "notifications/resources/updated":
            updated.set()
        if method == "notifications/prompts/list_changed":
            changed.set()
        if method == "notifications/tools/list_changed":
            tools_changed.set()

    async def sampling(context, params):
        prompt = params.messages[0].content.text
        hints = [h.name for h in (params.model_preferences.hints or [])]
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"py: {prompt} {hints}"),
            model="py-model",
            stop_reason="endTurn",
        )

    async def elicitation(context, params):
        schema = params.requested_schema
        check("elicitation schema is flat", schema["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"], schema)
        if answer["mode"] == "accept":
            return types.ElicitResult(action="accept", content={"unit": "celsius"})
        return types.ElicitResult(action=answer["mode"])

    async def roots(context):
        return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/py", name="py")])

    params = StdioServerParameters(command=command, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=sampling,
            elicitation_callback=elicitation,
            list_roots_callback=roots,
            logging_callback=on_log,
            message_handler=on_message,
        ) as session:
            init = await session.initialize()
            caps = init.capabilities
            check("handshake era", init.protocol_version == "2025-11-25", init.protocol_version)
            check("resources capability", caps.resources is not None and caps.resources.subscribe, caps)
            check("prompts capability", caps.prompts is not None, caps)
            check("completions capability", caps.completions is not None, caps)
            check("logging capability", caps.logging is not None, caps)
            check("tools listChanged", caps.tools is not None and caps.tools.list_changed, caps)

            resources = (await session.list_resources()).resources
            check("resources/list", [str(r.uri) for r in resources] == ["docs://units", "images://logo"], resources)
            templates = (await session.list_resource_templates()).resource_templates
            check("resources/templates/list", [t.uri_template for t in templates] == ["weather://{city}/current"], templates)
            # Icons and _meta as the SDK's own models read them.
            check("resource icon", [(i.src, i.sizes) for i in resources[0].icons or []] == [("https://example.com/ruler.svg", None)], resources[0])
            check("resource _meta", resources[0].meta == {"audience": "users"}, resources[0])
            check("resource without metadata", resources[1].icons is None and resources[1].meta is None, resources[1])
            check("template icon", [i.src for i in templates[0].icons or []] == ["https://example.com/cloud.png"], templates[0])
            read_json = (await session.read_resource("weather://Oslo/current")).contents[0]
            check("resources/read JSON", json.loads(read_json.text) == {"city": "Oslo", "temp_c": 21.5}, read_json)
            check("resources/read MIME", read_json.mime_type == "application/json", read_json)
            read_blob = (await session.read_resource("images://logo")).contents[0]
            check("resources/read blob", base64.b64decode(read_blob.blob) == b"foobar", read_blob)
            try:
                await session.read_resource("docs://nothing")
                check("unknown resource is an error", False)
            except MCPError as e:
                check("unknown resource is -32002", e.code == -32002, e)

            prompts = (await session.list_prompts()).prompts
            check("prompts/list", [p.name for p in prompts] == ["plan_trip"], prompts)
            check("prompt arguments", [(a.name, a.required) for a in prompts[0].arguments] == [("city", True), ("days", False)], prompts[0])
            check("prompt icon and _meta", [(i.src, i.sizes) for i in prompts[0].icons or []] == [("https://example.com/plane.png", ["any"])] and prompts[0].meta == {"version": 2}, prompts[0])
            got = await session.get_prompt("plan_trip", {"city": "Rome", "days": "5"})
            check("prompts/get with arguments", got.messages[0].content.text == "Plan 5 days in Rome.", got)
            got = await session.get_prompt("plan_trip", {"city": "Rome"})
            check("prompts/get without the optional one", got.messages[0].content.text == "Plan 3 days in Rome.", got)
            check("assistant message", got.messages[1].role == "assistant", got)
            try:
                await session.get_prompt("plan_trip", {})
                check("missing argument is an error", False)
            except MCPError as e:
                check("missing argument is invalid params", e.code == -32602 and "city" in e.message, e)

            done = await session.complete(types.PromptReference(type="ref/prompt", name="plan_trip"), {"name": "city", "value": "lo"})
            check("completion/complete", done.completion.values == ["London"], done)

            await session.set_logging_level("info")
            result = await session.call_tool("count_to", {"n": 3})
            check("count_to result", result.content[0].text == "counted to 3", result)
            check("logs at info and above, in order", [(l, d) for l, _, d in logs] == [("info", "step 1"), ("info", "step 2"), ("info", "step 3")], logs)
            check("logger is the tool", all(name == "count_to" for _, name, _ in logs), logs)

            result = await session.call_tool("haiku", {"topic": "rain"})
            check("sampling", result.content[0].text == "py: A haiku about rain ['claude'] (by py-model)", result)

            for mode, expected in [("accept", "Celsius"), ("decline", "declined"), ("cancel", "cancelled")]:
                answer["mode"] = mode
                result = await session.call_tool("ask_unit", {})
                check(f"elicitation {mode}", result.content[0].text == expected, result)

            tools = {t.name: t for t in (await session.list_tools()).tools}
            schema = tools["answer"].output_schema
            icon = (tools["answer"].icons or [None])[0]
            check("tool icon", icon is not None and (icon.src, icon.mime_type, icon.sizes, icon.theme) == ("https://example.com/answer.png", "image/png", ["48x48"], "dark"), tools["answer"])
            check("tool _meta", tools["answer"].meta == {"com.example/source": "deep-thought", "seconds": 7500000}, tools["answer"])
            check("tool without metadata", tools["count_to"].icons is None and tools["count_to"].meta is None, tools["count_to"])
            check("integer output schema is wrapped", schema["properties"]["result"]["type"] == "integer" and schema["required"] == ["result"], schema)
            # The SDK validates structuredContent against the tool's output schema here.
            result = await session.call_tool("answer", {})
            check("structured integer result", result.structured_content == {"result": 42} and result.content[0].text == "42", result)

            result = await session.call_tool("where_am_i", {})
            check("roots", result.content[0].text == "file:///tmp/py (py)", result)

            await session.subscribe_resource("weather://Oslo/current")
            result = await session.call_tool("touch", {"uri": "weather://Oslo/current"})
            check("touch told one subscriber", result.content[0].text == "told 1", result)
            with anyio.fail_after(10):
                await updated.wait()
            check("notifications/resources/updated", True)

            result = await session.call_tool("add_prompt", {})
            check("add_prompt", result.content[0].text == "Ok(())", result)
            with anyio.fail_after(10):
                await changed.wait()
            prompts = (await session.list_prompts()).prompts
            check("list_changed, then the new prompt is listed", [p.name for p in prompts] == ["plan_trip", "packing"], prompts)

            result = await session.call_tool("add_tool", {})
            check("add_tool", result.content[0].text == "Ok(())", result)
            with anyio.fail_after(10):
                await tools_changed.wait()
            tools = [t.name for t in (await session.list_tools()).tools]
            check("tools/list_changed, then the new tool is listed", tools[-1] == "shout" and "add_tool" in tools, tools)
            result = await session.call_tool("shout", {"text": "hi"})
            check("the new tool is callable", result.content[0].text == "HI", result)
    print("all checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
