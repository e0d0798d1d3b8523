/**
 * The protocol types handlers are written against: the latest session-era revision's (the
 * registry's LatestSessionTypes), the richest. The runtime adapts each result to the revision of
 * the request (resultType, caching hints and serverInfo for 2026-07-28) and checks it against
 * that revision's schema.
 */
import type { LatestSessionTypes as T } from "../../generated/registry.js";

export type Annotations = T.Annotations;
export type AudioContent = T.AudioContent;
export type BlobResourceContents = T.BlobResourceContents;
export type CallToolResult = T.CallToolResult;
export type ContentBlock = T.ContentBlock;
export type EmbeddedResource = T.EmbeddedResource;
export type GetPromptResult = T.GetPromptResult;
export type Icon = T.Icon;
export type ImageContent = T.ImageContent;
export type Implementation = T.Implementation;
export type Prompt = T.Prompt;
export type PromptArgument = T.PromptArgument;
export type PromptMessage = T.PromptMessage;
export type ReadResourceResult = T.ReadResourceResult;
export type Resource = T.Resource;
export type ResourceLink = T.ResourceLink;
export type ResourceTemplate = T.ResourceTemplate;
export type ServerCapabilities = T.ServerCapabilities;
export type TextContent = T.TextContent;
export type TextResourceContents = T.TextResourceContents;
export type Tool = T.Tool;
export type ToolAnnotations = T.ToolAnnotations;
