/** What a verified access token says, handed to handlers as `ctx.auth` (resource server side). */
export interface AuthInfo {
  /** The access token itself, as presented. */
  readonly token: string;
  readonly clientId?: string;
  /** The resource owner (`sub`). */
  readonly subject?: string;
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** Every claim of the token (JWT) or of the introspection answer. */
  readonly claims?: Readonly<Record<string, unknown>>;
}
