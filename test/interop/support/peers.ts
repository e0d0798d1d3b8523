// The interop peers of tools/interop (SDK v2 client and server, server-everything, the AI SDK's
// MCP client), loaded on demand. Outside CI a suite skips when tools/interop is not installed
// (`make tools`); in CI (CI=true) a missing install fails it.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { skipUnlessCi } from "../../support/skip.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const INTEROP_DIR = fileURLToPath(new URL("../../../tools/interop/", import.meta.url));
export const SDK_V2_SERVER = `${INTEROP_DIR}sdk-v2-server.mjs`;
const INSTALLED = `${INTEROP_DIR}node_modules/.package-lock.json`;

/** The peers module, or a skip (a failure in CI) when tools/interop is not installed. */
export async function interopPeers(context: Mocha.Context): Promise<Any> {
  if (!existsSync(INSTALLED)) skipUnlessCi(context, `tools/interop is not installed (${INSTALLED} is missing)`, "run `make tools`");
  return import(pathToFileURL(`${INTEROP_DIR}peers.mjs`).href);
}
