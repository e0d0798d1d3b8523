import type * as oauth from "oauth4webapi";
import { o4w } from "../peers.js";
import { checkPkce, isLoopback, requestOptions, type Discovered } from "./discovery.js";
import { describe, OAuthFlowError } from "./errors.js";
import type { UserInteraction } from "./interaction.js";
import { clientAuthentication, OAuthProvider, preferredMethod, toStored, type ProviderOptions } from "./provider.js";
import type { StoredClient, StoredTokens } from "./store.js";

export interface AuthorizationCodeOptions extends ProviderOptions {
  /** Where the authorization server sends the user back (registered with it). */
  readonly redirectUri: string;
  /** Opens the authorization URL and resolves with the redirect back; see headlessInteraction. */
  readonly interaction: UserInteraction;
  /** Pre-registered credentials; used at any authorization server unless `issuer` names one. */
  readonly client?: StoredClient & { readonly issuer?: string };
  /** A client ID metadata document URL, used as client_id where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** RFC 7591 metadata for dynamic registration; client_name at least. */
  readonly clientMetadata?: Readonly<Record<string, unknown>> & { readonly client_name?: string };
  /** Ask for offline_access when the server lists it, to get refresh tokens (default true). */
  readonly offlineAccess?: boolean;
}

/**
 * OAuth 2.1 authorization code with PKCE S256, as MCP clients sign in: discovery, registration
 * (pre-registered, client ID metadata document, or RFC 7591), the user's consent through
 * `interaction`, RFC 9207 `iss` and `state` checks, RFC 8707 `resource` on every request, and
 * refresh tokens. Every protocol step is oauth4webapi's.
 */
export class AuthorizationCodeProvider extends OAuthProvider {
  constructor(protected override readonly options: AuthorizationCodeOptions) {
    super(options);
  }

  protected override get wantsRefreshTokens(): boolean {
    return this.options.offlineAccess !== false;
  }

  protected override async grant(found: Discovered, scope: string | undefined, base: typeof fetch): Promise<StoredTokens> {
    const as = found.defaultEndpoints ? found.as : checkPkce(found.as);
    const { client, auth } = await this.clientFor(found, base);
    if (!as.authorization_endpoint) throw new OAuthFlowError("authorization request", as.issuer, "the authorization server has no authorization_endpoint");
    const verifier = o4w().generateRandomCodeVerifier();
    const state = o4w().generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint);
    const params = authorizationUrl.searchParams;
    params.set("response_type", "code");
    params.set("client_id", client.client_id);
    params.set("redirect_uri", this.options.redirectUri);
    params.set("code_challenge", await o4w().calculatePKCECodeChallenge(verifier));
    params.set("code_challenge_method", "S256");
    params.set("state", state);
    params.set("resource", found.resource);
    if (scope) params.set("scope", scope);

    const callback = await this.options.interaction(authorizationUrl);
    let validated: URLSearchParams;
    try {
      validated = o4w().validateAuthResponse(as, client, callback, state);
    } catch (error) {
      const sent = callback.searchParams;
      const detail = sent.get("error") ? `${sent.get("error")}${sent.get("error_description") ? `: ${sent.get("error_description")}` : ""}` : describe(error);
      throw new OAuthFlowError("authorization response", `${callback.origin}${callback.pathname}`, detail, { cause: error });
    }
    const endpoint = new URL(as.token_endpoint ?? as.issuer);
    try {
      const result = await this.tokenRequest(async (DPoP) => {
        const response = await o4w().authorizationCodeGrantRequest(as, client, auth, validated, this.options.redirectUri, verifier, {
          ...requestOptions(endpoint, this.discovery(base)),
          additionalParameters: { resource: found.resource },
          DPoP,
        });
        return o4w().processAuthorizationCodeResponse(as, client, response);
      });
      return toStored(found, result, scope);
    } catch (error) {
      throw new OAuthFlowError("token request", endpoint.href, describe(error), { cause: error });
    }
  }

  protected override async clientFor(found: Discovered, base: typeof fetch): Promise<{ client: oauth.Client; auth: oauth.ClientAuth }> {
    const registration = await this.register(found, base);
    return { client: { client_id: registration.client_id }, auth: clientAuthentication(found.as, registration) };
  }

  /** The registration for this authorization server: stored, pre-registered, CIMD, or RFC 7591. */
  private async register(found: Discovered, base: typeof fetch): Promise<StoredClient> {
    const { as } = found;
    const stored = await this.store.getClient(as.issuer);
    if (stored) return stored;
    const given = this.options.client;
    let client: StoredClient;
    if (given && (given.issuer === undefined || given.issuer === as.issuer)) {
      client = { client_id: given.client_id, client_secret: given.client_secret, token_endpoint_auth_method: given.token_endpoint_auth_method };
    } else if (as.client_id_metadata_document_supported === true && this.options.clientMetadataUrl) {
      client = { client_id: this.options.clientMetadataUrl, token_endpoint_auth_method: "none" };
    } else if (as.registration_endpoint) {
      client = await this.dynamicRegistration(as, base);
    } else {
      throw new OAuthFlowError(
        "client registration",
        as.issuer,
        "the authorization server offers neither dynamic registration nor client ID metadata documents; configure a pre-registered client",
      );
    }
    await this.store.setClient(as.issuer, client);
    return client;
  }

  private async dynamicRegistration(as: oauth.AuthorizationServer, base: typeof fetch): Promise<StoredClient> {
    const redirect = new URL(this.options.redirectUri);
    const metadata: Partial<oauth.Client> = {
      client_name: "mcp-codegen client",
      redirect_uris: [this.options.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: preferredMethod(as.token_endpoint_auth_methods_supported, false),
      // SEP-837: a loopback or private-scheme redirect is a native application.
      application_type: isLoopback(redirect) || !/^https?:$/.test(redirect.protocol) ? "native" : "web",
      ...(this.options.clientMetadata as Partial<oauth.Client> | undefined),
    };
    const endpoint = new URL(as.registration_endpoint!);
    try {
      const response = await o4w().dynamicClientRegistrationRequest(as, metadata, requestOptions(endpoint, this.discovery(base)));
      const result = await o4w().processDynamicClientRegistrationResponse(await withSecretExpiry(response));
      return {
        client_id: result.client_id,
        client_secret: typeof result.client_secret === "string" ? result.client_secret : undefined,
        token_endpoint_auth_method: (result.token_endpoint_auth_method as string | undefined) ?? (metadata.token_endpoint_auth_method as string),
      };
    } catch (error) {
      throw new OAuthFlowError("dynamic client registration", endpoint.href, describe(error), { cause: error });
    }
  }
}

/**
 * RFC 7591 §3.2.1 requires client_secret_expires_at with a client_secret, and oauth4webapi
 * enforces it; many servers (the conformance suite's among them) omit it. Read as 0: no expiry.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201 || !(response.headers.get("content-type") ?? "").includes("json")) return response;
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!body || typeof body.client_secret !== "string" || body.client_secret_expires_at !== undefined) return response;
  return new Response(JSON.stringify({ ...body, client_secret_expires_at: 0 }), { status: 201, headers: response.headers });
}
