"""A FastMCP server with resources, a resource template and a prompt, on stdio, for
tests/tests/mcp_python.rs (tool-core's McpClient reading and rendering them)."""

from fastmcp import FastMCP

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


if __name__ == "__main__":
    mcp.run(show_banner=False)
