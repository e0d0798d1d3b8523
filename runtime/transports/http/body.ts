import type { IncomingMessage } from "node:http";
import { refuse, type HttpError } from "./errors.js";

/** The default largest request body: 4 MiB, like the official SDK. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads a request body up to `limit` bytes. A Content-Length over the limit is refused before
 * a byte is read; a body that grows past it is refused as soon as it does, and the rest is not
 * kept. Resolves with the bytes, or with the HttpError to answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | HttpError> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(refuse.tooLarge(declared, limit));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Buffer | HttpError) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        // Keep draining (and dropping) so the response can still be written on this connection.
        req.resume();
        finish(refuse.tooLarge(undefined, limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = (error: Error) => finish(refuse.badRequest(`could not read the body: ${error.message}`));
    const onClose = () => finish(refuse.badRequest("the body ended early"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** The body as a JSON value, or a -32700 refusal. Invalid UTF-8 is a parse error too. */
export function parseJson(bytes: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw refuse.parse("the body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refuse.parse((error as Error).message);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
