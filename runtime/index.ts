/**
 * mcp-codegen's runtime: serve and call MCP, every generated revision, both eras, from the
 * same handler code.
 */
export {
  createServer,
  McpServer,
  type MethodHandler,
  type Endpoint,
  type ExtensionTypes,
  type PromptOptions,
  type ResourceTemplateOptions,
  type ServerOptions,
} from "./server/server.js";
export type { Completer, Completers } from "./server/completion.js";
export type { ContentOptional, ToolDefinition, ToolHandler, ToolResult, ToolSchema } from "./server/tools.js";
export type { InferInput, InferOutput, StandardIssue, StandardJsonSchemaConverter, StandardResult, StandardSchemaProps, StandardSchemaV1 } from "./shared/standard-schema.js";
export type { CompiledSchema, CompiledToolValidators } from "./shared/json-schema.js";
export type { FromSchema, ObjectSchema, ToolArguments } from "./server/schema-types.js";
export type { ResourceDefinition, ResourceHandler, ResourceLister, ResourceTemplateDefinition, ResourceTemplateHandler } from "./server/resources.js";
export { resourceNotFound } from "./server/resources.js";
export type { PromptArguments, PromptDefinition, PromptHandler } from "./server/prompts.js";
export { UriTemplate, type TemplateValues, type TemplateVariables } from "./shared/uri-template.js";
export type * from "./shared/types.js";

export {
  McpClient,
  type CallOptions,
  type ClientHandlers,
  type ClientOptions,
  type ExtensionParams,
  type ExtensionResult,
  type ListOptions,
  type NotificationListener,
  type Page,
  type Subscription,
  type ValidationMode,
} from "./client/client.js";
export type { CacheOptions, CacheStore, CachedResult } from "./client/cache.js";
export { SkillsClient, SkillVerificationError, type SkillFile, type SkillVerificationReason } from "./extensions/skills/client.js";
export type { SkillFiles, SkillOptions } from "./extensions/skills/server.js";
export {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  RESOURCE_URI_META_KEY,
  appResource,
  appsCapability,
  appToolMeta,
  type AppResourceDefinition,
  type AppResourceMeta,
  type AppsClientCapability,
  type AppToolMeta,
  type AppToolVisibility,
} from "./extensions/apps/apps.js";
export { DIRECTORY_MIME_TYPE, SKILL_LIMITS, SKILLS_EXTENSION, type SkillEntry, type SkillResourceEntry } from "./extensions/skills/protocol.js";
export { FrontmatterError, parseFrontmatter, type Frontmatter, type YamlValue } from "./extensions/skills/frontmatter.js";

export {
  LOG_LEVELS,
  type AskOptions,
  type AskResult,
  type ClientIdentity,
  type Handler,
  type LogLevelName,
  type NotifyArgs,
  type PinnedTypes,
  type RequestContext,
  type TaskContext,
  type TaskOptions,
} from "./dispatch/context.js";
export type { TasksOptions } from "./extensions/tasks/task-manager.js";
export { TASKS_EXTENSION } from "./extensions/tasks/protocol.js";
export type { FollowOptions } from "./extensions/tasks/client.js";
export type { InputRequiredOptions } from "./session/input-required.js";
export { ErrorCode, RpcError } from "./jsonrpc/errors.js";
export type { RequestOptions } from "./jsonrpc/peer.js";
export { ServerSession } from "./session/server-session.js";
export { ALL_REVISIONS, LATEST_REVISION, type DefaultRevision, type PinnedRevision, type Revision, type RevisionRef } from "./session/revisions.js";
export type { CapabilityGate, Era, ExtensionModule, MethodDescriptor, RevisionFeatures, RevisionModule, RevisionTypes, ValidationIssue, Validator } from "./contract.js";
export type { DefaultTypes, ServedContext, ServedMethod, ServedNotifyArgs, ServedParams, ServedResult, ServedTypes } from "./server/served.js";
export { clientExtension, type MethodSchemas } from "./server/extensions.js";

export type { Transport, Receiver, SendOptions, FrameProblem, MessageContext, TransportFacts } from "./jsonrpc/transport.js";
export type { ClosedConnection, Exchange, Hook, Next } from "./shared/hooks.js";
export { stdio, StdioTransport, type StdioTransportOptions } from "./transports/stdio.js";
export { spawnStdio, ChildStdioTransport, type SpawnStdioOptions } from "./transports/stdio-child.js";
export { createMemoryPair, MemoryTransport } from "./transports/memory.js";
export type { Logger, LogLevel } from "./util/logger.js";
export type { Secret } from "./util/sealed.js";
export { MemoryNonceStore, type NonceStore } from "./stores/nonce-store.js";
export { MemorySessionStore, type SessionRecord, type SessionStore } from "./stores/session-store.js";
export { MemoryTaskStore, type TaskInputRequest, type TaskRecord, type TaskStatus, type TaskStore } from "./stores/task-store.js";
export { CHANNELS, MemoryEventBus, type EventBus } from "./stores/event-bus.js";

// Streamable HTTP is its own entry point, runtime/http.ts (mcp-codegen/runtime/http): stdio servers never load node:http.
