// Node alone: answers the first line with a fixed initialize result, imports nothing. The floor of
// the spawn -> initialize measure (process start-up), not an MCP server.
process.stdin.once("data", () => {
  process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"bare","version":"0"}}}\n');
});
