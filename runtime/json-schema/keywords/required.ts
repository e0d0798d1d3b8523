import type { Keyword } from "./keyword.js";
import { missing } from "./properties.js";

/** `required` names that `properties` does not list (the listed ones are checked there). */
export const required: Keyword = {
  reads: {
    required: (value, at, read) =>
      Array.isArray(value) && value.every((v) => typeof v === "string") ? { required: value as string[] } : read.fail(at, "required must be an array of strings"),
  },
  about: "object",
  lower: (s) =>
    (s.required ?? [])
      .filter((name) => !s.properties?.some((p) => p.name === name))
      .map((name) => ({ kind: "property", name, required: missing(s, name), body: [] })),
};
