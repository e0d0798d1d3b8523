/**
 * JSON read from a user's file: a syntax error names the file, line and column (1-based, as
 * editors count), not only JSON.parse's character offset.
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? (/Unexpected end of JSON input/.test(message) ? text.length : NaN));
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "").replace(/^JSON\.parse: /, "");
    if (Number.isNaN(offset)) throw new Error(`${file} is not valid JSON: ${reason}`);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    throw new Error(`${file}:${line}:${column}: not valid JSON: ${reason}`);
  }
}
