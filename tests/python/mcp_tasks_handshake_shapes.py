"""The official Python SDK's wire models of MCP 2025-11-25 (`mcp_types`, generated from that
revision's schema) read what tool-core's server sent on a 2025-11-25 session with tasks: the
JSON file named by the first argument holds the `initialize` result, the `tools/list` result,
a task-augmented call's `CreateTaskResult`, a `tasks/get` result, a `tasks/result` result and
a `tasks/cancel` result. The SDK's client has no calls for this revision's tasks, so the test
(tests/tests/mcp/mcp_tasks_handshake.rs) sends them as raw JSON-RPC and hands the answers here.

Every check asserts; the last line printed is "all checks passed"."""

import json
import sys

from mcp_types._v2025_11_25 import (
    CallToolResult,
    CancelTaskResult,
    CreateTaskResult,
    GetTaskResult,
    InitializeResult,
    ListToolsResult,
    RelatedTaskMetadata,
)


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok {name}")


def main():
    with open(sys.argv[1]) as f:
        seen = json.load(f)

    init = InitializeResult.model_validate(seen["initialize"])
    tasks = init.capabilities.tasks
    check(
        "initialize: tasks.requests.tools.call and tasks.cancel, no tasks.list",
        tasks is not None
        and tasks.requests is not None
        and tasks.requests.tools is not None
        and tasks.requests.tools.call is not None
        and tasks.cancel is not None
        and tasks.list is None,
        seen["initialize"],
    )

    tools = {t.name: t for t in ListToolsResult.model_validate(seen["tools"]).tools}
    check(
        "tools/list: execution.taskSupport optional, required, absent",
        tools["long_count"].execution.task_support == "optional"
        and tools["only_as_task"].execution.task_support == "required"
        and tools["add"].execution is None,
        seen["tools"],
    )

    created = CreateTaskResult.model_validate(seen["created"])
    check(
        "tools/call with params.task: a working task with ttl and pollInterval",
        created.task.status == "working"
        and created.task.ttl == 20000
        and created.task.poll_interval == 50,
        seen["created"],
    )

    polled = GetTaskResult.model_validate(seen["get"])
    check(
        "tasks/get: the task, working, with the step reached",
        polled.task_id == created.task.task_id
        and polled.status == "working"
        and (polled.status_message or "").startswith("step "),
        seen["get"],
    )

    result = CallToolResult.model_validate(seen["result"])
    related = RelatedTaskMetadata.model_validate(
        (result.meta or {})["io.modelcontextprotocol/related-task"]
    )
    check(
        "tasks/result: the CallToolResult tied to its task",
        related.task_id == created.task.task_id
        and result.content[0].text == "counted to 10"
        and not result.is_error,
        seen["result"],
    )

    cancelled = CancelTaskResult.model_validate(seen["cancelled"])
    check(
        "tasks/cancel: the task, already cancelled",
        cancelled.status == "cancelled" and cancelled.ttl == 20000,
        seen["cancelled"],
    )
    print("all checks passed")


if __name__ == "__main__":
    main()
