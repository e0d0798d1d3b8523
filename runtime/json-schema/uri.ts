import { unescapeToken } from "./pointer.js";

/**
 * URI handling for JSON Schema references (RFC 3986 resolution via WHATWG URL, JSON Pointer
 * fragments per RFC 6901 with RFC 3986 percent-decoding, as JSON Schema 2020-12 section 8.2.1 says).
 */

/** A base for documents that name none: references resolve against it and never leave it. */
export const DEFAULT_BASE = "urn:mcp-codegen:schema";

/** `ref` resolved against `base`; a `urn:` base takes fragments only (URL cannot resolve against it). */
export function resolveUri(ref: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return normalizeUri(ref);
  if (base.startsWith("urn:") || !/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) {
    if (ref.startsWith("#") || ref === "") return `${withoutFragment(base)}${ref}`;
    // A relative reference against a URN: resolved as a path beside it, so that it names something stable.
    return normalizeUri(new URL(ref, `https://relative.invalid/${encodeURIComponent(withoutFragment(base))}/`).href);
  }
  return normalizeUri(new URL(ref, base).href);
}

function normalizeUri(uri: string): string {
  if (/^https?:\/\//i.test(uri)) {
    try {
      return new URL(uri).href;
    } catch {
      return uri;
    }
  }
  return uri;
}

export function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

export function fragmentOf(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? "" : uri.slice(hash + 1);
}

/** The tokens of a JSON Pointer fragment (`/a~1b/%25`): percent-decoded, then ~1 and ~0 unescaped. */
export function pointerTokens(fragment: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === "") return [];
  if (!decoded.startsWith("/")) return undefined;
  return decoded
    .slice(1)
    .split("/")
    .map(unescapeToken);
}
