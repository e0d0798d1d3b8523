import type { Keyword } from "./keyword.js";
import { only } from "./keyword.js";

/**
 * `$dynamicRef` (2020-12 core section 8.2.3.2): the loader of tool schemas resolves it in the
 * dynamic scope that reaches it, compiling the referring definition once per such scope; here,
 * like `$ref`, the resolved definition's own validator.
 */
export const dynamicRef: Keyword = {
  reads: { $dynamicRef: only("2020-12", (value, at, read) => ({ dynamicRef: read.dynamicRef(value, at) })) },
  lower: (s) => (s.dynamicRef !== undefined ? [{ kind: "call", definition: s.dynamicRef }] : []),
};
