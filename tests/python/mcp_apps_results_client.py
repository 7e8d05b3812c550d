"""The official Python MCP client (`mcp.Client`) on both protocol eras ("legacy": the
initialize handshake, 2025-11-25; "auto": server/discover, 2026-07-28) against two of
tool-core's test servers on stdio:

- the catalog server (the command given first): `answer`, a `Json<i64>` tool, lists a wrapper
  output schema and answers `structuredContent: {"result": 42}` on 2025-11-25, and an integer
  schema and `42` on 2026-07-28; the SDK validates the value against the schema it listed;
- the `mcp_http` example's server (the same command with the argument `apps`): the MCP Apps
  extension advertised, `_meta.ui.resourceUri` on `weather_dashboard` and `_meta.ui` on no
  other tool, the view listed and read as `text/html;profile=mcp-app`, and a text result that
  stands alone.

Every check asserts; the last line printed is "all checks passed". Run by
tests/tests/mcp/mcp_python_apps.rs."""

import sys

import anyio
from mcp import Client, StdioServerParameters

APPS = "io.modelcontextprotocol/ui"
APP_MIME = "text/html;profile=mcp-app"
VIEW = "ui://weather/dashboard"


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok {name}")


async def results(command, mode):
    modern = mode != "legacy"
    async with Client(StdioServerParameters(command=command, args=[]), mode=mode) as client:
        expected = "2026-07-28" if modern else "2025-11-25"
        check(f"{mode}: era", client.protocol_version == expected, client.protocol_version)
        tools = {t.name: t for t in (await client.list_tools()).tools}
        schema = tools["answer"].output_schema
        # The SDK validates structuredContent against this schema in call_tool.
        result = await client.call_tool("answer", {})
        if modern:
            check(f"{mode}: an integer output schema", schema.get("type") == "integer" and "properties" not in schema, schema)
            check(f"{mode}: the integer itself", result.structured_content == 42, result)
        else:
            check(f"{mode}: a wrapper output schema", schema["properties"]["result"]["type"] == "integer" and schema["required"] == ["result"], schema)
            check(f"{mode}: the integer wrapped", result.structured_content == {"result": 42}, result)
        check(f"{mode}: the text is the value", result.content[0].text == "42", result)


async def apps(command, mode):
    async with Client(StdioServerParameters(command=command, args=["apps"]), mode=mode) as client:
        extensions = client.server_capabilities.extensions or {}
        check(f"{mode}: the apps extension", extensions.get(APPS) == {}, client.server_capabilities)
        tools = (await client.list_tools()).tools
        for tool in tools:
            ui = (tool.meta or {}).get("ui")
            if tool.name == "weather_dashboard":
                check(f"{mode}: the tool names its view", ui == {"resourceUri": VIEW}, tool)
            else:
                check(f"{mode}: {tool.name} has no view", ui is None, tool)
        listed = (await client.list_resources()).resources
        check(f"{mode}: the view is listed", [(r.uri, r.mime_type) for r in listed] == [(VIEW, APP_MIME)], listed)
        read = await client.read_resource(VIEW)
        contents = read.contents[0]
        check(f"{mode}: the view is HTML", contents.mime_type == APP_MIME and contents.text.startswith("<!DOCTYPE html>"), contents)
        check(f"{mode}: the view's _meta.ui", (contents.meta or {}).get("ui") == {"prefersBorder": True}, contents)
        result = await client.call_tool("weather_dashboard", {"city": "Oslo"})
        check(f"{mode}: the text stands alone", not result.is_error and result.content[0].text.startswith("Weather in Oslo"), result)


async def main(command):
    for mode in ["legacy", "auto"]:
        await results(command, mode)
        await apps(command, mode)
    print("all checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
