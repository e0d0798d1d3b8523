// bench/tool-schemas.ts's data, checked against ajv on the tool schemas the public servers of
// tools/bench-peers really list (captured as the bench does): the sampler's valid arguments are
// valid and its others invalid, and our compiler, in code mode and in closures, gives ajv's
// verdict on every one (the bench times only data where it does).
import { expect } from "chai";
import { sampleArguments } from "../../../bench/support/sample-arguments.js";
import { freshCompiler } from "../../../bench/support/schema-engines.js";
import { captureTools, SERVERS, type ServerTools } from "../../../bench/support/server-tools.js";

const VALID = ["required properties", "every property"];

describe("bench/support/sample-arguments: arguments for the tools of public MCP servers", function () {
  this.timeout(120_000);
  const servers: ServerTools[] = [];
  before(async () => {
    for (const server of SERVERS) servers.push(await captureTools(server));
  });

  it("captures each server's tools/list", () => {
    expect(servers.map((s) => s.server)).to.deep.equal(SERVERS.map((s) => s.name));
    for (const { version, tools } of servers) {
      expect(tools.length, version).to.be.greaterThan(0);
      for (const tool of tools) expect(tool.inputSchema.type, `${version} ${tool.name}`).to.equal("object");
    }
  });

  it("makes arguments ajv finds valid, and invalid ones ajv rejects, for every tool", () => {
    for (const { server, tools } of servers)
      for (const tool of tools) {
        const ajv = freshCompiler("ajv").compile(tool.inputSchema);
        const data = sampleArguments(tool.inputSchema);
        expect(data.slice(0, 2).map((d) => d.label), `${server}/${tool.name}`).to.deep.equal(VALID);
        for (const datum of data)
          expect(ajv(datum.value) === undefined, `${server}/${tool.name}, ${datum.label}: ${JSON.stringify(datum.value)}: ${ajv(datum.value)}`).to.equal(VALID.includes(datum.label));
      }
  });

  it("our compiler in code mode and in closures agrees with ajv on every datum", () => {
    let data = 0;
    for (const { server, tools } of servers)
      for (const tool of tools) {
        const [ajv, code, closures] = (["ajv", "code", "closures"] as const).map((kind) => freshCompiler(kind).compile(structuredClone(tool.inputSchema)));
        for (const datum of sampleArguments(tool.inputSchema)) {
          const expected = ajv!(datum.value) === undefined;
          expect(code!(datum.value) === undefined, `${server}/${tool.name}, ${datum.label}, code mode`).to.equal(expected);
          expect(closures!(datum.value) === undefined, `${server}/${tool.name}, ${datum.label}, closures`).to.equal(expected);
          data++;
        }
      }
    expect(data).to.be.greaterThan(100);
  });
});
