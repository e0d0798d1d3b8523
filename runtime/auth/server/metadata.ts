/** RFC 9728 protected resource metadata, as this server publishes it. */
export interface ResourceMetadataOptions {
  /** The MCP endpoint's URL, e.g. https://mcp.example.com/mcp: the RFC 8707 resource indicator. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it. */
  readonly authorizationServers: readonly string[];
  /** Scopes a client may ask for (RFC 9728 §2 scopes_supported). */
  readonly scopesSupported?: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/**
 * The RFC 9728 protected resource metadata the server publishes: the resource, its authorization
 * servers and scopes.
 */
export interface ResourceMetadata {
  /** The URLs it is served at: the path-inserted form, then the root form (RFC 9728 §3.1). */
  readonly urls: readonly string[];
  /** The one named in WWW-Authenticate (the path-inserted form). */
  readonly url: string;
  readonly document: Readonly<Record<string, unknown>>;
}

/** The metadata document and where it lives, from the options (and bearerAuth's DPoP settings). */
export function resourceMetadata(options: ResourceMetadataOptions, dpop?: { readonly algorithms: readonly string[]; readonly required: boolean }): ResourceMetadata {
  const resource = new URL(options.resource);
  if (resource.hash) throw new TypeError(`the resource ${options.resource} must not have a fragment (RFC 8707 §2)`);
  if (options.authorizationServers.length === 0) throw new TypeError("name at least one authorization server");
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  const inserted = new URL(`/.well-known/oauth-protected-resource${path}`, resource.origin).href;
  const root = new URL("/.well-known/oauth-protected-resource", resource.origin).href;
  const document: Record<string, unknown> = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceName) document.resource_name = options.resourceName;
  if (options.resourceDocumentation) document.resource_documentation = options.resourceDocumentation;
  // RFC 9728 §2: what a DPoP client needs to know before its first request.
  if (dpop) {
    document.dpop_signing_alg_values_supported = [...dpop.algorithms];
    document.dpop_bound_access_tokens_required = dpop.required;
  }
  return { urls: inserted === root ? [root] : [inserted, root], url: inserted, document };
}
