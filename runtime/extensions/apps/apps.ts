// MCP Apps (SEP-1865, the io.modelcontextprotocol/ui extension), server side: a tool names the
// `ui://` resource that renders it in `_meta.ui.resourceUri`, and that resource is HTML served
// with the extension's MIME type. The types mirror @modelcontextprotocol/ext-apps 2.0
// (spec.types.ts); test/runtime/extensions/apps/apps.test.ts holds what they produce to its schema.json.
import type { ReadResourceResult, Resource } from "../../shared/types.js";

/** The MCP Apps extension's identifier, under `capabilities.extensions`. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML: hosts render only resources that carry it. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The flat `_meta` key earlier hosts read instead of `_meta.ui.resourceUri` (ext-apps sets both). */
export const RESOURCE_URI_META_KEY = "ui/resourceUri";

/** Who may call a tool: the model, the app (from this server's own UI), or both (the default). */
export type AppToolVisibility = "model" | "app";

/** `_meta.ui` of a tool. */
export interface AppToolMeta {
  /** The `ui://` resource that renders the tool's input and result. */
  readonly resourceUri?: `ui://${string}`;
  /** Default ["model", "app"]; ["app"] hides the tool from the model. */
  readonly visibility?: readonly AppToolVisibility[];
}

/** `_meta.ui` of a UI resource: what the host's sandbox must allow. */
export interface AppResourceMeta {
  /** Origins the view may reach; each maps to a CSP directive, and nothing is allowed when omitted. */
  readonly csp?: {
    /** connect-src: fetch, XHR, WebSocket. */
    readonly connectDomains?: readonly string[];
    /** img-src, script-src, style-src, font-src, media-src. */
    readonly resourceDomains?: readonly string[];
    /** frame-src. */
    readonly frameDomains?: readonly string[];
    /** base-uri. */
    readonly baseUriDomains?: readonly string[];
  };
  /** Browser features the view asks for (Permission Policy); hosts may refuse them. */
  readonly permissions?: { readonly camera?: object; readonly microphone?: object; readonly geolocation?: object; readonly clipboardWrite?: object };
  /** A dedicated sandbox origin, in the host's own format. */
  readonly domain?: string;
  /** Whether the view wants the host to draw a border and background around it. */
  readonly prefersBorder?: boolean;
}

/** What a client that renders MCP Apps declares under `capabilities.extensions`. */
export interface AppsClientCapability {
  readonly mimeTypes?: readonly string[];
}

/**
 * A tool's `_meta` naming its UI: `{ ui: { resourceUri, visibility } }`, plus the flat
 * `ui/resourceUri` key for hosts that read only that, and any other keys of `meta`.
 *
 *   server.tool({ name: "chart", inputSchema, _meta: appToolMeta({ resourceUri: "ui://charts/view.html" }) }, handler)
 */
export function appToolMeta(ui: AppToolMeta, meta: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  if (ui.resourceUri !== undefined && !ui.resourceUri.startsWith("ui://")) throw new Error(`an MCP App's resourceUri must be a ui:// URI, not ${ui.resourceUri}`);
  const own = { ...(meta.ui as object | undefined), ...ui };
  return ui.resourceUri === undefined ? { ...meta, ui: own } : { ...meta, ui: own, [RESOURCE_URI_META_KEY]: ui.resourceUri };
}

/** A `ui://` resource: listed with the app MIME type and its `_meta.ui`. */
export interface AppResourceDefinition extends Omit<Resource, "uri" | "mimeType" | "_meta"> {
  readonly uri: `ui://${string}`;
  readonly _meta?: { readonly ui?: AppResourceMeta; readonly [key: string]: unknown };
}

/** What the server needs to serve one. */
interface ResourceHost {
  resource(definition: Resource, handler: (uri: string) => ReadResourceResult | Promise<ReadResourceResult>): unknown;
}

/**
 * Serves an MCP App's HTML at a `ui://` URI with the app MIME type. `_meta.ui` (CSP, permissions)
 * goes on the listing and on the content, where hosts read it first. `html` may be a function,
 * called on each read.
 */
export function appResource<S extends ResourceHost>(server: S, definition: AppResourceDefinition, html: string | (() => string | Promise<string>)): S {
  if (!definition.uri.startsWith("ui://")) throw new Error(`an MCP App's resource must have a ui:// URI, not ${definition.uri}`);
  const meta = definition._meta;
  server.resource({ ...definition, mimeType: APP_MIME_TYPE } as Resource, async (uri) => ({
    contents: [{ uri, mimeType: APP_MIME_TYPE, text: typeof html === "string" ? html : await html(), ...(meta === undefined ? {} : { _meta: meta }) }],
  }));
  return server;
}

/**
 * The client's MCP Apps capability when it renders the app MIME type, else undefined: a tool can
 * then answer with text alone. Pass the handler context's `client`.
 */
export function appsCapability(client: { readonly capabilities: Readonly<Record<string, unknown>> }): AppsClientCapability | undefined {
  const extensions = client.capabilities.extensions as Record<string, unknown> | undefined;
  const capability = extensions?.[APPS_EXTENSION] as AppsClientCapability | undefined;
  return capability?.mimeTypes?.includes(APP_MIME_TYPE) ? capability : undefined;
}
