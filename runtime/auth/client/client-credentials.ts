import type * as jose from "jose";
import type * as oauth from "oauth4webapi";
import { loadJose, o4w } from "../peers.js";
import { requestOptions, type Discovered } from "./discovery.js";
import { describe, OAuthFlowError } from "./errors.js";
import { clientSecretBasic, OAuthProvider, toStored, type ProviderOptions } from "./provider.js";
import type { StoredTokens } from "./store.js";

/**
 * Options of `ClientCredentialsProvider`: the client id, and a secret (`client_secret_basic`) or a
 * private key (`private_key_jwt`).
 */
export type ClientCredentialsOptions = ProviderOptions & { readonly clientId: string } & (
    | { readonly clientSecret: string }
    | {
        /** A PKCS#8 PEM private key for private_key_jwt (RFC 7523). */
        readonly privateKey: string;
        /** Its JWS algorithm (default ES256). */
        readonly algorithm?: string;
        readonly keyId?: string;
      }
  );

/**
 * The client credentials grant for machine clients (the MCP auth extension
 * io.modelcontextprotocol/oauth-client-credentials): client_secret_basic or private_key_jwt,
 * with the same discovery, `resource` and step-up as the interactive flow.
 */
export class ClientCredentialsProvider extends OAuthProvider {
  private key: ReturnType<typeof jose.importPKCS8> | undefined;

  constructor(protected override readonly options: ClientCredentialsOptions) {
    super(options);
  }

  protected override async grant(found: Discovered, scope: string | undefined, base: typeof fetch): Promise<StoredTokens> {
    const { client, auth } = await this.clientFor(found, base);
    const endpoint = new URL(found.as.token_endpoint ?? found.as.issuer);
    const parameters: Record<string, string> = { resource: found.resource };
    if (scope) parameters.scope = scope;
    try {
      const result = await this.tokenRequest(async (DPoP) => {
        const response = await o4w().clientCredentialsGrantRequest(found.as, client, auth, parameters, { ...requestOptions(endpoint, this.discovery(base)), DPoP });
        return o4w().processClientCredentialsResponse(found.as, client, response);
      });
      return toStored(found, result, scope);
    } catch (error) {
      throw new OAuthFlowError("client credentials token request", endpoint.href, describe(error), { cause: error });
    }
  }

  protected override async clientFor(_found: Discovered, _base: typeof fetch): Promise<{ client: oauth.Client; auth: oauth.ClientAuth }> {
    const client = { client_id: this.options.clientId };
    const o = this.options;
    if ("clientSecret" in o) return { client, auth: clientSecretBasic(o.clientSecret) };
    this.key ??= loadJose("ClientCredentialsProvider with a privateKey (private_key_jwt)").then((jose) => jose.importPKCS8(o.privateKey, o.algorithm ?? "ES256"));
    const key = await this.key;
    return { client, auth: o4w().PrivateKeyJwt(o.keyId ? { key, kid: o.keyId } : key) };
  }
}
