// The conformance fixture over stdio, on Bun or Deno (stdio is the runtime's Node-compatible adapter).
import { createConformanceServer } from "../../../examples/conformance-server/server.ts";
import { stdio } from "../../../runtime/index.ts";

await createConformanceServer({ closeStream: () => false }).listen(stdio());
