"""Drives `relay mcp` with the official MCP Python SDK, as an assistant would (AssistantTests).

Usage: mcp-client.py RELAY FOLDER SCRIPT.json
SCRIPT is {"calls": [{"tool": NAME, "arguments": {...}, "timeout" or "vanish": SECONDS}], "answers": [{"match": TEXT, "action":
"accept" | "decline" | "cancel" | "never", "content": {...}}], "asks": true | false}. With "asks", the client
says it asks its person (elicitation) and answers each question with the first answer whose
"match" is in its message. Prints one JSON line for the tool list, then for each call
{"tool", "error", "text", "structured", "asked": [messages]} (or {"tool", "raised"} when the server
refused the request itself).
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def main():
    relay, folder, script = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    asked = []

    async def answer(context, params):
        asked.append(params.message)
        for candidate in script.get("answers", []):
            if candidate["match"] in params.message:
                if candidate["action"] == "never":  # the person never answers
                    await asyncio.sleep(3600)
                return types.ElicitResult(action=candidate["action"], content=candidate.get("content"))
        return types.ElicitResult(action="decline")

    params = StdioServerParameters(command=relay, args=["mcp", folder] + script.get("flags", []), env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        callback = answer if script.get("asks") else None
        async with ClientSession(read, write, elicitation_callback=callback) as session:
            await session.initialize()
            listed = await session.list_tools()
            print(json.dumps({"tools": {tool.name: {"description": tool.description, "schema": tool.input_schema} for tool in listed.tools}}))
            for call in script["calls"]:
                asked.clear()
                try:
                    calling = session.call_tool(call["tool"], call.get("arguments", {}))
                    if "vanish" in call:
                        # The assistant goes away mid-call, without a word: the process just ends.
                        asyncio.get_running_loop().call_later(call["vanish"], lambda: os._exit(0))
                    # With "timeout", the assistant gives up on the call after so many seconds.
                    result = await (asyncio.wait_for(calling, call["timeout"]) if "timeout" in call else calling)
                    texts = [content.text for content in result.content if getattr(content, "text", None) is not None]
                    print(json.dumps({"tool": call["tool"], "error": bool(result.is_error), "text": "".join(texts),
                                      "structured": result.structured_content, "asked": list(asked)}))
                except TimeoutError:
                    print(json.dumps({"tool": call["tool"], "gave up": True}))
                except Exception as error:  # a protocol error: the server refused the request itself
                    print(json.dumps({"tool": call["tool"], "raised": str(error)}))
                sys.stdout.flush()


asyncio.run(main())
