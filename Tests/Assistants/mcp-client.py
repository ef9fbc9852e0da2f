"""Drives `relay mcp` with the official MCP Python SDK, as an assistant would (AssistantTests).

Usage: mcp-client.py RELAY FOLDER SCRIPT.json
SCRIPT is {"calls": [{"tool": NAME, "arguments": {...}, "timeout" or "vanish" or "signal": SECONDS, "progress": true,
"write": {"path": PATH, "text": TEXT}}], "answers":
[{"match": TEXT, "action": "accept" | "decline" | "cancel" | "never", "content": {...}, "write": {"path", "text"}}], "asks": true | false,
"resources": [URI to read], "http": {"url": URL, "token": TOKEN}}. With "asks", the client says it asks
its person (elicitation) and answers each question with the first answer whose "match" is in its
message. With "http", it talks to `relay serve`'s /mcp instead of starting `relay mcp FOLDER`.
Prints one JSON line for the tool list; with "resources", one for the resources and templates
listed and one for each read ({"read", "text"} or {"read", "raised"}); then for each call
{"tool", "error", "texts", "text", "structured", "asked": [messages], "forms": [their schemas as JSON], "progress": [messages], "schema"}
(or {"tool", "raised"} when the server refused the request itself). A call's "write" is written
before it (with "notice": SECONDS, the client waits so long to be told the tools changed, and
"noticed" says whether it was), and its "schema" is the tool's as listed then; its "signal" sends SIGTERM to the
server (`relay mcp`, this process's child) so many seconds into the call.
"""
import contextlib
import asyncio
import json
import os
import signal
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def main():
    relay, folder, script = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    asked = []
    forms = []  # the forms asked, as JSON

    async def answer(context, params):
        asked.append(params.message)
        forms.append(json.dumps(getattr(params, "requested_schema", None), ensure_ascii=False, default=str))
        for candidate in script.get("answers", []):
            if candidate["match"] in params.message:
                if "write" in candidate:  # the file changes while the question waits
                    with open(candidate["write"]["path"], "w") as file:
                        file.write(candidate["write"]["text"])
                if candidate["action"] == "never":  # the person never answers
                    await asyncio.sleep(3600)
                return types.ElicitResult(action=candidate["action"], content=candidate.get("content"))
        return types.ElicitResult(action="decline")

    async with contextlib.AsyncExitStack() as stack:
        if "http" in script:
            headers = {"Authorization": "Bearer " + script["http"]["token"]} if script["http"].get("token") else {}
            client = await stack.enter_async_context(create_mcp_http_client(headers=headers))
            read, write = await stack.enter_async_context(streamable_http_client(script["http"]["url"], http_client=client))
        else:
            params = StdioServerParameters(command=relay, args=["mcp", folder] + script.get("flags", []), env=dict(os.environ))
            read, write = await stack.enter_async_context(stdio_client(params))
        callback = answer if script.get("asks") else None
        noticed = []

        async def notice(message):
            method = getattr(getattr(message, "root", message), "method", None) or getattr(message, "method", None)
            if method:
                noticed.append(method)

        session = await stack.enter_async_context(ClientSession(read, write, elicitation_callback=callback, message_handler=notice))
        await session.initialize()
        listed = await session.list_tools()
        print(json.dumps({"tools": {tool.name: {"description": tool.description, "schema": tool.input_schema} for tool in listed.tools}}))
        if "resources" in script:
            resources = await session.list_resources()
            templates = await session.list_resource_templates()
            print(json.dumps({"resources": {str(r.uri): r.name for r in resources.resources},
                              "templates": [t.uri_template for t in templates.resource_templates]}))
            for uri in script["resources"]:
                try:
                    read_result = await session.read_resource(uri)
                    print(json.dumps({"read": uri, "text": "".join(c.text for c in read_result.contents if getattr(c, "text", None))}))
                except Exception as error:
                    print(json.dumps({"read": uri, "raised": str(error)}))
            sys.stdout.flush()
        for call in script["calls"]:
            asked.clear()
            forms.clear()
            progress = []

            async def on_progress(done, total, message):
                progress.append(message)

            schema = None
            if "write" in call:
                noticed.clear()
                with open(call["write"]["path"], "w") as file:
                    file.write(call["write"]["text"])
                # With "notice", the client waits (up to so many seconds) to be told the tools changed.
                for _ in range(int(call.get("notice", 0) * 10)):
                    if "notifications/tools/list_changed" in noticed:
                        break
                    await asyncio.sleep(0.1)
                relisted = await session.list_tools()
                schema = next((tool.input_schema for tool in relisted.tools if tool.name == call["tool"]), None)
            if "signal" in call:
                asyncio.get_running_loop().call_later(call["signal"], signal_children)
            try:
                calling = session.call_tool(call["tool"], call.get("arguments", {}),
                                            progress_callback=on_progress if call.get("progress") else None)
                if "vanish" in call:
                    # The assistant goes away mid-call, without a word: the process just ends.
                    asyncio.get_running_loop().call_later(call["vanish"], lambda: os._exit(0))
                # With "timeout", the assistant gives up on the call after so many seconds.
                result = await (asyncio.wait_for(calling, call["timeout"]) if "timeout" in call else calling)
                texts = [content.text for content in result.content if getattr(content, "text", None) is not None]
                print(json.dumps({"tool": call["tool"], "error": bool(result.is_error), "text": texts[0] if texts else "", "texts": texts,
                                  "structured": result.structured_content, "asked": list(asked), "progress": progress,
                                  "schema": schema, "noticed": "notifications/tools/list_changed" in noticed, "forms": list(forms)}))
            except TimeoutError:
                print(json.dumps({"tool": call["tool"], "gave up": True}))
            except Exception as error:  # a protocol error: the server refused the request itself
                print(json.dumps({"tool": call["tool"], "raised": str(error)}))
            sys.stdout.flush()


def signal_children():
    """SIGTERM to this process's children: the `relay mcp` the client started."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                os.kill(int(entry), signal.SIGTERM)


asyncio.run(main())
