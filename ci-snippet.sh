# MCP tests with the official Python client (tests/tests/mcp_python.rs) need a Python with
# the `mcp` package; the test uses $TOOL_CORE_PYTHON, else <workspace>/.venv/bin/python.
if [ -z "${TOOL_CORE_PYTHON:-}" ] && [ ! -x .venv/bin/python ]; then
    command -v python3 >/dev/null || (apt-get update && apt-get install -y python3 python3-venv)
    python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0 fastmcp==4.1.6
fi
