/** The resource-server side of MCP authorization: bearerAuth for an HTTP endpoint's `auth` option. */
export { bearerAuth, type BearerAuthOptions, type ResourceServerAuth, type ScopeRequirements, type TokenVerifier } from "./bearer.js";
export { jwtVerifier, type JwtVerifierOptions } from "./jwt.js";
export { introspectionVerifier, type IntrospectionVerifierOptions } from "./introspection.js";
export { resourceMetadata, type ResourceMetadata, type ResourceMetadataOptions } from "./metadata.js";
export { InvalidTokenError, VerificationUnavailableError } from "./errors.js";
export { DpopProofError, type DpopOptions } from "./dpop.js";
