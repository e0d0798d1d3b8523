/**
 * Issue 5's coverage list: every method and notification of every pinned revision, in each
 * direction, mapped to the feature tests (test/runtime/features/) that exercise it at that
 * revision, or to why it is not exercised. test/runtime/features/coverage.test.ts checks this
 * table against the generated method lists (a new method without an entry fails) and against the
 * tests mocha loaded (a renamed or removed test fails).
 */
import type { Revision } from "../../generated/index.js";

/** A test: its file under test/runtime/features/ and its exact `it` title. */
export type TestRef = readonly [file: string, title: string];

export type Entry =
  /** Exercised by these tests; `note` says how when it is not plain use (a refusal, say). */
  | { readonly tests: readonly TestRef[]; readonly note?: string }
  /** Not exercised, and why. */
  | { readonly none: string };

/** The generated lists, by what they hold. */
export const DIRECTIONS = {
  "client -> server request": "CLIENT_REQUEST_METHODS",
  "server -> client request": "SERVER_REQUEST_METHODS",
  "client -> server notification": "CLIENT_NOTIFICATION_METHODS",
  "server -> client notification": "SERVER_NOTIFICATION_METHODS",
  "server -> client input request (MRTR)": "INPUT_REQUEST_METHODS",
} as const;
export type Direction = keyof typeof DIRECTIONS;

export type Table = Record<Direction, Record<string, Entry>>;

const TASKS_UNSUPPORTED =
  "tasks (2025-11-25, experimental) are not supported: the server does not advertise the tasks capability, and handlers never create tasks";

const STATELESS = "2026-07-28";

/** The coverage of one revision. */
export function coverage(r: Revision): Table {
  return r === STATELESS ? statelessCoverage() : sessionCoverage(r);
}

function sessionCoverage(r: Revision): Table {
  const sdk = (file: string, title: string): TestRef => [`${file}.test.ts`, `${r} through the SDK: ${title}`];
  const at = (revision: string, file: string, title: string): TestRef => [`${file}.test.ts`, `${revision} ${title}`];
  const elicitation = r >= "2025-06-18";
  const tasks = r >= "2025-11-25";

  const progressSdk = sdk("progress", "onprogress gets every step in order, with total and message, before the result");
  const aborting = sdk("cancellation", "aborting the AbortSignal aborts ctx.signal with the reason, and no response is sent for that id");
  const walks = sdk("pagination", "every list walks in pages of pageSize, in registration order, and the last page has no nextCursor");
  const updated = sdk("subscriptions", "resources/updated goes only to the sessions subscribed to that URI, until they unsubscribe; the subscriber reads it");
  const listChanged = sdk("subscriptions", "adding or removing a tool, prompt, resource or template sends that list's list_changed");
  const completes = sdk("completion", "prompt arguments complete through their completers, which see the other arguments; the prompt takes the value");
  const logs = sdk("logging", "logging is declared, and logging/setLevel filters what the tool logs");
  const asks = sdk(
    "asking-the-client",
    `sampling${elicitation ? ", elicitation" : ""} and roots reach the SDK client's handlers and their answers reach the tool`,
  );
  const notifies = sdk(
    "asking-the-client",
    "the server pings the client; the client's roots/list_changed and progress reach onNotification, notifications/initialized does not",
  );
  const timesOut = (method: string) => sdk("cancellation", `${method} from the server times out, then is cancelled: the SDK's handler sees its signal abort`);
  const tasksRefused = at(
    "2025-11-25",
    "coverage",
    "raw: tasks are not supported: no tasks capability, tasks/* are -32601, a task-augmented call is answered in place",
  );

  const clientRequests: Record<string, Entry> = {
    initialize: { tests: [progressSdk, logs], note: "the SDK client's connect, at this negotiated revision" },
    ping: { tests: [aborting] },
    "resources/list": { tests: [walks] },
    "resources/templates/list": { tests: [walks] },
    "resources/read": { tests: [updated] },
    "resources/subscribe": { tests: [updated] },
    "resources/unsubscribe": { tests: [updated] },
    "prompts/list": { tests: [walks] },
    "prompts/get": { tests: [completes] },
    "tools/list": { tests: [walks] },
    "tools/call": { tests: [progressSdk, aborting] },
    "logging/setLevel": { tests: [logs] },
    "completion/complete": { tests: [completes] },
  };
  if (r === "2025-11-25") {
    clientRequests["logging/setLevel"] = { tests: [logs, sdk("logging", "an invalid level is -32602, and the level in force does not change")] };
    clientRequests["completion/complete"] = {
      tests: [
        completes,
        sdk("completion", "template variables complete; 250 candidates give 100 values, total 250, hasMore"),
        sdk("completion", "without any completer the capability is absent and completion/complete is -32601"),
      ],
    };
  }
  if (tasks)
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"])
      clientRequests[method] = { tests: [tasksRefused], note: `refused: ${TASKS_UNSUPPORTED}` };

  const serverRequests: Record<string, Entry> = {
    ping: { tests: [notifies] },
    "sampling/createMessage": { tests: [asks, timesOut("sampling/createMessage")] },
    "roots/list": { tests: [asks, timesOut("roots/list")] },
  };
  if (elicitation) serverRequests["elicitation/create"] = { tests: [asks, timesOut("elicitation/create")] };
  if (tasks) for (const method of ["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"]) serverRequests[method] = { none: TASKS_UNSUPPORTED };

  const clientNotifications: Record<string, Entry> = {
    "notifications/cancelled": { tests: [aborting] },
    "notifications/initialized": { tests: [notifies], note: "consumed by the session, not passed to onNotification" },
    "notifications/progress": {
      tests: [notifies],
      note: "progress on a server-to-client request; passed to onNotification (the runtime itself never asks for progress)",
    },
    "notifications/roots/list_changed": { tests: [notifies], note: "passed to onNotification" },
  };
  if (r === "2025-11-25")
    clientNotifications["notifications/cancelled"] = {
      tests: [
        aborting,
        sdk("cancellation", "a request that times out on the client is cancelled the same way"),
        at(r, "cancellation", "raw: cancelling an unknown id, an answered id, or with no usable requestId is ignored: no reply, and the session keeps serving"),
      ],
    };
  if (tasks) clientNotifications["notifications/tasks/status"] = { none: TASKS_UNSUPPORTED };

  const serverNotifications: Record<string, Entry> = {
    "notifications/cancelled": {
      tests: [timesOut("sampling/createMessage"), timesOut("roots/list"), ...(elicitation ? [timesOut("elicitation/create")] : [])],
    },
    "notifications/progress": { tests: [progressSdk] },
    "notifications/resources/list_changed": { tests: [listChanged] },
    "notifications/resources/updated": { tests: [updated] },
    "notifications/prompts/list_changed": { tests: [listChanged] },
    "notifications/tools/list_changed": { tests: [listChanged] },
    "notifications/message": { tests: [logs] },
  };
  if (r === "2025-11-25") {
    serverNotifications["notifications/progress"] = {
      tests: [
        progressSdk,
        sdk("progress", "a value that does not increase is rejected (RangeError) and not sent"),
        sdk("progress", "nothing is sent after the response"),
        sdk("progress", "nothing is sent after the client cancelled the request"),
      ],
    };
    serverNotifications["notifications/cancelled"] = {
      tests: [timesOut("elicitation/create"), sdk("cancellation", "cancelling a tools/call cancels the elicitation its handler is waiting on")],
    };
    serverNotifications["notifications/tools/list_changed"] = {
      tests: [listChanged, at(r, "subscriptions", "raw: list_changed only for the lists whose listChanged this session was told at initialize")],
    };
    serverNotifications["notifications/message"] = { tests: [logs, sdk("logging", "server.log() reaches each session at the level that session set")] };
  }
  if (tasks) serverNotifications["notifications/tasks/status"] = { none: TASKS_UNSUPPORTED };
  if (tasks)
    serverNotifications["notifications/elicitation/complete"] = {
      none: "it ends a URL-mode elicitation, which the runtime does not offer (ctx.elicit asks in form mode); nothing sends it",
    };

  return {
    "client -> server request": clientRequests,
    "server -> client request": serverRequests,
    "client -> server notification": clientNotifications,
    "server -> client notification": serverNotifications,
    "server -> client input request (MRTR)": {},
  };
}

function statelessCoverage(): Table {
  const ref = (file: string, title: string): TestRef => [`${file}.test.ts`, `${STATELESS} ${title}`];
  const mcpClientMrtr = ref(
    "asking-the-client",
    "through McpClient: tools/call, prompts/get and resources/read answer their questions through the client's handlers and retry",
  );
  const chain = ref("asking-the-client", "raw: questions asked one after another take one round each, earlier answers carried by the requestState");
  const pages = ref("pagination", "raw: every page of every list is a valid result carrying the same ttlMs and cacheScope");
  const listen = ref(
    "subscriptions",
    "raw: subscriptions/listen is acknowledged first with the honoured filter, then delivers only what was asked, each tagged with the subscriptionId",
  );
  const twoStreams = ref("subscriptions", "raw: resource subscriptions and list changes on two streams go each to the stream that asked");
  return {
    "client -> server request": {
      "server/discover": {
        tests: [
          ref("logging", "raw: logging is declared; no logLevel in _meta, no log messages"),
          ref("completion", "raw: completion/complete answers a valid CompleteResult, capped at 100, and discover declares completions"),
        ],
      },
      "resources/list": { tests: [pages] },
      "resources/templates/list": { tests: [pages] },
      "resources/read": { tests: [mcpClientMrtr] },
      "subscriptions/listen": {
        tests: [
          listen,
          twoStreams,
          ref("subscriptions", "raw: cancelling a stream ends it without a response; a stateless client that is not listening hears nothing"),
          ref("subscriptions", "raw: closing the server ends every open stream with a SubscriptionsListenResult carrying its subscriptionId"),
          ref("subscriptions", "through McpClient: listen() resolves the acknowledgement and its listeners hear the changes; close() ends the stream"),
        ],
      },
      "prompts/list": { tests: [pages] },
      "prompts/get": { tests: [mcpClientMrtr] },
      "tools/list": { tests: [pages, ref("pagination", "raw: an altered cursor, or one from another list, is -32602")] },
      "tools/call": {
        tests: [
          ref("asking-the-client", "raw: a full round trip: InputRequiredResult, then the retry with inputResponses runs the handler again to completion"),
          ref("progress", "raw: progress goes server to client for a request with a progressToken, on that request's stream, before its result"),
        ],
      },
      "completion/complete": {
        tests: [
          ref("completion", "raw: completion/complete answers a valid CompleteResult, capped at 100, and discover declares completions"),
          ref("completion", "raw: without any completer completion/complete is -32601"),
        ],
      },
    },
    "server -> client request": {},
    "client -> server notification": {
      "notifications/cancelled": { tests: [ref("cancellation", "raw: notifications/cancelled aborts the handler's signal and the request is never answered")] },
    },
    "server -> client notification": {
      "notifications/cancelled": {
        none: "the stateless era has no server-to-client requests to cancel; the runtime never sends it (a listen stream ends with its result or the transport)",
      },
      "notifications/progress": {
        tests: [
          ref("progress", "raw: progress goes server to client for a request with a progressToken, on that request's stream, before its result"),
          ref("progress", "through McpClient: onProgress gets the steps; nothing after the result"),
        ],
      },
      "notifications/resources/list_changed": { tests: [twoStreams] },
      "notifications/subscriptions/acknowledged": { tests: [listen, twoStreams] },
      "notifications/resources/updated": { tests: [twoStreams] },
      "notifications/prompts/list_changed": { tests: [twoStreams] },
      "notifications/tools/list_changed": { tests: [listen] },
      "notifications/message": {
        tests: [
          ref("logging", "raw: a request's _meta logLevel gets logs at or above it, on that request's stream only; a concurrent request without one gets none"),
          ref("logging", "through McpClient: the logLevel call option asks for logs on that call"),
        ],
      },
    },
    "server -> client input request (MRTR)": {
      "sampling/createMessage": {
        tests: [chain, ref("asking-the-client", "raw: two questions asked together come back in one InputRequiredResult; a partial answer is remembered")],
      },
      "roots/list": { tests: [chain, ref("asking-the-client", "raw: an expired requestState is -32602")] },
      "elicitation/create": { tests: [chain, ref("asking-the-client", "raw: a replayed requestState is -32602")] },
    },
  };
}
