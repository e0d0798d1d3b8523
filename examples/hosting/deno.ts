// Deno: the default export is what `deno serve` takes. The README shows this file verbatim.
import { fetchHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

// deno serve --host 127.0.0.1 --port 3000 --allow-env --allow-read --sloppy-imports deno.ts
// (--sloppy-imports: "./server.js" names server.ts, as TypeScript's imports do)
export default { fetch: fetchHandler(createHelloServer()) };
