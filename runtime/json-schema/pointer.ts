/** JSON Pointer (RFC 6901) helpers, in the URI fragment form used by `$ref`: `#/a/b~1c`. */

import { pointerToken } from "../support/validation.js";

/** One reference token, escaped: the support module's rule, which generated checks call at run time. */
export const escapeToken: (token: string) => string = pointerToken;

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function childPointer(pointer: string, ...tokens: (string | number)[]): string {
  return tokens.reduce<string>((p, t) => `${p}/${escapeToken(String(t))}`, pointer);
}

export function pointerTokens(pointer: string): string[] {
  if (pointer !== "#" && !pointer.startsWith("#/")) throw new Error(`not a fragment pointer: ${pointer}`);
  return pointer === "#" ? [] : pointer.slice(2).split("/").map(unescapeToken);
}
