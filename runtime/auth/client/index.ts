/** The client side of MCP authorization: providers for HttpClientTransport's `authProvider`. */
export { AuthorizationCodeProvider, type AuthorizationCodeOptions } from "./authorization-code.js";
export { ClientCredentialsProvider, type ClientCredentialsOptions } from "./client-credentials.js";
export { OAuthProvider, type AuthProvider, type ProviderOptions } from "./provider.js";
export { headlessInteraction, type HeadlessOptions, type UserInteraction } from "./interaction.js";
export { MemoryAuthStore, type AuthStore, type StoredClient, type StoredTokens } from "./store.js";
export { OAuthFlowError } from "./errors.js";
export { bearerChallenge, type BearerChallenge } from "./challenge.js";
