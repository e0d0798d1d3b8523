// No token or secret in anything the authorization tests print: every other test file of this
// folder runs in a child mocha, each token and secret it uses noted (test/support/secrets.ts),
// and all its output (the tests' own, the servers' logs, stderr included) is searched for them,
// and for anything shaped like a JWT. DPoP's proofs, the private keys that sign them and the
// nonce secrets are noted as well (dpop.test.ts).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { removeDir, ROOT, tempDir } from "../../support/project.js";

describe("authorization: no token or secret in the tests' output", function () {
  this.timeout(600_000);

  it("the auth tests pass, and their output holds none of the tokens and secrets they used", () => {
    const dir = tempDir("auth-output-");
    try {
      const secretsFile = join(dir, "secrets.txt");
      writeFileSync(secretsFile, "");
      const here = join(ROOT, "test", "runtime", "auth");
      const files = readdirSync(here).filter((f) => f.endsWith(".test.ts") && f !== "output.test.ts").map((f) => join(here, f));
      const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "node_modules", "mocha", "bin", "mocha.js"), "--no-config", "--timeout", "120000", "--reporter", "spec", ...files], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, MCP_TEST_SECRETS_FILE: secretsFile },
        timeout: 540_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      const secrets = [...new Set(readFileSync(secretsFile, "utf8").split("\n").filter(Boolean))];
      expect(run.status, output.slice(-4000)).to.equal(0);
      expect(secrets.length, "tokens and secrets were noted").to.be.at.least(20);
      // DPoP (dpop.test.ts): the proofs sent and the private keys that signed them are among them.
      const headers = secrets.filter((s) => /^eyJ[^.]+\.[^.]+\.[^.]+$/.test(s)).map((s) => JSON.parse(Buffer.from(s.split(".")[0]!, "base64url").toString()) as { typ?: string });
      expect(headers.filter((h) => h.typ === "dpop+jwt").length, "DPoP proofs were noted").to.be.at.least(20);
      expect(headers.filter((h) => h.typ === "at+jwt").length, "DPoP-bound access tokens were noted").to.be.at.least(5);
      expect(output, "the redacted log lines reached the output").to.include("[redacted]");
      const found = secrets.filter((secret) => output.includes(secret));
      expect(found, "tokens or secrets in the output").to.deep.equal([]);
      expect(output.match(/eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g) ?? [], "JWT-shaped strings in the output").to.deep.equal([]);
    } finally {
      removeDir(dir);
    }
  });
});
