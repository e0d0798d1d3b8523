import { refuse, type HttpError } from "./errors.js";
import type { Incoming } from "./incoming.js";

/** What the client's Accept header lets us answer with, and which it prefers. */
export interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
  /**
   * The client prefers an event stream: text/event-stream has a higher q-value than
   * application/json, or the same one and comes first (the tie-break of HTTP content negotiation
   * libraries such as `negotiator`). SDK clients send "application/json, text/event-stream".
   */
  readonly preferSse: boolean;
}

/**
 * Reads Accept. No header accepts anything (RFC 9110); wildcards count, less than an exact match
 * in the tie-break; q=0 excludes.
 */
export function accepts(req: Incoming): Accepts {
  const header = req.header("accept");
  if (header === undefined || header.trim() === "") return ANYTHING;
  // A client sends the same Accept on every request: parse it once.
  if (header === lastHeader) return lastAccepts!;
  lastAccepts = parseAccept(header);
  lastHeader = header;
  return lastAccepts;
}

const ANYTHING: Accepts = Object.freeze({ json: true, sse: true, preferSse: false });
let lastHeader: string | undefined;
let lastAccepts: Accepts | undefined;

function parseAccept(header: string): Accepts {
  // [q, specificity, -position] of the best range matching each type.
  let json: number[] | undefined;
  let sse: number[] | undefined;
  const better = (a: number[] | undefined, b: number[]) => (a === undefined || compare(b, a) > 0 ? b : a);
  header.split(",").forEach((part, position) => {
    const [range = "", ...parameters] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParameter = parameters.find((p) => p.startsWith("q="));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!(q > 0)) return;
    if (range === "*/*") {
      json = better(json, [q, 0, -position]);
      sse = better(sse, [q, 0, -position]);
    } else if (range === "application/*") json = better(json, [q, 1, -position]);
    else if (range === "application/json") json = better(json, [q, 2, -position]);
    else if (range === "text/*") sse = better(sse, [q, 1, -position]);
    else if (range === "text/event-stream") sse = better(sse, [q, 2, -position]);
  });
  const preferSse = sse !== undefined && (json === undefined || sse[0]! > json[0]! || (sse[0] === json[0] && sse[2]! > json[2]!));
  return Object.freeze({ json: json !== undefined, sse: sse !== undefined, preferSse });
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** A POST must be JSON (415) and accept JSON or SSE (406). */
export function checkPost(req: Incoming): Accepts | HttpError {
  const type = req.header("content-type");
  if (type !== "application/json" && type?.split(";")[0]?.trim().toLowerCase() !== "application/json") return refuse.unsupportedMediaType(type);
  const accepted = accepts(req);
  if (!accepted.json && !accepted.sse) return refuse.notAcceptable("the client must accept application/json or text/event-stream");
  return accepted;
}

/** A GET opens an event stream, so it must accept one (406). */
export function checkGet(req: Incoming): HttpError | undefined {
  return accepts(req).sse ? undefined : refuse.notAcceptable("a GET opens a stream: the client must accept text/event-stream");
}
