// Node: the hosting example's server on our node:http endpoint (the bench's baseline).
import { http } from "../../../runtime/http.ts";
import { createHelloServer } from "../../../examples/hosting/server.ts";

const endpoint = http({ port: Number(process.env.PORT ?? 0), eventStore: false });
await createHelloServer().listen(endpoint);
console.error(`listening on ${endpoint.url}`);
