/**
 * McpClient signs in to `server.ts --http --auth` and runs one query: discovery from the 401,
 * dynamic registration, authorization code + PKCE (headless: the development authorization
 * server consents at once), then the call with the token.
 *
 *   node --import tsx examples/database/sign-in.ts [http://127.0.0.1:3102/mcp]
 */
import { AuthorizationCodeProvider, headlessInteraction } from "../../runtime/auth/index.js";
import { McpClient } from "../../runtime/index.js";
import { HttpClientTransport } from "../../runtime/http.js";

const url = process.argv[2] ?? "http://127.0.0.1:3102/mcp";
const redirectUri = "http://127.0.0.1:9/callback";
const authProvider = new AuthorizationCodeProvider({
  redirectUri,
  interaction: headlessInteraction({ redirectUri }), // a person: open the URL in a browser and paste the redirect back
  clientMetadata: { client_name: "database sign-in example" },
});
const client = await McpClient.connect(new HttpClientTransport(url, { authProvider }), { name: "sign-in", version: "1.0.0" });
const result = await client.callTool("sql_query", { query: "SELECT username FROM users ORDER BY username", limit: 3 });
process.stdout.write(`${JSON.stringify(result.content)}\n`);
await client.close();
