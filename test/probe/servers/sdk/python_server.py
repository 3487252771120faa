"""An MCP server built with the official Python SDK (`mcp` 2.x, MCPServer), in a correct and several defective
variants, so the probe can be tested against what the SDK itself does. Run it with the venv of
scripts/python-sdk.mjs:

  .python-sdk/bin/python python_server.py <variant> stdio
  .python-sdk/bin/python python_server.py <variant> http <port>   Streamable HTTP on 127.0.0.1:<port>/mcp
                                     (port 0 = any; prints "listening <port>" when ready)

Variants (what slow_job does once its request is cancelled):
  correct                stops at once (the SDK cancels the handler's scope) and sends nothing more
  ignore-cancel          shields its loop from the cancellation, works to the end and returns its result normally
                         (prints "finished (after abort)" on stderr); the SDK drops that result
  progress-after-cancel  keeps calling ctx.report_progress for ~2 s (shielded), then stops
  reply-to-cancel        answers the cancelled request with the error -32800: the SDK never answers a cancelled
                         request (an MCPError raised after the cancellation is dropped), so the variant writes the
                         error through the request's dispatch context itself
Tools: slow_job {steps=5, stepMs=200} (progress each step when asked), job_status {} -> { active }.
See docs/sdk-behaviours.md.
"""

import math
import sys

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import ErrorData, ToolAnnotations
from mcp_types.jsonrpc import JSONRPCError
from pydantic import BaseModel

VARIANTS = ("correct", "ignore-cancel", "progress-after-cancel", "reply-to-cancel")
args = sys.argv[1:]
if len(args) < 2 or args[0] not in VARIANTS or args[1] not in ("stdio", "http"):
    print(f"usage: python_server.py <{'|'.join(VARIANTS)}> stdio | http <port>", file=sys.stderr)
    sys.exit(2)
variant, mode = args[0], args[1]
port = int(args[2]) if len(args) > 2 else 0

active = 0
"""slow_job runs whose loop has not exited yet."""

mcp = MCPServer(name=f"sdk-python-{variant}", version="2.0.0", log_level="WARNING")
READ_ONLY = ToolAnnotations(readOnlyHint=True)


class JobStatus(BaseModel):
    active: int


def dispatch_context(ctx: Context):
    """The SDK's per-request dispatch context (it holds cancel_requested and the way back to the client)."""
    return ctx.request_context.session._request_outbound


def aborted(ctx: Context) -> bool:
    """Whether the request was cancelled: notifications/cancelled, or the scope cancelled by a closed stream."""
    cancel_requested = getattr(dispatch_context(ctx), "cancel_requested", None)
    if cancel_requested is not None and cancel_requested.is_set():
        return True
    return anyio.current_effective_deadline() == -math.inf


async def write_error_directly(ctx: Context) -> None:
    dctx = dispatch_context(ctx)
    while hasattr(dctx, "_inner"):  # 2026-07-28 on stdio wraps the JSON-RPC context (no server requests)
        dctx = dctx._inner
    error = ErrorData(code=-32800, message="Request cancelled")
    dispatcher = getattr(dctx, "_dispatcher", None)
    if dispatcher is not None:  # stdio, and 2025-11-25 over HTTP
        await dispatcher._write_error(dctx._request_id, error)
        return
    sink = getattr(dctx, "sink", None)  # 2026-07-28 over HTTP: the request's own SSE stream
    if sink is None:
        print(f"reply-to-cancel: no channel to answer on ({type(dctx).__name__})", file=sys.stderr)
        return
    from mcp.server._streamable_http_modern import _sse_event

    try:
        await sink.send(_sse_event(JSONRPCError(jsonrpc="2.0", id=dctx.request_id, error=error)))
    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
        print("reply-to-cancel: the response stream is closed", file=sys.stderr)


@mcp.tool(description="Runs for steps x stepMs, reporting progress", annotations=READ_ONLY)
async def slow_job(ctx: Context, steps: int = 5, stepMs: int = 200) -> str:
    global active
    active += 1
    try:
        for i in range(1, steps + 1):
            if variant == "ignore-cancel":
                with anyio.CancelScope(shield=True):
                    await anyio.sleep(stepMs / 1000)
                if not aborted(ctx):
                    await ctx.report_progress(i, steps)
                continue
            try:
                await anyio.sleep(stepMs / 1000)
            except anyio.get_cancelled_exc_class():
                with anyio.CancelScope(shield=True):
                    if variant == "progress-after-cancel":
                        for k in range(1, 11):
                            await anyio.sleep(0.2)
                            await ctx.report_progress(i + k / 10, steps)
                    elif variant == "reply-to-cancel":
                        await write_error_directly(ctx)
                if variant == "reply-to-cancel":  # the SDK's own path, which it silences for a cancelled request
                    raise MCPError(-32800, "Request cancelled") from None
                raise
            await ctx.report_progress(i, steps)
        if aborted(ctx):
            print("finished (after abort)", file=sys.stderr, flush=True)
        return f"done after {steps} steps"
    finally:
        active -= 1


@mcp.tool(description="How many slow_job runs are still working", annotations=READ_ONLY)
async def job_status() -> JobStatus:
    return JobStatus(active=active)


async def serve_http() -> None:
    import uvicorn

    app = mcp.streamable_http_app(host="127.0.0.1")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))

    async def announce() -> None:
        while not server.started:
            await anyio.sleep(0.02)
        bound = server.servers[0].sockets[0].getsockname()[1]
        print(f"listening {bound}", flush=True)

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await server.serve()


if mode == "stdio":
    mcp.run("stdio")
else:
    anyio.run(serve_http)
