// workerd: the conformance fixture through fetchHandler, as a Worker module.
import handler from "./fixture.ts";

export default { fetch: (request: Request) => handler(request) };
