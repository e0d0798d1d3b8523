/** A `Bearer` challenge of a WWW-Authenticate header (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  readonly error?: string;
  readonly errorDescription?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
}

// auth-param = token BWS "=" BWS ( token / quoted-string ) (RFC 9110 §11.2)
const PARAM = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~0-9A-Za-z/-]+=*))/gy;

/** The Bearer (else the DPoP, RFC 9449 §7.1) challenge of a response, if it has one; other schemes are ignored. */
export function bearerChallenge(response: Response): BearerChallenge | undefined {
  const header = response.headers.get("www-authenticate");
  if (!header || header.length > 8192) return undefined;
  const start = /(^|,)\s*bearer(\s+|$|,)/i.exec(header) ?? /(^|,)\s*dpop(\s+|$|,)/i.exec(header);
  if (!start) return undefined;
  const params: Record<string, string> = {};
  let at = start.index + start[0].length;
  for (;;) {
    while (at < header.length && /[\s,]/.test(header[at]!)) at++;
    PARAM.lastIndex = at;
    const match = PARAM.exec(header);
    if (!match) break; // the next scheme, or the end
    params[match[1]!.toLowerCase()] ??= match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3]!;
    at = PARAM.lastIndex;
  }
  return {
    error: params.error,
    errorDescription: params.error_description,
    scope: params.scope,
    resourceMetadata: params.resource_metadata,
  };
}
