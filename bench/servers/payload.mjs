// The payload of the `blob` tool of both bench servers: `bytes` characters of base64 text,
// made once per size, the same bytes on both sides (a fixed seed, no randomness to differ).
const cache = new Map();

/** @param {number} bytes */
export function payload(bytes) {
  let text = cache.get(bytes);
  if (text === undefined) {
    const unit = Buffer.alloc(3 * 1024);
    for (let i = 0; i < unit.length; i++) unit[i] = (i * 2654435761) >>> 24;
    const block = unit.toString("base64"); // 4 KiB
    text = block.repeat(Math.ceil(bytes / block.length)).slice(0, bytes);
    cache.clear();
    cache.set(bytes, text);
  }
  return text;
}
