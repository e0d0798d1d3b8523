// runtime/server/methods.ts: the methods the runtime answers itself, held to the served revisions'
// generated method tables (and the tasks extension's) rather than to a list of our own.
import { expect } from "chai";
import { createServer } from "../../../runtime/index.js";
import { runtimeMethods } from "../../../runtime/server/methods.js";
import { Paginator } from "../../../runtime/server/pagination.js";
import { PromptRegistry } from "../../../runtime/server/prompts.js";
import { ResourceRegistry } from "../../../runtime/server/resources.js";
import { Subscriptions } from "../../../runtime/server/subscriptions.js";
import { ToolRegistry } from "../../../runtime/server/tools.js";
import { CoreTasks } from "../../../runtime/extensions/tasks/core-tasks.js";
import { TaskManager } from "../../../runtime/extensions/tasks/task-manager.js";
import { loadTasksExtension, tasksExtensionMethods } from "../../../runtime/extensions/tasks/tasks-extension.js";
import { ALL_REVISIONS, definedByAnyRevision, eraOf, loadRevision, type LoadedRevision } from "../../../runtime/session/revisions.js";
import type { LoadedExtension } from "../../../runtime/session/extensions.js";
import type { MethodDescriptor } from "../../../runtime/contract.js";
import { SchemaCompiler } from "../../../runtime/shared/json-schema.js";
import { Sealer } from "../../../runtime/util/sealed.js";
import { quiet } from "../../support/features-server.js";

/**
 * Client requests of the latest revisions that the table does not hold, each with who answers it.
 * Server-to-client requests (sampling, elicitation, roots) are not client requests in the tables,
 * so they never come up here.
 */
const ANSWERED_ELSEWHERE: Readonly<Record<string, string>> = {
  initialize: "the session answers it (runtime/session/server-session.ts) before any request reaches the dispatcher",
};

const isClientRequest = (descriptor: MethodDescriptor | undefined): boolean => descriptor?.kind === "request" && descriptor.senders.includes("client");
const clientRequests = (methods: ReadonlyMap<string, MethodDescriptor>): string[] => [...methods].filter(([, d]) => isClientRequest(d)).map(([method]) => method);

describe("runtime/server/methods: the runtime's own methods, against the served revisions", () => {
  let revisions: LoadedRevision[];
  let tasksExtension: LoadedExtension;
  let tasks: TaskManager;
  let table: ReadonlySet<string>;

  before(async () => {
    revisions = await Promise.all(ALL_REVISIONS.map((revision) => loadRevision(revision)));
    tasksExtension = await loadTasksExtension();
    // The table over real, empty registries: only its methods are read here.
    const schemas = new SchemaCompiler(quiet);
    tasks = new TaskManager({}, quiet, loadTasksExtension);
    const host = {
      revisions: ALL_REVISIONS,
      instructions: undefined,
      tools: new ToolRegistry(schemas, quiet),
      resources: new ResourceRegistry(),
      prompts: new PromptRegistry(),
      subscriptions: new Subscriptions(() => [], () => false, quiet, tasks),
      coreTasks: new CoreTasks(tasks, quiet),
      paginator: new Paginator(100, new Sealer()),
      visible: undefined,
      capabilities: () => ({}),
    };
    table = new Set(runtimeMethods(host).keys());
  });

  it("every method in the table is a client request that some pinned revision or the tasks extension defines", () => {
    expect(table.size).to.be.greaterThan(0);
    const undefinedMethods = [...table].filter((method) => !definedByAnyRevision(method) && !tasksExtension.methods.has(method));
    expect(undefinedMethods, "methods no revision defines").to.deep.equal([]);
    const notClientRequests = [...table].filter(
      (method) => !revisions.some((r) => isClientRequest(r.methods.get(method))) && !isClientRequest(tasksExtension.methods.get(method)),
    );
    expect(notClientRequests, "methods that are not a client's request anywhere").to.deep.equal([]);
  });

  it("every client request of the latest revision of each era is in the table, or answered elsewhere for a reason given here", () => {
    const latest = new Map<string, LoadedRevision>();
    for (const revision of revisions) latest.set(eraOf(revision.revision), revision); // oldest first: the last of an era stays
    expect([...latest.keys()].sort()).to.deep.equal(["session", "stateless"]);
    const missing: string[] = [];
    const exempted = new Set<string>();
    for (const revision of latest.values())
      for (const method of clientRequests(revision.methods)) {
        if (table.has(method)) continue;
        if (method in ANSWERED_ELSEWHERE) exempted.add(method);
        else missing.push(`${revision.revision} ${method}`);
      }
    expect(missing, "client requests nobody answers").to.deep.equal([]);
    // The list of exceptions stays true: each is a client request of a latest revision that the table lacks.
    expect([...exempted].sort()).to.deep.equal(Object.keys(ANSWERED_ELSEWHERE).sort());
  });

  it("the tasks extension's client requests are answered, by the table (core tasks) or the extension's own methods", () => {
    const extensionMethods = tasksExtensionMethods(tasks);
    const requests = clientRequests(tasksExtension.methods);
    expect(requests).to.include("tasks/get");
    expect(requests.filter((method) => !table.has(method) && !extensionMethods.has(method))).to.deep.equal([]);
  });

  it("is the table McpServer serves: each of its methods is refused to server.handle as the runtime's own", () => {
    // Every pinned revision is served, 2025-11-25's core tasks among them, so tasks/* are the runtime's too.
    const server = createServer({ name: "methods", version: "1.0.0", logger: quiet });
    const accepted = [...table].filter((method) => {
      try {
        server.handle(method as "ping", () => ({}));
        return true;
      } catch (error) {
        expect((error as Error).message).to.match(/served by the runtime itself/);
        return false;
      }
    });
    expect(accepted).to.deep.equal([]);
  });
});
