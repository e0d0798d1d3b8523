import { expect } from "chai";
import { loadSchema } from "../../codegen/load/load.js";
import { buildProtocol } from "../../codegen/model/build.js";
import { sentBy, type Protocol } from "../../codegen/model/protocol.js";
import { rawSchema, REVISIONS, schemaText, type Json, type JsonObject, type Revision } from "../support/project.js";

/**
 * PROTOCOL-NOTES.md: client->server requests / server->client requests / notifications each
 * way (from the ClientRequest, ServerRequest, ClientNotification and ServerNotification
 * unions), input requests (2026-07-28), and the era.
 */
const FACTS: Record<Revision, { counts: [number, number, number, number]; inputRequests: number; era: "session" | "stateless" }> = {
  "2024-11-05": { counts: [13, 3, 4, 7], inputRequests: 0, era: "session" },
  "2025-03-26": { counts: [13, 3, 4, 7], inputRequests: 0, era: "session" },
  "2025-06-18": { counts: [13, 4, 4, 7], inputRequests: 0, era: "session" },
  "2025-11-25": { counts: [17, 8, 5, 9], inputRequests: 0, era: "session" },
  "2026-07-28": { counts: [10, 0, 1, 8], inputRequests: 3, era: "stateless" },
};

/** PROTOCOL-NOTES, trap 14: the requests whose result is not named after them. */
const RESULT_EXCEPTIONS: Record<string, string> = {
  ping: "EmptyResult",
  "logging/setLevel": "EmptyResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "tasks/get": "GetTaskResult",
  "tasks/result": "GetTaskPayloadResult",
  "tasks/cancel": "CancelTaskResult",
  "tasks/list": "ListTasksResult",
};

const TASKS = ["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"];

type Lists = { clientRequests: string[]; serverRequests: string[]; clientNotifications: string[]; serverNotifications: string[]; inputRequests: string[] };

/** The methods each union lists, read from the schema JSON alone. */
function methodsFromSchema(revision: string): Lists {
  const { definitions } = rawSchema(revision);
  const methodOf = (definition: JsonObject): string => ((definition.properties as JsonObject).method as JsonObject).const as string;
  const members = (union: string): string[] => {
    const definition = definitions[union];
    if (definition === undefined) return [];
    if (Array.isArray(definition.anyOf))
      return definition.anyOf.map((member) => methodOf(definitions[String((member as JsonObject).$ref).split("/").pop()!]!));
    return [methodOf(definition)]; // upstream collapses a union of one into the member
  };
  return {
    clientRequests: members("ClientRequest"),
    serverRequests: members("ServerRequest"),
    clientNotifications: members("ClientNotification"),
    serverNotifications: members("ServerNotification"),
    inputRequests: members("InputRequest"),
  };
}

function methodsFromModel(protocol: Protocol): Lists {
  const names = (list: readonly { method: string }[]) => list.map((m) => m.method);
  return {
    clientRequests: names(sentBy(protocol.requests, "client")),
    serverRequests: names(sentBy(protocol.requests, "server")),
    clientNotifications: names(sentBy(protocol.notifications, "client")),
    serverNotifications: names(sentBy(protocol.notifications, "server")),
    inputRequests: names(protocol.inputRequests),
  };
}

/** True when a params definition, read from the JSON, declares `task` (through $ref, allOf, anyOf). */
function declaresTask(definitions: Record<string, JsonObject>, node: Json | undefined, seen = new Set<string>()): boolean {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return false;
  if (typeof node.properties === "object" && node.properties !== null && "task" in node.properties) return true;
  if (typeof node.$ref === "string") {
    const name = node.$ref.split("/").pop()!;
    if (seen.has(name)) return false;
    seen.add(name);
    return declaresTask(definitions, definitions[name], seen);
  }
  return [...((node.allOf as Json[] | undefined) ?? []), ...((node.anyOf as Json[] | undefined) ?? [])].some((s) => declaresTask(definitions, s, seen));
}

const protocols = new Map<Revision, Protocol>();
const protocolOf = (revision: Revision): Protocol => {
  let protocol = protocols.get(revision);
  if (!protocol) protocols.set(revision, (protocol = buildProtocol(loadSchema(revision, schemaText(revision)))));
  return protocol;
};

describe("codegen/model", () => {
  for (const revision of REVISIONS) {
    describe(revision, () => {
      const facts = FACTS[revision];

      it(`is ${facts.era}-era, read from the schema`, () => {
        expect(protocolOf(revision).era).to.equal(facts.era);
      });

      it(`has ${facts.counts.join(" / ")} methods (client requests / server requests / client notifications / server notifications) and ${facts.inputRequests} input requests`, () => {
        const model = methodsFromModel(protocolOf(revision));
        expect([model.clientRequests.length, model.serverRequests.length, model.clientNotifications.length, model.serverNotifications.length]).to.deep.equal(
          facts.counts,
        );
        expect(model.inputRequests).to.have.length(facts.inputRequests);
      });

      it("lists exactly the methods of the schema's unions", () => {
        const sorted = (lists: Lists) => Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, [...v].sort()]));
        expect(sorted(methodsFromModel(protocolOf(revision)))).to.deep.equal(sorted(methodsFromSchema(revision)));
      });

      it("maps every request to results that exist in the schema", () => {
        const { definitions } = rawSchema(revision);
        const protocol = protocolOf(revision);
        const requests = [...protocol.requests, ...protocol.inputRequests];
        expect(requests.length).to.be.greaterThan(0);
        for (const request of requests) {
          expect(request.results, request.method).to.not.be.empty;
          for (const result of request.results) expect(definitions, `${request.method} -> ${result}`).to.have.property(result);
          expect(definitions, request.method).to.have.property(request.request);
          if (request.params !== undefined) expect(protocol.definitions.has(request.params), `${request.method} params ${request.params}`).to.equal(true);
        }
      });

      it("answers each request with its named result, or the one PROTOCOL-NOTES gives (trap 14)", () => {
        const { definitions } = rawSchema(revision);
        for (const request of [...protocolOf(revision).requests, ...protocolOf(revision).inputRequests]) {
          const expected = RESULT_EXCEPTIONS[request.method] ?? request.request.replace(/Request$/, "Result");
          expect(definitions, `${request.method}: ${expected}`).to.have.property(expected);
          expect(request.results[0], request.method).to.equal(expected);
        }
      });

      it("offers CreateTaskResult exactly where the params accept a task, InputRequiredResult exactly on the MRTR methods", () => {
        const { definitions } = rawSchema(revision);
        for (const request of protocolOf(revision).requests) {
          const paramsSchema = ((definitions[request.request]!.properties as JsonObject | undefined)?.params ?? undefined) as Json | undefined;
          const taskAugmented = "CreateTaskResult" in definitions && declaresTask(definitions, paramsSchema);
          expect(request.results.includes("CreateTaskResult"), `${request.method} CreateTaskResult`).to.equal(taskAugmented);
          const mrtr = revision === "2026-07-28" && ["tools/call", "prompts/get", "resources/read"].includes(request.method);
          expect(request.results.includes("InputRequiredResult"), `${request.method} InputRequiredResult`).to.equal(mrtr);
        }
      });

      it("gives every method's params a definition, named when the schema inlines it", () => {
        const { definitions } = rawSchema(revision);
        const protocol = protocolOf(revision);
        for (const method of [...protocol.requests, ...protocol.notifications, ...protocol.inputRequests]) {
          const message = method.kind === "request" ? method.request : method.notification;
          const params = (definitions[message]!.properties as JsonObject).params as JsonObject | undefined;
          if (params === undefined) {
            expect(method.params, method.method).to.equal(undefined);
          } else if (typeof params.$ref === "string") {
            expect(method.params, method.method).to.equal(params.$ref.split("/").pop());
          } else {
            expect(method.params, method.method).to.equal(`${message}Params`);
            expect(protocol.definitions.get(`${message}Params`)?.liftedFrom).to.equal(message);
          }
          const required = (definitions[message]!.required as string[] | undefined) ?? [];
          expect(method.paramsRequired, `${method.method} params required`).to.equal(required.includes("params"));
        }
      });

      it("keeps every schema definition, and adds only lifted params", () => {
        const { definitions } = rawSchema(revision);
        const protocol = protocolOf(revision);
        for (const name of Object.keys(definitions)) expect(protocol.definitions.has(name), name).to.equal(true);
        for (const [name, definition] of protocol.definitions)
          if (!(name in definitions)) expect(definition.liftedFrom, `${name} is not in the schema`).to.be.a("string");
      });

      it("gates only methods of this revision, on capabilities its schema declares", () => {
        const protocol = protocolOf(revision);
        const methods = new Set([...protocol.requests, ...protocol.notifications, ...protocol.inputRequests].map((m) => m.method));
        const { definitions } = rawSchema(revision);
        for (const gate of protocol.capabilityGates) {
          expect(methods.has(gate.method), gate.method).to.equal(true);
          let node: JsonObject | undefined = definitions[gate.owner === "server" ? "ServerCapabilities" : "ClientCapabilities"];
          for (const key of gate.path) node = (node?.properties as JsonObject | undefined)?.[key] as JsonObject | undefined;
          expect(node, `${gate.method}: ${gate.owner} capability ${gate.path.join(".")}`).to.be.an("object");
        }
        expect(protocol.capabilityGates.map((g) => g.method)).to.include("tools/call");
      });
    });
  }

  describe("what changes between revisions (PROTOCOL-NOTES, Revisions)", () => {
    const lists = (revision: Revision) => methodsFromModel(protocolOf(revision));
    const added = (from: string[], to: string[]) => to.filter((m) => !from.includes(m)).sort();
    const removed = (from: string[], to: string[]) => from.filter((m) => !to.includes(m)).sort();

    it("2024-11-05 and 2025-03-26 have the same methods; the server sends ping, sampling/createMessage and roots/list", () => {
      expect(lists("2025-03-26")).to.deep.equal(lists("2024-11-05"));
      expect([...lists("2024-11-05").serverRequests].sort()).to.deep.equal(["ping", "roots/list", "sampling/createMessage"]);
    });

    it("2025-06-18 adds server->client elicitation/create", () => {
      const [before, after] = [lists("2025-03-26"), lists("2025-06-18")];
      expect(added(before.serverRequests, after.serverRequests)).to.deep.equal(["elicitation/create"]);
      expect(added(before.clientRequests, after.clientRequests)).to.deep.equal([]);
    });

    it("2025-11-25 adds tasks both ways, notifications/tasks/status and notifications/elicitation/complete", () => {
      const [before, after] = [lists("2025-06-18"), lists("2025-11-25")];
      expect(added(before.clientRequests, after.clientRequests)).to.deep.equal([...TASKS].sort());
      expect(added(before.serverRequests, after.serverRequests)).to.deep.equal([...TASKS].sort());
      expect(added(before.clientNotifications, after.clientNotifications)).to.deep.equal(["notifications/tasks/status"]);
      expect(added(before.serverNotifications, after.serverNotifications)).to.deep.equal(
        ["notifications/elicitation/complete", "notifications/tasks/status"],
      );
    });

    it("2026-07-28 drops the session methods and every server->client JSON-RPC request, and adds discovery and subscriptions", () => {
      const [before, after] = [lists("2025-11-25"), lists("2026-07-28")];
      expect(removed(before.clientRequests, after.clientRequests)).to.deep.equal(
        ["initialize", "logging/setLevel", "ping", "resources/subscribe", "resources/unsubscribe", ...TASKS].sort(),
      );
      expect(added(before.clientRequests, after.clientRequests)).to.deep.equal(["server/discover", "subscriptions/listen"]);
      expect(after.serverRequests).to.deep.equal([]);
      expect(after.clientNotifications).to.deep.equal(["notifications/cancelled"]);
      expect(added(before.serverNotifications, after.serverNotifications)).to.deep.equal(["notifications/subscriptions/acknowledged"]);
      expect([...after.inputRequests].sort()).to.deep.equal(["elicitation/create", "roots/list", "sampling/createMessage"]);
    });

    it("only the stateless era requires params with _meta on every client request", () => {
      const { definitions } = rawSchema("2026-07-28");
      for (const request of sentBy(protocolOf("2026-07-28").requests, "client")) {
        expect(request.paramsRequired, request.method).to.equal(true);
        expect((definitions[request.params!]?.required as string[] | undefined) ?? [], request.method).to.include("_meta");
      }
      expect(sentBy(protocolOf("2025-11-25").requests, "client").some((r) => !r.paramsRequired)).to.equal(true);
    });
  });
});
