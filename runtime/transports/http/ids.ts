/** The ids Streamable HTTP makes: sessions, streams (and instances sharing sessions), and the stream an event id names. */

/** A fresh session id: 128 random bits as hex, visible ASCII as the spec requires. */
export function newSessionId(): string {
  return randomHex(16);
}

export function newStreamId(): string {
  return randomHex(8);
}

/**
 * `bytes` random bytes as hex, from the Web Crypto API (every runtime has it). Drawn 4 KiB at a
 * time, as node's randomUUID buffers: one getRandomValues call per POST cost more than the rest of
 * making its stream.
 */
function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(4096));
    poolOffset = 0;
  }
  let hex = "";
  for (let i = poolOffset; i < poolOffset + bytes; i++) hex += HEX[pool[i]!];
  poolOffset += bytes;
  return hex;
}

let pool = new Uint8Array(0);
let poolOffset = 0;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** The stream an event id names (both stores write `<streamId>_<position>`). */
export function streamOf(eventId: string): string | undefined {
  const cut = eventId.lastIndexOf("_");
  return cut > 0 ? eventId.slice(0, cut) : undefined;
}
