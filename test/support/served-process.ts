// A child process that serves MCP over Streamable HTTP and says where on stderr, as the examples
// and test fixtures do with `--port 0`: its URL, and a way to stop it.
import type { ChildProcess } from "node:child_process";

export interface ServedProcess {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

/** Waits (at most `timeoutMs`) for `child` to report "serving MCP over Streamable HTTP at <url>" (or what `announce` matches) on its stderr. */
export async function servedOverHttp(child: ChildProcess, what: string, timeoutMs: number, announce = /serving MCP over Streamable HTTP at (\S+)/): Promise<ServedProcess> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} reported no URL within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = announce.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before serving HTTP; stderr: ${stderr}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
