import { isObject, own, kindOf, pointerToken, isByte, isUri, isUriTemplate, isDate, isTime, isDateTime, isUuid, isIpv4, isIpv6, isHostname, isEmail, hasMinLength, hasMaxLength, stringLength, isMultipleOf, countOf, everyKey, hasUniqueItems, jsonEqual, everyUnevaluatedProperty, unevaluatedNames, everyUnevaluatedItem, unevaluatedIndexes } from "./validation.js";

/**
 * The validators' support functions by name: what printed checks call (render/support.ts lists
 * their names from it) and what the runtime's compiled checks get, in code and in closures. A
 * table, not a namespace import, so the runtime's bundle makes no namespace object for it.
 * test/runtime/support/functions.test.ts holds it equal to what validation.ts exports.
 */
export const SUPPORT_FUNCTIONS = { isObject, own, kindOf, pointerToken, isByte, isUri, isUriTemplate, isDate, isTime, isDateTime, isUuid, isIpv4, isIpv6, isHostname, isEmail, hasMinLength, hasMaxLength, stringLength, isMultipleOf, countOf, everyKey, hasUniqueItems, jsonEqual, everyUnevaluatedProperty, unevaluatedNames, everyUnevaluatedItem, unevaluatedIndexes } as const;
