# MCP over HTTP in production (tests/tests/mcp_http_scale.rs):
# redis-server and nginx from the system's packages, and the
# official Python MCP client in a venv at the workspace root.
missing=""
for program in redis-server nginx; do
    command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ] || missing="$missing $program"
done
if [ -n "$missing" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
if [ -z "${TOOL_CORE_PYTHON:-}" ] && [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv && .venv/bin/pip install -q mcp==2.3.0
fi
