import type { Ajv, ErrorObject } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { CompileOptions } from "../json-schema/compile.js";
import { canonicalJson } from "../util/canonical-json.js";
import { newAjv, type AjvClasses } from "./ajv.js";
import type { Dialect } from "../json-schema/dialect.js";
import type { Logger } from "../util/logger.js";
import type { ValidationIssue } from "../support/validation.js";
import { isEdge } from "../util/platform.js";


/** The JSON Schemas of an extension method's params and result (draft-07 or 2020-12, by `$schema`). */
export interface MethodSchemas {
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  /** Stateless era: the result is a CacheableResult (SEP-2549), so ttlMs and cacheScope are filled in as on resources/list. */
  readonly cacheable?: boolean;
}

/** A compiled tool schema: undefined when `value` conforms, else what is wrong ("/city: must be string; ..."). */
export type SchemaValidator = (value: unknown) => string | undefined;

/** A schema compiled by {@link SchemaCompiler}: its validator, and the issues as data for a caller that reports them so (`error.data.issues`). */
export interface CompiledCheck {
  readonly validate: SchemaValidator;
  /** Each issue at a JSON Pointer into `value`; empty when it conforms. */
  issues(value: unknown): readonly ValidationIssue[];
}

/** One schema compiled at build time by `mcp-codegen generate --tools`, with the schema it was compiled from. */
export interface CompiledSchema {
  readonly schema: Readonly<Record<string, unknown>>;
  /** Whether `value` is valid. */
  is(value: unknown): boolean;
  /** The problems with `value`, each at a JSON Pointer `path`; empty when it is valid. */
  check(value: unknown): readonly { readonly path: string; readonly message: string }[];
  /** `check`'s issues joined as describeIssues joins them, found and joined in one pass; where absent (a file an earlier version generated), `check` then describeIssues. */
  describe?(value: unknown): string;
}

/** `toolValidators` of a file written by `generate --tools`: by tool name. */
export type CompiledToolValidators = Readonly<Record<string, { readonly input: CompiledSchema; readonly output?: CompiledSchema }>>;

/** The compiled validator, if it was compiled from exactly `schema` (same JSON, key order aside). */
export function precompiled(compiled: CompiledSchema | undefined, schema: unknown): SchemaValidator | undefined {
  if (compiled === undefined || canonicalJson(compiled.schema) !== canonicalJson(schema)) return undefined;
  if (compiled.describe) return (value) => (compiled.is(value) ? undefined : compiled.describe!(value));
  return (value) => (compiled.is(value) ? undefined : describeIssues(compiled.check(value)));
}

/**
 * "/location: must be string; (root): must have required property 'city'": the compiler's
 * joinIssue (json-schema/issue.ts), written again here so that the main entry loads nothing of
 * the compiler (test/packages/install.test.ts); code.test.ts and closures.test.ts hold the two equal.
 */
export function describeIssues(issues: readonly { readonly path: string; readonly message: string }[]): string {
  let out = "";
  for (let k = 0; k < issues.length; k++) out += (k === 0 ? "" : "; ") + (issues[k]!.path === "" ? "(root)" : issues[k]!.path) + ": " + issues[k]!.message;
  return out;
}

/**
 * How tool schemas (known only at run time) are checked:
 * - "interpreter" compiles each schema to closures with our own compiler (runtime/json-schema/:
 *   every keyword of draft-07 and 2020-12, no code generation, so it runs on Cloudflare Workers
 *   and Vercel Edge too);
 * - "ajv" compiles each schema to JavaScript with ajv (needs `new Function`; ajv gets some of the
 *   JSON Schema Test Suite's $dynamicRef and unevaluated* groups wrong);
 * - "auto" (default): our compiler, in code mode where code generation is allowed (its checks
 *   emitted as JavaScript, compiled with `new Function`) and pays (not for a schema that is one
 *   test of the value, one JSON type other than integer or an enum of primitives, as fast in
 *   closures), in closures elsewhere.
 */
export type SchemaEngine = "auto" | "ajv" | "interpreter";

/** What the interpreter reads besides the schema: the remote documents `$ref` may name (never fetched), and the format policy. */
export interface SchemaOptions {
  readonly remotes?: CompileOptions["remotes"];
  readonly formats?: CompileOptions["formats"];
}

type Engine = (schema: Record<string, unknown>) => CompiledCheck;

/**
 * Compiles the JSON Schemas users give their tools, once each. The dialect follows `$schema`:
 * draft-07 when it says so, 2020-12 otherwise (MCP's default since 2025-11-25). The engine is
 * loaded on first use (`load`; docs/decisions.md, "Start-up").
 *
 * ajv: schemas are not validated against the dialect's meta-schema (`validateSchema: false`):
 * ajv still refuses, as it compiles, every keyword whose value has the wrong type or shape, and
 * compiling the meta-schema first would add ~30 ms to every server's start. Formats as below.
 *
 * interpreter: the JSON Schema Test Suite's verdicts (test/codegen/tool-validators/json-schema-suite.test.ts)
 * and ajv's on tool schemas (test/runtime/shared/json-schema.test.ts); every `format` is an
 * annotation unless `formats: "assert"`.
 */
export class SchemaCompiler {
  private engine: Engine | undefined;
  private loading: Promise<Engine> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly choice: SchemaEngine = "auto",
    private readonly options: SchemaOptions = {},
  ) {}

  /** Which engine this compiler uses. */
  get kind(): "ajv" | "interpreter" {
    return this.choice === "auto" ? "interpreter" : this.choice;
  }

  /** True when schemas may be compiled to JavaScript: ajv, or "auto" where the platform allows `new Function` (our compiler then generates code where it pays). */
  get generatesCode(): boolean {
    return this.choice === "ajv" || (this.choice === "auto" && !isEdge());
  }

  /**
   * The engine, once loaded; `compile` works only after it. Either engine is imported on first use
   * (a promise once, then never again): our compiler is a chunk of its own in the bundle, and ajv
   * an optional peer, so that a server parses neither before it answers initialize.
   */
  load(): Engine | Promise<Engine> {
    if (this.engine) return this.engine;
    // Imported once per process: a compiler made after that (a second server, a test) loads at once.
    const loaded = this.kind === "interpreter" ? IMPORTED.interpreter : IMPORTED.ajv;
    if (loaded) return (this.engine = this.kind === "interpreter" ? interpreterEngine(IMPORTED.interpreter!, this.options, this.generatesCode) : ajvEngine(IMPORTED.ajv!, this.logger, this.options));
    this.loading ??= (this.kind === "interpreter" ? importInterpreter() : importAjv()).then(() => this.load());
    return this.loading;
  }

  /** Compiles `schema`; throws when it is not a usable schema. Call `load()` first. */
  compile(schema: Record<string, unknown>): SchemaValidator {
    return this.compileCheck(schema).validate;
  }

  /** As `compile`, with the issues as data too. */
  compileCheck(schema: Record<string, unknown>): CompiledCheck {
    if (!this.engine) throw new Error("SchemaCompiler.compile before load()");
    return this.engine(schema);
  }
}

// ajv is CommonJS: its classes arrive as named exports or on `default`, depending on the loader.
type Module<K extends string, T> = Partial<Record<K, T>> & { default?: Partial<Record<K, T>> & T };
type AjvModule07 = Module<"Ajv", new (options: object) => Ajv>;
type AjvModule2020 = Module<"Ajv2020", new (options: object) => Ajv2020>;

/** The engines' modules, once imported. */
const IMPORTED: { interpreter?: typeof import("../json-schema/compile.js"); ajv?: AjvModules } = {};

interface AjvModules {
  readonly draft07: AjvModule07;
  readonly draft2020: AjvModule2020;
  readonly formats: Readonly<Record<string, (value: string) => boolean>>;
  readonly dialectOf: (schema: Record<string, unknown>) => Dialect;
}

async function importAjv(): Promise<void> {
  let modules: [AjvModule07, AjvModule2020];
  try {
    modules = [(await import("ajv")) as unknown as AjvModule07, (await import("ajv/dist/2020.js")) as unknown as AjvModule2020];
  } catch (error) {
    throw new Error(`toolSchemaEngine "ajv" needs the ajv package, an optional peer of @mcp-codegen/runtime: npm install ajv (${(error as Error).message.split("\n")[0]})`);
  }
  const [{ FORMATS }, { dialectOf }] = await Promise.all([import("../json-schema/formats.js"), import("../json-schema/dialect.js")]);
  IMPORTED.ajv = { draft07: modules[0], draft2020: modules[1], formats: FORMATS, dialectOf };
}

function ajvEngine({ draft07, draft2020, formats: all, dialectOf }: AjvModules, logger: Logger, options: SchemaOptions): Engine {
  // Formats by the same rules as our compiler's, and only on request (docs/validators.md, "Formats").
  const formats = options.formats === "assert" ? all : {};
  const classes: AjvClasses = { Ajv: draft07.Ajv ?? draft07.default?.Ajv ?? draft07.default!, Ajv2020: draft2020.Ajv2020 ?? draft2020.default?.Ajv2020 ?? draft2020.default! };
  const ajvs: Partial<Record<Dialect, Ajv>> = {};
  return (schema) => {
    const dialect = dialectOf(schema);
    const validate = (ajvs[dialect] ??= newAjv(classes, dialect, { logger, formats })).compile(schema);
    return {
      validate: (value) => (validate(value) ? undefined : describeErrors(validate.errors)),
      issues: (value) =>
        validate(value) ? [] : (validate.errors ?? []).map((error) => ({ path: error.instancePath, schemaPath: error.schemaPath, keyword: error.keyword, message: describeError(error) })),
    };
  };
}

async function importInterpreter(): Promise<void> {
  IMPORTED.interpreter = await import("../json-schema/compile.js");
}

/** Our own compiler (runtime/json-schema/), no dependency: in code mode where it pays, or to closures with no code generation. */
function interpreterEngine({ compileSchema }: typeof import("../json-schema/compile.js"), options: SchemaOptions, code: boolean): Engine {
  return (schema) => {
    // The dialect by `$schema`: draft-07 when it says so, 2020-12 otherwise (the compiler's default).
    const validator = compileSchema(schema, { ...options, mode: code ? "auto" : "closures" });
    // The issues joined as they are found (render-check.ts, render/closures.ts): describeIssues' string, no issue objects.
    return { validate: validator.validate, issues: (value) => validator.check(value) };
  };
}

/** "/location: must be string; /priority: must be one of \"low\", \"high\"; (root): must have required property 'city'". */
function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  let out = "";
  for (let k = 0; k < (errors?.length ?? 0); k++) out += `${k === 0 ? "" : "; "}${errors![k]!.instancePath || "(root)"}: ${describeError(errors![k]!)}`;
  return out;
}

/** ajv's message, with the allowed values where it only says that there are some. */
function describeError(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.keyword === "const") return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? error.keyword;
}
