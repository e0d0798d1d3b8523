/** Where the runtime reports what it did not answer: dropped responses, unknown ids, handler crashes. */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type Logger = (level: LogLevel, message: string) => void;

/** stderr only: stdout belongs to the protocol on a stdio server. Quiet below "warn" unless MCP_DEBUG is set. */
export const stderrLogger: Logger = (level, message) => {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined>; stderr?: { write(text: string): unknown } } }).process;
  if (level === "debug" || (level === "info" && !process?.env?.MCP_DEBUG)) return;
  // Platforms without process.stderr (Workers): the console's error stream.
  if (process?.stderr) process.stderr.write(`[mcp ${level}] ${message}\n`);
  else console.error(`[mcp ${level}] ${message}`);
};

export const silentLogger: Logger = () => {};
