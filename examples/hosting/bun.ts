// Bun: the default export is what Bun.serve takes. The README shows this file verbatim.
import { fetchHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

// `bun bun.ts` serves on $PORT (else 3000); idleTimeout 0: Bun closes a stream idle for 10 s (SSE too).
export default { hostname: "127.0.0.1", idleTimeout: 0, fetch: fetchHandler(createHelloServer()) };
