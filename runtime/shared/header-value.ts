/** SEP-2243 header values (Mcp-Name, Mcp-Param-*), one codec for the client that writes them and the server that reads them. */

/**
 * A header value as SEP-2243 carries it: plain when it is visible ASCII without edge spaces and
 * does not itself look like the wrapper, else =?base64?...?= (so the empty string is wrapped too).
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/i.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * SEP-2243 header values: `=?base64?<standard base64 of UTF-8, padded>?=` decoded (null when
 * malformed); any other value is taken literally.
 */
export function decodeHeaderValue(value: string): string | null {
  const wrapped = /^=\?base64\?(.*)\?=$/i.exec(value);
  if (!wrapped) return value;
  const encoded = wrapped[1]!;
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
