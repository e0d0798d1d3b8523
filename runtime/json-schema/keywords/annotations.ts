import { ignored, type Keyword } from "./keyword.js";

/**
 * Keywords with no effect on validation or types, accepted and ignored; `description` is kept
 * (as the caller keeps it: the generator repairs the MCP schemas' doc links). The content keywords are annotations in both dialects (2020-12
 * validation section 8; draft-07 section 8 lets validators skip them).
 */
export const ANNOTATIONS: readonly string[] = ["description", "title", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema"];

export const annotations: Keyword = {
  reads: {
    ...Object.fromEntries(ANNOTATIONS.map((keyword) => [keyword, ignored])),
    description: (value, _at, read) => (typeof value === "string" ? { description: read.description(value) } : {}),
  },
};
