/** Tokens granted for one protected resource, stamped with the authorization server that issued them. */
export interface StoredTokens {
  readonly issuer: string;
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt?: number;
  /** The scopes granted (or, when the server did not say, those requested). */
  readonly scope?: string;
  /** token_type, lower case: "bearer", or "dpop" for a DPoP-bound token (RFC 9449 §5). Absent: bearer. */
  readonly tokenType?: string;
}

/** A client registration at one authorization server (RFC 7591 response, pre-registration or CIMD). */
export interface StoredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly token_endpoint_auth_method?: string;
}

/**
 * Where the client keeps what outlives one request: registrations by issuer, tokens by resource.
 * SEP-2352: registrations are keyed by the authorization server's issuer, so a resource that moves
 * to another server gets a new registration, never the old server's credentials.
 */
export interface AuthStore {
  /** The client registered with `issuer`, if any. */
  getClient(issuer: string): Promise<StoredClient | undefined>;
  /** Keeps the client registered with `issuer`. */
  setClient(issuer: string, client: StoredClient): Promise<void>;
  /** Forgets the client registered with `issuer`. */
  deleteClient(issuer: string): Promise<void>;
  /** The tokens held for `resource`, if any. */
  getTokens(resource: string): Promise<StoredTokens | undefined>;
  /** Keeps the tokens for `resource`. */
  setTokens(resource: string, tokens: StoredTokens): Promise<void>;
  /** Forgets the tokens for `resource`. */
  deleteTokens(resource: string): Promise<void>;
}

/** The default store: this process's memory. */
export class MemoryAuthStore implements AuthStore {
  private readonly clients = new Map<string, StoredClient>();
  private readonly tokens = new Map<string, StoredTokens>();
  async getClient(issuer: string) {
    return this.clients.get(issuer);
  }
  async setClient(issuer: string, client: StoredClient) {
    this.clients.set(issuer, client);
  }
  async deleteClient(issuer: string) {
    this.clients.delete(issuer);
  }
  async getTokens(resource: string) {
    return this.tokens.get(resource);
  }
  async setTokens(resource: string, tokens: StoredTokens) {
    this.tokens.set(resource, tokens);
  }
  async deleteTokens(resource: string) {
    this.tokens.delete(resource);
  }
}
