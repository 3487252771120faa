"""Drive mcprely mcp with the official Python MCP client (`mcp`, `mcp.Client`), as a host would: connect,
tools/list, then each call of calls.json (a progress callback where it says so). Prints one JSON object:
{"protocol": the version settled, "tools": [...], "results": [{"name", "result" | "error", "progress"}]}.

Usage: python python-sdk-mcp.py 2025-11-25|2026-07-28 (<url> | --stdio <program> [args...])
"""

import json
import os
import pathlib
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import Implementation

MODES = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28"}


async def main(argv):
    protocol, target = argv[0], argv[1:]
    if target[0] == "--stdio":
        server = StdioServerParameters(command=target[1], args=target[2:], env=dict(os.environ))
    else:
        server = target[0]
    calls = json.loads((pathlib.Path(__file__).parent / "calls.json").read_text())
    info = Implementation(name="mcprely-mcp-test-python", version="1.0.0")
    async with Client(server, mode=MODES[protocol], client_info=info) as client:
        listed = await client.list_tools()
        results = []
        for call in calls:
            progress = []

            async def on_progress(value, total, message):
                progress.append(value)

            try:
                kwargs = {"progress_callback": on_progress} if call.get("progress") else {}
                result = await client.call_tool(call["name"], call["arguments"], **kwargs)
                results.append({"name": call["name"], "result": result.model_dump(by_alias=True, exclude_none=True),
                                "progress": len(progress)})
            except Exception as e:  # the test reads what failed
                results.append({"name": call["name"], "error": f"{type(e).__name__}: {e}", "progress": len(progress)})
        tools = [tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools]
        print(json.dumps({"protocol": client.protocol_version, "tools": tools, "results": results}), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1:])
