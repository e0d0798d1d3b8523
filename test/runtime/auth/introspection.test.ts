// The RFC 7662 verifier against oidc-provider's introspection endpoint: an active token for this
// resource is accepted with its scopes and client; one for another resource, and a made-up one,
// are refused.
import { expect } from "chai";
import { InvalidTokenError, introspectionVerifier } from "../../../runtime/auth/index.js";
import { INTROSPECTOR, MACHINE, startAuthorizationServer, type AuthorizationServer } from "../../../examples/shared/oidc-authorization-server.js";
import { usedSecret } from "../../support/secrets.js";

// Opaque tokens: oidc-provider introspects only those (RFC 9068 JWTs are for jwtVerifier).
const RESOURCE = "http://127.0.0.1:9/mcp";
const OTHER = "http://127.0.0.1:9/other";

describe("authorization: the introspection verifier against oidc-provider", function () {
  let as: AuthorizationServer;
  before(async () => {
    usedSecret(INTROSPECTOR.client_secret);
    usedSecret(MACHINE.client_secret);
    as = await startAuthorizationServer({ redirectUri: "http://127.0.0.1:9/callback", resources: () => ({ [RESOURCE]: "mcp:read", [OTHER]: "mcp:read" }), opaque: [RESOURCE, OTHER] });
  });
  after(async () => as?.close());

  const tokenFor = async (resource: string) => {
    const response = await fetch(`${as.issuer}/token`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${MACHINE.client_id}:${MACHINE.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", resource, scope: "mcp:read" }),
    });
    return usedSecret(((await response.json()) as { access_token: string }).access_token);
  };
  const verify = () =>
    introspectionVerifier({
      authorizationServer: { issuer: as.issuer, introspection_endpoint: `${as.issuer}/token/introspection` },
      clientId: INTROSPECTOR.client_id,
      clientSecret: INTROSPECTOR.client_secret,
      audience: RESOURCE,
    });

  it("accepts an active token for this resource, with its scopes and client", async () => {
    const info = await verify()(await tokenFor(RESOURCE), new Request(RESOURCE));
    expect(info.scopes).to.deep.equal(["mcp:read"]);
    expect(info.clientId).to.equal(MACHINE.client_id);
  });

  it("refuses a token for another resource, and a token the server never issued", async () => {
    for (const [token, reason] of [
      [await tokenFor(OTHER), /another resource/],
      ["made-up-token", /not active/],
    ] as const) {
      const error = await verify()(token, new Request(RESOURCE)).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).to.be.instanceOf(InvalidTokenError);
      expect(error!.message).to.match(reason);
    }
  });
});
