/**
 * The protocol types handlers are written against: 2025-11-25's, the richest session-era
 * revision. The runtime adapts each result to the revision of the request (resultType, caching
 * hints and serverInfo for 2026-07-28) and checks it against that revision's schema.
 */
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceLink,
  ResourceTemplate,
  ServerCapabilities,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from "../../generated/2025-11-25/types.js";
