// Compile-time check (test/interop/apps.test.ts runs tsc on it): what @modelcontextprotocol/ext-apps
// declares for a tool's and a UI resource's _meta.ui, and for the client's capability, is accepted
// by our helpers' types, and ours carry the same constants.
import type { McpUiClientCapabilities, McpUiResourceMeta, McpUiToolMeta } from "@modelcontextprotocol/ext-apps";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { APP_MIME_TYPE, APPS_EXTENSION, RESOURCE_URI_META_KEY as OUR_META_KEY, type AppResourceMeta, type AppsClientCapability, type AppToolMeta } from "../../runtime/extensions/apps/apps.js";

/** Compiles only when B is assignable to A. */
type Accepts<A, B extends A> = [A, B];

// ui:// is ours alone: ext-apps types resourceUri as any string. csp and permissions are `never` on a tool.
type TheirToolMeta = Omit<McpUiToolMeta, "resourceUri" | "csp" | "permissions"> & { resourceUri?: `ui://${string}` };

export type Checks = [
  Accepts<AppToolMeta, TheirToolMeta>,
  Accepts<AppResourceMeta, McpUiResourceMeta>,
  Accepts<AppsClientCapability, McpUiClientCapabilities>,
  Accepts<typeof RESOURCE_MIME_TYPE, typeof APP_MIME_TYPE>,
  Accepts<typeof EXTENSION_ID, typeof APPS_EXTENSION>,
  Accepts<typeof RESOURCE_URI_META_KEY, typeof OUR_META_KEY>,
];
