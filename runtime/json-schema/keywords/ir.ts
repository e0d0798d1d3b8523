import type { JsonPrimitive } from "../model/schema.js";

/**
 * The check IR between the schema model and the two validator renderers (render-is.ts,
 * render-check.ts). Each keyword module (keywords/) lowers its keyword to these nodes; the
 * renderers decide only how to print them: `isX` returns false at the first failed node,
 * `checkX` pushes one issue per failed node. A node that can fail carries its `schemaPath`
 * (the JSON Pointer of the keyword in the source document), its keyword and its message.
 */

/** An expression over the value being checked (`subject`), printed by expr.ts. */
export type Expr =
  | { readonly kind: "subject" }
  | { readonly kind: "literal"; readonly value: JsonPrimitive }
  /** A module-level constant of the emitted file (a JSON value a `const` or `enum` compares with). */
  | { readonly kind: "name"; readonly name: string }
  /** A property read; names that Object.prototype has are read as own properties only. */
  | { readonly kind: "member"; readonly object: Expr; readonly name: string }
  | { readonly kind: "call"; readonly callee: string; readonly args: readonly Expr[] }
  | { readonly kind: "typeof"; readonly operand: Expr }
  | { readonly kind: "compare"; readonly op: Comparison; readonly left: Expr; readonly right: Expr }
  | { readonly kind: "and" | "or"; readonly operands: readonly Expr[] }
  | { readonly kind: "not"; readonly operand: Expr }
  /** The subject passes a sub-schema: inlined, or a call of the helper it is hoisted into (the renderer decides). */
  | { readonly kind: "matches"; readonly branch: Branch }
  /** A sub-schema as a function value (`(item) => ...` or its hoisted helper), for a support function that applies it to parts of the subject. */
  | { readonly kind: "test"; readonly branch: Branch }
  /** What `test` becomes once expanded: an arrow function over its own subject. */
  | { readonly kind: "arrow"; readonly body: Expr }
  /** How many of the operands hold. */
  | { readonly kind: "count"; readonly operands: readonly Expr[] }
  /** String concatenation, for messages that quote the value's kind. */
  | { readonly kind: "concat"; readonly parts: readonly Expr[] };

export type Comparison = "===" | "!==" | "<" | "<=" | ">" | ">=";

/** Where a failure is reported: the keyword, its pointer in the schema document, and why. */
export interface Failure {
  readonly keyword: string;
  readonly schemaPath: string;
  readonly message: Expr;
}

/** A test the subject must pass; `then` runs only on a subject that passed (the keywords a type gate guards). */
export interface Assert extends Failure {
  readonly kind: "assert";
  readonly valid: Expr;
  readonly then: readonly Node[];
  /** The first node of `then` fails whenever this one does (a `type` beside a `const` of that type); a boolean check may skip it. */
  readonly implied?: boolean;
  /** Branches whose issues the issue check reports before this one's, when it fails (oneOf: why no branch, or which, passed). */
  readonly explain?: readonly Branch[];
}

/** A `$ref`: the referenced definition's own validator. */
export interface Call {
  readonly kind: "call";
  readonly definition: string;
}

/** Keywords about one instance type run only on values of that type. */
export interface Guard {
  readonly kind: "guard";
  readonly type: GuardType;
  readonly body: readonly Node[];
}

/** A named property of an object subject: `required` when it must be present; `body` checks it when it is. */
export interface PropertyNode {
  readonly kind: "property";
  readonly name: string;
  readonly required?: Failure;
  readonly body: readonly Node[];
}

/**
 * Every property of an object subject not named in `known`: refused (`refuse`) or checked by
 * `body`; with `matching` (a module-level RegExp constant: patternProperties), only the properties
 * whose name it matches.
 */
export interface EntriesNode {
  readonly kind: "entries";
  readonly known: readonly string[];
  readonly matching?: string;
  /** Module-level RegExp constants (patternProperties): a name one of them matches is known too. */
  readonly patterns?: readonly string[];
  /** Names known only when a condition on the subject holds (unevaluatedProperties beside anyOf, if, dependentSchemas...). */
  readonly knownWhen?: readonly KnownWhen[];
  readonly refuse?: Failure;
  readonly body: readonly Node[];
}

/**
 * What one evaluation of unevaluatedProperties names, under its condition (its sub-schema passed):
 * `all` names, or `known` and those `patterns` match. A renderer tests the names first, the
 * condition only for a name it covers, and at most once per subject.
 */
export interface KnownWhen {
  readonly when: Expr;
  readonly known: readonly string[];
  readonly patterns: readonly string[];
  readonly all: boolean;
}

/** Every element of an array subject, from index `from` (after the positional ones) or the first. */
export interface ItemsNode {
  readonly kind: "items";
  readonly from?: number;
  readonly body: readonly Node[];
}

/** The element at `index` of an array subject, when it has one (prefixItems). */
export interface ElementNode {
  readonly kind: "element";
  readonly index: number;
  readonly body: readonly Node[];
}

/**
 * Each index `keys` yields of an array subject is checked by `body`, or refused (`refuse`): the
 * items no other keyword evaluated (unevaluatedItems under conditions); an index's path token
 * needs no escape. `valid` is the same test as one boolean, for the boolean check.
 */
export interface EachNode {
  readonly kind: "each";
  readonly valid: Expr;
  readonly keys: Expr;
  readonly refuse?: Failure;
  readonly body: readonly Node[];
}

/** `body` applies to the subject itself when `condition` holds (a present property's dependentSchemas; if/then/else). */
export interface WhenNode {
  readonly kind: "when";
  readonly condition: Expr;
  readonly body: readonly Node[];
}

/** One alternative of a union, hoisted into a helper named after its pointer when it cannot be inlined. */
export interface Branch {
  readonly pointer: string;
  readonly body: readonly Node[];
}

/** At least one branch must pass. On failure, `discriminator` names the branch the value evidently meant. */
export interface AnyOfNode extends Failure {
  readonly kind: "anyOf";
  readonly branches: readonly Branch[];
  readonly discriminator?: { readonly property: string; readonly cases: readonly { readonly value: JsonPrimitive; readonly branch: Branch }[] };
}

export type Node = Assert | Call | Guard | PropertyNode | EntriesNode | ItemsNode | ElementNode | WhenNode | EachNode | AnyOfNode;

export type GuardType = "object" | "array" | "number" | "string";
