/**
 * generated/<rev>/protocol.ts and generated/index.ts, imported as modules, against the model
 * built from the same schema: the tables the runtime dispatches on must say what the model says.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { loadSchema } from "../../../codegen/load/load.js";
import { buildProtocol } from "../../../codegen/model/build.js";
import { sentBy, type Protocol } from "../../../codegen/model/protocol.js";
import * as registry from "../../../generated/index.js";
import { REVISIONS, ROOT, schemaText } from "../../support/project.js";

/** generated/<rev>/protocol.ts, imported by path: independent of the registry under test. */
type ProtocolModule = (typeof registry.PROTOCOLS)[keyof typeof registry.PROTOCOLS];
const protocolModule = (revision: string): Promise<ProtocolModule> =>
  import(pathToFileURL(join(ROOT, "generated", revision, "protocol.js")).href) as Promise<ProtocolModule>;
/** The revisions spec/pinned.json pins, oldest first: what the registry must list. */
const PINNED = Object.keys((JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as { revisions: object }).revisions).sort();

interface Descriptor {
  readonly kind: "request" | "notification";
  readonly senders: readonly string[];
  readonly message: string;
  readonly params?: string;
  readonly paramsRequired: boolean;
  readonly results?: readonly string[];
}

describe("codegen/emit/protocol: generated/<rev>/protocol.ts", () => {
  for (const revision of REVISIONS) {
    describe(revision, () => {
      let model: Protocol;
      let generated: ProtocolModule;
      before(async () => {
        model = buildProtocol(loadSchema(revision, schemaText(revision)));
        generated = await protocolModule(revision);
      });
      const methods = (list: readonly { method: string }[]) => list.map((m) => m.method);

      it("exports its REVISION and the ERA read from the schema", () => {
        expect(generated.REVISION).to.equal(revision);
        expect(generated.ERA).to.equal(model.era);
      });

      it("lists the methods of each direction and kind as the model does", () => {
        expect(generated.CLIENT_REQUEST_METHODS).to.deep.equal(methods(sentBy(model.requests, "client")));
        expect(generated.SERVER_REQUEST_METHODS).to.deep.equal(methods(sentBy(model.requests, "server")));
        expect(generated.CLIENT_NOTIFICATION_METHODS).to.deep.equal(methods(sentBy(model.notifications, "client")));
        expect(generated.SERVER_NOTIFICATION_METHODS).to.deep.equal(methods(sentBy(model.notifications, "server")));
        expect(generated.INPUT_REQUEST_METHODS).to.deep.equal(methods(model.inputRequests));
      });

      it("describes every JSON-RPC method by its definitions: message, params, results, senders", () => {
        const table = generated.METHODS as unknown as Record<string, Descriptor>;
        const all = [...model.requests, ...model.notifications];
        expect(Object.keys(table)).to.have.members(methods(all));
        for (const method of all) {
          const descriptor = table[method.method]!;
          expect(descriptor.kind, method.method).to.equal(method.kind);
          expect(descriptor.senders, method.method).to.deep.equal(method.senders);
          expect(descriptor.message, method.method).to.equal(method.kind === "request" ? method.request : method.notification);
          expect(descriptor.params, method.method).to.equal(method.params);
          expect(descriptor.paramsRequired, method.method).to.equal(method.paramsRequired);
          expect(descriptor.results, method.method).to.deep.equal(method.kind === "request" ? method.results : undefined);
        }
        const input = generated.INPUT_REQUESTS as unknown as Record<string, Descriptor>;
        expect(Object.keys(input)).to.have.members(methods(model.inputRequests));
        for (const request of model.inputRequests) expect(input[request.method]!.results).to.deep.equal(request.results);
      });

      it("carries the model's capability gates", () => {
        const gates = generated.CAPABILITY_GATES as unknown as Record<string, { owner: string; path: readonly string[] }>;
        expect(Object.keys(gates)).to.have.members(methods(model.capabilityGates));
        for (const gate of model.capabilityGates) expect(gates[gate.method]).to.deep.equal({ owner: gate.owner, path: gate.path });
      });
    });
  }
});

describe("codegen/emit/registry: generated/index.ts", () => {
  it("registers every pinned revision, oldest first, the latest last, each with its own module", async () => {
    expect(registry.REVISIONS).to.deep.equal(PINNED);
    expect(registry.LATEST_REVISION).to.equal(PINNED.at(-1));
    expect(Object.keys(registry.PROTOCOLS)).to.deep.equal(PINNED);
    for (const revision of registry.REVISIONS) {
      expect(registry.PROTOCOLS[revision].REVISION, revision).to.equal(revision);
      expect(registry.PROTOCOLS[revision].METHODS, revision).to.deep.equal((await protocolModule(revision)).METHODS);
    }
  });

  it("gives each revision its era: session for the first four, stateless for 2026-07-28", () => {
    expect(registry.ERAS).to.deep.equal({
      "2024-11-05": "session",
      "2025-03-26": "session",
      "2025-06-18": "session",
      "2025-11-25": "session",
      "2026-07-28": "stateless",
    });
    for (const revision of REVISIONS) expect(registry.PROTOCOLS[revision].ERA, revision).to.equal(registry.ERAS[revision]);
  });
});
