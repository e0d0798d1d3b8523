// Tokens and secrets the authorization tests use, one a line, appended to the file named by
// MCP_TEST_SECRETS_FILE when it is set: test/runtime/auth/output.test.ts runs those tests and
// greps everything they printed for each one.
import { appendFileSync } from "node:fs";

/** Notes `secret` as used by a test; returns it. */
export function usedSecret<T extends string>(secret: T): T {
  const file = process.env.MCP_TEST_SECRETS_FILE;
  if (file) appendFileSync(file, `${secret}\n`);
  return secret;
}
