/**
 * generated/<rev>/handlers.ts: the handler interfaces list exactly the methods each side
 * receives (checked against the model), the defaults answer "method not found" with -32601, and
 * a consumer typed against them compiles only when each handler returns its method's result.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "chai";
import { STRICT_FLAGS, tscAsync } from "../../support/tsc.js";
import { loadSchema } from "../../../codegen/load/load.js";
import { buildProtocol } from "../../../codegen/model/build.js";
import { sentBy, type Protocol } from "../../../codegen/model/protocol.js";
import * as h2024_11_05 from "../../../generated/2024-11-05/handlers.js";
import * as h2025_03_26 from "../../../generated/2025-03-26/handlers.js";
import * as h2025_06_18 from "../../../generated/2025-06-18/handlers.js";
import * as h2025_11_25 from "../../../generated/2025-11-25/handlers.js";
import * as h2026_07_28 from "../../../generated/2026-07-28/handlers.js";
import { PROTOCOLS } from "../../../generated/index.js";
import { MethodNotFound } from "../../../runtime/support/method-not-found.js";
import { removeDir, REVISIONS, ROOT, schemaText, tempDir, type CliRun } from "../../support/project.js";

const MODULES = {
  "2024-11-05": h2024_11_05,
  "2025-03-26": h2025_03_26,
  "2025-06-18": h2025_06_18,
  "2025-11-25": h2025_11_25,
  "2026-07-28": h2026_07_28,
} as const;

type Defaults = Record<string, (params: unknown, context: unknown) => unknown>;

describe("codegen/emit/handlers: generated/<rev>/handlers.ts", () => {
  for (const revision of REVISIONS) {
    describe(revision, () => {
      let model: Protocol;
      before(() => {
        model = buildProtocol(loadSchema(revision, schemaText(revision)));
      });
      const methods = (list: readonly { method: string }[]) => list.map((m) => m.method);

      it("has one default handler per request each side receives, and the revision's index exports them", () => {
        const module = MODULES[revision];
        expect(Object.keys(module.defaultServerHandlers())).to.deep.equal(methods(sentBy(model.requests, "client")));
        expect(Object.keys(module.defaultClientHandlers())).to.deep.equal(methods(sentBy(model.requests, "server")));
        expect(Object.keys(module.defaultClientInputHandlers())).to.deep.equal(methods(model.inputRequests));
        expect(PROTOCOLS[revision].defaultServerHandlers).to.equal(module.defaultServerHandlers);
      });

      it("every default throws MethodNotFound: code -32601, the method named, one class for all revisions", () => {
        const module = MODULES[revision];
        const all = [module.defaultServerHandlers(), module.defaultClientHandlers(), module.defaultClientInputHandlers()] as unknown as Defaults[];
        let checked = 0;
        for (const handlers of all)
          for (const [method, handler] of Object.entries(handlers)) {
            let thrown: unknown;
            try {
              handler({}, undefined);
            } catch (error) {
              thrown = error;
            }
            expect(thrown, method).to.be.instanceOf(MethodNotFound);
            expect(thrown, method).to.include({ code: -32601, method, message: `Method not found: ${method}` });
            checked++;
          }
        expect(checked).to.equal(sentBy(model.requests, "client").length + sentBy(model.requests, "server").length + model.inputRequests.length);
        expect(module.METHOD_NOT_FOUND).to.equal(-32601);
        expect(module.MethodNotFound).to.equal(MethodNotFound);
      });
    });
  }
});


/**
 * Handlers written against the interfaces. Every `@ts-expect-error` must find its error (tsc
 * reports an unused directive), so the wrong shapes below are proven to be compile errors.
 */
function consumer(generated: string): string {
  const imports = REVISIONS.map((r) => `import type * as R${r.replace(/-/g, "_")} from "${generated}/${r}/index.js";`).join("\n");
  const agreements = REVISIONS.map((r) => {
    const R = `R${r.replace(/-/g, "_")}`;
    return `export const agrees_${r.replace(/-/g, "_")}: [
  Agrees<${R}.ServerHandlers, ${R}.ClientRequests>,
  Agrees<${R}.ClientHandlers, ${R}.ServerRequests>,
  Agrees<${R}.ClientInputHandlers, ${R}.ServerInputRequests>,
  HooksAgree<${R}.ServerNotificationHooks, ${R}.ClientNotifications>,
  HooksAgree<${R}.ClientNotificationHooks, ${R}.ServerNotifications>,
] = [true, true, true, true, true];`;
  }).join("\n");
  return `${imports}
import { defaultServerHandlers, MethodNotFound } from "${generated}/2025-11-25/index.js";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Fn = (...args: never[]) => unknown;
type Member<H, M> = M extends keyof H ? Exclude<H[M], undefined> : never;
/** The handlers cover exactly the map's methods, each returning that method's result or a promise of it. */
type Agrees<H, Map extends { [M in keyof Map]: { result: unknown } }> = Equals<keyof H, keyof Map> extends true
  ? false extends { [M in keyof Map]: Member<H, M> extends Fn ? Equals<ReturnType<Member<H, M>>, Map[M]["result"] | Promise<Map[M]["result"]>> : false }[keyof Map]
    ? false
    : true
  : false;
/** The hooks cover exactly the map's notifications, and each hook takes that notification's params. */
type HooksAgree<H, Map> = Equals<keyof H, keyof Map> extends true
  ? false extends { [M in keyof Map]: Member<H, M> extends Fn ? Equals<NonNullable<Parameters<Member<H, M>>[0]>, NonNullable<Map[M]>> : false }[keyof Map]
    ? false
    : true
  : false;

${agreements}

interface Ctx {
  readonly user: string;
}

// A server: the defaults, with two handlers of its own; params and context are typed.
export const server: R2025_11_25.ServerHandlers<Ctx> = {
  ...defaultServerHandlers<Ctx>(),
  "tools/call": async (params, context) => ({ content: [{ type: "text", text: \`\${params.name} for \${context.user}\` }] }),
  "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
};
export const thrown: -32601 = new MethodNotFound("x").code;

export const wrongResult: R2025_11_25.ServerHandlers = {
  ...defaultServerHandlers(),
  // @ts-expect-error a ListToolsResult has "tools", not "tool"
  "tools/list": () => ({ tool: [] }),
};

export const wrongContent: R2025_11_25.ServerHandlers = {
  ...defaultServerHandlers(),
  // @ts-expect-error content blocks need a known type
  "tools/call": async () => ({ content: [{ type: "txt", text: "x" }] }),
};

// @ts-expect-error every request the client may send needs a handler (spread the defaults)
export const incomplete: R2026_07_28.ServerHandlers = { "server/discover": () => { throw new Error("x"); } };

export const wrongParams: Pick<R2025_11_25.ServerHandlers, "resources/read"> = {
  // @ts-expect-error resources/read params carry a uri, not a name
  "resources/read": (params) => ({ contents: [{ uri: params.name, text: "" }] }),
};

// Stateless era: every result says its resultType.
export const stateless: Pick<R2026_07_28.ServerHandlers, "tools/call"> = {
  // @ts-expect-error resultType is required from 2026-07-28
  "tools/call": () => ({ content: [] }),
};

// A client answering the server's questions, and listening to it.
export const client: Pick<R2025_06_18.ClientHandlers, "roots/list"> = { "roots/list": () => ({ roots: [{ uri: "file:///tmp" }] }) };
export const hooks: R2026_07_28.ClientNotificationHooks = {
  "notifications/message": (params) => void (params.level satisfies R2026_07_28.LoggingLevel),
};
// @ts-expect-error 2026-07-28 has no notifications/roots/list_changed
export const noRoots: R2026_07_28.ServerNotificationHooks = { "notifications/roots/list_changed": () => {} };
`;
}

/** The runtime's own handler map, typed by the generated interfaces (runtime/server/methods.ts). */
function runtimeConsumer(root: string): string {
  return `import type { RuntimeHandlers } from "${root}/runtime/server/methods.js";
import type * as V1125 from "${root}/generated/2025-11-25/index.js";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const params: Equals<Parameters<RuntimeHandlers["tools/call"]>[0], V1125.CallToolRequestParams> = true;

export const wrong: Pick<RuntimeHandlers, "tools/list"> = {
  // @ts-expect-error a ListToolsResult has "tools", not "tool"
  "tools/list": () => ({ tool: [] }),
};

// Stateless-only methods: resultType, ttlMs and cacheScope are the dispatcher's to add, the rest is checked.
export const discover: Pick<RuntimeHandlers, "server/discover"> = {
  "server/discover": () => ({ supportedVersions: ["2026-07-28"], capabilities: {} }),
};
export const wrongDiscover: Pick<RuntimeHandlers, "server/discover"> = {
  // @ts-expect-error supportedVersions is a list of strings
  "server/discover": () => ({ supportedVersions: "2026-07-28", capabilities: {} }),
};
`;
}

describe("codegen/emit/handlers: typed against the interfaces", function () {
  this.timeout(300_000);
  let dir: string | undefined;
  // The two compiles are independent: started together, they run side by side.
  let consumerRun: Promise<CliRun>;
  let runtimeRun: Promise<CliRun>;
  before(() => {
    dir = tempDir("handlers");
    const probe = join(dir, "consumer.mts");
    writeFileSync(probe, consumer(relative(dir, join(ROOT, "generated")).split("\\").join("/")));
    consumerRun = tscAsync([...STRICT_FLAGS, probe], ROOT, 280_000);
    const runtimeProbe = join(dir, "runtime-consumer.mts");
    writeFileSync(runtimeProbe, runtimeConsumer(relative(dir, ROOT).split("\\").join("/")));
    // The project's own strictness (tsconfig.json): the runtime is built with it.
    const flags = STRICT_FLAGS.filter((flag) => flag !== "--exactOptionalPropertyTypes");
    runtimeRun = tscAsync([...flags, "--types", "node", runtimeProbe], ROOT, 280_000);
  });
  after(async () => {
    await Promise.all([consumerRun, runtimeRun]);
    removeDir(dir);
  });

  it("handlers agree with the method maps of every revision, and a wrong result, params or missing handler does not compile", async () => {
    const run = await consumerRun;
    expect(run.stdout + run.stderr, "tsc diagnostics").to.equal("");
    expect(run.status).to.equal(0);
  });

  it("the runtime's handler map is typed by the generated ServerHandlers: a wrong result does not compile", async () => {
    const server = readFileSync(join(ROOT, "runtime", "server", "methods.ts"), "utf8");
    expect(server).to.match(/const handlers: RuntimeHandlers = \{/);
    expect(server).to.match(/return handlerTable\(handlers\);/);
    const run = await runtimeRun;
    expect(run.stdout + run.stderr, "tsc diagnostics").to.equal("");
    expect(run.status).to.equal(0);
  });
});
