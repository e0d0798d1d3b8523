import { childPointer } from "../pointer.js";
import { isPlainObject, only, type Fields, type Keyword, type ReadContext } from "./keyword.js";

/**
 * draft-07's `dependencies`, read into the fields of the two 2020-12 keywords it was split into
 * (dependent-required.ts, dependent-schemas.ts, which lower it); unknown in 2020-12.
 */
export const dependencies: Keyword = {
  reads: { dependencies: only("draft-07", (value, at, read) => readDependencies("dependencies", value, at, read)) },
};

/** `dependencies`, `dependentRequired` or `dependentSchemas`: by property name, the names it requires (an array) or the schema the object must match. */
export function readDependencies(keyword: string, value: unknown, at: string, read: ReadContext): Fields {
  if (!isPlainObject(value)) read.fail(at, `${keyword} must be an object`);
  const fields: Fields = {};
  for (const [name, dependency] of Object.entries(value as Record<string, unknown>)) {
    const where = childPointer(at, name);
    if (keyword !== "dependentSchemas" && Array.isArray(dependency)) {
      if (!dependency.every((n) => typeof n === "string")) read.fail(where, "must be an array of property names");
      fields.dependentRequired = [...(fields.dependentRequired ?? []), { name, required: dependency as string[], keyword }];
    } else if (keyword !== "dependentRequired") fields.dependentSchemas = [...(fields.dependentSchemas ?? []), { name, schema: read.child(dependency, where), keyword }];
    else read.fail(where, "must be an array of property names");
  }
  return fields;
}
