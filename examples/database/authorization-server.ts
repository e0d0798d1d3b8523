/**
 * A development authorization server for `server.ts --auth`: oidc-provider on 127.0.0.1 that signs
 * everyone in as "user-1" and consents at once (no login page), with dynamic registration,
 * refresh tokens and JWT access tokens for the resource given.
 *
 *   node --import tsx examples/database/authorization-server.ts [--port 3103] [--resource http://127.0.0.1:3102/mcp]
 */
import { parseArgs } from "node:util";
import { startAuthorizationServer } from "../shared/oidc-authorization-server.js";

const { values } = parseArgs({ options: { port: { type: "string", default: "3103" }, resource: { type: "string", default: "http://127.0.0.1:3102/mcp" } } });
export const REDIRECT_URI = "http://127.0.0.1:9/callback";
const as = await startAuthorizationServer({ port: Number(values.port), redirectUri: REDIRECT_URI, resources: () => ({ [values.resource!]: "mcp:read" }) });
process.stderr.write(`authorization server: issuer ${as.issuer}, tokens for ${values.resource}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void as.close().then(() => process.exit(0)));
