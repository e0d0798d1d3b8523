import type { RequestContext } from "../dispatch/context.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Completers } from "./completion.js";
import { UriTemplate, type TemplateValues } from "../shared/uri-template.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "../shared/types.js";

/** What `server.resource` registers: the protocol's `Resource`, as resources/list lists it. */
export type ResourceDefinition = Resource;
/**
 * What `server.resourceTemplate` registers: the protocol's `ResourceTemplate`, as
 * resources/templates/list lists it.
 */
export type ResourceTemplateDefinition = ResourceTemplate;

/** Reads one resource; `uri` is the requested URI. */
export type ResourceHandler = (uri: string, context: RequestContext) => ReadResourceResult | Promise<ReadResourceResult>;

/** Reads a resource that matched a template; `variables` are the template's values in `uri`. */
export type ResourceTemplateHandler<Variables = TemplateValues> = (
  uri: string,
  variables: Variables,
  context: RequestContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/**
 * The resources a template stands for now, which resources/list shows beside the static ones
 * (the SDK's ResourceTemplate `list`). Each URI must match the template. Called for every page
 * of resources/list: keep the order stable, so pages neither repeat nor skip.
 */
export type ResourceLister = (context: RequestContext) => readonly ResourceDefinition[] | Promise<readonly ResourceDefinition[]>;

interface RegisteredTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly template: UriTemplate;
  readonly handler: ResourceTemplateHandler;
  readonly completers?: Completers;
  readonly list?: ResourceLister;
}

/** Static resources by exact URI, and templates matched in registration order. */
export class ResourceRegistry {
  private readonly resources = new Map<string, { definition: ResourceDefinition; handler: ResourceHandler }>();
  private readonly templates = new Map<string, RegisteredTemplate>();

  /** Whether the server offers this kind: from the first registration on, removals notwithstanding (ServerCapabilities, server.ts). */
  offered = false;

  register(definition: ResourceDefinition, handler: ResourceHandler): void {
    if (this.resources.has(definition.uri)) throw new Error(`resource ${definition.uri} is already registered`);
    this.resources.set(definition.uri, { definition, handler });
    this.offered = true;
  }

  registerTemplate(definition: ResourceTemplateDefinition, handler: ResourceTemplateHandler, completers?: Completers, list?: ResourceLister): void {
    if (this.templates.has(definition.uriTemplate)) throw new Error(`resource template ${definition.uriTemplate} is already registered`);
    const template = new UriTemplate(definition.uriTemplate);
    for (const name of Object.keys(completers ?? {}))
      if (!template.variables.includes(name)) throw new Error(`resource template ${definition.uriTemplate} has no variable ${name} to complete`);
    this.templates.set(definition.uriTemplate, { definition, template, handler, completers, list });
    this.offered = true;
  }

  /** Removes a resource (by URI) or a template (by its uriTemplate). */
  remove(uriOrTemplate: string): boolean {
    return this.resources.delete(uriOrTemplate) || this.templates.delete(uriOrTemplate);
  }

  get hasCompleters(): boolean {
    return [...this.templates.values()].some((t) => t.completers !== undefined);
  }

  /** The static resources, then each listing template's instances, in registration order. */
  list(context: RequestContext): ResourceDefinition[] | Promise<ResourceDefinition[]> {
    const resources = [...this.resources.values()].map((r) => r.definition);
    const listing = [...this.templates.values()].filter((t) => t.list !== undefined);
    if (listing.length === 0) return resources;
    return Promise.all(listing.map(async (t) => instances(t, await t.list!(context)))).then((lists) => resources.concat(...lists));
  }

  listTemplates(): ResourceTemplateDefinition[] {
    return [...this.templates.values()].map((t) => t.definition);
  }

  /** The template a URI expands from, and its variable values. */
  matchTemplate(uri: string): { template: RegisteredTemplate; variables: TemplateValues } | undefined {
    for (const template of this.templates.values()) {
      const variables = template.template.match(uri);
      if (variables) return { template, variables };
    }
    return undefined;
  }

  template(uriTemplate: string): RegisteredTemplate | undefined {
    return this.templates.get(uriTemplate);
  }

  /**
   * An exact URI first, then the templates. Not found is -32002 in the session era and -32602
   * in the stateless era (where -32000..-32019 are off limits).
   */
  async read(uri: string, context: RequestContext): Promise<ReadResourceResult> {
    const exact = this.resources.get(uri);
    if (exact) return exact.handler(uri, context);
    const matched = this.matchTemplate(uri);
    if (matched) return matched.template.handler(uri, matched.variables, context);
    throw resourceNotFound(uri, context);
  }
}

/** A template's listed resources, each of which must be one of its URIs: else the server's bug, -32603 naming both. */
function instances(template: RegisteredTemplate, listed: readonly ResourceDefinition[]): readonly ResourceDefinition[] {
  if (!Array.isArray(listed))
    throw new RpcError(ErrorCode.InternalError, `the list of resource template ${template.definition.uriTemplate} returned ${typeof listed}, not an array of resources`);
  for (const resource of listed)
    if (typeof resource?.uri !== "string" || !template.template.match(resource.uri))
      throw new RpcError(ErrorCode.InternalError, `the list of resource template ${template.definition.uriTemplate} returned ${JSON.stringify(resource?.uri)}, which the template does not match`);
  return listed;
}

/** The era-correct error for a URI the server does not have; handlers may throw it too. */
export function resourceNotFound(uri: string, context: Pick<RequestContext, "era">): RpcError {
  const code = context.era === "stateless" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
  return new RpcError(code, `Resource not found: ${uri}`, { uri });
}
