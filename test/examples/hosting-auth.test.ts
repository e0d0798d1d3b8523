// docs/authorization.md's "Auth in express, fastify and hono": each snippet is a file of
// examples/hosting (shown there verbatim), mounted with bearerAuth in front of a real
// authorization server (oidc-provider on 127.0.0.1). For each framework: a request without a
// token gets the challenge, the metadata URL the challenge names answers (and so does the root
// form), and McpClient signs in through it and calls the tool.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { expect } from "chai";
import { AuthorizationCodeProvider, bearerChallenge, headlessInteraction } from "../../runtime/auth/index.js";
import { McpClient } from "../../runtime/index.js";
import { HttpClientTransport } from "../../runtime/transports/http/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../examples/shared/oidc-authorization-server.js";
import { freePort } from "../support/free-port.js";
import { asShown as showFile } from "../support/snippets.js";
import { ROOT } from "./support.js";

const REDIRECT = "http://127.0.0.1:9/callback";

const asShown = (name: string) => showFile(`hosting/${name}.ts`);

function closing(server: Server): () => Promise<void> {
  return () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
}

/** Each framework's app from its snippet, listening on `port`; resolves with how to stop it. */
const MOUNT: Record<string, (resource: string, issuer: string, port: number) => Promise<() => Promise<void>>> = {
  async "express-auth"(resource, issuer, port) {
    const { createApp } = await import("../../examples/hosting/express-auth.js");
    const app = createApp(resource, issuer);
    return closing(await new Promise<Server>((resolve) => {
      const server = app.listen(port, "127.0.0.1", () => resolve(server));
    }));
  },
  async "fastify-auth"(resource, issuer, port) {
    const { createApp } = await import("../../examples/hosting/fastify-auth.js");
    const app = createApp(resource, issuer);
    await app.listen({ port, host: "127.0.0.1" });
    return () => app.close();
  },
  async "hono-auth"(resource, issuer, port) {
    const { createApp } = await import("../../examples/hosting/hono-auth.js");
    const app = createApp(resource, issuer);
    return closing(await new Promise<Server>((resolve) => {
      const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(server as Server));
    }));
  },
};

describe("examples/hosting with authorization: express, fastify and hono", function () {
  this.timeout(60_000);
  const resources: Record<string, string> = {};
  let as: AuthorizationServer;
  before(async () => {
    as = await startAuthorizationServer({ redirectUri: REDIRECT, resources: () => resources });
  });
  after(() => as?.close());

  it("are docs/authorization.md's snippets, line for line", () => {
    const docs = readFileSync(join(ROOT, "docs", "authorization.md"), "utf8");
    for (const name of Object.keys(MOUNT)) expect(docs, `docs/authorization.md shows examples/hosting/${name}.ts`).to.contain("```ts\n" + asShown(name) + "```");
  });

  for (const [name, mount] of Object.entries(MOUNT))
    describe(name, () => {
      let resource: string;
      let stop: (() => Promise<void>) | undefined;
      before(async () => {
        const port = await freePort();
        resource = `http://127.0.0.1:${port}/mcp`;
        resources[resource] = "mcp:read";
        stop = await mount(resource, as.issuer, port);
      });
      after(() => stop?.());

      it("challenges a request without a token, and the metadata URL the challenge names answers, as does the root form", async () => {
        const refused = await fetch(resource, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        await refused.body?.cancel();
        expect(refused.status).to.equal(401);
        const named = bearerChallenge(refused)?.resourceMetadata;
        expect(named).to.equal(`${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`);
        for (const url of [named!, `${new URL(resource).origin}/.well-known/oauth-protected-resource`]) {
          const metadata = await fetch(url);
          expect(metadata.status, url).to.equal(200);
          expect(await metadata.json()).to.deep.include({ resource, authorization_servers: [as.issuer] });
        }
        // Only the metadata: another path under the route is not served as MCP.
        const other = await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource/other`);
        await other.body?.cancel();
        expect(other.status).to.be.oneOf([404, 405]);
      });

      it("McpClient signs in at oidc-provider through that metadata and calls the tool", async () => {
        const provider = new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: name } });
        const client = await McpClient.connect(new HttpClientTransport(resource, { authProvider: provider }), { name, version: "1.0.0", logger: () => {} });
        try {
          expect((await client.callTool("greet", { name: "Ada" })).content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
        } finally {
          await client.close();
        }
      });
    });
});
