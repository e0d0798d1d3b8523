// Node alone over stdio: parses each line and answers it, imports nothing. The ceiling of the stdio
// measures: no MCP, no validation, no dispatch, just the round trip through two processes.
let pending = "";
process.stdin.setEncoding("utf8").on("data", (data) => {
  pending += data;
  for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
    const request = JSON.parse(pending.slice(0, end));
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: request.params.arguments.text }] } })}\n`);
  }
});
