/** AuthInfo lives with the transports (every layer names it); re-exported here for auth users. */
export type { AuthInfo, EndpointAuth } from "../transports/auth-info.js";
