// A real OAuth 2.1 / OpenID Connect authorization server for the auth tests and the database
// example's --auth (a development server, not for production): oidc-provider
// (panva, certified), in process on 127.0.0.1, with resource indicators (JWT access tokens whose
// `aud` is the resource), dynamic registration, refresh tokens, introspection and client
// credentials. Logins and consents are granted at once by the interaction route below, so that
// headlessInteraction can walk the redirects; it records every request it grants.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors as oidcErrors } from "oidc-provider";

export interface AuthorizationServer {
  readonly issuer: string;
  readonly provider: Provider;
  /** Each grant: the token endpoint's grant_type, the resource and the scope asked for. */
  readonly grants: { grantType: string; resource?: string; scope?: string; clientId?: string }[];
  /** Each authorization request's scope. */
  readonly authorizations: { scope?: string; clientId?: string; resource?: string }[];
  close(): Promise<void>;
}

export const PRE_REGISTERED = { client_id: "pre-registered", client_secret: "pre-registered-secret-0123456789abcdef" };
export const MACHINE = { client_id: "machine", client_secret: "machine-secret-0123456789abcdef" };
export const INTROSPECTOR = { client_id: "resource-server", client_secret: "resource-server-secret-0123456789" };

/** Starts oidc-provider; `resources` maps each resource it issues tokens for to the scopes it offers. */
export async function startAuthorizationServer(options: {
  redirectUri: string;
  resources: () => Record<string, string>;
  /** Resources whose access tokens are opaque (introspectable) instead of JWTs. */
  opaque?: readonly string[];
  port?: number;
  /** DPoP (RFC 9449, on by default in oidc-provider): require the authorization server's nonce (§8). */
  dpopNonce?: boolean;
}): Promise<AuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-key-1", alg: "RS256", use: "sig" };
  const grants: AuthorizationServer["grants"] = [];
  const authorizations: AuthorizationServer["authorizations"] = [];

  const provider = new Provider(issuer, {
    clients: [
      { ...PRE_REGISTERED, redirect_uris: [options.redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], application_type: "native" },
      { ...MACHINE, redirect_uris: [], grant_types: ["client_credentials"], response_types: [] },
      { ...INTROSPECTOR, redirect_uris: [], grant_types: [], response_types: [] },
    ],
    jwks: { keys: [signingKey] },
    scopes: ["openid", "offline_access", "mcp:read", "mcp:write"],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      // A proof at the token endpoint binds the token to its key (cnf.jkt, token_type DPoP).
      dPoP: { enabled: true, nonceSecret: Buffer.from(crypto.getRandomValues(new Uint8Array(32))), requireNonce: () => options.dpopNonce === true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const scope = options.resources()[resource];
          if (scope === undefined) throw new oidcErrors.InvalidTarget();
          if (options.opaque?.includes(resource)) return { scope, audience: resource, accessTokenTTL: 600, accessTokenFormat: "opaque" };
          return { scope, audience: resource, accessTokenTTL: 600, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
        },
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, RefreshToken: 3600, ClientCredentials: 600, AccessToken: 600 },
  });
  provider.on("grant.success", (ctx) => {
    const body = (ctx.oidc.params ?? {}) as Record<string, string | undefined>;
    grants.push({ grantType: String(body.grant_type), resource: body.resource, scope: body.scope, clientId: ctx.oidc.client?.clientId });
  });
  provider.on("authorization.accepted", (ctx) => {
    const params = (ctx.oidc.params ?? {}) as Record<string, string | undefined>;
    authorizations.push({ scope: params.scope, clientId: params.client_id, resource: params.resource });
  });

  const callback = provider.callback();
  server.on("request", (req, res) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
    if (!interaction) return callback(req, res);
    void grantInteraction(provider, req, res).catch((error: Error) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(error.message);
    });
  });
  return {
    issuer,
    provider,
    grants,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The user says yes: login as "user-1", and consent to every scope and resource asked for. */
async function grantInteraction(provider: Provider, req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: "user-1" } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) }))
    : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
  const missing = prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
