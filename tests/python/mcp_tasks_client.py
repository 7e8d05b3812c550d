"""The official Python MCP client (`mcp.Client`, SDK 2.x) against tool-core's replica server
over streamable HTTP (the URL is the first argument), calling `long_count`:

- "legacy" (initialize, 2025-11-25) and "auto" (server/discover, 2026-07-28) without the
  tasks extension: the plain result, with `notifications/progress` for the call's progress
  token on the way;
- "tasks" (2026-07-28 with a tasks extension written here on the SDK's extension seam: a
  claim for `resultType: "task"` that polls `tasks/get` to the end): `server/discover`
  offers the extension, the call becomes a task, the SDK's `call_tool` returns the same
  result as the plain call, and `tasks/cancel` ends a second task `cancelled`.

Every check asserts; the last line printed is "all checks passed". Run by
tests/tests/mcp/mcp_tasks_python.rs."""

import json
import sys
import urllib.request
from typing import Any, Literal

import anyio
import mcp_types
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from pydantic import ConfigDict

TASKS = "io.modelcontextprotocol/tasks"
URL = ""
seen = {"statuses": [], "polls": 0}


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok {name}")


class CreateTask(mcp_types.Result):
    """A `CreateTaskResult` of the tasks extension (SEP-2663)."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"]
    task_id: str
    status: str
    created_at: str
    last_updated_at: str
    ttl_ms: int | None
    poll_interval_ms: int | None = None


def post(method, params, name=None):
    """One 2026-07-28 request sent by hand, with the headers the streamable HTTP transport
    asks for (`Mcp-Method`, `Mcp-Name`): the SDK has no request types for the extension's
    methods."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
        "Mcp-Name": name or params.get("taskId") or params.get("name"),
    }
    req = urllib.request.Request(URL, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as reply:
        text = reply.read().decode()
    # An SSE reply carries the message on its `data:` line.
    line = next((l[5:] for l in text.splitlines() if l.startswith("data:")), text)
    message = json.loads(line)
    if "error" in message:
        raise AssertionError(f"{method}: {message['error']}")
    return message["result"]


async def request(_session, method, params):
    return await anyio.to_thread.run_sync(post, method, params)


async def follow(created: CreateTask, ctx: ClaimContext) -> mcp_types.CallToolResult:
    check("tasks: the call answers with a working task", created.status == "working", created)
    check("tasks: ttlMs and pollIntervalMs", created.ttl_ms and created.poll_interval_ms, created)
    while True:
        await anyio.sleep((created.poll_interval_ms or 100) / 1000)
        task = await request(ctx.session, "tasks/get", {"taskId": created.task_id})
        seen["polls"] += 1
        if task.get("statusMessage"):
            seen["statuses"].append(task["statusMessage"])
        if task["status"] == "completed":
            return mcp_types.CallToolResult.model_validate(task["result"])
        if task["status"] != "working":
            raise AssertionError(f"task ended {task}")


class Tasks(ClientExtension):
    identifier = TASKS

    def claims(self):
        return [ResultClaim(result_type="task", model=CreateTask, resolve=follow)]


def text(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def plain(url, mode):
    progress = []

    async def on_progress(value, total, message):
        progress.append((value, total, message))

    async with Client(url, mode=mode) as client:
        result = await client.call_tool("long_count", {"n": 5, "ms_per_step": 20}, progress_callback=on_progress)
        check(f"{mode}: the plain result", text(result) == "counted to 5", result)
        check(f"{mode}: progress for the token", [p[0] for p in progress] == [1, 2, 3, 4, 5], progress)
        check(f"{mode}: progress messages", progress[-1][1:] == (5, "step 5 of 5"), progress)
        return result


async def tasks(url, expected):
    async with Client(url, mode="auto", extensions=[Tasks()]) as client:
        caps = client.server_capabilities
        check("tasks: discover offers the extension", TASKS in (caps.extensions or {}), caps)
        result = await client.call_tool("long_count", {"n": 5, "ms_per_step": 60})
        check("tasks: the task's result is the plain call's", result == expected, (result, expected))
        check("tasks: polled while working", seen["polls"] >= 2, seen)
        check("tasks: the status shows the step", any(s.endswith(" of 5") for s in seen["statuses"]), seen)
        # A second task, cancelled by hand: the call is made raw to keep the handle.
        session = client.session
        created = await request(
            session, "tools/call", {"name": "long_count", "arguments": {"n": 500, "ms_per_step": 20}}
        )
        check("tasks: a raw call gets the handle", created.get("resultType") == "task", created)
        ack = await request(session, "tasks/cancel", {"taskId": created["taskId"]})
        check("tasks: cancel is an empty ack", set(ack) <= {"resultType", "_meta"}, ack)
        task = await request(session, "tasks/get", {"taskId": created["taskId"]})
        check("tasks: cancelled", task["status"] == "cancelled", task)


async def main(url):
    await plain(url, "legacy")
    expected = await plain(url, "auto")
    await tasks(url, expected)
    print("all checks passed")


if __name__ == "__main__":
    URL = sys.argv[1]
    anyio.run(main, URL)
