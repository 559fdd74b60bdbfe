#!/usr/bin/env python3
"""An official-SDK MCP server (mcp 2.3.0) on stdio: the peer our reference
clients (04, 08, 09, 10) run against in CI.

Usage: sdk_server.py [--legacy-only] [--page-size N] [--grow-after-walk]
                     [--stall-first-slow] [--http-port N]

Tools:
  echo(text)   returns the text.
  slow(steps)  reports progress 1..steps (total = steps), 50 ms apart, then
               returns "done in N steps". With --stall-first-slow the first
               call reports progress 1 and then waits 30 s, so the client
               must cancel it; later calls run normally.
  greet()      asks the user's name with a form elicitation, through the
               SDK's Resolve/Elicit: a server-to-client elicitation/create
               request in the legacy era (2025-11-25 client/elicitation), an
               input_required result in the modern one (2026-07-28
               basic/patterns/mrtr). Returns "Hello, <name>!".

Options:
  --legacy-only      serve only the handshake era: the SDK's own
                     handshake-era stream loop (a private helper; mcp 2.3.0
                     has no public switch), so a 2026-07-28 request is refused.
  --page-size N      tools/list pages of N tools with an opaque nextCursor; a
                     cursor we never handed out gets -32602. Without it the
                     SDK's own single-page tools/list serves.
  --grow-after-walk  once a client has walked every page, wait 100 ms, add a
                     tool `late` and publish a tools list-changed event to
                     subscriptions/listen streams.
  --http-port N      serve Streamable HTTP at http://127.0.0.1:N/mcp (the
                     SDK's own transport) instead of stdio.
The 2026-07-28 results of tools/list carry ttlMs 60000 and cacheScope public.
"""

import argparse
from contextlib import asynccontextmanager

import anyio
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ToolsListChanged
from mcp_types import INVALID_PARAMS, ListToolsResult, PaginatedRequestParams
from pydantic import BaseModel
from typing_extensions import Annotated

args = argparse.ArgumentParser()
args.add_argument("--legacy-only", action="store_true")
args.add_argument("--page-size", type=int, default=0)
args.add_argument("--grow-after-walk", action="store_true")
args.add_argument("--stall-first-slow", action="store_true")
args.add_argument("--http-port", type=int, default=0)
options = args.parse_args()

bus = InMemorySubscriptionBus()
state = {"slow_calls": 0, "grown": False, "tasks": None}


@asynccontextmanager
async def lifespan(_server):
    async with anyio.create_task_group() as tasks:
        state["tasks"] = tasks
        yield {}
        tasks.cancel_scope.cancel()


mcp = MCPServer(
    "py-sdk-peer",
    version="2.3.0-interop",
    instructions="The Python SDK as a peer for mcplings CI",
    cache_hints={"tools/list": CacheHint(ttl_ms=60_000, scope="public")},
    subscriptions=bus,
    lifespan=lifespan,
)


@mcp.tool()
def echo(text: str) -> str:
    """Returns the text it is given."""
    return text


@mcp.tool()
async def slow(steps: int, ctx: Context) -> str:
    """Counts to `steps`, reporting progress at each step."""
    state["slow_calls"] += 1
    if options.stall_first_slow and state["slow_calls"] == 1:
        await ctx.report_progress(1, steps)
        await anyio.sleep(30)
    for step in range(1, steps + 1):
        await anyio.sleep(0.05)
        await ctx.report_progress(step, steps)
    return f"done in {steps} steps"


class Name(BaseModel):
    name: str


def ask_name() -> Elicit[Name]:
    return Elicit("What is your name?", Name)


@mcp.tool()
def greet(who: Annotated[Name, Resolve(ask_name)]) -> str:
    """Greets the user, after asking their name."""
    return f"Hello, {who.name}!"


async def late() -> str:
    """A tool that appears after the first full walk (--grow-after-walk)."""
    return "late"


async def grow() -> None:
    await anyio.sleep(0.1)
    mcp.add_tool(late)
    await bus.publish(ToolsListChanged())


async def paged_tools(_ctx, params: PaginatedRequestParams) -> ListToolsResult:
    """tools/list in pages of --page-size; the cursor is `page@<index>`."""
    tools = await mcp.list_tools()
    cursor = params.cursor if params else None
    start = 0
    if cursor is not None:
        index = cursor.removeprefix("page@")
        if not cursor.startswith("page@") or not index.isdigit() or not 0 < int(index) < len(tools):
            raise MCPError(INVALID_PARAMS, f"Invalid cursor: {cursor}")
        start = int(index)
    end = start + options.page_size
    next_cursor = f"page@{end}" if end < len(tools) else None
    if next_cursor is None and options.grow_after_walk and not state["grown"]:
        state["grown"] = True
        state["tasks"].start_soon(grow)
    return ListToolsResult(tools=tools[start:end], next_cursor=next_cursor)


if options.page_size > 0:
    # MCPServer lists every tool in one page; the low-level server takes a handler of our own.
    mcp._lowlevel_server.add_request_handler("tools/list", PaginatedRequestParams, paged_tools)


async def run_legacy_only() -> None:
    from mcp.server.runner import _serve_legacy_stream
    from mcp.server.stdio import stdio_server

    low = mcp._lowlevel_server
    async with stdio_server() as (read_stream, write_stream):
        async with low.lifespan(low) as lifespan_state:
            try:
                await _serve_legacy_stream(
                    low,
                    read_stream,
                    write_stream,
                    lifespan_state=lifespan_state,
                    session_id=None,
                    init_options=low.create_initialization_options(),
                    raise_exceptions=False,
                )
            finally:
                await write_stream.aclose()


if __name__ == "__main__":
    if options.http_port:
        mcp.run("streamable-http", host="127.0.0.1", port=options.http_port)
    elif options.legacy_only:
        anyio.run(run_legacy_only)
    else:
        mcp.run()
