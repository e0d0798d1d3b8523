/**
 * generated/<rev>/protocol.ts and generated/index.ts, imported as modules, against the model
 * built from the same schema: the tables the runtime dispatches on must say what the model says.
 */
import { expect } from "chai";
import { loadSchema } from "../../../codegen/load/load.js";
import { buildProtocol } from "../../../codegen/model/build.js";
import { sentBy, type Protocol } from "../../../codegen/model/protocol.js";
import * as p2024_11_05 from "../../../generated/2024-11-05/protocol.js";
import * as p2025_03_26 from "../../../generated/2025-03-26/protocol.js";
import * as p2025_06_18 from "../../../generated/2025-06-18/protocol.js";
import * as p2025_11_25 from "../../../generated/2025-11-25/protocol.js";
import * as p2026_07_28 from "../../../generated/2026-07-28/protocol.js";
import * as registry from "../../../generated/index.js";
import { REVISIONS, schemaText } from "../../support/project.js";

const MODULES = {
  "2024-11-05": p2024_11_05,
  "2025-03-26": p2025_03_26,
  "2025-06-18": p2025_06_18,
  "2025-11-25": p2025_11_25,
  "2026-07-28": p2026_07_28,
} as const;

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
      let generated: (typeof MODULES)[typeof revision];
      before(() => {
        model = buildProtocol(loadSchema(revision, schemaText(revision)));
        generated = MODULES[revision];
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
  it("registers the five revisions, oldest first, the latest last, each with its own module", () => {
    expect(registry.REVISIONS).to.deep.equal(REVISIONS);
    expect(registry.LATEST_REVISION).to.equal("2026-07-28");
    expect(Object.keys(registry.PROTOCOLS)).to.deep.equal([...REVISIONS]);
    for (const revision of REVISIONS) {
      expect(registry.PROTOCOLS[revision].REVISION, revision).to.equal(revision);
      expect(registry.PROTOCOLS[revision].METHODS, revision).to.equal(MODULES[revision].METHODS);
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
