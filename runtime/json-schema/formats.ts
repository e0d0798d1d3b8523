import { FORMAT_CHECKS } from "./keywords/format.js";
import { SUPPORT_FUNCTIONS } from "../support/functions.js";

/**
 * Every format a validator asserts on request, by name, as a function: the support function
 * keywords/format.ts names for it (runtime/support/validation.ts), for the opt-in ajv engine, so
 * that ajv checks formats by the rules the generated and compiled checks use.
 */
export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = Object.fromEntries(
  Object.entries(FORMAT_CHECKS).map(([format, name]) => [format, SUPPORT_FUNCTIONS[name as keyof typeof SUPPORT_FUNCTIONS] as (value: string) => boolean]),
);
