/**
 * A step of an OAuth flow failed. Names the step, the URL it talked to and what the server said,
 * so that a person can act on it; never carries a token or a client secret.
 */
export class OAuthFlowError extends Error {
  override readonly name = "OAuthFlowError";
  constructor(
    /** e.g. "protected resource metadata", "authorization server metadata", "token request". */
    readonly step: string,
    readonly url: string | undefined,
    /** What went wrong, with the server's error and error_description when it sent them. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`OAuth ${step} failed${url ? ` at ${url}` : ""}: ${detail}`, options);
  }
}

/** The server's words from an oauth4webapi error, without secrets: error, error_description, HTTP status. */
export function describe(error: unknown): string {
  const e = error as { message?: string; error?: string; error_description?: string; status?: number; cause?: unknown };
  if (typeof e?.error === "string") return `${e.status ? `HTTP ${e.status}, ` : ""}${e.error}${e.error_description ? `: ${e.error_description}` : ""}`;
  const cause = (e?.cause as { message?: string; code?: string } | undefined) ?? undefined;
  const why = cause?.code ?? cause?.message;
  return `${e?.message ?? String(error)}${typeof why === "string" && why !== e?.message ? ` (${why})` : ""}`;
}
