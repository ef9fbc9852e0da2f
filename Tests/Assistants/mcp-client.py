"""Drives `relay mcp` with the official MCP Python SDK, as an assistant would (AssistantTests).

Usage: mcp-client.py RELAY FOLDER SCRIPT.json
SCRIPT is a list of calls: {"tool": NAME, "arguments": {...}}. Prints one JSON line for the tool
list, then one for each call: {"tool", "error", "text", "structured"} (or {"tool", "raised"} when
the server answered with a protocol error).
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main():
    relay, folder, script = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    params = StdioServerParameters(command=relay, args=["mcp", folder], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            print(json.dumps({"tools": {tool.name: {"description": tool.description, "schema": tool.input_schema} for tool in listed.tools}}))
            for call in script:
                try:
                    result = await session.call_tool(call["tool"], call.get("arguments", {}))
                    texts = [content.text for content in result.content if getattr(content, "text", None) is not None]
                    print(json.dumps({"tool": call["tool"], "error": bool(result.is_error), "text": "".join(texts),
                                      "structured": result.structured_content}))
                except Exception as error:  # a protocol error: the server refused the request itself
                    print(json.dumps({"tool": call["tool"], "raised": str(error)}))
                sys.stdout.flush()


asyncio.run(main())
