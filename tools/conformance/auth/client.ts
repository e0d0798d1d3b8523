// The client under test for the official suite's auth scenarios: McpClient over Streamable HTTP
// with runtime/auth's providers. Run by the suite as `<command> <server-url>`, told what to do
// by the environment, as the suite's README and the SDK's everythingClient.ts define:
//   MCP_CONFORMANCE_SCENARIO           the scenario, e.g. auth/metadata-default
//   MCP_CONFORMANCE_CONTEXT            JSON: pre-registered credentials, keys, ...
//   MCP_CONFORMANCE_PROTOCOL_VERSION   the revision to speak (0.2.0-alpha), default 2025-11-25
// Exits non-zero, with the reason on stderr, when the flow is refused: some scenarios expect that.
// Scenarios other than auth/* (a --requirements run has them too) are not this harness's: it
// leaves at once, before loading the runtime, and says so.
// Prints "auth client: done" on stdout when the whole flow succeeded; run.mjs reads it.
import type { AuthProvider } from "../../../runtime/auth/client/index.js";

/** The URL the suite expects a client ID metadata document client to use (SEP-991). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URI = "http://localhost:3000/callback";

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}") as Record<string, string | undefined>;
const requested = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

async function main(): Promise<void> {
  if (!serverUrl) throw new Error("usage: client.ts <server-url>");
  if (!scenario.startsWith("auth/")) {
    console.log(`auth client: ${scenario} is not an auth scenario; skipped`);
    return;
  }
  const { McpClient } = await import("../../../runtime/client/client.js");
  const { isRevision } = await import("../../../runtime/session/revisions.js");
  const { HttpClientTransport } = await import("../../../runtime/transports/http/client.js");
  const revision = requested && isRevision(requested) ? requested : "2025-11-25";
  const machine = scenario.startsWith("auth/client-credentials-");
  const transport = new HttpClientTransport(serverUrl, { authProvider: await provider() });
  const client = await McpClient.connect(transport, { name: "mcp-codegen-conformance-auth", version: "1.0.0", revision, logger: () => {} });
  await client.listTools();
  if (!machine) await client.callTool("test-tool", {});
  await client.close();
  console.log("auth client: done");
}

async function provider(): Promise<AuthProvider> {
  const { AuthorizationCodeProvider, ClientCredentialsProvider, headlessInteraction } = await import("../../../runtime/auth/client/index.js");
  switch (scenario) {
    case "auth/client-credentials-jwt":
      return new ClientCredentialsProvider({ clientId: need("client_id"), privateKey: need("private_key_pem"), algorithm: context.signing_algorithm ?? "ES256" });
    case "auth/client-credentials-basic":
      return new ClientCredentialsProvider({ clientId: need("client_id"), clientSecret: need("client_secret") });
    case "auth/pre-registration":
      return new AuthorizationCodeProvider({
        redirectUri: REDIRECT_URI,
        interaction: headlessInteraction({ redirectUri: REDIRECT_URI }),
        client: { client_id: need("client_id"), client_secret: need("client_secret") },
      });
    case "auth/dpop":
    case "auth/dpop-nonce":
      // SEP-1932: a DPoP-bound token from proofs at the token endpoint, then a fresh proof on every MCP request.
      return new AuthorizationCodeProvider({
        redirectUri: REDIRECT_URI,
        interaction: headlessInteraction({ redirectUri: REDIRECT_URI }),
        clientMetadataUrl: CIMD_URL,
        clientMetadata: { client_name: "mcp-codegen-conformance-auth" },
        dpop: true,
      });
    default:
      return new AuthorizationCodeProvider({
        redirectUri: REDIRECT_URI,
        interaction: headlessInteraction({ redirectUri: REDIRECT_URI }),
        clientMetadataUrl: CIMD_URL,
        clientMetadata: { client_name: "mcp-codegen-conformance-auth" },
      });
  }
}

function need(key: string): string {
  const value = context[key];
  if (typeof value !== "string") throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${key} for ${scenario}`);
  return value;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause ? ` (cause: ${cause.code ?? cause.message})` : "";
    console.error(`auth client (${scenario}): ${error instanceof Error ? error.message : String(error)}${why}`);
    process.exit(1);
  },
);
