/** Where the runtime reports what it did not answer: dropped responses, unknown ids, handler crashes. */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type Logger = (level: LogLevel, message: string) => void;

/** stderr only: stdout belongs to the protocol on a stdio server. Quiet below "warn" unless MCP_DEBUG is set. */
export const stderrLogger: Logger = (level, message) => {
  if (level === "debug" || (level === "info" && !process.env.MCP_DEBUG)) return;
  process.stderr.write(`[mcp ${level}] ${message}\n`);
};

export const silentLogger: Logger = () => {};
