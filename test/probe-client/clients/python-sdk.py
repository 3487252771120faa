"""Drive the official Python MCP client (`mcp` 2.3.0, `mcp.Client`) against mcprely probe-client.

It connects the way a host would, calls the named scenario tools one after the other, and
prints one JSON line per call to stdout:
    {"scenario": name, "outcome": "result"|"error", "error"?: message, "ms": elapsed}
(+ "isError": true when the result had isError, + "retry": true on the --retry-with-key second
call), as the TypeScript drivers beside it do. After a tool's first non-error result the SDK itself
sends tools/list (to check the output schema); that is inside the call's ms. After the last call it
closes the client and exits 0, even when calls failed. Exit 1: could not connect (reason on
stderr). Exit 2: bad usage.

Usage:
    python python-sdk.py [options] <url>                      # Streamable HTTP
    python python-sdk.py [options] --stdio <program> [args…]  # stdio: spawns the server itself
Options:
    --scenarios a,b,c        scenario tools to call, in this order (required)
    --timeout <ms>           per-request read timeout (call_tool's read_timeout_seconds); none if absent
    --progress               pass a progress callback (the SDK then sends _meta.progressToken)
    --abort-after-response   cancel the call's anyio cancel scope right after the call settled
    --retry-with-key         a slow_write that failed with the SDK's read timeout (-32001) is
                             called once more with the same idempotencyKey
    --protocol <version>     2025-11-25: Client(mode="legacy"), the initialize handshake (it always
                             offers 2025-11-25). 2026-07-28: Client(mode="2026-07-28"), which adopts
                             the version without any server/discover on the wire. Absent: the SDK
                             default mode="auto" (server/discover at 2026-07-28, else initialize),
                             also chosen by "auto".
    --cancel-after <ms>      give up on each call after this many ms (anyio.move_on_after)
    --list-tools             tools/list first (client.list_tools()), printed as
                             {"listTools": "result"|"error", "tools"?: names, "error"?, "protocol": the
                             version the client settled}; --scenarios may then be empty
"""

import argparse
import json
import os
import sys
import time
import uuid

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import REQUEST_TIMEOUT, Implementation

MODES = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28", "auto": "auto"}


def parse_args(argv):
    stdio = None
    if "--stdio" in argv:
        at = argv.index("--stdio")
        argv, stdio = argv[:at], argv[at + 1 :]
        if not stdio:
            print("--stdio needs a program", file=sys.stderr)
            sys.exit(2)
    p = argparse.ArgumentParser(description="Drive the Python MCP SDK client against mcprely probe-client.")
    p.add_argument("url", nargs="?")
    p.add_argument("--scenarios", default="")
    p.add_argument("--timeout", type=float)
    p.add_argument("--progress", action="store_true")
    p.add_argument("--abort-after-response", action="store_true")
    p.add_argument("--retry-with-key", action="store_true")
    p.add_argument("--protocol", choices=sorted(MODES))
    p.add_argument("--cancel-after", type=float)
    p.add_argument("--list-tools", action="store_true")
    p.add_argument("--drop-retry", type=int, help="drop_stream_resumable called with {retryMs}: a later reconnection")
    args = p.parse_args(argv)
    if not args.scenarios and not args.list_tools:
        p.error("--scenarios is required (or --list-tools)")
    if (args.url is None) == (stdio is None):
        p.error("give either a URL or --stdio <program> [args…]")
    args.stdio = stdio
    return args


def describe(e):
    """The innermost message of an exception, through the SDK's task-group exception groups."""
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    return f"{type(e).__name__}: {e}"


async def on_progress(progress, total, message):
    pass  # its presence is what makes the SDK send _meta.progressToken


async def call(client, args, name, arguments, extra=None):
    """Make one call, print its line, and say whether it failed with the SDK's read timeout."""
    started = time.monotonic()
    line = {"scenario": name}
    timed_out = False
    try:
        with anyio.CancelScope() as abort:
            with anyio.move_on_after(args.cancel_after / 1000 if args.cancel_after is not None else None) as give_up:
                result = await client.call_tool(
                    name,
                    arguments,
                    read_timeout_seconds=args.timeout / 1000 if args.timeout is not None else None,
                    progress_callback=on_progress if args.progress else None,
                )
            if args.abort_after_response:
                # The SDK's only caller-side cancel is cancelling the scope around the call. The call
                # has settled here, so this reaches nothing: nothing is pending for it to cancel.
                abort.cancel()
        if give_up.cancelled_caught:
            line.update(outcome="error", error=f"cancelled by the caller after {args.cancel_after:g} ms")
        else:
            line["outcome"] = "result"
            if result.is_error:
                line["isError"] = True
    except MCPError as e:
        timed_out = e.code == REQUEST_TIMEOUT
        line.update(outcome="error", error=f"{e.message} (code {e.code})")
    except Exception as e:  # e.g. a result that fails validation
        line.update(outcome="error", error=describe(e))
    except anyio.get_cancelled_exc_class():
        # The transport failed and tore the session down under the call (e.g. a POST that cannot
        # connect): say so for this call, then let the cancellation end the session.
        line.update(outcome="error", error="cancelled: the connection failed under the call",
                    ms=round((time.monotonic() - started) * 1000), **(extra or {}))
        print(json.dumps(line), flush=True)
        raise
    line["ms"] = round((time.monotonic() - started) * 1000)
    print(json.dumps({**line, **(extra or {})}), flush=True)
    return timed_out


async def main(args):
    if args.stdio:
        # The whole environment, not the SDK's default six variables: the probe server may need it.
        server = StdioServerParameters(command=args.stdio[0], args=args.stdio[1:], env=dict(os.environ))
    else:
        server = args.url
    connected = False
    try:
        info = Implementation(name="mcprely-driver-python-sdk", version="1.0.0")
        async with Client(server, mode=MODES[args.protocol or "auto"], client_info=info) as client:
            connected = True
            if args.list_tools:
                try:
                    listed = await client.list_tools()
                    line = {"listTools": "result", "tools": [tool.name for tool in listed.tools]}
                except Exception as e:
                    line = {"listTools": "error", "error": describe(e)}
                print(json.dumps({**line, "protocol": client.protocol_version}), flush=True)
            for name in filter(None, args.scenarios.split(",")):
                arguments = {"idempotencyKey": str(uuid.uuid4())} if name == "slow_write" else {}
                if name == "drop_stream_resumable" and args.drop_retry is not None:
                    arguments = {"retryMs": args.drop_retry}
                timed_out = await call(client, args, name, arguments)
                if timed_out and name == "slow_write" and args.retry_with_key:
                    await call(client, args, name, arguments, {"retry": True})
            # Closing does not wait for a notifications/cancelled POST still in flight; give it a moment.
            await anyio.sleep(0.2)
    except Exception as e:
        if not connected:
            print(f"could not connect: {describe(e)}", file=sys.stderr)
            return 1
        print(f"the connection failed: {describe(e)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(anyio.run(main, parse_args(sys.argv[1:])))
