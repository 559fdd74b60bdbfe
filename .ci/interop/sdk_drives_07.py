#!/usr/bin/env python3
"""The official SDK client drives exercise 07's server (a dual-era server
with tools, resources, a resource template and a prompt).

Usage: sdk_drives_07.py --mode legacy|auto -- SERVER_CMD...

Expected values come from the exercise's task (lessons/04-server-features/
exercises.toml): four tools served three to a page with an opaque
nextCursor, and a cursor the server never handed out refused with -32602;
greet, describe (one content block of each kind), add (structuredContent
and its text mirror) and set_volume (a level out of range is a tool error,
isError true); an unknown tool is -32602; two resources (text and a base64
blob) and the forecast template; a missing resource is -32002 in the legacy
era and -32602 in the modern one; the prompt needs its text argument. In
auto mode the SDK probes server/discover; a dual-era server answers it, so
the session is modern (2026-07-28).
"""

import base64
import json

from sdk_driver import dump, run, texts

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def body(client, mode, checks):
    modern = mode == "auto"
    want = "2026-07-28" if modern else "2025-11-25"
    checks.expect(f"negotiated {want}", client.protocol_version == want, client.protocol_version)
    caps = client.server_capabilities
    checks.expect("declares tools, resources and prompts", None not in (caps.tools, caps.resources, caps.prompts), dump(caps))

    # tools/list: three to a page, then the rest; "bypass" so every page comes off the wire.
    first = await client.list_tools(cache_mode="bypass")
    checks.expect("the first page holds three tools and a nextCursor", len(first.tools) == 3 and first.next_cursor is not None, dump(first))
    names = [t.name for t in first.tools]
    if first.next_cursor is not None:
        second = await client.list_tools(cursor=first.next_cursor, cache_mode="bypass")
        checks.expect("the second page holds the last tool and no nextCursor", len(second.tools) == 1 and second.next_cursor is None, dump(second))
        names += [t.name for t in second.tools]
    checks.expect("the four tools, each once", sorted(names) == ["add", "describe", "greet", "set_volume"], names)
    await checks.expect_error("a cursor the server never handed out is -32602", -32602, lambda: client.list_tools(cursor="not-a-cursor-we-got", cache_mode="bypass"))

    result = await client.call_tool("greet", {"name": "Ada"})
    checks.expect("greet greets Ada by name", not result.is_error and any("Ada" in t for t in texts(result)), dump(result))
    result = await client.call_tool("describe", {})
    kinds = [block.type for block in result.content]
    checks.expect("describe returns one block of each kind", sorted(kinds) == ["image", "resource", "resource_link", "text"], kinds)
    image = next((b for b in result.content if b.type == "image"), None)
    checks.expect("describe's image is a base64 PNG", image is not None and base64.b64decode(image.data).startswith(PNG_SIGNATURE), dump(image))
    result = await client.call_tool("add", {"a": 2, "b": 40})
    checks.expect("add's structuredContent is {sum: 42}", result.structured_content == {"sum": 42}, dump(result))
    mirror = texts(result)
    checks.expect("add's text block mirrors the structured content", len(mirror) == 1 and json.loads(mirror[0]) == {"sum": 42}, mirror)
    result = await client.call_tool("set_volume", {"level": 7})
    checks.expect("set_volume 7 succeeds", not result.is_error, dump(result))
    result = await client.call_tool("set_volume", {"level": 11})
    checks.expect("set_volume 11 is a tool error (isError true)", result.is_error is True, dump(result))
    await checks.expect_error("an unknown tool is -32602", -32602, lambda: client.call_tool("no_such_tool", {}))

    listed = await client.list_resources(cache_mode="bypass")
    uris = sorted(str(r.uri) for r in listed.resources)
    checks.expect("two resources", len(uris) == 2, uris)
    kinds = []
    for uri in uris:
        read = await client.read_resource(uri, cache_mode="bypass")
        for content in read.contents:
            if hasattr(content, "blob"):
                kinds.append("blob")
                checks.expect(f"{uri} is a base64 PNG blob", base64.b64decode(content.blob).startswith(PNG_SIGNATURE), content.blob[:40])
            else:
                kinds.append("text")
                checks.expect(f"{uri} has text", bool(content.text), dump(content))
        checks.expect(f"{uri} reads as one content item with its own URI", len(read.contents) == 1 and str(read.contents[0].uri) == uri, dump(read))
    checks.expect("one text resource and one blob", sorted(kinds) == ["blob", "text"], kinds)
    templates = await client.list_resource_templates(cache_mode="bypass")
    patterns = [t.uri_template for t in templates.resource_templates]
    checks.expect("the forecast template", patterns == ["weather://forecast/{city}"], patterns)
    read = await client.read_resource("weather://forecast/Paris", cache_mode="bypass")
    checks.expect("the template serves Paris", len(read.contents) == 1 and "Paris" in getattr(read.contents[0], "text", ""), dump(read))
    missing = -32602 if modern else -32002
    await checks.expect_error(f"a missing resource is {missing}", missing, lambda: client.read_resource("file:///no/such/file", cache_mode="bypass"))

    prompts = await client.list_prompts(cache_mode="bypass")
    checks.expect("one prompt, summarize, with a required text argument",
                  [(p.name, [(a.name, a.required) for a in p.arguments or []]) for p in prompts.prompts] == [("summarize", [("text", True)])],
                  dump(prompts))
    got = await client.get_prompt("summarize", {"text": "MCP has two eras."})
    said = [m.content.text for m in got.messages if getattr(m.content, "type", None) == "text"]
    checks.expect("summarize puts the text in a user message", any("MCP has two eras." in s for s in said) and got.messages[0].role == "user", dump(got))
    await checks.expect_error("summarize without its text is -32602", -32602, lambda: client.get_prompt("summarize", {}))


if __name__ == "__main__":
    run(body)
