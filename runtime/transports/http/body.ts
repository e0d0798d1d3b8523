import { refuse } from "./errors.js";

/** The default largest request body: 4 MiB, like the official SDK. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as a JSON value, or a -32700 refusal. Invalid UTF-8 is a parse error too. */
export function parseJson(bytes: Uint8Array): unknown {
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

// ignoreBOM false (the default): a byte order mark before the JSON text is dropped (RFC 8259 section 8.1), as stdio does (ndjson-decoder.ts).
const UTF8 = new TextDecoder("utf-8", { fatal: true });
