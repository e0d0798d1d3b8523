/** Where the runtime reports what it did not answer: dropped responses, unknown ids, handler crashes. */
export type LogLevel = "debug" | "info" | "warn" | "error";
/** Where the runtime's own log lines go (stderr by default). */
export type Logger = (level: LogLevel, message: string) => void;

type ProcessLike = { env?: Record<string, string | undefined>; stderr?: { write(text: string): unknown } };
const processOf = () => (globalThis as { process?: ProcessLike }).process;

/** Whether MCP_DEBUG is set (platforms without process.env: never). */
export function debugEnabled(): boolean {
  return Boolean(processOf()?.env?.MCP_DEBUG);
}

/** stderr only, every level: stdout belongs to the protocol on a stdio server. */
export const stderrWriter: Logger = (level, message) => {
  const process = processOf();
  // Platforms without process.stderr (Workers): the console's error stream.
  if (process?.stderr) process.stderr.write(`[mcp ${level}] ${message}\n`);
  else console.error(`[mcp ${level}] ${message}`);
};

/** stderr only. Quiet below "warn" unless MCP_DEBUG is set, then quiet below "info". */
export const stderrLogger: Logger = (level, message) => {
  if (level === "debug" || (level === "info" && !debugEnabled())) return;
  stderrWriter(level, message);
};

export const silentLogger: Logger = () => {};
