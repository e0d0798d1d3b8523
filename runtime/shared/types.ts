/**
 * The protocol types handlers are written against: the latest session-era revision's (the
 * registry's LatestSessionTypes), the richest. The runtime adapts each result to the revision of
 * the request (resultType, caching hints and serverInfo for 2026-07-28) and checks it against
 * that revision's schema.
 */
import type { LatestSessionTypes as T } from "../../generated/registry.js";

/** The protocol's `Annotations`, as the latest session-era revision defines it. */
export type Annotations = T.Annotations;
/** The protocol's `AudioContent`, as the latest session-era revision defines it. */
export type AudioContent = T.AudioContent;
/** The protocol's `BlobResourceContents`, as the latest session-era revision defines it. */
export type BlobResourceContents = T.BlobResourceContents;
/** The protocol's `CallToolResult`, as the latest session-era revision defines it. */
export type CallToolResult = T.CallToolResult;
/** The protocol's `ContentBlock`, as the latest session-era revision defines it. */
export type ContentBlock = T.ContentBlock;
/** The protocol's `EmbeddedResource`, as the latest session-era revision defines it. */
export type EmbeddedResource = T.EmbeddedResource;
/** The protocol's `GetPromptResult`, as the latest session-era revision defines it. */
export type GetPromptResult = T.GetPromptResult;
/** The protocol's `Icon`, as the latest session-era revision defines it. */
export type Icon = T.Icon;
/** The protocol's `ImageContent`, as the latest session-era revision defines it. */
export type ImageContent = T.ImageContent;
/** The protocol's `Implementation`, as the latest session-era revision defines it. */
export type Implementation = T.Implementation;
/** The protocol's `Prompt`, as the latest session-era revision defines it. */
export type Prompt = T.Prompt;
/** The protocol's `PromptArgument`, as the latest session-era revision defines it. */
export type PromptArgument = T.PromptArgument;
/** The protocol's `PromptMessage`, as the latest session-era revision defines it. */
export type PromptMessage = T.PromptMessage;
/** The protocol's `ReadResourceResult`, as the latest session-era revision defines it. */
export type ReadResourceResult = T.ReadResourceResult;
/** The protocol's `Resource`, as the latest session-era revision defines it. */
export type Resource = T.Resource;
/** The protocol's `ResourceLink`, as the latest session-era revision defines it. */
export type ResourceLink = T.ResourceLink;
/** The protocol's `ResourceTemplate`, as the latest session-era revision defines it. */
export type ResourceTemplate = T.ResourceTemplate;
/** The protocol's `ServerCapabilities`, as the latest session-era revision defines it. */
export type ServerCapabilities = T.ServerCapabilities;
/** The protocol's `TextContent`, as the latest session-era revision defines it. */
export type TextContent = T.TextContent;
/** The protocol's `TextResourceContents`, as the latest session-era revision defines it. */
export type TextResourceContents = T.TextResourceContents;
/** The protocol's `Tool`, as the latest session-era revision defines it. */
export type Tool = T.Tool;
/** The protocol's `ToolAnnotations`, as the latest session-era revision defines it. */
export type ToolAnnotations = T.ToolAnnotations;
